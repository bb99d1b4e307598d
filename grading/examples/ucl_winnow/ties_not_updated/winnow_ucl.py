"""Winnow (UCL coursework shape) with one mistake: a tie y (w.x - n) = 0 does not update."""
import numpy as np


def winnow(X, y, alpha, epochs=1):
    n_examples, n = X.shape
    w = np.ones(n)
    for _ in range(epochs):
        for i in range(n_examples):
            x = X[i]
            if y[i] * (w @ x - n) < 0:          # the bug: a tie does not update
                w = w * np.power(alpha, y[i] * x)
    return w
