"""**holds**: is a claimed bound implied by the catalogue's theorems?  z3 (mixed integer/real
arithmetic) looks for admissible values of the quantities and an integer M that obey the theorems
but violate the claim; unsat names the theorems used, which are then re-checked by running the
catalogue (``proofs.verify.runner.run_catalogue``).  Functions z3 cannot reason about are replaced by
fresh variables with true bounds, which can only make a proof fail, never make it wrong."""
from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

from refutation.bound_quantities import INTEGER_QUANTITIES, NAMES, SYMBOLS, domain
from refutation.signs import NotCertifiable, interval

__all__ = ["FACTS", "prove", "catalogue_status", "proved_statement"]


# ---------------------------------------------------------------------------------------------
# Theorems used for "holds" (each names its catalogue entry)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Fact:
    id: str
    statement: str
    catalogue: tuple          # proofs theorem ids that must be proved for the fact to be used
    source: str


FACTS = {
    "block_novikoff": _Fact("block_novikoff", "M <= R^2 W^2 (separable, w* scaled to min y w*.x = 1)",
                            ("block_novikoff_margin_one",), "Lin's slides; = 1/gamma^2 (Blum)"),
    "hinge": _Fact("hinge", "M <= R^2 W^2 + 2L for every w* (L = hinge loss at margin 1)",
                   ("hinge_loss_bound",), "Lin's slides (inseparable data); = Blum's 1/gamma^2 + (2/gamma) TD"),
    "winnow_halve": _Fact("winnow_halve", "M <= 2 + 3r(1 + lg n) (Winnow, double/halve, threshold n)",
                          ("winnow_halving_bound",), "Blum's Winnow notes"),
    "winnow_eliminate": _Fact("winnow_eliminate", "M <= 1 + 2r(1 + lg n) (Winnow, elimination variant)",
                              ("winnow_elimination_bound",), "Blum's Winnow notes"),
    "hinge_exact": _Fact("hinge_exact", "M <= (c/2 + sqrt(c^2/4 + L))^2 with c = R W, for every w* (exact form)",
                         ("hinge_bound_exact_form",), "the catalogue's sharper hinge bound"),
    "winnow_halve_integer": _Fact("winnow_halve_integer", "M <= 1 + 3r(1 + lg n) (Winnow, double/halve, threshold n)",
                                  ("winnow_halving_bound_integer",), "the catalogue's integer sharpening of Blum's bound"),
    "kernel_feature_space": _Fact("kernel_feature_space", "the kernel perceptron is the perceptron on phi(x): "
                                  "the bounds hold in feature space (R = max sqrt K(x, x), W = |w*| there)",
                                  ("kernel_perceptron_is_feature_perceptron",), "Blum 15-859(A); Lin's slides"),
    "one_per_trial": _Fact("one_per_trial", "M <= n: at most one mistake per trial (definition)", (),
                           "definition of the online protocol"),
    # usable only under assumptions (check-bound --assume): each holds where its condition does
    "winnow_halve_pow2_tight": _Fact("winnow_halve_pow2_tight", "M <= r(3 lg n - 2) where n = 2^l >= 2 and r >= 1 "
                                     "(Winnow, double/halve, threshold n; tight)", ("winnow_halving_pow2_tight",),
                                     "the catalogue's tight bound, attained by the exact adversary"),
    "winnow_halve_pow2": _Fact("winnow_halve_pow2", "M <= 1 + r(3 lg n - 2) where n = 2^l >= 2 (Winnow, double/halve)",
                               ("winnow_halving_pow2",), "the catalogue's sharper form of Blum's bound"),
    "winnow_eliminate_pow2": _Fact("winnow_eliminate_pow2", "M <= r(2 lg n - 1) where n = 2^l >= 2 and r >= 1 "
                                   "(Winnow, elimination variant)", ("winnow_elimination_pow2",),
                                   "the catalogue's sharper form of Blum's bound"),
    "perceptron_2d": _Fact("perceptron_2d", "M <= 1 + 1/(2 gamma^2) where d = 2 (separable, examples in the disc "
                           "of radius R, w* scaled to margin 1)", ("perceptron_2d_half_bound",),
                           "this suite: about half of Block-Novikoff's 1/gamma^2 in the plane"),
}


