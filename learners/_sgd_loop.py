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

On float32 data (``f32``) the loop is scikit-learn's ``_plain_sgd32``: the weights, the example,
the label, the sample and class weights are float32, the rest double, as the Cython code declares
them -- each product w_j x_j rounded to float32 and summed in double, the sum rounded to float32
(``WeightVector32.dot`` returns a float), |x|^2 summed in double, class weight x sample weight a
float32 product, the step rounded to float32 where it is handed to ``add`` and ``add_average``
(the intercept takes the double step), each weight updated in double and stored as float32, and
the averaging's iteration count a float32.  A float32 operation done in double and rounded once
gives the same bits (the double holds the exact product or sum of two floats, or rounds it
harmlessly: a double has more than 2 x 24 + 2 bits), so the loop writes the roundings out.

The visiting order is scikit-learn's ``SequentialDataset.shuffle``: a Fisher-Yates pass driven by
its 32-bit xorshift (``our_rand_r``), applied to the current order at every epoch with the same
seed.
"""
from __future__ import annotations

import numpy as np

from learners._jit import compiled

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
                average, track_loss, mis, rec, f32=False):
    """One epoch over the rows of X in ``order``.  ``st`` = [intercept, average intercept,
    average_a, average_b, t, sum of losses, steps]; ``mis`` counts y (w.x + b) <= 0 per call;
    ``rec`` (empty, or one slot per entry of ``order``) receives the step of every visit; ``f32``:
    X, y, sw, w and aw are float32 and the float32 loop's roundings apply."""
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
            p += np.float64(w[j] * X[i, j])
        if f32:
            p = np.float64(np.float32(p))
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
                v = np.float64(X[i, j])
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
        if f32:
            upd *= np.float64(np.float32(np.float32(cw) * np.float32(sw[i])))
        else:
            upd *= cw * sw[i]
        if rec.shape[0] > 0:
            rec[k] = upd
        updw = np.float64(np.float32(upd)) if f32 else upd
        if upd != 0.0:
            for j in range(d):
                w[j] = w[j] + np.float64(X[i, j]) * updw
        if fit_intercept and upd != 0.0:
            intercept += upd * decay
        if use_avg and 0 < average and average <= t:
            numd = t - average + 1
            num = np.float64(np.float32(numd)) if f32 else numd
            mu = 1.0 / num
            for j in range(d):
                aw[j] = aw[j] + a_a * np.float64(X[i, j]) * (-updw)
            if num > 1:
                a_b /= (1.0 - mu)
            a_a += mu * a_b
            avg_int += (intercept - avg_int) / numd
        t += 1
        count += 1
    st[0], st[1], st[2], st[3], st[4], st[5], st[6] = intercept, avg_int, a_a, a_b, t, sumloss, count


@compiled
def epoch_csr(data, indices, indptr, y, sw, order, vmask, w, aw, st, lr, eta0, threshold, wpos, wneg,
              fit_intercept, decay, average, track_loss, mis, rec, f32=False):
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
            p += np.float64(w[indices[q]] * data[q])
        if f32:
            p = np.float64(np.float32(p))
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
                v = np.float64(data[q])
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
        if f32:
            upd *= np.float64(np.float32(np.float32(cw) * np.float32(sw[i])))
        else:
            upd *= cw * sw[i]
        if rec.shape[0] > 0:
            rec[k] = upd
        updw = np.float64(np.float32(upd)) if f32 else upd
        if upd != 0.0:
            for q in range(lo, hi):
                w[indices[q]] = w[indices[q]] + np.float64(data[q]) * updw
        if fit_intercept and upd != 0.0:
            intercept += upd * decay
        if use_avg and 0 < average and average <= t:
            numd = t - average + 1
            num = np.float64(np.float32(numd)) if f32 else numd
            mu = 1.0 / num
            for q in range(lo, hi):
                aw[indices[q]] = aw[indices[q]] + a_a * np.float64(data[q]) * (-updw)
            if num > 1:
                a_b /= (1.0 - mu)
            a_a += mu * a_b
            avg_int += (intercept - avg_int) / numd
        t += 1
        count += 1
    st[0], st[1], st[2], st[3], st[4], st[5], st[6] = intercept, avg_int, a_a, a_b, t, sumloss, count
