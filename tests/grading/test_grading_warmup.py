"""The batch's shared warm-up (grading.running.warmup): computed once in the grading parent, it changes
no verdict -- the same submissions graded with it and without it (each grading process computing
everything itself) give the same reports, test by test: scores, messages (the first departure,
the causes named), diagnoses.  It runs no submission, and a grading process only ever holds a
copy of it.  And the linear-time test's shortcut for the reference's final answer
(grading.references.reference_final) agrees with the full reference on every shipped assignment's timed data."""
import os
import re

import pytest

from grading.checks import checks_properties
from grading.running import warmup
from grading.checks.checks import Grader
from grading.running.grader import grade_batch
from grading.references.reference import Answer
from grading.references.reference_final import final_answer
from grading.spec.shipped import shipped_names
from grading.spec.spec import load_spec

EX = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "grading", "examples")


def _report(results):
    """Everything a student is told, the measured seconds of the linear-time test masked (its
    verdict and the rest of its message are kept)."""
    out = []
    for r in results:
        tests = []
        for t in r.tests:
            msg = t.output
            if t.kind == "linear_time":
                # how a pass was read depends on the machine's speed ("too fast to measure its growth"
                # on a quick pass, the growth over the sizes otherwise): a pass keeps its verdict only
                msg = "passed" if t.passed else re.sub(r"\d+(\.\d+)?(e-?\d+)?", "#", msg)
            tests.append((t.kind, t.name, t.passed, t.score, t.points, t.hidden, msg, list(t.diagnoses)))
        out.append((r.name, r.score, r.max_score, r.note, r.fault, dict(r.diagnoses), tests))
    return out


@pytest.mark.parametrize("shape,samples", [
    ("raschka_perceptron", None),              # the course's solution as the oracle, its own start
    ("winnow_hw", None),
    ("perceptron", ["correct", "label_ignored"]),
])
def test_the_shared_warm_up_changes_no_verdict(shape, samples, tmp_path, monkeypatch):
    monkeypatch.setenv("MISTAKEBOUND_HIDDEN_SEED", "warm-up equivalence")     # the same hidden draws both ways
    samples = samples or sorted(os.listdir(os.path.join(EX, shape)))
    paths = []
    for s in samples:
        src = os.path.join(EX, shape, s)
        dst = tmp_path / s
        dst.mkdir()
        for f in os.listdir(src):
            if os.path.isfile(os.path.join(src, f)):          # not a __pycache__ left by a compile
                (dst / f).write_bytes(open(os.path.join(src, f), "rb").read())
        paths.append(str(dst))
    warmup.clear()
    with_plan, _ = grade_batch(shape, paths, jobs=2, shared=True)
    warmup.clear()
    without, _ = grade_batch(shape, paths, jobs=2, shared=False)
    assert _report(with_plan) == _report(without)
    assert any(r.score == r.max_score for r in with_plan)
    if len(samples) > 1:
        assert any(r.score < r.max_score for r in with_plan)      # a buggy one too: its first departure, its cause


def test_the_warm_up_runs_no_submission_and_is_handed_out_as_a_copy():
    spec = load_spec("perceptron")
    spec.hidden_seed = 12345
    blob = warmup.packed(spec)            # raises RunsNoSubmission if it ever called a worker
    assert len(blob) > 1000
    warmup.clear()
    warmup.install(blob)
    (key, ans), *_ = [(k, v) for k, v in checks_properties._SCALING_ANSWERS.items()]
    ans.w[0] = 10 ** 9                    # whatever a grading process does to its copy ...
    warmup.clear()
    warmup.install(blob)                  # ... the parent's plan is unchanged
    assert checks_properties._SCALING_ANSWERS[key].w[0] != 10 ** 9
    warmup.clear()

    class Calls:
        box = None
        alive = False
        starts = 0
        start_error = None

        def __init__(self, *a):
            pass

        def call(self, *a, **k):
            raise warmup.RunsNoSubmission("called")

    g = Grader(spec, Calls)
    with pytest.raises(warmup.RunsNoSubmission):   # never swallowed as "left to the test"
        warmup._try(g.call, [[1.0]], [1], 1, limit=1.0)


def test_the_final_answer_shortcut_agrees_with_the_full_reference():
    used = []
    for name in shipped_names():
        spec = load_spec(name)
        if not spec.tests or spec.contract is None or spec.contract.oracle or spec.contract.init == "own":
            continue
        g = Grader(spec, warmup._NoWorker)
        c = spec.contract
        for n in (512, 1024):
            X, y = g.properties._scaling_data(n, 0)
            fast = final_answer(c, X, y, 1)
            if fast is None:
                continue
            full = g.problem.expected(X, y, 1)
            assert (list(fast.w), fast.b, fast.mistakes) == (list(full.w), full.b, full.mistakes), (name, n)
            assert g.problem.compare(full, Answer(w=[float(v) for v in fast.w], b=fast.b))[0]
            used.append(name)
    assert {"perceptron", "fixed_passes", "until_no_mistake", "utah_perceptron"} <= set(used), used


def test_the_shortcut_agrees_under_every_tie_convention():
    from grading.spec.contract import TIES
    seen = 0
    for name in ("perceptron", "utah_perceptron", "fixed_passes", "sklearn_perceptron"):
        spec = load_spec(name)
        g = Grader(spec, warmup._NoWorker)
        X, y = g.properties._scaling_data(512, 1)
        for t in TIES["perceptron"]:
            c = spec.contract.replace(ties=t)
            fast = final_answer(c, X, y, 1)
            assert fast is not None, (name, t)
            full = g.problem.expected(X, y, 1, contract=c)
            assert (list(fast.w), fast.b, fast.mistakes) == (list(full.w), full.b, full.mistakes), (name, t)
            seen += 1
    assert seen >= 12


def test_the_shortcut_stands_aside_where_it_is_not_certified():
    spec = load_spec("perceptron")
    c = spec.contract
    assert final_answer(c.replace(step="1/(j+1)"), [[1.0]], [1]) is None          # a step per example
    assert final_answer(c, [[0.1, 0.2]], [1]) is None                 # 0.1 is not dyadic: no certificate
    assert final_answer(c, [[0.5, 0.25]], [1]) is not None


def test_the_warm_up_in_two_processes_holds_what_one_process_computes():
    import pickle

    from grading.running.batch import pool_context
    spec = load_spec("fixed_passes")
    spec.hidden_seed = 424242
    one = pickle.loads(warmup.packed(spec))
    two = pickle.loads(warmup.packed_in_two(spec, pool_context()))
    assert {k: set(v) for k, v in one.items()} == {k: set(v) for k, v in two.items()}
    assert one["cases"] == two["cases"] and len(one["cases"]) == 2          # the visible and the hidden draws
    for k, (ans, _) in one["expected"].items():                            # answers equal, times measured anew
        assert (ans.w, ans.b) == (two["expected"][k][0].w, two["expected"][k][0].b)
    warmup.clear()