# fact -> (id in proofs.catalogue.bounds.BOUNDS, the same formula as a fallback when proofs.catalogue.bounds is absent)
_BOUND_IDS = {
    "block_novikoff": ("perceptron.margin_one", "R**2*W**2"),
    "hinge": ("perceptron.hinge", "R**2*W**2 + 2*L"),
    "hinge_exact": ("perceptron.hinge_exact", "(R*W/2 + sqrt(R**2*W**2/4 + L))**2"),
    "winnow_halve": ("winnow.halving", "2 + 3*r*(1 + log(n, 2))"),
    "winnow_halve_integer": ("winnow.halving_integer", "1 + 3*r*(1 + log(n, 2))"),
    "winnow_eliminate": ("winnow.elimination", "1 + 2*r*(1 + log(n, 2))"),
    "winnow_halve_pow2_tight": ("winnow.halving_pow2_tight", "r*(3*log(n, 2) - 2)"),
    "winnow_halve_pow2": ("winnow.halving_pow2", "1 + r*(3*log(n, 2) - 2)"),
    "winnow_eliminate_pow2": ("winnow.elimination_pow2", "r*(2*log(n, 2) - 1)"),
    "perceptron_2d": ("perceptron.two_d", "1 + 1/(2*gamma**2)"),
}


def proved_statement(name: str) -> str:
    """What a fact says, printed from its catalogue theorem (``proofs.catalogue.bounds.Bound.explanation``:
    the theorem's statement and what each quantity stands for) where the fact is a catalogue bound;
    the fact's own wording otherwise (a definition, or the feature-space reading)."""
    if name in _BOUND_IDS:
        try:
            from proofs.catalogue.bounds import BOUNDS
            return BOUNDS[_BOUND_IDS[name][0]].explanation()
        except (ImportError, KeyError):
            pass
    return FACTS[name].statement


def _fact_formula(name: str) -> sp.Expr:
    """The proved bound of a fact as a sympy expression in this module's symbols, taken from the
    catalogue's formula table ``proofs.catalogue.bounds.BOUNDS`` (its symbols mean the same here: R, W, L, n,
    r; gamma-forms are not used because the catalogue's gamma there is the unnormalised margin)."""
    bid, fallback = _BOUND_IDS[name]
    try:
        from proofs.catalogue.bounds import BOUNDS
        b = BOUNDS[bid]
        e = b.expr
        fid = FACTS[name]
        if b.theorem not in fid.catalogue:
            raise KeyError(bid)
    except (ImportError, KeyError):
        e = sp.sympify(fallback, locals=dict(SYMBOLS))
    return e.xreplace({x: SYMBOLS[x.name] for x in e.free_symbols})


_CATALOGUE_CACHE: dict = {}


def catalogue_status(ids) -> dict:
    """Run the catalogue on the theorems named (and their lemmas); cached per process."""
    ids = tuple(sorted(set(ids)))
    if not ids:
        return {}
    if ids in _CATALOGUE_CACHE:
        return _CATALOGUE_CACHE[ids]
    out: dict = {}
    todo = list(ids)
    for attempt in range(2):      # a solver timeout on a loaded machine gives "unknown": retry once
        try:
            from proofs.verify.runner import run_catalogue
            res = run_catalogue(todo)
            for tid in todo:
                try:
                    out[tid] = res.by_id(tid).status
                except KeyError:
                    out[tid] = "missing from the catalogue"
        except Exception as e:  # noqa: BLE001 - the catalogue is another part; report, never crash
            for tid in todo:
                out[tid] = f"catalogue unavailable ({type(e).__name__}: {e})"
            break
        todo = [t for t in todo if out[t] == "unknown"]
        if not todo:
            break
    if all(v == "proved" for v in out.values()):
        _CATALOGUE_CACHE[ids] = out
    return out


# ---------------------------------------------------------------------------------------------
# sympy -> z3, sound abstraction of non-polynomial functions
# ---------------------------------------------------------------------------------------------
class _Untranslatable(Exception):
    pass


