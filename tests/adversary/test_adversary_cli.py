"""mistakebound adversary / replay: exit codes, files, one-line errors."""
import json

import pytest

from mistakebound.cli import main


def run(argv, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    out, err = capsys.readouterr()
    return e.value.code, out, err


def test_perceptron_writes_a_file_that_replays(tmp_path, capsys):
    f = tmp_path / "s.json"
    code, out, err = run(["adversary", "perceptron", "--gamma", "0.2", "--dim", "3", "--out", str(f)], capsys)
    assert code == 0 and "mistakes   25" in out
    code, out, _ = run(["replay", str(f), "--json"], capsys)
    assert code == 0
    doc = json.loads(out)
    assert doc["ok"] and doc["files"][0]["mistakes"] == 25


def test_replay_rejects_tampered_and_malformed(tmp_path, capsys):
    f = tmp_path / "s.json"
    run(["adversary", "perceptron", "--gamma", "1/2", "--dim", "4", "--out", str(f)], capsys)
    obj = json.loads(f.read_text())
    obj["claims"]["mistakes"] = 5
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(obj))
    code, out, _ = run(["replay", str(bad)], capsys)
    assert code == 1 and "claims.mistakes is 5" in out
    junk = tmp_path / "junk.json"
    junk.write_text("{\"format\": \"mistakebound.sequence/1\", \"algorithm\": \"perceptron\"}")
    code, out, err = run(["replay", str(f), str(junk)], capsys)
    assert code == 2 and err.count("\n") == 1 and "missing key" in err and "Traceback" not in err
    code, _, err = run(["replay", str(tmp_path / "nope.json")], capsys)
    assert code == 2 and "no such file" in err


@pytest.mark.parametrize("args, word", [
    (["--gamma", "0", "--dim", "3"], "gamma"),
    (["--gamma", "x", "--dim", "3"], "gamma"),
    (["--gamma", "1/2"], "--dim"),
    (["--gamma", "1/2", "--dim", "3", "--strategy", "plane"], "--dim 2"),
])
def test_bad_input_exit_2_nothing_written(tmp_path, capsys, args, word):
    f = tmp_path / "o.json"
    code, _, err = run(["adversary", "perceptron", *args, "--out", str(f)], capsys)
    assert code == 2 and word in err and err.count("\n") == 1
    assert not f.exists()


def test_out_is_a_directory(tmp_path, capsys):
    code, _, err = run(["adversary", "perceptron", "--gamma", "1/2", "--dim", "4", "--out", str(tmp_path)], capsys)
    assert code == 2 and "is a directory" in err


def test_winnow_and_kernel(tmp_path, capsys):
    f = tmp_path / "w.json"
    code, out, _ = run(["adversary", "winnow", "--n", "8", "--r", "1", "--exhaustive", "--out", str(f), "--json"], capsys)
    assert code == 0 and json.loads(out)["certificate"]["mistakes"] == 7
    code, _, err = run(["adversary", "winnow", "--n", "4", "--r", "5", "--out", str(f)], capsys)
    assert code == 2
    k = tmp_path / "k.json"
    code, out, _ = run(["adversary", "kernel", "--kernel", "poly:c=1,k=2", "--n", "4", "--out", str(k), "--json"], capsys)
    assert code == 0 and json.loads(out)["certificate"]["ratio"] == 1
    code, _, err = run(["adversary", "kernel", "--kernel", "sigmoid", "--out", str(k)], capsys)
    assert code == 2 and "unknown kernel" in err


def test_table_small_grid(tmp_path, capsys, monkeypatch):
    from fractions import Fraction
    import adversary.table as table
    cells = [table.Cell("perceptron", {"gamma": Fraction(1, 2), "d": 2}),
             table.Cell("perceptron", {"gamma": Fraction(1, 3), "d": 3}),
             table.Cell("winnow", {"n": 16, "r": 1, "variant": "halve"})]
    monkeypatch.setattr(table, "grid", lambda which="all": cells)
    code, out, _ = run(["adversary", "table", "--out", str(tmp_path / "t"), "--budget", "5", "--json"], capsys)
    assert code == 0
    doc = json.loads(out)
    assert [r["mistakes"] for r in doc["rows"]] == [2, 9, 10]
    # Winnow rows carry the tight bound r(3 lg n - 2) of winnow_halving_pow2_tight: 10 at n = 16, r = 1
    assert doc["rows"][2]["tight_bound"] in (10, "10") and doc["rows"][2]["ratio_tight"] in (1, "1")
    for name in ("perceptron_g1-2_d2.json", "perceptron_g1-3_d3.json", "winnow_halve_n16_r1.json",
                 "mistakes_vs_bound.png", "perceptron_g1-2_d2.png", "table.json"):
        assert (tmp_path / "t" / name).exists()
    code, _, _ = run(["replay", *[str(tmp_path / "t" / n) for n in ("perceptron_g1-3_d3.json", "winnow_halve_n16_r1.json")]], capsys)
    assert code == 0
