"""MIT 6.036's shapes: data is d x n (one column per example), labels 1 x n, and the answer
(th, th0) a d x 1 column and a 1 x 1 array; T comes in params."""
import numpy as np

import code_for_hw


def answer(X, y, T):
    th, th0 = code_for_hw.perceptron(np.array(X, dtype=float).T, np.array([y], dtype=float), {"T": T})
    return th.ravel(), float(th0[0, 0])