class _Z3:
    def __init__(self, z3, qvars: dict):
        self.z3 = z3
        self.q = qvars            # name -> z3 real expression
        self.side: list = []      # facts about fresh variables (true for their meaning)
        self.defined: list = []   # conditions for the claim to be defined (sqrt arg >= 0, ...)
        self.cache: dict = {}
        self.k = 0

    def fresh(self, base):
        self.k += 1
        return self.z3.Real(f"{base}_{self.k}")

    def const_bounds(self, e):
        """A fresh variable pinned between rational bounds of the constant e (interval-certified)."""
        try:
            iv = interval(e, 120)
        except (NotCertifiable, ZeroDivisionError, ValueError):
            raise _Untranslatable(f"cannot bound the constant {e}") from None
        lo, hi = _mpf_frac(iv, lo=True), _mpf_frac(iv, lo=False)
        v = self.fresh("c")
        self.side += [v >= _q(self.z3, lo), v <= _q(self.z3, hi)]
        return v

    def tr(self, e):  # noqa: C901
        z3 = self.z3
        if e in self.cache:
            return self.cache[e]
        if e.is_Symbol:
            r = self.q[e.name]
        elif e.is_Rational:
            r = _q(z3, Fraction(int(e.p), int(e.q)))
        elif e.is_number and not e.free_symbols:
            r = self.const_bounds(e)
        elif e.is_Add:
            r = sum((self.tr(a) for a in e.args[1:]), self.tr(e.args[0]))
        elif e.is_Mul:
            r = self.tr(e.args[0])
            for a in e.args[1:]:
                r = r * self.tr(a)
        elif e.is_Pow:
            b, x = e.args
            tb = self.tr(b)
            if x.is_Integer:
                n = int(x)
                if abs(n) > 64:
                    raise _Untranslatable("exponent too large for z3")
                r = z3.RealVal(1)
                for _ in range(abs(n)):
                    r = r * tb
                if n < 0:
                    self.defined.append(tb != 0)
                    r = 1 / r
            elif x.is_Rational:
                p, q = int(x.p), int(x.q)
                s = self.fresh("root")
                self.defined.append(tb >= 0 if p > 0 else tb > 0)
                sq = z3.RealVal(1)
                for _ in range(q):
                    sq = sq * s
                pw = z3.RealVal(1)
                for _ in range(abs(p)):
                    pw = pw * tb
                # s = b^(p/q) >= 0  <=>  s^q = b^p (p > 0) or s^q * b^|p| = 1 (p < 0)
                self.side += [s >= 0, (sq == pw) if p > 0 else (sq * pw == 1)]
                r = s
            else:
                raise _Untranslatable(f"power {e}")
        elif isinstance(e, sp.log):
            a = self.tr(e.args[0])
            self.defined.append(a > 0)
            v = self.fresh("log")
            # log a <= a - 1 and log a >= 1 - 1/a (true for every a > 0)
            self.side += [z3.Implies(a > 0, v <= a - 1), z3.Implies(a > 0, v * a >= a - 1)]
            arg = e.args[0]
            if arg.is_Symbol and arg.name in INTEGER_QUANTITIES:       # integer variable >= 1: log >= 0
                # and lg a <= a - 1 for every integer a >= 1, so log a <= (a - 1) * 0.6931472 (> ln 2)
                self.side += [v >= 0, z3.Implies(a >= 2, v >= _q(z3, Fraction(693147, 1000000))),
                              v <= (a - 1) * _q(z3, Fraction(6931472, 10000000))]
            r = v
        elif isinstance(e, sp.exp):
            a = self.tr(e.args[0])
            v = self.fresh("exp")
            # e^a >= 1 + a + a^2/2 + a^3/6 for every real a (Taylor, remainder e^xi a^4/24 >= 0)
            self.side += [v > 0, v >= 1 + a, v >= 1 + a + a * a / 2 + a * a * a / 6]
            r = v
        elif isinstance(e, sp.floor):
            a = self.tr(e.args[0])
            r = z3.ToReal(z3.ToInt(a))
        elif isinstance(e, sp.ceiling):
            a = self.tr(e.args[0])
            r = -z3.ToReal(z3.ToInt(-a))
        elif isinstance(e, (sp.Min, sp.Max)):
            args = [self.tr(a) for a in e.args]
            r = args[0]
            for a in args[1:]:
                r = z3.If(a < r, a, r) if isinstance(e, sp.Min) else z3.If(a > r, a, r)
        elif isinstance(e, sp.Abs):
            a = self.tr(e.args[0])
            r = z3.If(a >= 0, a, -a)
        elif isinstance(e, (sp.sin, sp.cos, sp.tanh)):
            self.tr(e.args[0])
            v = self.fresh(type(e).__name__)
            self.side += [v >= -1, v <= 1]
            r = v
        else:
            raise _Untranslatable(f"no z3 encoding for {type(e).__name__}")
        self.cache[e] = r
        return r


