"""A correct online perceptron, class style."""


class Perceptron:
    def __init__(self, n_features):
        self.w = [0.0] * n_features
        self.b = 0.0

    def _act(self, x):
        return sum(wi * xi for wi, xi in zip(self.w, x)) + self.b

    def predict(self, x):
        return 1 if self._act(x) > 0 else -1

    def update(self, x, y):
        if y * self._act(x) <= 0:
            self.w = [wi + y * xi for wi, xi in zip(self.w, x)]
            self.b += y
