"""The body of the suite's own solution (:mod:`grading.references.synth`): plain Python over floats that
binds the course's call to its test data, visits the examples, runs the learner under the
constants the generated module sets (ALG, TIES, ETA, ORDER, ...) and returns the course's layout.

This file is that code as a module: :func:`grading.references.synth.solution_source` writes a header setting
the constants from the contract, then copies everything below the line ``# --- body ---`` (read
from this file), then the course's entry point.  The constants here are neutral stand-ins (the
classic ``train(X, y, epochs=1) -> (w, b)`` perceptron), so the module imports, linters read it,
and a test can call its functions; the generated solution never sees them."""
import random

ALG = 'perceptron'
TIES = 'mistake'
ETA = 1.0
BIAS = True
ORDER = 'index'
INIT = 'zero'
THRESHOLD = None
VARIANT = 'halve'
FACTOR = 2.0
PENALTY = 0.5
HEDGE_WEIGHTS = 'raw'
ANSWER = 'weights'
DUAL = 'signed'
KERNEL = 'linear'
POSITIVE = 1
NEGATIVE = -1
RETURNS = 'w_b'
COLUMNS = False
BUGS = []
POS_REFS = [{'ref': 'X'}, {'ref': 'y'}]
KW_REFS = {'epochs': {'ref': 'T'}}
INIT_POS = []
INIT_KW = {}
DEFAULTS = {'epochs': 1}
PASSES = 0
STEP = 'constant'
UNBOUNDED = False
MARGIN = None
KERNEL_SPEC = 'linear'
KEYS = [None, None]
AVERAGE = 'none'
AVERAGE_START = False
STOP = 'epochs'
ORDER_HELPER = None
INIT_HELPER = None

# --- body ---
def _extract(shape, v, data):
    """The test data inside an argument (a name, or data inside a dict or a list)."""
    if "ref" in shape:
        data[shape["ref"]] = v
    elif "dict" in shape:
        for k, s in shape["dict"].items():
            if k in v:
                _extract(s, v[k], data)
    elif "list" in shape:
        for s, x in zip(shape["list"], v):
            _extract(s, x, data)


def _bind(args, kwargs, pos_refs, kw_refs):
    data = {}
    for shape, v in zip(pos_refs, args):
        _extract(shape, v, data)
    for k, shape in kw_refs.items():
        if k in kwargs:
            _extract(shape, kwargs[k], data)
        elif k in DEFAULTS and "ref" in shape:
            data[shape["ref"]] = DEFAULTS[k]
    return data


def _kernel_by_name(a, b):
    """The kernel the course's code picks by name ([assignment] kernel)."""
    import math
    a = [float(v) for v in a]
    b = [float(v) for v in b]
    name, _, rest = KERNEL_SPEC.partition(":")
    kv = dict(part.split("=") for part in rest.split(",")) if rest else {}
    if name == "linear":
        return sum(p * q for p, q in zip(a, b))
    if name == "poly":
        c = kv.get("c", "1")
        c = float(c.split("/")[0]) / float(c.split("/")[1]) if "/" in c else float(c)
        return (c + sum(p * q for p, q in zip(a, b))) ** int(kv.get("k", "2"))
    c = kv.get("c", "1")
    c = float(c.split("/")[0]) / float(c.split("/")[1]) if "/" in c else float(c)
    return math.exp(-c * sum((p - q) ** 2 for p, q in zip(a, b)))


def _examples(X):
    """The examples as rows (X may hold one example per column; a DataFrame as its values)."""
    if hasattr(X, "to_numpy"):
        X = X.to_numpy()
    if not COLUMNS:
        return list(X)
    if hasattr(X, "T"):
        return list(X.T)
    return [list(col) for col in zip(*X)]


def _flat(v):
    if hasattr(v, "to_numpy"):
        v = v.to_numpy()
    out = []
    for x in v:
        if hasattr(x, "__len__") and not isinstance(x, str):
            out.append(x[0])
        else:
            out.append(x)
    return out


def _step(j, t=0):
    if STEP == "1/(t+1)":
        return 1.0 / (t + 1)
    if STEP == "1/(j+1)":
        return 1.0 / (j + 1)
    if STEP == "1/(j+1)^2":
        return 1.0 / (j + 1) ** 2
    return 1.0


def _mistake(yi, a):
    if TIES == "mistake":
        return yi * a <= 0
    if TIES == "no_mistake":
        return yi * a < 0
    pred = (1 if a >= 0 else -1) if TIES == "predict+1" else (1 if a > 0 else -1)
    return pred != yi


