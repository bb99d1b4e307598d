"""The proof's invariants, checked on the *student's own run* in exact arithmetic.

The student's states after every step are obtained by re-running their ``train`` on prefixes of
the sequence; the numbers they return are floats, read here as their exact binary values
(``Fraction(float)``).  The test data are dyadic, so a correct float implementation computes
them exactly and the checks below need no tolerance.

Perceptron (Blum's notes, stated with a bias through the augmented vector (w, b) and (x, 1)):
  * an update happens only on a mistake (y (w.x + b) <= 0 for the student's *own* state);
  * Claim 1: on a mistake, (w, b).(w*, b*) grows by at least gamma = min_i y_i (w*.x_i + b*);
  * Claim 2: on a mistake, |(w, b)|^2 grows by at most R^2 = max_i |(x_i, 1)|^2;
  * the mistake bound: the number of updates M satisfies M gamma^2 <= R^2 |(w*, b*)|^2.
Winnow (double/halve, threshold m): updates only on mistakes, each update multiplies the active
weights by 2 (missed 1) or 1/2 (false 1), and M <= 2 + 3 r (1 + lg m) for an r-disjunction target,
checked without logarithms as 2^(M - 2 - 3r) <= m^(3r).
Kernel perceptron: updates only on mistakes, alpha_i changes by y_i, and Claim 2 in feature
space: alpha^T K alpha grows by at most K(x_i, x_i) on a mistake.

Under a course's contract the same statements are checked in the form that holds there: "a
mistake" follows the contract's tie convention, a learning rate eta is divided out (the caller
passes w / eta: eta scales Claim 1 to eta gamma and Claim 2 to eta^2 R^2), Winnow's update uses
the contract's threshold, factor and variant.  A statement that does not hold under the contract
(the mistake bound from a start w0 != 0; Winnow's bound for another threshold or factor) is not
checked, and :func:`grading.checks.checks_properties` says so in the feedback.

When ``proofs.catalogue.monitors`` exists it is used for the perceptron Claims on the same numbers (and the
report says so); these checks are the fallback and the cross-check.
"""
from __future__ import annotations

from fractions import Fraction

from grading.references.reference import is_mistake

__all__ = ["check_perceptron_run", "check_winnow_run", "check_kernel_run"]


def _F(v):
    return Fraction(v) if not isinstance(v, Fraction) else v


def _start_tie(start_ties, k, ties, label, act, changed, at_start) -> bool:
    """Is step k (0-based) a mistake?  Under the contract's convention -- except a tie met at the
    zero start when ``start_ties`` is a list: there the student's own step decides (an update is
    a mistake, and is then checked like any update).  From a zero start every first step is a
    tie, so one tie-convention bug would otherwise fail every run at step 1 while the rest of the
    algorithm is right; which way such a tie goes is what the ties test grades.  The statements
    hold either way: an update at a tie (y a = 0 <= 0) is an update on an example with y a <= 0,
    which is all that Claims 1 and 2, the mistake bound and the kernel's Claim 2 use."""
    want = is_mistake(ties, label, act)
    if start_ties is None or act != 0 or not at_start:
        return want
    if changed != want:
        start_ties.append(k + 1)
    return changed


def _never_left(step, act, start) -> str:
    """A run that takes every tie at the start as "no mistake" never updates: the same answers as
    code that does nothing, so the ties at the start are not free for it."""
    return (f"step {step}: {act} = 0 is a mistake under the course's tie convention but your weights did not "
            f"change, and your run never leaves {start} (it never updates)")


