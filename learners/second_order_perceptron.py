"""The second-order perceptron (Cesa-Bianchi, Conconi & Gentile 2005, "A second-order perceptron
algorithm", SIAM Journal on Computing 34(3), section 3): a perceptron whose margin is read through
the inverse of the correlation matrix of the examples it erred on, plus the current one.

Parameter a > 0.  After k mistakes the state is v_k = sum of y_s x_s over the mistake steps s
(v_0 = 0) and the matrix B_k, the inverse of A_k = a I + sum over the mistake steps of x_s x_s^T,
kept by Sherman--Morrison (no matrix inverse, no determinant):

    B_0 = I / a,    SM(B, x) = B - (B x)(x^T B) / (1 + x . B x).

At step t with x_t: B' = SM(B_k, x_t) (A_k with x_t's own outer product added), margin
m_t = v_k . B' x_t, prediction +1 if m_t > 0 else -1.  A mistake is y_t m_t <= 0 (a tie is a
mistake, as for the perceptron).  On a mistake v_{k+1} = v_k + y_t x_t and B_{k+1} = B';
otherwise nothing changes.  O(d^2) per step.

For every u and gamma > 0, with q_k = x_k . B_{k-1} x_k at the k-th mistake and
D = sum over the mistakes of max(0, gamma - y_k u . x_k) (the paper's Theorem 1 in the form
without determinants):

    M gamma - D <= sqrt((a |u|^2 + sum_k (u . x_k)^2) * sum_k ln(1 + q_k)).

Exact mode keeps a (rational), v and B as ``Fraction``s; float mode runs in float64 (numpy).
``Step.activation`` is the margin m_t, ``Step.weights`` v after the step.  The extras:
``"B"`` (the final B as a tuple of rows), ``"q"`` (q_k of every mistake, in order), ``"a"``, and
``"margins"`` (m_t of every step).  :func:`bound_terms` evaluates the bound's pieces on a run.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from learners.core import check_record, visiting_order
from learners.errors import InputError
from learners.numbers import fraction_str, to_fraction
from learners.trace import Step, Trace
from learners.validation import check_epochs, check_labels, check_matrix, check_vector

__all__ = ["run_second_order_perceptron", "sherman_morrison", "bound_terms"]


def _dot(a, b, zero):
    s = zero
    for p, q in zip(a, b):
        s += p * q
    return s


def _matvec(B, x, zero):
    return [_dot(row, x, zero) for row in B]


def sherman_morrison(B, x):
    """SM(B, x) = B - (B x)(x^T B) / (1 + x . B x) over Fractions (B a list of rows), with q = x . B x.
    Returns (SM(B, x), B x, q)."""
    zero = Fraction(0)
    Bx = _matvec(B, x, zero)
    xB = [_dot(x, col, zero) for col in zip(*B)]       # the row x^T B (B is not assumed symmetric)
    q = _dot(x, Bx, zero)
    den = 1 + q
    return [[B[i][j] - Bx[i] * xB[j] / den for j in range(len(x))] for i in range(len(x))], Bx, q


def _check_a(a, exact):
    f = to_fraction(a, what="a")
    if f <= 0:
        raise InputError(f"a must be > 0, got {fraction_str(f)}")
    return f if exact else float(f)


def run_second_order_perceptron(X, y, *, a=1, epochs: int = 1, shuffle: bool = False, seed=None,
                                exact: bool = True, record: str = "all") -> Trace:
    """The second-order perceptron with parameter ``a`` over (X, y) in the given order (or
    reshuffled every epoch with an explicit ``seed``), ``epochs`` times."""
    record = check_record(record)
    epochs = check_epochs(epochs)
    av = _check_a(a, exact)
    rows = check_matrix(X, exact=exact)
    n = len(rows)
    d = len(rows[0])
    yl = check_labels(y, n, kind="pm1")
    order = visiting_order(n, epochs, shuffle, seed).tolist()
    if exact:
        return _run_exact(rows, yl, order, n, d, av, epochs, record, shuffle, seed)
    return _run_float(rows, yl, order, n, d, av, epochs, record, shuffle, seed)


def _run_exact(rows, yl, order, n, d, a, epochs, record, shuffle, seed):
    zero = Fraction(0)
    v = [zero] * d
    B = [[(1 / a if i == j else zero) for j in range(d)] for i in range(d)]
    steps, flags, qs, margins = [], [], [], []
    for t, i in enumerate(order):
        x, yi = rows[i], yl[i]
        Bn, _, q = sherman_morrison(B, x)
        m = _dot(v, _matvec(Bn, x, zero), zero)
        mistake = yi * m <= 0
        if mistake:
            v = [p + yi * r for p, r in zip(v, x)]
            B = Bn
            qs.append(q)
        flags.append(mistake)
        margins.append(m)
        if record == "all" or (mistake and record == "mistakes"):
            steps.append(Step(t=t, epoch=t // n, index=i, label=yi, activation=m, prediction=1 if m > 0 else -1,
                              mistake=mistake, weights=tuple(v)))
    return _trace(True, n, d, epochs, record, steps, flags, tuple(v), (zero,) * d, order,
                  tuple(tuple(r) for r in B), qs, margins, a, shuffle, seed)


def _run_float(A, yl, order, n, d, a, epochs, record, shuffle, seed):
    v = np.zeros(d)
    B = np.eye(d) / a
    steps, flags, qs, margins = [], [], [], []
    for t, i in enumerate(order):
        x, yi = A[i], yl[i]
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            Bx = B @ x
            xB = x @ B
            q = float(x @ Bx)
            Bn = B - np.outer(Bx, xB) / (1.0 + q)
            m = float(v @ (Bn @ x))
        if not (np.isfinite(m) and np.isfinite(q) and np.isfinite(Bn).all()):
            raise InputError(f"floating-point overflow at step {t} (example {i}): the margin is {m}; "
                             "rescale the data or use exact=True")
        mistake = yi * m <= 0
        if mistake:
            v = v + yi * x
            B = Bn
            qs.append(q)
        flags.append(mistake)
        margins.append(m)
        if record == "all" or (mistake and record == "mistakes"):
            steps.append(Step(t=t, epoch=t // n, index=i, label=yi, activation=m, prediction=1 if m > 0 else -1,
                              mistake=mistake, weights=tuple(v.tolist())))
    return _trace(False, n, d, epochs, record, steps, flags, tuple(v.tolist()), (0.0,) * d, order,
                  tuple(tuple(r) for r in B.tolist()), qs, margins, a, shuffle, seed)


def _trace(exact, n, d, epochs, record, steps, flags, v, v0, order, B, qs, margins, a, shuffle, seed):
    return Trace(algorithm="second_order_perceptron", exact=exact, n_examples=n, n_features=d, epochs=epochs,
                 record=record, steps=steps, mistakes=sum(flags), n_steps=len(order), weights=v, bias=None,
                 initial_weights=v0, initial_bias=None, order=order, mistake_flags=flags,
                 params={"a": fraction_str(a) if exact else a, "shuffle": bool(shuffle), "seed": seed},
                 extras={"B": B, "q": qs, "a": a, "margins": margins})


def bound_terms(trace: Trace, X, y, u, gamma) -> dict:
    """The pieces of the bound on an exact run, every one a ``Fraction`` (logarithms excepted, which
    this module does not evaluate): ``M``, ``D`` (the hinge total), ``u_v`` = u . v_M,
    ``u_A_u`` = a |u|^2 + sum_k (u . x_k)^2, ``v_B_v`` = v_M . B_M v_M, ``sum_q_ratio`` =
    sum_k q_k / (1 + q_k), and ``prod_1_plus_q`` = prod_k (1 + q_k) (so sum_k ln(1 + q_k) is
    ln of it).  The proved chain: M gamma - D <= u_v, u_v^2 <= u_A_u * v_B_v,
    v_B_v <= sum_q_ratio <= ln(prod_1_plus_q)."""
    if not trace.exact or trace.algorithm != "second_order_perceptron":
        raise InputError("bound_terms needs an exact run of the second-order perceptron")
    rows = check_matrix(X, exact=True)
    yl = check_labels(y, len(rows), kind="pm1")
    d = len(rows[0])
    uu = check_vector(u, d, exact=True, what="u")
    g = to_fraction(gamma, what="gamma")
    if g <= 0:
        raise InputError(f"gamma must be > 0, got {fraction_str(g)}")
    zero = Fraction(0)
    a = trace.extras["a"]
    idx = trace.mistake_indices()
    D = sum((max(zero, g - yl[i] * _dot(uu, rows[i], zero)) for i in idx), zero)
    v = list(trace.weights)
    B = [list(r) for r in trace.extras["B"]]
    prod = Fraction(1)
    for q in trace.extras["q"]:
        prod *= 1 + q
    return {"M": len(idx), "gamma": g, "D": D, "u_v": _dot(uu, v, zero),
            "u_A_u": a * _dot(uu, uu, zero) + sum((_dot(uu, rows[i], zero) ** 2 for i in idx), zero),
            "v_B_v": _dot(v, _matvec(B, v, zero), zero),
            "sum_q_ratio": sum((q / (1 + q) for q in trace.extras["q"]), zero),
            "prod_1_plus_q": prod}
