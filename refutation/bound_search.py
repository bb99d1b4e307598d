"""**refuted**: a concrete sequence and target (exact rationals), replayed by the exact reference
learner (``adversary.certify.certify``), whose mistake count and certified quantities violate the
claim.  Candidate families are screened in floats, then replayed exactly (smallest instance with
rational quantities first); the comparison itself is exact (:func:`refutation.bound_quantities.violates`).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp

from learners.errors import InputError
from learners.numbers import fraction_str

from refutation.bound_quantities import NAMES, SYMBOLS, evaluate_claim, fmt_value, instance_quantities, violates

__all__ = ["refute"]


# ---------------------------------------------------------------------------------------------
# Candidate instances
# ---------------------------------------------------------------------------------------------
@dataclass
class _Cand:
    family: str
    params: dict
    approx: dict           # float quantities + "M" for screening
    build: object          # () -> Sequence


def _scaled(seq, s: Fraction, algorithm: str, meta: dict):
    """Examples scaled by s, target by 1/s (same run, R scaled by s); as kernel_perceptron if asked."""
    from adversary.sequence import Sequence
    X = [[v * s for v in x] for x in seq.examples]
    tgt = [v / s for v in seq.target]
    if algorithm == "kernel_perceptron":
        # w* = sum_j beta_j x_j with orthogonal x_j: beta_j = w*.x_j / |x_j|^2
        beta = []
        for x in X:
            xx = sum(v * v for v in x)
            beta.append(sum(a * b for a, b in zip(tgt, x)) / xx if xx else Fraction(0))
        return Sequence("kernel_perceptron", X, list(seq.labels), target=beta, kernel="linear",
                        meta={**seq.meta, **meta})
    return Sequence("perceptron", X, list(seq.labels), target=tgt, meta={**seq.meta, **meta})


def _orthonormal_family(algorithm, setting, kmax=64):
    from adversary.perceptron_separable import orthonormal
    out = []
    scales = [Fraction(1), Fraction(1, 2), Fraction(2), Fraction(1, 10), Fraction(10), Fraction(1, 3), Fraction(3)]
    for k in range(1, kmax + 1):
        m = math.isqrt(k)
        for s in scales:
            def build(k=k, s=s, m=m):
                if m * m == k:
                    base = orthonormal(Fraction(1, m), k)
                else:
                    base = _orthonormal_own(k)
                return _scaled(base, s, algorithm, {"refutation_family": "orthonormal", "k": k,
                                                    "scale": fraction_str(s)})
            sf = float(s)
            out.append(_Cand("orthonormal", {"k": k, "scale": fraction_str(s)},
                             {"R": sf, "W": math.sqrt(k) / sf, "gamma": 1 / math.sqrt(k), "L": 0.0, "TD": 0.0,
                              "n": k, "d": k, "M": k, "rational": m * m == k, "scale": sf}, build))
    return out


def _orthonormal_own(k):
    """e_1..e_k, labels +1, target sum e_i (margin 1): the perceptron ties (errs) on every one."""
    from adversary.sequence import Sequence
    X = [[Fraction(int(i == j)) for j in range(k)] for i in range(k)]
    return Sequence("perceptron", X, [1] * k, target=[Fraction(1)] * k,
                    meta={"strategy": "orthonormal (refutation)", "dim": k})


def _inseparable_family(algorithm, kmax=40):
    """s e_1..s e_k, labels +1; w* = (t/s) sum_{i<j} e_i, zero on the rest (so min margin 0: the
    target is used as given).  M = k, R = s, W^2 = j t^2/s^2, L = j max(0, 1 - t) + (k - j)."""
    from adversary.sequence import Sequence
    out = []
    for k in range(2, kmax + 1):
        for j in sorted({1, k // 2, k - 1} - {0}):
            for t in (Fraction(1, 2), Fraction(1, 4), Fraction(3, 4), Fraction(1), Fraction(2), Fraction(1, 10)):
                for s in (Fraction(1), Fraction(1, 2), Fraction(2)):
                    def build(k=k, j=j, t=t, s=s):
                        X = [[s * int(i == c) for c in range(k)] for i in range(k)]
                        tgt = [t / s if c < j else Fraction(0) for c in range(k)]
                        meta = {"strategy": "inseparable orthonormal (refutation)", "k": k, "j": j,
                                "t": fraction_str(t), "scale": fraction_str(s)}
                        if algorithm == "kernel_perceptron":
                            beta = [tg / s for tg in tgt]     # w* = sum beta_i x_i, x_i = s e_i
                            return Sequence("kernel_perceptron", X, [1] * k, target=beta, kernel="linear", meta=meta)
                        return Sequence("perceptron", X, [1] * k, target=tgt, meta=meta)
                    tf, sf = float(t), float(s)
                    L = j * max(0.0, 1 - tf) + (k - j)
                    W = math.sqrt(j) * tf / sf
                    g = 1 / (sf * W)
                    out.append(_Cand("inseparable-orthonormal", {"k": k, "j": j, "t": fraction_str(t), "scale": fraction_str(s)},
                                     {"R": sf, "W": W, "gamma": g, "L": L, "TD": g * L, "n": k, "d": k, "M": k,
                                      "rational": math.isqrt(j) ** 2 == j, "scale": sf}, build))
    return out


def _margin3_family(algorithm):
    from adversary.perceptron_separable import orthogonal_margin
    out = []
    for den in (2, 3, 4, 5, 7, 10):
        g = Fraction(1, den)

        def build(g=g):
            seq = orthogonal_margin(g, 3)
            if algorithm == "kernel_perceptron":
                return None
            seq.meta["refutation_family"] = "orthogonal_margin d=3"
            return seq
        out.append(_Cand("orthogonal-margin-d3", {"gamma": fraction_str(g)},
                         {"R": 1.0, "W": float(den), "gamma": 1 / den, "L": 0.0, "TD": 0.0, "n": den * den,
                          "d": 3, "M": den * den, "rational": True}, build))
    return out


def _two_d_family(algorithm, budget):
    from adversary.perceptron_2d import plane_bound
    out = []
    for den in (2, 3, 5):
        g = Fraction(1, den)

        def build(g=g):
            from adversary.perceptron_2d import best_2d
            if algorithm == "kernel_perceptron":
                return None
            return best_2d(g, budget=budget)
        try:
            approx_M = plane_bound(g) - 1
        except Exception:  # noqa: BLE001
            approx_M = den * den // 2
        out.append(_Cand("perceptron-2d", {"gamma": fraction_str(g)},
                         {"R": 1.0, "W": float(den), "gamma": 1 / den, "L": 0.0, "TD": 0.0, "n": approx_M,
                          "d": 2, "M": approx_M}, build))
    return out


def _screen(expr, strict, cands, names):
    """Order candidates by the float margin M - claim (most violating first); drop hopeless ones."""
    f = sp.lambdify([SYMBOLS[k] for k in names], expr, modules="math")
    scored = []
    for c in cands:
        try:
            v = float(f(*[c.approx[k] for k in names]))
        except (ValueError, ZeroDivisionError, OverflowError, TypeError):
            continue
        if not math.isfinite(v):
            continue
        gap = c.approx["M"] - v
        tol = 1e-9 * max(1.0, abs(v))
        if gap > tol or (strict and gap > -tol):
            scored.append((-(gap / max(1.0, abs(v))), c.approx["n"], c))
    scored.sort(key=lambda t: t[0])
    return [c for _, _, c in scored]


def _hinted(algorithm, hint) -> list:
    """The instance a z3 model suggests (``refutation.bound_domain.model_hint``): k orthonormal
    examples scaled by the model's R, replayed before the families."""
    if not hint or "k" not in hint:
        return []
    k, s = hint["k"], Fraction(hint["scale"])

    def build(k=k, s=s):
        m = math.isqrt(k)
        from adversary.perceptron_separable import orthonormal
        base = orthonormal(Fraction(1, m), k) if m * m == k else _orthonormal_own(k)
        return _scaled(base, s, algorithm, {"refutation_family": "z3 model", "k": k, "scale": fraction_str(s)})
    return [_Cand("z3-model", {"k": k, "scale": fraction_str(s)}, {"n": k, "M": k}, build)]


