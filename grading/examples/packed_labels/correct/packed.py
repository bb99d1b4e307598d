"""The perceptron on one array whose last column is the label."""
import numpy as np


def train(data, T):
    X, y = data[:, :-1], data[:, -1]
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(T):
        for x, t in zip(X, y):
            if t * (w @ x + b) <= 0:
                w = w + t * x
                b = b + t
    return w, b
