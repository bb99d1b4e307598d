"""The kernel perceptron's float path, without the n x n Gram matrix.

Fit (:func:`fit_blocked`): the steps are taken in blocks of ``block`` upcoming examples.  For a
block, one matrix product gives the dot products of the current support vectors with the block's
examples (support vectors x block; the precomputed Gram matrix is sliced instead, a sparse matrix
multiplied sparse), :func:`learners._kernel_loops.kernel_scores` turns them into the scores
``sum_j alpha_j K(x_j, x)``, and :func:`learners._kernel_loops.kernel_walk` walks the block in
order: a step's score is corrected by ``delta K(x_j, x)`` for every update made earlier in the
same block, so the run makes the decisions of the one-example-at-a-time perceptron.  Memory:
the support vectors (support vectors x d), the block's products (support vectors x block) and
O(n) numbers -- never n x n.

Prediction (:func:`decision_blocked`): the same product and reduction over blocks of points.

Sums run in support-vector order (the order in which examples first became support vectors),
from 0.0, then ``+ b``; an update made inside a block is added after the older support vectors.
On data where every value is exactly representable (integers, polynomial and linear kernels) the
run is therefore exactly the rational one; otherwise it agrees with it to rounding.

Two cores: a block's columns are scored in two fixed pieces (its first and second half), the
second on a worker thread -- or on the calling thread when the worker has not picked it up by the
time the first is done.  On a machine with no core to spare (load average at or above the core
count minus one half) one thread is used: there the hand-over costs more than it gains.  The
pieces are the same whatever the thread count and each score is summed within one piece, so one
thread and two give the same bits.  BLAS runs single-threaded inside each piece (:mod:`learners._blas`): the products
are small and many, and OpenBLAS's own two-thread product is not bitwise its one-thread product.
On integer data with d max|x|^2 <= 2**24 the products run in float32, which holds every one of
them exactly: the same values as float64 at twice the SIMD width; with the Gaussian kernel every
squared distance is then an exact integer D, and the kernel values come from a table of
fexp(-c D) (the direct form's values, looked up instead of computed) when 4 max|x|^2 < 2**15.
"""
from __future__ import annotations

import os
import threading

import numpy as np

from learners import _kernel_loops as KL
from learners._blas import one_thread
from learners.errors import InputError
from learners._loops_sparse import row_norms
from learners.sparse import is_sparse

__all__ = ["BLOCK", "kernel_code", "fit_blocked", "decision_blocked", "self_kernel", "default_threads"]

BLOCK = 128
_MIN_PIECE = 16          # a dense block of at least 2 * _MIN_PIECE steps is scored in two pieces
_EMPTY = np.zeros((1, 1))


def kernel_code(K):
    """(kind, c, degree) of a built-in kernel for the compiled loops."""
    if K.name == "linear":
        return KL.LINEAR, 0.0, 1
    if K.name == "poly":
        return KL.POLY, float(K.params["c"]), int(K.params["k"])
    if K.name == "gaussian":
        return KL.GAUSSIAN, float(K.params["c"]), 1
    if K.name == "precomputed":
        return KL.PRECOMPUTED, 0.0, 1
    raise ValueError(f"no compiled form for the {K.name} kernel")


class _Rows:
    """The support vectors' rows in support-vector order: a growing dense buffer, a CSR matrix
    rebuilt from the indices, or (precomputed kernel) nothing but the indices."""

    def __init__(self, X, kind):
        self.X = X
        self.sparse = is_sparse(X)
        self.pre = kind == KL.PRECOMPUTED
        self.n = 0
        self.buf = None if (self.sparse or self.pre) else np.empty((16, X.shape[1]))
        self.csr = None
        self.X32 = None if (self.sparse or self.pre) else _exact_float32(X)
        if self.X32 is not None:
            self.buf = np.empty((16, X.shape[1]), dtype=np.float32)

    def extend(self, new_idx):
        if len(new_idx) == 0 or self.pre:
            self.n += len(new_idx)
            return
        m = self.n + len(new_idx)
        if self.sparse:
            import scipy.sparse as sp
            rows = self.X[new_idx]
            self.csr = rows if self.csr is None else sp.vstack([self.csr, rows], format="csr")
        else:
            if m > self.buf.shape[0]:
                grown = np.empty((max(m, 2 * self.buf.shape[0]), self.buf.shape[1]), dtype=self.buf.dtype)
                grown[:self.n] = self.buf[:self.n]
                self.buf = grown
            self.buf[self.n:m] = self.X[new_idx] if self.X32 is None else self.X32[new_idx]
        self.n = m

    def dots(self, sv_idx, idx, Xb):
        """P (support vectors x block): dot products with the block's rows Xb, or (precomputed
        kernel) the Gram entries G[sv, idx]."""
        if self.n == 0:
            return np.zeros((0, len(idx)), dtype=np.float64 if self.X32 is None else np.float32)
        if self.pre:
            return np.ascontiguousarray(self.X[np.ix_(sv_idx[:self.n], idx)])
        if self.sparse:
            return _dense(self.csr @ Xb.T)
        if self.X32 is not None:     # every product exact in float32: the float64 product's values
            return self.buf[:self.n] @ self.X32[idx].T       # (widened to float64 where read)
        return self.buf[:self.n] @ Xb.T


