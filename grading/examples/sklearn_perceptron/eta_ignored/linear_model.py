"""The scikit-learn-style perceptron with a typical mistake: the learning rate eta0 is ignored."""
import numpy as np


class Perceptron:
    def __init__(self, eta0=1.0, max_iter=5):
        self.eta0 = eta0
        self.max_iter = max_iter

    def fit(self, X, y):
        X = np.asarray(X, dtype=float)
        s = np.where(np.asarray(y) == 1, 1.0, -1.0)       # class 1 is the positive class
        w = np.zeros(X.shape[1])
        b = 0.0
        for _ in range(self.max_iter):
            for xi, si in zip(X, s):
                if si * (w @ xi + b) <= 0:
                    w = w + si * xi                      # eta0 is stored but never used
                    b = b + si
        self.coef_ = w.reshape(1, -1)
        self.intercept_ = np.array([b])
        return self

    def predict(self, X):
        return (np.asarray(X, dtype=float) @ self.coef_[0] + self.intercept_[0] > 0).astype(int)
