"""``mistakebound verify``: machine-check the theorem catalogue (proofs/)."""
from __future__ import annotations

import sys

import click

from mistakebound.common import (emit_json, fail, input_errors_exit_2, trusted_base_refused, trusted_base_started,
                                 write_text_atomic)

WIDTH = 100


def _status_cell(r) -> str:
    if r.theorem.kind == "erratum":
        return "[green]refuted[/] (erratum)" if r.ok else f"[red]{r.status}[/] (erratum)"
    return "[green]proved[/]" if r.ok else f"[red]{r.status}[/]"


def _recheck_cell(r) -> str:
    if r.theorem.kind == "erratum":
        return "z3+cvc5" if r.ok else "-"
    full = sum(s.recheck == "full" and s.agree for s in r.steps)
    part = sum(s.recheck != "full" and s.agree for s in r.steps)
    return f"{full}" + (f"+{part}d" if part else "") + f"/{len(r.steps)}"


def _table(cat, console):
    from rich.table import Table
    t = Table(title="Theorem catalogue", show_lines=False, pad_edge=False)
    t.add_column("theorem", overflow="fold", max_width=36)
    t.add_column("status", no_wrap=True)
    t.add_column("steps", justify="right", no_wrap=True)
    t.add_column("cvc5", justify="right", no_wrap=True)
    t.add_column("trusted rules", overflow="fold")
    t.add_column("s", justify="right", no_wrap=True)
    for r in cat.results:
        p, n = r.counts()
        steps = "-" if r.theorem.kind == "erratum" else f"{p}/{n}"
        t.add_row(r.theorem.id, _status_cell(r), steps, _recheck_cell(r), ", ".join(r.rules) or "-", f"{r.seconds:.2f}")
    console.print(t)
    console.print("cvc5: steps cvc5 re-checked on the same SMT-LIB text; +Nd: identities over a symbolic dimension, "
                  "re-checked by z3 and cvc5 at d = 1..3 only", highlight=False)


def _summary(cat) -> str:
    ths = [r for r in cat.results if r.theorem.kind == "theorem"]
    ers = [r for r in cat.results if r.theorem.kind == "erratum"]
    steps = [s for r in ths for s in r.steps if not s.memo]
    full = sum(s.recheck == "full" and s.agree for s in steps)
    part = sum(s.recheck != "full" and s.agree for s in steps)
    rules = sorted({x for r in ths for x in r.rules})
    return (f"{sum(r.ok for r in ths)}/{len(ths)} theorems proved, {sum(r.ok for r in ers)}/{len(ers)} errata refuted "
            f"(decided by the independent checker on {len(cat.certificates)} certificates); {len(steps)} steps: {full} re-checked by cvc5 on the same text, {part} identities over a symbolic "
            f"dimension re-checked at d = 1..3 only; trusted rules: {', '.join(rules) or 'none'}; {cat.seconds:.2f} s"
            + _cache_note(cat))


def _cache_note(cat) -> str:
    hits, n = cat.verdict_counts()
    return f" ({hits}/{n} verdicts from the proof cache)" if cat.cache_dir else " (proof cache not used)"


def _problems(cat) -> list[str]:
    out = []
    for r in cat.results:
        if r.ok:
            continue
        head = f"{r.theorem.id} is {r.status} (expected {r.theorem.expected})"
        out.append(head + (": " + r.reasons[0] if r.reasons else ""))
        out.extend(f"{r.theorem.id}: {why}" for why in r.reasons[1:])
    return out


@click.command("verify", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--theorem", "theorems", multiple=True, metavar="ID",
              help="Check only this theorem (and the lemmas it uses). Repeatable. See --list.")
@click.option("--json", "json_path", metavar="FILE", default=None,
              help="Write the full report as JSON to FILE ('-' for stdout): statements, every step, verdicts, "
                   "satisfiability models, trusted rules.")
@click.option("--smtlib", "smtlib_dir", metavar="DIR", default=None,
              help="Write every step's SMT-LIB 2 text into DIR (the very text z3 and cvc5 read).")
@click.option("--certificates", "cert_dir", metavar="DIR", default=None,
              help="Write every entry's proof certificate into DIR (DIR/<id>.json, docs/certificates.md); "
                   "'mistakebound check DIR' re-checks them in a fresh process.")
@click.option("--latex", "latex_path", metavar="FILE", default=None,
              help="Write the catalogue, every statement and step in LaTeX, to FILE.")
