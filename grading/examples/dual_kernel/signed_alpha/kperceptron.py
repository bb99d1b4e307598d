"""The Gram-matrix kernel perceptron with a typical mistake: alpha_i holds the signed sum of the
labels (alpha_i += y_i, f = sum alpha_j K[j, i]) where the course asks for mistake counts."""
import numpy as np


def kernel_perceptron(K, y, T):
    K = np.asarray(K, dtype=float)
    y = np.asarray(y, dtype=float)
    n = K.shape[0]
    alpha = np.zeros(n)
    for _ in range(T):
        for i in range(n):
            f = np.sum(alpha * K[:, i])
            if y[i] * f <= 0:
                alpha[i] += y[i]
    return alpha
