"""A perceptron whose handout fixes the number of passes inside the function: ten passes over
the data in the given order, every call."""


def train(X, y):
    w = [0.0] * len(X[0])
    b = 0.0
    for _ in range(10):
        for x, t in zip(X, y):
            if t * (sum(wi * xi for wi, xi in zip(w, x)) + b) <= 0:
                w = [wi + t * xi for wi, xi in zip(w, x)]
                b += t
    return w, b
