"""The online-learning unit's assignment shapes: Weighted Majority (``train(X, y)`` with X the
T x n table of the experts' advice, +1/-1, returns (the n weights, the number of mistakes);
beta = 1/2) and
Passive-Aggressive (PA-I with C = 1, no bias, returns w) and Hedge (``hedge(L, beta)`` with L the
T x n loss table, losses k/4 in [0, 1], returns (the n final weights, the learner's total loss);
Freund & Schapire 1997).  The data, as for the perceptron
family, are small dyadic rationals so that a float answer is compared exactly.  Halving and SOA
over a finite class: :mod:`grading.references.problems_finite`."""
from __future__ import annotations

from grading.references.problems_finite import FINITE_PROBLEMS, FINITE_TITLES
from grading.references.problems import Problem, _adversary_sequences, _dyadic, _pm1_data, fmt_num, fmt_vec, make_problem
from grading.references.reference import Answer, reference_run

__all__ = ["WeightedMajorityProblem", "PassiveAggressiveProblem", "HedgeProblem", "UNIT_PROBLEMS", "UNIT_TITLES",
           "make_any_problem"]


class WeightedMajorityProblem(Problem):
    """The answer is (weights, mistakes): the weights alone do not depend on the predictions."""
    algorithm = "weighted_majority"

    def _has_bias(self, c) -> bool:
        return True                     # the second number of the answer: the learner's mistakes

    def expected(self, X, y, epochs, *, contract=None, bugs=frozenset()) -> Answer:
        c = contract or self.contract
        run = reference_run(c, X, y, epochs, bugs=frozenset(bugs))
        return Answer(w=list(run.weights), b=run.mistakes, mistakes=run.mistakes, trace=run)

    def compare(self, exp: Answer, got: Answer) -> tuple[bool, str]:
        ok, msg = super().compare(exp, got)
        return ok, msg.replace("bias is", "the number of mistakes is").replace("(w, b)", "(weights, mistakes)")

    def show(self, a: Answer) -> str:
        return f"w = {fmt_vec(a.w)}, mistakes = {fmt_num(a.b)}"

    def _edge_cases(self):
        return {
            "one_example": ("one step, three experts", [[1.0, -1.0, 1.0]], [-1], 1),
            "one_feature": ("one expert", [[1.0], [-1.0], [1.0], [1.0]], [1, 1, -1, 1], 1),
            "ties": ("ties: W(+1) = W(-1) predicts +1", [[1.0, -1.0], [-1.0, 1.0], [1.0, -1.0]], [-1, 1, 1], 1),
            "zero_vector": ("every expert agrees", [[1.0, 1.0, 1.0], [-1.0, -1.0, -1.0]], [-1, -1], 1),
            "repeated_examples": ("repeated steps", [[1.0, -1.0, -1.0]] * 4, [1, 1, -1, 1], 1),
            "several_epochs": ("several passes (epochs = 3)", [[1.0, -1.0], [-1.0, 1.0], [1.0, 1.0]], [1, 1, -1], 3),
            "negative_fractional": ("many experts", [[1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0]] * 3
                                    + [[-1.0, -1.0, 1.0, 1.0, -1.0, -1.0, 1.0]], [-1, -1, 1, 1], 1),
        }

    def _probes(self):
        return [([[1.0, -1.0, 1.0], [-1.0, -1.0, 1.0], [1.0, 1.0, -1.0], [-1.0, 1.0, 1.0]], [1, -1, -1, 1], 1),
                ([[1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]], [-1, 1, 1], 1)]

    def strategy(self, scale: int = 1):
        from hypothesis import strategies as st
        return _pm1_data(self.spec, st.sampled_from([1.0, -1.0]), self.spec.max_d, scale)

    def _worst_cases(self):
        """Two constant experts, every label against the learner (no deterministic learner beats
        2m), and 2^k experts that are every labelling (Halving's log2 |H|)."""
        T = 12
        out = [("experts +1 and -1, labels against the learner", [[1.0, -1.0]] * T,
                [-1 if t % 2 == 0 else 1 for t in range(T)], 1)]
        k = 3
        H = [[1.0 if (h >> j) & 1 else -1.0 for h in range(2 ** k)] for j in range(k)]
        out.append(("2^3 experts, every labelling of 3 steps", H, [-1, -1, 1], 1))
        return out

    def invariant_data(self):
        return None


class PassiveAggressiveProblem(Problem):
    algorithm = "passive_aggressive"

    def _edge_cases(self):
        q = _dyadic
        return {
            "one_example": ("one example", [[1.0, 2.0]], [1], 1),
            "one_feature": ("d = 1 (one feature)", [[1.0], [-2.0], [0.5], [3.0], [-1.0]], [1, -1, 1, -1, 1], 1),
            "ties": ("ties: w.x = 0 has loss 1", [[1.0, 1.0], [-1.0, 1.0], [1.0, -1.0]], [1, 1, -1], 1),
            "zero_vector": ("zero vectors", [[0.0, 0.0, 0.0], [1.0, 0.0, 2.0], [0.0, 0.0, 0.0]], [-1, 1, 1], 2),
            "repeated_examples": ("repeated examples", [[1.0, -1.0]] * 3 + [[-2.0, 1.0]] * 2, [-1, -1, 1, 1, 1], 1),
            "several_epochs": ("several epochs (epochs = 3)", [[1.0, 1.0], [-1.0, 0.5], [0.5, -1.0], [-0.5, -0.5]],
                               [1, -1, -1, 1], 3),
            "negative_fractional": ("negative and non-integer values", [[q(-3), q(5)], [q(7), q(-2)], [q(-1), q(-9)]],
                                    [1, -1, -1], 2),
        }

    def _probes(self):
        return [([[0.25, 0.5], [2.0, 0.0], [0.0, -0.5], [1.0, 1.0]], [1, -1, 1, -1], 1),
                ([[0.5, 0.0], [0.0, 0.25], [-0.5, 0.5]], [1, -1, 1], 2)]

    def strategy(self, scale: int = 1):
        from hypothesis import strategies as st
        return _pm1_data(self.spec, st.integers(-8, 8).map(_dyadic), self.spec.max_d, scale)

    def _worst_cases(self):
        E = [[1.0 if i == j else 0.0 for j in range(4)] for i in range(4)]
        return [("orthonormal e_1..e_4 (every loss is 1)", E, [1, -1, 1, -1], 1)] + \
            _adversary_sequences("passive_aggressive", self.spec)

    def invariant_data(self):
        return None


