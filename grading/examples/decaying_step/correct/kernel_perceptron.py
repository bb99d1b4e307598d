"""A kernel perceptron with a step size per example, as some course notes write it: on a mistake
on example j, alpha_j += y_j / (j + 1)^2 (f(x_j) = sum_i alpha_i K(x_i, x_j))."""


def train(X, y, kernel, epochs=1):
    n = len(X)
    alpha = [0.0] * n
    for _ in range(epochs):
        for j in range(n):
            f = sum(alpha[i] * kernel(X[i], X[j]) for i in range(n) if alpha[i] != 0.0)
            if y[j] * f <= 0:
                alpha[j] += y[j] / (j + 1) ** 2
    return alpha
