"""The teaching part of a failure: where the student's run departs from the reference, and the
causes that are *confirmed*.

A cause is one change -- of the contract (the tie convention, the visiting order, the learning
rate, the stopping rule, the number of passes, the start, Winnow's variant or threshold, the
kernel's dual form or bias) or of the update (the label ignored, the bias never updated or moved
the wrong way).  A cause is shown only when the reference re-run with that one change reproduces
the student's answers exactly, on the failing input and on every probe input (fixed inputs on
which the causes give different answers).  Otherwise the feedback says where the run departs
(step k) and names no cause.  Two observations need no re-run: two calls on the same input that
answer differently ("data shuffled"), and inputs changed by the call ("inputs modified").
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from grading.checks.checks_common import Failure, before, before_bias, fmt_X, fmt_num
from grading.spec.contract import TIES
from grading.references.averaging import average_causes, late_ties
from grading.checks.oracle import CourseSolutionFailed
from grading.references.reference import Answer, copy_answer

__all__ = ["Diagnoses", "Cause", "causes", "SHUFFLED", "handout_names"]


@dataclass(frozen=True)
class Cause:
    name: str
    message: str
    contract: object = None          # the contract with the one change (None: the spec's)
    bugs: frozenset = frozenset()
    passes: object = None            # e -> the number of passes the student's code made
    convention: bool = False         # a tie convention (partial credit: convention_credit)


_TIE = {
    "perceptron": {"mistake": "a tie y(w.x + b) = 0 counts as a mistake (test <= 0)",
                   "no_mistake": "a tie y(w.x + b) = 0 is not a mistake (test < 0)",
                   "predict+1": "sign(0) = +1: a tie predicts +1 (so it is a mistake only on a negative example)",
                   "predict-1": "sign(0) = -1: a tie predicts -1 (so it is a mistake only on a positive example)"},
    "winnow": {"predict+1": "a tie w.x = theta predicts 1 (test >= theta)",
               "predict-1": "a tie w.x = theta predicts 0 (test > theta)"},
}
_TIE["kernel_perceptron"] = {k: v.replace("y(w.x + b)", "y f(x)") for k, v in _TIE["perceptron"].items()}
# the online-learning unit's common mistakes: (name, explanation, the reference's bug)
UNIT_CAUSES = {
    "weighted_majority": ("penalizes only on mistakes", "your weights change only when your prediction is wrong; "
                          "Weighted Majority halves every wrong expert on every step", "update_only_on_mistakes"),
    "passive_aggressive": ("step not capped at C", "your step is l/|x|^2 even when it exceeds C; PA-I takes "
                           "tau = min(C, l/|x|^2)", "step_not_capped"),
}
HEDGE_CAUSES = (
    ("loss applied as a gain", "your weights grow with the loss (w beta^-l, or divided by beta^l): Hedge multiplies "
     "every expert's weight by beta^loss, so the experts that lose most shrink most", "loss_as_gain"),
    ("beta applied once per loss instead of beta^loss", "your code multiplies a weight by beta whenever its loss is "
     "positive (Weighted Majority's rule): Hedge multiplies it by beta^loss, so a loss of 1/4 costs beta^(1/4)",
     "beta_once_per_loss"),
    ("weights normalised", "your weights sum to 1: the course's Hedge returns them as they are, "
     "w_i = beta^(L_i) with L_i the expert's total loss (contract hedge_weights = \"raw\")", "weights_normalised"),
    ("weights not normalised", "your weights do not sum to 1: the course's Hedge returns them divided by their "
     "sum, w_i = beta^(L_i) / sum_j beta^(L_j) (contract hedge_weights = \"normalized\")", "weights_not_normalised"),
)
FINITE_CAUSES = {
    "halving": (
        ("removes the consistent hypotheses", "your version space keeps the hypotheses that disagree with the label "
         "and drops those that agree: after each step Halving keeps exactly the hypotheses h of V with h(x) = y",
         "removes_consistent"),
        ("shrinks the version space only on mistakes", "your version space changes only when your prediction is "
         "wrong: Halving removes every hypothesis that disagrees with the label on every step", "update_only_on_mistakes"),
        ("predicts with one consistent hypothesis", "you predict with the first hypothesis of the version space (the "
         "Consistent algorithm, at most |H| - 1 mistakes): Halving predicts the majority vote of the whole version "
         "space (at most log2 |H| mistakes)", "first_consistent"),
    ),
    "soa": (
        ("version-space sizes compared instead of Littlestone dimensions", "you predict the label y whose V_x^y has "
         "more hypotheses (Halving's vote): SOA predicts the y whose V_x^y has the larger Littlestone dimension",
         "sizes_not_ldim"),
        ("shrinks the version space only on mistakes", "your version space changes only when your prediction is "
         "wrong: SOA keeps V = the hypotheses consistent with every label so far, on every step",
         "update_only_on_mistakes"),
    ),
}
# learners that update on every step, mistake or not
STEP_TEXT = {"weighted_majority": {True: "a mistake (the wrong experts halved)",
                                   False: "no mistake (the wrong experts halved all the same)"},
             "passive_aggressive": {True: "a mistake (the step tau y x taken)",
                                    False: "no mistake (the step tau y x taken if the loss is > 0)"},
             "hedge": {True: "a positive loss (every w_i times beta^l_i)",
                       False: "no loss (the weights unchanged)"},
             "halving": {True: "a mistake (the hypotheses that disagree with the label removed)",
                         False: "no mistake (the hypotheses that disagree with the label removed all the same)"}}
STEP_TEXT["soa"] = STEP_TEXT["halving"]
# what a step's activation is, in the first departure's words
ACTIVATION_TEXT = {"hedge": "the learner loss", "halving": "the vote sum_{h in V} h(x) =",
                   "soa": "Ldim(V_x^+) - Ldim(V_x^-) ="}
_TIE["weighted_majority"] = {"predict+1": "a tie W(+1) = W(-1) predicts +1", "predict-1": "a tie W(+1) = W(-1) predicts -1"}
_TIE["hedge"] = {"mistake": "a step of positive loss"}
_TIE["halving"] = {"predict+1": "an even vote of the version space predicts +1",
                   "predict-1": "an even vote of the version space predicts -1"}
_TIE["soa"] = {"predict+1": "a tie Ldim(V_x^+) = Ldim(V_x^-) predicts +1",
               "predict-1": "a tie Ldim(V_x^+) = Ldim(V_x^-) predicts -1"}
_TIE["passive_aggressive"] = {"mistake": "y (w.x) <= 0 is a mistake (PA updates on every positive loss)"}
_TIE_NAME = {"mistake": "ties counted as mistakes", "no_mistake": "ties not counted as mistakes",
             "predict+1": "ties predicted +1", "predict-1": "ties predicted -1"}
_ORDER = {"index": "in the given order 0, 1, ..., n-1",
          "get_order": "in get_order(n)'s order (random.seed(1) then random.shuffle)"}


def _penalized(text, c):
    """Weighted Majority's texts say "halves" for the penalty 1/2; another penalty is named."""
    beta = getattr(c, "penalty", Fraction(1, 2))
    if c.algorithm != "weighted_majority" or beta == Fraction(1, 2):
        return text
    return text.replace("halves every wrong expert", f"multiplies every wrong expert's weight by beta = "
                        f"{fmt_num(beta)}").replace("experts halved", f"experts' weights times {fmt_num(beta)}")


