"""The proved mistake bounds as formulas, for the other parts (adversary, refutation).

``BOUNDS[id]`` is a :class:`Bound`: a sympy expression over the symbols below, the hypotheses
under which the catalogue proves ``M <= expr``, and the theorem id that proves it (check it with
``proofs.verify.runner.run_catalogue([bound.theorem])`` -- a bound is only as good as that verdict).

Symbols (all real, see :data:`SYMBOLS`): R (max |x|), W (|w*|), B (|b*|, bias case), gamma (margin
of a unit target), L (hinge loss of w* at margin 1), TD (Blum's total distance), n (number of
variables, an integer), r (literals in the target disjunction), lg_n stands for log2(n).

:func:`implies` answers "is ``claimed >= bound`` for every admissible value?" -- proved means the
claimed formula is at least the proved bound everywhere, so it is a valid mistake bound too;
refuted gives a point where the claimed formula is smaller (the proved bound does not imply it;
this alone does not make the claim false); unknown otherwise.

The ``*_pow2*`` bounds hold only where n is a power of 2; the symbol n here is any integer, and
hypotheses cannot say "power of 2", so those entries state the conditions in ``description`` and
the caller must check them (``implies`` compares formulas over every integer n >= 2, which is
stronger than needed and therefore still sound for a "proved" answer).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

from learners.errors import InputError

from proofs.catalogue.core import PROVED, REFUTED, UNKNOWN, Verdict

__all__ = ["Bound", "BOUNDS", "SYMBOLS", "symbols", "bound", "implies", "definitions", "VARIABLES"]


@lru_cache(maxsize=1)
def symbols() -> dict:
    import sympy as sp
    return {
        "R": sp.Symbol("R", nonnegative=True), "W": sp.Symbol("W", nonnegative=True),
        "B": sp.Symbol("B", nonnegative=True), "gamma": sp.Symbol("gamma", positive=True),
        "L": sp.Symbol("L", nonnegative=True), "TD": sp.Symbol("TD", nonnegative=True),
        "n": sp.Symbol("n", integer=True, positive=True), "r": sp.Symbol("r", integer=True, nonnegative=True),
    }


SYMBOLS = ("R", "W", "B", "gamma", "L", "TD", "n", "r")


# What the symbols mean, as formulas over the catalogue's variables (by name: a variable is its
# name, never its display form).  The theorems' own variables R (max |x|), g (gamma), bu (b*),
# n, r are symbols as they are; the others are defined here.
VARIABLES = {("R", "Real"): "R", ("g", "Real"): "gamma", ("bu", "Real"): "B", ("n", "Nat"): "n", ("r", "Nat"): "r"}


@lru_cache(maxsize=1)
def definitions() -> dict:
    """symbol -> the formula it stands for (over the variables of the perceptron theorems:
    w* is the vector ``u``, the run's mistakes are ``x(i)``, ``y(i)`` for i < M)."""
    from proofs.language.formula import NAT, Nat, Real, Sum, dot
    from proofs.language.functions import Max, sqrt
    from proofs.catalogue.perceptron_run import M, g, i, u, x, y
    out = {sym: (Nat if sort == NAT else Real)(name) for (name, sort), sym in VARIABLES.items()}
    out["W"] = sqrt(dot(u, u))
    out["L"] = Sum(i, 0, M - 1, Max(0, 1 - y(i) * dot(x(i), u)))          # hinge loss at margin 1
    out["TD"] = Sum(i, 0, M - 1, Max(0, g - y(i) * dot(x(i), u)))         # Blum's total distance
    return out


@lru_cache(maxsize=1)
def perceptron_terms() -> tuple:
    """How a theorem's conclusion reads in the symbols: a subterm structurally equal to a key
    stands for the expression on the right (every other leaf must be one of :data:`VARIABLES`).
    Each entry is checked against :func:`definitions` on random instances by the tests."""
    from proofs.language.formula import dot
    from proofs.language.functions import sqrt
    from proofs.catalogue.perceptron_run import u
    d = definitions()
    return ((dot(u, u), "W**2"), (sqrt(dot(u, u)), "W"), (d["L"], "L"), (d["TD"], "TD"))


@dataclass(frozen=True)
class Bound:
    """A proved bound M <= expr: the expression is read off the theorem's stated conclusion (the
    first conjunct when it has several), never typed a second time."""
    id: str
    theorem: str                  # catalogue id whose conclusion is "M <= expr [and ...]"
    hypotheses: tuple[str, ...]   # admissible values of the symbols, as text (for ``implies``)
    description: str
    terms: tuple | None = None    # None: perceptron_terms(); () for bounds in the variables alone

    @property
    def expr(self):
        return _expr_of(self.theorem, perceptron_terms() if self.terms is None else self.terms)

    @property
    def formula(self) -> str:
        return str(self.expr)

    def constraints(self):
        import sympy as sp
        loc = {**symbols(), "lg": lambda v: sp.log(v, 2)}
        return [sp.sympify(h, locals=loc) for h in self.hypotheses]

    def explanation(self) -> str:
        """The theorem itself, printed from its formula objects, and what each symbol stands for."""
        from proofs.catalogue import registry
        from proofs.printers.render import text
        from proofs.language.substitution import free_vars
        th = registry.get(self.theorem)
        names = {v.name for v in free_vars(th.conclusion)}
        used = sorted(str(s) for s in self.expr.free_symbols)
        defs = [f"{sym} = {text(f)}" for sym, f in definitions().items()
                if sym in used and not (f.op == "var" and f.name == sym)]
        shown = [f"{sym} is {name}" for (name, _), sym in VARIABLES.items() if name in names and sym != name]
        return (f"{th.id} ({th.name}): {text(th.statement)}" +
                (f"; where {', '.join(shown + defs)}" if shown or defs else ""))


@lru_cache(maxsize=None)
def _expr_of(theorem_id: str, terms: tuple):
    """The right-hand side of the theorem's conclusion M <= rhs, in :data:`SYMBOLS`: the subterms
    in ``terms`` replaced by their symbols, every other variable read by its name
    (:data:`VARIABLES`), then the one formula-to-sympy translation of the suite
    (``proofs.printers.symbolic.to_sympy``)."""
    import sympy as sp

    from proofs.catalogue import registry
    from proofs.language.formula import Expr
    from proofs.printers.render import text
    from proofs.printers.symbolic import to_sympy
    th = registry.get(theorem_id)
    c = th.conclusion
    if c.op == "and":
        c = c.args[0]
    lhs = c.args[0].args[0] if c.args and c.args[0].op == "to_real" else (c.args[0] if c.args else None)
    if c.op != "le" or lhs is None or lhs.op != "var" or lhs.name != "M":
        raise ValueError(f"{theorem_id}: its conclusion is not of the form M <= bound: {text(th.conclusion)}")
    syms = symbols()
    named: dict[str, object] = {}

    def rename(e):
        for key, val in terms:
            if e == key:
                name = f"bound{len(named)}"
                named[name] = sp.sympify(val, locals={**syms, "lg": lambda v: sp.log(v, 2)})
                return Expr("var", name=name, sort=e.sort)
        if e.op == "var":
            sym = VARIABLES.get((e.name, e.sort))
            if sym is None:
                raise ValueError(f"{theorem_id}: {text(e)} has no symbol in proofs.catalogue.bounds")
            return Expr("var", name=sym, sort=e.sort)
        if e.op in ("call", "dot", "sum"):
            raise ValueError(f"{theorem_id}: {text(e)} has no symbol in proofs.catalogue.bounds")
        return Expr(e.op, tuple(rename(x) for x in e.args), e.name, e.sort, e.value) if e.args else e
    out = to_sympy(rename(c.args[1]))
    return out.xreplace({v: named[v.name] if v.name in named else syms[v.name] for v in out.free_symbols})


BOUNDS: dict[str, Bound] = {b.id: b for b in [
    Bound("perceptron.margin_one", "block_novikoff_margin_one", ("R >= 0", "W >= 0"),
          "separable with y(w*.x) >= 1, |x| <= R, W = |w*|"),
    Bound("perceptron.unit_gamma", "block_novikoff_unit", ("gamma > 0", "gamma <= 1"),
          "unit examples, unit target, margin gamma"),
    Bound("perceptron.radius_gamma", "block_novikoff_radius", ("gamma > 0", "R >= gamma"),
          "|x| <= R, unit target, margin gamma"),
    Bound("perceptron.bias", "block_novikoff_bias", ("R >= 0", "W >= 0", "B >= 0"),
          "with bias: y(w*.x + b*) >= 1, |x| <= R"),
    Bound("perceptron.hinge", "hinge_loss_bound", ("R >= 0", "W >= 0", "L >= 0"),
          "any w*, L = hinge loss at margin 1"),
    Bound("perceptron.hinge_exact", "hinge_bound_exact_form", ("R >= 0", "W >= 0", "L >= 0"),
          "exact form of the hinge bound"),
    Bound("perceptron.total_distance", "hinge_total_distance", ("gamma > 0", "R >= 0", "TD >= 0"),
          "unit target, TD = total distance at margin gamma"),
    Bound("perceptron.two_d", "perceptron_2d_half_bound", ("gamma > 0", "gamma <= 1"),
          "d = 2, unit examples, unit target, margin gamma", ()),
    Bound("winnow.halving", "winnow_halving_bound", ("n >= 1", "r >= 0", "r <= n"),
          "Winnow double/halve, threshold n, r-literal monotone disjunction", ()),
    Bound("winnow.halving_integer", "winnow_halving_bound_integer", ("n >= 1", "r >= 0", "r <= n"),
          "the same, using that the counts are integers", ()),
    Bound("winnow.elimination", "winnow_elimination_bound", ("n >= 1", "r >= 0", "r <= n"),
          "Winnow double/eliminate", ()),
    Bound("winnow.halving_pow2", "winnow_halving_pow2", ("n >= 2", "r >= 0", "r <= n"),
          "n a power of 2 (n >= 2)", ()),
    Bound("winnow.halving_pow2_tight", "winnow_halving_pow2_tight", ("n >= 2", "r >= 1", "r <= n"),
          "n a power of 2 (n >= 2), r >= 1: tight (attained by the adversary)", ()),
    Bound("winnow.elimination_pow2", "winnow_elimination_pow2", ("n >= 2", "r >= 1", "r <= n"),
          "n a power of 2 (n >= 2), r >= 1", ()),
]}


def bound(bound_id: str) -> Bound:
    try:
        return BOUNDS[bound_id]
    except KeyError:
        raise InputError(f"unknown bound id {bound_id!r} (known: {', '.join(BOUNDS)})") from None


# ----------------------------------------------------------------------------- implies
class _Untranslatable(Exception):
    pass


def _to_z3(e, env, side):
    import sympy as sp
    import z3
    if e.is_Symbol:
        if e.name not in env:
            raise _Untranslatable(f"unknown symbol {e.name}")
        return env[e.name]
    if e.is_Rational:
        return z3.RealVal(int(e.p)) / int(e.q) if e.q != 1 else z3.RealVal(int(e.p))
    if e.is_Add:
        return z3.Sum([_to_z3(a, env, side) for a in e.args])
    if e.is_Mul:
        out = z3.RealVal(1)
        for a in e.args:
            out = out * _to_z3(a, env, side)
        return out
    if e.is_Pow:
        b, x = e.base, e.exp
        if x.is_Integer:
            k = int(x)
            bz = _to_z3(b, env, side)
            if k >= 0:
                out = z3.RealVal(1)
                for _ in range(k):
                    out = out * bz
                return out
            side.append(bz != 0)
            out = z3.RealVal(1)
            for _ in range(-k):
                out = out * bz
            return 1 / out
        if x == sp.Rational(1, 2) or x == sp.Rational(-1, 2):
            arg = _to_z3(b, env, side)
            s = z3.FreshReal("sqrt")
            side.extend([s >= 0, s * s == arg, arg >= 0])
            return s if x > 0 else 1 / s
    raise _Untranslatable(f"cannot translate {e}")


def implies(claimed, bound_id: str, timeout_ms: int = 4000) -> Verdict:
    """Is ``claimed >= bound`` for all admissible values of the symbols (so that the proved bound
    ``M <= bound`` implies ``M <= claimed``)?  ``claimed``: a sympy expression or a string over
    :data:`SYMBOLS` (``lg(n)`` or ``log(n, 2)`` for log2 n)."""
    import sympy as sp
    import z3
    b = bound(bound_id)
    syms = symbols()
    loc = {**syms, "lg": lambda v: sp.log(v, 2)}
    if isinstance(claimed, str):
        try:
            claimed = sp.sympify(claimed, locals=loc)
        except (sp.SympifyError, SyntaxError, TypeError) as e:
            raise InputError(f"cannot parse the claimed bound: {e}") from None
    else:
        claimed = sp.sympify(claimed)
    t = time.perf_counter()
    lg = sp.Symbol("lg_n", real=True)
    n = syms["n"]

    def prep(e):
        e = e.subs(sp.log(n), lg * sp.log(2))
        return sp.simplify(e) if e.has(sp.log) else e
    diff = prep(claimed) - prep(b.expr)
    env = {name: (z3.Real(name) if name not in ("n", "r") else z3.ToReal(z3.Int(name))) for name in SYMBOLS}
    env["lg_n"] = z3.Real("lg_n")
    side = []
    try:
        dz = _to_z3(sp.expand(diff) if not diff.has(sp.Pow) else diff, env, side)
        cons = [_to_z3(h.lhs, env, side) >= _to_z3(h.rhs, env, side) if isinstance(h, sp.GreaterThan)
                else _to_z3(h.lhs, env, side) > _to_z3(h.rhs, env, side) if isinstance(h, sp.StrictGreaterThan)
                else _to_z3(h.lhs, env, side) <= _to_z3(h.rhs, env, side) if isinstance(h, sp.LessThan)
                else _to_z3(h.lhs, env, side) < _to_z3(h.rhs, env, side)
                for h in b.constraints() if h is not sp.true]
    except _Untranslatable as e:
        return Verdict(UNKNOWN, "z3", time.perf_counter() - t, reason=str(e))
    for name in ("R", "W", "B", "L", "TD"):
        cons.append(env[name] >= 0)
    cons.append(env["gamma"] > 0)
    if diff.has(lg):       # sound facts about lg n for integers n >= 1 (the trusted rule pow2_log2)
        cons += [env["lg_n"] >= 0, env["n"] >= 1 + env["lg_n"], z3.Implies(env["n"] >= 2, env["lg_n"] >= 1)]
    s = z3.Solver()
    s.set("timeout", int(timeout_ms))
    s.add(*cons, *side, dz < 0)
    r = s.check()
    dt = time.perf_counter() - t
    if r == z3.unsat:
        return Verdict(PROVED, "z3", dt, reason=f"claimed >= {b.formula} wherever {', '.join(b.hypotheses)}; "
                                                 f"the bound is {b.explanation()}")
    if r == z3.sat:
        from proofs.engines.engines import model_dict
        m = model_dict(s.model())
        if diff.has(lg):      # lg_n was abstracted: re-evaluate with the real log2 before reporting
            try:
                nv = int(m.get("n", "1"))
                val = diff.subs(lg, sp.log(nv, 2))
                val = val.subs({syms[k]: sp.Rational(v) for k, v in m.items() if k in syms and not v.startswith("~")})
                if not (sp.N(val) < 0):
                    return Verdict(UNKNOWN, "z3", dt, reason="the solver's point does not survive the exact lg n")
                m["lg_n"] = str(sp.N(sp.log(nv, 2), 12))
            except Exception:
                return Verdict(UNKNOWN, "z3", dt, reason="could not re-check the point with the exact lg n")
        return Verdict(REFUTED, "z3", dt, counterexample=m, reason="claimed < proved bound at this point")
    return Verdict(UNKNOWN, "z3", dt, reason=s.reason_unknown())
