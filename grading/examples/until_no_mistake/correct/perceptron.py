"""The perceptron as many handouts state it: repeat passes over the data, in order, until a pass
makes no mistake (no maximum: the data are linearly separable)."""


def perceptron(X, y):
    w = [0.0] * len(X[0])
    b = 0.0
    while True:
        mistakes = 0
        for x, t in zip(X, y):
            if t * (sum(wi * xi for wi, xi in zip(w, x)) + b) <= 0:
                w = [wi + t * xi for wi, xi in zip(w, x)]
                b += t
                mistakes += 1
        if mistakes == 0:
            return w, b
