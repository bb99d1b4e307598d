"""Compiled inner loops (numba, through :func:`learners._jit.compiled`: cached on disk where a cache
can be written, compiled afresh otherwise).  Imported lazily: nothing here is loaded until a
learner actually runs in float mode or in the int64 exact mode.

Each loop visits ``order`` (example indices), writes the activation and the mistake flag of every
step, and updates ``w`` (and returns the bias) in place.  Weights after each step are not stored:
``learners.perceptron`` rebuilds them from the mistake flags when a trace asks for them.
"""
import numpy as np

from learners._jit import compiled


# Flags for the fast path: reassociation (several accumulators, SIMD) and FMA contraction, but
# *not* nnan/ninf -- the loops detect NaN/inf in the data through the activations, so LLVM must not
# assume every value is finite.
FAST_FLAGS = {"reassoc", "contract", "nsz", "arcp"}


@compiled
def _add_row(X, i, w, yi):
    """w += X[i] * yi (element-wise: no sum, so no order to keep)."""
    for j in range(X.shape[1]):
        w[j] += X[i, j] * yi


@compiled
def perceptron_pass_seq(X, y, order, w, b, use_bias, act, mis, t0):
    """Default float path: every dot product summed in index order, from 0.0, then + b -- the
    operations of scikit-learn's ``WeightVector.dot`` + intercept, so the run is bitwise equal to
    scikit-learn's Perceptron.

    Speed without reordering any sum: the dot products of the next two examples are computed
    together against the current w (two independent sequential chains: the processor overlaps
    them).  The second is *exactly* the sequential dot product as long as w has not changed;
    after a mistake on the first it is recomputed with the new w (a speculation that never
    changes a result).  Two chains measured faster than four here: a mistake (about one step in
    eight on separable data) wastes less of a shorter block.

    Returns (b, stop): stop = -1, or the step whose activation was NaN/inf (the loop stops there;
    a NaN/inf anywhere in a visited row makes that row's activation non-finite, which is how the
    caller's deferred finiteness check works).
    """
    d = X.shape[1]
    T = order.shape[0]
    k = 0
    while k + 2 <= T:
        i0 = order[k]
        i1 = order[k + 1]
        s0 = 0.0
        s1 = 0.0
        for j in range(d):
            wj = w[j]
            s0 += wj * X[i0, j]
            s1 += wj * X[i1, j]
        a = s0 + b
        act[t0 + k] = a
        if not np.isfinite(a):
            return b, k
        yi = y[i0]
        k += 1
        if yi * a <= 0.0:
            mis[t0 + k - 1] = True
            _add_row(X, i0, w, yi)
            if use_bias:
                b += yi
            continue           # w changed: the second dot product is stale
        mis[t0 + k - 1] = False
        a = s1 + b
        act[t0 + k] = a
        if not np.isfinite(a):
            return b, k
        yi = y[i1]
        k += 1
        if yi * a <= 0.0:
            mis[t0 + k - 1] = True
            _add_row(X, i1, w, yi)
            if use_bias:
                b += yi
        else:
            mis[t0 + k - 1] = False
    while k < T:
        i = order[k]
        s = 0.0
        for j in range(d):
            s += w[j] * X[i, j]
        a = s + b
        act[t0 + k] = a
        if not np.isfinite(a):
            return b, k
        yi = y[i]
        if yi * a <= 0.0:
            mis[t0 + k] = True
            _add_row(X, i, w, yi)
            if use_bias:
                b += yi
        else:
            mis[t0 + k] = False
        k += 1
    return b, -1


@compiled(fastmath=FAST_FLAGS)
def perceptron_pass_fast(X, y, order, w, b, use_bias, act, mis, t0):
    """Fast float path: the dot product may be reassociated (several accumulators, SIMD) and
    contracted to FMA.  Agrees with the default path up to rounding in the dot products (so a
    near-tie may be decided differently).  Same return value as :func:`perceptron_pass_seq`, but
    the in-loop NaN/inf test is not reliable under fastmath: the caller also scans ``act``."""
    d = X.shape[1]
    T = order.shape[0]
    for k in range(T):
        i = order[k]
        s = 0.0
        for j in range(d):
            s += w[j] * X[i, j]
        a = s + b
        act[t0 + k] = a
        if not np.isfinite(a):
            return b, k
        yi = y[i]
        if yi * a <= 0.0:
            mis[t0 + k] = True
            for j in range(d):
                w[j] += X[i, j] * yi
            if use_bias:
                b += yi
        else:
            mis[t0 + k] = False
    return b, -1


@compiled
def perceptron_pass_int(X, y, order, w, b, bias_step, act, mis, t0):
    """Exact path on integers (the data scaled to one common denominator D): X = D*x,
    w = D*w, b = D^2*b, bias_step = D^2 (0 without bias).  The caller has checked that no value
    can leave int64."""
    d = X.shape[1]
    for k in range(order.shape[0]):
        i = order[k]
        s = 0
        for j in range(d):
            s += w[j] * X[i, j]
        a = s + b
        act[t0 + k] = a
        yi = y[i]
        if yi * a <= 0:
            mis[t0 + k] = True
            for j in range(d):
                w[j] += X[i, j] * yi
            b += yi * bias_step
        else:
            mis[t0 + k] = False
    return b


@compiled
def integer_valued_maxabs(X):
    """max |x| over a float64 matrix whose entries all are integers, or -1.0 when one is not
    (a fraction, NaN or inf).  One read pass, no temporary."""
    m = 0.0
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            v = X[i, j]
            a = abs(v)
            if not (a == np.floor(a)) or a > 1.8e308:      # NaN, inf or not an integer
                return -1.0
            if a > m:
                m = a
    return m


@compiled
def int_maxabs(X):
    """max |x| over an int64 matrix (as a float, so that |INT64_MIN| is not an overflow)."""
    m = 0.0
    for i in range(X.shape[0]):
        for j in range(X.shape[1]):
            a = abs(float(X[i, j]))
            if a > m:
                m = a
    return m
