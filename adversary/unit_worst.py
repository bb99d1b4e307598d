"""Worst cases for the online-learning unit: sequences that reach (or approach) the Halving,
Weighted Majority, Randomized Weighted Majority, Passive-Aggressive and Freund-Schapire bounds,
and the two lower-bound constructions, each certified by an exact replay of the learner.

Every construction is adaptive where the bound is a lower bound: the label is chosen against the
learner's prediction, read from an exact run on the sequence so far.  A certificate holds the
replayed figures as ``Fraction``s; bounds with logarithms are compared exactly through their
exponentials (M ln(4/3) <= m ln 2 + ln n iff 4^M <= 3^M 2^m n) and their ratio is printed as a
float.  ``unit_cells()`` lists the adversary table's rows, ``run_unit_cell`` fills one.
"""
from __future__ import annotations

import json
import math
import os
import time
from fractions import Fraction
from itertools import product

from learners import (run_halving, run_passive_aggressive, run_perceptron, run_randomized_weighted_majority,
                      run_weighted_majority)
from learners.io import write_text_atomic
from learners.numbers import fraction_str

from adversary import experts_worst
from adversary.experts_worst import TIGHT_RATIO     # a row is tight at ratio >= 99/100 (or with a proved optimum)

__all__ = ["UNIT_ALGORITHMS", "unit_cells", "run_unit_cell", "halving_worst", "two_experts_worst",
           "rwm_two_experts", "pa_orthogonal",
           "pa_variant_orthogonal", "wm_half_row", "orthonormal_forcing", "kernel_fs_forcing",
           "disjunction_forcing", "TIGHT_RATIO"]

UNIT_ALGORITHMS = ("halving", "weighted_majority", "randomized_weighted_majority", "passive_aggressive",
                   "freund_schapire", "lower_bound")


def halving_worst(k: int) -> dict:
    """H = every labelling of k points (|H| = 2^k); each label is set against Halving's vote (a tie,
    predicted +1): k = log2 |H| mistakes, and the labels are those of a hypothesis in H."""
    H = [list(bits) for bits in product((1, -1), repeat=k)]
    y = []
    for j in range(k):
        tr = run_halving([h[:j + 1] for h in H], y + [1])
        y.append(-tr.steps[j].prediction)
    tr = run_halving(H, y)
    assert y in H
    return {"mistakes": tr.mistakes, "bound": Fraction(k), "ok": tr.mistakes <= k and 2 ** tr.mistakes <= len(H),
            "figures": {"class_size": len(H), "realizable": True}, "data": {"H": H, "y": y}}


def _against(run, A, **kw):
    """Labels chosen one at a time against a deterministic learner's prediction."""
    y = []
    for t in range(len(A)):
        tr = run(A[:t + 1], y + [1], **kw)
        y.append(-tr.steps[t].prediction)
    return y


def two_experts_worst(T: int, beta=Fraction(1, 2)) -> dict:
    """Experts +1 and -1 always; every label against WM: M = T, m = floor(T/2)."""
    A = [[1, -1]] * T
    y = _against(run_weighted_majority, A, beta=beta)
    tr = run_weighted_majority(A, y, beta=beta)
    m = min(tr.extras["expert_mistakes"])
    return {"mistakes": tr.mistakes, "m": m, "data": {"advice": A, "y": y, "beta": fraction_str(beta)}, "tr": tr}


def wm_row(T: int) -> dict:
    """WM (beta = 1/2) on the two-expert adversary against its bound (m ln 2 + ln 2)/ln(4/3)."""
    r = two_experts_worst(T)
    M, m = r["mistakes"], r["m"]
    ok = 4 ** M <= 3 ** M * 2 ** m * 2                      # M ln(4/3) <= m ln 2 + ln 2, exactly
    bound = (m * math.log(2) + math.log(2)) / math.log(4 / 3)
    return {"mistakes": M, "bound": bound, "ok": ok, "figures": {"m": m, "n": 2}, "data": r["data"]}


