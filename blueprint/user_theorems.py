"""Theorems a user writes on the proof kernel (``mistakebound verify --file my_theorems.py``).

The file is a Python module defining ``THEOREMS = [Theorem(...), ...]`` (``proofs.catalogue.core.Theorem``,
formulas from ``proofs.language.formula``, proofs against ``proofs.kernel.kernel.Proof``; the catalogue's theorems
are lemmas through ``p.lemma(id, ...)``).  They are checked exactly as the catalogue is
(``proofs.verify.runner.run_catalogue``): the kernel builds each proof (a refused proof is a build error),
every step is proved by z3 and re-checked by cvc5 on the same text, every step's hypotheses and
the theorem's hypotheses are shown satisfiable, every lemma is proved; anything else is "unknown".
Their statements are printed in Coq by the catalogue's printer (``coq.export.statement``) for the
user to prove there.

The file is the user's own code, and it never runs in this process: :func:`check_file` starts a
separate ``python -I`` process (``blueprint.user_child``), confined before the file is read to
writes in its own temporary directory (``sandbox.confine``: Landlock, or namespaces; "reduced"
where neither exists, and then this run neither reads nor writes the proof cache), that imports
it, builds each proof on the kernel and hands back certificates only -- no engine, no proof
cache, no checker there.  This
process then has the independent checker (``checker``) decide every certificate, together with
the certificates of the catalogue lemmas it builds itself; a rule outside the checker's fixed
table is an assumption ("proved assuming <rule>"), and a theorem's hypotheses must still be
satisfiable on a concrete instance, so nothing is proved vacuously.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from learners.errors import InputError

__all__ = ["load_theorems", "check_file", "coq_statements", "UserResult"]

FAMILY = "user"


def load_theorems(path) -> list:
    """The ``THEOREMS`` of a user file; :class:`InputError` (one line) when the file cannot be read,
    does not compile or import, or defines no theorem."""
    from proofs.catalogue import registry
    from proofs.catalogue.core import Theorem
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
            raise InputError(f"{path}: THEOREMS holds a {type(t).__name__}, not a proofs.catalogue.core.Theorem")
        if t.id in seen:
            raise InputError(f"{path}: two theorems named {t.id}")
        if t.id in registry.theorem_ids():
            raise InputError(f"{path}: {t.id} is already a catalogue theorem; choose another id")
        seen.add(t.id)
        t.family = t.family or FAMILY
    return list(ths)


@dataclass
class UserResult:
    """The checker's verdict on one theorem of the file (what ``verify --file`` reports)."""
    theorem: object                                   # proofs.catalogue.core.Theorem, rebuilt from the certificate
    status: str
    reasons: list = field(default_factory=list)
    steps: list = field(default_factory=list)         # (step id, kind, {engine: status})
    lemmas: dict = field(default_factory=dict)        # lemma id -> the checker's status
    rules: list = field(default_factory=list)
    assumptions: list = field(default_factory=list)
    nonvacuity: str = ""
    checker: object = None
    counterexamples: list = field(default_factory=list)   # {"step", "engine", "values"}: a model refuting a step

    def ok(self, allow_assumptions: bool = False) -> bool:
        want = self.theorem.expected
        return self.status == want or (allow_assumptions and want == "proved" and self.status == "proved assuming")

    def counts(self) -> tuple[int, int]:
        return sum(all(v == "proved" for v in a.values()) for _, _, a in self.steps), len(self.steps)

    def to_json(self, allow_assumptions: bool = False) -> dict:
        from proofs.printers.render import text
        th = self.theorem
        return {"id": th.id, "kind": th.kind, "name": th.name, "status": self.status, "expected": th.expected,
                "ok": self.ok(allow_assumptions), "reasons": list(self.reasons), "statement": text(th.statement),
                "hypotheses_satisfiable": self.nonvacuity or None,
                "steps": [{"id": sid, "kind": kind, "ok": all(v == "proved" for v in a.values()),
                           "verdicts": [{"engine": e, "status": v} for e, v in a.items()]}
                          for sid, kind, a in self.steps],
                "lemmas": [{"id": k, "status": v} for k, v in sorted(self.lemmas.items())],
                "trusted_rules": list(self.rules), "assumptions": list(self.assumptions),
                "counterexamples": list(self.counterexamples),
                "checker": self.checker.to_json() if self.checker is not None else None}


