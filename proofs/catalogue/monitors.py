"""Runtime monitors: the catalogue's lemmas checked on an actual run, in exact arithmetic.

``check_perceptron_trace(trace, X, y, target, target_bias=None)`` walks an exact perceptron
:class:`learners.Trace` and checks at every mistake

* the update: w' = w + y x (and b' = b + y with a bias), and that the step was a mistake
  (y (w.x + b) <= 0, a tie counts);
* Claim 1 (``claim1_correlation_growth``): (w', b').(w*, b*) - (w, b).(w*, b*) = y (w*.x + b*) >= gamma,
  gamma = min over the data of y (w*.x + b*) (the functional margin; may be <= 0 when w* does not
  separate -- the claim is then checked with that value);
* Claim 2 (``claim2_norm_growth``): |(w', b')|^2 - |(w, b)|^2 <= |x|^2 (+ 1 with a bias) <= R^2;

and at the end the theorem's bound (from w0 = 0, b0 = 0 only): M <= R^2 |v*|^2 / gamma^2 when gamma > 0
(``block_novikoff_margin_one`` after scaling w* to margin 1; with a bias through the augmented
vectors, ``block_novikoff_bias``), otherwise the hinge bound M <= R^2 |v*|^2 + 2 L_hinge(v*)
(``hinge_loss_bound``, loss summed over the visited steps).

``check_winnow_trace(trace, X, y, relevant)`` checks the Winnow lemmas (relevant weights never
demoted and below 2n, the total-weight invariant) and the bound 2 + 3r(1 + lg n) (halving) or
1 + 2r(1 + lg n) (elimination), exactly (lg n is compared through integer powers).

Both return a :class:`MonitorReport`; ``report.ok`` is True when nothing was violated.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from learners.errors import InputError
from learners.numbers import fraction_str, to_fraction

__all__ = ["Violation", "MonitorReport", "check_perceptron_trace", "check_winnow_trace"]


@dataclass(frozen=True)
class Violation:
    t: int            # global step number (-1: the final bound)
    check: str        # "update", "mistake", "claim1", "claim2", "bound", ...
    detail: str

    def __str__(self) -> str:
        return f"step {self.t}: {self.check}: {self.detail}" if self.t >= 0 else f"{self.check}: {self.detail}"


@dataclass
class MonitorReport:
    algorithm: str
    mistakes: int
    checked_mistakes: int
    violations: list[Violation] = field(default_factory=list)
    margin: Fraction | None = None         # gamma (perceptron: min functional margin of the target)
    radius_sq: Fraction | None = None      # R^2 (augmented with the bias)
    bound: Fraction | None = None          # the bound the final check used (None: not applicable)
    bound_kind: str = ""                   # which theorem's form
    theorems: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.violations

    def to_json(self) -> dict:
        f = lambda v: None if v is None else fraction_str(v)  # noqa: E731
        return {"algorithm": self.algorithm, "ok": self.ok, "mistakes": self.mistakes,
                "checked_mistakes": self.checked_mistakes, "margin": f(self.margin),
                "radius_sq": f(self.radius_sq), "bound": f(self.bound), "bound_kind": self.bound_kind,
                "theorems": list(self.theorems), "violations": [str(v) for v in self.violations]}


def _dot(a, b):
    return sum((p * q for p, q in zip(a, b)), Fraction(0))


def _vec(v, what):
    return tuple(to_fraction(a, what=what) for a in v)


def check_perceptron_trace(trace, X, y, target, target_bias=None) -> MonitorReport:
    """Check Claims 1 and 2 at every mistake of an exact perceptron trace, and the final bound."""
    if not getattr(trace, "exact", False):
        raise InputError("the monitors need an exact trace (run the learner with exact=True)")
    if trace.record == "none":
        raise InputError("the monitors need the recorded steps (record='all' or 'mistakes')")
    if trace.params.get("normalize"):
        raise InputError("the monitors check unnormalized runs (normalize=False)")
    Xf = [_vec(row, "example value") for row in X]
    yl = [int(v) for v in y]
    if len(Xf) != len(yl) or len(Xf) != trace.n_examples:
        raise InputError(f"X and y must have the trace's {trace.n_examples} examples")
    if any(v not in (1, -1) for v in yl):
        raise InputError("perceptron labels must be +1/-1")
    d = len(Xf[0]) if Xf else 0
    u = _vec(target, "target value")
    if len(u) != d:
        raise InputError(f"the target has {len(u)} coordinates, the examples {d}")
    bias = bool(trace.params.get("bias"))
    bu = to_fraction(target_bias, what="target bias") if (bias and target_bias is not None) else Fraction(0)
    one = 1 if bias else 0
    margins = [yl[i] * (_dot(u, Xf[i]) + bu) for i in range(len(Xf))]
    visited = sorted(set(trace.order)) or list(range(len(Xf)))
    gamma = min(margins[i] for i in visited) if visited else None
    R2 = max((_dot(Xf[i], Xf[i]) + one for i in visited), default=Fraction(0))
    rep = MonitorReport(trace.algorithm, trace.mistakes, 0, margin=gamma, radius_sq=R2,
                        theorems=("claim1_correlation_growth", "claim2_norm_growth"))
    w = _vec(trace.initial_weights, "initial weight")
    b = to_fraction(trace.initial_bias, what="initial bias") if (bias and trace.initial_bias is not None) else Fraction(0)
    V = rep.violations
    for s in trace.steps:
        if not s.mistake:
            if s.weights is not None:
                w = _vec(s.weights, "weight")
                b = to_fraction(s.bias) if (bias and s.bias is not None) else b
            continue
        rep.checked_mistakes += 1
        x, yy = Xf[s.index], s.label
        act = _dot(w, x) + b
        if to_fraction(s.activation) != act:
            V.append(Violation(s.t, "activation", f"recorded {s.activation}, w.x + b = {fraction_str(act)}"))
        if yy * act > 0:
            V.append(Violation(s.t, "mistake", f"updated although y(w.x + b) = {fraction_str(yy * act)} > 0"))
        w1 = tuple(a + yy * c for a, c in zip(w, x))
        b1 = b + yy if bias else b
        if s.weights is not None:
            rec = _vec(s.weights, "weight")
            rb = to_fraction(s.bias) if (bias and s.bias is not None) else b1
            if rec != w1 or rb != b1:
                V.append(Violation(s.t, "update", "weights after the step are not w + y x (b + y)"))
            w1, b1 = rec, rb
        g0, g1 = _dot(w, u) + b * bu, _dot(w1, u) + b1 * bu
        if g1 - g0 < gamma:
            V.append(Violation(s.t, "claim1", f"w.w* grew by {fraction_str(g1 - g0)} < gamma = {fraction_str(gamma)}"))
        n0, n1 = _dot(w, w) + b * b, _dot(w1, w1) + b1 * b1
        xx = _dot(x, x) + one
        if n1 - n0 > xx or n1 - n0 > R2:
            V.append(Violation(s.t, "claim2", f"|w|^2 grew by {fraction_str(n1 - n0)} > |x|^2 = {fraction_str(xx)}"))
        if s.w_dot_target is not None and to_fraction(s.w_dot_target) != g1:
            V.append(Violation(s.t, "w_dot_target", f"recorded {s.w_dot_target}, computed {fraction_str(g1)}"))
        if s.w_norm_sq is not None and to_fraction(s.w_norm_sq) != n1:
            V.append(Violation(s.t, "w_norm_sq", f"recorded {s.w_norm_sq}, computed {fraction_str(n1)}"))
        w, b = w1, b1
    zero_start = all(v == 0 for v in _vec(trace.initial_weights, "initial weight")) and \
        (not bias or trace.initial_bias in (None, 0))
    if trace.record == "all" and rep.checked_mistakes != trace.mistakes:
        V.append(Violation(-1, "count", f"{rep.checked_mistakes} recorded mistakes, trace says {trace.mistakes}"))
    vv = _dot(u, u) + bu * bu
    if zero_start and gamma is not None:
        if gamma > 0:
            rep.bound = R2 * vv / (gamma * gamma)
            rep.bound_kind = "M <= R^2 |w*|^2 / gamma^2"
            rep.theorems += ("block_novikoff_bias" if bias else "block_novikoff_margin_one",)
        else:
            L = sum((max(Fraction(0), 1 - margins[i]) for i in trace.order), Fraction(0))
            rep.bound = R2 * vv + 2 * L
            rep.bound_kind = "M <= R^2 |w*|^2 + 2 L_hinge(w*)"
            rep.theorems += ("hinge_loss_bound",)
        if trace.mistakes > rep.bound:
            V.append(Violation(-1, "bound", f"M = {trace.mistakes} > {rep.bound_kind} = {fraction_str(rep.bound)}"))
    return rep


def _le_const_plus_lg(M: int, c: int, k: int, n: int) -> bool:
    """Exactly: M <= c + k (1 + lg n), k >= 0 (integers)."""
    if k == 0:
        return M <= c
    # M - c - k <= k lg n  <=>  2^(M - c - k) <= n^k
    e = M - c - k
    return e <= 0 or 2 ** e <= n ** k


def check_winnow_trace(trace, X, y, relevant) -> MonitorReport:
    """Check the Winnow lemmas and bound on an exact trace (variants 'halve' and 'eliminate');
    ``relevant``: the indices of the target disjunction's variables."""
    variant = trace.params.get("variant", "halve")
    if variant not in ("halve", "eliminate"):
        raise InputError(f"the Winnow monitor covers the 'halve' and 'eliminate' variants, not {variant!r}")
    if trace.record == "none":
        raise InputError("the monitors need the recorded steps (record='all' or 'mistakes')")
    if to_fraction(trace.params.get("alpha", 2)) != 2:
        raise InputError("the Winnow theorems are about alpha = 2 (double/halve)")
    Xf = [tuple(int(v) for v in row) for row in X]
    n = len(Xf[0]) if Xf else 0
    rel = sorted(set(int(i) for i in relevant))
    if any(i < 0 or i >= n for i in rel):
        raise InputError(f"relevant variable out of range 0..{n - 1}")
    theta = to_fraction(trace.params.get("theta") or n)
    rep = MonitorReport("winnow", trace.mistakes, 0, theorems=(
        "winnow_halving_bound" if variant == "halve" else "winnow_elimination_bound",))
    V = rep.violations
    w = _vec(trace.initial_weights, "initial weight")
    W = sum(w, Fraction(0))
    for s in trace.steps:
        if not s.mistake:
            if s.weights is not None:
                w = _vec(s.weights, "weight")
            continue
        rep.checked_mistakes += 1
        x = Xf[s.index]
        label = int(s.label)
        target = 1 if any(x[i] for i in rel) else 0
        if target != label:
            V.append(Violation(s.t, "target", f"label {label} is not the disjunction's value {target}"))
        act = _dot(w, x)
        w1 = _vec(s.weights, "weight") if s.weights is not None else w
        W1 = sum(w1, Fraction(0))
        for i in rel:
            if w1[i] < w[i]:
                V.append(Violation(s.t, "relevant_never_demoted", f"relevant weight {i} went {w[i]} -> {w1[i]}"))
            if theta == n and w1[i] >= 2 * n:
                V.append(Violation(s.t, "relevant_below_2n", f"relevant weight {i} = {w1[i]} >= 2n"))
        if theta == n:
            if label == 1 and not (W1 < W + n):
                V.append(Violation(s.t, "promotion_weight", f"W grew by {fraction_str(W1 - W)} >= n"))
            if label == 0:
                need = Fraction(n) if variant == "eliminate" else Fraction(n, 2)
                if not (W1 <= W - need):
                    V.append(Violation(s.t, "demotion_weight", f"W fell by {fraction_str(W - W1)} < {need}"))
        _ = act
        w, W = w1, W1
    if theta == n and all(v == 1 for v in trace.initial_weights):
        r = len(rel)
        c, k = (2, 3 * r) if variant == "halve" else (1, 2 * r)
        rep.bound_kind = "M <= 2 + 3r(1 + lg n)" if variant == "halve" else "M <= 1 + 2r(1 + lg n)"
        if not _le_const_plus_lg(trace.mistakes, c, k, n):
            V.append(Violation(-1, "bound", f"M = {trace.mistakes} > {rep.bound_kind} with r = {r}, n = {n}"))
    return rep
