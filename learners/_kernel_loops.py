"""Compiled parts of the kernel perceptron's float path (see :mod:`learners.kernel_fast`).

The fit never forms the n x n Gram matrix.  It scores a block of upcoming examples against the
current support vectors from one matrix of dot products ``P`` (support vectors x block, a BLAS
product made by the caller), turns each dot product into a kernel value and sums
``alpha_j K(x_j, x)`` over the support vectors (:func:`kernel_scores`), then walks the block in
order (:func:`kernel_walk`), correcting each score for the updates made earlier in the same block.

Kernel values come from a dot product ``g = x_j . x`` and the squared norms:

* linear      ``g``;
* polynomial  ``(c + g)^k`` (repeated squaring: exact whenever the result is representable);
* Gaussian    ``exp(-c max(|x_j|^2 + |x|^2 - 2 g, 0))``, with :func:`fexp`, an exp that the
  compiler can vectorise (no call, no branch) and that is compiled *without* fastmath (its range
  reduction must not be reassociated).  It is within 1 ulp of the true value
  (tests/learners/test_learners_kernel_fast.py checks it against mpmath) and exp(0) = 1 exactly;
* precomputed ``g`` is the kernel value itself.

On integer data whose products float32 holds exactly, the Gaussian scores look the kernel
values up (:func:`gaussian_scores_table`): the squared distance is then an exact integer D and
``table[D]`` is the value above, computed once.

Each score is summed in support-vector order (the order in which examples first became support
vectors), from 0.0: the loops are vectorised across the examples of a block, never across the sum.
"""
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from learners._jit import compiled

LINEAR, POLY, GAUSSIAN, PRECOMPUTED = 0, 1, 2, 3


@intrinsic
def _f2i(typingctx, x):
    """The bits of a float64 as an int64 (no conversion)."""
    sig = types.int64(types.float64)

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(64))
    return sig, codegen


@intrinsic
def _i2f(typingctx, x):
    """The float64 whose bits are the int64 x."""
    sig = types.float64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())
    return sig, codegen


_SHIFT = 6755399441055744.0            # 1.5 * 2**52: x + _SHIFT rounds x to an integer in the low bits
_LOG2E = 1.4426950408889634
_LN2_HI = 6.93147180369123816490e-01  # fdlibm's split of ln 2: k * _LN2_HI is exact for |k| < 2**11
_LN2_LO = 1.90821492927058770002e-10


# Near-minimax (Chebyshev-fitted, mpmath) polynomial for e^r on |r| <= 1.0001 ln2/2, degree 11,
# highest degree first; its own error is below 4e-18 (relative), far under the rounding of the
# evaluation.  p(0) = 1 exactly.
_P = (2.5110049204818658e-08, 2.763265472252779e-07, 2.755724088722987e-06, 2.4801485441561313e-05,
      0.00019841269890076403, 0.0013888888952352863, 0.008333333333319589, 0.04166666666648795,
      0.1666666666666668, 0.5000000000000019, 1.0, 1.0)


@compiled(fastmath={"contract"})
def fexp(x):
    """exp(x) for x <= 0 (x > 0 up to 709 works too), vectorisable: Cody-Waite reduction
    x = k ln2 + r, |r| <= ln2/2, a degree-11 polynomial for e^r (Horner, fused multiply-adds
    allowed -- never reassociated), and the scale 2^k built from its bits in two halves (so that
    results down to the smallest subnormal are right)."""
    x = max(x, -746.0)
    kd = x * _LOG2E + _SHIFT
    ki = _f2i(kd) - _f2i(_SHIFT)
    kd = kd - _SHIFT
    r = (x - kd * _LN2_HI) - kd * _LN2_LO
    p = _P[0]
    p = p * r + _P[1]
    p = p * r + _P[2]
    p = p * r + _P[3]
    p = p * r + _P[4]
    p = p * r + _P[5]
    p = p * r + _P[6]
    p = p * r + _P[7]
    p = p * r + _P[8]
    p = p * r + _P[9]
    p = p * r + _P[10]
    p = p * r + _P[11]
    k1 = ki >> 1
    k2 = ki - k1
    return p * _i2f((k1 + 1023) << 52) * _i2f((k2 + 1023) << 52)


@compiled
def fexp_array(x, out):
    for i in range(x.shape[0]):
        out[i] = fexp(x[i])


@compiled
def _ipow(v, k):
    """v**k for an integer k >= 1 by repeated squaring."""
    r = 1.0
    while True:
        if k & 1:
            r *= v
        k >>= 1
        if k == 0:
            return r
        v *= v


@compiled
def kernel_value(kind, g, sq_a, sq_b, c, deg):
    if kind == GAUSSIAN:
        return fexp(-c * max(sq_a + sq_b - 2.0 * g, 0.0))
    if kind == POLY:
        return _ipow(c + g, deg)
    return g


@compiled(nogil=True)
def kernel_scores(P, sv_alpha, sv_sq, sq_b, kind, c, deg, out):
    """out[p] = sum_j sv_alpha[j] K_j(P[j, p]) (j in support-vector order, from 0.0).  P may be
    float32 (products that float32 holds exactly): each value is widened to float64 as read.
    Releases the GIL: the fit scores disjoint column pieces of a block on two threads."""
    m, B = P.shape
    for p in range(B):
        out[p] = 0.0
    for j in range(m):
        a = sv_alpha[j]
        if a == 0.0:
            continue
        row = P[j]
        if kind == GAUSSIAN:
            sj = sv_sq[j]
            for p in range(B):
                out[p] += a * fexp(-c * max(sj + sq_b[p] - 2.0 * row[p], 0.0))
        elif kind == POLY:
            for p in range(B):
                out[p] += a * _ipow(c + row[p], deg)
        else:
            for p in range(B):
                out[p] += a * row[p]


