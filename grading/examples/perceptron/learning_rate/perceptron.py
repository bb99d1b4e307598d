"""Common mistake: a learning rate (the weights come out 0.5 x the reference's)."""


def train(X, y, epochs=1):
    eta = 0.5
    w = [0.0] * len(X[0])
    b = 0.0
    for _ in range(epochs):
        for x, t in zip(X, y):
            if t * (sum(wi * xi for wi, xi in zip(w, x)) + b) <= 0:
                w = [wi + eta * t * xi for wi, xi in zip(w, x)]
                b += eta * t
    return w, b
