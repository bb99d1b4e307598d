"""Coq decides what each Coq proof proves.

After the development is compiled, a generated ``Checks.v`` requires every built module and states,
for every catalogue entry and every step lemma,

    Definition check_<id> : Mistakebound.Statements.<id>_statement := Mistakebound.<Module>.<id>.

(an erratum: ``~ ...``; a step: ``Mistakebound.StepStatements_all.<lemma>_statement``), so the
counterpart's type is checked by Coq's kernel, whatever its file says about names, notations or
local redefinitions; a lemma that is missing (an ``Abort``, a renamed lemma) is a type error, not a
count.  ``Print Assumptions`` of each ``check_<id>`` is read back, and ``Search "_statement"
outside`` the statement files must find nothing: a ``*_statement`` defined anywhere else is refused
by Coq's own index of the environment.

A lexical refusal list is the second layer: commands that switch a kernel check off, load plugins,
undo or abort a proof, or edit the search index are refused in every source before anything runs.
"""
from __future__ import annotations

import functools
import hashlib
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from coq.compile import coq_env, strip_comments
from coq.generate import LOGICAL

__all__ = ["CheckEntry", "refused_commands", "run_checks", "parse_assumptions", "probe_results", "STATEMENT_FILES_RE",
           "coqchk", "development_modules", "lexical_code"]

# the files that may define *_statement: the generated statement files
STATEMENT_FILES_RE = re.compile(r"^(Statements|RuleStatements|LearnerStatements|StepStatements_\w+)\.v$")

_REFUSED = [
    (re.compile(r"(?<![\w.'])(Admitted|admit|Admit|Axiom|Axioms|Parameter|Parameters|Hypothesis|Hypotheses|"
                r"Variable|Variables|Conjecture|Context)(?![\w'])"),
     "every axiom lives in Axioms.v; no gaps"),
    (re.compile(r"(?<![\w.'])(Abort)(?![\w'])"), "a proof is finished with Qed, never abandoned"),
    (re.compile(r"(?<![\w.'])(Unset\s+(?:\w+\s+)*?Checking)(?![\w'])"), "a kernel check cannot be switched off"),
    (re.compile(r"(?<![\w.'])(bypass_check|Bypass\w*)(?![\w'])", re.I), "a kernel check cannot be bypassed"),
    (re.compile(r"(?<![\w.'])(Declare\s+ML\s+Module|Add\s+(?:Rec\s+)?ML\s+Path|Load|Drop|Cd)(?![\w'])"),
     "no plugins, no loading of other files"),
    # a load path of the file's choosing: Require then loads any compiled file there, and the
    # plugins it declares
    (re.compile(r"(?<![\w.'])(Add\s+(?:Rec\s+)?LoadPath|Remove\s+LoadPath)(?![\w'])"),
     "no load path of the file's own: it Requires only the development and the standard library"),
    # Print Universes "FILE" writes the universe graph to FILE (anywhere: a compiled .vo of the
    # development, the proof cache)
    (re.compile(r"(?<![\w.'])(Print\s+(?:Sorted\s+)?Universes)(?![\w'])"),
     "a proof file writes no file: Print Universes \"FILE\" writes one"),
    # native_compute runs the OCaml compiler and links its output into Coq
    (re.compile(r"(?<![\w.'])(native_compute|native_cast_no_check|Native\s+Compute)(?![\w'])"),
     "a proof file runs no program: native_compute runs the OCaml compiler"),
    (re.compile(r"(?<![\w.'])(Reset|Back|BackTo|Undo|Restart)(?![\w'])"), "nothing is undone"),
    (re.compile(r"(?<![\w.'])(Primitive|Register|Extract\s+\w+|Redirect)(?![\w'])"),
     "no primitives, registrations or redirected output"),
    # Extraction "FILE" writes the file (anywhere: the proof cache, the suite's sources), and
    # Extraction TestCompile runs the OCaml compiler
    (re.compile(r"(?<![\w.'])(Extraction)(?![\w'])"), "no extraction: a proof file writes no file and runs nothing"),
    (re.compile(r"(?<![\w.'])(Search\s+Blacklist|Definitional\s+UIP|Impredicative)(?![\w'])"),
     "the search index and the logic are left as they are"),
    (re.compile(r"(?<![\w.'])(Typing\s+Flags|Unset\s+Universe)(?![\w'])"), "a kernel check cannot be switched off"),
]
_DEFINES_STATEMENT = re.compile(
    r"(?<![\w.'])(?:Definition|Let|Fixpoint|CoFixpoint|Notation|Infix|Theorem|Lemma|Fact|Remark|Corollary|"
    r"Proposition|Example|Inductive|CoInductive|Variant|Record|Structure|Class|Instance|Ltac|Module|Canonical|"
    r"Coercion|Local\s+Notation|Abbreviation)\s+(?:[\w\"\s]*?\s)?(\w*_statement)\b")


