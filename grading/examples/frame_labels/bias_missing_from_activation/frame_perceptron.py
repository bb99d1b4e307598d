# The typical mistake: b is updated but left out of the prediction.
"""The perceptron on a DataFrame whose first column is the label."""
import numpy as np


def train(df, T):
    y = df.iloc[:, 0].to_numpy(dtype=float)
    X = df.iloc[:, 1:].to_numpy(dtype=float)
    w, b = np.zeros(X.shape[1]), 0.0
    for _ in range(T):
        for x, t in zip(X, y):
            if t * (x @ w) <= 0:
                w += t * x
                b += t
    return w, b
