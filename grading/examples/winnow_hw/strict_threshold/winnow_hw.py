"""The Winnow homework with a typical mistake: w.x > theta (a tie predicts -1) instead of >=."""
import numpy as np


def winnow(X, y, theta, max_epochs=10):
    X = np.asarray(X)
    w = np.ones(X.shape[1])
    for _ in range(max_epochs):
        mistakes = 0
        for x, label in zip(X, y):
            active = x == 1
            prediction = 1 if w[active].sum() > theta else -1      # a tie predicts -1
            if prediction != label:
                mistakes += 1
                if label == 1:
                    w[active] *= 2
                else:
                    w[active] /= 2
        if mistakes == 0:
            break
    return w
