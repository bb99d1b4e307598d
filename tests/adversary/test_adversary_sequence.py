"""Sequence file format: round trip, validation messages, atomic save."""
import json
import os
from fractions import Fraction

import pytest

from adversary.sequence import FORMAT, Sequence, parse_kernel_spec
from learners.errors import InputError


def _perc():
    return Sequence("perceptron", [[1, 0], ["1/2", "0.2"]], [1, -1], target=[1, "-1/3"],
                    claims={"mistakes": 2, "bound": "25/3"}, meta={"strategy": "t"})


def test_round_trip_exact(tmp_path):
    s = _perc()
    assert s.examples[1] == (Fraction(1, 2), Fraction(1, 5))
    p = tmp_path / "s.json"
    s.save(p)
    t = Sequence.load(p)
    assert t == s
    obj = json.loads(p.read_text())
    assert obj["format"] == FORMAT
    assert obj["examples"][1] == ["1/2", "1/5"]
    assert obj["target"] == [1, "-1/3"]
    assert obj["claims"] == {"mistakes": 2, "bound": "25/3"}


def test_round_trip_winnow_and_kernel():
    w = Sequence("winnow", [[1, 0, 0], [0, 1, 1], [0, 1, 0]], [1, 1, 0], target=[0, 2], variant="halve")
    assert Sequence.loads(w.dumps()) == w
    assert w.r == 2 and w.alpha == 2
    k = Sequence("kernel_perceptron", [[1, 0], [0, 1]], [1, -1], target=[1, -1], kernel="poly:k=3")
    k2 = Sequence.loads(k.dumps())
    assert k2 == k and k2.kernel == "poly:c=1,k=3"


def test_unknown_keys_kept():
    obj = json.loads(_perc().dumps())
    obj["comment"] = "hello"
    s = Sequence.from_dict(obj)
    assert json.loads(s.dumps())["comment"] == "hello"


@pytest.mark.parametrize("patch, msg", [
    ({"format": "other/1"}, "format"),
    ({"algorithm": "svm"}, "algorithm"),
    ({"labels": [1, 0]}, "labels[1]"),
    ({"labels": [1]}, "mismatched lengths"),
    ({"examples": [[1, 0], [1]]}, "ragged"),
    ({"examples": [[1, "x"], [1, 1]]}, "examples[0][1]"),
    ({"target": [1, 2, 3]}, "target has 3 values"),
    ({"epochs": 0}, "epochs"),
    ({"bias": "yes"}, "bias"),
    ({"claims": {"mistakes": "many"}}, "claims.mistakes"),
    ({"variant": "halve"}, "variant does not apply"),
])
def test_validation_messages(patch, msg):
    obj = json.loads(_perc().dumps())
    obj.update(patch)
    with pytest.raises(InputError) as e:
        Sequence.from_dict(obj)
    assert msg in str(e.value)
    assert "\n" not in str(e.value)


def test_winnow_labels_must_equal_or():
    with pytest.raises(InputError, match="OR of the target"):
        Sequence("winnow", [[1, 0], [0, 1]], [1, 1], target=[0], variant="halve")
    with pytest.raises(InputError, match="0 or 1"):
        Sequence("winnow", [[2, 0]], [1], target=[0], variant="halve")
    with pytest.raises(InputError, match="variant"):
        Sequence("winnow", [[1, 0]], [1], target=[0])


def test_kernel_spec():
    assert parse_kernel_spec("gaussian:c=0.5") == ("gaussian", {"c": Fraction(1, 2)})
    assert parse_kernel_spec("poly:k=3")[1] == {"c": 1, "k": 3}
    with pytest.raises(InputError):
        parse_kernel_spec("poly:k=1/2")
    with pytest.raises(InputError):
        parse_kernel_spec("sigmoid")


def test_load_errors_one_line(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text("{not json")
    with pytest.raises(InputError, match="not valid JSON"):
        Sequence.load(p)
    with pytest.raises(InputError, match="no such file"):
        Sequence.load(tmp_path / "missing.json")


def test_save_is_atomic(tmp_path, monkeypatch):
    p = tmp_path / "s.json"
    p.write_text("old")
    s = _perc()
    def boom(*a):
        raise OSError("disk full")
    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        s.save(p)
    assert p.read_text() == "old"
    assert [f for f in os.listdir(tmp_path) if f.startswith(".tmp")] == []
