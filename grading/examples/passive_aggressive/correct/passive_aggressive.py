"""A correct PA-I (C = 1), no bias."""


def train(X, y, epochs=1, C=1.0):
    w = [0.0] * len(X[0])
    for _ in range(epochs):
        for x, label in zip(X, y):
            loss = max(0.0, 1.0 - label * sum(a * b for a, b in zip(w, x)))
            sq = sum(v * v for v in x)
            if loss > 0 and sq > 0:
                tau = min(C, loss / sq)
                w = [a + tau * label * b for a, b in zip(w, x)]
    return w