def refute(algorithm, setting, variant, E, strict, deadline, v, assume=None, hint=None) -> bool:
    """Search the families for an instance violating the claim (and satisfying every assumption,
    decided exactly on the certified quantities); fill ``v`` and return True if found.  ``hint``:
    the instance a z3 model of the violation suggests, replayed first (its values are checked
    exactly like any other instance's)."""
    from adversary.certify import certify
    if algorithm == "winnow":
        return _refute_winnow(variant, E, strict, deadline, v, assume, hint)
    names = NAMES[algorithm]
    cands = _orthonormal_family(algorithm, setting)
    fams = ["orthonormal examples e_1..e_k (k = 1..64) scaled by s in {1/10, 1/3, 1/2, 1, 2, 3, 10}, "
            "target sum e_i / s (margin 1)"]
    if setting == "agnostic":
        cands += _inseparable_family(algorithm)
        fams.append("inseparable: s e_1..s e_k (k = 2..40), w* = (t/s)(e_1 + ... + e_j), "
                    "t in {1/10, 1/4, 1/2, 3/4, 1, 2}, j in {1, k/2, k - 1}")
    if algorithm == "perceptron":
        cands += _margin3_family(algorithm)
        fams.append("d = 3 margin-gamma construction (SSBD Ex. 9.4, rational), gamma = 1/2 .. 1/10")
        remaining = deadline - time.monotonic()
        if remaining > 8 and "d" in {s.name for s in E.free_symbols} | (assume.mentions() if assume else set()):
            cands += _two_d_family(algorithm, budget=min(5.0, remaining / 6))
            fams.append("2-D worst-case search (perceptron_2d.best_2d), gamma = 1/2, 1/3, 1/5")
    screened = _screen(E, strict, cands, names)
    if assume:       # floats first (cheap), the exact check after the replay
        screened = [c for c in screened
                    if assume.satisfied({k: sp.nsimplify(c.approx[k]) if isinstance(c.approx[k], float)
                                         else sp.Integer(c.approx[k]) for k in names}) is not False]
    # prefer small instances with rational quantities among the violators (stable sort keeps the
    # most violating first among equals)
    screened.sort(key=lambda c: (not c.approx.get("rational", False), c.approx["n"],
                                 abs(math.log(c.approx.get("scale", 1.0)))))
    tried = 0
    for c in _hinted(algorithm, hint) + screened:
        if time.monotonic() > deadline:
            break
        try:
            seq = c.build()
        except InputError:
            continue
        if seq is None:
            continue
        cert = certify(seq)
        tried += 1
        if not cert.ok or cert.figures.get("w_norm_sq") is None:
            continue
        if setting == "separable" and not cert.figures.get("separable"):
            continue
        qs = instance_quantities(cert, seq, algorithm)
        if assume and assume.satisfied(qs) is not True:
            continue
        val = evaluate_claim(E, qs)
        ok, how = violates(cert.mistakes, val, strict)
        if ok:
            _fill_refuted(v, seq, cert, qs, val, how, c, fams, tried)
            return True
        if tried >= 25:
            break
    v.searched.extend(fams)
    v.searched.append(f"{len(cands)} instances screened in floats, {len(screened)} looked violating, "
                      f"{tried} replayed exactly; none violated the claim exactly")
    return False


