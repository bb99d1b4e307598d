"""Hedge that multiplies a weight by beta whenever its loss is positive (Weighted Majority's rule)."""


def hedge(L, beta):
    n = len(L[0])
    w = [1.0] * n
    total = 0.0
    for losses in L:
        W = sum(w)
        total += sum(wi * li for wi, li in zip(w, losses)) / W
        w = [wi * beta if li > 0 else wi for wi, li in zip(w, losses)]
    return w, total
