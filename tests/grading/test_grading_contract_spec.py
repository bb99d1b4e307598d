"""The [contract] section of a spec: every bad key is one line naming it (exit 2 on the command
line), the defaults keep the shipped assignments as they were, every option has help text."""
import os
import subprocess
import sys

import pytest

from grading.spec.spec import assignment_names, load_spec
from learners.errors import InputError

MB = [sys.executable, "-m", "mistakebound"]
HEAD = '[assignment]\nalgorithm = "{alg}"\n{extra}\n[tests.ties]\npoints = 1\n'

BAD = [
    ("perceptron", '[contract]\ninputs = "tensor"', "contract.inputs must be one of lists, numpy, pandas; got 'tensor'"),
    ("perceptron", "[contract]\ncolour = 1", "unknown key 'colour' in [contract]"),
    ("perceptron", '[contract]\norder = "random"', "contract.order must be one of index, get_order, shuffle:SEED"),
    ("perceptron", '[contract]\nties = "maybe"', "contract.ties must be one of mistake, no_mistake, predict+1"),
    ("perceptron", "[contract]\nlearning_rate = -1", "contract.learning_rate must be positive"),
    ("perceptron", '[contract]\nlearning_rate = "fast"', "contract.learning_rate must be a number"),
    ("perceptron", "[contract]\nthreshold = 3", "contract.threshold is a Winnow option"),
    ("winnow", "[contract]\nlearning_rate = 2", "contract.learning_rate is a perceptron and kernel-perceptron option"),
    ("winnow", "[contract]\nfactor = 3", "contract.factor is the Winnow2 factor"),
    ("winnow", '[contract]\nthreshold = "m"', "contract.threshold must be a number"),
    ("perceptron", '[contract.call]\nargs = ["X", "labels"]', "contract.call.args names unknown test data 'labels'"),
    ("perceptron", '[contract.call]\nargs = ["X", "y"]\nweights = "coef_"', "contract.call.weights names an attribute"),
    ("perceptron", '[contract.call]\nargs = ["X", "y"]\nkwargs = {epochs = "T"}\ndefaults = {T = 1}',
     "contract.call.defaults names 'T', which is not a keyword"),
    ("perceptron", '[contract.call]\nargs = ["X"]', "contract.call passes no labels (y)"),
    ("perceptron", '[contract.call]\nmetod = "fit"', "unknown key 'metod'"),
    ("perceptron", '[contract.call]\nobject = "P"\nargs = ["X", "y"]', "contract.call.method is required"),
    ("perceptron", '[contract]\nreturns = "w"', "contract.returns \"w\" has no place for the bias"),
    ("perceptron", '[contract]\nsupplied = ["helper"]', "contract.supplied names 'helper'"),
    ("perceptron", '[contract]\ninit = "random:1"', "contract.init \"random:SEED\" needs the grader to supply"),
    ("perceptron", '[contract]\nstop = "converged"\n[contract.call]\nargs = ["X", "y"]',
     "contract.stop \"converged\" needs a maximum number of passes: T in the call"),
    ("winnow", '[contract]\nmargin = 0', "contract.margin is stated for labels +1/-1"),
    ("perceptron", '[contract]\nmargin = 0', "contract.margin is a Winnow option"),
    ("perceptron", '[contract]\norder = "global_permutation"', "set contract.seed"),
    ("perceptron", '[contract]\nseed = -1', "contract.seed must be an integer"),
    ("perceptron", '[contract]\nx_dtype = "int"', "contract.x_dtype 'int' holds only Winnow's 0/1 features"),
    ("perceptron", '[contract]\npasses = 5', "contract.passes is for a call without T"),
    ("perceptron", '[contract]\nnames = {w = "theta"}', "contract.names must be a table"),
    ("perceptron", '[contract]\nconvention_credit = 1', "contract.convention_credit must be in [0, 1)"),
    ("perceptron", '[contract.call]\nargs = ["X", "y"]\nweights = "return[]"', "return[KEY] needs a plain key"),
    ("perceptron", '[contract.call]\nargs = ["X", "y"]\nweights = "return[W]"\nbias = "b_"',
     "must both be keys of the returned dict"),
    ("winnow", '[contract.call]\nargs = ["X", "y", "alpha"]', "passes alpha, the Winnow2 factor"),
    ("perceptron", '[contract.call]\nargs = ["X", "y", "K"]', "passes the Gram matrix K"),
    ("perceptron", '[contract.call]\nargs = ["X", "y"]\nrepeat = "n"', "contract.call.repeat must be \"T\""),
    ("perceptron", '[contract.call]\nargs = ["X", "y", {text = 1}]', "a table argument must be { literal = ... }"),
    ("perceptron", '[contract]\naverage = "median"', "contract.average must be one of none, sum, mean, voted"),
    ("winnow", '[contract]\naverage = "mean"', "contract.average is a perceptron option"),
    ("perceptron", '[contract]\naverage_start = true', "contract.average_start says whether the start is averaged"),
    ("perceptron", '[contract]\naverage = "sum"\naverage_start = 1', "contract.average_start must be true or false"),
    ("perceptron", '[contract]\naverage = "mean"\n[contract.call]\nargs = ["X", "y"]\nrepeat = "T"',
     "contract.average and call.repeat together"),
]