def wm_half_row(T: int) -> dict:
    """WM (beta = 1/2) on the two-expert adversary against M <= 2.41 (m + lg n), n = 2."""
    r = two_experts_worst(T)
    M, m = r["mistakes"], r["m"]
    bound = Fraction(241, 100) * (m + 1)
    return {"mistakes": M, "bound": bound, "ok": M <= bound, "figures": {"m": m, "n": 2}, "data": r["data"]}


def lower_2m_row(T: int) -> dict:
    r = two_experts_worst(T)
    M, m = r["mistakes"], r["m"]
    return {"mistakes": M, "bound": Fraction(2 * m), "ok": M >= 2 * m and M == T, "figures": {"m": m},
            "data": r["data"], "lower": True}


def rwm_two_experts(T: int, beta=Fraction(1, 2)) -> dict:
    """RWM on experts +1/-1, labelled against the more likely prediction: E[M] exact."""
    A = [[1, -1]] * T
    y = []
    for t in range(T):
        tr = run_randomized_weighted_majority(A[:t + 1], y + [1], beta=beta)
        y.append(-1 if tr.steps[t].activation >= Fraction(1, 2) else 1)
    tr = run_randomized_weighted_majority(A, y, beta=beta)
    E, m = tr.extras["expected_mistakes"], min(tr.extras["expert_mistakes"])
    bound = (m * math.log(1 / float(beta)) + math.log(2)) / (1 - float(beta))
    return {"mistakes": E, "bound": bound, "ok": float(E) <= bound, "figures": {"m": m, "expected": True},
            "data": {"advice": A, "y": y, "beta": fraction_str(beta)}}


def pa_orthogonal(d: int) -> dict:
    """PA on e_1, ..., e_d, all labelled +1, u = (1, ..., 1): each loss is 1, sum l^2 = d = |u|^2 R^2."""
    X = [[1 if j == i else 0 for j in range(d)] for i in range(d)]
    tr = run_passive_aggressive(X, [1] * d, variant="pa")
    total = sum(v * v for v in tr.extras["losses"])
    bound = Fraction(d) * 1
    return {"mistakes": total, "bound": bound, "ok": total <= bound, "figures": {"u_sq": d, "R_sq": 1},
            "data": {"X": X, "y": [1] * d}}


def pa_variant_orthogonal(d: int, variant: str, C) -> dict:
    """PA-I / PA-II on e_1, ..., e_d labelled +1 (R = 1): every step is a mistake with loss 1.  PA-I:
    d mistakes against max(R^2, 1/C) |u|^2 with u = (1, ..., 1) (no loss, |u|^2 = d).  PA-II: sum l^2 = d
    against (R^2 + 1/(2C)) (|u|^2 + 2C sum l*^2) at u = the final weights tau (1, ..., 1),
    tau = 2C/(2C + 1), l* = 1 - tau = tau/(2C): (1 + 1/(2C)) d (tau^2 + 2C (1 - tau)^2) = d exactly (with
    u = (1, ..., 1) the same run gives only 2C/(2C + 1) of the bound)."""
    C = Fraction(C)
    X = [[1 if j == i else 0 for j in range(d)] for i in range(d)]
    tr = run_passive_aggressive(X, [1] * d, variant=variant, C=C)
    if variant == "pa1":
        got, bound = Fraction(tr.mistakes), max(Fraction(1), 1 / C) * d
        return {"mistakes": got, "bound": bound, "ok": got <= bound, "figures": {"u_sq": d, "R_sq": 1, "C": C},
                "data": {"X": X, "y": [1] * d, "C": fraction_str(C)}}
    # PA-II: the bound holds for every u; the proof's inequalities are all equalities at u = the final
    # weights (|w_T+1 - u| = 0, and each l*_t = tau_t / (2C)), so the bound is met exactly there
    u = [Fraction(v) for v in tr.weights]
    l_star = [max(Fraction(0), 1 - sum(a * b for a, b in zip(u, x))) for x in X]
    u_sq = sum(v * v for v in u)
    got = sum(v * v for v in tr.extras["losses"])
    bound = (1 + 1 / (2 * C)) * (u_sq + 2 * C * sum(v * v for v in l_star))
    return {"mistakes": got, "bound": bound, "ok": got <= bound,
            "figures": {"u_sq": u_sq, "R_sq": 1, "C": C, "u": "the final weights", "sum_l_star_sq": sum(v * v for v in l_star)},
            "data": {"X": X, "y": [1] * d, "C": fraction_str(C), "u": [fraction_str(v) for v in u]}}


