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