# Integer data whose dot products stay below 2**24 in magnitude (d max|x|^2 <= 2**24): every
# product and partial sum is an integer that float32 represents exactly, so a float32 matrix
# product gives exactly the float64 product's values (in any summation order) at twice the
# SIMD width.  Checked once per fit (one compiled read of X) for fits large enough to gain.
_F32_MIN_WORK = 1 << 18


def _exact_float32(X):
    n, d = X.shape
    if n * d < _F32_MIN_WORK or X.dtype != np.float64:
        return None
    from learners._loops import integer_valued_maxabs
    m = integer_valued_maxabs(X)
    if m < 0 or d * m * m > float(1 << 24):
        return None
    return X.astype(np.float32)


# Gaussian kernel on integer data (the exact float32 products): every squared distance
# |x_j|^2 + |x|^2 - 2 x_j.x is an exact integer between 0 and 4 max|x|^2, so the kernel values
# are looked up in a table of fexp(-c D), D = 0, 1, ..., computed as the direct form computes
# them (the same bits), when the table is small enough to stay in cache.
TABLE_MAX = 1 << 15


def _gaussian_table(rows, sq, kind, c):
    if kind != KL.GAUSSIAN or rows.X32 is None or len(sq) == 0:
        return None
    top = 4.0 * float(np.max(sq))        # |x - z|^2 <= 2 |x|^2 + 2 |z|^2
    if not top + 1 <= TABLE_MAX:
        return None
    table = np.empty(int(top) + 1)
    KL.fexp_array(-c * np.maximum(np.arange(int(top) + 1, dtype=np.float64), 0.0), table)
    return table


def _dense(M):
    return np.ascontiguousarray(M.toarray() if is_sparse(M) else M, dtype=np.float64)


def _sq(X, kind):
    return row_norms(X) if kind == KL.GAUSSIAN else np.zeros(X.shape[0])