@click.option("--list", "list_only", is_flag=True, help="List the theorem ids with their statements and exit.")
@click.option("--quiet", "-q", is_flag=True, help="No table; only the summary line (and problems).")
@click.option("--coq", "coq", is_flag=True,
              help="Kernel-check the catalogue in Coq instead (coq/; needs coqc); with --file, your Coq proofs of "
                   "the file's theorems (--coq-proofs). Exit 3 if Coq is absent.")
@click.option("--no-cache", "no_cache", is_flag=True,
              help="Re-check every step: neither read nor write the proof cache "
                   "($XDG_CACHE_HOME/mistakebound, see docs/proof-cache.md).")
@click.option("--show", "show_id", metavar="ID", default=None,
              help="Print one entry's proof: every step with the facts it uses, the engines' verdicts, the "
                   "trusted rules and its Coq lemma (with --json FILE: the same as JSON; with --coq: Coq's verdicts too).")
@click.option("--file", "user_file", metavar="FILE.py", default=None,
              help="Check the theorems a Python file defines on the proof kernel (THEOREMS = [Theorem(...)]; "
                   "docs/proof-kernel.md), with the catalogue's guarantees; --coq-out writes their Coq statements.")
@click.option("--allow-assumptions", "allow_assumptions", is_flag=True,
              help="With --file: exit 0 also when a theorem is proved assuming a rule outside the checker's "
                   "fixed table (reported as 'proved assuming <rule>').")
@click.option("--coq-out", "coq_out", metavar="FILE.v", default=None,
              help="With --file: write the theorems' statements in Coq to FILE.v, for you to prove there.")
@click.option("--coq-proofs", "coq_proofs", metavar="FILE.v", default=None,
              help="With --file --coq: your Coq proofs of the file's theorems (default: the .v file next to "
                   "the Python file, with the same name); Coq checks each against the statement printed "
                   "from your formula objects.")
@input_errors_exit_2
def verify(theorems, json_path, smtlib_dir, latex_path, list_only, quiet, coq=False, show_id=None,
           user_file=None, coq_out=None, no_cache=False, cert_dir=None, allow_assumptions=False, coq_proofs=None):
    """Machine-check the theorem catalogue.

    Every theorem's proof is assembled by a small proof kernel from checked steps: each step is
    proved by z3 and re-checked by cvc5 on the same SMT-LIB 2 text (identities over vectors: by
    sympy in a symbolic dimension, re-checked by both solvers in dimensions 1, 2, 3), uses only
    facts proved before it, lemma statements and named trusted rules, and the proof must end in
    the theorem's stated conclusion.  Each step's hypotheses and each theorem's hypotheses (on a
    concrete instance) are shown satisfiable, so nothing is proved vacuously.  The answer is the
    independent checker's (checker/): it reads each entry's proof certificate, re-derives every
    step and accepts the engines' verdicts only on the texts it prints itself.

    \b
    Entries are of two kinds:
      theorem  must be proved;
      erratum  a false statement from a lecture note: must be refuted by an exact counterexample.

    Every trusted rule's schema is evaluated on random exact instances (cached by the hash of
    the code; when not cached, beside the check of the catalogue, which reports nothing before
    it passed; docs/proof-kernel.md): a false rule stops the command with exit code 1, naming it.

    Exit code 0 only when every theorem is proved and every erratum refuted; 1 otherwise (a
    timeout is "unknown", never "proved"); 2 on bad input (e.g. an unknown theorem id).
    """
    from proofs.catalogue import registry
    if no_cache:
        from proofs.engines import cache
        cache.set_enabled(False)
    if cert_dir is not None and (user_file is not None or coq or show_id is not None or list_only):
        fail("--certificates goes with a check of the catalogue (not --file, --coq, --show or --list)")
    catalogue = not (list_only or coq or show_id is not None or user_file is not None or coq_out is not None
                     or coq_proofs is not None)
    if not list_only and not catalogue and trusted_base_refused():
        return 1
    if user_file is not None or coq_out is not None or coq_proofs is not None:
        return _verify_file(user_file, coq_out, json_path, (theorems, smtlib_dir, latex_path, list_only, show_id),
                            allow_assumptions, coq=coq, coq_proofs=coq_proofs)
    if show_id is not None:
        return _show(show_id, json_path, coq, (theorems, smtlib_dir, latex_path, list_only))
    if coq and not list_only:
        return _verify_coq(theorems, json_path, smtlib_dir, latex_path, quiet)
    if list_only:
        for th in registry.all_theorems():
            click.echo(f"{th.id}\t{th.kind}\t{th.title}")
        return 0
    for tid in theorems:
        if tid not in registry.theorem_ids():
            fail(f"unknown theorem id {tid!r} (see mistakebound verify --list)")
    _check_outputs(json_path, smtlib_dir, latex_path)
    if cert_dir is not None:
        _check_dir("--certificates", cert_dir)
    # the trusted rules are checked beside the run (a child process, while this one builds the
    # proofs) when the check is not cached; nothing is reported before it passed
    trusted_refused = trusted_base_started()
    from proofs.verify.checks import Options
    from proofs.verify.runner import run_catalogue
    # whether each hypothesis is needed is shown only by --json and --latex
    options = Options(necessity=bool(json_path or latex_path))
    stream = sys.stderr if json_path == "-" else sys.stdout
    if quiet and not stream.isatty():
        console = _Plain(stream)    # lines only: the same text as rich prints into a file, without loading rich
    else:
        from rich.console import Console
        console = Console(stderr=(json_path == "-"), width=WIDTH, emoji=False)   # names print as they are
    if not quiet and console.is_terminal:
        from rich.progress import Progress
        with Progress(console=console, transient=True) as prog:
            task = prog.add_task("checking", total=None)
            cat = run_catalogue(list(theorems) or None, options=options,
                                progress=lambda th, r: prog.update(task, description=th.id))
    else:
        cat = run_catalogue(list(theorems) or None, options=options)
    if trusted_refused():
        return 1
    if not quiet:
        _table(cat, console)
    for p in _problems(cat):
        console.print(f"[red]problem:[/] {p}", highlight=False)
    console.print(_summary(cat) + ("" if cat.ok else "  [red]FAILED[/]"), highlight=False)
    try:
        if json_path:
            emit_json(cat.to_json(), json_path)
        if smtlib_dir:
            _write_smtlib(cat, smtlib_dir)
        if cert_dir:
            write_certificates(cat.certificates, cert_dir)
        if latex_path:
            from proofs.verify.docs import latex_document
            write_text_atomic(latex_path, latex_document(cat))
    except OSError as e:
        fail(f"cannot write the output: {e.strerror or e} ({getattr(e, 'filename', '') or ''})")
    return 0 if cat.ok else 1


