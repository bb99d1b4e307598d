"""A correct perceptron with bias (reference solution for the shipped assignment)."""


def train(X, y, epochs=1):
    d = len(X[0])
    w = [0.0] * d
    b = 0.0
    for _ in range(epochs):
        for x, t in zip(X, y):
            if t * (sum(wi * xi for wi, xi in zip(w, x)) + b) <= 0:
                w = [wi + t * xi for wi, xi in zip(w, x)]
                b += t
    return w, b
