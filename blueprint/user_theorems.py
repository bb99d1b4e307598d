"""Theorems a user writes on the proof kernel (``mistakebound verify --file my_theorems.py``).

The file is a Python module defining ``THEOREMS = [Theorem(...), ...]`` (``proofs.core.Theorem``,
formulas from ``proofs.formula``, proofs against ``proofs.kernel.Proof``; the catalogue's theorems
are lemmas through ``p.lemma(id, ...)``).  They are checked exactly as the catalogue is
(``proofs.runner.run_catalogue``): the kernel builds each proof (a refused proof is a build error),
every step is proved by z3 and re-checked by cvc5 on the same text, every step's hypotheses and
the theorem's hypotheses are shown satisfiable, every lemma is proved; anything else is "unknown".
Their statements are printed in Coq by the catalogue's printer (``coq.export.statement``) for the
user to prove there.

The file is the user's own code and runs in this process, as any Python module they import would.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

from learners.errors import InputError

__all__ = ["load_theorems", "check_file", "coq_statements"]

FAMILY = "user"


def load_theorems(path) -> list:
    """The ``THEOREMS`` of a user file; :class:`InputError` (one line) when the file cannot be read,
    does not compile or import, or defines no theorem."""
    from proofs import registry
    from proofs.core import Theorem
    p = Path(path)
    if not p.is_file():
        raise InputError(f"--file {path}: no such file")
    if p.suffix != ".py":
        raise InputError(f"--file {path}: a Python file (.py) is expected")
    try:
        src = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"--file {path}: cannot read it ({e})") from None
    try:
        code = compile(src, str(p), "exec")
    except SyntaxError as e:
        raise InputError(f"{path}:{e.lineno or 0}: syntax error: {e.msg}") from None
    name = f"mistakebound_user_{abs(hash(str(p.resolve())))}"
    spec = importlib.util.spec_from_loader(name, loader=None, origin=str(p))
    mod = importlib.util.module_from_spec(spec)
    mod.__file__ = str(p)
    sys.path.insert(0, str(p.resolve().parent))
    try:
        exec(code, mod.__dict__)                    # noqa: S102 - the user's own file, as `python FILE` would
    except Exception as e:  # noqa: BLE001 - any error in the user's module is bad input, one line
        msg = str(e).splitlines()[0] if str(e) else ""
        raise InputError(f"{path}: importing it raised {type(e).__name__}" + (f": {msg}" if msg else "")) from None
    finally:
        sys.path.remove(str(p.resolve().parent))
    ths = mod.__dict__.get("THEOREMS")
    if not isinstance(ths, (list, tuple)) or not ths:
        raise InputError(f"{path}: defines no theorems (write THEOREMS = [Theorem(...), ...])")
    seen = set()
    for t in ths:
        if not isinstance(t, Theorem):
            raise InputError(f"{path}: THEOREMS holds a {type(t).__name__}, not a proofs.core.Theorem")
        if t.id in seen:
            raise InputError(f"{path}: two theorems named {t.id}")
        if t.id in registry.theorem_ids():
            raise InputError(f"{path}: {t.id} is already a catalogue theorem; choose another id")
        seen.add(t.id)
        t.family = t.family or FAMILY
    return list(ths)


def check_file(path, progress=None):
    """Load and check; returns (theorems, the run's CatalogueResult)."""
    from proofs.runner import run_catalogue
    ths = load_theorems(path)
    return ths, run_catalogue(ths, progress=progress)


def coq_statements(theorems, source: str = "") -> str:
    """A Coq file stating every theorem (printed from its formula objects by the catalogue's printer),
    each with an open proof for the user to write; the definitions come from the suite's Coq
    development (``Require Import Mistakebound.Prelude``, ``coq/``)."""
    from coq.export import ExportError, statement
    out = ["(* Statements printed by `mistakebound verify --file` from the formula objects of "
           f"{os.path.basename(source) or 'a user file'}: prove them here.",
           "   Compile with the suite's development on the load path (docs/coq.md): -Q <coq dir> Mistakebound. *)",
           "Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Tactics.",
           "Open Scope R_scope.", ""]
    for th in theorems:
        try:
            st = statement(th)
        except ExportError as e:
            out.append(f"(* {th.id}: not printable in Coq: {e} *)\n")
            continue
        neg = "~ " if th.kind == "erratum" else ""
        out += [f"(* {th.id}: {th.name} *)", f"Definition {th.id}_statement : Prop :=\n  {st}.", "",
                f"Theorem {th.id} : {neg}{th.id}_statement.", "Proof.", "  (* your proof here *)", "Admitted.", ""]
    return "\n".join(out) + "\n"
