"""The finite-class assignment shapes: the Halving algorithm and the Standard Optimal Algorithm
(Littlestone 1988; Shalev-Shwartz 2012, section 1.2; Blum's 15-859 notes), each called as
``halving(H, X, y)`` / ``soa(H, X, y)`` with H the class as its truth table (one row per
hypothesis, its labels on the domain 0..m-1), X the instances visited (indices into the domain)
and y their labels; the answer is the number of mistakes (or the steps that were mistakes) or the
predictions (``[contract] answer``).

The test inputs are realizable -- the labels are those of a hypothesis of H, as the mistake
bounds assume (log2 |H| for Halving, Ldim(H) for SOA) -- so that a version space never runs
empty.  Their rows are :class:`grading.references.reference_finite.Instance`\\ s carrying H.  The worst
cases are the adversary's: every labelling of k points against Halving's vote
(:func:`adversary.unit_worst.halving_worst`), the intervals' shattered tree walked against
Halving and SOA's own worst line on the intervals (:mod:`adversary.littlestone_worst`)."""
from __future__ import annotations

from grading.references.problems import Problem, fmt_vec
from grading.references.reference_finite import instances

__all__ = ["HalvingProblem", "SoaProblem", "FINITE_PROBLEMS", "FINITE_TITLES", "MAX_CLASS"]

MAX_CLASS = 12           # hypotheses in a generated class (the domain has at most [hypothesis] max_d points)


def _all_labellings(m):
    """Every labelling of m points, (+1, ..., +1) first."""
    return [[1 if not (c >> j) & 1 else -1 for j in range(m)] for c in range(2 ** m)]


def _case(H, pts, target):
    """(X, y) labelled by the hypothesis H[target]."""
    return instances(H, pts), [H[target][x] for x in pts]


class _FiniteProblem(Problem):
    """What Halving and SOA share: the answer (mistakes or predictions), the data, the edge cases."""
    wname = "V"          # the reference's state shown in feedback: the version space, 0/1 per hypothesis

    def _edge_cases(self):
        two = _all_labellings(2)              # [+1, +1], [-1, +1], [+1, -1], [-1, -1]
        out = {}
        for kind, what, H, pts, target in (
                ("one_example", "one step", [[1, -1, 1], [-1, -1, 1], [1, 1, -1]], [0], 1),
                ("one_feature", "one hypothesis (|H| = 1)", [[-1, 1, 1]], [0, 1, 2, 0], 0),
                # every step a tie, both ways against a +1 prediction: 2 mistakes under "predict+1", 0 under "-1"
                ("ties", "ties", two, [0, 1], 3),
                ("zero_vector", "every hypothesis agrees on the instances shown", [[1, -1, 1], [1, -1, -1]],
                 [0, 1, 0], 1),
                # the minority at x = 0 is right to leave V on a correct step: kept, it outvotes the target at x = 1
                ("repeated_examples", "the same instance repeated", [[1, 1], [1, -1], [-1, -1]], [0, 0, 1, 1], 0)):
            X, y = _case(H, pts, target)
            out[kind] = (what, X, y, 1)
        return out

    def _probes(self):
        return [_case(H, pts, t) + (1,) for H, pts, t in PROBES]

    def show(self, a) -> str:
        if a.trace is None and a.mistakes is None and a.mistake_steps is None and a.predictions is None:
            return f"V = {fmt_vec(a.w)}"          # a state of the reference (the first departure's start)
        return super().show(a)

    def strategy(self, scale: int = 1):
        from hypothesis import strategies as st
        s = self.spec

        @st.composite
        def data(draw):
            m = draw(st.integers(1, max(1, s.max_d)))
            k = draw(st.integers(1, min(2 ** m, MAX_CLASS)))
            codes = draw(st.lists(st.integers(0, 2 ** m - 1), min_size=k, max_size=k, unique=True))
            H = [[1 if (code >> j) & 1 else -1 for j in range(m)] for code in codes]
            target = draw(st.integers(0, k - 1))
            pts = draw(st.lists(st.integers(0, m - 1), min_size=1, max_size=s.max_n * scale))
            X, y = _case(H, pts, target)
            return X, y, 1
        return data()

    def invariant_data(self):
        return None


# inputs on which the common mistakes answer differently (tests/grading/test_grading_finite_class.py checks
# that each one changes the answer on some probe): (H, instances, index of the target hypothesis)
PROBES = [
    (_all_labellings(3), [0, 1, 2, 0, 1], 6),
    ([[1, 1, 1, 1], [1, 1, 1, -1], [1, 1, -1, -1], [1, -1, -1, -1], [-1, -1, -1, -1], [-1, 1, -1, 1]],
     [3, 2, 1, 0, 3], 1),
    ([[1, -1, -1, -1], [-1, 1, -1, -1], [-1, -1, 1, -1], [-1, -1, -1, 1], [-1, -1, -1, -1]], [0, 1, 2, 3, 0], 4),
    # the larger side at x = 3 is the one of smaller Littlestone dimension: SOA and Halving's vote part here
    ([[-1, 1, -1, 1], [-1, 1, -1, -1], [-1, -1, 1, 1], [-1, -1, -1, -1], [1, -1, 1, -1]], [3, 0, 1], 3),
]


class HalvingProblem(_FiniteProblem):
    algorithm = "halving"

    def _worst_cases(self):
        """Every labelling of 3 points, each label against Halving's vote (3 = log2 |H| mistakes),
        and the intervals of 0..4 with the points of their shattered tree labelled against
        Halving (Ldim = 3 mistakes): both from the adversary, certified there."""
        from adversary.littlestone_worst import tree_lower_row
        from adversary.unit_worst import halving_worst
        out = []
        r = halving_worst(3)["data"]
        H, y = r["H"], r["y"]
        out.append(("every labelling of 3 points, labels against the vote (adversary.unit_worst)",
                    instances(H, list(range(3))), list(y), 1))
        r = tree_lower_row(5)["data"]
        out.append(("the intervals of 0..4, their Ldim tree walked against Halving (adversary.littlestone_worst)",
                    instances(r["H"], r["points"]), list(r["y"]), 1))
        return out


class SoaProblem(_FiniteProblem):
    algorithm = "soa"

    def _worst_cases(self):
        """SOA's own worst line on the intervals of 0..4 (Ldim(H) mistakes, found by the
        adversary's exhaustive game) and the intervals' shattered tree walked against Halving."""
        from adversary.littlestone_worst import soa_row, tree_lower_row
        out = []
        r = soa_row(5)["data"]
        out.append(("the intervals of 0..4, SOA's worst line (adversary.littlestone_worst)",
                    instances(r["H"], r["points"]), list(r["y"]), 1))
        r = tree_lower_row(5)["data"]
        out.append(("the intervals of 0..4, their Ldim tree (adversary.littlestone_worst)",
                    instances(r["H"], r["points"]), list(r["y"]), 1))
        return out


FINITE_PROBLEMS = {"halving": HalvingProblem, "soa": SoaProblem}
FINITE_TITLES = {}
for _alg, _vote in (("halving", "an even vote"), ("soa", "Ldim(V_x^+) = Ldim(V_x^-)")):
    FINITE_TITLES.update({
        (_alg, "one_example"): "edge case: one step",
        (_alg, "one_feature"): "edge case: one hypothesis",
        (_alg, "ties"): f"edge case: ties ({_vote})",
        (_alg, "zero_vector"): "edge case: every hypothesis agrees",
        (_alg, "repeated_examples"): "edge case: the same instance repeated",
    })
