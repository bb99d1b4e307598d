"""Course shapes graded as written, with a spec and no adapter: a correct implementation gets
full marks, one typical mistake loses points with the right cause named.

* a wrong default argument caught on the scikit-learn shape (the shipped shapes' samples are graded
  in test_grading_example_courses.py);
* contracts drawn by hypothesis (labels, arrays, column labels, visiting order, tie convention,
  learning rate, start, return layout, call shape, Winnow and kernel variants) on the suite's
  own solution for that contract (grading/references/synth.py), correct and with one change.
The graders' inputs are hypothesis-generated too (the ``random`` test)."""
import os
import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grading.running.grader import grade_submission
from grading.spec.spec import load_spec
from grading.references.synth import solution_files

from example_courses import EX
def test_a_wrong_default_is_caught(tmp_path):
    sub = tmp_path / "wrong_default"
    shutil.copytree(os.path.join(EX, "sklearn_perceptron", "correct"), sub)
    p = sub / "linear_model.py"
    p.write_text(p.read_text().replace("max_iter=5", "max_iter=1"))
    spec = load_spec("sklearn_perceptron")
    spec.tests = [t for t in spec.tests if t.kind in ("default_arguments", "several_epochs")]
    r = grade_submission(spec, str(sub))
    by = {t.kind: t for t in r.tests}
    assert by["several_epochs"].passed and not by["default_arguments"].passed
    assert "your defaults are not the handout's" in by["default_arguments"].output


# --- contracts drawn by hypothesis, on the suite's own solution ---------------------------------
def _toml(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_toml(x)}" for k, x in v.items()) + " }"
    if isinstance(v, list):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    return str(v)