def orthonormal_forcing(k: int, gamma=None) -> dict:
    """e_1, ..., e_d (d = k^2) labelled against the perceptron: d mistakes; u = sum y_i e_i / k is a
    unit vector with margin 1/k on every example.  With gamma = 1/k it is the floor(1/gamma^2)
    lower bound; with a gamma above the margin, the Freund-Schapire bound ((R + D)/gamma)^2 with
    D = k gamma - 1."""
    d = k * k
    X = [[Fraction(int(j == i)) for j in range(d)] for i in range(d)]
    y = []
    for t in range(d):
        tr = run_perceptron(X[:t + 1], y + [1], bias=False, exact=True)
        y.append(-1 if tr.steps[t].activation > 0 else 1 if tr.steps[t].activation < 0 else -1)
    tr = run_perceptron(X, y, bias=False, exact=True)
    u = [Fraction(v, k) for v in y]
    margins = [yy * sum(a * b for a, b in zip(u, x)) for x, yy in zip(X, y)]
    assert sum(v * v for v in u) == 1 and all(mg == Fraction(1, k) for mg in margins)
    g = Fraction(1, k) if gamma is None else Fraction(gamma)
    D2 = sum(max(Fraction(0), g - mg) ** 2 for mg in margins)
    D = max(Fraction(0), k * g - 1)                      # D^2 = k^2 (gamma - 1/k)^2: always a square
    assert D * D == D2
    bound = ((1 + D) / g) ** 2
    return {"mistakes": tr.mistakes, "bound": bound, "ok": tr.mistakes <= bound,
            "figures": {"d": d, "gamma": g, "D": D, "margin_of_u": Fraction(1, k), "unit_target": True},
            "data": {"X": [[fraction_str(v) for v in r] for r in X], "y": y, "u": [fraction_str(v) for v in u]},
            "lower": gamma is None}


def _exact_root(q: Fraction):
    """sqrt(q) when it is rational (None otherwise)."""
    n, d = math.isqrt(q.numerator), math.isqrt(q.denominator)
    return Fraction(n, d) if n * n == q.numerator and d * d == q.denominator else None


