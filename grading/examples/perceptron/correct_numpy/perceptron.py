"""A correct perceptron written with numpy (returns an array)."""
import numpy as np


def train(X, y, epochs=1):
    A = np.array(X, dtype=float)
    w = np.zeros(A.shape[1])
    b = 0.0
    for _ in range(epochs):
        for x, t in zip(A, y):
            if t * (w @ x + b) <= 0:
                w = w + t * x
                b += t
    return w, b