def _q(k):
    """The loss k/4 (float64 holds it)."""
    return k / 4


class HedgeProblem(Problem):
    """The input is the loss table X (T x n, one row per step); y is not passed (the call is
    ``hedge(L, beta)``).  The answer is (the final weights, the learner's total loss), each
    compared to the contract's tolerance: the learner's loss is a quotient float64 rounds."""
    algorithm = "hedge"

    def _has_bias(self, c) -> bool:
        return True                     # the second number of the answer: the learner's total loss

    def expected(self, X, y, epochs, *, contract=None, bugs=frozenset()) -> Answer:
        c = contract or self.contract
        run = reference_run(c, X, y, 1, bugs=frozenset(bugs))
        return Answer(w=list(run.weights), b=run.extras["hedge_loss"], mistakes=run.mistakes, trace=run)

    def compare(self, exp: Answer, got: Answer) -> tuple[bool, str]:
        ok, msg = super().compare(exp, got)
        return ok, msg.replace("bias is", "the learner's total loss is").replace("(w, b)", "(weights, total loss)")

    def show(self, a: Answer) -> str:
        return f"w = {fmt_vec(a.w)}, total loss = {fmt_num(a.b)}"

    def _edge_cases(self):
        return {
            "one_example": ("one step, three experts", [[_q(1), _q(4), 0.0]], [1], 1),
            "one_feature": ("one expert", [[_q(2)], [_q(4)], [0.0], [_q(3)]], [1] * 4, 1),
            "ties": ("losses 0 and 1 only (beta^0 = 1, beta^1 = beta)", [[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]],
                     [1] * 3, 1),
            "zero_vector": ("every loss 0 (the weights stay 1)", [[0.0, 0.0, 0.0]] * 3, [1] * 3, 1),
            "repeated_examples": ("repeated steps", [[_q(1), _q(3), _q(2)]] * 4, [1] * 4, 1),
            "negative_fractional": ("fractional losses, many experts",
                                    [[_q(k % 5) for k in range(t, t + 7)] for t in range(4)], [1] * 4, 1),
        }

    def _probes(self):
        """Inputs on which the causes answer differently: fractional losses (beta^l against beta once
        or beta^-l), and a zero row (normalising changes nothing there)."""
        return [([[_q(1), _q(3), _q(2)], [_q(4), 0.0, _q(1)], [_q(2), _q(2), _q(3)]], [1] * 3, 1),
                ([[_q(2), _q(1)], [0.0, 0.0], [_q(3), _q(4)]], [1] * 3, 1)]

    def strategy(self, scale: int = 1):
        from hypothesis import strategies as st
        return _pm1_data(self.spec, st.integers(0, 4).map(_q), self.spec.max_d, scale)

    def _worst_cases(self):
        """Two experts whose losses alternate 1/0 (the learner pays about half each step, the best
        expert T/2), and one expert that is always right among always-wrong ones (L* = 0: the bound
        is ln N / (1 - beta))."""
        T = 12
        alt = [[1.0, 0.0] if t % 2 == 0 else [0.0, 1.0] for t in range(T)]
        one = [[0.0] + [1.0] * 7 for _ in range(T)]
        return [("two experts, losses alternating 1/0", alt, [1] * T, 1),
                ("8 experts, one never loses", one, [1] * T, 1)]

    def invariant_data(self):
        return None


UNIT_TITLES = {
    ("hedge", "ties"): "edge case: losses 0 and 1 only",
    ("hedge", "one_feature"): "edge case: one expert",
    ("hedge", "zero_vector"): "edge case: every loss 0",
    ("hedge", "negative_fractional"): "edge case: fractional losses, many experts",
    ("hedge", "one_example"): "edge case: one step",
    ("hedge", "repeated_examples"): "edge case: repeated steps",
    ("weighted_majority", "ties"): "edge case: ties W(+1) = W(-1)",
    ("weighted_majority", "one_feature"): "edge case: one expert",
    ("weighted_majority", "zero_vector"): "edge case: every expert agrees",
    ("weighted_majority", "negative_fractional"): "edge case: many experts",
    ("weighted_majority", "one_example"): "edge case: one step",
    ("weighted_majority", "repeated_examples"): "edge case: repeated steps",
    ("passive_aggressive", "ties"): "edge case: w.x = 0 (loss 1)",
}
UNIT_TITLES.update(FINITE_TITLES)
UNIT_PROBLEMS = {"weighted_majority": WeightedMajorityProblem, "passive_aggressive": PassiveAggressiveProblem,
                 "hedge": HedgeProblem, **FINITE_PROBLEMS}


def make_any_problem(spec) -> Problem:
    """:func:`grading.references.problems.make_problem`, and the unit's shapes."""
    cls = UNIT_PROBLEMS.get(spec.algorithm)
    return cls(spec) if cls is not None else make_problem(spec)
