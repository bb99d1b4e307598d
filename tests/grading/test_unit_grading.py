"""The online-learning unit's assignment shapes: a correct Weighted Majority / PA-I scores full
marks, and the common mistake of each is graded down and named."""
from __future__ import annotations

import os
from fractions import Fraction

import pytest

from grading.spec.contract_parse import parse_contract
from grading.running.grader import grade_batch
from grading.references.reference import reference_run
from grading.spec.spec import load_spec

EX = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "grading", "examples")
CASES = {"weighted_majority": "penalizes only on mistakes", "passive_aggressive": "step not capped at C"}


@pytest.mark.parametrize("assignment", sorted(CASES))
@pytest.mark.slow
def test_unit_assignment_grades_correct_and_buggy(assignment):
    names = sorted(os.listdir(os.path.join(EX, assignment)))
    assert names[0] == "correct" and len(names) == 2
    results, _ = grade_batch(assignment, [os.path.join(EX, assignment, n) for n in names], jobs=2)
    by = {r.name: r for r in results}
    good = by["correct"]
    assert good.score == good.max_score == load_spec(assignment).max_score and good.diagnoses == {}
    bad = by[names[1]]
    assert bad.score < bad.max_score / 2 + 2
    assert list(bad.diagnoses) == [CASES[assignment]], bad.diagnoses


def test_wm_reference_ties_and_bug():
    spec = load_spec("weighted_majority")
    X, y = [[1, -1], [-1, 1], [1, -1]], [-1, 1, 1]
    run = reference_run(spec.contract, X, y, 1)
    assert run.weights == (Fraction(1, 4), Fraction(1, 2)) and [s.mistake for s in run.steps] == [True, False, True]
    minus = reference_run(spec.contract.replace(ties="predict-1"), X, y, 1)
    assert [s.mistake for s in minus.steps] == [False, False, True] and minus.weights == run.weights
    lazy = reference_run(spec.contract, X, y, 1, bugs=frozenset({"update_only_on_mistakes"}))
    assert lazy.weights == (Fraction(1, 2), Fraction(1, 2))
    with pytest.raises(Exception, match="ties"):
        parse_contract({"ties": "mistake"}, algorithm="weighted_majority", style="function", entry="train",
                       bias=False, normalize=False, labels="pm1", kernel=None, src="x.toml", epochs=1)


def test_wm_tie_convention_is_graded_and_named(tmp_path):
    from grading.references.synth import solution_files
    spec = load_spec("weighted_majority")
    for name, src in solution_files(spec, learner=spec.contract.replace(ties="predict-1")).items():
        (tmp_path / name).write_bytes(src)
    results, _ = grade_batch("weighted_majority", [str(tmp_path)], jobs=1)
    r = results[0]
    ties = next(t for t in r.tests if t.kind == "ties")
    assert not ties.passed and "mistakes" in ties.output
    assert "ties predicted -1" in r.diagnoses, r.diagnoses
