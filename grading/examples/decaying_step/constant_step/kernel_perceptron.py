"""The per-example step size left out: alpha_j += y_j for every example (the course: y_j / (j + 1)^2)."""


def train(X, y, kernel, epochs=1):
    n = len(X)
    alpha = [0.0] * n
    for _ in range(epochs):
        for j in range(n):
            f = sum(alpha[i] * kernel(X[i], X[j]) for i in range(n) if alpha[i] != 0.0)
            if y[j] * f <= 0:
                alpha[j] += y[j]                 # the bug: the same step for every example
    return alpha
