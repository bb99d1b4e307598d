"""The handout hands out one array: the features, then the label in the last column."""
import numpy as np

import packed


def answer(X, y, T):
    data = np.column_stack([X, y])
    w, b = packed.train(data, T)
    return w, b