@pytest.mark.parametrize("alg,extra,msg", BAD, ids=[m[:40] for _, _, m in BAD])
def test_bad_contract_key_is_one_line_naming_it(tmp_path, alg, extra, msg):
    p = tmp_path / "bad.toml"
    p.write_text(HEAD.format(alg=alg, extra="") + extra + "\n")
    with pytest.raises(InputError) as e:
        load_spec(str(p))
    text = str(e.value)
    assert "\n" not in text and msg in text, text
    assert text.startswith("bad.toml: ")


def test_labels_accept_booleans_and_winnow_takes_any_encoding(tmp_path):
    p = tmp_path / "w.toml"
    p.write_text('[assignment]\nalgorithm = "winnow"\nlabels = "bool"\n[tests.ties]\npoints = 1\n')
    assert load_spec(str(p)).contract.label_values == (True, False)


@pytest.mark.parametrize("name", ["perceptron", "winnow", "kernel_perceptron"])
def test_shipped_classic_specs_keep_todays_call(name):
    c = load_spec(name).contract
    want = "train(X, y, kernel, epochs=T)" if name == "kernel_perceptron" else "train(X, y, epochs=T)"
    assert c.call.signature() == want
    assert (c.inputs, c.order, c.learning_rate, c.init, c.stop) == ("lists", "index", 1, "zero", "epochs")


def test_the_four_course_shapes_are_shipped():
    names = set(assignment_names())
    assert {"mit_perceptron", "sklearn_perceptron", "winnow_hw", "dual_kernel"} <= names
    mit = load_spec("mit_perceptron").contract
    assert mit.call.signature() == "perceptron(X, y, T)" and mit.order == "get_order" and mit.inputs == "numpy"
    sk = load_spec("sklearn_perceptron").contract
    assert sk.call.object == "Perceptron" and sk.call.weights == "coef_" and sk.call.bias == "intercept_"
    assert load_spec("winnow_hw").contract.theta_value(8) == 8
    dk = load_spec("dual_kernel").contract
    assert dk.gram and dk.dual == "counts"


def test_cli_bad_spec_is_one_line_exit_2(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text(HEAD.format(alg="perceptron", extra="") + '[contract]\nties = "maybe"\n')
    for opt in ("--check-spec", "--gradescope-zip"):
        r = subprocess.run(MB + ["grade", opt, str(p)], capture_output=True, text=True, timeout=120,
                           cwd=str(tmp_path))
        assert r.returncode == 2, r.stderr
        assert r.stderr.count("\n") == 1 and "contract.ties must be one of" in r.stderr
        assert "Traceback" not in r.stderr
    assert not os.path.exists(tmp_path / "autograder.zip")


def test_cli_options_have_help():
    r = subprocess.run(MB + ["grade", "--help"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0
    text = " ".join(r.stdout.split())
    assert "--check-spec SPEC Grade the course's reference solution" in text
    assert "--gradescope-zip SPEC Build a Gradescope autograder archive" in text


def test_check_spec_without_a_solution_runs_what_needs_none(tmp_path):
    p = tmp_path / "nosol.toml"
    p.write_text(HEAD.format(alg="perceptron", extra=""))
    r = subprocess.run(MB + ["grade", "--check-spec", str(p)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "the course's solution: not given" in r.stdout and "the suite's solution from the contract" in r.stdout


def test_every_contract_key_is_documented_with_its_values():
    """docs/grading.md lists every key of [contract] and [contract.call] (an instructor must not
    learn of a key from an error message)."""
    from grading.spec.contract_parse import CALL_KEYS, CONTRACT_KEYS
    doc = open(os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "docs", "grading.md")).read()
    every = doc[doc.index("## Every key"):]
    for k in sorted(CONTRACT_KEYS - {"call"}):
        assert f"| `{k}` |" in doc and f"`{k}`" in every, k
    for k in sorted(CALL_KEYS):
        assert f"`{k}`" in every, k


def test_the_gradescope_archive_carries_what_the_spec_names_beside_it(tmp_path):
    """An adapter file and the course's data files travel with the spec: the archive's spec.toml
    loads on its own, with the same adapter and the same data, where Gradescope unpacks it."""
    import zipfile
    from grading.output.gradescope import build_autograder
    from grading.spec.spec import load_spec
    src = tmp_path / "course"
    (src / "data").mkdir(parents=True)
    (src / "data" / "train.csv").write_text("1,2,1\n")
    (src / "adapter.py").write_text("def answer(X, y, T):\n    from perceptron import train\n"
                                    "    return train(X, y, T)[0]\n")
    (src / "spec.toml").write_text('[assignment]\nalgorithm = "perceptron"\nbias = false\n'
                                   'data_files = ["data/train.csv"]\n'
                                   '[contract]\nadapter = "adapter.py"\n[tests.one_example]\npoints = 1\n')
    here = load_spec(str(src / "spec.toml"))
    out = tmp_path / "autograder.zip"
    build_autograder(str(src / "spec.toml"), str(out))
    unpacked = tmp_path / "source"
    with zipfile.ZipFile(out) as zf:
        names = zf.namelist()
        zf.extractall(unpacked, [n for n in names if not n.startswith("mistakebound/")])
    assert "data/train.csv" in names
    there = load_spec(str(unpacked / "spec.toml"))
    assert there.contract.adapter == here.contract.adapter and there.data_files == here.data_files
