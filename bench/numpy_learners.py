"""Plain numpy implementations of the learners (the benchmark's baselines): one Python step per
example, numpy for the vector work -- how the algorithms are usually written.  Not used by the
suite itself."""
from __future__ import annotations

import numpy as np


def perceptron(X, y):
    n, d = X.shape
    w = np.zeros(d)
    b = 0.0
    mistakes = 0
    for i in range(n):
        x = X[i]
        if y[i] * (w @ x + b) <= 0.0:
            w += y[i] * x
            b += y[i]
            mistakes += 1
    return w, b, mistakes


def averaged_perceptron(X, y):
    """Mean of the weights after each step (scikit-learn's average=True convention)."""
    n, d = X.shape
    w = np.zeros(d)
    b = 0.0
    ws = np.zeros(d)
    bs = 0.0
    mistakes = 0
    for i in range(n):
        x = X[i]
        if y[i] * (w @ x + b) <= 0.0:
            w += y[i] * x
            b += y[i]
            mistakes += 1
        ws += w
        bs += b
    return ws / n, bs / n, mistakes


def voted_perceptron(X, y):
    """Votes (weights, bias, survival count), Freund & Schapire."""
    n, d = X.shape
    w = np.zeros(d)
    b = 0.0
    W, B, C = [], [], []
    c = 0
    mistakes = 0
    for i in range(n):
        x = X[i]
        if y[i] * (w @ x + b) <= 0.0:
            if c:
                W.append(w.copy())
                B.append(b)
                C.append(c)
            w = w + y[i] * x
            b += y[i]
            c = 1
            mistakes += 1
        else:
            c += 1
    W.append(w.copy())
    B.append(b)
    C.append(c)
    return np.array(W), np.array(B), np.array(C), mistakes


def voted_decision(W, B, C, X, block=4096):
    """sum_k c_k sign(w_k.x + b_k) with numpy's blocked product."""
    out = np.empty(len(X))
    for s in range(0, len(X), block):
        S = X[s:s + block] @ W.T + B
        out[s:s + block] = np.where(S > 0, 1.0, -1.0) @ C
    return out


def kernel_perceptron(X, y, c):
    """Gaussian kernel perceptron, one epoch, exp(-c |x - s|^2) against the support vectors."""
    n, d = X.shape
    S = np.empty((n, d))
    a = np.empty(n)
    m = 0
    alpha = np.zeros(n)
    for i in range(n):
        x = X[i]
        f = a[:m] @ np.exp(-c * ((S[:m] - x) ** 2).sum(axis=1)) if m else 0.0
        if y[i] * f <= 0.0:
            S[m] = x
            a[m] = y[i]
            m += 1
            alpha[i] += y[i]
    return alpha, m


def kernel_perceptron_dot(X, y, c):
    """The same, with |x - s|^2 = |x|^2 + |s|^2 - 2 x.s (one matrix-vector product per step)."""
    n, d = X.shape
    sq = np.einsum("ij,ij->i", X, X)
    S = np.empty((n, d))
    ssq = np.empty(n)
    a = np.empty(n)
    m = 0
    alpha = np.zeros(n)
    for i in range(n):
        x = X[i]
        f = a[:m] @ np.exp(-c * np.maximum(ssq[:m] + sq[i] - 2.0 * (S[:m] @ x), 0.0)) if m else 0.0
        if y[i] * f <= 0.0:
            S[m] = x
            ssq[m] = sq[i]
            a[m] = y[i]
            m += 1
            alpha[i] += y[i]
    return alpha, m


def kernel_decision(S, a, X, c, block=2048):
    """f(x) = sum_j a_j exp(-c |x - s_j|^2) with numpy's blocked product."""
    ssq = np.einsum("ij,ij->i", S, S)
    out = np.empty(len(X))
    for s in range(0, len(X), block):
        Xb = X[s:s + block]
        D = np.einsum("ij,ij->i", Xb, Xb)[:, None] + ssq[None, :] - 2.0 * (Xb @ S.T)
        out[s:s + block] = np.exp(-c * np.maximum(D, 0.0)) @ a
    return out


def certified_gaussian_steps(act, mis):
    """How many steps of a one-epoch float Gaussian kernel-perceptron run (activations ``act``,
    mistake flags ``mis``, no bias) decide as the exact real-number run does.  With integer data
    and c a power of two, every squared distance and c |x - s|^2 is exact and each kernel value
    is within 1 ulp, so after k mistakes (k support vectors, |alpha_j| = 1, K_j <= 1) the
    computed activation is within (k + 2) u k of the real one (u = 2^-53): a step is certified
    when |activation| exceeds that bound (or when k = 0: the empty sum is exactly 0)."""
    u = 2.0 ** -53
    k = np.concatenate(([0], np.cumsum(mis)[:-1])).astype(np.float64)      # support vectors before each step
    bound = (k + 2) * u * k * 1.01
    return int(np.count_nonzero((np.abs(act) > bound) | (k == 0)))


def winnow(X, y):
    """Halving Winnow, theta = n: the activation is the sum of the active features' weights."""
    n_ex, n = X.shape
    w = np.ones(n)
    theta = float(n)
    mistakes = 0
    for i in range(n_ex):
        active = X[i] == 1
        p = 1 if w[active].sum() >= theta else 0
        if p != y[i]:
            mistakes += 1
            if y[i] == 1:
                w[active] *= 2.0
            else:
                w[active] /= 2.0
    return w, mistakes


def winnow_dot(X, y):
    """The same with the activation as a dot product w @ x over all n features."""
    n_ex, n = X.shape
    w = np.ones(n)
    theta = float(n)
    mistakes = 0
    for i in range(n_ex):
        x = X[i]
        p = 1 if w @ x >= theta else 0
        if p != y[i]:
            mistakes += 1
            if y[i] == 1:
                w[x == 1] *= 2.0
            else:
                w[x == 1] /= 2.0
    return w, mistakes