def _order_text(order):
    if order in _ORDER:
        return _ORDER[order]
    kind, _, seed = order.partition(":")
    if kind == "shuffle":
        return f"in the order of random.Random({seed}).shuffle"
    return f"in the order np.random.RandomState({seed}).permutation(n)"


def _tie_name(alg, t):
    if alg == "winnow":
        return "ties not counted as mistakes" if t == "predict-1" else "ties predict 1"
    return _TIE_NAME[t]


def causes(problem) -> list[Cause]:
    """The single changes a diagnosis may confirm, for this problem's contract."""
    P = problem
    c = P.contract
    alg = P.algorithm
    out = []
    for t in TIES[alg]:
        if t != c.ties:
            out.append(Cause(_tie_name(alg, t), f"the reference re-run with {_TIE[alg][t]} reproduces your answers; "
                             f"the course's convention: {_TIE[alg][c.ties]}", contract=c.replace(ties=t),
                             convention=True))
    if alg == "winnow" and c.margin is not None:
        out.append(Cause("ties not updated", f"the reference re-run with the strict test y (w.x - theta) < {c.margin} "
                         f"reproduces your answers; the course updates when y (w.x - theta) <= {c.margin} (a tie "
                         "updates whatever the label)", contract=c.replace(margin_strict=True),
                         convention=True))
    if alg == "winnow":
        out.append(Cause("label ignored", "your update does not depend on the label: promote on a missed 1, "
                         "demote on a false 1", bugs=frozenset({"label_ignored"})))
    elif alg == "hedge":
        skip = "weights_not_normalised" if c.hedge_weights == "raw" else "weights_normalised"
        out += [Cause(name, why, bugs=frozenset({bug})) for name, why, bug in HEDGE_CAUSES if bug != skip]
    elif alg in FINITE_CAUSES:
        out += [Cause(name, why, bugs=frozenset({bug})) for name, why, bug in FINITE_CAUSES[alg]]
    elif alg in UNIT_CAUSES:
        name, why, bug = UNIT_CAUSES[alg]
        why = _penalized(why, c)
        out.append(Cause(name, why, bugs=frozenset({bug})))
    elif not (alg == "kernel_perceptron" and c.dual == "counts"):
        what = "alpha_i += y_i, not += 1" if alg == "kernel_perceptron" else "w += y x (and b += y), not w += x"
        out.append(Cause("label ignored", f"your update does not use the label: it must be {what}",
                         bugs=frozenset({"label_ignored"})))
    if (alg == "perceptron" and c.bias) or (alg == "kernel_perceptron" and c.kernel_bias):
        w_, b_ = P.names
        upd = f"{w_} += y x" if alg == "perceptron" else f"{w_}_i += y_i"
        act = f"y({w_}.x + {b_})" if alg == "perceptron" else f"y (sum_j {w_}_j K(x_j, x) + {b_})"
        out.append(Cause("bias never updated", f"your bias stays at its start value: on a mistake update {b_} += y "
                         f"as well as {upd}", bugs=frozenset({"bias_never_updated"})))
        out.append(Cause("bias sign flipped", f"your bias moves the wrong way on a mistake: {b_} += y, not {b_} -= y",
                         bugs=frozenset({"bias_sign_flipped"})))
        out.append(Cause("bias missing from the activation", f"your code updates {b_} but predicts without it: "
                         f"the mistake test is {act} <= 0", bugs=frozenset({"bias_not_in_activation"})))
    if alg in ("perceptron", "kernel_perceptron") and c.style == "function" and c.average == "none" \
            and not c.per_pass_order:
        out.append(Cause("skips the first example", "the reference re-run without the first example of each pass "
                         "reproduces your answers: every pass must visit all n examples (range(n), not range(1, n))",
                         bugs=frozenset({"skip_first"})))
    if alg in ("perceptron", "kernel_perceptron") and c.labels == "01":
        out.append(Cause("label applied twice", "your 0/1 labels went through y = 2y - 1 twice: a negative example "
                         "updates with -3 instead of -1 (the positive ones stay 1); convert the labels once",
                         bugs=frozenset({"label_twice"})))
    if alg != "winnow" and c.learning_rate != 1:
        out.append(Cause("learning rate ignored", f"the reference re-run with learning rate 1 reproduces your "
                         f"answers; the course's learning rate is {c.learning_rate} (w += eta y x)",
                         contract=c.replace(learning_rate=Fraction(1))))
    for o in ("index", "get_order"):
        if o != c.order and c.style == "function" and alg not in FINITE_CAUSES:
            out.append(Cause("visits data in a different order", f"the reference re-run with the examples visited "
                             f"{_order_text(o)} reproduces your answers; the course's order: {_order_text(c.order)}",
                             contract=c.replace(order=o)))
    if c.style == "function" and not c.epochs_fixed:
        # A pass without a mistake changes nothing, and neither does any later pass: "until no
        # mistakes" and "fixed T passes" give the same answers.  What a course's stopping rule can
        # get wrong is the number of passes actually made.
        early = "stops early" if c.stop == "converged" else "wrong number of passes"
        for name, what, fn in ((early, "stopped after one pass, whatever the number of passes asked", lambda e: 1),
                               (early, "stopped one pass too soon", lambda e: e - 1),
                               ("wrong number of passes", "with one pass too many", lambda e: e + 1),
                               ("wrong number of passes", "with twice the passes asked", lambda e: 2 * e)):
            out.append(Cause(name, f"the reference re-run {what} reproduces your answers", passes=fn))
    if c.step != "constant":
        out.append(Cause("step size not per example", f"the reference re-run with the same step for every example "
                         f"reproduces your answers; the course's step "
                         f"{'at time step t (every example visited counts)' if 't' in c.step else 'for example j'} is "
                         f"{c.step} (times the learning rate)", contract=c.replace(step="constant")))
    if c.style == "function" and c.unbounded:
        out.append(Cause("stops early", "the reference re-run with a single pass reproduces your answers; the course "
                         "repeats passes until one makes no mistake", contract=c.replace(separable=None, stop="epochs",
                                                                                         passes=1)))
    if c.style == "function" and c.passes:
        for k in sorted({1, c.passes - 1, c.passes + 1, 2 * c.passes} - {0, c.passes}):
            out.append(Cause("wrong number of passes", f"the reference re-run with {k} passes per call reproduces "
                             f"your answers; the course's code makes {c.passes}", contract=c.replace(passes=k)))
    if alg == "perceptron" and c.average != "none":
        out.extend(Cause(name, msg, contract=c.replace(**change) if change else None, bugs=frozenset(bugs))
                   for name, msg, change, bugs in average_causes(c))
    if alg == "perceptron" and c.init != "zero":
        out.append(Cause("start weights ignored", f"you start from w = 0; the course's code starts from "
                         f"{'the given w0' if c.init == 'given' else 'the weights of ' + c.init_helper + '(d)'}",
                         contract=c.replace(init="zero")))
    if alg == "winnow":
        alt = {"halve": ("eliminate", "elimination instead of halving",
                         "on a false positive you set the weights to 0; this assignment halves them"),
               "eliminate": ("halve", "halving instead of elimination",
                             "on a false positive you halve the weights; this assignment sets them to 0"),
               "winnow2": ("halve", "factor 2 instead of alpha",
                           f"you double / halve; this assignment multiplies / divides by alpha = {c.factor}")}
        v, name, msg = alt[c.variant]
        out.append(Cause(name, msg, contract=c.replace(variant=v, factor=Fraction(2))))
        for th in ("n", "n/2"):
            if th != c.threshold:
                out.append(Cause("wrong threshold", f"the reference re-run with threshold {th} reproduces your "
                                 f"answers; the course's threshold is {c.threshold}", contract=c.replace(threshold=th)))
    if alg == "kernel_perceptron":
        other = "signed" if c.dual == "counts" else "counts"
        stores = {"signed": "the signed sum of y_i over the mistakes on example i (f = sum alpha_j K)",
                  "counts": "the number of mistakes on example i (f = sum alpha_j y_j K)"}
        out.append(Cause(f"alpha as {'signed sums' if other == 'signed' else 'mistake counts'}",
                         f"the reference re-run with alpha_i as {stores[other]} reproduces your answers; the "
                         f"course's dual form stores {stores[c.dual]}", contract=c.replace(dual=other)))
        if not c.kernel_bias:       # (with a bias, a term left out answers like "bias never updated")
            out.append(Cause("kernel bias term added", "this assignment's f has no bias term",
                             contract=c.replace(kernel_bias=True, returns="alpha_b")))
    return out


