"""A correct Hedge (Freund & Schapire 1997) that returns the distribution over the experts."""


def hedge(losses, beta=0.5):
    w = [1.0] * len(losses[0])
    total = 0.0
    for row in losses:
        W = sum(w)
        total += sum(wi * li for wi, li in zip(w, row)) / W
        w = [wi * beta ** li for wi, li in zip(w, row)]
    W = sum(w)
    return [wi / W for wi in w], total
