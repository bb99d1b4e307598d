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
Each ``coqc`` runs in a child that first confines itself (``sandbox.confine``: Landlock, or a
read-only mount view in namespaces) to writes in that directory, then becomes ``coqc``: whatever
the audit missed (a command that writes a file, a plugin that runs a program), the user's file
cannot write the development's compiled files, the proof cache or the suite's sources.  The
level is in every result; "reduced" (neither layer could be set up) says that the file was
compiled unconfined, the audit its only guard.
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
    isolation: dict = field(default_factory=dict)     # how coqc was confined (see isolation())

    def to_json(self) -> dict:
        return {"id": self.id, "status": self.status, "reason": self.reason, "axioms": self.axioms,
                "isolation": self.isolation}


# the child confines itself (writes only in the work directory), sends the record of how through
# a pipe it then closes, and only then becomes coqc
_BOOT = ("import os, sys, json; sys.path.insert(0, sys.argv[1]); from sandbox.confine import confine; "
         "rec = confine(sys.argv[2]); fd = int(sys.argv[3]); os.write(fd, json.dumps(rec).encode()); os.close(fd); "
         "os.execv(sys.argv[4], sys.argv[4:])")


def isolation(raw: bytes, allowed) -> dict:
    """How a coqc child was confined, from the record it sent before it became coqc
    (``sandbox.confine.read_record``: anything but a level this system allows is "reduced")."""
    from sandbox.confine import read_record
    rec = read_record(raw, allowed, "the coqc process")
    return {k: rec[k] for k in ("level", "words", "missing")}


class _Confined:
    """coqc runs in a directory of ``work``, confined to writes there; the weakest level of the runs
    is kept."""

    def __init__(self, coqc: str, libdir: Path, work: Path):
        from sandbox.confine import possible
        self.coqc, self.libdir, self.work = os.path.realpath(coqc), libdir, work
        self.allowed = possible()
        self.iso: dict = {}
        for d in "suc":
            (work / d).mkdir()

    def __call__(self, sub: str, name: str) -> tuple[int, str]:
        import sys
        from coq.compile import coq_env
        from coq.names import LOGICAL
        root = str(Path(__file__).resolve().parent.parent)
        here = self.work / sub
        env = dict(coq_env(), HOME=str(here), TMPDIR=str(here))
        r, w = os.pipe()
        try:
            p = subprocess.run([sys.executable, "-I", "-c", _BOOT, root, str(here), str(w), self.coqc,
                                "-q", "-Q", str(self.libdir), LOGICAL, "-Q", str(self.work / "s"), "User",
                                "-Q", str(self.work / "u"), "User", name],
                               cwd=here, capture_output=True, text=True, env=env, timeout=1800,
                               pass_fds=(w,), stdin=subprocess.DEVNULL)
        finally:
            os.close(w)
            with os.fdopen(r, "rb") as fh:
                iso = isolation(fh.read(1 << 16), self.allowed)
        order = ("reduced", "namespaces", "landlock")
        if not self.iso or order.index(iso["level"]) < order.index(self.iso["level"]):
            self.iso = iso
        return p.returncode, " ".join(ln.strip() for ln in (p.stdout + p.stderr).splitlines() if ln.strip())


def _audit(text: str, name: str, ids) -> list[str]:
    from coq.checks import refused_commands
    own = {f"'{i}_statement' defined outside" for i in ids}
    return [p for p in refused_commands({name: text}) if not any(o in p for o in own)]


def check_user_proofs(theorems, proofs_path, libdir: Path) -> tuple[list[UserCoqResult], list[str]]:
    """Check the user's Coq file ``proofs_path`` against the statements of ``theorems`` printed
    here, with the compiled development in ``libdir``.  Returns one result per theorem and the
    problems of the file as a whole (the audit's findings, a file Coq refuses)."""
    from coq.build import find_coqc
    from coq.export import ExportError, statement
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
    work = Path(os.path.realpath(tempfile.mkdtemp(prefix="mistakebound-user-coq-")))
    try:
        coq = _Confined(coqc, libdir, work)
        out = _compile_and_check(theorems, text, os.path.basename(str(proofs_path)), coq, stmts, results)
        for r in out[0]:
            r.isolation = coq.iso
        return out
    finally:
        shutil.rmtree(work, ignore_errors=True)


_OWN_OUTPUT = {"UserProofs.v", "UserProofs.vo", "UserProofs.vok", "UserProofs.vos", "UserProofs.glob",
               ".UserProofs.aux"}


def _compile_and_check(theorems, text: str, name: str, coq: _Confined, stmts, results):
    """The statements, the user's file and each check, each compiled in a directory of its own (the
    only one its coqc may write): the user's file cannot replace the compiled statements."""
    from coq.build import allowed_axioms
    from coq.checks import parse_assumptions
    from coq.names import LOGICAL
    ids = [t.id for t in theorems]
    (coq.work / "s" / "UserStatements.v").write_text(
        f"Require Import {LOGICAL}.Axioms {LOGICAL}.Prelude.\nOpen Scope R_scope.\n\n" + "\n".join(stmts))
    rc, out = coq("s", "UserStatements.v")
    if rc != 0:
        why = f"the printed statements do not compile: {out[-300:]}"
        return [results.get(i) or UserCoqResult(i, FAILED, why) for i in ids], [why]
    (coq.work / "u" / "UserProofs.v").write_text(text)
    rc, out = coq("u", "UserProofs.v")
    if rc != 0:
        why = f"Coq refuses {name}: {out[-400:]}"
        return [results.get(i) or UserCoqResult(i, FAILED, why) for i in ids], [why]
    # its directory holds no compiled file but its own (UserStatements.vo there would be what the
    # checks Require; a subdirectory, User.X.Y) -- micromega's caches (.nra.cache) are left alone
    u = coq.work / "u"
    extra = sorted(n for n in os.listdir(u) if n not in _OWN_OUTPUT and (
        (u / n).is_dir() or os.path.splitext(n)[1] in (".vo", ".vos", ".vok", ".cmxs", ".cma", ".cmo", ".so")))
    if extra:
        why = f"compiling {name} wrote files of its own: {', '.join(extra)[:200]}"
        return [results.get(i) or UserCoqResult(i, FAILED, why) for i in ids], [why]
    allowed = allowed_axioms()
    for th in theorems:
        if th.id in results:
            continue
        neg = "~ " if th.kind == "erratum" else ""
        check = f"UserCheck_{th.id}.v"
        (coq.work / "c" / check).write_text(
            "Require User.UserStatements User.UserProofs.\n"
            f"Definition check_{th.id} : {neg}User.UserStatements.{th.id}_statement := User.UserProofs.{th.id}.\n"
            f'Redirect "ax_{th.id}" Print Assumptions check_{th.id}.\n')
        rc, out = coq("c", check)
        if rc != 0:
            missing = re.search(r"was not found|not a defined object|Unable to locate", out)
            results[th.id] = UserCoqResult(
                th.id, MISSING if missing else FAILED,
                f"no theorem {th.id} in the file" if missing else
                f"Coq rejects the proof as a proof of the printed statement: {out[-300:]}")
            continue
        f = coq.work / "c" / f"ax_{th.id}.out"
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
