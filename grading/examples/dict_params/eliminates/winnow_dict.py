"""The parameter-dictionary Winnow with one mistake: a false 1 sets the weights to 0 instead of halving them."""


def run_winnow(X, y, params):
    thres = params["Thres"][0]
    w = [1.0] * len(X[0])
    mistakes = 0
    for _ in range(params["Epochs"]):
        for x, t in zip(X, y):
            pred = 1 if sum(wi for wi, xi in zip(w, x) if xi) >= thres else 0
            if pred != t:
                mistakes += 1
                f = 2.0 if t == 1 else 0.0       # the bug: eliminates instead of halving
                w = [wi * f if xi else wi for wi, xi in zip(w, x)]
    return {"W": w, "mistakes": mistakes}
