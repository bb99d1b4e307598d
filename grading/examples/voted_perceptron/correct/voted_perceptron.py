"""The voted perceptron as courses write it: a list of (w, count) votes, the first count from 1."""
import numpy as np


def voted_perceptron(X, y, T):
    w = np.zeros(X.shape[1])
    c = 1
    votes = []
    for _ in range(T):
        for x, t in zip(X, y):
            if t * (w @ x) <= 0:
                votes.append((w.copy(), c))
                w = w + t * x
                c = 1
            else:
                c += 1
    votes.append((w, c))
    return votes
