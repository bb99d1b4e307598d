"""Small exact runs (the errata's replays among them) take a pure-Python path instead of the
compiled loops, and must be the same run:

* the perceptron's int64 engine (``learners._loops.perceptron_pass_int``) against its Python twin
  on the same scaled integers (``learners.perceptron._exact_python_loop``), and ``run_perceptron``
  with the twin allowed and forbidden (``learners._loops_sparse.PY_MAX_WORK``);
* exact Winnow's rational path for small runs (``learners.winnow_exact.PY_MAX_WORK``) against the
  compiled exponent engine and against the plain rational reference, every variant, on dense and
  CSR data, the same one-line error on a value that is not 0/1;
* the registry's errata replays, in a fresh process, never import numba.
"""
from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import learners._loops_sparse as LS
import learners.winnow_exact as WE
from learners import InputError, run_perceptron
from learners.perceptron import _exact_python_loop
from learners.winnow import run_winnow, run_winnow_reference


class _Limit:
    """Set a module's PY_MAX_WORK for a block (no function-scoped fixture inside @given)."""

    def __init__(self, mod, value):
        self.mod, self.value = mod, value

    def __enter__(self):
        self.old, self.mod.PY_MAX_WORK = self.mod.PY_MAX_WORK, self.value

    def __exit__(self, *exc):
        self.mod.PY_MAX_WORK = self.old


# ------------------------------------------------------------------------------- perceptron
@st.composite
def int_runs(draw):
    n = draw(st.integers(1, 8))
    d = draw(st.integers(1, 5))
    X = draw(hnp.arrays(np.int64, (n, d), elements=st.integers(-50, 50)))
    y = np.array(draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n)), dtype=np.int64)
    epochs = draw(st.integers(1, 4))
    order = np.concatenate([np.random.default_rng(e).permutation(n) for e in range(epochs)]).astype(np.int64)
    w0 = draw(hnp.arrays(np.int64, d, elements=st.integers(-100, 100)))
    b0 = draw(st.integers(-100, 100))
    step = draw(st.sampled_from([0, 1, 9]))
    return X, y, order, w0, b0, step


@settings(max_examples=150, deadline=None)
@given(int_runs())
def test_the_python_integer_loop_is_the_compiled_int64_loop(case):
    from learners import _loops
    X, y, order, w0, b0, step = case
    w = w0.copy()
    act = np.zeros(len(order), dtype=np.int64)
    mis = np.zeros(len(order), dtype=np.bool_)
    b = _loops.perceptron_pass_int(X, y, order, w, b0, step, act, mis, 0)
    mis_py = np.zeros(len(order), dtype=np.bool_)
    w_py, b_py, acts_py = _exact_python_loop(X.tolist(), y.tolist(), order, w0.tolist(), b0, step, mis_py)
    assert w_py == w.tolist() and b_py == int(b)
    assert acts_py == act.tolist() and mis_py.tolist() == mis.tolist()


@settings(max_examples=60, deadline=None)
@given(int_runs(), st.booleans(), st.sampled_from(["int-array", "lists", "fractions", "csr"]))
def test_run_perceptron_exact_is_the_same_run_with_or_without_the_twin(case, bias, form):
    X, y, order, w0, _, _ = case
    epochs = len(order) // len(X)
    Xin = {"int-array": X, "lists": X.tolist(), "fractions": [[Fraction(int(v), 3) for v in r] for r in X.tolist()],
           "csr": sp.csr_matrix(X.astype(np.float64))}[form]
    kw = dict(epochs=epochs, bias=bias, exact=True, w0=[Fraction(int(v), 2) for v in w0],
              b0=Fraction(1, 2) if bias else 0)
    small = run_perceptron(Xin, y, **kw)
    with _Limit(LS, -1):
        big = run_perceptron(Xin, y, **kw)
    assert small.params["exact_engine"] == big.params["exact_engine"]
    assert small.mistake_flags == big.mistake_flags and small.weights == big.weights and small.bias == big.bias
    assert [s.activation for s in small.steps] == [s.activation for s in big.steps]
    assert [s.weights for s in small.steps] == [s.weights for s in big.steps]


