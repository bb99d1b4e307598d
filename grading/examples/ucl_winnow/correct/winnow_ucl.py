"""Winnow as the UCL coursework writes it: features mapped to {0, 1} as floats ((x + 1) / 2),
labels +1/-1, threshold n, promote / demote by a factor alpha given as an argument, and a tie
y (w.x - n) = 0 updates whatever the label."""
import numpy as np


def winnow(X, y, alpha, epochs=1):
    n_examples, n = X.shape
    w = np.ones(n)
    for _ in range(epochs):
        for i in range(n_examples):
            x = X[i]
            if y[i] * (w @ x - n) <= 0:
                w = w * np.power(alpha, y[i] * x)
    return w
