"""A kernel perceptron chosen by name, with one mistake: the bias moves the wrong way (b -= y)."""
import numpy as np


class KernelPerceptron:
    def __init__(self, kernel="linear", degree=3, coef0=1.0, gamma=1.0, n_epochs=1):
        self.kernel, self.degree, self.coef0, self.gamma, self.n_epochs = kernel, degree, coef0, gamma, n_epochs

    def _k(self, A, B):
        if self.kernel == "linear":
            return A @ B.T
        if self.kernel == "poly":
            return (self.coef0 + A @ B.T) ** self.degree
        sq = (A * A).sum(1)[:, None] + (B * B).sum(1)[None, :] - 2 * A @ B.T
        return np.exp(-self.gamma * sq)

    def fit(self, X, y):
        X = np.asarray(X, dtype=float)
        G = self._k(X, X)
        self.alpha_ = np.zeros(len(X))
        self.b_ = 0.0
        for _ in range(self.n_epochs):
            for i in range(len(X)):
                f = self.alpha_ @ G[:, i] + self.b_
                if y[i] * f <= 0:
                    self.alpha_[i] += y[i]
                    self.b_ -= y[i]          # the bug: the bias moves the wrong way
        return self
