"""The averaged perceptron with cached weights (Daume, "A Course in Machine Learning", Alg. 7):
the averaging counter c moves with every example."""
import numpy as np


def train(X, y, epochs=1):
    n, d = X.shape
    w, b = np.zeros(d), 0.0
    u, beta = np.zeros(d), 0.0
    c = 1
    for _ in range(epochs):
        for i in range(n):
            if y[i] * (X[i] @ w + b) <= 0:
                w = w + y[i] * X[i]
                b += y[i]
                u = u + y[i] * c * X[i]
                beta += y[i] * c
            c += 1
    return w - u / c, b - beta / c
