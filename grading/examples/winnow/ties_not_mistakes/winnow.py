"""Common mistake: strict threshold (ties predict 0) (double / halve, threshold m)."""


def train(X, y, epochs=1):
    m = len(X[0])
    w = [1.0] * m
    for _ in range(epochs):
        for x, t in zip(X, y):
            pred = 1 if sum(wi for wi, xi in zip(w, x) if xi) > m else 0
            if pred != t:
                f = 2.0 if t == 1 else 0.5
                w = [wi * f if xi else wi for wi, xi in zip(w, x)]
    return w