def _order(n):
    if "shuffled" in BUGS:
        idx = list(range(n))
        random.shuffle(idx)
        return idx
    if ORDER == "global_permutation":     # a new order every pass, from numpy's seeded global state
        import numpy as np
        return [int(i) for i in np.random.permutation(n)]
    if ORDER == "global_shuffle":
        idx = list(range(n))
        random.shuffle(idx)
        return idx
    if ORDER_HELPER is None:
        return list(range(n))
    return [int(i) for i in globals()[ORDER_HELPER](n)]


def _train(data):
    T = int(data.get("T", PASSES or (10 ** 6 if UNBOUNDED else 1)))   # (unbounded: until a pass has no mistake)
    if "one_pass" in BUGS:
        T = 1
    if ALG == "hedge":
        return _hedge(data)
    if ALG in ("halving", "soa"):
        return _finite_class(data), "answer"
    labels = [1 if v == POSITIVE else -1 for v in _flat(data["y"])]
    eta = float(data.get("eta", ETA))
    if "modifies_inputs" in BUGS and isinstance(data.get("y"), list):
        data["y"].reverse()
        data["y"].reverse()
        data["y"].append(data["y"][0])
    if ALG == "kernel_perceptron":
        return _kernel(data, labels, T, eta)
    X = [[float(v) for v in row] for row in _examples(data["X"])]
    n, d = len(X), len(X[0])
    if ALG == "winnow":
        return _winnow(X, labels, T, data)
    if ALG == "weighted_majority":
        return _weighted_majority(X, labels, T, data)
    if ALG == "passive_aggressive":
        return _passive_aggressive(X, labels, T, data)
    if INIT == "given":
        w = [float(v) for v in data["w0"]]
        b = float(data.get("b0", 0.0))
    elif INIT == "own":                  # a start of its own, drawn from a seeded generator
        rng = random.Random(1)
        w = [rng.gauss(0.0, 0.01) for _ in range(d)]
        b = rng.gauss(0.0, 0.01)
    elif INIT_HELPER is not None:
        w = [float(v) for v in globals()[INIT_HELPER](d)]
        b = 0.0
    else:
        w, b = [0.0] * d, 0.0
    state = data.get("_state")
    if state is not None:
        w, b = list(state[0]), state[1]
    history = []
    # the averaged perceptron: the weights summed after every example (the start once too with
    # AVERAGE_START); the voted one: (w, b, count) votes, a new vector counting its own step
    su, sb, cnt = (list(w), b, 1) if AVERAGE_START else ([0.0] * d, 0.0, 0)
    votes, vc = [], (1 if AVERAGE_START else 0)
    tstep = 0
    for _ in range(T):
        order = _order(n)
        clean = True
        for i in order:
            x = X[i]
            if "quadratic" in BUGS:      # recompute w from the whole history at every step
                w = [sum(h[1] * h[0][j] for h in history) for j in range(d)] if history else [0.0] * d
            a = sum(wj * xj for wj, xj in zip(w, x)) + (b if BIAS and "bias_not_in_activation" not in BUGS else 0.0)
            if _mistake(labels[i], a):
                clean = False
                votes.append((list(w), b, vc))
                vc = 0
                s = 1 if "label_ignored" in BUGS else labels[i]
                et = eta * _step(i, tstep)
                history.append((x, et * s))
                w = [wj + et * s * xj for wj, xj in zip(w, x)]
                if BIAS and "bias_never_updated" not in BUGS:
                    b += -et * s if "bias_sign_flipped" in BUGS else et * s
            vc += 1
            tstep += 1
            if "average_per_epoch" not in BUGS:
                su = [p + q for p, q in zip(su, w)]
                sb += b
                cnt += 1
        if "average_per_epoch" in BUGS:
            su = [p + q for p, q in zip(su, w)]
            sb += b
            cnt += 1
        if clean and (AVERAGE == "none" or STOP == "converged"):     # (later passes change an average)
            break
    if AVERAGE == "voted":
        votes.append((list(w), b, vc))
        return [v for v in votes if v[2] > 0], "votes"
    if AVERAGE == "sum":
        return su, sb
    if AVERAGE == "mean":
        return [v / cnt for v in su], sb / cnt
    return w, b


