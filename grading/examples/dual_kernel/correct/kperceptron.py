"""The kernel perceptron in dual form on a Gram matrix: alpha_i = mistakes made on example i."""
import numpy as np


def kernel_perceptron(K, y, T):
    K = np.asarray(K, dtype=float)
    y = np.asarray(y, dtype=float)
    n = K.shape[0]
    alpha = np.zeros(n)
    for _ in range(T):
        for i in range(n):
            f = np.sum(alpha * y * K[:, i])
            if y[i] * f <= 0:
                alpha[i] += 1
    return alpha
