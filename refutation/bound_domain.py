"""The domain a bound claim is checked on, and the assumptions checked against it.

check-bound answers about the values of the quantities its setting allows
(:func:`refutation.bound_quantities.domain`: R, W, gamma > 0 with gamma = 1/(R W), integers
n, d, r >= 1, ...); every verdict prints that domain.  An assumption (``--assume``) must describe
runs inside it:

* an assumption that no value of the domain satisfies (``R == 0`` where R > 0; ``d == 3/2`` for
  the integer d) is bad input, reported with the part of the domain it leaves (exit 2);
* assumptions each possible on their own but impossible together, with the domain and the
  setting, make every claim true and say nothing: the verdict is **vacuous** (exit 1), never
  "holds";
* satisfiability is shown by a witness: z3's model, its values checked exactly (the domain's
  constraints evaluated in rational arithmetic, each assumption by a certified sign).  When no
  witness is confirmed the claim cannot come out "holds".

A z3 model that obeys the catalogue's theorems but violates the claim is not by itself a run of
the learner; :func:`model_hint` turns it into the instance the counterexample search replays
first (the exact learner's mistake count decides).
"""
from __future__ import annotations

from fractions import Fraction

import sympy as sp

from learners.errors import InputError

from refutation.bound_quantities import INTEGER_QUANTITIES, NAMES, SYMBOLS, domain

__all__ = ["check_assumptions", "model_hint"]


def _vars(z3, algorithm, assume):
    names = NAMES[algorithm]
    ints = {k: z3.Int(k) for k in names if k in INTEGER_QUANTITIES}
    reals = {k: z3.Real(k) for k in names if k not in INTEGER_QUANTITIES}
    q = dict(reals)
    q.update({k: z3.ToReal(v) for k, v in ints.items()})
    fresh = {k: z3.Int(f"fresh_{k}") for k in (assume.fresh if assume else {})}
    q.update({k: z3.ToReal(v) for k, v in fresh.items()})
    return ints, reals, q, fresh


def _encode(z3, tr, assume, one, fresh):
    """One assumption as z3 constraints (with what the translator adds about its functions)."""
    from refutation.bound_assume import Assumptions
    from refutation.bound_proof import _assumption_constraints
    sub = Assumptions([one], dict(assume.fresh), {k: v for k, v in assume.pow2.items()
                                                    if {s.name for s in (one.lhs - one.rhs).free_symbols} == {k, v}})
    cons = _assumption_constraints(sub, tr, fresh, z3)
    return [c for c in cons if not any(c.eq(v >= 0) for v in fresh.values())]