def _winnow(X, labels, T, data):
    n, m = len(X), len(X[0])
    if "theta" in data:
        theta = float(data["theta"])
    else:
        theta = {"n": m, "n/2": m / 2}.get(THRESHOLD, THRESHOLD)
    up = float(data["alpha"]) if "alpha" in data else (FACTOR if VARIANT == "winnow2" else 2.0)
    w = [1.0] * m
    history = []
    state = data.get("_state")
    if state is not None:
        w = list(state[0])
    for _ in range(T):
        order = _order(n)
        clean = True
        for i in order:
            x = X[i]
            if "quadratic" in BUGS:      # replay every update so far at every step
                w = [1.0] * m
                for xs, f in history:
                    w = [wj * f if xj else wj for wj, xj in zip(w, xs)]
            s = sum(wj for wj, xj in zip(w, x) if xj)
            if MARGIN is not None:
                wrong = labels[i] * (s - theta) <= MARGIN
            else:
                pred = 1 if (s >= theta if TIES == "predict+1" else s > theta) else -1
                wrong = pred != labels[i]
            if wrong:
                clean = False
                if labels[i] == 1 or "label_ignored" in BUGS:
                    w = [wj * up if xj else wj for wj, xj in zip(w, x)]
                    history.append((x, up))
                elif VARIANT == "eliminate":
                    w = [0.0 if xj else wj for wj, xj in zip(w, x)]
                    history.append((x, 0.0))
                else:
                    w = [wj / up if xj else wj for wj, xj in zip(w, x)]
                    history.append((x, 1 / up))
        if clean:
            break
    return w, None


def _weighted_majority(X, labels, T, data):
    """The penalty (contract.penalty) on every wrong expert, every step (a mistake of the learner or not)."""
    w, mistakes = [1.0] * len(X[0]), 0
    beta = float(data.get("beta", PENALTY))
    state = data.get("_state")
    if state is not None:
        w, mistakes = list(state[0]), state[1]
    for _ in range(T):
        for i in _order(len(X)):
            plus = sum(wj for wj, xj in zip(w, X[i]) if xj == 1)     # W(+1) and W(-1), each summed in
            minus = sum(wj for wj, xj in zip(w, X[i]) if xj != 1)    # index order (a course's float loop)
            pred = (1 if plus >= minus else -1) if TIES == "predict+1" else (1 if plus > minus else -1)
            mistakes += pred != labels[i]
            if "label_ignored" in BUGS:
                continue
            w = [wj * beta if xj != labels[i] else wj for wj, xj in zip(w, X[i])]
    return w, mistakes


def _hedge(data):
    """Hedge (Freund & Schapire 1997) on the loss table: the learner's loss sum_i w_i l_i / sum_i w_i,
    then w_i * beta ** l_i; returns (the weights, divided by their sum under HEDGE_WEIGHTS =
    "normalized", and the learner's total loss)."""
    L = [[float(v) for v in row] for row in _examples(data["X"])]
    beta = float(data.get("beta", PENALTY))
    w, total = [1.0] * len(L[0]), 0.0
    for row in L:
        W = mixed = 0.0
        for wi, li in zip(w, row):
            W = W + wi
            mixed = mixed + wi * li
        total = total + mixed / W
        if "label_ignored" in BUGS:        # (no labels: the one change is the loss applied as a gain)
            w = [wi * beta ** -li for wi, li in zip(w, row)]
        else:
            w = [wi * beta ** li for wi, li in zip(w, row)]
    if HEDGE_WEIGHTS == "normalized":
        s = 0.0
        for wi in w:
            s = s + wi
        w = [wi / s for wi in w]
    return w, total


def _ldim(H, V, memo):
    """The Littlestone dimension of the version space V (a frozenset of hypothesis indices):
    -1 when empty, else the max over the points x that split V of 1 + min of the two sides'."""
    if not V:
        return -1
    if V not in memo:
        best = 0
        for x in range(len(H[0])):
            plus = frozenset(h for h in V if H[h][x] == 1)
            minus = V - plus
            if plus and minus:
                best = max(best, 1 + min(_ldim(H, plus, memo), _ldim(H, minus, memo)))
        memo[V] = best
    return memo[V]


