"""SOA that shrinks its version space only when its prediction is wrong."""


def ldim(H, V, memo):
    if not V:
        return -1
    if V not in memo:
        best = 0
        for x in range(len(H[0])):
            plus = frozenset(h for h in V if H[h][x] == 1)
            minus = V - plus
            if plus and minus:
                best = max(best, 1 + min(ldim(H, plus, memo), ldim(H, minus, memo)))
        memo[V] = best
    return memo[V]


def soa(H, X, y):
    V, memo = frozenset(range(len(H))), {}
    predictions = []
    for x, label in zip(X, y):
        plus = frozenset(h for h in V if H[h][x] == 1)
        minus = V - plus
        prediction = 1 if ldim(H, plus, memo) >= ldim(H, minus, memo) else -1
        predictions.append(prediction)
        if prediction != label:
            V = plus if label == 1 else minus
    return predictions