_MARKUP = ("[red]", "[green]", "[/]")


def wrap(text: str, width: int = WIDTH) -> list[str]:
    """``text`` folded into lines of at most ``width`` characters as rich folds it into a file
    (a line breaks before the first word that does not fit, keeping the spaces after the last word
    of the line up to the edge; a word longer than a line is cut)."""
    import re
    out = []
    for para in text.split("\n"):
        line = ""
        for word in re.findall(r"\s*\S+\s*|\s+", para) or [""]:
            if line and len(line) + len(word.rstrip()) > width:
                out.append(line[:width])          # spaces past the edge are dropped
                line = word.lstrip()
            else:
                line += word
            while len(line.rstrip()) > width:
                out.append(line[:width])
                line = line[width:]
        out.append(line[:width])
    return out


class _Plain:
    """What the command prints with ``--quiet`` into a file or a pipe: the summary and problems,
    the markup of :func:`verify` left out, folded at :data:`WIDTH` columns."""
    is_terminal = False

    def __init__(self, stream):
        self.stream = stream

    def print(self, text: str, highlight: bool = False) -> None:
        for tag in _MARKUP:
            text = text.replace(tag, "")
        self.stream.write("".join(line + "\n" for line in wrap(text)))
        self.stream.flush()


def _check_outputs(json_path, smtlib_dir, latex_path):
    """Refuse unwritable outputs before any work (nothing is half-written)."""
    import os
    for opt, path in (("--json", json_path), ("--latex", latex_path)):
        if path in (None, "-"):
            continue
        if os.path.isdir(path):
            fail(f"{opt} {path}: is a directory")
        d = os.path.dirname(os.path.abspath(path))
        if os.path.exists(d) and not (os.path.isdir(d) and os.access(d, os.W_OK)):
            fail(f"{opt} {path}: cannot write into {d}")
    if smtlib_dir is not None:
        if os.path.exists(smtlib_dir) and not os.path.isdir(smtlib_dir):
            fail(f"--smtlib {smtlib_dir}: exists and is not a directory")
        if os.path.isdir(smtlib_dir) and not os.access(smtlib_dir, os.W_OK):
            fail(f"--smtlib {smtlib_dir}: not writable")


def _check_dir(opt, d):
    import os
    if os.path.exists(d) and not os.path.isdir(d):
        fail(f"{opt} {d}: exists and is not a directory")
    if os.path.isdir(d) and not os.access(d, os.W_OK):
        fail(f"{opt} {d}: not writable")


