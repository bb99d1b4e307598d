"""The spec's keys declared once (grading/spec/spec_keys.py): docs/grading.md's key tables are the
generated ones, and the parser reads exactly the declared keys -- every key it looks up in a table
is declared there, and every declared key is looked up."""
import glob
import importlib
import os
import tomllib

import pytest

import grading.spec.spec as spec_mod
from grading.spec import spec_keys
from grading.spec.spec import load_spec
from grading.spec.spec_keys import KEYS, TABLES, Derived, keys_of, markdown, render_docs, sections
from learners.errors import InputError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOC_PATH = os.path.join(ROOT, "docs", "grading.md")
SPECS = sorted(glob.glob(os.path.join(ROOT, "grading", "assignments", "*.toml"))
               + glob.glob(os.path.join(ROOT, "tests", "fixtures", "grading", "**", "spec.toml"), recursive=True))


def _doc():
    with open(DOC_PATH, encoding="utf-8") as fh:
        return fh.read()


def test_the_docs_key_tables_are_the_generated_ones():
    doc = _doc()
    assert set(sections(doc)) == {"every", "contract:receives", "contract:computes", "contract:read", "contract.call"}
    assert render_docs(doc) == doc, "docs/grading.md's key tables were edited by hand: run python -m grading.spec.spec_keys"
    assert spec_keys.main(["--check"]) == 0


def test_a_hand_edited_table_is_caught():
    doc = _doc()
    edited = doc.replace("| `memory_mb` | an integer | `1024` |", "| `memory_mb` | an integer | `2048` |")
    assert edited != doc and render_docs(edited) == doc


def test_every_declared_key_has_a_row_in_the_docs():
    doc = _doc()
    every = doc[doc.index("## Every key"):doc.index("## What a submission faces")]
    contract = doc[doc.index("## The contract"):doc.index("## Every key")]
    for k in KEYS:
        if k.table == "contract" and k.name == "call":
            assert "`call`" in every
        elif k.table == "contract":
            assert f"| `{k.name}` |" in contract and f"`{k.name}`" in every, k.name
        elif k.table == "contract.call":
            assert f"| `{k.name}` |" in contract and f"`{k.name}`" in every, k.name
        else:
            assert f"| `{k.name}` |" in every, (k.table, k.name)
        assert k.meaning and markdown("every")


class _Recording(dict):
    """A table of the spec that notes every key the parser looks up in it."""
    seen: set

    def __init__(self, path, data, seen):
        super().__init__()
        self.path, self.seen = path, seen
        for k, v in data.items():
            child = _child(path, k)
            super().__setitem__(k, _Recording(child, v, seen) if child and isinstance(v, dict) else v)

    def _note(self, k):
        if self.path in TABLES:
            self.seen.add((self.path, k))

    def __contains__(self, k):
        self._note(k)
        return super().__contains__(k)

    def __getitem__(self, k):
        self._note(k)
        return super().__getitem__(k)

    def get(self, k, default=None):
        self._note(k)
        return super().get(k, default)


def _child(path, k):
    """The declared table a sub-table is (None: a value, not a table of the spec)."""
    if path == "":
        return {"tests": "tests", "theory": "theory"}.get(k, k if k in TABLES else None)
    if path == "contract" and k == "call":
        return "contract.call"
    if path == "tests":
        return "tests.KIND"
    if path == "theory":
        return "theory.ID"
    return None


def test_the_parser_reads_exactly_the_declared_keys(monkeypatch):
    seen = set()
    real = tomllib.load
    monkeypatch.setattr(spec_mod.tomllib, "load", lambda fh: _Recording("", real(fh), seen))
    for p in SPECS:
        load_spec(p)
    declared = {(k.table, k.name) for k in KEYS}
    assert {t for t, _ in seen} == set(TABLES)
    assert seen - declared == set(), "the parser reads keys grading/spec/spec_keys.py does not declare"
    unread = {(k.table, k.name) for k in KEYS if k.used} - seen
    assert unread == set(), "declared keys the parser never looks up"
    assert {(k.table, k.name) for k in KEYS if not k.used} == {("assignment", "description")}


@pytest.mark.parametrize("table", ["assignment", "contract", "contract.call", "limits", "hypothesis", "tests.KIND",
                                   "theory.ID"])
def test_a_key_not_declared_is_refused_and_a_declared_one_is_known(tmp_path, table):
    header = {"tests.KIND": "tests.one_example", "theory.ID": "theory.q1"}.get(table, table)
    body = {"theory.ID": 'kind = "kernel"\nexpr = "x.y"\n'}.get(table, "")
    base = '[assignment]\nalgorithm = "perceptron"\n' if table != "assignment" else ""
    tests = "" if table in ("tests.KIND",) else "[tests.one_example]\npoints = 1\n"
    p = tmp_path / "s.toml"
    if table == "assignment":
        p.write_text(f'[assignment]\nalgorithm = "perceptron"\nzz_undeclared = 1\n{tests}')
    else:
        p.write_text(f"{base}[{header}]\n{body}zz_undeclared = 1\n{tests}")
    with pytest.raises(InputError, match="unknown key 'zz_undeclared'") as e:
        load_spec(str(p))
    known = sorted(k.name for k in keys_of(table))
    assert ", ".join(known) in str(e.value)


def test_every_check_and_derived_default_is_real_code():
    for k in KEYS:
        if k.check:
            mod, _, fn = k.check.rpartition(".")
            assert callable(getattr(importlib.import_module(mod), fn)), k.check
        if isinstance(k.default, Derived) and k.default.fn is None:
            assert k.check, f"{k.table}.{k.name}: a default derived in code must name that code"
        assert k.choices or k.values or k.type in (str, int, float, bool, list, dict), (k.table, k.name)


def test_declared_defaults_are_what_the_parser_gives(tmp_path):
    p = tmp_path / "s.toml"
    p.write_text('[assignment]\nalgorithm = "perceptron"\n[tests.one_example]\n')
    s = load_spec(str(p))
    for k in keys_of("limits"):
        v = getattr(s, k.name) if k.name in ("time_floor", "time_factor") else getattr(s.limits, k.name)
        assert v == (list(k.default) if isinstance(k.default, tuple) else k.default), k.name
    for k in keys_of("hypothesis"):
        assert getattr(s, k.name) == k.default
    assert s.tests[0].points == spec_keys.key("tests.KIND", "points").default
    c = s.contract
    for k in keys_of("contract"):
        if k.group and not isinstance(k.default, Derived) and hasattr(c, k.name) and k.name not in ("names",
                                                                                                    "supplied"):
            assert getattr(c, k.name) == k.default or k.name == "arithmetic", k.name
