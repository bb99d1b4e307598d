"""Common mistake: the update ignores the label (w += x)."""


def train(X, y, epochs=1):
    w = [0.0] * len(X[0])
    b = 0.0
    for _ in range(epochs):
        for x, t in zip(X, y):
            if t * (sum(wi * xi for wi, xi in zip(w, x)) + b) <= 0:
                w = [wi + xi for wi, xi in zip(w, x)]
                b += 1
    return w, b