_LEX_MARK = re.compile(r'\(\*|\*\)|"')


def _string_end(text: str, i: int) -> int:
    """The index after the string whose contents start at ``i`` ("" inside it is a quote)."""
    while True:
        j = text.find('"', i)
        if j < 0:
            return len(text)
        if text.startswith('""', j):
            i = j + 2
            continue
        return j + 1


def lexical_code(text: str) -> str:
    """Coq text as Coq's lexer reads it, for the audit: each comment (nested; a string inside one is
    read as a string, so ``(* "*)" *)`` is one comment) replaced by a space -- a comment separates
    tokens: ``Declare(**)ML Module`` is ``Declare ML Module`` -- and each string emptied, ``"(*"``
    being a string, not a comment hiding the commands after it."""
    out, i = [], 0
    while True:
        m = _LEX_MARK.search(text, i)
        if m is None:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:m.start()])
        if m.group() == '"':
            out.append('""')
            i = _string_end(text, m.end())
        elif m.group() == "*)":            # outside a comment: text
            out.append("*)")
            i = m.end()
        else:
            out.append(" ")
            depth, i = 1, m.end()
            while depth:
                c = _LEX_MARK.search(text, i)
                if c is None:
                    i = len(text)
                    break
                if c.group() == '"':
                    i = _string_end(text, c.end())
                    continue
                depth += 1 if c.group() == "(*" else -1
                i = c.end()


def refused_commands(files: dict[str, str]) -> list[str]:
    """Every refused command in the sources (comments and strings skipped): one line each."""
    problems = []
    for name, text in sorted(files.items()):
        code = lexical_code(text)
        for rx, why in _REFUSED:
            for m in rx.finditer(code):
                if name == "Axioms.v" and m.group(1) in ("Axiom", "Axioms"):
                    continue
                line = code[:m.start()].count("\n") + 1
                problems.append(f"{name}:{line}: '{' '.join(m.group(1).split())}' is not allowed ({why})")
        if not STATEMENT_FILES_RE.match(name):
            for m in _DEFINES_STATEMENT.finditer(code):
                line = code[:m.start()].count("\n") + 1
                problems.append(f"{name}:{line}: '{m.group(1)}' defined outside the generated statement files")
    return problems


def parse_assumptions(text: str) -> list[str] | None:
    """Axiom names from ``Print Assumptions`` (None when the output has anything else: a fixpoint
    assumed guarded, an inductive assumed positive, a type-in-type universe, an unknown form)."""
    text = text.strip()
    if text == "Closed under the global context":
        return []
    if not text.startswith("Axioms:"):
        return None
    out = []
    for line in text.split("\n")[1:]:
        if not line.strip():
            continue
        if line[0].isspace():            # the continuation of an axiom's type
            continue
        m = re.match(r"^([\w.']+)(?:\s+:.*)?$", line)
        if not m:
            return None
        if m.group(1) not in out:
            out.append(m.group(1))
    return out


@dataclass
class CheckEntry:
    key: str             # check_<key> is defined in Checks.v
    type: str            # e.g. "Mistakebound.Statements.x_statement" or "~ ..."
    term: str            # e.g. "Mistakebound.Catalogue_vectors.x"
    module: str          # the .v file the term lives in