CHILD_SECONDS = 600
# confined first (sandbox.confine: writes only in its temporary directory), the record of how
# sent through a pipe closed before the user's file is read; then the file runs
_BOOT = ("import os, sys, json; sys.path.insert(0, sys.argv[1]); from sandbox.confine import confine; "
         "rec = confine(sys.argv[3]); fd = int(sys.argv[4]); os.write(fd, json.dumps(rec).encode()); os.close(fd); "
         "from blueprint.user_child import main; raise SystemExit(main(sys.argv[2], sys.argv[5]))")


def _isolation(raw: bytes, allowed=None) -> dict:
    """How the file's process was confined, from the record it sent before the file was read
    (``sandbox.confine.read_record``: anything but a level this system allows is "reduced")."""
    from sandbox.confine import read_record
    return read_record(raw, allowed, "the file's process")


def _run_child(path) -> tuple[dict, dict]:
    """Run the user's file in its own ``python -I`` process, confined to writes in a fresh
    temporary directory (``sandbox.confine``); what it hands back (data only) and how it was
    confined."""
    import json
    import subprocess
    import tempfile
    root = str(Path(__file__).resolve().parent.parent)
    with tempfile.TemporaryDirectory(prefix="mistakebound-user-") as tmp:
        out = os.path.join(tmp, "certificates.json")
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": tmp, "XDG_CACHE_HOME": tmp,
               "LANG": os.environ.get("LANG", "C.UTF-8")}
        from sandbox.confine import possible
        allowed = possible()
        r, w = os.pipe()
        try:
            p = subprocess.run([sys.executable, "-I", "-c", _BOOT, root, str(Path(path).resolve()), tmp, str(w), out],
                               cwd=tmp, env=env, capture_output=True, text=True, timeout=CHILD_SECONDS,
                               pass_fds=(w,), stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise InputError(f"{path}: building its proofs took more than {CHILD_SECONDS} s") from None
        finally:
            os.close(w)
            with os.fdopen(r, "rb") as fh:
                iso = _isolation(fh.read(1 << 16), allowed)
        try:
            with open(out, encoding="utf-8") as fh:
                data = json.load(fh)
        except (OSError, ValueError, RecursionError):
            last = (p.stderr.strip().splitlines() or ["no output"])[-1]
            raise InputError(f"{path}: its process handed back no certificates ({last[:200]})") from None
    if not isinstance(data, dict):
        raise InputError(f"{path}: its process handed back malformed data")
    if "error" in data:
        raise InputError(str(data["error"]).splitlines()[0] if str(data["error"]) else f"{path}: failed")
    ths = data.get("theorems")
    if not isinstance(ths, list) or not ths or not all(
            isinstance(t, dict) and isinstance(t.get("meta"), dict) and isinstance(t.get("certificate"), dict)
            for t in ths):
        raise InputError(f"{path}: its process handed back malformed data")
    return data, iso


def _theorem(cert: dict, meta: dict):
    """The statement of a certificate as a :class:`proofs.catalogue.core.Theorem` (for the report and Coq)."""
    from checker.check import _formula, _hypotheses, declarations
    from proofs.verify.certificate import to_expr
    from proofs.catalogue.core import Source, Theorem

    def no_proof(p):
        raise InputError("the proof of a user theorem runs in its own process")

    decls = declarations(cert.get("symbols"))
    hyps = [(n, to_expr(f)) for n, f in _hypotheses(cert.get("hypotheses"), decls)]
    concl = to_expr(_formula(cert.get("conclusion"), decls, "the conclusion"))
    names = {}
    for f in [f for _, f in hyps] + [concl]:
        from proofs.language.substitution import free_vars
        names.update({v.name: v for v in free_vars(f)})
    sizes = {names[n]: k for n, k in (meta.get("witness_sizes") or {}).items()
             if n in names and isinstance(k, int) and 0 <= k <= 8}
    dim = meta.get("witness_dim") if isinstance(meta.get("witness_dim"), int) and 1 <= meta["witness_dim"] <= 4 else 2
    kind = cert.get("kind")
    return Theorem(id=cert["theorem"], name=str(meta.get("name", cert["theorem"]))[:200],
                   source=Source("", "a user's theorem file", ""), hypotheses=hyps, conclusion=concl,
                   proof=no_proof if kind == "theorem" else None, kind=kind, family=FAMILY,
                   counterexample=cert.get("counterexample") if kind == "erratum" else None,
                   witness_sizes=sizes or None, witness_dim=dim)


def check_file(path, progress=None):
    """Run the file in its own confined process, have the checker decide what it hands back;
    returns (the theorems as stated, a :class:`UserResult` for each, how the file's process was
    confined: ``{"level": "landlock" | "namespaces" | "reduced", ...}``)."""
    if not Path(path).is_file():
        raise InputError(f"--file {path}: no such file")
    if Path(path).suffix != ".py":
        raise InputError(f"--file {path}: a Python file (.py) is expected")
    # what decides is loaded before the file's process starts (where it could not be confined,
    # "reduced", that process could rewrite what this one would load later)
    import checker  # noqa: F401
    import proofs.verify.certificate  # noqa: F401
    import proofs.verify.checks  # noqa: F401
    import proofs.verify.runner  # noqa: F401
    from proofs.engines import cache
    data, iso = _run_child(path)
    was = cache.enabled()
    # confined, the file's process could not write the proof cache: it is written by this process
    # alone, each answer under the very text it decided.  Unconfined ("reduced"), it could have:
    # nothing is read from it, nor written, in this run
    if iso["level"] == "reduced":
        cache.set_enabled(False)
    try:
        ths, results = _decide(path, data, progress)
    finally:
        cache.set_enabled(was)
    return ths, results, iso


def _decide(path, data, progress):
    import checker
    from checker.terms import CheckError
    from proofs.catalogue import registry
    from proofs.verify.certificate import known_verdicts, oracle
    from proofs.engines.engines import SAT
    from proofs.verify.runner import run_catalogue
    entries, seen = [], set()
    for t in data["theorems"]:
        cert, meta = t["certificate"], t["meta"]
        tid = cert.get("theorem")
        if not isinstance(tid, str) or tid in seen or tid in registry.theorem_ids():
            raise InputError(f"{path}: its process handed back a certificate of {tid!r} (a catalogue id, "
                             f"a repeated id or none)")
        seen.add(tid)
        try:
            th = _theorem(cert, meta)
        except (CheckError, ValueError) as e:
            raise InputError(f"{path}: theorem {tid}: {str(e).splitlines()[0]}") from None
        entries.append((th, cert, t.get("error")))
    lemma_ids = sorted({lid for _, c, _ in entries for lid in (c.get("lemmas") or {})
                        if isinstance(lid, str) and lid in registry.theorem_ids()})
    cat = run_catalogue(lemma_ids) if lemma_ids else None
    cat_certs = cat.certificates if cat is not None else {}
    answers: dict = {}
    # the lemmas' verdicts are this process's own; the file's obligations are decided on the
    # checker's texts (the proof cache answering only for texts this process decided before)
    ask = oracle(known_verdicts(cat.results) if cat is not None else {})

    def record(obligations):
        got = ask(obligations)
        for o, a in zip(obligations, got):
            answers[id(o)] = a
        return got

    mine = [(th, checker.read(c), err) for th, c, err in entries]
    with checker.reading():
        theirs = [checker.read(c) for c in cat_certs.values()]
    verdicts = checker.decide([c for _, c, err in mine if not err] + theirs, record)
    results = []
    for th, ch, err in mine:
        if err:
            results.append(UserResult(th, "build error", [str(err)[:2000]]))
            continue
        v = verdicts[ch.theorem]
        r = UserResult(th, v.status, list(v.reasons), rules=sorted({x.split(".")[0] for x in v.rules}),
                       assumptions=list(v.assumptions), checker=v)
        r.steps = [(o.step, o.kind, answers.get(id(o), {})) for o in ch.obligations]
        for o in ch.obligations:
            if o.text in ask.counterexamples:
                engine, vals = ask.counterexamples[o.text]
                r.counterexamples.append({"step": o.step, "engine": engine, "values": {
                    k: str(x) for k, x in sorted(vals.items()) if not str(k).startswith("mb_")}})
        r.lemmas = {lid: (verdicts[lid].status if lid in verdicts else "not checked") for lid in ch.lemmas}
        if th.kind == "theorem" and th.hypotheses:
            from proofs.verify.checks import _nonvacuity
            (pend, _), _how = _nonvacuity(th)
            r.nonvacuity = pend.get()[0].status
            if r.nonvacuity != SAT and r.status in ("proved", "proved assuming"):
                r.status = "unknown"
                r.reasons.append(f"the theorem's hypotheses were not shown satisfiable together ({r.nonvacuity})")
        elif th.kind == "theorem":
            r.nonvacuity = "sat"
        if progress is not None:
            progress(th, r)
        results.append(r)
    return [th for th, _, _ in entries], results


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
