"""Small float perceptron runs go through a Python twin of the compiled loop
(learners._loops_sparse.PY_MAX_WORK): the same operations in the same order, so the same bits --
activations, mistakes, weights, bias, and the step where a NaN/inf stops the run -- on dense
and CSR data.  Such a run, in a fresh process, never imports numba (nor scipy, which numba's
compilation context pulls in); a large one does."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import learners._loops_sparse as LS

floats = st.one_of(st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False, width=64),
                   st.sampled_from([0.0, -0.0, 1e-300, 3.0, 0.1, 1 / 3]))


@st.composite
def runs(draw):
    n = draw(st.integers(1, 30))
    d = draw(st.integers(1, 8))
    X = draw(hnp.arrays(np.float64, (n, d), elements=floats))
    if draw(st.booleans()):
        X[draw(st.integers(0, n - 1)), draw(st.integers(0, d - 1))] = draw(st.sampled_from([np.nan, np.inf, 1e308]))
    y = np.array(draw(st.lists(st.sampled_from([-1.0, 1.0]), min_size=n, max_size=n)))
    epochs = draw(st.integers(1, 3))
    order = np.concatenate([np.random.default_rng(e).permutation(n) for e in range(epochs)]).astype(np.int64)
    w0 = draw(hnp.arrays(np.float64, d, elements=floats))
    return X, y, order, w0, draw(floats), draw(st.booleans()), draw(st.sampled_from(["dense", "csr"]))


def _run(X, y, order, w0, b0, bias, name):
    w = w0.copy()
    act = np.zeros(len(order))
    mis = np.zeros(len(order), dtype=np.bool_)
    b, stop = LS.run_pass(name, X, y, order, w, b0, bias, act, mis, 0)
    return b, stop, w, act, mis


@settings(max_examples=150, deadline=None)
@given(runs())
@pytest.mark.slow
def test_the_python_loop_is_the_compiled_loop_bitwise(case):
    X, y, order, w0, b0, bias, form = case
    A = sp.csr_matrix(X) if form == "csr" else X
    assert LS._py_rows(A, order) is not None
    py = _run(A, y, order, w0, b0, bias, "seq")
    old = LS.PY_MAX_WORK
    LS.PY_MAX_WORK = -1
    try:
        assert LS._py_rows(A, order) is None
        jit = _run(A, y, order, w0, b0, bias, "seq")
    finally:
        LS.PY_MAX_WORK = old
    b1, s1, w1, a1, m1 = py
    b2, s2, w2, a2, m2 = jit
    assert s1 == s2
    T = len(order) if s1 < 0 else s1 + 1
    assert a1[:T].tobytes() == a2[:T].tobytes()
    assert m1[:T if s1 < 0 else s1].tobytes() == m2[:T if s1 < 0 else s1].tobytes()
    if s1 < 0:
        assert np.float64(b1).tobytes() == np.float64(b2).tobytes()
        assert w1.tobytes() == w2.tobytes()


def test_a_float_run_with_rounding_takes_both_loops_to_the_same_bits():
    # non-integer data, many mistakes: a disagreement in one rounding would show
    rng = np.random.default_rng(5)
    X = rng.standard_normal((400, 40)) / 7
    y = np.where(X @ rng.standard_normal(40) + 0.3 * rng.standard_normal(400) > 0, 1.0, -1.0)
    order = np.arange(400, dtype=np.int64)
    py = _run(X, y, order, np.zeros(40), 0.0, True, "seq")
    old = LS.PY_MAX_WORK
    LS.PY_MAX_WORK = -1
    try:
        jit = _run(X, y, order, np.zeros(40), 0.0, True, "seq")
    finally:
        LS.PY_MAX_WORK = old
    assert py[4].sum() > 50
    for a, b in zip(py[2:], jit[2:]):
        assert a.tobytes() == b.tobytes()
    assert py[0] == jit[0] and py[1] == jit[1] == -1


CHILD = textwrap.dedent("""
    import json, sys
    import numpy as np
    from learners import Perceptron
    n, d = int(sys.argv[1]), int(sys.argv[2])
    X = np.random.default_rng(0).integers(-3, 4, size=(n, d)).astype(float)
    y = np.where(X[:, 0] > 0, 1, -1)
    p = Perceptron().fit(X, y)
    print(json.dumps({"mistakes": int(p.mistakes_),
                      "loaded": sorted(m for m in ("numba", "scipy", "llvmlite", "sklearn") if m in sys.modules)}))
""")


@pytest.mark.parametrize("n,d,compiled", [(200, 5, False), (3000, 50, True)])
def test_a_fresh_process_imports_numba_only_for_a_compiled_run(n, d, compiled):
    out = subprocess.run([sys.executable, "-c", CHILD, str(n), str(d)], capture_output=True, text=True,
                         check=True, timeout=300)
    res = json.loads(out.stdout.strip().splitlines()[-1])
    assert res["mistakes"] > 0
    assert ("numba" in res["loaded"]) == compiled
    if not compiled:
        assert res["loaded"] == []            # neither scipy nor anything else heavy


def test_a_deferred_function_becomes_its_dispatcher_where_it_lives():
    code = textwrap.dedent("""
        import sys
        import learners._loops_sparse as LS
        from learners import _jit
        before = (type(LS.row_norms_seq).__name__, "numba" in sys.modules, _jit.live())
        import numpy as np
        r = LS.row_norms(np.array([[3.0, 4.0]]))
        after = (type(LS.row_norms_seq).__name__, "numba" in sys.modules, _jit.live())
        print(before, after, r.tolist())
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300)
    assert out.stdout.split() == "('_Deferred', False, False) ('CPUDispatcher', True, True) [25.0]".split()
