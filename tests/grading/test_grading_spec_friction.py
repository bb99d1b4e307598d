"""What an instructor meets writing a spec: a test the contract cannot offer is named with its
reason (not "unknown test"); ``return[0]`` meant as a tuple's element is refused at load with the
way out; the grading docs name every algorithm and every assignment ``grade --list`` ships."""
import os
import re

import pytest

from grading.spec.spec import ALGORITHMS, assignment_names, load_spec
from learners.errors import InputError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOC = open(os.path.join(ROOT, "docs", "grading.md"), encoding="utf-8").read()


def _load(tmp_path, text):
    p = tmp_path / "s.toml"
    p.write_text(text)
    return load_spec(str(p))


@pytest.mark.parametrize("head,test,why", [
    ('[assignment]\nalgorithm = "kernel_perceptron"\nmodule = "kp"\n[contract]\npasses = 5\n'
     '[contract.call]\nobject = "KP"\nmethod = "fit"\nargs = ["X", "y"]\n', "invariants",
     "passes = 5 makes several passes per call"),
    ('[assignment]\nalgorithm = "perceptron"\nstyle = "class"\n', "linear_time",
     "the online class style (predict/update) is graded step by step"),
    ('[assignment]\nalgorithm = "perceptron"\n[contract.call]\nargs = ["X", "y"]\n', "several_epochs",
     "the call passes no number of passes (T)"),
    ('[assignment]\nalgorithm = "perceptron"\n[contract.call]\nargs = ["X", "y", "T"]\n', "default_arguments",
     "declares no defaults"),
])
def test_a_known_test_the_spec_cannot_offer_is_named_with_its_reason(tmp_path, head, test, why):
    with pytest.raises(InputError) as e:
        _load(tmp_path, head + f"[tests.{test}]\npoints = 1\n")
    msg = str(e.value)
    assert f"test {test!r} is not offered under this spec" in msg and why in msg and "unknown test" not in msg
    with pytest.raises(InputError, match="unknown test 'nosuch'"):
        _load(tmp_path, head + "[tests.nosuch]\npoints = 1\n")


@pytest.mark.parametrize("key", ["weights", "bias"])
def test_return_index_is_refused_with_the_way_out(tmp_path, key):
    extra = 'weights = "return[w]"\nbias = "return[0]"\n' if key == "bias" else 'weights = "return[0]"\n'
    with pytest.raises(InputError) as e:
        _load(tmp_path, '[assignment]\nalgorithm = "perceptron"\n[contract.call]\nargs = ["X", "y", "T"]\n' + extra +
              "[tests.one_example]\npoints = 1\n")
    msg = str(e.value)
    assert f"contract.call.{key} 'return[0]' reads the key '0' of a returned dict" in msg
    assert "write an adapter (contract.adapter)" in msg and "\n" not in msg


def test_the_docs_name_every_algorithm_and_every_shipped_assignment():
    row = next(line for line in DOC.splitlines() if line.startswith("| `algorithm` |"))
    for alg in ALGORITHMS:
        assert f'"{alg}"' in row, alg
    table = DOC[DOC.index("## Assignments"):DOC.index("## The contract")]
    shipped = set(re.findall(r"^\| `([a-z_0-9]+)` \|", table, re.M))
    assert set(assignment_names()) <= shipped, set(assignment_names()) - shipped
    for name in assignment_names():
        assert load_spec(name).algorithm in ALGORITHMS
