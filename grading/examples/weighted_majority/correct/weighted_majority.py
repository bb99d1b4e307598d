"""A correct Weighted Majority with penalty 1/2."""


def train(X, y, epochs=1):
    n = len(X[0])
    w = [1.0] * n
    mistakes = 0
    for _ in range(epochs):
        for advice, label in zip(X, y):
            plus = sum(wi for wi, a in zip(w, advice) if a == 1)
            minus = sum(wi for wi, a in zip(w, advice) if a != 1)
            w = [wi * 0.5 if a != label else wi for wi, a in zip(w, advice)]
            mistakes += (1 if plus >= minus else -1) != label
    return w, mistakes