def threads_available():
    """How many cores this process may run on (at most 2 are used)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def default_threads():
    """2 where the process may use two cores and the machine has a core to spare (1-minute load
    average below the core count minus one half), else 1.  The count never changes a result."""
    n = min(2, threads_available())
    if n > 1:
        try:
            if os.getloadavg()[0] > (os.cpu_count() or 1) - 0.5:
                return 1
        except OSError:
            pass
    return n


def _pool(threads):
    """A one-worker pool for the second column piece, or None for one thread."""
    n = default_threads() if threads is None else int(threads)
    if n < 2:
        return None
    from concurrent.futures import ThreadPoolExecutor
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="kernel-fit")


def _two_pieces(pool, piece, h, B):
    """piece(0, h) here and piece(h, B) on the worker -- or here too, when the worker has not
    started it by the time the first is done (a loaded machine: no waiting for a core)."""
    claim = threading.Lock()

    def second():
        return piece(h, B) if claim.acquire(blocking=False) else None

    other = pool.submit(second)
    P0 = piece(0, h)
    if claim.acquire(blocking=False):
        other.cancel()
        return P0, piece(h, B)
    return P0, other.result()


def fit_blocked(X, y, order, K, *, bias, strict, start=None, block=None, init=None, threads=None):
    """Run the float kernel perceptron.  X: dense float64 (n x d), CSR, or for the precomputed
    kernel the (n x n) matrix G[j, i] = K(x_j, x_i); y: int64 +1/-1; start: index of an example
    whose alpha starts at 1 (Blum's variant) or None.  Returns a dict with alpha (n), b, act and
    sval (activation and kernel sum per step), mis (mistake flags), sv (support vectors, in
    support-vector order) and sq (squared norms, Gaussian kernel).  ``init`` = (indices, alphas,
    b): a run that continues from those support vectors (in that order) and that bias, as
    ``partial_fit`` does; ``order`` then visits the other examples.  ``threads``: 1 or 2 (default:
    :func:`default_threads`); the same bits either way."""
    kind, c, deg = kernel_code(K)
    block = int(block or BLOCK)
    n = X.shape[0]
    T = len(order)
    yv = y.astype(np.float64)
    sq = _sq(X, kind)
    alpha = np.zeros(n)
    sv_pos = np.full(n, -1, dtype=np.int64)
    sv_idx = np.zeros(n, dtype=np.int64)
    sv_alpha = np.zeros(n)
    sv_sq = np.zeros(n)
    rows = _Rows(X, kind)
    nsv = 0
    if start is not None:
        alpha[start] = 1.0
        sv_pos[start], sv_idx[0], sv_alpha[0], sv_sq[0] = 0, start, 1.0, sq[start]
        nsv = 1
        rows.extend(sv_idx[:1])
    b = 0.0
    if init is not None:
        ii, aa, b = np.asarray(init[0], dtype=np.int64), np.asarray(init[1], dtype=np.float64), float(init[2])
        nsv = len(ii)
        alpha[ii] = aa
        sv_pos[ii] = np.arange(nsv)
        sv_idx[:nsv], sv_alpha[:nsv], sv_sq[:nsv] = ii, aa, sq[ii]
        rows.extend(sv_idx[:nsv])
    act = np.empty(T)
    sval = np.empty(T)
    mis = np.zeros(T, dtype=np.bool_)
    tmp = np.empty(block)
    dense_rows = not (rows.sparse or rows.pre)
    split = dense_rows and block >= 2 * _MIN_PIECE
    table = _gaussian_table(rows, sq, kind, c)
    pool = _pool(threads) if split else None
    try:
        with one_thread():
            for t0 in range(0, T, block):
                idx = np.ascontiguousarray(order[t0:t0 + block])
                B = len(idx)
                sq_b = sq[idx]
                base = np.empty(B)
                # the block's columns in two fixed pieces (whatever the thread count): each
                # score is the same sum over the support vectors in either piece
                h = B // 2 if (split and B >= 2 * _MIN_PIECE) else B
                Xb = None if rows.pre else X[idx]
                nold = rows.n

                def piece(lo, hi):
                    Pk = rows.dots(sv_idx, idx[lo:hi], None if Xb is None else Xb[lo:hi])
                    if table is not None:
                        KL.gaussian_scores_table(Pk, sv_alpha[:nold], sv_sq[:nold], sq_b[lo:hi], table, base[lo:hi])
                    else:
                        KL.kernel_scores(Pk, sv_alpha[:nold], sv_sq[:nold], sq_b[lo:hi], kind, c, deg,
                                         base[lo:hi])
                    return Pk

                if h < B and pool is not None:
                    P0, P1 = _two_pieces(pool, piece, h, B)
                else:
                    P0 = piece(0, h)
                    P1 = piece(h, B) if h < B else P0[:, :0]
                if dense_rows:
                    Q = _EMPTY
                elif rows.pre:
                    Q, Xb = np.ascontiguousarray(X[np.ix_(idx, idx)]), _EMPTY
                else:
                    Q, Xb = _dense(Xb @ Xb.T), _EMPTY
                nsv, b, stop = KL.kernel_walk(P0, P1, h, Q, not dense_rows, Xb, idx, base, yv, sq_b, kind, c, deg,
                                              alpha, sv_pos, sv_idx, sv_alpha, sv_sq, nsv, b, bool(bias),
                                              bool(strict), act, sval, mis, t0, tmp)
                if stop >= 0:
                    t = t0 + stop
                    raise InputError(f"floating-point overflow at step {t} (example {int(order[t])}): the "
                                     f"activation is {act[t]}; rescale the data or lower the kernel degree")
                rows.extend(sv_idx[rows.n:nsv])
    finally:
        if pool is not None:
            pool.shutdown(wait=True)
    return {"alpha": alpha, "b": b, "act": act, "sval": sval, "mis": mis, "sv": sv_idx[:nsv].copy(), "sq": sq}


def self_kernel(X, i, K, sq):
    """K(x_i, x_i) as the compiled loops compute it."""
    kind, c, deg = kernel_code(K)
    if kind == KL.PRECOMPUTED:
        return float(X[i, i])
    return KL.kernel_value(kind, float(sq[i]), float(sq[i]), float(sq[i]), c, deg)


def decision_blocked(S, sv_alpha, sv_sq, Xt, K, b=0.0):
    """f(x) = sum_j alpha_j K(s_j, x) + b for every row x of Xt.  S: the support vectors (dense
    rows or CSR; for the precomputed kernel, the indices of the support vectors among the
    training examples, and Xt is the (m x n_train) matrix of K(x, x_train))."""
    kind, c, deg = kernel_code(K)
    m = Xt.shape[0]
    nsv = len(sv_alpha)
    out = np.empty(m)
    if nsv == 0:
        out[:] = b
        return out
    sq_t = _sq(Xt, kind) if kind != KL.PRECOMPUTED else np.zeros(m)
    step = int(max(64, min(4096, (1 << 20) // nsv)))       # products of at most ~8 MiB
    sv_alpha = np.ascontiguousarray(sv_alpha, dtype=np.float64)
    sv_sq = np.ascontiguousarray(sv_sq, dtype=np.float64)
    with one_thread():
        for s0 in range(0, m, step):
            blk = slice(s0, min(m, s0 + step))
            if kind == KL.PRECOMPUTED:
                P = np.ascontiguousarray(Xt[blk][:, S].T)
            else:
                P = _dense(S @ Xt[blk].T)
            KL.kernel_scores(P, sv_alpha, sv_sq, sq_t[blk], kind, c, deg, out[blk])
    out += b
    return out
