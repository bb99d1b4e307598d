"""SOA that compares the sizes of the two sides of the version space instead of their
Littlestone dimensions (which is Halving's vote)."""


def soa(H, X, y):
    V = frozenset(range(len(H)))
    predictions = []
    for x, label in zip(X, y):
        plus = frozenset(h for h in V if H[h][x] == 1)
        minus = V - plus
        predictions.append(1 if len(plus) >= len(minus) else -1)
        V = plus if label == 1 else minus
    return predictions
