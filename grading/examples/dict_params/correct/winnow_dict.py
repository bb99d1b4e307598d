"""Winnow as a course with a parameter dictionary writes it: run_winnow(X, y, params) with
params = {"Thres": [threshold], "Epochs": T}; returns {"W": weights, "mistakes": count}.
Weights start at 1; predict 1 iff w.x >= threshold; double on a missed 1, halve on a false 1."""


def run_winnow(X, y, params):
    thres = params["Thres"][0]
    w = [1.0] * len(X[0])
    mistakes = 0
    for _ in range(params["Epochs"]):
        for x, t in zip(X, y):
            pred = 1 if sum(wi for wi, xi in zip(w, x) if xi) >= thres else 0
            if pred != t:
                mistakes += 1
                f = 2.0 if t == 1 else 0.5
                w = [wi * f if xi else wi for wi, xi in zip(w, x)]
    return {"W": w, "mistakes": mistakes}