def kernel_fs_forcing(k: int, scale: int = 2, kernel: str = "poly:c=0,k=2") -> dict:
    """The kernel form of Freund-Schapire, reached: the points scale e_1, ..., scale e_d (d = k^2), whose
    features under K(x, x') = (x.x')^2 are orthogonal, labelled against the kernel perceptron: d
    mistakes.  Everything in the feature space is computed from the Gram matrix G alone: u =
    sum_j beta_j phi(x_j) with beta = y / (k s^2) has |u|^2 = beta G beta = 1 and margin
    m = (G beta)_i y_i = s^2 / k; R^2 = max K(x, x) = s^4; at gamma = 2 m, D = k (gamma - m) and the
    bound ((R + D)/gamma)^2 = d is met exactly."""
    from learners import run_kernel_perceptron
    from learners.kernels import parse_kernel
    d = k * k
    X = [[Fraction(scale * int(j == i)) for j in range(d)] for i in range(d)]
    y = _against(run_kernel_perceptron, X, kernel=kernel, exact=True)
    tr = run_kernel_perceptron(X, y, kernel, exact=True)
    K = parse_kernel(kernel)
    G = [[Fraction(K(a, b)) for b in X] for a in X]
    beta = [Fraction(v, k * scale * scale) for v in y]
    u_sq = sum(beta[i] * G[i][j] * beta[j] for i in range(d) for j in range(d))
    margins = [y[i] * sum(G[i][j] * beta[j] for j in range(d)) for i in range(d)]
    R = _exact_root(max(G[i][i] for i in range(d)))
    g = 2 * min(margins)
    D2 = sum(max(Fraction(0), g - mg) ** 2 for mg in margins)
    D = _exact_root(D2)
    ok = u_sq == 1 and R is not None and D is not None
    bound = ((R + D) / g) ** 2 if ok else Fraction(0)
    return {"mistakes": tr.mistakes, "bound": bound, "ok": ok and tr.mistakes <= bound,
            "figures": {"d": d, "kernel": kernel, "R": R, "gamma": g, "D": D, "u_sq_in_feature_space": u_sq,
                        "margin_of_u": min(margins)},
            "data": {"X": [[fraction_str(v) for v in r] for r in X], "y": y, "kernel": kernel,
                     "beta": [fraction_str(v) for v in beta]}}