def test_a_large_exact_run_still_takes_the_compiled_loop():
    rng = np.random.default_rng(0)
    X = rng.integers(-5, 6, size=(3000, 10))
    y = np.where(rng.integers(0, 2, 3000) > 0, 1, -1)
    tr = run_perceptron(X.tolist(), y, exact=True, record="none")
    assert tr.params["exact_engine"] == "int64"
    with _Limit(LS, 10 ** 9):
        tw = run_perceptron(X.tolist(), y, exact=True, record="none")
    assert tw.mistake_flags == tr.mistake_flags and tw.weights == tr.weights


# ------------------------------------------------------------------------------- Winnow
@st.composite
def winnow_runs(draw):
    n = draw(st.integers(1, 12))
    d = draw(st.integers(1, 6))
    p = draw(st.sampled_from([0.2, 0.5, 0.9]))
    X = draw(hnp.arrays(np.int64, (n, d), elements=st.integers(0, 99).map(lambda v: int(v < 100 * p))))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    variant = draw(st.sampled_from(["halve", "eliminate", "winnow2"]))
    alpha = draw(st.sampled_from([2, Fraction(3, 2), 3]))
    theta = draw(st.sampled_from([None, Fraction(1, 2), 1, Fraction(7, 3), Fraction(2, 10 ** 3)]))
    return X, y, variant, alpha, theta, draw(st.integers(1, 3)), draw(st.sampled_from(["dense", "csr"]))


def _winnow_same(a, b):
    assert a.mistake_flags == b.mistake_flags and a.weights == b.weights
    assert [s.activation for s in a.steps] == [s.activation for s in b.steps]
    assert [s.weights for s in a.steps] == [s.weights for s in b.steps]
    assert [s.prediction for s in a.steps] == [s.prediction for s in b.steps]


@settings(max_examples=120, deadline=None)
@given(winnow_runs())
def test_exact_winnow_small_path_is_the_compiled_engine_and_the_reference(case):
    X, y, variant, alpha, theta, epochs, form = case
    A = sp.csr_matrix(X) if form == "csr" else X
    kw = dict(variant=variant, alpha=alpha, theta=theta, epochs=epochs)
    assert len(y) * epochs * X.shape[1] <= WE.PY_MAX_WORK
    small = run_winnow(A, y, **kw)
    assert small.params["exact_decisions"] == len(y) * epochs        # every step decided rationally
    with _Limit(WE, -1):
        comp = run_winnow(A, y, **kw)
    _winnow_same(small, comp)
    _winnow_same(small, run_winnow_reference(X, y, **kw))
    assert [v.tolist() if hasattr(v, "tolist") else v for v in small.extras["state"][1:]] == \
           [v.tolist() if hasattr(v, "tolist") else v for v in comp.extras["state"][1:]]


def test_exact_winnow_small_path_reaches_exponents_beyond_the_first_table():
    X = np.array([[1, 1]] * 150 + [[1, 0]])
    y = np.array([0] * 150 + [1])
    kw = dict(variant="winnow2", alpha=Fraction(3, 2), theta=Fraction(1, 10 ** 40), record="none")
    small = run_winnow(X, y, **kw)
    assert small.params["exact_decisions"] == len(y)
    with _Limit(WE, -1):
        comp = run_winnow(X, y, **kw)
    assert small.mistake_flags == comp.mistake_flags and small.weights == comp.weights
    assert min(small.weights) < Fraction(2, 3) ** 64


@pytest.mark.parametrize("bad", [2, -1, np.nan, 0.5])
def test_exact_winnow_small_path_gives_the_same_error_on_a_bad_value(bad):
    X = np.array([[1.0, 0.0], [0.0, bad]])
    msgs = []
    for limit in (WE.PY_MAX_WORK, -1):
        with _Limit(WE, limit), pytest.raises(InputError) as e:
            run_winnow(X, [1, 0])
        msgs.append(str(e.value))
    assert msgs[0] == msgs[1] and "X[1][1]" in msgs[0]


# ------------------------------------------------------------------------------- the errata
def test_the_errata_replays_do_not_import_numba():
    code = ("import json, sys\n"
            "from proofs.catalogue import registry\n"
            "out = {}\n"
            "for th in registry.all_theorems():\n"
            "    if th.kind == 'erratum' and th.witness_check is not None:\n"
            "        ok, _ = th.witness_check()\n"
            "        out[th.id] = ok is True\n"
            "print(json.dumps([out, 'numba' in sys.modules]))\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    replays, numba = json.loads(p.stdout.splitlines()[-1])
    assert replays and all(replays.values()), replays
    assert numba is False