SHUFFLED = ("two runs on the same input gave different answers: do not shuffle (or use randomness); visit the "
            "examples in the course's order")


def handout_names(text: str, P) -> str:
    """A message written with w and b, in the handout's names (``[contract] names``)."""
    wn, bn = P.names
    if wn != "w":
        text = re.sub(r"\bw\b", wn, text)
    if bn != "b":
        text = re.sub(r"\bb\b", bn, text)
    return text


ROUNDING = 1e-5          # relative: answers this close to the reference's differ by rounding only


def rounding_only(P, exp, got) -> float:
    """The largest relative difference of ``got`` from ``exp`` when it is rounding only (every
    number within :data:`ROUNDING` of the reference's, relative, and the same shape); 0.0 otherwise."""
    if getattr(exp, "votes", None) is not None or got is None or got.w is None or len(got.w) != len(exp.w):
        return 0.0
    pairs = list(zip(got.w, exp.w))
    if exp.b is not None:
        if got.b is None:
            return 0.0
        pairs.append((got.b, exp.b))
    worst = 0.0
    for g, e in pairs:
        try:
            g, e = float(g), float(e)
        except (TypeError, ValueError, OverflowError):
            return 0.0
        if g != g:
            return 0.0
        rel = abs(g - e) / max(abs(e), 1e-300) if e else abs(g)
        if rel > ROUNDING:
            return 0.0
        worst = max(worst, rel)
    return worst


