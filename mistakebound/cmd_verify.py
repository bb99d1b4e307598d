"""``mistakebound verify``: machine-check the theorem catalogue (proofs/)."""
from __future__ import annotations

import sys

import click

from .common import fail, input_errors_exit_2, write_text_atomic, emit_json


def _short_source(th) -> str:
    src = th.source
    if not src.note:
        return "(this suite)" if "prototype" not in src.where else "(prototype, issue 3)"
    names = {"000": "Blum notes", "001": "Blum 15-859", "002": "bias notes", "003": "Lin slides", "004": "Daume ch.3"}
    return names.get(src.note[:3], src.note)


def _status_cell(r) -> str:
    st, kind = r.status, r.theorem.kind
    if kind == "erratum":
        return ("[green]refuted (as expected)[/]" if r.ok else f"[red]{st} (expected refuted)[/]")
    if kind == "open":
        return "[yellow]open[/]" if r.ok else "[red]open: engines disagree[/]"
    return "[green]proved[/]" if r.ok else f"[red]{st}[/]"


def _table(cat, console):
    from rich.table import Table
    t = Table(title="Theorem catalogue", show_lines=False)
    for col, kw in (("theorem", {}), ("kind", {}), ("source", {}), ("obligations", {"justify": "right"}),
                    ("status", {}), ("re-checked", {}), ("trusted rules", {}), ("engines", {}),
                    ("seconds", {"justify": "right"})):
        t.add_column(col, **kw)
    for r in cat.results:
        p, n = r.counts()
        agree = sum(o.agree for o in r.obligations)
        if r.theorem.kind == "erratum":
            cnt = f"{sum(o.verdict.status == 'refuted' for o in r.obligations)}/{n} refuted"
        elif r.theorem.kind == "open":
            cnt = f"{p}/{n} (+{sum(o.verdict.status == 'refuted' for o in r.obligations)} refuted)"
        else:
            cnt = f"{p}/{n}"
        t.add_row(r.theorem.id, r.theorem.kind, _short_source(r.theorem), cnt, _status_cell(r),
                  f"{agree}/{n}", ", ".join(r.theorem.trusted) or "-", "+".join(r.engines()),
                  f"{r.seconds:.2f}")
    console.print(t)


def _problems(cat) -> list[str]:
    out = []
    for r in cat.results:
        if r.ok:
            continue
        for o in r.obligations:
            if not o.ok:
                cc = o.cross_check.status if o.cross_check else "none"
                why = "vacuous hypotheses" if o.vacuous else f"{o.verdict.engine}: {o.verdict.status}, " \
                      f"cross-check: {cc}"
                if o.verdict.reason:
                    why += f" ({o.verdict.reason})"
                out.append(f"{r.theorem.id} / {o.obligation.id}: {why} (expected {o.obligation.expect})")
        if r.theorem.kind == "theorem":
            for lid, st in r.lemma_status.items():
                if st != "proved":
                    out.append(f"{r.theorem.id}: lemma {lid} is {st}")
        if r.witness is not None and not r.witness[0]:
            out.append(f"{r.theorem.id}: the concrete counterexample did not check: {r.witness[1]}")
    return out


@click.command("verify", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--theorem", "theorems", multiple=True, metavar="ID",
              help="Check only this theorem (and the lemmas it uses). Repeatable. See --list.")
@click.option("--json", "json_path", metavar="FILE", default=None,
              help="Write the full report as JSON to FILE ('-' for stdout).")
@click.option("--smtlib", "smtlib_dir", metavar="DIR", default=None,
              help="Write every obligation as an SMT-LIB 2 file into DIR (what cvc5 re-checked).")
@click.option("--latex", "latex_path", metavar="FILE", default=None,
              help="Write the catalogue, every step in LaTeX, to FILE.")
@click.option("--list", "list_only", is_flag=True, help="List the theorem ids and exit.")
@click.option("--quiet", "-q", is_flag=True, help="No table; only the summary line (and problems).")
@click.option("--coq", "coq", is_flag=True,
              help="Kernel-check the catalogue in Coq instead (proofs/coq; needs coqc). Exit 3 if Coq is absent.")