def _bundle(keys) -> str:
    """A tuple of the checks: Print Assumptions of it is the union of theirs, in one traversal
    (each Print Assumptions walks the standard library's reals again: ~1.3 s)."""
    out = "tt"
    for k in reversed(list(keys)):
        out = f"(check_{k}, {out})"
    return out


def _text(entries, modules, statement_modules) -> str:
    lines = ["(* Generated by coq.build: Coq checks the type of every counterpart and step lemma. *)"]
    lines += [f"Require {LOGICAL}.{m[:-2]}." for m in sorted(set(modules) | set(statement_modules))]
    outside = " ".join(f"{LOGICAL}.{m[:-2]}" for m in sorted(statement_modules))
    lines.append(f'Redirect "search_statement" Search "_statement" outside {outside}.')
    for e in entries:
        lines.append(f"Definition check_{e.key} : {e.type} := {e.term}.")
    lines.append(f"Definition all_checks := {_bundle(e.key for e in entries)}.")
    lines.append('Redirect "ax_all" Print Assumptions all_checks.')
    return "\n".join(lines) + "\n"


def _coqc(coqc: str, bdir: Path, name: str) -> tuple[int, str, float]:
    import os
    with open(bdir / (name[:-2] + ".log"), "w") as fh:
        p = subprocess.Popen([coqc, "-q", "-R", ".", LOGICAL, name], cwd=bdir, stdout=fh, stderr=subprocess.STDOUT,
                             env=coq_env())
        _, status, ru = os.wait4(p.pid, 0)
    return os.waitstatus_to_exitcode(status), (bdir / (name[:-2] + ".log")).read_text(), ru.ru_utime + ru.ru_stime