FRESH_ROUNDS = 3          # fresh processes that must agree before state kept between calls is named


def _same(P, a, b) -> bool:
    """Are two of the code's answers the same (as the grader compares answers)?"""
    if a is None or b is None:
        return a is b
    try:
        return P.compare(copy_answer(a, exact=True), b)[0]
    except (TypeError, ValueError, OverflowError):
        return False


KEPT = ("your code answers right on its first call in a fresh process and differently when called again "
        "with the same input: something outlives a call -- a mutable default argument (def __init__(self, "
        "w=[]) or def train(X, y, w=np.zeros(d)) is built once and shared by every call) or a module-level "
        "list; build the weights inside the call")


class Diagnoses:
    """The teaching feedback of one :class:`grading.checks.checks.Grader`'s failures.  Needs the grading's
    :class:`~grading.checks.checks_common.GradingContext` (the problem, the worker and a way to start a fresh
    one; the findings it records: diagnoses, nondeterministic, partial) and ``calls`` (the
    submission's and the reference's answers: :class:`grading.checks.checks.Calls`)."""

    def __init__(self, ctx, calls):
        self.ctx, self.calls = ctx, calls

    def explain(self, X, y, e, exp, got) -> str:
        P = self.ctx.problem
        lines = [f"input: X = {fmt_X(X)}, y = {P.student_labels(y)}, epochs = {e}"]
        if exp is not None:
            lines.append(f"expected: {P.show(exp)}")
            lines.append(f"yours:    {P.show(got)}")
            dep, step = self.first_departure(X, y, e)
            if dep:
                lines.append(dep)
            found = self.diagnose(X, y, e, exp, got)
            for n, m in found:
                lines.append(f"likely mistake: {n} -- {m}")
            rounding = rounding_only(P, exp, got)
            if rounding and not [n for n, _ in found if n != "inputs modified"]:
                tol = P.contract.tolerance
                lines.append(f"cause: rounding -- the only difference is rounding: your answers are within "
                             f"{rounding:.2g} (relative) of the reference's, beyond the tolerance {tol:g}; compute "
                             f"in float64 (not float32), updating w += (eta y) x and b += eta y as the course does"
                             + ("" if P.contract.arithmetic == "float" else
                                " -- or, if the course computes in float, set [contract] tolerance"))
            elif not [n for n, _ in found if n != "inputs modified"]:
                where = f"your run departs at step {step}" if step else "your final answer differs"
                lines.append(f"cause: not named -- no single change of the reference reproduces your answers "
                             f"exactly; {where}")
        return "\n".join(lines)

    def first_departure(self, X, y, e):
        """(text, step): re-run the student's code on prefixes of the reference's visiting sequence
        (passes unrolled into one, the examples fed in the order visited) and report the first step
        whose state differs from the reference's."""
        P = self.ctx.problem
        c = P.contract
        if not c.one_step_runs:
            return "", None
        run = self.calls.expected(X, y, e)[0].trace
        seq = [s.index for s in run.steps]
        Xu, yu = [X[i] for i in seq], [y[i] for i in seq]
        flat = c.replace(order="index", stop="epochs")
        n = len(X)
        for t in range(1, len(seq) + 1):
            exp = self.calls.expected(Xu[:t], yu[:t], 1, contract=flat)[0]
            try:
                got, _ = self.calls.call(Xu[:t], yu[:t], 1, order_override=True)
            except Failure as f:
                return f"first departure: step {t}: your code failed on the first {t} examples: {f.msg}", t
            ok, _ = P.compare(exp, got)
            if not ok:
                st = exp.trace.steps[t - 1]
                b0 = before_bias(exp.trace, t - 1) if P.has_bias else None
                start = Answer(w=list(before(exp.trace, t - 1)), b=b0)
                what = "a mistake (update)" if st.mistake else "no mistake (no update)"
                what = _penalized(STEP_TEXT.get(P.algorithm, {}).get(st.mistake, what), c)
                if P.algorithm == "weighted_majority":      # the answer's second number: the mistakes so far
                    start.b = sum(s.mistake for s in exp.trace.steps[:t - 1])
                if P.algorithm == "hedge":                  # ... the learner's loss so far
                    start.b = sum((s.activation for s in exp.trace.steps[:t - 1]), Fraction(0))
                    if c.hedge_weights == "normalized":     # shown as the answer would be
                        start.w = [v / sum(start.w) for v in start.w]
                return (f"first departure: step {t} (epoch {(t - 1) // n + 1}, example {seq[t - 1]}): your run departs "
                        f"at step {t}: the reference starts from {P.show(start)}, sees "
                        f"{ACTIVATION_TEXT.get(P.algorithm, 'activation')} "
                        f"{fmt_num(st.activation)} -> {what} -> {P.show(exp)}; yours gives {P.show(got)}"), t
        if c.order != "index":
            return ("first departure: none when the examples are fed one by one in the course's visiting order -- "
                    "your update agrees with the reference step by step; the difference is in the order your code "
                    "visits the examples or in the number of passes"), None
        if e > 1:
            return ("first departure: none when the passes are run as one long pass -- your code handles a single "
                    f"pass correctly but not epochs = {e} (check the number of passes and that each pass keeps w)"), None
        return "", None

    def diagnose(self, X, y, e, exp, got) -> list[tuple[str, str]]:
        """The causes confirmed on this input and the probes (see the module's docstring)."""
        P = self.ctx.problem
        cases = [(X, y, e, exp, got)]
        for (pX, py, pe) in P.probes():
            try:
                g, _ = self.calls.call(pX, py, pe)
            except Failure:
                continue
            cases.append((pX, py, pe, self.calls.expected(pX, py, pe)[0], g))
        found = []
        if self.ctx.nondeterministic or self._answers_vary(cases):
            self.ctx.nondeterministic = True
            if "state kept between calls" in self.ctx.diagnoses or self._keeps_state(cases):
                found.append(("state kept between calls", KEPT))
            else:
                found.append(("data shuffled", SHUFFLED))
        if not found:
            for cause in causes(P) + self._rate_causes(cases):
                if self._reproduces(cause, cases):
                    found.append((cause.name, cause.message))
        if self.ctx.modified_seen:
            found.append(("inputs modified", "your function changes X or y; copy before changing anything"))
        out = []
        for n, m in found:
            m = handout_names(m, P)
            if n not in self.ctx.diagnoses:
                self.ctx.diagnoses[n] = m
            if n not in [o[0] for o in out]:
                out.append((n, m))
        return out

    def convention_credit(self, X, y, e, got, more=(), whole_run=False) -> str:
        """Part of a failed test's points when its answers are the algorithm's under another tie
        convention, confirmed like a cause (this input and every probe): a run from w = 0 starts
        with a tie, so one convention bug changes nearly every answer, and the score should
        still say that the rest of the algorithm is right.  When only the ties before the run first
        leaves its start are resolved otherwise (the first step's tie: every later step follows the
        contract) the test is passed -- the tie is graded by the ties test; when the whole run
        follows another convention, ``convention_credit`` of its points (Winnow's random tests,
        ``whole_run``: passed, see below).  Sets ``self.ctx.partial``
        (1: passed); returns the line for the feedback ("" when no credit)."""
        P = self.ctx.problem
        c = P.contract
        frac = c.convention_credit
        if got is None or self.ctx.nondeterministic or c.style != "function":
            return ""
        ties = [k for k in causes(P) if k.convention]
        if not ties:
            return ""
        cases = [(X, y, e, None, got)]
        probes = list(P.probes())
        for (pX, py, pe) in probes + list(more):      # ``more``: the test's other inputs
            try:
                cases.append((pX, py, pe, None, self.calls.call(pX, py, pe)[0]))
            except Failure:
                return ""
        if all(_never_moved(c, cX, cgot) for cX, _, _, _, cgot in cases):
            return ""      # a run that never leaves its start (e.g. "return zeros") earns nothing, whatever convention it matches
        # only the first step's tie (the ties before the run first moves) resolved otherwise: confirmed
        # on the test's inputs and the probes that meet no later tie (on those the convention shows anyway)
        own = cases[:1] + cases[1 + len(probes):]
        clean = [k for k, (pX, py, pe) in zip(cases[1:], probes)
                 if not late_ties(self.calls.expected(pX, py, pe)[0].trace)] if not c.oracle else []
        for k in ties:
            if P.algorithm in ("perceptron", "kernel_perceptron") and not c.oracle and k.contract.ties != c.ties and \
                    self._reproduces(Cause(k.name, "", contract=c.replace(start_ties=k.contract.ties)), own + clean):
                self.ctx.partial = 1.0
                return (f"passed apart from the first step's tie: your answers are exactly the algorithm's once the "
                        f"tie{'s' if c.init == 'zero' else ''} before the first update {'are' if c.init == 'zero' else 'is'} "
                        f"resolved your way ({k.name}); every later step is right. The tie itself is graded by the "
                        "ties test")
        if whole_run and P.algorithm == "winnow" and not c.oracle:
            # Winnow starts at w = 1, and a tie w.x = theta can come at any step (with dyadic weights,
            # in about half of all random inputs): the tie rule runs through the whole run.  Keeping
            # the ties out of the random data would keep out most demotions as well, so the random
            # tests keep them, and answers that are exactly the algorithm's under the other tie rule
            # (this input, the test's others and every probe) pass there: the ties test grades the rule
            for k in ties:
                if self._reproduces(k, cases):
                    self.ctx.partial = 1.0
                    return (f"passed apart from the tie rule: your answers are exactly the algorithm's with ties "
                            f"resolved your way ({k.name}) on every input of this test; every other step is right. "
                            "The tie rule itself is graded by the ties test")
        if frac <= 0:
            return ""
        for k in ties:
            if self._reproduces(k, cases):
                self.ctx.partial = float(frac)
                return (f"partial credit: {float(frac):g} of this test's points -- your answers are exactly the algorithm's "
                        f"with one convention changed ({k.name}): a convention bug, not a wrong algorithm")
        return ""

    def _keeps_state(self, cases) -> bool:
        """Are the code's answers right on its first call in a fresh process and wrong on the next
        one with the same input?  Then something outlives a call: a mutable default argument
        (``def __init__(self, w=[])``, ``def train(X, y, w=np.zeros(2))``) or a module-level list.
        Run in a worker of its own, so the grading worker's history does not count -- and confirmed
        in :data:`FRESH_ROUNDS` fresh workers in all: kept state is deterministic, so every fresh
        process answers its first calls right again and its second calls as the others did, while
        code that shuffles with fresh randomness is right on a first call only by chance (a shuffle
        of a few examples that happens to give the reference's order), and not again and again."""
        P = self.ctx.problem
        if P.contract.style != "function" or not self.ctx.new_worker:
            return False
        seconds = None
        for _ in range(FRESH_ROUNDS):
            got = self._fresh_pairs(cases[:3])
            if got is None:
                return False
            if seconds is not None and not all(_same(P, a, b) for a, b in zip(seconds, got)):
                return False        # two fresh processes, two different second answers: randomness, not state
            seconds = got
        return True

    def _fresh_pairs(self, cases):
        """One fresh worker, each case called twice in it: the second answers when every first call
        is right and some second call is wrong, else None."""
        P = self.ctx.problem
        seen = False      # every first call right (a shuffle is not, unless by chance), and some second call wrong
        out = []
        for X, y, e, exp, _ in cases:
            saved, self.ctx.worker = self.ctx.worker, self.ctx.new_worker()
            try:
                first, _ = self.calls.call(X, y, e)
                second, _ = self.calls.call(X, y, e)
            except (Failure, TypeError, ValueError, OverflowError):
                return None
            finally:
                self.ctx.worker.close()
                self.ctx.worker = saved
            if not P.compare(exp, first)[0]:
                return None
            seen = seen or not P.compare(exp, second)[0]
            out.append(second)
        return out if seen else None

    def _answers_vary(self, cases) -> bool:
        """Does the code answer differently when called again on the same input?  The failing
        input and the probes, each called once more (a shuffle of a few examples can repeat by
        chance; over several inputs it does not)."""
        P = self.ctx.problem
        for _ in range(3):          # a shuffle of a few examples repeats by chance now and then: ask up to three times
            for X, y, e, _, got in cases:
                try:
                    again, _ = self.calls.call(X, y, e)
                    if not P.compare(copy_answer(got, exact=True), again)[0]:
                        return True
                except (Failure, TypeError, ValueError, OverflowError):
                    continue
        return False

    def _reproduces(self, cause, cases) -> bool:
        """Does the reference with this one change give the student's answers on every case?"""
        P = self.ctx.problem
        for X, y, e, _, got in cases:
            ee = cause.passes(e) if cause.passes else e
            try:
                if ee < 1:      # no pass at all: the start
                    run = self.calls.expected(X, y, 1)[0].trace
                    alt = Answer(w=list(run.initial_weights), b=run.initial_bias if P.has_bias else None)
                else:
                    alt = self.calls.expected(X, y, ee, contract=cause.contract, bugs=cause.bugs)[0]
            except CourseSolutionFailed:
                raise
            except Exception:  # noqa: BLE001 - a change the learners refuse for this input reproduces nothing
                return False
            if not P.compare(alt, got)[0]:
                return False
        return True

    def _rate_causes(self, cases) -> list[Cause]:
        """A learning rate: the student's answers are r times the reference's on every case; the
        candidate (re-run with eta' = r eta) is confirmed like any other."""
        P = self.ctx.problem
        c = P.contract
        if P.algorithm == "winnow" or c.init != "zero":
            return []
        r = _common_ratio(cases)
        if r is None or r == 1:
            return []
        eta = c.learning_rate * r
        if eta == 1:
            return []          # that is "learning rate ignored", a cause of its own
        if c.learning_rate == 1:
            msg = (f"your weights are {fmt_num(r)} times the reference's: the perceptron update has no step size "
                   "(w += y x, not w += eta y x)")
        else:
            msg = (f"the reference re-run with learning rate {fmt_num(eta)} reproduces your answers; the course's is "
                   f"{c.learning_rate}")
        return [Cause("learning rate", msg, contract=c.replace(learning_rate=eta))]


