"""A user's Coq file (``verify --file F.py --coq``) touches nothing outside its own directory: the
source audit refuses the vernacular that writes a file, loads a plugin or a file, or runs a
program, read the way Coq's lexer reads it; and each ``coqc`` runs confined (``sandbox.confine``)
to writes in a directory of its own, so a command the audit missed writes nothing outside and
leaves the development's compiled files as they were."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from coq_support import require_coq

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "mistakebound" / "examples" / "my_theorems.py"
PROOF = EXAMPLE.with_suffix(".v")
TID = "perceptron_margin_third_nine_mistakes"
ATTACK_VO = "Catalogue_block_novikoff.vo"


# ------------------------------------------------------------------ the audit (no coqc needed)
@pytest.mark.parametrize("text, word", [
    ('Print Universes "/tmp/x".', "Print Universes"),                            # writes a file
    ('Print Sorted Universes "/tmp/x".', "Print Sorted Universes"),
    ('Add LoadPath "/tmp" as Foo.', "Add LoadPath"),                             # Require from anywhere
    ('Add Rec LoadPath "/tmp" as Foo.', "Add Rec LoadPath"),
    ("Eval native_compute in 1.", "native_compute"),                            # runs the OCaml compiler
    ('Declare(* a comment separates tokens *)ML Module "p".', "Declare ML Module"),
    ('Load(**)X.', "Load"),
    # "(*" is a string, not a comment hiding what follows it
    ('Definition s := "(*".\nRedirect "/tmp/x" Print nat.\nDefinition t := "*)".', "Redirect"),
    ('Definition s := "a""(*".\nExtraction "/tmp/x" nat.\n(* "*)" *)', "Extraction"),
])
def test_the_audit_refuses_what_writes_loads_or_runs(text, word):
    from coq.checks import refused_commands
    got = refused_commands({"UserProofs.v": text})
    assert any(f"'{word}' is not allowed" in p for p in got), got


def test_the_lexical_reading_keeps_strings_and_comments_apart():
    from coq.checks import lexical_code
    assert lexical_code('a (* "*)" still comment *) b') == "a   b"
    assert lexical_code('x "(*" y *) z') == 'x "" y *) z'
    assert lexical_code('p (* (* n *) "" *)q "a""b" r') == 'p  q "" r'
    # a legitimate file: nothing refused (its own copy of the statement is never what is checked)
    from coq.user_proofs import _audit
    assert _audit(PROOF.read_text(), "mine.v", [TID]) == []


def test_a_missing_or_foreign_record_is_reduced():
    from coq.user_proofs import isolation
    assert isolation(b"", {"reduced", "landlock"})["level"] == "reduced"
    assert isolation(b'{"level": "namespaces"}', {"reduced", "landlock"})["level"] == "reduced"
    ok = isolation(b'{"level": "landlock", "why": []}', {"reduced", "landlock"})
    assert ok["level"] == "landlock" and not ok["missing"] and "own temporary directory" in ok["words"]


# ------------------------------------------------------------------ confinement (coqc)
@pytest.fixture(scope="module")
def libdir():
    require_coq()
    from sandbox.confine import possible
    if possible() == {"reduced"}:
        pytest.skip("neither Landlock nor namespaces can confine a process here")
    from coq import build as coq_build
    return Path(coq_build.build(["block_novikoff_unit"]).build_dir)


def _digests(d: Path) -> dict:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(d.glob("*.vo"))}


def _run(tmp_path, libdir, text, monkeypatch=None):
    from blueprint.user_theorems import load_theorems
    from coq import user_proofs
    if monkeypatch is not None:          # as if the audit had missed the command
        monkeypatch.setattr(user_proofs, "_audit", lambda *a: [])
    f = tmp_path / "mine.v"
    f.write_text(text)
    return user_proofs.check_user_proofs(load_theorems(EXAMPLE), f, libdir)


def _with(line: str) -> str:
    return PROOF.read_text().replace("Open Scope R_scope.", "Open Scope R_scope.\n" + line, 1)


@pytest.mark.slow
@pytest.mark.xdist_group("coq")
def test_a_legitimate_proof_is_kernel_checked_confined(tmp_path, libdir):
    (r,), problems = _run(tmp_path, libdir, PROOF.read_text())
    assert r.status == "kernel-checked" and not problems, r
    assert r.isolation["level"] in ("landlock", "namespaces") and not r.isolation["missing"], r.isolation


@pytest.mark.slow
@pytest.mark.xdist_group("coq")
@pytest.mark.parametrize("layer", ["landlock", "namespaces"])
@pytest.mark.parametrize("attack", ["outside", "project_vo", "plugin"])
def test_what_the_audit_missed_writes_nothing_outside(tmp_path, libdir, monkeypatch, attack, layer):
    from coq import user_proofs
    from sandbox.confine import possible
    if layer not in possible():
        pytest.skip(f"{layer} cannot confine a process here")
    if layer == "namespaces":            # each layer alone: Landlock left out
        boot = user_proofs._BOOT.replace("confine(sys.argv[2])", "confine(sys.argv[2], landlock=False)")
        assert boot != user_proofs._BOOT
        monkeypatch.setattr(user_proofs, "_BOOT", boot)
    outside = tmp_path / "outside"
    outside.mkdir()
    target = {"outside": outside / "written.txt", "project_vo": libdir / ATTACK_VO,
              "plugin": outside / "extracted.ml"}[attack]
    line = {"outside": f'Print Universes "{target}".',
            "project_vo": f'Print Universes "{target}".',
            # loads the extraction plugin (an ML module), which then writes a file
            "plugin": f'Declare ML Module "coq-core.plugins.extraction".\nExtraction "{target}" nat.'}[attack]
    before = _digests(libdir)
    (r,), problems = _run(tmp_path, libdir, _with(line), monkeypatch)
    if attack != "project_vo":
        assert not target.exists(), f"{target} was written: {r}"
    assert _digests(libdir) == before, "a compiled file of the development changed"
    assert r.isolation["level"] == layer, r.isolation
    assert r.status == "failed" and ("Permission denied" in r.reason or "Read-only file system" in r.reason), r


@pytest.mark.slow
@pytest.mark.xdist_group("coq")
def test_the_audit_refuses_before_coqc_runs(tmp_path, libdir):
    target = tmp_path / "written.txt"
    (r,), problems = _run(tmp_path, libdir, _with(f'Print Universes "{target}".'))
    assert r.status == "failed" and "Print Universes" in r.reason and problems, r
    assert not target.exists()


@pytest.mark.slow
@pytest.mark.xdist_group("coq")
def test_a_file_written_beside_the_proofs_is_refused(tmp_path, libdir, monkeypatch):
    """Confined, the file may still write in its own directory: a compiled statements file there
    would be what the checks Require, so anything but coqc's own output fails the file."""
    (r,), problems = _run(tmp_path, libdir, _with('Print Universes "UserStatements.vo".'), monkeypatch)
    assert r.status == "failed" and "wrote files of its own: UserStatements.vo" in r.reason, r