def check_perceptron_run(X, y, states, wstar, bstar, bias: bool, *, ties="mistake", bound=True,
                         start_ties=None) -> list[str]:
    """``states``: [(w, b)] before step 1 .. after step T (T = len(X)); returns violations.
    ``ties``: the contract's tie convention; ``bound``: check the mistake bound (w0 = 0).
    ``start_ties``: a list, to take the ties met at the zero start either way (see
    :func:`_start_tie`); the steps resolved otherwise than ``ties`` are appended to it."""
    rows = [[_F(v) for v in r] for r in X]
    ws = [_F(v) for v in wstar] + ([_F(bstar)] if bias else [])
    aug = [r + ([Fraction(1)] if bias else []) for r in rows]
    gamma = min(t * sum(a * b for a, b in zip(ws, x)) for x, t in zip(aug, y))
    R2 = max(sum(a * a for a in x) for x in aug)
    problems = []
    M = 0
    st = [([_F(v) for v in w] + ([_F(b or 0)] if bias else [])) for w, b in states]
    for k, (x, t) in enumerate(zip(aug, y)):
        before, after = st[k], st[k + 1]
        act = sum(a * b for a, b in zip(before, x))
        changed = before != after
        mistake = _start_tie(start_ties, k, ties, t, act, changed, not any(before))
        if changed and not mistake:
            problems.append(f"step {k + 1}: your weights changed although y(w.x + b) = {act * t} is not a mistake "
                            "(update only on mistakes)")
            break
        if not changed and mistake:
            problems.append(f"step {k + 1}: y(w.x + b) = {act * t} is a mistake but your weights did not change")
            break
        if mistake:
            M += 1
            d1 = sum(a * b for a, b in zip(after, ws)) - sum(a * b for a, b in zip(before, ws))
            if d1 < gamma:
                problems.append(f"step {k + 1}: Claim 1 fails on your run: w.w* grew by {float(d1):g} < gamma = "
                                f"{float(gamma):g}")
                break
            d2 = sum(a * a for a in after) - sum(a * a for a in before)
            if d2 > R2:
                problems.append(f"step {k + 1}: Claim 2 fails on your run: |w|^2 grew by {float(d2):g} > R^2 = "
                                f"{float(R2):g}")
                break
    if not problems and start_ties and M == 0:
        problems.append(_never_left(start_ties[0], "y(w.x + b)", "w = 0"))
    if bound and not problems and gamma > 0 and M * gamma * gamma > R2 * sum(a * a for a in ws):
        problems.append(f"your run made {M} updates, more than the mistake bound R^2|w*|^2/gamma^2 = "
                        f"{float(R2 * sum(a * a for a in ws) / gamma ** 2):g}")
    return problems


def check_winnow_run(X, y, states, rel, *, theta=None, up=2, down=2, variant="halve", ties="predict+1",
                     bound=True) -> list[str]:
    """Winnow's update rule on the student's run (``theta``: the threshold, n by default; a
    promotion multiplies the active weights by ``up``, a demotion divides them by ``down`` or,
    for ``variant = "eliminate"``, sets them to 0) and, with ``bound``, the mistake bound of the
    double/halve learner with threshold n."""
    m = len(X[0])
    theta = Fraction(m) if theta is None else Fraction(theta)
    up, down = Fraction(up), Fraction(down)
    problems = []
    M = 0
    st = [[_F(v) for v in w] for w in states]
    for k, (x, t) in enumerate(zip(X, y)):
        before, after = st[k], st[k + 1]
        s = sum(wi for wi, xi in zip(before, x) if xi)
        pred = 1 if (s >= theta if ties == "predict+1" else s > theta) else 0
        mistake = pred != t
        if before != after and not mistake:
            problems.append(f"step {k + 1}: your weights changed although the prediction {pred} was right")
            break
        if mistake:
            M += 1
            if t == 1:
                want, how = [wi * up if xi else wi for wi, xi in zip(before, x)], f"multiplied by {up}"
            elif variant == "eliminate":
                want, how = [Fraction(0) if xi else wi for wi, xi in zip(before, x)], "set to 0"
            else:
                want, how = [wi / down if xi else wi for wi, xi in zip(before, x)], f"divided by {down}"
            if after != want:
                problems.append(f"step {k + 1}: on a mistake with y = {t} the weights of the active variables must be "
                                f"{how} and the others kept")
                break
    if bound and not problems and rel:
        r = len(rel)
        if M - 2 - 3 * r > 0 and 2 ** (M - 2 - 3 * r) > m ** (3 * r):
            problems.append(f"your run made {M} mistakes, more than the bound 2 + 3r(1 + lg m) (r = {r}, m = {m})")
    return problems


