# The typical mistake: a tie y w.x = 0 is not taken as a mistake (< 0).
"""The perceptron without a bias: train returns the weights, the passes made and the mistakes."""


def train(X, y, T):
    w = [0.0] * len(X[0])
    mistakes = 0
    for it in range(T):
        for x, t in zip(X, y):
            if t * sum(a * b for a, b in zip(w, x)) < 0:
                w = [a + t * b for a, b in zip(w, x)]
                mistakes += 1
    return w, T, mistakes
