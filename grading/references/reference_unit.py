"""The reference runs of the online-learning unit's assignment shapes (Weighted Majority,
Passive-Aggressive, Hedge) under a course's contract: the visiting order, the number of passes and, for
Weighted Majority, the tie convention (a tie W(+1) = W(-1) predicts +1 or -1).  Exact arithmetic
(``Fraction``), from :mod:`learners.weighted_majority` and :mod:`learners.passive_aggressive`;
beta = ``[contract] penalty`` (1/2 by default, ``WM_BETA``) and PA-I with C = 1 (``PA_VARIANT``,
``PA_C``).  Under ``[contract] arithmetic = "float"`` each replays the course's float64 loop in its
order of operations instead (:func:`_wm_float`, :func:`_pa_float`), so the ties rounding decides
go the course code's way.

Hedge (Freund & Schapire 1997) runs on the loss table X (T x n, losses in [0, 1]): the learner's
loss at step t is sum_i w_i l_i / sum_i w_i, then every w_i <- w_i beta^(l_i); the answer is (the
final weights, the learner's total loss).  Exact where every beta^loss is rational (losses k/m
and beta = b^m: :func:`learners.hedge.rational_power`, as the Coq differential over the rationals
does), float64 in the course's order otherwise (:func:`_hedge_float`)."""
from __future__ import annotations

from fractions import Fraction

from learners import run_hedge, run_passive_aggressive, run_weighted_majority
from learners.hedge import rational_power

__all__ = ["UNIT_ALGORITHMS", "HEDGE_BUGS", "hedge_exact", "unit_reference_run", "unit_reference_seconds", "WM_BETA",
           "PA_VARIANT", "PA_C"]

UNIT_ALGORITHMS = ("weighted_majority", "passive_aggressive", "hedge")
WM_BETA = Fraction(1, 2)
PA_VARIANT, PA_C = "pa1", Fraction(1)


