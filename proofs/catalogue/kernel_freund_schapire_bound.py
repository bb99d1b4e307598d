"""Freund & Schapire (1999), Theorem 2 in its kernel form (section 6 of the paper: the algorithm
uses the examples only through inner products, so a kernel K(x, x') = phi(x).phi(x') replaces
them): on any sequence, the kernel perceptron makes at most ((R + D) / gamma)^2 mistakes, where
R^2 >= K(z, z) on the mistakes, u is a unit vector of phi's feature space and
D = sqrt(sum_t max(0, gamma - y_t (u.phi(z_t)))^2).

The run is restricted to its mistakes, as for the linear bound: z(k) is the k-th mistake's input,
x(k) = phi(z(k)) its feature vector, and w(k) = sum_{j<k} y(j) phi(z(j)) the feature vector that
the kernel perceptron's dual coefficients stand for (w(0) = 0, w(k+1) = w(k) + y(k) x(k)).  The
kernel perceptron's mistake is stated in kernel terms only: y(k) sum_{j<k} y(j) K(z(j), z(k)) <= 0.

The proof: by induction on k, w(k).phi(p) = sum_{j<k} y(j) K(z(j), p) for every point p, so the
kernel test is the feature-space test y(k) w(k).x(k) <= 0; K(z, z) = |phi(z)|^2 <= R^2 is the
feature-space radius.  With these two facts, the linear proof's steps (``freund_schapire_bound``)
run unchanged over the feature space, an inner-product space of its own dimension.
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.catalogue.feature_maps import feature_map
from proofs.language.formula import REAL, VEC, And, Eq, Fun, Implies, Nat, Real, Seq, Sum, Vec, dot, forall_below, num, vzero
from proofs.catalogue.freund_schapire_bound import Q, R_NONNEG, _proof as _linear_proof
from proofs.catalogue.inseparable_hinge import G_POS, UNIT_U
from proofs.kernel.kernel import induction_goals
from proofs.catalogue.perceptron_run import M, R, g, k, w, x, y
from proofs.catalogue.sources import FREUND_SCHAPIRE
from proofs.language.functions import sqrt

z = Seq("z", VEC)                      # the mistakes' inputs
j, n, m_ = Nat("j"), Nat("n"), Nat("m")
pt = Vec("p")                          # any point
phi = Fun("phi", (VEC,), VEC, tex=r"\phi")
K = Fun("K", (VEC, VEC), REAL)


def kernel_activation(s, point):
    """sum_{j<s} y(j) K(z(j), point): the kernel perceptron's activation after s mistakes."""
    return Sum(j, 0, s - 1, y(j) * K(z(j), point))


HYPOTHESES = [
    feature_map(K, phi, "feature_map", Vec("a"), Vec("b")),
    ("features", forall_below(k, M, Eq(x(k), phi(z(k))))),
    ("starts_at_zero", Eq(w(0), vzero())),
    ("update_on_mistake", forall_below(k, M, Eq(w(k + 1), w(k) + y(k) * x(k)))),
    ("kernel_mistake", forall_below(k, M, y(k) * kernel_activation(k, z(k)) <= 0)),
    ("labels_pm1", forall_below(k, M, Eq(y(k) ** 2, 1))),
    ("kernel_radius", forall_below(k, M, K(z(k), z(k)) <= R ** 2)),
    R_NONNEG, UNIT_U, G_POS,
]


class _FeatureSpace:
    """The proof object as the linear proof sees it: the hypotheses "mistake" and "radius" of the
    linear run are facts proved here from the kernel's; every step lands in the kernel proof."""

    def __init__(self, p, derived):
        self._p, self._derived = p, derived

    def hyp(self, name):
        return self._derived[name] if name in self._derived else self._p.hyp(name)

    def __getattr__(self, name):
        return getattr(self._p, name)


