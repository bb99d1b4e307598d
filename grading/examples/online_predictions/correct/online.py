"""A correct online perceptron that reports its predictions (sign(0) = +1)."""


def run(X, y, T):
    w, b, preds = [0.0] * len(X[0]), 0.0, []
    for _ in range(T):
        for x, t in zip(X, y):
            p = 1 if sum(a * c for a, c in zip(w, x)) + b >= 0 else -1
            preds.append(p)
            if p != t:
                w = [a + t * c for a, c in zip(w, x)]
                b += t
    return preds
