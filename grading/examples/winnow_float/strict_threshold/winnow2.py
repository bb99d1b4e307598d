"""Winnow2 in float64 predicting 1 only when w.x > d: a tie w.x = d predicts 0."""
import numpy as np


def winnow2(X, y, alpha, epochs=1):
    n, d = X.shape
    w = np.ones(d)
    for _ in range(epochs):
        for i in range(n):
            active = X[i] == 1
            pred = 1 if w[active].sum() > d else 0
            if pred != y[i]:
                if y[i] == 1:
                    w[active] *= alpha
                else:
                    w[active] /= alpha
    return w