def _common_ratio(cases):
    """r such that the student's answer is r times the reference's on every case (None if not)."""
    r = None
    for _, _, _, exp, got in cases:
        if got.w is None or len(got.w) != len(exp.w):
            return None
        pairs = list(zip(got.w, exp.w))
        if exp.b is not None:
            if got.b is None:
                return None
            pairs.append((got.b, exp.b))
        for g, ref in pairs:
            try:
                g = Fraction(float(g))
            except (TypeError, ValueError, OverflowError):
                return None
            ref = Fraction(ref)
            if ref == 0:
                if g != 0:
                    return None
                continue
            q = g / ref
            if r is None:
                r = q
            elif abs(q - r) > Fraction(1, 10 ** 9) * max(1, abs(r)):   # exact: huge answers overflow floats
                return None
    if r is None or r <= 0:
        return None
    return r.limit_denominator(10 ** 6)


def _never_moved(c, X, got) -> bool:
    """Is the answer the contract's start itself (no update at all)?"""
    try:
        w0, b0 = c.initial_weights(len(X[0]))
        if c.algorithm == "kernel_perceptron":          # the dual's start: alpha = 0, one per example
            w0, b0 = [0] * len(got.w), 0
        w = [Fraction(v) for v in got.w]
        b = Fraction(got.b) if got.b is not None else Fraction(0)
    except (TypeError, ValueError, IndexError, AttributeError, OverflowError):
        return False
    return w == [Fraction(v) for v in w0] and b == Fraction(b0 or 0)
