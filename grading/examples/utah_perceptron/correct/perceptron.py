"""The perceptron as Utah CS5350 writes it: the bias folded in as a last column of ones, and
every epoch visits the examples in a new order drawn with np.random.permutation from numpy's
global state (the grader seeds it before every call, as the handout's driver does)."""
import numpy as np


def perceptron(X, y, T=10, r=1.0):
    Xb = np.hstack([X, np.ones((X.shape[0], 1))])
    w = np.zeros(Xb.shape[1])
    for _ in range(T):
        for i in np.random.permutation(Xb.shape[0]):
            if y[i] * (w @ Xb[i]) <= 0:
                w = w + r * y[i] * Xb[i]
    return w
