"""Until no mistake, with one mistake: it returns after the first pass whatever happened."""


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
        if True:                 # the bug: returns after the first pass, mistakes or not
            return w, b