def write_certificates(certs: dict, d) -> None:
    """Every certificate as ``d/<theorem id>.json`` (each written atomically)."""
    import json
    import os
    os.makedirs(d, exist_ok=True)
    for tid, c in certs.items():
        write_text_atomic(os.path.join(d, f"{tid}.json"), json.dumps(c, separators=(",", ":")) + "\n")


def _write_smtlib(cat, d):
    import os
    os.makedirs(d, exist_ok=True)
    for r in cat.results:
        for s in r.steps:
            for j, text in enumerate(s.texts or [s.smtlib]):
                if not text:
                    continue
                suffix = f"_d{j + 1}" if len(s.texts) > 1 else ""
                head = (f"; theorem {r.theorem.id}, step {s.step.id}{suffix}: {s.step.title}\n"
                        f"; unsat = proved; z3: {s.verdict.status if s.step.kind == 'solve' else s.cross[j].status}\n")
                write_text_atomic(os.path.join(d, f"{r.theorem.id}__{s.step.id}{suffix}.smt2"), head + text)


# --------------------------------------------------------------------------- --show
def _show(tid, json_path, coq, others):
    """One entry's proof as text (blueprint.terminal) or JSON; exit 0 when it is as expected."""
    from proofs.catalogue import registry
    if any(others):
        fail("--show cannot be combined with --theorem, --smtlib, --latex or --list")
    if tid not in registry.theorem_ids():
        fail(f"unknown theorem id {tid!r} (see mistakebound verify --list)")
    _check_outputs(json_path, None, None)
    if coq:
        from coq.build import find_coqc
        if find_coqc() is None:
            click.echo("coq not installed: coqc was not found on PATH (apt-get install coq coinor-csdp)", err=True)
            return EXIT_NO_COQ
    from blueprint.model import collect
    from blueprint.terminal import show_text
    e = collect([tid], coq=coq, worst=False).by_id(tid)
    if json_path:
        emit_json(e.to_json(), json_path)
    if json_path != "-":
        click.echo(show_text(e, WIDTH), nl=False)
    return 0 if e.ok else 1


# --------------------------------------------------------------------------- --file
def _verify_file(path, coq_out, json_path, others, allow_assumptions=False, coq=False, coq_proofs=None):
    """A user's theorems (blueprint.user_theorems): built in their own process, decided by the
    checker here; one line each, the reasons and the counterexamples when not proved; with
    ``coq``, Coq's verdict on the user's Coq proofs of them (coq.user_proofs)."""
    if path is None:
        fail("--coq-out needs --file" if coq_out is not None else "--coq-proofs needs --file")
    if any(others):
        fail("--file cannot be combined with --theorem, --smtlib, --latex, --list or --show")
    if coq_proofs is not None and not coq:
        fail("--coq-proofs needs --coq")
    _check_outputs(json_path, None, None)
    import os
    if coq_out is not None and (os.path.isdir(coq_out) or not os.path.isdir(os.path.dirname(os.path.abspath(coq_out)))):
        fail(f"--coq-out {coq_out}: not a file in an existing directory")
    if coq:
        from coq.build import find_coqc
        if find_coqc() is None:
            click.echo("coq not installed: coqc was not found on PATH (apt-get install coq coinor-csdp)", err=True)
            return EXIT_NO_COQ
        if coq_proofs is None:
            coq_proofs = os.path.splitext(path)[0] + ".v"
        if not os.path.isfile(coq_proofs):
            fail(f"--coq-proofs {coq_proofs}: no such file (--coq-out writes the statements for you to prove)")
    from blueprint.user_theorems import check_file, coq_statements
    ths, results, iso = check_file(path)
    out = sys.stderr if json_path == "-" else sys.stdout
    for r in results:
        p, n = r.counts()
        extra = f"  assuming: {', '.join(r.assumptions)}" if r.assumptions else ""
        click.echo(f"{r.status:<12} {r.theorem.id}  steps {p}/{n}  trusted rules: {', '.join(r.rules) or 'none'}"
                   + extra + ("" if r.ok(allow_assumptions) else f"  (expected {r.theorem.expected})"), file=out)
        for why in r.reasons:
            click.echo(f"    - {why}", file=out)
        for cex in r.counterexamples:
            click.echo(f"    counterexample to step {cex['step']} ({cex['engine']}): "
                       + ", ".join(f"{k} = {v}" for k, v in cex["values"].items()), file=out)
    ok = all(r.ok(allow_assumptions) for r in results)
    lemmas = sorted({lid for r in results for lid in r.lemmas})
    click.echo(f"{sum(r.ok(allow_assumptions) for r in results)}/{len(results)} of {path} as expected"
               + (f"; catalogue lemmas used: {', '.join(lemmas)}" if lemmas else ""), file=out)
    click.echo(f"your file ran in its own process, isolation level {iso['words']}; network: {iso['network']}"
               + (f"; missing: {'; '.join(iso['missing'])}; the proof cache was neither read nor written"
                  if iso["missing"] else ""), file=out)
    coq_results = _user_coq(ths, coq_proofs, lemmas, out) if coq else None
    if coq_results is not None:
        ok = ok and all(c.status == "kernel-checked" for c in coq_results)
    try:
        if json_path:
            emit_json({"file": str(path), "ok": ok, "isolation": iso, "theorems": [r.to_json(allow_assumptions) for r in results],
                       **({"coq": [c.to_json() for c in coq_results]} if coq_results is not None else {})}, json_path)
        if coq_out:
            write_text_atomic(coq_out, coq_statements(ths, str(path)))
            click.echo(f"Coq statements written to {coq_out} (prove them there; docs/proof-kernel.md)", file=out)
    except OSError as e:
        fail(f"cannot write the output: {e.strerror or e}")
    return 0 if ok else 1


