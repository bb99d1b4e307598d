"""The suite's own solution is written from a real module: grading/references/synth_body.py imports (its
constants neutral stand-ins for the classic perceptron), its functions run, and every generated
solution carries the file's code below its ``# --- body ---`` line, unchanged."""
from fractions import Fraction

import grading.references.synth_body as sb
from grading.references.reference import reference_run
from grading.spec.shipped import shipped_names
from grading.spec.spec import load_spec
from grading.references.synth import MARKER, body, solution_source


def test_the_body_is_a_module_whose_functions_run():
    X, y = [[1.0, 0.5], [-0.5, 1.0], [0.0, -1.0], [0.25, 0.25]], [1, -1, 1, -1]
    data = sb._bind((X, y), {"epochs": 3}, sb.POS_REFS, sb.KW_REFS)
    w, b = sb._answer(sb._train(data))
    run = reference_run(load_spec("perceptron").contract, X, y, 3)
    assert [Fraction(v) for v in w] == list(run.weights) and Fraction(b) == run.bias


def test_every_generated_solution_carries_the_files_body():
    text = open(sb.__file__, encoding="utf-8").read()
    assert text.count("\n" + MARKER + "\n") == 1
    shared = body()
    assert shared.strip() and "def _train(data):" in shared and "ALG = " not in shared
    n = 0
    for name in shipped_names():
        s = load_spec(name)
        if s.contract is None or s.contract.adapter or s.style != "function":
            continue
        src = solution_source(s.contract)
        assert shared in src
        compile(src, name, "exec")
        n += 1
    assert n >= 10