def disjunction_forcing(n: int, r: int, variant: str = "halve") -> dict:
    """Any deterministic learner on r-of-n disjunctions can be forced to r floor(lg(n/r)) mistakes
    (the matching lower bound of Winnow's O(r log n), Littlestone 1988): the n variables in r blocks
    of b = floor(n/r); in each block a binary search, one example per halving, that turns on half of
    the block's remaining candidates and nothing else, labelled against the learner's prediction: the
    relevant variable of the block is kept among the candidates that agree with the label.  Replayed
    here against Winnow (exact); certified: every example a mistake, and the disjunction of the r
    surviving candidates labels every example as given.  For every deterministic algorithm and
    n = r 2^l the same construction (the left half of the candidates turned on) is proved in Coq,
    ``coq/DisjunctionLowerBound.v`` (``verify --coq``: learner_disjunction_lower_bound)."""
    from learners import run_winnow
    b = n // r
    X, y, target = [], [], []
    for blk in range(r):
        cand = list(range(blk * b, blk * b + b))
        while len(cand) >= 2:
            on = cand[:len(cand) // 2]
            X.append([1 if v in on else 0 for v in range(n)])
            tr = run_winnow(X, y + [1], variant=variant, exact=True)
            label = 1 - int(tr.steps[-1].prediction)
            y.append(label)
            cand = on if label == 1 else cand[len(cand) // 2:]
        target.append(cand[0])
    M = run_winnow(X, y, variant=variant, exact=True).mistakes if X else 0
    consistent = all(int(any(row[v] for v in target)) == lab for row, lab in zip(X, y))
    forced = r * (b.bit_length() - 1)                    # r floor(lg b)
    return {"mistakes": M, "bound": Fraction(forced), "ok": consistent and M == len(X) >= forced,
            "figures": {"n": n, "r": r, "block": b, "target": target, "consistent": consistent,
                        "every_step_a_mistake": M == len(X)},
            "data": {"X": X, "y": y, "target": target, "variant": variant}, "lower": True}


def unit_cells():
    """(algorithm, label, name, builder) for every row of the table: one tuple per row, so a new
    family adds its rows here.  A builder returns mistakes, bound, ok, figures, data and, when it
    knows it, ``tight`` (how the row is shown tight; rows with ratio >= 0.99 need not say)."""
    return [
        ("halving", "halving |H| = 2^6", "halving_k6", lambda: halving_worst(6)),
        ("weighted_majority", "WM beta=1/2 n=10 cycle", "wm_cycle_n10", lambda: experts_worst.wm_tight_row()),
        ("weighted_majority", "WM 2.41(m + lg n) n=10", "wm_half_cycle_n10", lambda: experts_worst.wm_half_tight_row()),
        ("randomized_weighted_majority", "RWM beta=1/2 n=64 spared", "rwm_spared_n64",
         lambda: experts_worst.rwm_spared_row()),
        ("passive_aggressive", "PA d=8 (sum of l^2)", "pa_orthogonal_d8", lambda: pa_orthogonal(8)),
        ("passive_aggressive", "PA-I C=1 d=8 (mistakes)", "pa1_orthogonal_d8", lambda: pa_variant_orthogonal(8, "pa1", 1)),
        ("passive_aggressive", "PA-II C=8 d=8 (sum of l^2)", "pa2_orthogonal_d8",
         lambda: pa_variant_orthogonal(8, "pa2", 8)),
        ("freund_schapire", "FS gamma=1 d=4 (D=1)", "fs_g1_d4", lambda: orthonormal_forcing(2, 1)),
        ("freund_schapire", "FS kernel (x.x')^2 d=4", "fs_kernel_poly2_d4",
         lambda: kernel_fs_forcing(2)),
        ("lower_bound", "any learner gamma=1/4 d=16", "lower_g1-4_d16", lambda: orthonormal_forcing(4)),
        ("lower_bound", "r-of-n disjunctions n=64 r=4", "lower_disjunction_n64_r4",
         lambda: disjunction_forcing(64, 4)),
        ("lower_bound", "two experts 2m T=40", "lower_two_experts_T40", lambda: lower_2m_row(40)),
    ]


def _wire(v):
    if isinstance(v, Fraction):
        return fraction_str(v)
    if isinstance(v, dict):
        return {k: _wire(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_wire(x) for x in v]
    return v


def run_unit_cell(cell, out_dir=None) -> dict:
    """One row: build, certify by replay, and (with ``out_dir``) write the sequence and figures."""
    t0 = time.process_time()
    r = cell.params["build"]()
    M, bound = r["mistakes"], r["bound"]
    interval = r["figures"].get("ratio_interval")
    if interval is not None:            # an irrational bound: the ratio is known as a rational enclosure
        ratio = float((interval[0] + interval[1]) / 2)
        bound = float(bound)
    else:
        ratio = (Fraction(M) / bound if isinstance(bound, Fraction) and bound else
                 (float(M) / bound if bound else None))
    tight = r.get("tight")
    if r.get("lower"):
        tight = "lower bound met" if r["ok"] and Fraction(M) >= Fraction(bound) else None
    elif tight is None and isinstance(ratio, Fraction) and ratio >= TIGHT_RATIO:
        tight = "ratio"
    row = {"algorithm": cell.algorithm, "cell": cell.label(), "name": cell.name, "mistakes": M, "bound": bound,
           "ratio": ratio, "ok": bool(r["ok"]), "strategy": "lower bound" if r.get("lower") else "adaptive",
           "variant": cell.algorithm, "figures": _wire(r["figures"]), "seconds": round(time.process_time() - t0, 3),
           # constructions, not searches: no budget to run out; a row that does not certify is rejected
           "status": "ok" if r["ok"] else "rejected", "budget_exhausted": False,
           "tightness": tight or "open", "tight": tight is not None}
    if interval is not None:
        row["ratio_interval"] = [interval[0], interval[1]]
    if out_dir is not None:
        path = os.path.join(out_dir, cell.name + ".json")
        seq = r.get("sequence")
        if seq is not None:             # a mistakebound.sequence/1 file: `mistakebound replay` re-checks it
            seq.meta = dict(seq.meta, row=_wire({k: v for k, v in row.items() if k != "figures"}))
            seq.save(path)
        else:
            write_text_atomic(path, json.dumps(_wire({k: v for k, v in row.items()} | {"sequence": r["data"]}),
                                               indent=1) + "\n")
        row["file"] = path
    return row
