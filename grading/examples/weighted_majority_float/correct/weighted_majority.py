"""A correct Weighted Majority in float64 with penalty beta."""


def train(X, y, beta, epochs=1):
    n = len(X[0])
    w = [1.0] * n
    mistakes = 0
    for _ in range(epochs):
        for advice, label in zip(X, y):
            plus = sum(wi for wi, a in zip(w, advice) if a == 1)
            minus = sum(wi for wi, a in zip(w, advice) if a != 1)
            mistakes += (1 if plus >= minus else -1) != label
            w = [wi * beta if a != label else wi for wi, a in zip(w, advice)]
    return w, mistakes
