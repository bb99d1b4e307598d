"""Halving that shrinks its version space only when its prediction is wrong."""


def halving(H, X, y):
    V = list(range(len(H)))
    mistakes = 0
    for x, label in zip(X, y):
        vote = sum(H[h][x] for h in V)
        prediction = 1 if vote >= 0 else -1
        if prediction != label:
            mistakes += 1
            V = [h for h in V if H[h][x] == label]
    return mistakes
