"""``verify --file F.py --coq``: the user's Coq proofs of their own theorems are checked by Coq
against the statements printed from their formula objects, after the catalogue's source audit.
A gap, an axiom, a proof of a weaker statement or a missing theorem is never "kernel-checked"."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from coq_support import require_coq

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("coq")]

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "mistakebound" / "examples" / "my_theorems.py"
PROOF = EXAMPLE.with_suffix(".v")
TID = "perceptron_margin_third_nine_mistakes"


@pytest.fixture(scope="module")
def libdir(coq_report):
    """The session's one build of the development (tests/conftest.py), which the user's proof requires."""
    require_coq()
    return Path(coq_report.build_dir)


def _check(tmp_path, libdir, text):
    from blueprint.user_theorems import load_theorems
    from coq.user_proofs import check_user_proofs
    f = tmp_path / "mine.v"
    f.write_text(text)
    return check_user_proofs(load_theorems(EXAMPLE), f, libdir)


def test_the_shipped_proof_is_kernel_checked(tmp_path, libdir):
    (r,), problems = _check(tmp_path, libdir, PROOF.read_text())
    assert r.status == "kernel-checked" and not problems, r
    assert r.axioms and all("Dedekind" in a or "Extensionality" in a or "classic" in a for a in r.axioms)


@pytest.mark.parametrize("edit, status, words", [
    (lambda t: t.replace("Qed.", "Admitted."), "failed", "Admitted"),                        # a gap
    (lambda t: t.replace("Require Mistakebound.Catalogue_block_novikoff.",
                         "Require Mistakebound.Catalogue_block_novikoff.\nAxiom cheat : False."), "failed", "Axiom"),
    # a weaker statement proved (M <= 10): Coq's type check against the printed statement refuses it
    (lambda t: t.replace("(M <= 9)%nat.", "(M <= 10)%nat.").replace("apply INR_le. exact HM.", "apply INR_le in HM. lia.")
     .replace("Require Mistakebound.Catalogue_block_novikoff.", "Require Mistakebound.Catalogue_block_novikoff.\n"
              "From Coq Require Import Lia."), "failed", "Coq rejects the proof"),
    (lambda t: t.replace(f"Theorem {TID} :", "Theorem another_name :"), "not proved in Coq", f"no theorem {TID}"),
])
def test_what_is_not_a_proof_of_the_printed_statement(tmp_path, libdir, edit, status, words):
    text = edit(PROOF.read_text())
    assert text != PROOF.read_text()
    (r,), _ = _check(tmp_path, libdir, text)
    assert r.status == status and words in r.reason, r


def test_cli_reports_coq_and_exits_0_only_when_kernel_checked(tmp_path, libdir):
    env = dict(os.environ, PYTHONPATH=str(ROOT), MISTAKEBOUND_COQ_BUILD=str(libdir))
    p = subprocess.run([sys.executable, "-m", "mistakebound", "verify", "--file", str(EXAMPLE), "--coq",
                        "--json", str(tmp_path / "r.json")], cwd=ROOT, env=env, capture_output=True, text=True,
                       timeout=1800)
    assert p.returncode == 0, p.stdout + p.stderr
    assert f"coq: kernel-checked     {TID}" in p.stdout
    assert "coq: your Coq file was compiled in its own process, isolation level " in p.stdout
    rep = json.loads((tmp_path / "r.json").read_text())
    assert rep["ok"] and rep["coq"][0]["status"] == "kernel-checked"
    assert rep["coq"][0]["isolation"]["level"] in ("landlock", "namespaces", "reduced")
    bad = tmp_path / "bad.v"
    bad.write_text(PROOF.read_text().replace("Qed.", "Admitted."))
    p = subprocess.run([sys.executable, "-m", "mistakebound", "verify", "--file", str(EXAMPLE), "--coq",
                        "--coq-proofs", str(bad)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    assert p.returncode == 1 and "coq: failed" in p.stdout and "Admitted" in p.stdout, p.stdout + p.stderr
