"""A user's Coq proofs of the theorems of their own file (``verify --file F.py --coq``).

The statements are printed from the user's formula objects by the catalogue's printer
(``coq.export.statement``) into a file of our own, ``UserStatements.v``; the user's Coq file is
read through the catalogue's source audit (``coq.checks.refused_commands``: no ``Admitted``, no
axiom, no plugin, nothing switched off ...) and compiled against the suite's compiled development;
then, as for the catalogue (``coq.checks``), Coq itself checks the type of every proof:

    Definition check_<id> : User.UserStatements.<id>_statement := User.UserProofs.<id>.

so whatever the user's file calls its statement, the proof must prove the statement printed here;
``Print Assumptions`` of the check is read back and may name only the axioms the catalogue allows
(``coq.build.allowed_axioms``).  The only audit finding left out is the user's own
``<id>_statement`` definition, which the template ``--coq-out`` writes for them: it is never what
is checked (the check names the generated statement by its full path).

Everything is compiled in a fresh directory; the development's build directory is only read.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["UserCoqResult", "check_user_proofs", "KERNEL_CHECKED", "FAILED", "MISSING"]

KERNEL_CHECKED, FAILED, MISSING = "kernel-checked", "failed", "not proved in Coq"


@dataclass
class UserCoqResult:
    id: str
    status: str
    reason: str = ""
    axioms: list = field(default_factory=list)

    def to_json(self) -> dict:
        return {"id": self.id, "status": self.status, "reason": self.reason, "axioms": self.axioms}


def _coqc(coqc: str, libdir: Path, work: Path, name: str) -> tuple[int, str]:
    from .compile import coq_env
    from .names import LOGICAL
    p = subprocess.run([coqc, "-q", "-Q", str(libdir), LOGICAL, "-R", ".", "User", name], cwd=work,
                       capture_output=True, text=True, env=coq_env(), timeout=1800)
    return p.returncode, " ".join(ln.strip() for ln in (p.stdout + p.stderr).splitlines() if ln.strip())


def _audit(text: str, name: str, ids) -> list[str]:
    from .checks import refused_commands
    own = {f"'{i}_statement' defined outside" for i in ids}
    return [p for p in refused_commands({name: text}) if not any(o in p for o in own)]


def check_user_proofs(theorems, proofs_path, libdir: Path) -> tuple[list[UserCoqResult], list[str]]:
    """Check the user's Coq file ``proofs_path`` against the statements of ``theorems`` printed
    here, with the compiled development in ``libdir``.  Returns one result per theorem and the
    problems of the file as a whole (the audit's findings, a file Coq refuses)."""
    from .build import allowed_axioms, find_coqc
    from .checks import parse_assumptions
    from .export import ExportError, statement
    from .names import LOGICAL
    coqc = find_coqc()
    ids = [t.id for t in theorems]
    if coqc is None:
        return [UserCoqResult(i, FAILED, "coqc was not found on PATH") for i in ids], ["coqc was not found"]
    try:
        text = Path(proofs_path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        return [UserCoqResult(i, MISSING, f"cannot read {proofs_path}: {e}") for i in ids], \
            [f"cannot read {proofs_path}: {e}"]
    problems = _audit(text, os.path.basename(str(proofs_path)), ids)
    if problems:
        return [UserCoqResult(i, FAILED, "the source audit refuses the file: " + problems[0]) for i in ids], problems
    stmts, results = [], {}
    for th in theorems:
        try:
            stmts.append(f"Definition {th.id}_statement : Prop :=\n  {statement(th)}.\n")
        except ExportError as e:
            results[th.id] = UserCoqResult(th.id, FAILED, f"the statement is not printable in Coq: {e}")
    work = Path(tempfile.mkdtemp(prefix="mistakebound-user-coq-"))
    try:
        (work / "UserStatements.v").write_text(
            f"Require Import {LOGICAL}.Axioms {LOGICAL}.Prelude.\nOpen Scope R_scope.\n\n" + "\n".join(stmts))
        rc, out = _coqc(coqc, libdir, work, "UserStatements.v")
        if rc != 0:
            why = f"the printed statements do not compile: {out[-300:]}"
            return [results.get(i) or UserCoqResult(i, FAILED, why) for i in ids], [why]
        (work / "UserProofs.v").write_text(text)
        rc, out = _coqc(coqc, libdir, work, "UserProofs.v")
        if rc != 0:
            why = f"Coq refuses {os.path.basename(str(proofs_path))}: {out[-400:]}"
            return [results.get(i) or UserCoqResult(i, FAILED, why) for i in ids], [why]
        allowed = allowed_axioms()
        for th in theorems:
            if th.id in results:
                continue
            neg = "~ " if th.kind == "erratum" else ""
            name = f"UserCheck_{th.id}.v"
            (work / name).write_text(
                "Require User.UserStatements User.UserProofs.\n"
                f"Definition check_{th.id} : {neg}User.UserStatements.{th.id}_statement := User.UserProofs.{th.id}.\n"
                f'Redirect "ax_{th.id}" Print Assumptions check_{th.id}.\n')
            rc, out = _coqc(coqc, libdir, work, name)
            if rc != 0:
                missing = re.search(r"was not found|not a defined object|Unable to locate", out)
                results[th.id] = UserCoqResult(
                    th.id, MISSING if missing else FAILED,
                    f"no theorem {th.id} in the file" if missing else
                    f"Coq rejects the proof as a proof of the printed statement: {out[-300:]}")
                continue
            f = work / f"ax_{th.id}.out"
            axioms = parse_assumptions(f.read_text()) if f.exists() else None
            if axioms is None:
                results[th.id] = UserCoqResult(th.id, FAILED, "Print Assumptions could not be read")
            elif any(a not in allowed for a in axioms):
                bad = [a for a in axioms if a not in allowed]
                results[th.id] = UserCoqResult(th.id, FAILED, f"rests on axioms beyond the allowed: {', '.join(bad)}",
                                               axioms)
            else:
                results[th.id] = UserCoqResult(th.id, KERNEL_CHECKED, "", axioms)
        return [results[i] for i in ids], []
    finally:
        shutil.rmtree(work, ignore_errors=True)