def _user_coq(ths, proofs_path, lemmas, out):
    """Compile the development (reusing what is built), then let Coq check the user's proofs."""
    from pathlib import Path

    from coq import build as coq_build
    from coq.user_proofs import check_user_proofs
    rep = coq_build.build(lemmas or None)
    results, problems = check_user_proofs(ths, proofs_path, Path(rep.build_dir))
    for c in results:
        click.echo(f"coq: {c.status:<18} {c.id}" + (f"  {c.reason}" if c.reason else "")
                   + (f"  (axioms: {len(c.axioms)}, all allowed)" if c.status == "kernel-checked" else ""), file=out)
    for p in problems[1:]:
        click.echo(f"coq: problem: {p}", file=out)
    k = sum(c.status == "kernel-checked" for c in results)
    click.echo(f"coq: {k}/{len(results)} of {proofs_path} kernel-checked against the statements printed from "
               f"the formula objects", file=out)
    iso = results[0].isolation if results else {}
    if iso:
        click.echo(f"coq: your Coq file was compiled in its own process, isolation level {iso['words']}"
                   + (f"; missing: {'; '.join(iso['missing'])}" if iso["missing"] else ""), file=out)
    return results


# --------------------------------------------------------------------------- --coq
# The catalogue kernel-checked in Coq (coq/, docs/coq.md): one line per theorem,
# "kernel-checked" / "failed"; when coqc is absent one line and exit code 3.
EXIT_NO_COQ = 3


def _verify_coq(theorems, json_path, smtlib_dir, latex_path, quiet):
    from proofs.catalogue import registry
    from coq import build as coq_build
    if smtlib_dir or latex_path:
        fail("--coq cannot be combined with --smtlib or --latex")
    from coq.learner_theorems import LEARNER_THEOREMS
    for tid in theorems:
        if tid not in registry.theorem_ids() and tid not in {lt.id for lt in LEARNER_THEOREMS}:
            fail(f"unknown theorem id {tid!r} (see mistakebound verify --list)")
    _check_outputs(json_path, None, None)
    out = sys.stderr if json_path == "-" else sys.stdout
    if coq_build.find_coqc() is None:
        click.echo("coq not installed: coqc was not found on PATH (apt-get install coq coinor-csdp)", file=out)
        if json_path:
            emit_json({"available": False, "theorems": []}, json_path)
        return EXIT_NO_COQ
    prog = None
    if not quiet and sys.stderr.isatty():
        def prog(f, ok, cpu=0.0):
            click.echo(f"\r\033[K  coqc {f} {'ok' if ok else 'FAILED'}", err=True, nl=False)
    elif not quiet:        # not a terminal: one line per compiled file
        def prog(f, ok, cpu=0.0):
            click.echo(f"coqc {f} {'ok' if ok else 'FAILED'} ({cpu:.1f} s CPU)", err=True)
    from coq import summary as coq_summary
    rep, dv = coq_summary.check(list(theorems) or None, progress=prog)
    if prog and sys.stderr.isatty():
        click.echo("\r\033[K", err=True, nl=False)
    s = coq_summary.summarize(rep, dv, quiet=quiet)
    for line in s.lines:
        click.echo(line, file=out)
    if json_path:
        try:
            emit_json(s.json, json_path)
        except OSError as e:
            fail(f"cannot write the output: {e.strerror or e}")
    return 0 if s.ok else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(verify())
