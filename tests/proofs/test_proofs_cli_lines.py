"""The developer commands of proofs/: a bad theorem id is one line and exit 2; the catalogue page
regeneration prints a line per entry when its output is a log, not a terminal."""
import subprocess
import sys

import proofs.verify.runner
from proofs.verify import docs
from proofs.catalogue import registry


def test_runner_bad_id_is_one_line_and_exit_2():
    r = subprocess.run([sys.executable, "-m", "proofs.verify.runner", "no_such_theorem"], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 2, r.stderr
    assert r.stdout == "" and len(r.stderr.strip().splitlines()) == 1
    assert "unknown theorem id 'no_such_theorem'" in r.stderr and "Traceback" not in r.stderr


def test_docs_regeneration_logs_a_line_per_entry(tmp_path, monkeypatch, capsys):
    real = proofs.verify.runner.run_catalogue
    monkeypatch.setattr(proofs.verify.runner, "run_catalogue", lambda **kw: real(["cauchy_schwarz"], **kw))
    out = tmp_path / "catalogue.md"
    assert docs.main(["--out", str(out)]) == 0
    err = capsys.readouterr().err.splitlines()
    total = len(registry.all_theorems())
    assert err[0] == f"proofs.verify.docs: checking {total} catalogue entries"
    assert f"proofs.verify.docs [1/{total}] cauchy_schwarz: proved" in err
    assert f"proofs.verify.docs: writing {out}" in err and "`cauchy_schwarz`" in out.read_text()