def _fill_refuted(v, seq, cert, qs, val, how, c, fams, tried):
    M = cert.mistakes
    v.status = "refuted"
    v.sequence = seq
    v.mistakes = M
    v.quantities = {k: fmt_value(x) for k, x in qs.items()}
    v.claimed_value = fmt_value(val)
    rel = ">=" if v.strict else ">"
    v.comparison = f"M = {M} {rel} {v.claimed_value}  (decided exactly: {how})"
    v.reason = (f"family {c.family} {c.params}: the exact reference learner makes M = {M} "
                f"mistake{'s' if M != 1 else ''} (replayed by adversary.certify)")
    seq.claims = {"mistakes": M}
    seq.meta = dict(seq.meta)
    seq.meta["refutes"] = {"algorithm": v.algorithm, "claim": v.claim, "setting": v.setting,
                           "quantities": v.quantities, "claimed_value": v.claimed_value,
                           "comparison": v.comparison}
    v.trusted = list(cert.trusted)
    v.searched.append(f"{fams[0]} ... ({tried} instance(s) replayed before this one)")


def _refute_winnow(variant, E, strict, deadline, v, assume=None, hint=None) -> bool:
    from adversary.certify import certify
    from adversary.winnow_search import exhaustive_winnow, search_winnow
    grid = [(n, r) for n in (1, 2, 3, 4, 5, 6, 7, 8, 16, 32, 64, 128, 256, 1024) for r in (1, 2, 3, 4, 8)
            if r <= max(1, n // 2) and (r != 3 or n <= 8)]
    if hint and "n" in hint:            # the cell a z3 model of the violation points at, first
        grid = [(hint["n"], hint["r"])] + [c for c in grid if c != (hint["n"], hint["r"])]
    A, B = (2, 3) if variant == "halve" else (1, 2)
    f = sp.lambdify([SYMBOLS["n"], SYMBOLS["r"]], E, modules="math")
    tried, skipped = 0, 0
    if assume:
        grid = [(n, r) for n, r in grid if assume.satisfied({"n": sp.Integer(n), "r": sp.Integer(r)}) is True]
    for n, r in grid:
        if time.monotonic() > deadline:
            break
        try:
            cv = float(f(n, r))
        except (ValueError, ZeroDivisionError, OverflowError, TypeError):
            cv = float("nan")
        ub = A + B * r * (1 + math.log2(n))
        if math.isfinite(cv) and cv >= ub + 1e-9 and not (strict and abs(cv - ub) < 1e-9):
            skipped += 1           # the theorem already rules out a violation here
            continue
        left = deadline - time.monotonic()
        seq = None
        try:
            if n <= 8:
                seq = exhaustive_winnow(n, r, variant, budget=max(0.1, min(left / 4, 1.0)))
        except (InputError, TimeoutError):
            seq = None
        try:
            if seq is None:
                seq = search_winnow(n, r, variant, budget=max(0.2, min(left / 4, 2.0)))
        except (InputError, TimeoutError):
            continue
        cert = certify(seq)
        tried += 1
        if not cert.ok:
            continue
        qs = instance_quantities(cert, seq, "winnow")
        val = evaluate_claim(E, qs)
        ok, how = violates(cert.mistakes, val, strict)
        if ok:
            c = _Cand("winnow-search", {"n": n, "r": r, "variant": variant}, {}, None)
            _fill_refuted(v, seq, cert, qs, val, how, c,
                          [f"Winnow adversary (exhaustive for n <= 8, else winnow_search.search_winnow), {variant}"], tried)
            return True
    v.searched.append(f"Winnow adversary sequences ({variant}; exhaustive for n <= 8 when it finishes) on "
                      f"n in {{1..8, 16, 32, ..., 1024}}, r in {{1, 2, 3, 4, 8}}"
                      + (f" (those satisfying the assumptions: {len(grid)})" if assume else "") + ": "
                      f"{tried} replayed exactly, {skipped} cells skipped (claim >= the proved bound there)")
    return False