def _bisect(coqc: str, bdir: Path, keys: list[str], allowed) -> tuple[dict, float]:
    """The entries whose assumptions are not all allowed, found by halving the bundle (one coqc run
    per level); returns (key -> axioms | None for the entries found, CPU seconds)."""
    cpu = 0.0
    suspects = [list(keys)]
    found: dict = {}
    while suspects:
        parts = []
        for grp in suspects:
            if len(grp) == 1:
                parts.append(grp)
            else:
                parts += [grp[:len(grp) // 2], grp[len(grp) // 2:]]
        lines = [f"Require {LOGICAL}.Checks.", f"Import {LOGICAL}.Checks."]
        for i, grp in enumerate(parts):
            lines.append(f"Definition part_{i} := {_bundle(grp)}.")
            lines.append(f'Redirect "axpart_{i}" Print Assumptions part_{i}.')
        (bdir / "ChecksBisect.v").write_text("\n".join(lines) + "\n")
        rc, out, c = _coqc(coqc, bdir, "ChecksBisect.v")
        cpu += c
        if rc != 0:
            return {k: None for grp in suspects for k in grp}, cpu
        suspects = []
        for i, grp in enumerate(parts):
            f = bdir / f"axpart_{i}.out"
            got = parse_assumptions(f.read_text()) if f.exists() else None
            if got is not None and all(a in allowed for a in got):
                continue
            if len(grp) == 1:
                found[grp[0]] = got
            else:
                suspects.append(grp)
    return found, cpu


def run_checks(coqc: str, bdir: Path, entries: list[CheckEntry], statement_modules: list[str],
               keys: dict[str, str], allowed=()) -> tuple[dict, dict, list[str] | None, float]:
    """Compile Checks.v; an entry whose definition Coq rejects is dropped and recorded, and the file
    compiled again without it.  Returns (axioms per key: list | None, error per key, the names Search
    found outside the statement files (None: unreadable), CPU seconds).  The axioms are read once for
    all entries together; when they include one not ``allowed``, the entries responsible are found by
    halving and get their own (the others get the common, allowed list)."""
    errors: dict[str, str] = {}
    todo = list(entries)
    cpu = 0.0
    modules = sorted({e.module for e in entries})
    base = hashlib.sha256()
    for m in sorted(set(modules) | set(statement_modules)):
        base.update(keys.get(m, m).encode())
    for _ in range(len(entries) + 1):
        text = _text(todo, modules, statement_modules)
        h = base.copy()
        h.update(text.encode())
        key = h.hexdigest()
        vo, keyf = bdir / "Checks.vo", bdir / "Checks.mbkey"
        if not (vo.exists() and keyf.exists() and keyf.read_text() == key):
            for p in list(bdir.glob("ax*.out")) + [bdir / "search_statement.out", keyf]:
                if p.exists():
                    p.unlink()
            (bdir / "Checks.v").write_text(text)
            rc, out, c = _coqc(coqc, bdir, "Checks.v")
            cpu += c
            if rc != 0:
                m = re.search(r'line (\d+)', out)
                line = int(m.group(1)) if m else -1
                src = text.splitlines()
                bad = None
                if 0 < line <= len(src):
                    mm = re.match(r"Definition check_(\w+) :", src[line - 1])
                    if mm:
                        bad = next((e for e in todo if e.key == mm.group(1)), None)
                msg = " ".join(ln.strip() for ln in out.splitlines() if ln.strip())[-400:]
                if bad is None:       # not one entry's fault: every entry fails
                    for e in todo:
                        errors[e.key] = "Checks.v did not compile: " + msg
                    return {}, errors, None, cpu
                errors[bad.key] = "Coq rejects the check: " + msg
                todo.remove(bad)
                continue
            keyf.write_text(key)
        f = bdir / "ax_all.out"
        common = parse_assumptions(f.read_text()) if f.exists() else None
        axioms = {e.key: common for e in todo}
        if todo and (common is None or any(a not in allowed for a in common)):
            found, c = _bisect(coqc, bdir, [e.key for e in todo], allowed)
            cpu += c
            clean = sorted({a for a in (common or []) if a in allowed})
            axioms = {e.key: found.get(e.key, clean) for e in todo} if found else {e.key: None for e in todo}
        sf = bdir / "search_statement.out"
        found_names = None
        if sf.exists():
            found_names = [ln.split(":", 1)[0].strip() for ln in sf.read_text().splitlines()
                           if ln.strip() and not ln[0].isspace()]
        return axioms, errors, found_names, cpu
    return {}, errors, None, cpu


def development_modules(bdir: Path, root: str = "Checks") -> list[str]:
    """The development's modules ``root`` rests on (itself included), from the Require lines of the
    build directory's files: what :func:`coqchk` checks (the standard library is not among them)."""
    from coq.compile import order
    files = {p.name: p.read_text() for p in bdir.glob("*.v")}
    _, deps = order(files)
    # "From Mistakebound Require X." names a module without its prefix
    from_form = re.compile(rf"\bFrom\s+{LOGICAL}\s+Require\s+(?:(?:Import|Export)\s+)?([\w\s.]*?)\.(?=\s|$)")
    seen, stack = [], [f"{root}.v"]
    while stack:
        f = stack.pop()
        if f in seen or f not in files:
            continue
        seen.append(f)
        stack.extend(deps[f])
        stack.extend(f"{m}.v" for g in from_form.findall(strip_comments(files[f])) for m in g.split())
    return sorted(f"{LOGICAL}.{f[:-2]}" for f in seen)


# the standard library modules checked beside the development: the real numbers' and ssreflect's
# modules sealed by a signature (their fields would otherwise be listed as axioms)
STDLIB_CHECKED = ("Coq.Reals.Rdefinitions", "Coq.ssr.ssrunder")


def _allowed(name: str, allowed) -> bool:
    # coqchk names every axiom in full: an allowed one is the standard library's own (under Coq.),
    # never a module of the development that happens to end the same way
    return name.startswith("Coq.") and any(name.endswith("." + x) for x in allowed)


@functools.lru_cache(maxsize=None)
def _theories(exe: str) -> str:
    """Where the standard library's compiled files are (asked of coqchk once)."""
    import os
    r = subprocess.run([exe, "-where"], capture_output=True, text=True)
    return os.path.join(r.stdout.strip(), "theories")


def _stdlib_library(exe: str, name: str) -> str | None:
    """The standard library file (e.g. Coq.Reals.Rdefinitions) a qualified name lives in."""
    import os
    root = _theories(exe)
    parts = name.split(".")[1:]
    for i in range(len(parts) - 1, 0, -1):
        if os.path.exists(os.path.join(root, *parts[:i]) + ".vo"):
            return "Coq." + ".".join(parts[:i])
    return None


def coqchk(bdir: Path, allowed, coqchk_path: str | None = None, full: bool = False) -> tuple[bool, str]:
    """``coqchk`` (Coq's independent checker: it re-typechecks the compiled files, guard and
    positivity included) on Checks.vo and every module of the development it rests on; passes when
    its context summary lists only ``allowed`` axioms and nothing relying on type-in-type, unsafe
    fixpoints or assumed positivity.  Returns (ok, what was checked and the summary, or the error).

    By default the development's own modules are checked (``-norec`` each) and the standard library
    (``Coq.*``, as shipped with Coq and already loaded by every coqc run) is admitted, not re-checked:
    re-checking it is most of coqchk's time (58 of 71 s) and says nothing about this development's
    proofs.  The admitted libraries' axioms still enter the summary where a checked module uses them.
    ``full``: the standard library is re-checked too."""
    import shutil
    exe = coqchk_path or shutil.which("coqchk")
    if exe is None:
        return False, "coqchk not found"
    mods = development_modules(bdir)
    if f"{LOGICAL}.Checks" not in mods:
        return False, "Checks.v is not in the build directory"
    stdlib = list(STDLIB_CHECKED)
    for _ in range(4):
        targets = [f"{LOGICAL}.Checks"] if full else [a for m in mods + stdlib for a in ("-norec", m)]
        r = subprocess.run([exe, "-silent", "-o", "-R", ".", LOGICAL] + targets, cwd=bdir,
                           capture_output=True, text=True)
        out = r.stdout + r.stderr
        if r.returncode != 0 or "CONTEXT SUMMARY" not in out:
            return False, " ".join(out.split())[-400:]
        summary = out.split("CONTEXT SUMMARY", 1)[1]
        axioms = re.findall(r"^\s+Coq\.\S+|^\s+\w[\w.]*$", summary.split("* Axioms:", 1)[1].split("*", 1)[0], re.M) \
            if "* Axioms:" in summary else []
        names = [a.strip() for a in axioms if a.strip()]
        # a field of a standard library module sealed by its signature is listed as an axiom when its
        # library is admitted: that library is checked too (its implementation against its signature)
        more = [] if full else sorted({lib for a in names if a.startswith("Coq.") and not _allowed(a, allowed)
                                       for lib in [_stdlib_library(exe, a)] if lib and lib not in stdlib})
        if not more:
            break
        stdlib += more
    bad = [a for a in names if not _allowed(a, allowed)]
    unsafe = [ln for ln in summary.splitlines()
              if ln.startswith("* ") and ("type-in-type" in ln or "unsafe" in ln or "positivity" in ln)
              and "<none>" not in ln]
    ok = not bad and not unsafe
    scope = (f"checked {len(mods)} modules of {LOGICAL} and the standard library they rest on" if full else
             f"checked {len(mods)} modules of {LOGICAL} and {', '.join(stdlib)}; the rest of the standard library "
             "(Coq.*) admitted as shipped with Coq, not re-checked")
    return ok, (f"{scope}; axioms: " + ", ".join(names) if ok else f"not allowed: {bad} {unsafe}")


def probe_results(bdir: Path, built: set, rep, probes) -> set:
    """(step lemma, hypothesis index, alternative) of every rule instance Coq derives from its Rules.v
    lemma, tried in a proof where a failure is printed instead of stopping the file (``ChecksProbe_<i>.v``,
    compiled with the rest; its output, ``ChecksProbe_<i>.log``, is re-read while nothing it requires
    changed)."""
    out = set()
    for pf in sorted(probes):
        log = bdir / (pf[:-2] + ".log")
        if pf not in built or not log.exists():
            why = rep.file_errors.pop(pf, "") or "its output is missing"
            if not why.startswith("not compiled: it requires"):    # else the failed requirement is reported
                rep.audit.append(f"the rule-instance probe ({pf}) did not compile: " + why[-300:])
            continue
        out |= {(m.group(1), int(m.group(2)), int(m.group(3)))
                for m in re.finditer(r"MBOK (\w+) (\d+) (\d+)", log.read_text())}
    return out