@compiled(nogil=True)
def gaussian_scores_table(P, sv_alpha, sv_sq, sq_b, table, out):
    """:func:`kernel_scores` for the Gaussian kernel on integer data, where every squared
    distance D = |x_j|^2 + |x|^2 - 2 g is an exact integer in [0, len(table)): the kernel value
    is looked up in ``table[D] = fexp(-c D)`` -- the very value the direct form computes, so the
    same bits, for a load instead of an exp."""
    m, B = P.shape
    for p in range(B):
        out[p] = 0.0
    for j in range(m):
        a = sv_alpha[j]
        if a == 0.0:
            continue
        row = P[j]
        sj = sv_sq[j]
        for p in range(B):
            out[p] += a * table[np.int64(sj + sq_b[p] - 2.0 * row[p])]


@compiled(fastmath={"contract"})
def _dot_rows(A, u, v):
    """A[u] . A[v] with eight running sums (q mod 8), combined in a fixed order: vectorisable
    without reassociation, the same bits for the same pair every time."""
    d = A.shape[1]
    s0 = s1 = s2 = s3 = s4 = s5 = s6 = s7 = 0.0
    q = 0
    while q + 8 <= d:
        s0 += A[u, q] * A[v, q]
        s1 += A[u, q + 1] * A[v, q + 1]
        s2 += A[u, q + 2] * A[v, q + 2]
        s3 += A[u, q + 3] * A[v, q + 3]
        s4 += A[u, q + 4] * A[v, q + 4]
        s5 += A[u, q + 5] * A[v, q + 5]
        s6 += A[u, q + 6] * A[v, q + 6]
        s7 += A[u, q + 7] * A[v, q + 7]
        q += 8
    while q < d:
        s0 += A[u, q] * A[v, q]
        q += 1
    return ((s0 + s4) + (s1 + s5)) + ((s2 + s6) + (s3 + s7))


@compiled
def _add_correction(base, lo, hi, off, delta, dots, sq_sv, sq_b, kind, c, deg):
    """base[p] += delta K(dots[p - off]) for the block steps lo <= p < hi (vectorised across p)."""
    if kind == GAUSSIAN:
        for p in range(lo, hi):
            base[p] += delta * fexp(-c * max(sq_sv + sq_b[p] - 2.0 * dots[p - off], 0.0))
    elif kind == POLY:
        for p in range(lo, hi):
            base[p] += delta * _ipow(c + dots[p - off], deg)
    else:
        for p in range(lo, hi):
            base[p] += delta * dots[p - off]


@compiled
def kernel_walk(P0, P1, h, Q, have_q, Xb, idx, base, y, sq_b, kind, c, deg, alpha, sv_pos, sv_idx, sv_alpha, sv_sq,
                nsv, b, use_bias, strict, act, sval, mis, t0, tmp):
    """Walk one block of steps in order.  ``base[p]`` holds the score of block step p against the
    ``nold = P.shape[0]`` support vectors that existed when the block started (their alphas at that
    time); an update made at block step u adds delta * K(x_sv, x_p) to ``base[p]`` for every later
    step p, with the dot products from P (an older support vector; P in two column pieces, P0 for
    the block steps p < h and P1 for the others), from Q (block x block dot
    products, when ``have_q``) or from the block's rows ``Xb``.  Support vectors
    created here are appended (``sv_*`` arrays, capacity >= nsv + block).  Returns
    (nsv, b, stop): stop = -1, or the block step whose activation is not finite (the walk stops
    there)."""
    nold = P0.shape[0]
    B = idx.shape[0]
    for u in range(B):
        i = idx[u]
        s = base[u]
        a = s + b
        act[t0 + u] = a
        sval[t0 + u] = s
        if not np.isfinite(a):
            return nsv, b, u
        yi = y[i]
        m = (yi * a < 0.0) if strict else (yi * a <= 0.0)
        mis[t0 + u] = m
        if not m:
            continue
        pos = sv_pos[i]
        if pos < 0:
            pos = nsv
            sv_pos[i] = pos
            sv_idx[pos] = i
            sv_sq[pos] = sq_b[u]
            sv_alpha[pos] = yi
            nsv += 1
        else:
            sv_alpha[pos] += yi
        alpha[i] += yi
        if use_bias:
            b += yi
        if u + 1 < B:
            if pos < nold:
                _add_correction(base, u + 1, h, 0, yi, P0[pos], sv_sq[pos], sq_b, kind, c, deg)
                _add_correction(base, max(u + 1, h), B, h, yi, P1[pos], sv_sq[pos], sq_b, kind, c, deg)
            elif have_q:
                _add_correction(base, u + 1, B, 0, yi, Q[u], sv_sq[pos], sq_b, kind, c, deg)
            else:
                for p in range(u + 1, B):
                    tmp[p] = _dot_rows(Xb, u, p)
                _add_correction(base, u + 1, B, 0, yi, tmp, sv_sq[pos], sq_b, kind, c, deg)
    return nsv, b, -1
