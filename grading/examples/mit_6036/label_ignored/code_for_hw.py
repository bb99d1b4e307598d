# The typical mistake: the update ignores the label (th += x, th0 += 1).
"""The perceptron in MIT 6.036's shapes: data d x n, labels 1 x n, th d x 1, th0 1 x 1."""
import numpy as np


def perceptron(data, labels, params={}, hook=None):
    T = params.get("T", 100)
    d, n = data.shape
    th = np.zeros((d, 1))
    th0 = np.zeros((1, 1))
    for t in range(T):
        for i in range(n):
            x = data[:, i:i + 1]
            y = labels[0, i]
            if y * (np.dot(th.T, x) + th0)[0, 0] <= 0:
                th = th + x
                th0 = th0 + 1
                if hook:
                    hook((th, th0))
    return th, th0
