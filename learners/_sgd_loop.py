"""scikit-learn's plain SGD epoch (``sklearn.linear_model._sgd_fast._plain_sgd``) for the hinge
family, operation for operation, compiled (:func:`learners._jit.compiled`): the drop-in
Passive-Aggressive classifier (PA-I / PA-II steps, Crammer et al. 2006) and the perceptron with
sample weights (the hinge at threshold 0, constant step) run through it, so their coefficients
are scikit-learn's bit for bit.

The order of every floating-point operation is the Cython loop's: the dot product summed in
feature (or stored-entry) order from 0.0, then + intercept; the step min(C, l/|x|^2) (PA-I; a row
with |x| = 0 is skipped, not counted) or l/(|x|^2 + 0.5/C) (PA-II); the step times y, times
class weight x sample weight; the lazy average of Xu (2011) as scikit-learn keeps it (two scalars
a, b and a vector that is corrected once at the end).  The weight scale is always 1 here (no
penalty), and multiplying or dividing by 1.0 changes no bit, so it is left out.

The visiting order is scikit-learn's ``SequentialDataset.shuffle``: a Fisher-Yates pass driven by
its 32-bit xorshift (``our_rand_r``), applied to the current order at every epoch with the same
seed.
"""
from __future__ import annotations

import numpy as np

from ._jit import compiled

__all__ = ["PA1", "PA2", "CONSTANT", "shuffle_order", "epoch_dense", "epoch_csr"]

CONSTANT, PA1, PA2 = 1, 5, 6          # scikit-learn's learning-rate codes
RAND_R_MAX = 2147483647


@compiled
def shuffle_order(order, seed):
    """scikit-learn's ``SequentialDataset.shuffle(seed)``: Fisher-Yates with ``our_rand_r``."""
    n = order.shape[0]
    s = np.uint32(seed)
    if s == 0:
        s = np.uint32(1)
    for i in range(n - 1):
        if s == 0:
            s = np.uint32(1)
        s ^= np.uint32(s << np.uint32(13))
        s ^= np.uint32(s >> np.uint32(17))
        s ^= np.uint32(s << np.uint32(5))
        r = np.int64(s % np.uint32(2147483648))
        j = i + r % (n - i)
        t = order[i]
        order[i] = order[j]
        order[j] = t


@compiled
def epoch_dense(X, y, sw, order, vmask, w, aw, st, lr, eta0, threshold, wpos, wneg, fit_intercept, decay,
                average, track_loss, mis, rec):
    """One epoch over the rows of X in ``order``.  ``st`` = [intercept, average intercept,
    average_a, average_b, t, sum of losses, steps]; ``mis`` counts y (w.x + b) <= 0 per call;
    ``rec`` (empty, or one slot per entry of ``order``) receives the step of every visit."""
    d = X.shape[1]
    intercept, avg_int, a_a, a_b, t = st[0], st[1], st[2], st[3], st[4]
    sumloss = 0.0
    count = 0
    use_avg = aw.shape[0] > 0
    for k in range(order.shape[0]):
        i = order[k]
        if vmask[i]:
            continue
        p = 0.0
        for j in range(d):
            p += w[j] * X[i, j]
        p = p + intercept
        yi = y[i]
        z = p * yi
        if z <= 0.0:
            mis[0] += 1
        loss = threshold - z if z <= threshold else 0.0
        if track_loss:
            sumloss += loss
        cw = wpos if yi > 0.0 else wneg
        if lr == 5 or lr == 6:
            nrm = 0.0
            for j in range(d):
                v = X[i, j]
                nrm += v * v
            if lr == 5:
                if nrm == 0:
                    continue
                u = loss / nrm
                upd = u if u < eta0 else eta0
            else:
                upd = loss / (nrm + 0.5 / eta0)
            upd *= yi
        else:
            dloss = -yi if z <= threshold else 0.0
            if dloss < -1e12:
                dloss = -1e12
            elif dloss > 1e12:
                dloss = 1e12
            upd = -eta0 * dloss
        upd *= cw * sw[i]
        if rec.shape[0] > 0:
            rec[k] = upd
        if upd != 0.0:
            for j in range(d):
                w[j] += X[i, j] * upd
        if fit_intercept and upd != 0.0:
            intercept += upd * decay
        if use_avg and 0 < average and average <= t:
            num = t - average + 1
            mu = 1.0 / num
            for j in range(d):
                aw[j] += a_a * X[i, j] * (-upd)
            if num > 1:
                a_b /= (1.0 - mu)
            a_a += mu * a_b
            avg_int += (intercept - avg_int) / num
        t += 1
        count += 1
    st[0], st[1], st[2], st[3], st[4], st[5], st[6] = intercept, avg_int, a_a, a_b, t, sumloss, count


@compiled
def epoch_csr(data, indices, indptr, y, sw, order, vmask, w, aw, st, lr, eta0, threshold, wpos, wneg,
              fit_intercept, decay, average, track_loss, mis, rec):
    """:func:`epoch_dense` over the stored entries of a CSR matrix, in stored order."""
    intercept, avg_int, a_a, a_b, t = st[0], st[1], st[2], st[3], st[4]
    sumloss = 0.0
    count = 0
    use_avg = aw.shape[0] > 0
    for k in range(order.shape[0]):
        i = order[k]
        if vmask[i]:
            continue
        lo, hi = indptr[i], indptr[i + 1]
        p = 0.0
        for q in range(lo, hi):
            p += w[indices[q]] * data[q]
        p = p + intercept
        yi = y[i]
        z = p * yi
        if z <= 0.0:
            mis[0] += 1
        loss = threshold - z if z <= threshold else 0.0
        if track_loss:
            sumloss += loss
        cw = wpos if yi > 0.0 else wneg
        if lr == 5 or lr == 6:
            nrm = 0.0
            for q in range(lo, hi):
                v = data[q]
                nrm += v * v
            if lr == 5:
                if nrm == 0:
                    continue
                u = loss / nrm
                upd = u if u < eta0 else eta0
            else:
                upd = loss / (nrm + 0.5 / eta0)
            upd *= yi
        else:
            dloss = -yi if z <= threshold else 0.0
            if dloss < -1e12:
                dloss = -1e12
            elif dloss > 1e12:
                dloss = 1e12
            upd = -eta0 * dloss
        upd *= cw * sw[i]
        if rec.shape[0] > 0:
            rec[k] = upd
        if upd != 0.0:
            for q in range(lo, hi):
                w[indices[q]] += data[q] * upd
        if fit_intercept and upd != 0.0:
            intercept += upd * decay
        if use_avg and 0 < average and average <= t:
            num = t - average + 1
            mu = 1.0 / num
            for q in range(lo, hi):
                aw[indices[q]] += a_a * data[q] * (-upd)
            if num > 1:
                a_b /= (1.0 - mu)
            a_a += mu * a_b
            avg_int += (intercept - avg_int) / num
        t += 1
        count += 1
    st[0], st[1], st[2], st[3], st[4], st[5], st[6] = intercept, avg_int, a_a, a_b, t, sumloss, count
