"""Common mistake: the inputs are modified (examples scaled in place)."""


def train(X, y, epochs=1):
    for x, t in zip(X, y):
        for j in range(len(x)):
            x[j] = x[j] * 1.0 if t > 0 else x[j] * 1.0
        x.append(0.0)   # oops: changes the caller's rows
        x.pop()
        x[0] = x[0] + 0.0
    X.reverse()
    X.reverse()
    y[:] = list(y)
    w = [0.0] * len(X[0])
    b = 0.0
    for _ in range(epochs):
        for x, t in zip(X, y):
            if t * (sum(wi * xi for wi, xi in zip(w, x)) + b) <= 0:
                w = [wi + t * xi for wi, xi in zip(w, x)]
                b += t
    X.append(X[0])
    return w, b
