"""CS5350-style perceptron with one mistake: a tie y (w.x) = 0 is not counted as a mistake."""
import numpy as np


def perceptron(X, y, T=10, r=1.0):
    Xb = np.hstack([X, np.ones((X.shape[0], 1))])
    w = np.zeros(Xb.shape[1])
    for _ in range(T):
        for i in np.random.permutation(Xb.shape[0]):
            if y[i] * (w @ Xb[i]) < 0:      # the bug: a tie is not a mistake
                w = w + r * y[i] * Xb[i]
    return w
