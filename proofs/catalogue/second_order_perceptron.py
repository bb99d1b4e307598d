"""The second-order perceptron's mistake bound (Cesa-Bianchi, Conconi & Gentile 2005, Theorem 1, in
the form its proof gives before the logarithms): for every u and every gamma, after M mistakes,

    M gamma - D <= sqrt((a |u|^2 + sum_k (u.x_k)^2) * sum_k q_k / (1 + q_k)),

with D = sum_k max(0, gamma - y_k u.x_k) and q_k = x_k.B_k x_k.  The run is stated over its
mistakes k = 0..M-1, as the learner keeps it: v_0 = 0, v_{k+1} = v_k + y_k x_k; the map B_k, the
inverse of A_k = a I + sum_{j<k} x_j x_j^T, is B_0 z = z/a and, by Sherman-Morrison,
B_{k+1} z = B_k z - (x_k.B_k z / (1 + q_k)) B_k x_k for every z; mistake k is
y_k v_k.B_k x_k <= 0 (the learner's margin v_k.B'x_k, with x_k's own outer product added, is
v_k.B_k x_k / (1 + q_k): the same sign).  Nothing assumes B_k is linear, symmetric or positive
semidefinite: the proof derives it from the two equations.

The proof, as in the paper:
- B_k as a bilinear form, by induction on k: B_k (z + c w) = B_k z + c B_k w and z = w gives
  B_k z = B_k w, each at fresh z, w, c (the step reads B_{k+1} at the same points); for all z, w,
  z.B_k w = w.B_k z (the step reads level k at (z, w), (z, x_k) and (x_k, w)); for all z,
  z.B_k z >= 0 (the step reads level k at x_k and at z + t x_k with t = -x_k.B_k z/(1 + q_k), where
  z.B_{k+1} z = z.B_k z - (x_k.B_k z)^2/(1 + q_k) is >= 0: Cauchy-Schwarz in the B_k form);
- the upper bound: v_{k+1}.B_{k+1} v_{k+1} - v_k.B_k v_k = (2 m + q - m^2)/(1 + q) <= q/(1 + q), m
  the margin y_k v_k.B_k x_k <= 0;
- the lower bound: u.v_k grows by y_k u.x_k >= gamma - max(0, gamma - y_k u.x_k);
- A_k u = a u + sum_{j<k} (u.x_j) x_j is mapped back to u: B_k (A_k u) = u, so
  u.v = v.B_M (A_M u) = (A_M u).B_M v, and the B_M form at v + t A_M u, t real, gives
  (u.v)^2 <= (u.A_M u)(v.B_M v) (its discriminant);
- hence M gamma - D <= u.v_M <= sqrt((u.A_M u) sum_k q_k/(1 + q_k)).

Each "for all z" is the kernel's generalization of a fact about a fresh z that no hypothesis
mentions; the solvers then only instantiate it, at the points the next step names.  The
Sherman-Morrison coefficient is written 1/(1 + q_k) times x_k.B_k z, so that linearity and symmetry
need no division.  The paper's sum_i ln(1 + lambda_i/a) is sum_k ln(1 + q_k) (the matrix
determinant lemma) and each q/(1 + q) <= ln(1 + q): that last form is the Coq learner theorem's,
not restated here.
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.language.formula import (NAT, REAL, VEC, And, Eq, ForAll, Fun, Implies, Nat, Real, Seq, Sum, Vec, dot,
                                     forall_below, num, vzero)
from proofs.language.functions import Max, VSum, sqrt
from proofs.kernel.kernel import induction_goals
from proofs.catalogue.sources import CESA_BIANCHI_CONCONI_GENTILE

M = Nat("M")
k, j, s = Nat("k"), Nat("j"), Nat("s")
a = Real("a")
g = Real("gamma", tex=r"\gamma")
u = Vec("u")
x = Seq("x", VEC)                       # the instances of the mistakes, in order
y = Seq("y", REAL)                      # their labels
v = Seq("v", VEC)                       # the weight vector before mistake k
B = Fun("B", (NAT, VEC), VEC)           # B(k, z) = B_k z, B_k the inverse of A_k

# the invariant's bound variables, and the fresh variables its proof generalizes
zz, ww, cc = Vec("zz", tex="z", text="z"), Vec("ww", tex="w", text="w"), Real("cc", tex="c", text="c")
z, w, c = Vec("z"), Vec("w"), Real("c")


def q(i):
    """q_i = x_i.B_i x_i."""
    return dot(x(i), B(i, x(i)))


def h(i):
    """1/(1 + q_i)."""
    return 1 / (1 + q(i))


def sm(i, pt):
    """B_{i+1} pt by Sherman-Morrison from B_i."""
    return B(i, pt) - (h(i) * dot(x(i), B(i, pt))) * B(i, x(i))


HYPOTHESES = [
    ("a_pos", a > 0),
    ("starts_at_zero", Eq(v(0), vzero())),
    ("b_start", ForAll(zz, Eq(B(0, zz), (1 / a) * zz))),
    ("sherman_morrison", ForAll([k, zz], Implies(And(num(0) <= k, k < M), Eq(B(k + 1, zz), sm(k, zz))))),
    ("update", forall_below(k, M, Eq(v(k + 1), v(k) + y(k) * x(k)))),
    ("mistake", forall_below(k, M, y(k) * dot(v(k), B(k, x(k))) <= 0)),
    ("labels_pm1", forall_below(k, M, Eq(y(k) ** 2, 1))),
]

LOSS = Sum(s, 0, M - 1, Max(num(0), g - y(s) * dot(u, x(s))))
PROJ = Sum(s, 0, M - 1, dot(u, x(s)) ** 2)
RATIO = Sum(s, 0, M - 1, q(s) / (1 + q(s)))
U_FORM = a * dot(u, u) + PROJ
CONCLUSION = M * g - LOSS <= sqrt(U_FORM * RATIO)


# ----------------------------------------------------------------------------- B_k as a bilinear form
def lin(i, p_, r_, e_):
    return Eq(B(i, p_ + e_ * r_), B(i, p_) + e_ * B(i, r_))


def sym(i, p_, r_):
    return Eq(dot(p_, B(i, r_)), dot(r_, B(i, p_)))


def psd(i, p_):
    return dot(p_, B(i, p_)) >= 0


def ext(i, p_, r_):
    return Implies(Eq(p_, r_), Eq(B(i, p_), B(i, r_)))


_P, _Q, _R, _Z = Vec("P"), Vec("Q"), Vec("R"), Vec("Z")
_e, _f, _g, _h = Real("e"), Real("f"), Real("g"), Real("h")


class Laws:
    """The inner-product identities the proof reads at several places, each checked once."""

    def __init__(self, p):
        self.linear = p.identity("dot_linear_identity", dot(_Z, _P + _e * _Q), dot(_Z, _P) + _e * dot(_Z, _Q),
                                 title="z.(p + c q) = z.p + c z.q")
        self.sub = p.identity("dot_sub_identity", dot(_Z, _Q - _h * _R), dot(_Z, _Q) - _h * dot(_Z, _R),
                              title="z.(q - h r) = z.q - h z.r")
        self.expand = p.identity("form_expand_identity", dot(_Z + _e * _R, _P + _e * _Q),
                                 dot(_Z, _P) + _e * dot(_Z, _Q) + _e * dot(_R, _P) + _e * _e * dot(_R, _Q),
                                 title="(z + t x).(p + t r) = z.p + t z.r + t x.p + t^2 x.r")
        self.comm = p.identity("dot_comm_identity", dot(_Z, _P), dot(_P, _Z), title="z.p = p.z")


def _sm_at(p, i, pt):
    return p.inst(p.hyp("sherman_morrison"), i, pt)


def _start_at(p, pt):
    return p.inst(p.hyp("b_start"), pt)


def _linear(p, laws):
    """For every k <= M: B_k(z + c w) = B_k z + c B_k w (at fresh z, w, c; by induction)."""
    base_goal, step_goal = induction_goals(k, lin(k, z, w, c), M)
    scale = p.identity("start_linear_identity", _h * (_P + _e * _Q), _h * _P + _e * (_h * _Q),
                       title="h (z + c w) = h z + c (h w)")
    base = p.solve("linear_at_start", [_start_at(p, z + c * w), _start_at(p, z), _start_at(p, w),
                                       p.specialize(scale, {_P: z, _Q: w, _e: c, _h: 1 / a})], base_goal,
                   title="B_0 z = z/a is linear")
    X, Bz, Bw, Bx = x(k), B(k, z), B(k, w), B(k, x(k))
    vlin = p.identity("sm_linear_identity", (_P + _e * _Q) - (_h * (_f + _e * _g)) * _R,
                      (_P - (_h * _f) * _R) + _e * (_Q - (_h * _g) * _R),
                      title="(p + c q) - h (f + c g) r = (p - h f r) + c (q - h g r)")
    step = p.solve("linear_after_update", [
        _sm_at(p, k, z + c * w), _sm_at(p, k, z), _sm_at(p, k, w), p.specialize(laws.linear, {_Z: X, _P: Bz, _Q: Bw, _e: c}),
        p.specialize(vlin, {_P: Bz, _Q: Bw, _R: Bx, _e: c, _h: h(k), _f: dot(X, Bz), _g: dot(X, Bw)})], step_goal,
        title="x.B_k(z + c w) = x.B_k z + c x.B_k w, so each Sherman-Morrison term is linear too")
    return p.induction(k, lin(k, z, w, c), base, step, M)


def _function(p):
    """For every k <= M: z = w gives B_k z = B_k w (B_k z is read from z alone; by induction)."""
    base_goal, step_goal = induction_goals(k, ext(k, z, w), M)
    base = p.solve("function_at_start", [_start_at(p, z), _start_at(p, w)], base_goal, title="B_0 z = z/a")
    step = p.solve("function_after_update", [_sm_at(p, k, z), _sm_at(p, k, w)], step_goal,
                   title="B_{k+1} z is read from B_k z and x_k")
    return p.induction(k, ext(k, z, w), base, step, M)


def _symmetric(p, laws):
    """For every k <= M and all z, w: z.B_k w = w.B_k z (by induction, the step reading B_k at x_k)."""
    P = ForAll([zz, ww], sym(k, zz, ww))
    ident = p.identity("start_symmetric_identity", dot(_P, _h * _Q), dot(_Q, _h * _P), title="z.(h w) = w.(h z)")
    base = p.solve("symmetric_at_start", [_start_at(p, zz), _start_at(p, ww),
                                          p.specialize(ident, {_P: zz, _Q: ww, _h: 1 / a})], sym(0, zz, ww),
                   title="z.(w/a) = w.(z/a)")
    X, Bz, Bw, Bx = x(k), B(k, z), B(k, w), B(k, x(k))
    ctx = And(num(0) <= k, k < M, sym(k, z, w), sym(k, z, X), sym(k, X, w))
    one = p.solve("symmetric_after_update", [
        _sm_at(p, k, z), _sm_at(p, k, w), p.specialize(laws.sub, {_Z: z, _Q: Bw, _R: Bx, _h: h(k) * dot(X, Bw)}),
        p.specialize(laws.sub, {_Z: w, _Q: Bz, _R: Bx, _h: h(k) * dot(X, Bz)})], Implies(ctx, sym(k + 1, z, w)),
        title="z.B_{k+1} w = z.B_k w - (x.B_k w)(z.B_k x)/(1 + q), symmetric in z and w")
    _, step_goal = induction_goals(k, P, M)
    step = p.solve("symmetric_step", [p.generalize(one, z, w)], step_goal,
                   title="at every z, w, from level k at (z, w), (z, x_k) and (x_k, w)")
    return p.induction(k, P, p.generalize(base, zz, ww), step, M)


def _nonnegative(p, lin_k, sym_k, laws):
    """For every k <= M and every z: z.B_k z >= 0 (by induction: Cauchy-Schwarz in the B_k form, read
    at z + t x_k)."""
    P = ForAll(zz, psd(k, zz))
    ident = p.identity("start_form_identity", dot(_P, _h * _P), _h * dot(_P, _P), title="z.(h z) = h |z|^2")
    base = p.solve("nonnegative_at_start", [_start_at(p, zz), p.specialize(ident, {_P: zz, _h: 1 / a}), p.hyp("a_pos"),
                                            p.rule("finite_sum_linearity", "dot_nonneg", zz)], psd(0, zz),
                   title="z.(z/a) = |z|^2/a >= 0")
    X, Bz, Bx = x(k), B(k, z), B(k, x(k))
    t = -(h(k) * dot(X, Bz))
    guard = And(num(0) <= k, k < M)
    lvl = p.solve("symmetric_at_z_x", [sym_k], Implies(guard, sym(k, z, X)), title="z.B_k x = x.B_k z")
    ctx = And(num(0) <= k, k < M, psd(k, X), psd(k, z + t * X))
    one = p.solve("nonnegative_after_update", [
        _sm_at(p, k, z), p.specialize(lin_k, {w: X, c: t}), lvl,
        p.specialize(laws.sub, {_Z: z, _Q: Bz, _R: Bx, _h: h(k) * dot(X, Bz)}),
        p.specialize(laws.expand, {_Z: z, _R: X, _P: Bz, _Q: Bx, _e: t})], Implies(ctx, psd(k + 1, z)),
        title="z.B_{k+1} z = S - p^2/(1 + q), and 0 <= (z + t x).B_k(z + t x) = S - 2 p^2/(1+q) + p^2 q/(1+q)^2 "
              "at t = -p/(1+q) (S = z.B_k z, p = x.B_k z)")
    _, step_goal = induction_goals(k, P, M)
    step = p.solve("nonnegative_step", [p.generalize(one, z)], step_goal,
                   title="at every z, from level k at x_k and z + t x_k")
    return p.induction(k, P, p.generalize(base, zz), step, M)


class Form:
    """The four facts about B_k, each for every k <= M, and their instances."""

    def __init__(self, p, laws):
        self.p, self.laws = p, laws
        self.lin, self.ext, self.sym = _linear(p, laws), _function(p), _symmetric(p, laws)
        self.psd = _nonnegative(p, p.inst(self.lin, k), p.inst(self.sym, k), laws)

    def linear(self, i, p_, r_, e_):
        return self.p.specialize(self.p.inst(self.lin, i), {z: p_, w: r_, c: e_})

    def function(self, i, p_, r_):
        return self.p.specialize(self.p.inst(self.ext, i), {z: p_, w: r_})

    def at(self, sid, i, guard, syms=(), psds=()):
        """The symmetric and nonnegative parts at level i at the points given (one step)."""
        p = self.p
        facts = ([p.inst(self.sym, i)] if syms else []) + ([p.inst(self.psd, i)] if psds else [])
        return p.solve(sid, facts, Implies(guard, And(*[sym(i, a_, b_) for a_, b_ in syms], *[psd(i, a_) for a_ in psds])),
                       title="B symmetric and nonnegative at the points the step reads")


# ----------------------------------------------------------------------------- the three bounds
def _upper(p, F):
    """v_k.B_k v_k <= sum_{s<k} q_s/(1 + q_s), by induction."""
    P = dot(v(k), B(k, v(k))) <= Sum(s, 0, k - 1, q(s) / (1 + q(s)))
    base_goal, step_goal = induction_goals(k, P, M)
    zero = p.identity("form_at_zero_identity", dot(vzero(), _Z), num(0), title="0.z = 0")
    base = p.solve("upper_start", [p.hyp("starts_at_zero"), p.specialize(zero, {_Z: B(0, v(0))}),
                                   p.rule("finite_sum_linearity", "sum_empty", s, num(0), q(s) / (1 + q(s)))],
                   base_goal, title="v_0 = 0")
    X, Bv, Bx, Y = x(k), B(k, v(k)), B(k, x(k)), y(k)
    nv = v(k) + Y * X
    guard = And(num(0) <= k, k < M)
    expand = p.identity("form_after_update_identity", dot(_P + _e * _Z, (_Q + _e * _R) - _h * _R),
                        dot(_P, _Q) + _e * dot(_P, _R) - _h * dot(_P, _R) + _e * dot(_Z, _Q) + _e * _e * dot(_Z, _R)
                        - _h * _e * dot(_Z, _R), title="(v + y x).(B v + y B x - h B x) expanded")
    m = dot(X, Bv)
    lvl = F.at("upper_level_k", k, guard, syms=[(v(k), X)], psds=[X])
    grown = p.solve("upper_step_expand", [
        lvl, F.linear(k, v(k), X, Y), F.function(k + 1, v(k + 1), nv), _sm_at(p, k, nv), p.inst(p.hyp("update"), k),
        p.specialize(F.laws.linear, {_Z: X, _P: Bv, _Q: Bx, _e: Y}),
        p.specialize(expand, {_P: v(k), _Z: X, _Q: Bv, _R: Bx, _e: Y, _h: h(k) * dot(X, B(k, nv))})],
        Implies(guard, Eq(dot(v(k + 1), B(k + 1, v(k + 1))), dot(v(k), Bv) + 2 * Y * m + Y ** 2 * q(k)
                          - h(k) * (m + Y * q(k)) ** 2)),
        title="v_{k+1}.B_{k+1} v_{k+1} = v.B v + 2 y m + y^2 q - (m + y q)^2/(1 + q), m = x.B v = v.B x")
    Ys, ms, qs, Hs = (Real(f"sop_{n}", tex=n, text=n) for n in ("y", "m", "q", "H"))
    gain = p.solve("upper_gain", [], Implies(And(Eq(Ys ** 2, 1), Ys * ms <= 0, qs >= 0, Eq(Hs * (1 + qs), 1)),
                                             2 * Ys * ms + Ys ** 2 * qs - Hs * (ms + Ys * qs) ** 2 <= qs * Hs),
                   title="(2 y m + q)(1 + q) - (m + y q)^2 = q + 2 y m - m^2 <= q when y m <= 0, y^2 = 1")
    recip = p.solve("upper_reciprocal", [], Implies(qs >= 0, And(Eq((1 / (1 + qs)) * (1 + qs), 1),
                                                                 Eq(qs / (1 + qs), qs * (1 / (1 + qs))))),
                    title="1/(1 + q) is the inverse of 1 + q >= 1")
    step = p.solve("upper_step", [
        grown, lvl, p.specialize(gain, {Ys: Y, ms: m, qs: q(k), Hs: h(k)}), p.specialize(recip, {qs: q(k)}),
        p.inst(p.hyp("mistake"), k),
        p.inst(p.hyp("labels_pm1"), k), p.rule("finite_sum_linearity", "sum_succ", s, num(0), k - 1, q(s) / (1 + q(s)))],
        step_goal, title="a mistake adds (2 m + q - m^2)/(1 + q) <= q/(1 + q), m = y v.B x <= 0")
    return p.inst(p.induction(k, P, base, step, M), M)


def _lower(p, F):
    """u.v_k >= k gamma - sum_{s<k} max(0, gamma - y_s u.x_s), by induction."""
    term = Max(num(0), g - y(s) * dot(u, x(s)))
    P = dot(u, v(k)) >= k * g - Sum(s, 0, k - 1, term)
    base_goal, step_goal = induction_goals(k, P, M)
    zero = p.identity("target_at_zero_identity", dot(u, vzero()), num(0), title="u.0 = 0")
    base = p.solve("lower_start", [p.hyp("starts_at_zero"), zero,
                                   p.rule("finite_sum_linearity", "sum_empty", s, num(0), term)],
                   base_goal, title="v_0 = 0")
    grow = p.specialize(F.laws.linear, {_Z: u, _P: v(k), _Q: x(k), _e: y(k)})
    step = p.solve("lower_step", [p.inst(p.hyp("update"), k), grow,
                                  p.rule("finite_sum_linearity", "sum_succ", s, num(0), k - 1, term)],
                   step_goal, title="u.v grows by y u.x >= gamma - max(0, gamma - y u.x)")
    return p.inst(p.induction(k, P, base, step, M), M)


def a_u(i):
    """A_i u = a u + sum_{j<i} (u.x_j) x_j."""
    return a * u + VSum(j, 0, i - 1, dot(u, x(j)) * x(j))


def _inverse(p, F):
    """B_k(A_k u) = u and u.A_k u = a |u|^2 + sum_{s<k} (u.x_s)^2, by induction."""
    P = And(Eq(B(k, a_u(k)), u), Eq(dot(u, a_u(k)), a * dot(u, u) + Sum(s, 0, k - 1, dot(u, x(s)) ** 2)))
    base_goal, step_goal = induction_goals(k, P, M)
    e0 = p.rule("vector_sums", "vsum_empty", j, num(0), dot(u, x(j)) * x(j))
    scale = p.identity("start_inverse_identity", _h * (_e * _P + vzero()), (_h * _e) * _P,
                       title="(1/a)(a u + 0) = ((1/a) a) u")
    one = p.identity("scale_one_identity", 1 * _P, _P, title="1 u = u")
    dz = p.identity("start_quadratic_identity", dot(_P, _e * _P + vzero()), _e * dot(_P, _P), title="u.(a u + 0) = a |u|^2")
    base = p.solve("inverse_start", [e0, _start_at(p, a_u(0)), p.specialize(scale, {_P: u, _e: a, _h: 1 / a}),
                                     p.specialize(one, {_P: u}), p.specialize(dz, {_P: u, _e: a}), p.hyp("a_pos"),
                                     p.rule("finite_sum_linearity", "sum_empty", s, num(0), dot(u, x(s)) ** 2)],
                   base_goal, title="B_0(a u) = u, u.(a u) = a |u|^2")
    X, r = x(k), dot(u, x(k))
    old = a_u(k)
    grown = old + r * X
    e1 = p.rule("vector_sums", "vsum_succ", j, num(0), k - 1, dot(u, x(j)) * x(j))
    assoc = p.identity("grow_identity", _e * _P + (_Z + _h * _R), (_e * _P + _Z) + _h * _R,
                       title="a u + (S + r x) = (a u + S) + r x")
    cancel = p.identity("inverse_cancel_identity", (_P + _h * _R) - _h * _R, _P, title="u + r B x - r B x = u")
    guard = And(num(0) <= k, k < M)
    step = p.solve("inverse_step", [
        e1, p.specialize(assoc, {_P: u, _e: a, _Z: VSum(j, 0, k - 1, dot(u, x(j)) * x(j)), _R: X, _h: r}),
        F.at("inverse_level_k", k, guard, psds=[X]), F.linear(k, old, X, r), F.function(k + 1, a_u(k + 1), grown),
        _sm_at(p, k, grown), p.specialize(F.laws.linear, {_Z: X, _P: u, _Q: B(k, X), _e: r}),
        p.specialize(cancel, {_P: u, _R: B(k, X), _h: r}), p.specialize(F.laws.comm, {_Z: X, _P: u}),
        p.specialize(F.laws.linear, {_Z: u, _P: old, _Q: X, _e: r}),
        p.rule("finite_sum_linearity", "sum_succ", s, num(0), k - 1, dot(u, x(s)) ** 2)],
        step_goal, title="B_{k+1}(A_k u + r x) = u + r B_k x - ((x.u + r q)/(1 + q)) B_k x = u, r = u.x")
    return p.inst(p.induction(k, P, base, step, M), M)


def _proof(p):
    F = Form(p, Laws(p))
    up, low, back = _upper(p, F), _lower(p, F), _inverse(p, F)
    V, Au = v(M), a_u(M)
    Phi, U, m = dot(V, B(M, V)), dot(u, Au), dot(u, V)
    ts = (-(m / U), -((Phi + 1) / (2 * m)))     # the discriminant's minimum, and (when U = 0) its slope
    forms = F.at("final_form_points", M, And(num(0) <= M, M <= M), syms=[(V, Au)],
                 psds=[V] + [V + t * Au for t in ts])
    comm = F.laws.comm
    cross = p.solve("final_cross_terms", [forms, back, p.specialize(comm, {_Z: V, _P: u}),
                                          p.specialize(comm, {_Z: Au, _P: u})],
                    And(Eq(dot(V, B(M, Au)), m), Eq(dot(Au, B(M, V)), m), Eq(dot(Au, B(M, Au)), U)),
                    title="B_M(A u) = u: v.B(A u) = (A u).B v = u.v and (A u).B(A u) = u.A u")
    quad = p.solve("final_quadratics", [forms, cross] + [F.linear(M, V, Au, t) for t in ts]
                   + [p.specialize(F.laws.expand, {_Z: V, _R: Au, _P: B(M, V), _Q: B(M, Au), _e: t}) for t in ts],
                   And(*[Phi + 2 * t * m + t * t * U >= 0 for t in ts]),
                   title="0 <= (v + t A u).B_M(v + t A u) = v.B v + 2 t u.v + t^2 u.A u")
    terms = p.solve("squares_nonneg", [], ForAll(s, Implies(And(num(0) <= s, s <= M - 1), dot(u, x(s)) ** 2 >= 0)),
                    title="every (u.x_s)^2 is >= 0")
    proj = p.rule("finite_sum_linearity", "sum_nonneg", s, num(0), M - 1, dot(u, x(s)) ** 2)
    u_nonneg = p.solve("u_form_nonneg", [back, terms, proj, p.hyp("a_pos"), p.rule("finite_sum_linearity", "dot_nonneg", u)],
                       U >= 0, title="u.A u = a |u|^2 + sum (u.x)^2 >= 0")
    cs = p.solve("final_cauchy_schwarz", [quad, u_nonneg, forms], m * m <= U * Phi,
                 title="the discriminant: (u.v)^2 <= (u.A u)(v.B v) (if u.A u = 0, the slope forces u.v = 0)")
    root = p.rule("sqrt_def", "sqrt_sq", U_FORM * RATIO)
    return p.solve("second_order_bound", [low, cs, up, u_nonneg, back, forms, root], p.theorem.conclusion,
                   title="M gamma - D <= u.v <= sqrt((u.A u)(v.B v)) <= sqrt((u.A u) sum q/(1 + q))")


THEOREMS = [
    Theorem(
        id="second_order_perceptron_bound",
        name="The second-order perceptron's mistake bound",
        source=Source(CESA_BIANCHI_CONCONI_GENTILE, "Cesa-Bianchi, Conconi & Gentile 2005, Theorem 1 (its proof, "
                      "before q/(1+q) <= ln(1+q))",
                      "M <= inf_gamma [D/gamma + (1/gamma) sqrt((a |u|^2 + sum (u.x)^2) sum ln(1 + lambda_i/a))]"),
        hypotheses=HYPOTHESES,
        conclusion=CONCLUSION,
        proof=_proof,
        encoding="instances x_k in R^d with labels y_k = +-1 at the mistakes k < M; B(k, z) = B_k z; a > 0; u any "
                 "vector, gamma any real",
        witness_sizes={M: 1},
    ),
]
