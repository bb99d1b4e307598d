"""Halving that removes the wrong hypotheses: it keeps those that disagree with the label."""


def halving(H, X, y):
    V = list(range(len(H)))
    mistakes = 0
    for x, label in zip(X, y):
        vote = sum(H[h][x] for h in V)
        prediction = 1 if vote >= 0 else -1
        mistakes += prediction != label
        V = [h for h in V if H[h][x] != label]
    return mistakes