@input_errors_exit_2
def verify(theorems, json_path, smtlib_dir, latex_path, list_only, quiet, coq=False):
    """Machine-check the theorem catalogue: every obligation is discharged by z3 (or sympy for
    identities), re-checked by cvc5 on the exported SMT-LIB 2 text, and checked for non-vacuity
    (hypotheses satisfiable together; each hypothesis needed, or reported unused).

    \b
    Entries are of three kinds:
      theorem  must be proved (all obligations, the composition, and its lemmas);
      erratum  a false statement from a lecture note: must be refuted (with a counterexample);
      open     a conjecture: its honest status is shown, it never fails the run.

    Exit code 0 only when every theorem is proved and re-checked and every erratum refuted;
    1 otherwise; 2 on bad input (e.g. an unknown theorem id).
    """
    from proofs import registry
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
    from rich.console import Console
    from proofs.runner import run_catalogue
    console = Console(stderr=(json_path == "-"))
    if not console.is_terminal:
        console = Console(stderr=(json_path == "-"), width=200)
    cat = None
    if not quiet and console.is_terminal:
        from rich.progress import Progress
        with Progress(console=console, transient=True) as prog:
            task = prog.add_task("checking", total=None)
            cat = run_catalogue(list(theorems) or None,
                                progress=lambda th, r: prog.update(task, description=th.id))
    else:
        cat = run_catalogue(list(theorems) or None)
    if not quiet:
        _table(cat, console)
    problems = _problems(cat)
    for p in problems:
        console.print(f"[red]problem:[/] {p}", highlight=False)
    n_th = sum(r.theorem.kind == "theorem" for r in cat.results)
    n_pr = sum(r.theorem.kind == "theorem" and r.ok for r in cat.results)
    n_er = sum(r.theorem.kind == "erratum" for r in cat.results)
    n_rf = sum(r.theorem.kind == "erratum" and r.ok for r in cat.results)
    n_op = sum(r.theorem.kind == "open" for r in cat.results)
    n_ob = sum(len(r.obligations) for r in cat.results)
    console.print(f"{n_pr}/{n_th} theorems proved, {n_rf}/{n_er} errata refuted, {n_op} open; "
                  f"{n_ob} obligations, each re-checked by a second engine; {cat.seconds:.2f} s"
                  + ("" if cat.ok else "  [red]FAILED[/]"), highlight=False)
    try:
        if json_path:
            emit_json(cat.to_json(), json_path)
        if smtlib_dir:
            _write_smtlib(cat, smtlib_dir)
        if latex_path:
            from proofs.docs import latex_document
            write_text_atomic(latex_path, latex_document(cat))
    except OSError as e:
        fail(f"cannot write the output: {e.strerror or e} ({getattr(e, 'filename', '') or ''})")
    return 0 if cat.ok else 1


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


def _write_smtlib(cat, d):
    import os
    os.makedirs(d, exist_ok=True)
    seen = set()
    for r in cat.results:
        for o in r.obligations:
            if o.smtlib is None or o.obligation.id in seen:
                continue
            seen.add(o.obligation.id)
            head = (f"; obligation {o.obligation.id} (theorem {r.theorem.id}): {o.obligation.title}\n"
                    f"; encoding: {o.obligation.encoding}; expected: {o.obligation.expect} "
                    f"(unsat = proved); z3: {o.verdict.status}; cvc5: "
                    f"{o.cross_check.status if o.cross_check else 'n/a'}\n")
            write_text_atomic(os.path.join(d, f"{o.obligation.id}.smt2"), head + o.smtlib)


# --------------------------------------------------------------------------- --coq
# The catalogue kernel-checked in Coq (proofs/coq, docs/coq.md): one line per theorem,
# "kernel-checked" / "failed"; when coqc is absent one line and exit code 3.
EXIT_NO_COQ = 3


def _verify_coq(theorems, json_path, smtlib_dir, latex_path, quiet):
    from proofs import registry
    from proofs.coq import build as coq_build
    if smtlib_dir or latex_path:
        fail("--coq cannot be combined with --smtlib or --latex")
    for tid in theorems:
        if tid not in registry.theorem_ids():
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
        def prog(f, ok):
            click.echo(f"\r\033[K  coqc {f} {'ok' if ok else 'FAILED'}", err=True, nl=False)
    rep = coq_build.build(list(theorems) or None, progress=prog)
    if prog:
        click.echo("\r\033[K", err=True, nl=False)
    for t in rep.theorems:
        if not quiet or t.status != coq_build.KERNEL_CHECKED:
            steps = f"steps {t.steps_checked}/{t.steps_total}" if t.steps_total else "no steps"
            line = f"{t.status:<15} {t.id:<36} {steps}"
            if t.status != coq_build.KERNEL_CHECKED:
                line += f"  {t.reason}"
            elif t.steps_failed or t.steps_unchecked:
                line += f"  step failed: {', '.join(t.steps_failed) or '-'}"
            click.echo(line[:300], file=out)
    for p in rep.audit:
        click.echo(f"problem: {p}", file=out)
    k, n = rep.counts()
    extra = [a for a in rep.axioms_used() if rep.allowed.get(a) != "reals"]
    steps_ok = sum(t.steps_checked for t in rep.theorems)
    steps_all = sum(t.steps_total - len(t.steps_not_exported) for t in rep.theorems)
    reals = [a for a in rep.axioms_used() if rep.allowed.get(a) == "reals"]
    click.echo(f"{k}/{n} kernel-checked in Coq {rep.version}, 0 Admitted; axioms: {len(reals)} of the standard "
               f"reals, {len(extra)} beyond" + (f" ({', '.join(a.split('.')[-1] for a in extra)})" if extra else "")
               + f"; steps {steps_ok}/{steps_all}", file=out)
    click.echo(f"build {rep.seconds:.1f} s ({rep.cpu_seconds:.1f} s of coqc CPU; {len(rep.compiled)} files compiled, "
               f"{len(rep.reused)} reused from {rep.build_dir})" + ("" if rep.ok else "  FAILED"), file=out)
    if json_path:
        try:
            emit_json(rep.to_json(), json_path)
        except OSError as e:
            fail(f"cannot write the output: {e.strerror or e}")
    return 0 if rep.ok else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(verify())
