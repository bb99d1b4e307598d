"""A correct perceptron that logs its mistakes as (epoch, i)."""


def train(X, y, T):
    w, b, log = [0.0] * len(X[0]), 0.0, []
    for epoch in range(T):
        for i, (x, t) in enumerate(zip(X, y)):
            if t * (sum(a * c for a, c in zip(w, x)) + b) <= 0:
                log.append((epoch, i))
                w = [a + t * c for a, c in zip(w, x)]
                b += t
    return w, b, log
