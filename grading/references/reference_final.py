"""The reference's final answer on a long run, without its step-by-step trace.

The linear-time test compares only the final weights of each timed pass (thousands of examples,
up to ten passes per call, or passes until one makes no mistake); the full reference
(:func:`grading.references.reference.reference_run`) also builds every step's weights as exact fractions,
for feedback nobody reads there.  Where the perceptron's float64 run is certified exact
(:func:`grading.references.reference._floats_exact`: dyadic data, from w = 0, a constant step), its final
weights read as fractions ARE the exact reference's, and :func:`final_answer` returns them (the
learners' compiled run for ties as mistakes, a plain float loop for the other conventions); elsewhere it returns None and the caller runs
the full reference.  ``tests/grading/test_grading_warmup.py`` compares the two on every shipped
assignment's timed data.
"""
from __future__ import annotations

from fractions import Fraction

from learners.perceptron import run_perceptron

from grading.references.reference import MAX_PASSES, Answer, _floats_exact, is_mistake

__all__ = ["final_answer"]


def final_answer(c, X, y, T: int = 1) -> Answer | None:
    """The answer of ``reference_run(c, X, y, T)`` (its weights, bias and mistakes; no trace), or
    None where no certified shortcut applies."""
    if c.algorithm != "perceptron" or c.answer != "weights" or c.arithmetic == "float" or c.start_ties or c.step != "constant" or c.normalize or \
            c.average != "none" or not X or (c.unbounded and (c.per_pass_order or c.ties != "mistake")):
        return None
    d = len(X[0])
    w0, b0 = c.initial_weights(d)
    if any(w0) or (c.bias and b0):
        return None
    n = len(X)
    if c.passes:
        T = c.passes * T
    if c.ties != "mistake":     # another tie convention: the same exact float arithmetic, in a plain loop
        if not _floats_exact(X, T):
            return None
        orders = c.order_indices(n, T) if c.per_pass_order else [c.order_indices(n, 1)] * T
        return _loop(c, X, y, orders, d)
    if c.per_pass_order:        # each pass its own order (the seeded global generator): one pass at a time
        if not _floats_exact(X, T):      # (the certificate depends on the rows, not on their order)
            return None
        w, b, flags = [0.0] * d, 0.0, []
        for order in c.order_indices(n, T):
            tr = run_perceptron([X[i] for i in order], [y[i] for i in order], epochs=1, bias=c.bias, exact=False,
                                record="none", w0=w, b0=b)
            w, b, flags = list(tr.weights), (tr.bias if c.bias else 0.0), flags + list(tr.mistake_flags)
            if c.stop == "converged" and not any(flags[-n:]):
                break
        return _answer(c, tr, flags)
    order = c.order_indices(n, 1)
    Xo, yo = [X[i] for i in order], [y[i] for i in order]
    # one visiting order for every pass: once a pass makes no mistake, so does every later one (same
    # weights, same order), so a run's final weights are those after its first clean pass -- what
    # stop = "converged" keeps; "until no mistake" doubles the passes as the reference does
    T = 1 if c.unbounded else T
    while True:
        if not _floats_exact(Xo, T):
            return None
        tr = run_perceptron(Xo, yo, epochs=T, bias=c.bias, exact=False, record="none", w0=[0.0] * d, b0=0.0)
        flags = list(tr.mistake_flags)
        clean = not any(flags[-n:])
        if not c.unbounded or clean:
            break
        if T >= MAX_PASSES:
            return None          # the full reference says why (not separable)
        T = min(2 * T, MAX_PASSES)
    return _answer(c, tr, flags)


def _loop(c, X, y, orders, d) -> Answer:
    """The perceptron from w = 0 with learning rate 1 in float64 (exact: the caller has the
    certificate), ties as the contract says (:func:`grading.references.reference.is_mistake`)."""
    n = len(X)
    w, b, flags = [0.0] * d, 0.0, []
    for order in orders:
        for i in order:
            x, yi = X[i], y[i]
            a = sum(wj * float(xj) for wj, xj in zip(w, x)) + (b if c.bias else 0.0)
            m = is_mistake(c.ties, yi, a)
            if m:
                w = [wj + yi * float(xj) for wj, xj in zip(w, x)]
                b += yi
            flags.append(bool(m))
        if c.stop == "converged" and not any(flags[-n:]):
            break
    eta = c.learning_rate
    return Answer(w=[Fraction(v) * eta for v in w], b=Fraction(b) * eta if c.bias else None, mistakes=sum(flags))


def _answer(c, tr, flags) -> Answer:
    eta = c.learning_rate
    w = [Fraction(v) * eta for v in tr.weights]
    b = Fraction(tr.bias) * eta if c.bias else None
    return Answer(w=w, b=b, mistakes=sum(flags))
