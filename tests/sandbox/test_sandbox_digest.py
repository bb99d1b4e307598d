"""The digest of a call's inputs is the SHA-256 of one canonical JSON text: the direct encoder
of plain lists writes exactly the text the general one does, for any mix of values."""
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox import _digest

leaf = st.one_of(st.floats(allow_nan=True), st.integers(), st.booleans(), st.none(), st.text(max_size=3))
value = st.recursive(leaf, lambda c: st.one_of(st.lists(c, max_size=4), st.tuples(c, c)), max_leaves=30)


@given(value)
@settings(max_examples=300, deadline=None)
def test_direct_text_is_the_general_encoding(v):
    assert _digest._text(v) == json.dumps(_digest._plain(v), separators=(",", ":"))


@given(st.lists(st.lists(st.integers(-8, 8), min_size=1, max_size=4), min_size=1, max_size=5),
       st.sampled_from(["float", "int", "auto", None]))
@settings(max_examples=200, deadline=None)
def test_sent_is_what_the_worker_reports_for_the_array_it_built(rows, kind):
    import numpy as np
    X = [[v / 4 for v in r] for r in rows] if kind == "float" else rows
    if len({len(r) for r in X}) != 1:
        return
    sent = _digest.sent(json.loads(json.dumps(X)), kind)
    if kind is None:
        assert sent == _digest.digest(X)
    else:
        dtype = {"float": float, "int": np.int64, "auto": None}[kind]
        assert sent == _digest.digest(np.array(X, dtype=dtype))
    assert _digest.digest([list(r) for r in X][::-1]) != _digest.digest(X) or X == X[::-1]


def test_an_array_is_digested_as_its_bytes_in_c_order():
    import numpy as np
    X = [[0.25, -1.0, 2.0], [1.5, 0.0, -0.0]]
    a = np.array(X)
    want = _digest.sent(X, "float")
    assert _digest.digest(a) == want
    assert _digest.digest(np.asfortranarray(a)) == want             # the layout in memory does not matter
    assert _digest.digest(np.array(X).T.copy().T) == want
    b = a.copy()
    b[1, 2] = 0.0                                                    # -0.0 -> 0.0: another array
    assert _digest.digest(b) != want
    for other in (a.astype(np.float32), a.astype(">f8"), a.reshape(3, 2), a.astype(object), a.tolist()):
        assert _digest.digest(other) != want
    assert _digest.sent([[1, 2], [3]], "int") != _digest.digest(np.array([[1, 2], [3, 4]]))


def test_the_grader_digests_the_bytes_the_worker_echoes():
    import base64
    import zlib
    for v in ([[0.25, -1.0], [2.0, 0.5]], [1, -1, 1], (0.5,), 3):
        assert _digest.echoed(_digest.echo(v)) == _digest.digest(v)
    assert _digest.echoed("not base64!") is None and _digest.echoed(None) is None
    assert _digest.echoed(base64.b64encode(b"no zlib stream").decode()) is None
    bomb = base64.b64encode(zlib.compress(bytes(_digest.MAX_ECHO + 1), 9)).decode()
    assert _digest.echoed(bomb) is None                       # expanded under a bound, then refused


# A submission that zeroes its input after training and replaces the worker's digest function by one
# that answers, for the input it zeroed, the digest of the input as it was sent.
DIGEST_FORGER = '''
import __main__
_dg = __main__.digest
_real = _dg.digest
_before = {}

def _fake(v):
    return _before.pop(id(v), None) or _real(v)

_dg.digest = _fake

def train(X, y, epochs=1):
    _before[id(X)] = _real(X)
    w = [0.0] * len(X[0]); b = 0.0
    for _ in range(epochs):
        for x, t in zip(X, y):
            if t * (sum(a * c for a, c in zip(w, x)) + b) <= 0:
                w = [a + t * c for a, c in zip(w, x)]; b += t
    for x in X:
        for j in range(len(x)):
            x[j] = 0.0
    return w, b
'''


def test_replacing_the_workers_digest_function_does_not_hide_a_zeroed_input(tmp_path):
    from grading.running.grader import grade_submission
    d = tmp_path / "forger"
    d.mkdir()
    (d / "perceptron.py").write_text(DIGEST_FORGER)
    res = grade_submission("perceptron", str(d))
    assert "inputs modified" in res.diagnoses, (res.score, res.max_score, res.diagnoses)
    assert res.score < res.max_score
