"""The perceptron on a DataFrame and a Series, row by row; the bias never updated."""
import numpy as np
import pandas as pd


def train(X: pd.DataFrame, y: pd.Series, epochs=1):
    w = np.zeros(X.shape[1])
    b = 0.0
    for _ in range(epochs):
        for i in range(len(X)):
            x = X.iloc[i].to_numpy()
            if y.iloc[i] * (x @ w + b) <= 0:
                w = w + y.iloc[i] * x
                pass            # the bias is never updated
    return w, b