def _finite_class(data):
    """Halving (the majority vote of the version space) or SOA (the label whose side of the version
    space has the larger Littlestone dimension) over the class H; V keeps the hypotheses consistent
    with every label so far.  Returns the mistakes or the predictions (ANSWER)."""
    H = [[1 if v == POSITIVE else -1 for v in h] for h in _examples(data["H"])]
    xs = [int(v) for v in _flat(data["X"])]
    labels = [1 if v == POSITIVE else -1 for v in _flat(data["y"])]
    V, memo = frozenset(range(len(H))), {}
    preds, mistakes = [], 0
    for x, lab in zip(xs, labels):
        plus = frozenset(h for h in V if H[h][x] == 1)
        if ALG == "halving":
            score = len(plus) - len(V - plus)
        else:
            score = _ldim(H, plus, memo) - _ldim(H, V - plus, memo)
        pred = 1 if (score > 0 or score == 0 and TIES == "predict+1") else -1
        if "label_ignored" in BUGS:          # (the one change: the version space kept whole)
            pass
        else:
            V = plus if lab == 1 else V - plus
        preds.append(POSITIVE if pred == 1 else NEGATIVE)
        mistakes += pred != lab
    return preds if ANSWER == "predictions" else mistakes


def _passive_aggressive(X, labels, T, data, C=1.0):
    """PA-I: tau = min(C, loss / |x|^2), no step on a zero vector."""
    w = [0.0] * len(X[0])
    state = data.get("_state")
    if state is not None:
        w = list(state[0])
    for _ in range(T):
        for i in _order(len(X)):
            x = X[i]
            s = 1 if "label_ignored" in BUGS else labels[i]
            loss = max(0.0, 1.0 - s * sum(wj * xj for wj, xj in zip(w, x)))
            sq = sum(v * v for v in x)
            if loss > 0 and sq > 0:
                tau = min(C, loss / sq)
                w = [wj + tau * s * xj for wj, xj in zip(w, x)]
    return w, None


def _kernel(data, labels, T, eta):
    if "K" in data:
        G = [[float(v) for v in row] for row in data["K"]]
        n = len(G)

        def kern(j, i):
            return G[j][i]
    else:
        rows = _examples(data["X"])
        k = data.get("kernel", _kernel_by_name)
        n = len(rows)
        cache = {}

        def kern(j, i):
            if "quadratic" in BUGS:
                return float(k(rows[j], rows[i]))
            if (j, i) not in cache:
                cache[(j, i)] = float(k(rows[j], rows[i]))
            return cache[(j, i)]
    alpha = [0.0] * n
    b = 0.0
    state = data.get("_state")
    if state is not None:
        alpha, b = list(state[0]), state[1]
    tstep = 0
    for _ in range(T):
        order = _order(n)
        clean = True
        for i in order:
            tstep += 1
            fs = {}
            for t in (range(n) if "quadratic" in BUGS else (i,)):   # the bug: every f(x_t), every step
                if DUAL == "counts":
                    fs[t] = sum(alpha[j] * labels[j] * kern(j, t) for j in range(n))
                else:
                    fs[t] = sum(alpha[j] * kern(j, t) for j in range(n))
            f = fs[i]
            a = f + (b if BIAS and "bias_not_in_activation" not in BUGS else 0.0)
            if _mistake(labels[i], a):
                clean = False
                s = 1 if "label_ignored" in BUGS else labels[i]
                et = eta * _step(i, tstep - 1)
                alpha[i] += et if DUAL == "counts" else et * s
                if BIAS and "bias_never_updated" not in BUGS:
                    b += -et * labels[i] if "bias_sign_flipped" in BUGS else et * labels[i]
        if clean:
            break
    return alpha, b


def _answer(state):
    w, b = state
    if b == "answer":                # the mistakes or the predictions, as they are (Halving, SOA)
        return w
    if b == "votes":                 # [(w, b, count)] in the course's layout
        out = []
        for v, vb, k in w:
            if RETURNS == "w_bias_first":
                out.append(([vb] + list(v), k))
            elif RETURNS == "w_bias_last":
                out.append((list(v) + [vb], k))
            elif BIAS:
                out.append((list(v), vb, k))
            else:
                out.append((list(v), k))
        w = out
        if KEYS[0] is not None:
            return {KEYS[0]: w}
        return w
    if KEYS[0] is not None:          # a dict: {"W": w, "b": b}
        out = {KEYS[0]: list(w)}
        if KEYS[1] is not None:
            out[KEYS[1]] = b
        return out
    if RETURNS in ("w_b", "alpha_b"):
        return list(w), b
    if RETURNS == "w_bias_first":
        return [b] + list(w)
    if RETURNS == "w_bias_last":
        return list(w) + [b]
    return list(w)
