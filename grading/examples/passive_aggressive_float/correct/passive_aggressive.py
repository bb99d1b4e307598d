"""A correct PA-I (C = 1), no bias, in numpy float64."""
import numpy as np


def train(X, y, epochs=1, C=1.0):
    w = np.zeros(X.shape[1])
    for _ in range(epochs):
        for x, label in zip(X, y):
            loss = max(0.0, 1.0 - label * np.dot(w, x))
            sq = np.dot(x, x)
            if loss > 0 and sq > 0:
                tau = min(C, loss / sq)
                w = w + tau * label * x
    return w
