"""Searches on a time budget say whether it ran out; a table cell stopped by its budget short of
its target is not "ok"; a seeded search that finishes is reproducible.  The budgets here are
either far too small to finish (1 microsecond: stopped on any machine) or far above what the
search needs, so no test depends on the machine's speed."""
import json
from fractions import Fraction

from adversary import table
from adversary.perceptron_2d import sequence_2d
from adversary.winnow_search import search_winnow
from mistakebound.cli import main

import pytest

TINY = 1e-6


def run(argv, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    out, err = capsys.readouterr()
    return e.value.code, out, err


def test_plane_search_says_when_its_budget_ran_out():
    short = sequence_2d(Fraction(1, 5), budget=TINY)
    full = sequence_2d(Fraction(1, 5))
    assert short.meta["budget_exhausted"] is True and len(short.examples) < 13
    assert full.meta["budget_exhausted"] is False and len(full.examples) == 13


def test_winnow_search_says_when_its_budget_ran_out():
    short = search_winnow(16, 8, "halve", budget=TINY, seed=0)
    assert short.meta["budget_exhausted"] is True and short.meta["optimal"] is False
    done = search_winnow(64, 2, "halve", budget=60, seed=0)          # reaches the state bound at once
    assert done.meta["budget_exhausted"] is False and done.meta["optimal"] is True


@pytest.mark.parametrize("n,r,variant", [(64, 2, "halve"), (16, 2, "eliminate"), (256, 1, "halve")])
def test_a_seeded_search_that_finishes_is_reproducible(n, r, variant):
    a = search_winnow(n, r, variant, budget=120, seed=7)
    b = search_winnow(n, r, variant, budget=120, seed=7)
    assert not a.meta["budget_exhausted"]
    assert a.examples == b.examples and a.labels == b.labels and a.meta["seed"] == 7


def _cells(*cells, monkeypatch):
    monkeypatch.setattr(table, "grid", lambda which="all": list(cells))


@pytest.mark.slow
def test_table_cell_stopped_on_its_budget_is_not_ok(tmp_path, capsys, monkeypatch):
    _cells(table.Cell("perceptron", {"gamma": Fraction(1, 20), "d": 2}),
           table.Cell("perceptron", {"gamma": Fraction(1, 3), "d": 2}), monkeypatch=monkeypatch)
    code, out, err = run(["adversary", "table", "--out", str(tmp_path / "t"), "--budget", str(TINY), "--json"], capsys)
    doc = json.loads(out)
    row = doc["rows"][0]
    assert row["budget_exhausted"] and row["certified"] and not row["ok"] and row["status"] == "budget"
    assert row["target"] == 200 and row["mistakes"] < 200 and row["target_met"] is False
    assert doc["rows"][1]["target"] == 5                        # every d = 2 cell has a target
    assert code == 1 and doc["ok"] is False and doc["budget_exhausted"] == [r["name"] for r in doc["rows"]]
    # the log (stderr is not a terminal): one line per cell with its count
    assert "adversary table [1/2] perceptron gamma=1/20 d=2:" in err and "budget ran out" in err
    assert "adversary table [2/2]" in err
    saved = json.loads((tmp_path / "t" / "table.json").read_text())
    assert saved["rows"][0]["status"] == "budget"


@pytest.mark.slow
def test_table_text_prints_the_target_and_the_status(tmp_path, capsys, monkeypatch):
    _cells(table.Cell("perceptron", {"gamma": Fraction(1, 20), "d": 2}),
           table.Cell("winnow", {"n": 64, "r": 1, "variant": "halve"}), monkeypatch=monkeypatch)
    code, out, _ = run(["adversary", "table", "--out", str(tmp_path / "t"), "--budget", str(TINY)], capsys)
    assert code == 1
    line = next(s for s in out.splitlines() if s.lstrip().startswith("1/20"))
    assert " 200 " in line and "budget" in line and "None" not in out
    wline = next(s for s in out.splitlines() if s.startswith("halve"))
    assert wline.split()[-2] == "ok"                 # met its target (the tight bound 16) at once
    assert "stopped on the 1e-06 s budget short of their target" in out


def test_single_search_reports_its_budget(tmp_path, capsys):
    f = tmp_path / "w.json"
    code, out, _ = run(["adversary", "winnow", "--n", "16", "--r", "8", "--budget", str(TINY), "--out", str(f)],
                       capsys)
    assert code == 0 and "budget     ran out" in out
    code, out, _ = run(["adversary", "winnow", "--n", "64", "--r", "1", "--out", str(f), "--json"], capsys)
    assert code == 0 and json.loads(out)["budget_exhausted"] is False
