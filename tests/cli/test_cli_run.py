"""``mistakebound run``: output, --json, --exact, --trace, and one-line errors with exit code 2."""
import json
import os
import subprocess
import sys

import pytest

from mistakebound.cli import main


def run_cli(args, capsys):
    with pytest.raises(SystemExit) as ei:
        main(args)
    out = capsys.readouterr()
    return ei.value.code, out.out, out.err


def test_run_example_json_exact(capsys):
    code, out, err = run_cli(["run", "perceptron", "--example", "--exact", "--json", "--epochs", "3"], capsys)
    assert code == 0, err
    d = json.loads(out)
    assert isinstance(d["mistakes"], int) and d["mistakes"] > 0
    assert all(isinstance(v, str) for v in d["weights"]) and d["bias"] == "0"
    # the example is separable: after enough epochs the weights classify every example
    code, out, _ = run_cli(["run", "perceptron", "--example", "--json", "--epochs", "50", "--bias"], capsys)
    d = json.loads(out)
    assert isinstance(d["bias"], (int, float))


@pytest.mark.parametrize("alg", ["perceptron", "averaged", "voted", "kernel", "winnow"])
def test_every_algorithm_runs(alg, capsys):
    code, out, err = run_cli(["run", alg, "--example"], capsys)
    assert code == 0, err
    assert "mistakes:" in out


def test_trace_file(tmp_path, capsys):
    f = tmp_path / "t.jsonl"
    code, out, _ = run_cli(["run", "perceptron", "--example", "--exact", "--trace", str(f)], capsys)
    assert code == 0
    lines = f.read_text().splitlines()
    head = json.loads(lines[0])["trace"]
    assert head["n_steps"] == len(lines) - 1


@pytest.mark.parametrize("content,match", [
    (None, "no such file"),
    ("", "empty file"),
    ("1,2,1\n1,2\n", "ragged"),
    ("1,abc,1\n", "not a number"),
    ("1,2,5\n", "label 0 is 5"),
    ("x,y,label\n", "only a header"),
])
def test_bad_files_exit_2_one_line(tmp_path, capsys, content, match):
    f = tmp_path / "d.csv"
    if content is not None:
        f.write_text(content)
    t = tmp_path / "trace.jsonl"
    code, out, err = run_cli(["run", "perceptron", str(f), "--trace", str(t)], capsys)
    assert code == 2
    assert match in err and err.count("\n") == 1 and "Traceback" not in err
    assert not t.exists()  # nothing half-written


def test_console_script_no_traceback(tmp_path):
    r = subprocess.run([sys.executable, "-m", "mistakebound", "run", "perceptron", str(tmp_path / "nope.csv")],
                       capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.startswith("mistakebound: error:") and "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, "-m", "mistakebound", "run", "nosuchalg"], capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.count("\n") == 1