def check_kernel_run(X, y, states, K, *, ties="mistake", biases=None, start_ties=None) -> list[str]:
    """``states``: alpha (signed, learning rate divided out) after each prefix; alpha after step
    k has k entries (prefix runs).  ``biases``: b after each prefix when f has a bias term.
    ``start_ties``: as for :func:`check_perceptron_run` (alpha = 0, b = 0 is the start)."""
    rows = [[_F(v) for v in r] for r in X]
    n = len(rows)
    try:
        G = [[_F(K(rows[j], rows[i])) for i in range(n)] for j in range(n)]
    except (TypeError, ValueError):
        G = [[_F(float(K([float(v) for v in rows[j]], [float(v) for v in rows[i]]))) for i in range(n)]
             for j in range(n)]
    problems = []
    for k in range(n):
        before = [_F(v) for v in states[k]] + [Fraction(0)]
        after = [_F(v) for v in states[k + 1]]
        f = sum(before[j] * G[j][k] for j in range(k)) + (_F(biases[k]) if biases else 0)
        at_start = not any(before) and not (biases and _F(biases[k]))
        mistake = _start_tie(start_ties, k, ties, y[k], f, after[k] != 0 or bool(biases and _F(biases[k + 1])),
                             at_start)
        if after[:k] != before[:k]:
            problems.append(f"step {k + 1}: coefficients of earlier examples changed (only alpha_i may change)")
            break
        if mistake and after[k] != y[k]:
            problems.append(f"step {k + 1}: a mistake (y f(x) = {float(y[k] * f):g}) must set alpha_i += y_i")
            break
        if not mistake and after[k] != 0:
            problems.append(f"step {k + 1}: alpha changed although y f(x) = {float(y[k] * f):g} is not a mistake")
            break
        if biases and _F(biases[k + 1]) - _F(biases[k]) != (y[k] if mistake else 0):
            problems.append(f"step {k + 1}: the bias must change by y_i on a mistake and only then")
            break
        if mistake:
            q0 = sum(before[a] * before[b] * G[a][b] for a in range(k + 1) for b in range(k + 1))
            q1 = sum(after[a] * after[b] * G[a][b] for a in range(k + 1) for b in range(k + 1))
            if q1 - q0 > G[k][k]:
                problems.append(f"step {k + 1}: Claim 2 (feature space) fails: |w|^2 grew by {float(q1 - q0):g} > "
                                f"K(x, x) = {float(G[k][k]):g}")
                break
    if not problems and start_ties and not any(_F(v) for v in states[-1]) and \
            not (biases and any(_F(b) for b in biases)):
        problems.append(_never_left(start_ties[0], "y f(x)", "alpha = 0"))
    return problems


def student_trace(algorithm, X, y, states, bias: bool):
    """An exact :class:`learners.Trace` of the student's own run (from the prefix states), so that
    the proofs' runtime monitors can read it.  A step is a "mistake" when the student updated."""
    from learners.trace import Step, Trace
    rows = [[_F(v) for v in r] for r in X]
    steps, flags = [], []
    if algorithm == "perceptron":
        st = [([_F(v) for v in w], _F(b or 0)) for w, b in states]
    else:
        st = [([_F(v) for v in w], None) for w in states]
    for k, (x, t) in enumerate(zip(rows, y)):
        (w0, b0), (w1, b1) = st[k], st[k + 1]
        act = sum(a * c for a, c in zip(w0, x)) + (b0 if (bias and b0 is not None) else 0)
        changed = (w0 != w1) or (bias and b0 != b1)
        if algorithm == "perceptron":
            pred = 1 if act > 0 else -1
        else:
            pred = 1 if act >= len(x) else 0
        flags.append(changed)
        # t = k + 1: the monitors' messages then number steps from 1, like the rest of the feedback
        steps.append(Step(t=k + 1, epoch=0, index=k, label=int(t), activation=act, prediction=pred, mistake=changed,
                          weights=tuple(w1), bias=b1 if bias else None))
    w_init, b_init = st[0]
    params = {"bias": bool(bias), "normalize": False} if algorithm == "perceptron" else \
        {"variant": "halve", "alpha": "2", "theta": str(len(X[0]))}
    return Trace(algorithm=algorithm, exact=True, n_examples=len(X), n_features=len(X[0]), epochs=1, record="all",
                 steps=steps, mistakes=sum(flags), n_steps=len(X), weights=tuple(st[-1][0]),
                 bias=st[-1][1] if bias else None, initial_weights=tuple(w_init),
                 initial_bias=b_init if bias else None, order=list(range(len(X))), mistake_flags=flags,
                 params=params)


def monitor_run(algorithm, X, y, states, target, target_bias, bias: bool):
    """Run ``proofs.catalogue.monitors`` on the student's run.  Returns (violations as text, which monitor)
    or ([], None) when the monitors are not available."""
    try:
        from proofs.catalogue import monitors
    except ImportError:
        return [], None
    tr = student_trace(algorithm, X, y, states, bias)
    if algorithm == "perceptron":
        rep = monitors.check_perceptron_trace(tr, X, y, target, target_bias if bias else None)
        name = "proofs.catalogue.monitors.check_perceptron_trace"
    elif algorithm == "winnow":
        rep = monitors.check_winnow_trace(tr, X, y, target)
        name = "proofs.catalogue.monitors.check_winnow_trace"
    else:
        return [], None
    return [f"{v} (on your run)" for v in rep.violations], name