def _activation(p):
    """for all m <= M: w(m).phi(p) = sum_{j<m} y(j) K(z(j), p)."""
    P = Eq(dot(w(m_), phi(pt)), kernel_activation(m_, pt))
    base_goal, step_goal = induction_goals(m_, P, M)
    zero = p.identity("kfs_zero_inner_product", dot(vzero(), phi(pt)), num(0), title="0.phi(p) = 0")
    base = p.solve("kfs_activation_empty", [p.hyp("starts_at_zero"), zero,
                                            p.rule("finite_sum_linearity", "sum_empty", j, num(0),
                                                   y(j) * K(z(j), pt))],
                   base_goal, title="no mistake yet: w = 0 and the activation is the empty sum")
    vv, gg, hh, sc = Vec("v"), Vec("f"), Vec("h"), Real("s")
    lin = p.identity("kfs_inner_product_linear", dot(vv + sc * gg, hh), dot(vv, hh) + sc * dot(gg, hh),
                     title="(v + s f).h = v.h + s (f.h)")
    step = p.solve("kfs_activation_next", [
        p.inst(p.hyp("update_on_mistake"), m_), p.inst(p.hyp("features"), m_),
        p.specialize(lin, {vv: w(m_), sc: y(m_), gg: x(m_), hh: phi(pt)}),
        p.inst(p.hyp("feature_map"), z(m_), pt),
        p.rule("finite_sum_linearity", "sum_succ", j, num(0), m_ - 1, y(j) * K(z(j), pt))],
        step_goal, title="one more mistake: y(m_) phi(z(m_)).phi(p) = y(m_) K(z(m_), p)")
    return p.induction(m_, P, base, step, M)


def _proof(p):
    act = _activation(p)
    Pm = Implies(n <= M - 1, y(n) * dot(w(n), x(n)) <= 0)
    base_goal, step_goal = induction_goals(n, Pm, M)
    base = p.solve("kfs_first_mistake", [p.hyp("starts_at_zero"),
                                         p.identity("kfs_dot_zero", dot(vzero(), x(0)), num(0), title="0.x = 0")],
                   base_goal, title="w(0) = 0: the first test is a tie")
    step = p.solve("kfs_test_next", [p.inst(p.specialize(act, {pt: z(n + 1)}), n + 1),
                                     p.inst(p.hyp("features"), n + 1), p.inst(p.hyp("kernel_mistake"), n + 1)],
                   step_goal, title="the kernel test at mistake n + 1 is the feature-space test")
    tests = p.induction(n, Pm, base, step, M)
    mistake = p.solve("kfs_feature_mistakes", [tests], forall_below(k, M, y(k) * dot(w(k), x(k)) <= 0),
                      title="every mistake is a mistake of the perceptron on the features")
    radius = p.solve("kfs_feature_radius", [p.hyp("features"), p.hyp("feature_map"), p.hyp("kernel_radius")],
                     forall_below(k, M, dot(x(k), x(k)) <= R ** 2), title="|phi(z)|^2 = K(z, z) <= R^2")
    return _linear_proof(_FeatureSpace(p, {"mistake": mistake, "radius": radius}))


THEOREMS = [
    Theorem(
        id="kernel_freund_schapire_bound",
        name="Freund-Schapire, kernel form: the kernel perceptron makes at most ((R + D)/gamma)^2 mistakes",
        source=Source(FREUND_SCHAPIRE, "Freund & Schapire 1999, Theorem 2 and section 6 (kernel functions)",
                      "The perceptron uses the examples only through inner products, so the bound holds for the "
                      "kernel perceptron in phi's feature space, with R^2 >= K(x, x) and u of norm 1 there."),
        hypotheses=HYPOTHESES,
        conclusion=M <= ((R + sqrt(Q)) / g) ** 2,
        proof=_proof, encoding="the run restricted to its mistakes; z(k) in R^d, features x(k) = phi(z(k)) and w, "
                               "u in phi's feature space (an inner-product space of its own dimension)",
        notes="D sums the squared hinge losses of u at margin gamma over the mistakes, in the feature space; "
              "with the linear kernel phi(z) = z it is the linear bound.",
    ),
]
_ = And
