"""``mistakebound grade``: grade student submissions in isolation.

    mistakebound grade --assignment perceptron alice/ bob.py carol.zip --out results/
    mistakebound grade --assignment my_spec.toml submissions/* --out results/ --jobs 2 --json
    mistakebound grade --gradescope --assignment perceptron      # inside Gradescope's container
    mistakebound grade --check-spec my_course.toml [SOLUTION]     # is the spec right?
    mistakebound grade --gradescope-zip my_course.toml --out autograder.zip

Per submission: OUT/<name>/results.json (Gradescope format) and OUT/<name>/feedback.md; for the
batch: OUT/summary.csv and OUT/junit.xml.  Exit code 0 when grading ran (whatever the scores),
2 on misuse; --check-spec exits 1 when a solution loses points.
"""
from __future__ import annotations

import json
import os

import click

from .common import emit_json, fail, input_errors_exit_2, write_text_atomic


def _unique_names(paths):
    from grading.submission import submission_name
    seen: dict[str, int] = {}
    out = []
    for p in paths:
        n = submission_name(p)
        k = seen.get(n, 0)
        seen[n] = k + 1
        out.append(n if k == 0 else f"{n}-{k + 1}")
    return out


@click.command("grade", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("submissions", nargs=-1, type=click.Path())
@click.option("--assignment", "-a", "assignment", metavar="NAME|SPEC.toml",
              help="A shipped assignment (perceptron, perceptron_class, winnow, kernel_perceptron) or a TOML spec.")
@click.option("--out", "-o", "out", type=click.Path(file_okay=False), metavar="DIR",
              help="Output directory: DIR/<submission>/results.json, feedback.md; DIR/summary.csv, junit.xml.")
@click.option("--jobs", "-j", type=int, default=None, metavar="N",
              help="Submissions graded in parallel (default: all cores).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON summary on stdout.")
@click.option("--gradescope", is_flag=True,
              help="Gradescope layout: grade ROOT/submission, write ROOT/results/results.json.")
@click.option("--gradescope-root", default="/autograder", show_default=True, metavar="ROOT",
              help="Root of the Gradescope layout (for testing outside Gradescope).")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
@click.option("--check-spec", "check_spec", metavar="SPEC",
              help="Grade the course's reference solution (SUBMISSION, or [assignment] solution in the spec) and "
                   "the suite's own solution written from the spec's contract; exit 1 unless both get full marks.")
@click.option("--gradescope-zip", "gradescope_zip", metavar="SPEC",
              help="Build a Gradescope autograder archive (setup.sh, run_autograder, the spec, this package) for "
                   "SPEC and write it to --out (default autograder.zip).")
@input_errors_exit_2
def grade(submissions, assignment, out, jobs, as_json, gradescope, gradescope_root, no_progress, check_spec,
          gradescope_zip):
    """Grade SUBMISSION... (each a directory, a .py file or a .zip) against an assignment.

    Student code runs in a sandboxed process (own uid, no network, resource limits, wall-clock
    limit, empty working directory; see docs/grading.md).  Differential tests against the
    reference learner, edge cases, the proof's invariants on the student's own run, worst-case
    sequences and hidden tests; feedback names common mistakes.
    """
    from grading.grader import grade_batch
    from grading.report import feedback_markdown, junit_xml, results_json, summary_csv
    from grading.spec import load_spec

    if check_spec or gradescope_zip:
        return _spec_tools(check_spec, gradescope_zip, submissions, out, assignment, gradescope, as_json)
    if not assignment:
        fail("--assignment NAME|SPEC.toml is required")
    spec = load_spec(assignment)
    if jobs is not None and jobs < 1:
        fail(f"--jobs must be >= 1, got {jobs}")
    if gradescope:
        if submissions:
            fail("--gradescope grades ROOT/submission; do not list submissions")
        sub = os.path.join(gradescope_root, "submission")
        if not os.path.isdir(sub):
            fail(f"no Gradescope submission directory {sub}")
        paths = [sub]
        out = os.path.join(gradescope_root, "results")
    else:
        if not submissions:
            fail("no SUBMISSION given (a directory, a .py file or a .zip)")
        if not out:
            fail("--out DIR is required")
        for p in submissions:
            if not os.path.exists(p):
                fail(f"submission {p!r} does not exist")
            if not (os.path.isdir(p) or p.endswith((".py", ".zip"))):
                fail(f"submission {p!r} must be a directory, a .py file or a .zip file")
        paths = list(submissions)
    if os.path.exists(out) and not os.path.isdir(out):
        fail(f"--out {out!r} exists and is not a directory")
    names = _unique_names(paths)

    progress = None
    bar = None
    if len(paths) > 1 and not no_progress and not as_json:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
        bar = Progress(TextColumn("grading"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                       transient=False)
        task = bar.add_task("grade", total=len(paths))
        bar.start()

        def progress(_res):
            bar.advance(task)
    os.makedirs(out, exist_ok=True)
    try:
        results, caps = grade_batch(spec.source, paths, jobs=jobs, progress=progress, hide=[out])
    finally:
        if bar is not None:
            bar.stop()
    for r, n in zip(results, names):
        r.name = n
    os.makedirs(out, exist_ok=True)
    for r in results:
        if gradescope:
            write_text_atomic(os.path.join(out, "results.json"), json.dumps(results_json(r), indent=2) + "\n")
            write_text_atomic(os.path.join(out, "feedback.md"), feedback_markdown(r))
        else:
            d = os.path.join(out, r.name)
            write_text_atomic(os.path.join(d, "results.json"), json.dumps(results_json(r), indent=2) + "\n")
            write_text_atomic(os.path.join(d, "feedback.md"), feedback_markdown(r))
    if not gradescope:
        write_text_atomic(os.path.join(out, "summary.csv"), summary_csv(results))
        write_text_atomic(os.path.join(out, "junit.xml"), junit_xml(results))
    if as_json:
        emit_json({"assignment": spec.name, "out": os.path.abspath(out), "isolation": caps,
                   "submissions": [r.to_dict() for r in results]})
    else:
        for r in results:
            tag = f" ({', '.join(r.diagnoses)})" if r.diagnoses else ""
            click.echo(f"{r.name}: {r.score:g}/{r.max_score:g}{tag}")
        click.echo(f"results in {out}")
    return 0


def _spec_tools(check_spec, gradescope_zip, submissions, out, assignment, gradescope, as_json):
    """--check-spec and --gradescope-zip (one at a time, without grading options)."""
    if check_spec and gradescope_zip:
        fail("--check-spec and --gradescope-zip are separate steps: give one")
    if assignment or gradescope:
        fail("--check-spec / --gradescope-zip take the spec as their value; drop --assignment / --gradescope")
    if gradescope_zip:
        from grading.gradescope import build_autograder
        if submissions:
            fail("--gradescope-zip takes no SUBMISSION")
        info = build_autograder(gradescope_zip, out or "autograder.zip")
        if as_json:
            emit_json(info)
        else:
            click.echo(f"wrote {info['archive']} ({info['files']} files, {info['bytes']} bytes): upload it as "
                       "the assignment's autograder on Gradescope")
        return 0
    from grading.checkspec import check_spec as run_check
    if len(submissions) > 1:
        fail("--check-spec takes at most one SUBMISSION (the course's reference solution)")
    res = run_check(check_spec, submissions[0] if submissions else None)
    if as_json:
        emit_json(res.to_dict())
    else:
        click.echo(res.text())
    if not res.ok:
        click.get_current_context().exit(1)
    return 0