def check_assumptions(algorithm: str, setting: str, assume, timeout_ms: int = 4000) -> tuple[str, str]:
    """Check ``assume`` against the domain and the setting.  Raises :class:`InputError` for an
    assumption that leaves the domain; returns ``("ok", witness)`` when a run satisfies them all
    (the witness's values, checked exactly), ``("vacuous", why)`` when none does, and
    ``("unconfirmed", why)`` when neither could be shown."""
    import z3
    from refutation.bound_proof import _Untranslatable, _Z3
    ints, reals, q, fresh = _vars(z3, algorithm, assume)
    Mi = z3.Int("M")
    st = "separable" if setting == "separable" else "agnostic"
    dom = domain(z3, algorithm, st, ints, q, Mi, fresh)
    base = [(t, c) for t, k, c in dom if k == "domain"]
    sett = [(t, c) for t, k, c in dom if k == "setting"]
    tr = _Z3(z3, q)
    enc = []
    for a in assume.items:
        try:
            enc.append(_encode(z3, tr, assume, a, fresh))
        except _Untranslatable as e:
            return "unconfirmed", f"cannot encode the assumption {a.text!r} for z3: {e}"
    # each assumption on its own: inside the domain?
    for a, cons in zip(assume.items, enc):
        s = z3.Solver()
        s.set("timeout", int(timeout_ms))
        s.add(*tr.side)
        lits = {}
        for i, (t, c) in enumerate(base):
            lits[t] = z3.Bool(f"dom_{i}")
            s.add(z3.Implies(lits[t], c))
        s.add(*cons)
        if s.check(*lits.values()) == z3.unsat:
            core = {str(c) for c in s.unsat_core()}
            left = [t for t, lit in lits.items() if str(lit) in core]
            mentioned = {x.name for x in (a.lhs - a.rhs).free_symbols}
            ints_named = sorted(mentioned & (INTEGER_QUANTITIES | set(assume.fresh)))
            if not left and ints_named:
                left = [f"{', '.join(ints_named)} {'is an integer' if len(ints_named) == 1 else 'are integers'}"]
            where = "; ".join(left) if left else "the values the quantities can take"
            raise InputError(f"--assume {a.text!r} leaves the domain check-bound answers on ({where}): "
                             f"no {algorithm} run satisfies it")
    # all of them together, with the domain and the setting
    s = z3.Solver()
    s.set("timeout", int(timeout_ms))
    s.add(*tr.side, *[c for _, c in base + sett], *[c for cons in enc for c in cons])
    res = s.check()
    if res == z3.unsat:
        return "vacuous", ("z3: they are unsatisfiable together with the domain"
                           + (f" and the {st} setting" if sett else ""))
    if res != z3.sat:
        return "unconfirmed", f"z3 could not decide whether a run satisfies the assumptions ({s.reason_unknown()})"
    m = s.model()
    values = {}
    for k, v in list(ints.items()) + list(reals.items()) + list(fresh.items()):
        val = m.eval(v, model_completion=True)
        if not (z3.is_int_value(val) or z3.is_rational_value(val)):
            return "unconfirmed", f"z3's witness has an irrational value {k} = {val}"
        values[k] = Fraction(val.as_fraction()) if z3.is_rational_value(val) else Fraction(val.as_long())
    if not _exact_witness(z3, ints, reals, fresh, base + sett, assume, values):
        return "unconfirmed", "z3's witness did not satisfy the assumptions in exact arithmetic"
    return "ok", ", ".join(f"{k} = {v}" for k, v in values.items())


def _exact_witness(z3, ints, reals, fresh, constraints, assume, values) -> bool:
    """The witness's values satisfy every constraint of the domain and the setting (z3's
    simplifier on rational constants: exact) and every assumption (certified signs)."""
    sub = [(ints[k], z3.IntVal(int(v))) for k, v in values.items() if k in ints]
    sub += [(reals[k], z3.RealVal(f"{v.numerator}/{v.denominator}")) for k, v in values.items() if k in reals]
    sub += [(fresh[k], z3.IntVal(int(v))) for k, v in values.items() if k in fresh]
    for t, c in constraints:
        if t.startswith("M >= 0"):
            continue               # the mistake count is the claim's business, not the run's values
        if not z3.is_true(z3.simplify(z3.substitute(c, *sub))):
            return False
    env = {SYMBOLS[k]: sp.Rational(v.numerator, v.denominator) for k, v in values.items() if k in SYMBOLS}
    env.update({assume.fresh[k]: sp.Integer(int(v)) for k, v in values.items() if k in assume.fresh})
    return all(a.holds(env) is True for a in assume.items)


def model_hint(algorithm: str, model: dict) -> dict | None:
    """The instance a z3 model suggests, for the counterexample search to replay first: Winnow's
    (n, r); for the perceptrons the number of orthonormal examples k (the model's M, at least 1)
    and the scale R (when rational).  ``None`` when the model has nothing usable."""
    def frac(x):
        try:
            return Fraction(str(x))
        except (ValueError, ZeroDivisionError):
            return None
    if not isinstance(model, dict):
        return None
    if algorithm == "winnow":
        n, r = frac(model.get("n")), frac(model.get("r"))
        if n is None or r is None or n.denominator != 1 or r.denominator != 1 or not (1 <= r <= n <= 4096):
            return None
        return {"n": int(n), "r": int(r)}
    M, R = frac(model.get("M")), frac(model.get("R"))
    if M is None or M.denominator != 1:
        return None
    return {"k": max(1, min(int(M), 4096)), "scale": R if R is not None and R > 0 else Fraction(1)}
