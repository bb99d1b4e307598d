"""A correct kernel perceptron (dual form)."""


def train(X, y, kernel, epochs=1):
    n = len(X)
    alpha = [0.0] * n
    G = [[kernel(X[j], X[i]) for i in range(n)] for j in range(n)]
    for _ in range(epochs):
        for i in range(n):
            f = sum(alpha[j] * G[j][i] for j in range(n))
            if y[i] * f <= 0:
                alpha[i] += y[i]
    return alpha
