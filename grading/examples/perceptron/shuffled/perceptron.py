"""Common mistake: the examples are shuffled before each pass."""
import random


def train(X, y, epochs=1):
    w = [0.0] * len(X[0])
    b = 0.0
    idx = list(range(len(X)))
    for _ in range(epochs):
        random.shuffle(idx)
        for i in idx:
            x, t = X[i], y[i]
            if t * (sum(wi * xi for wi, xi in zip(w, x)) + b) <= 0:
                w = [wi + t * xi for wi, xi in zip(w, x)]
                b += t
    return w, b