def _wm_on_mistakes(Xs, ys, seq, flip, n, T, Run, RStep, beta=WM_BETA):
    """The common mistake: the wrong experts penalized only when the learner errs."""
    w = [Fraction(1)] * len(Xs[0])
    steps, mistakes = [], 0
    for t, (adv, lab) in enumerate(zip(Xs, ys)):
        act = sum(wi if a == 1 else -wi for wi, a in zip(w, adv))
        pred = 1 if act > 0 or (act == 0 and flip == 1) else -1
        m = pred != lab
        mistakes += m
        if m:
            w = [wi * beta if a != lab else wi for wi, a in zip(w, adv)]
        steps.append(RStep(t=t, epoch=t // n, index=seq[t], label=lab, activation=act, mistake=m, weights=tuple(w)))
    return Run(steps=steps, initial_weights=(Fraction(1),) * len(Xs[0]), initial_bias=None, weights=tuple(w),
               bias=None, mistakes=mistakes, passes=T, extras={})


def _beta(c):
    """Weighted Majority's penalty: ``[contract] penalty`` (1/2 unless the course says otherwise)."""
    return getattr(c, "penalty", WM_BETA)


def unit_reference_run(c, X, y, T, order, Run, RStep, bugs=frozenset()):
    """The run over T passes in ``order`` as the grader's ``Run`` of ``RStep``s."""
    if c.algorithm == "hedge":
        return _hedge_run(c, X, Run, RStep, bugs)
    seq = [i for _ in range(T) for i in order]
    Xs, ys = [list(X[i]) for i in seq], [y[i] for i in seq]
    if getattr(c, "arithmetic", "exact") == "float":
        loop = _wm_float if c.algorithm == "weighted_majority" else _pa_float
        steps, w0, w = loop(c, Xs, ys, seq, len(order), RStep, bugs)
        return Run(steps=steps, initial_weights=w0, initial_bias=None, weights=w, bias=None,
                   mistakes=sum(s.mistake for s in steps), passes=T, extras={})
    if c.algorithm == "weighted_majority":
        # a tie predicting -1 is the same run on the negated advice and labels, weights unchanged
        flip = -1 if c.ties == "predict-1" else 1
        if "update_only_on_mistakes" in bugs:
            return _wm_on_mistakes(Xs, ys, seq, flip, len(order), T, Run, RStep, _beta(c))
        tr = run_weighted_majority([[flip * int(v) for v in r] for r in Xs], [flip * v for v in ys], beta=_beta(c))
        acts = [flip * s.activation for s in tr.steps]
    else:
        variant = "pa" if "step_not_capped" in bugs and all(any(v) for v in Xs) else PA_VARIANT
        tr = run_passive_aggressive([[Fraction(v) for v in r] for r in Xs], ys, variant=variant, C=PA_C)
        acts = [s.activation for s in tr.steps]
    n = len(order)
    steps = [RStep(t=s.t, epoch=s.t // n, index=seq[s.t], label=y[seq[s.t]], activation=a, mistake=s.mistake,
                   weights=s.weights) for s, a in zip(tr.steps, acts)]
    return Run(steps=steps, initial_weights=tr.initial_weights, initial_bias=None, weights=tr.weights, bias=None,
               mistakes=tr.mistakes, passes=T, extras={})


def _wm_float(c, Xs, ys, seq, n, RStep, bugs):
    """Weighted Majority in the course's float64 arithmetic, in its order: W(+1) and W(-1) each
    summed left to right over the experts advising that label, the prediction W(+1) >= W(-1)
    (``ties = "predict-1"``: >), every wrong expert's weight times float(beta).  The activation
    recorded is W(+1) - W(-1).  Its decisions at the ties rounding decides (0.3 + 0.09 against
    0.39) are the course code's own."""
    beta = float(_beta(c))
    w = [1.0] * len(Xs[0])
    w0 = tuple(w)
    steps = []
    for t, (adv, lab) in enumerate(zip(Xs, ys)):
        plus = minus = 0.0
        for wi, a in zip(w, adv):
            if a == 1:
                plus = plus + wi
            else:
                minus = minus + wi
        pred = 1 if (plus > minus or (plus == minus and c.ties != "predict-1")) else -1
        m = pred != lab
        if m or "update_only_on_mistakes" not in bugs:
            w = [wi * beta if a != lab else wi for wi, a in zip(w, adv)]
        steps.append(RStep(t=t, epoch=t // n, index=seq[t], label=lab, activation=plus - minus, mistake=m,
                           weights=tuple(w)))
    return steps, w0, tuple(w)


def _pa_float(c, Xs, ys, seq, n, RStep, bugs):
    """PA-I in the course's float64 arithmetic, in its order: a = sum_j w_j x_j left to right,
    l = max(0, 1 - y a), tau = min(C, l / |x|^2) (|x|^2 summed left to right; no step for x = 0),
    w_j + (tau y) x_j.  Where the exact loss is 0 and the float one 1e-17 (or the reverse) the
    step is the course code's own."""
    C = float(PA_C)
    capped = "step_not_capped" not in bugs
    w = [0.0] * len(Xs[0])
    w0 = tuple(w)
    steps = []
    for t, (x, lab) in enumerate(zip(Xs, ys)):
        x = [float(v) for v in x]
        a = 0.0
        for wj, xj in zip(w, x):
            a = a + wj * xj
        loss = max(0.0, 1.0 - lab * a)
        sq = 0.0
        for v in x:
            sq = sq + v * v
        if loss > 0 and sq > 0:
            tau = min(C, loss / sq) if capped else loss / sq
            w = [wj + tau * lab * xj for wj, xj in zip(w, x)]
        steps.append(RStep(t=t, epoch=t // n, index=seq[t], label=lab, activation=a, mistake=lab * a <= 0,
                           weights=tuple(w)))
    return steps, w0, tuple(w)


# Hedge's common mistakes, each one change of the update (grading.checks.diagnose confirms them by a re-run):
# the loss applied as a gain (w beta^-l: the experts that lose most grow), beta applied once on every
# positive loss instead of beta^loss (Weighted Majority's rule), the weights normalised to sum 1
# (the course returns them as they are), or not normalised (the course returns them divided by their sum)
HEDGE_BUGS = ("loss_as_gain", "beta_once_per_loss", "weights_normalised", "weights_not_normalised")


def _hedge_factor(beta, loss, bugs, exact):
    if "beta_once_per_loss" in bugs:
        return beta if loss > 0 else (Fraction(1) if exact else 1.0)
    e = -loss if "loss_as_gain" in bugs else loss
    if exact:
        r = rational_power(beta, abs(e))
        if r is None:
            raise ValueError(f"beta^{e} is not rational")
        return r if e >= 0 else 1 / r
    return beta ** e


def hedge_exact(c, X) -> bool:
    """Is every beta^loss of this loss table rational (so the run is exact)?"""
    beta = _beta(c)
    return c.arithmetic != "float" and all(rational_power(beta, Fraction(v)) is not None for r in X for v in r)


def _hedge_run(c, X, Run, RStep, bugs):
    """Hedge on the loss table X as the grader's Run: a step per row, activation = the learner's
    loss, mistake = loss > 0, ``extras["hedge_loss"]`` (the answer's second number) = the total
    loss; the final weights divided by their sum under ``hedge_weights = "normalized"``."""
    exact = hedge_exact(c, X)
    if exact and not bugs & {"loss_as_gain", "beta_once_per_loss"}:
        tr = run_hedge([[Fraction(v) for v in r] for r in X], beta=_beta(c))
        steps = [RStep(t=s.t, epoch=0, index=s.t, label=1, activation=s.activation, mistake=s.mistake,
                       weights=s.weights) for s in tr.steps]
        w0, w, total = tr.initial_weights, tr.weights, tr.extras["hedge_loss"]
    else:
        steps, w0, w, total = _hedge_loop(c, X, RStep, bugs, exact)
    if (c.hedge_weights == "normalized") != bool(bugs & {"weights_normalised", "weights_not_normalised"}):
        s = w[0] * 0
        for wi in w:            # summed left to right, then each weight divided (the course's order)
            s = s + wi
        w = tuple(wi / s for wi in w)
    return Run(steps=steps, initial_weights=w0, initial_bias=None, weights=w, bias=None,
               mistakes=sum(s.mistake for s in steps), passes=1, extras={"hedge_loss": total})


def _hedge_loop(c, X, RStep, bugs, exact):
    """Hedge in the course's order: W = sum_i w_i and sum_i w_i l_i each left to right, the loss
    their quotient, then w_i * beta^(l_i) (float64: ``w * beta ** l``).  With ``bugs``, the one
    change each names."""
    beta = _beta(c) if exact else float(_beta(c))
    one = Fraction(1) if exact else 1.0
    w = [one] * len(X[0])
    w0 = tuple(w)
    steps, total = [], one * 0
    for t, row in enumerate(X):
        row = [Fraction(v) if exact else float(v) for v in row]
        W = mixed = one * 0
        for wi, li in zip(w, row):
            W = W + wi
            mixed = mixed + wi * li
        loss = mixed / W
        total = total + loss
        w = [wi * _hedge_factor(beta, li, bugs, exact) for wi, li in zip(w, row)]
        steps.append(RStep(t=t, epoch=0, index=t, label=1, activation=loss, mistake=loss > 0, weights=tuple(w)))
    return steps, w0, tuple(w), total


def unit_reference_seconds(c, X, y) -> float:
    import time
    t0 = time.process_time()
    if c.algorithm == "hedge":
        run_hedge(X, beta=float(_beta(c)), exact=False, record="none")
    elif c.algorithm == "weighted_majority":
        run_weighted_majority([[int(v) for v in r] for r in X], y, beta=_beta(c), exact=False, record="none")
    else:
        run_passive_aggressive(X, y, variant=PA_VARIANT, C=PA_C, exact=False, record="none")
    return time.process_time() - t0
