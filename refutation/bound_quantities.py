"""The quantities a claimed mistake bound speaks of (R, W, gamma, L, TD, n, d for the perceptrons;
n, r for Winnow), their values at a certified instance, and the exact comparison M > EXPR.
See :mod:`refutation.bound_check` for how the quantities are tied together."""
from __future__ import annotations

import sympy as sp

from learners.errors import InputError

from refutation.signs import certified_sign

__all__ = ["ALGORITHMS", "WINNOW_VARIANTS", "quantity_symbols", "instance_quantities", "evaluate_claim",
           "violates", "fmt_value", "SYMBOLS", "NAMES", "INTEGER_QUANTITIES", "domain", "domain_texts"]

ALGORITHMS = ("perceptron", "winnow", "kernel_perceptron")
WINNOW_VARIANTS = ("halve", "eliminate")

SYMBOLS = {
    "R": sp.Symbol("R", positive=True), "W": sp.Symbol("W", positive=True),
    "gamma": sp.Symbol("gamma", positive=True), "L": sp.Symbol("L", nonnegative=True),
    "TD": sp.Symbol("TD", nonnegative=True), "n": sp.Symbol("n", positive=True, integer=True),
    "d": sp.Symbol("d", positive=True, integer=True), "r": sp.Symbol("r", positive=True, integer=True),
}
NAMES = {"perceptron": ("R", "W", "gamma", "L", "TD", "n", "d"),
          "kernel_perceptron": ("R", "W", "gamma", "L", "TD", "n", "d"),
          "winnow": ("n", "r")}
INTEGER_QUANTITIES = {"n", "d", "r"}


def quantity_symbols(algorithm: str) -> dict[str, sp.Symbol]:
    """The sympy symbols a claim for ``algorithm`` may use."""
    if algorithm not in ALGORITHMS:
        raise InputError(f"algorithm must be one of {', '.join(ALGORITHMS)}, got {algorithm!r}")
    return {k: SYMBOLS[k] for k in NAMES[algorithm]}


def domain(z3, algorithm: str, setting: str, ints: dict, q: dict, Mi, fresh=None) -> list:
    """The values of the quantities a claim is about, as ``(text, kind, z3 constraint)``: ``kind``
    is ``"domain"`` (what the quantities are: signs, integrality, their definitions) or
    ``"setting"`` (what the setting adds: separable or agnostic).  ``ints``/``q``: the z3
    variables (integers, and every quantity as a real); ``Mi`` the integer mistake count;
    ``fresh``: the integer variables assumptions introduce (``l`` in ``n == 2**l``)."""
    out = [("M >= 0 (an integer: the mistakes)", "domain", Mi >= 0)]
    if algorithm in ("perceptron", "kernel_perceptron"):
        R, W, g, L, TD, n = q["R"], q["W"], q["gamma"], q["L"], q["TD"], q["n"]
        out += [("R > 0", "domain", R > 0), ("W > 0", "domain", W > 0), ("gamma > 0", "domain", g > 0),
                ("gamma = 1/(R W)", "domain", g * R * W == 1),
                ("n >= 1 (an integer: the trials)", "domain", ints["n"] >= 1),
                ("d >= 1 (an integer: the dimension)", "domain", ints["d"] >= 1),
                ("L >= 0", "domain", L >= 0), ("TD = gamma L", "domain", TD == g * L)]
        if setting == "separable":
            out += [("L = 0 (separable)", "setting", L == 0), ("R W >= 1 (separable, margin 1)", "setting", R * W >= 1)]
        else:
            out += [("L >= n (1 - R W) (agnostic: each trial's hinge loss is >= 1 - R W)", "setting",
                     L >= n * (1 - R * W))]
    else:
        n, r = ints["n"], ints["r"]
        out += [("n >= 1 (an integer: the variables)", "domain", n >= 1),
                ("r >= 1 (an integer: the relevant variables)", "domain", r >= 1),
                ("r <= n", "domain", r <= n)]
    for k, v in (fresh or {}).items():
        out.append((f"{k} >= 0 (an integer an assumption introduced)", "domain", v >= 0))
    return out


def domain_texts(algorithm: str, setting: str, fresh=()) -> list[str]:
    """What check-bound assumes about the quantities (printed with every verdict)."""
    import z3
    names = NAMES[algorithm]
    ints = {k: z3.Int(k) for k in names if k in INTEGER_QUANTITIES}
    q = {k: z3.Real(k) for k in names if k not in INTEGER_QUANTITIES}
    q.update({k: z3.ToReal(v) for k, v in ints.items()})
    fr = {k: z3.Int(f"fresh_{k}") for k in fresh}
    return [t for t, _, _ in domain(z3, algorithm, "separable" if setting == "separable" else "agnostic",
                                    ints, q, z3.Int("M"), fr)]


def instance_quantities(cert, seq, algorithm) -> dict:
    """The quantities of a certified instance as exact sympy numbers (sqrt of rationals)."""
    f = cert.figures
    if algorithm == "winnow":
        return {"n": sp.Integer(seq.dim), "r": sp.Integer(len(seq.target))}
    r_sq = sp.Rational(f["r_sq"])
    w_sq = sp.Rational(f["w_norm_sq"])
    L = sp.Rational(f.get("hinge_loss", 0))
    R, W = sp.sqrt(r_sq), sp.sqrt(w_sq)
    gamma = 1 / (R * W)
    return {"R": R, "W": W, "gamma": gamma, "L": L, "TD": gamma * L,
            "n": sp.Integer(cert.n_steps), "d": sp.Integer(seq.dim)}


def evaluate_claim(expr, quantities: dict) -> sp.Expr:
    """EXPR at exact quantity values (a sympy constant)."""
    sub = {SYMBOLS[k]: v for k, v in quantities.items() if k in SYMBOLS}
    return sp.sympify(expr).xreplace(sub)


def violates(M: int, value, strict: bool):
    """(True/False/None, how): M > value (M >= value when strict), decided exactly."""
    diff = sp.Integer(M) - value
    if diff.has(sp.zoo, sp.nan, sp.I, sp.oo, -sp.oo):
        return None, "the claim is undefined here"
    s = certified_sign(diff)
    if s is None:
        return None, "the sign of M - claim could not be certified"
    if diff.is_Rational:
        how = "rational arithmetic"
    elif s == 0:
        how = "M - claim = 0 proved by sympy"
    else:
        how = "an interval enclosure of M - claim that excludes 0"
    return (s >= 0 if strict else s > 0), how


def fmt_value(v) -> str:
    if not v.is_Rational and v.has(sp.log):
        try:
            w = sp.simplify(v)
            if sp.count_ops(w) <= sp.count_ops(v):
                v = w
        except Exception:  # noqa: BLE001 - display only
            pass
    s = sp.sstr(v)
    if not v.is_Rational:
        try:
            s += f" (~{float(v):.6g})"
        except (TypeError, ValueError):
            pass
    return s
