"""Compiled inner loops (numba, ``cache=True``).  Imported lazily: nothing here is loaded until a
learner actually runs in float mode or in the int64 exact mode.

Each loop visits ``order`` (example indices), writes the activation and the mistake flag of every
step, and updates ``w`` (and returns the bias) in place.  Weights after each step are not stored:
``learners.perceptron`` rebuilds them from the mistake flags when a trace asks for them.
"""
import numpy as np
from numba import njit


@njit(cache=True)
def perceptron_pass_seq(X, y, order, w, b, use_bias, act, mis, t0):
    """Default float path: each dot product summed in index order (bitwise equal to sklearn)."""
    d = X.shape[1]
    for k in range(order.shape[0]):
        i = order[k]
        s = 0.0
        for j in range(d):
            s += w[j] * X[i, j]
        a = s + b
        act[t0 + k] = a
        yi = y[i]
        if yi * a <= 0.0:
            mis[t0 + k] = True
            for j in range(d):
                w[j] += X[i, j] * yi
            if use_bias:
                b += yi
        else:
            mis[t0 + k] = False
    return b


@njit(cache=True, fastmath=True)
def perceptron_pass_fast(X, y, order, w, b, use_bias, act, mis, t0):
    """Fast float path: fastmath lets LLVM reassociate the dot product (several accumulators,
    SIMD).  Agrees with the default path up to rounding in the dot products."""
    d = X.shape[1]
    for k in range(order.shape[0]):
        i = order[k]
        s = 0.0
        for j in range(d):
            s += w[j] * X[i, j]
        a = s + b
        act[t0 + k] = a
        yi = y[i]
        if yi * a <= 0.0:
            mis[t0 + k] = True
            for j in range(d):
                w[j] += X[i, j] * yi
            if use_bias:
                b += yi
        else:
            mis[t0 + k] = False
    return b


@njit(cache=True)
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


@njit(cache=True)
def kernel_pass(G, y, order, alpha, b, use_bias, strict, act, mis, t0):
    """Dual perceptron on a precomputed Gram matrix G[j, i] = K(x_j, x_i)."""
    n = G.shape[0]
    for k in range(order.shape[0]):
        i = order[k]
        s = 0.0
        for j in range(n):
            if alpha[j] != 0.0:
                s += alpha[j] * G[j, i]
        a = s + b
        act[t0 + k] = a
        yi = y[i]
        m = (yi * a < 0.0) if strict else (yi * a <= 0.0)
        mis[t0 + k] = m
        if m:
            alpha[i] += yi
            if use_bias:
                b += yi
    return b