def _mpf_frac(x, lo: bool) -> Fraction:
    """The exact rational value of an mpmath iv endpoint (a point interval)."""
    import mpmath
    v = x.a if lo else x.b
    v = mpmath.mpf(v)
    man, exp = v.man_exp
    return Fraction(int(man)) * (Fraction(2) ** int(exp))


def _q(z3, f: Fraction):
    return z3.RealVal(f"{f.numerator}/{f.denominator}") if f.denominator != 1 else z3.RealVal(f.numerator)


def prove(algorithm, setting, variant, expr, strict, timeout_ms, assume=None):
    """z3: is there an admissible instance with M violating the claim?  Returns (status, core, info).
    ``assume`` (:class:`refutation.bound_assume.Assumptions`): hypotheses added to the admissible
    values, and the catalogue theorems that hold under them."""
    import z3
    names = NAMES[algorithm]
    ints = {k: z3.Int(k) for k in names if k in INTEGER_QUANTITIES}
    reals = {k: z3.Real(k) for k in names if k not in INTEGER_QUANTITIES}
    q = dict(reals)
    q.update({k: z3.ToReal(v) for k, v in ints.items()})
    fresh = {k: z3.Int(f"fresh_{k}") for k in (assume.fresh if assume else {})}
    q.update({k: z3.ToReal(v) for k, v in fresh.items()})
    Mi = z3.Int("M")
    M = z3.ToReal(Mi)
    s = z3.Solver()
    s.set("timeout", int(timeout_ms))
    # the domain every verdict prints (bound_quantities.domain): the very constraints used here
    dom = [c for _, _, c in domain(z3, algorithm, setting, ints, q, Mi)]
    facts = {}
    tr = _Z3(z3, q)
    if algorithm in ("perceptron", "kernel_perceptron"):
        wanted = ["block_novikoff"] if setting == "separable" else ["hinge", "hinge_exact"]
        facts["one_per_trial"] = M <= q["n"]
    else:
        wanted = [f"winnow_{variant}"] + (["winnow_halve_integer"] if variant == "halve" else [])
    conds = _conditional_facts(algorithm, setting, variant, assume, ints, z3) if assume else {}
    for name in wanted + list(conds):
        try:
            f = M <= tr.tr(_fact_formula(name))
        except _Untranslatable:
            continue
        facts[name] = z3.Implies(conds[name], f) if name in conds else f
    if assume:
        try:
            dom += _assumption_constraints(assume, tr, fresh, z3)
        except _Untranslatable as e:
            return "unknown", [], f"cannot encode an assumption for z3: {e}"
    facts = {k: facts[k] for k in sorted(facts, key=lambda k: k == "one_per_trial")}
    try:
        E = tr.tr(sp.sympify(expr))
    except _Untranslatable as e:
        return "unknown", [], f"cannot encode the claim for z3: {e}"
    for c in dom + tr.side:
        s.add(c)
    # the claim must be defined at every admissible point (sqrt of a negative, log of 0 ...)
    if tr.defined:
        s.push()
        s.add(z3.Not(z3.And(*tr.defined)))
        for name, f in facts.items():
            s.add(f)
        chk = s.check()
        s.pop()
        if chk != z3.unsat:
            return "unknown", [], "the claim may be undefined (a sqrt/log/division) at some admissible values"
    lits = {}
    for name, f in facts.items():
        lits[name] = z3.Bool(f"use_{name}")
        s.add(z3.Implies(lits[name], f))
    # the theorems must leave room for a run: theorems that contradict the domain and the
    # assumptions on their own would make every claim follow
    if s.check(*lits.values()) == z3.unsat:
        return "unknown", [], "the catalogue's bounds leave no admissible run here (a claim would follow vacuously)"
    s.add(M >= E if strict else M > E)
    t = time.monotonic()
    res = s.check(*lits.values())
    info = f"z3 {res} in {time.monotonic() - t:.2f} s"
    if res == z3.unsat:
        names = {str(v): k for k, v in lits.items()}
        core = [names[str(c)] for c in s.unsat_core()]
        # prefer one theorem, the textbook one first (facts are listed textbook-first)
        for name in facts:
            if s.check(lits[name]) == z3.unsat:
                return "proved", [name], info
        # else shrink the core: drop every theorem the proof does not need (z3's core is not minimal)
        for name in sorted(core, key=lambda k: list(facts).index(k), reverse=True):
            rest = [lits[k] for k in core if k != name]
            if s.check(*rest) == z3.unsat:
                core.remove(name)
        return "proved", sorted(core, key=lambda k: list(facts).index(k)), info
    if res == z3.sat:
        m = s.model()
        ex = {}
        for k, v in list(ints.items()) + list(reals.items()) + [("M", Mi)] + list(fresh.items()):
            val = m.eval(v, model_completion=True)
            ex[k] = str(val)
        return "not_implied", [], ex
    return "unknown", [], info + f" ({s.reason_unknown()})"