@st.composite
def course(draw):
    """(spec text, learner changes, bugs, the cause the diagnosis must name)."""
    alg = draw(st.sampled_from(["perceptron", "winnow", "kernel_perceptron"]))
    a = {"algorithm": alg, "module": "course", "entry": "learn", "labels": draw(st.sampled_from(["pm1", "01", "bool"])),
         "max_epochs": 3}
    c = {"inputs": draw(st.sampled_from(["lists", "numpy"])), "order": draw(st.sampled_from(["index", "get_order"]))}
    if c["inputs"] == "lists" and draw(st.booleans()):
        c["label_shape"] = "column"
    data = ["K"] if alg == "kernel_perceptron" and draw(st.booleans()) else \
        (["X", "kernel"] if alg == "kernel_perceptron" else ["X"])
    if data[0] == "X" and draw(st.integers(0, 3)) == 0:
        c["x_layout"] = "columns"          # X is d x n: one column per example
    shape = draw(st.sampled_from(["positional", "keyword", "object", "repeat", "constructor"]))
    call = {}
    if shape == "positional":
        call["args"] = [data[0], "y"] + data[1:] + ["T"]
    elif shape == "keyword":
        call["args"] = [data[0], "y"] + data[1:]
        call["kwargs"] = {"n_iter": "T"}
        call["defaults"] = {"n_iter": 2}
    elif shape == "constructor":       # the data go to the constructor, with a validation set; train(T)
        call.update(object="Model", init_args=[data[0], "y"] + data[1:] + ["X_val", "y_val"], method="train",
                    args=["T"])
    else:
        call.update(object="Learner", method="train" if shape == "repeat" else "fit", args=[data[0], "y"] + data[1:])
        if shape == "repeat":
            call["repeat"] = "T"
        else:
            call["init_kwargs"] = {"epochs": "T"}
    causes = []
    if alg == "perceptron":
        a["bias"] = draw(st.booleans())
        c["ties"] = draw(st.sampled_from(["mistake", "predict+1", "predict-1"]))
        c["returns"] = draw(st.sampled_from(["w_b", "w_bias_first", "w_bias_last"])) if a["bias"] else "w"
        if draw(st.booleans()):
            c["learning_rate"] = "1/2"
            causes.append(({"learning_rate": 1}, (), "learning rate ignored"))
        other = {"mistake": "predict-1", "predict+1": "mistake", "predict-1": "no_mistake"}[c["ties"]]
        causes.append(({"ties": other}, (), {"predict-1": "ties predicted -1", "mistake": "ties counted as mistakes",
                                             "no_mistake": "ties not counted as mistakes"}[other]))
        causes.append(({}, ("label_ignored",), "label ignored"))
        init = draw(st.sampled_from(["zero", "zero", "given", "random:5"]))
        if init == "given":
            c["init"] = "given"
            call["args"] = call.get("args", []) + ["w0", "b0"] if shape != "constructor" else call["args"]
            if shape == "constructor":
                call["init_args"] = call["init_args"] + ["w0", "b0"]
            causes.append(({"init": "zero"}, (), "start weights ignored"))
        elif init.startswith("random"):
            c["init"] = init
            c["supplied"] = ["initial_weights"]
            causes.append(({"init": "zero"}, (), "start weights ignored"))
        if a["bias"]:
            causes.append(({}, ("bias_sign_flipped",), "bias sign flipped"))
        if shape == "object" and c["returns"] == "w_b":
            call.update(weights="w_", bias="b_")
    elif alg == "winnow":
        c["threshold"] = draw(st.sampled_from(["n", "n/2"]))
        c["variant"] = draw(st.sampled_from(["halve", "eliminate"]))
        causes.append(({"ties": "predict-1"}, (), "ties not counted as mistakes"))
        causes.append(({"variant": "eliminate" if c["variant"] == "halve" else "halve"}, (),
                       "elimination instead of halving" if c["variant"] == "halve" else "halving instead of elimination"))
        causes.append(({"threshold": "n/2" if c["threshold"] == "n" else "n"}, (), "wrong threshold"))
    else:
        c["dual"] = draw(st.sampled_from(["signed", "counts"]))
        if draw(st.booleans()):
            c["kernel_bias"] = True
            c["returns"] = "alpha_b"
            causes.append(({"kernel_bias": False, "returns": "alpha"}, (), "kernel bias term missing"))
        causes.append(({"dual": "counts" if c["dual"] == "signed" else "signed"}, (),
                       "alpha as mistake counts" if c["dual"] == "signed" else "alpha as signed sums"))
        causes.append(({"ties": "no_mistake"}, (), "ties not counted as mistakes"))
    causes.append(({"order": "get_order" if c["order"] == "index" else "index"}, (), "visits data in a different order"))
    if shape != "repeat":           # with repeat = "T" every call is one pass by design
        causes.append(({}, ("one_pass",), "wrong number of passes"))
    change, bugs, cause = draw(st.sampled_from(causes))
    c["call"] = call
    text = "[assignment]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in a.items())
    text += "[contract]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in c.items() if k != "call")
    text += "[contract.call]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in call.items())
    text += "[hypothesis]\nmax_examples = 12\nmax_n = 6\n"
    for kind in ("ties", "several_epochs", "random", "worst_case"):
        text += f"[tests.{kind}]\npoints = 1\n"
    return text, change, bugs, cause


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(course())
@pytest.mark.slow
def test_drawn_contracts_correct_full_marks_one_change_named(tmp_path_factory, drawn):
    from fractions import Fraction
    text, change, bugs, cause = drawn
    tmp = tmp_path_factory.mktemp("course")
    path = tmp / "course.toml"
    path.write_text(text)
    spec = load_spec(str(path))
    learner = spec.contract.replace(**{k: (Fraction(v) if k == "learning_rate" else v) for k, v in change.items()})
    subs = []
    for name, files in (("ok", solution_files(spec)), ("bug", solution_files(spec, learner=learner, bugs=bugs))):
        d = tmp / name
        d.mkdir()
        for f, data in files.items():
            (d / f).write_bytes(data)
        subs.append(str(d))
    ok, bug = (grade_submission(spec, p) for p in subs)
    assert ok.score == ok.max_score, (text, [(t.name, t.output) for t in ok.tests if not t.passed])
    assert bug.score < bug.max_score, (text, change, bugs)
    assert cause in bug.diagnoses, (text, change, bugs, bug.diagnoses,
                                    [t.output for t in bug.tests if not t.passed])
    assert "data shuffled" not in bug.diagnoses


@pytest.mark.parametrize("spec,growth", [("mit_perceptron", "quadratic growth"), ("dual_kernel", "cubic growth"),
                                         ("kernel_perceptron", "kernel evaluations per pass grew x64")])
@pytest.mark.slow
def test_super_linear_cost_is_named_with_the_sizes(tmp_path, spec, growth):
    from grading.spec.spec import TestSpec
    s = load_spec(spec)
    s.tests = [TestSpec(kind="linear_time")]
    # wall-clock limits far above what a loaded machine needs: the verdict then comes from the
    # worker's CPU time (and the kernel-call counts), never from the 5 s default cap
    s.time_floor = 120.0
    for name, bugs in (("slow", ["quadratic"]), ("ok", [])):
        d = tmp_path / name
        d.mkdir()
        for f, data in solution_files(s, bugs=bugs).items():
            (d / f).write_bytes(data)
    # CPU-time growth at small sizes can be blurred on a heavily loaded machine: the grader then errs
    # towards passing (never towards flagging correct code), so a missed detection gets one more try
    slow = grade_submission(s, str(tmp_path / "slow"))
    if slow.tests[0].passed:
        slow = grade_submission(s, str(tmp_path / "slow"))
    ok = grade_submission(s, str(tmp_path / "ok"))
    out = slow.tests[0].output
    assert not slow.tests[0].passed and "super-linear cost" in slow.diagnoses
    assert growth in out and "n = " in out and out.count("n = ") >= 3       # the sizes it saw
    assert ok.tests[0].passed, ok.tests[0].output
