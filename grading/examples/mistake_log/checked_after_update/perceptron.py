"""The weights are right, but a mistake is logged only when the example is still misclassified
after the update: the log misses every mistake the update corrects."""


def train(X, y, T):
    w, b, log = [0.0] * len(X[0]), 0.0, []
    for epoch in range(T):
        for i, (x, t) in enumerate(zip(X, y)):
            if t * (sum(a * c for a, c in zip(w, x)) + b) <= 0:
                w = [a + t * c for a, c in zip(w, x)]
                b += t
                if t * (sum(a * c for a, c in zip(w, x)) + b) <= 0:
                    log.append((epoch, i))
    return w, b, log