def _conditional_facts(algorithm, setting, variant, assume, ints, z3) -> dict:
    """The catalogue theorems that hold under the assumptions: fact -> the condition (a z3 formula)
    under which it holds.  Powers of 2 are known only from an assumption Q == 2**v."""
    out = {}
    if algorithm == "winnow" and "n" in assume.pow2:
        n, r = ints["n"], ints["r"]
        if variant == "halve":
            out["winnow_halve_pow2_tight"] = z3.And(n >= 2, r >= 1)
            out["winnow_halve_pow2"] = n >= 2
        else:
            out["winnow_eliminate_pow2"] = z3.And(n >= 2, r >= 1)
    if algorithm == "perceptron" and setting == "separable" and "d" in assume.mentions():
        out["perceptron_2d"] = ints["d"] == 2
    return out


def _assumption_constraints(assume, tr, fresh, z3) -> list:
    """The assumptions as z3 constraints; Q == 2**v as lg Q = v (exactly: log Q = v log 2, both
    sides the very variables the claim's logarithms were given) with the true facts Q >= v + 1,
    v >= 1 => Q >= 2 about powers of 2."""
    cons = [v >= 0 for v in fresh.values()]
    for a in assume.items:
        pw = [qn for qn, vn in assume.pow2.items()
              if {s.name for s in (a.lhs - a.rhs).free_symbols} == {qn, vn} and a.op == "=="]
        if pw:
            qn, vn = pw[0], assume.pow2[pw[0]]
            Q, V = tr.q[qn], fresh[vn]
            logq = tr.tr(sp.log(SYMBOLS[qn]))
            log2 = tr.tr(sp.log(2))
            cons += [Q >= 1, logq == z3.ToReal(V) * log2, Q >= z3.ToReal(V) + 1, z3.Implies(V >= 1, Q >= 2)]
            # Q = 2^v exactly for the exponents a run can have here, and 2^v >= 2^31 beyond them
            cons += [z3.Implies(V == e, Q == 2 ** e) for e in range(31)] + [z3.Implies(V >= 31, Q >= 2 ** 31)]
            continue
        lhs, rhs = tr.tr(a.lhs), tr.tr(a.rhs)
        cons.append({"==": lhs == rhs, ">=": lhs >= rhs, "<=": lhs <= rhs, ">": lhs > rhs, "<": lhs < rhs}[a.op])
    return cons
