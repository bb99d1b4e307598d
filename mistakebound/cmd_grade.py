"""``mistakebound grade``: grade student submissions in isolation.

    mistakebound grade --assignment perceptron alice/ bob.py carol.zip --out results/
    mistakebound grade --assignment my_spec.toml submissions/* --out results/ --jobs 2 --json
    mistakebound grade --gradescope --assignment perceptron      # inside Gradescope's container
    mistakebound grade --check-spec my_course.toml [SOLUTION]     # is the spec right?
    mistakebound grade --gradescope-zip my_course.toml --out autograder.zip
    mistakebound grade --list                                    # the shipped assignments
    mistakebound grade --init mit_perceptron --out my_course.toml # a commented spec to start from

Per submission: OUT/<folder>/results.json (Gradescope format) and OUT/<folder>/feedback.md, each
written the moment that submission is graded; for the batch: OUT/manifest.csv (submission path ->
folder, written first), OUT/summary.csv and OUT/junit.xml.  Exit code 0 when grading ran
(whatever the scores), 2 on misuse, 3 when an isolation layer cannot be set up (one line naming it;
``--insecure`` grades anyway and every report says so), 1 when the grader itself failed on some
submission (their results say "not graded") or when the course's own solution failed (grading
stops; the instructor reads why on the terminal and in OUT/course_solution_failed.txt, no student
report quotes it); --check-spec exits 1 when a solution loses points.
"""
from __future__ import annotations

import os

import click

from mistakebound.common import emit_json, fail, input_errors_exit_2, write_text_atomic

EXIT_ISOLATION = 3


class Refused(click.ClickException):
    """An isolation layer cannot be set up: one line on stderr, exit code 3."""
    exit_code = EXIT_ISOLATION

    def show(self, file=None):
        click.echo(f"mistakebound: error: {self.format_message()}", err=True)


def _shipped() -> str:
    from grading.spec.shipped import shipped_names
    return ", ".join(shipped_names())


@click.command("grade", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("submissions", nargs=-1, type=click.Path())
@click.option("--assignment", "-a", "assignment", metavar="NAME|SPEC.toml",
              help=f"A shipped assignment ({_shipped()}; see --list) or a TOML spec.")
@click.option("--out", "-o", "out", type=click.Path(file_okay=False), metavar="DIR",
              help="Output directory: DIR/<submission>/results.json, feedback.md; DIR/manifest.csv, "
                   "summary.csv, junit.xml.")
@click.option("--jobs", "-j", type=int, default=None, metavar="N",
              help="Submissions graded in parallel (default: all cores).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON summary on stdout.")
@click.option("--gradescope", is_flag=True,
              help="Gradescope layout: grade ROOT/submission, write ROOT/results/results.json.")
@click.option("--gradescope-root", default="/autograder", show_default=True, metavar="ROOT",
              help="Root of the Gradescope layout (for testing outside Gradescope).")
@click.option("--insecure", is_flag=True,
              help="Grade even when an isolation layer cannot be set up (every report then says which "
                   "layers were missing). Without it, grade refuses with exit code 3.")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
@click.option("--check-spec", "check_spec", metavar="SPEC",
              help="Grade the course's reference solution (SUBMISSION, or [assignment] solution in the spec) and "
                   "the suite's own solution written from the spec's contract; exit 1 unless both get full marks. "
                   "Without a solution: the checks that need none (the spec, the contract's reference on every "
                   "fixed input, the suite's solution).")
@click.option("--gradescope-zip", "gradescope_zip", metavar="SPEC",
              help="Build a Gradescope autograder archive (setup.sh, run_autograder, the spec, this package) for "
                   "SPEC and write it to --out (default autograder.zip).")
@click.option("--list", "list_", is_flag=True, help="List the shipped assignments (name, file, call, points).")
@click.option("--init", "init", metavar="NAME",
              help="Write the shipped assignment NAME as a commented spec to start from, to --out (default "
                   "NAME.toml; an existing file is never overwritten).")
@input_errors_exit_2
def grade(submissions, assignment, out, jobs, as_json, gradescope, gradescope_root, insecure, no_progress,
          check_spec, gradescope_zip, list_, init):
    """Grade SUBMISSION... (each a directory, a .py file, a .zip or a tar archive) against an
    assignment.

    Student code runs in a sandboxed process (own namespaces, a private file-system view with
    only the submission, the Python standard library and the allowed packages, no network, its
    own uid or a user namespace, no_new_privs and a seccomp filter, resource limits, wall-clock
    limits), checked from outside before it runs; see docs/grading.md.  Differential tests
    against the reference learner, edge cases, the proof's invariants on the student's own run,
    worst-case sequences and hidden tests; feedback names common mistakes.
    """
    from grading.running.batch import output_names, write_manifest
    from grading.running.grader import grade_batch
    from grading.checks.oracle import CourseSolutionFailed
    from grading.running.preflight import preflight
    from sandbox.isolation import IsolationUnavailable
    from grading.output.report import feedback_markdown, junit_xml, results_text, summary_csv, write_submission
    from grading.spec.spec import load_spec
    from grading.spec.submission import ARCHIVE_EXTS

    if list_ or init:
        return _catalogue(list_, init, submissions, out, assignment, as_json)
    if check_spec or gradescope_zip:
        return _spec_tools(check_spec, gradescope_zip, submissions, out, assignment, gradescope, as_json, insecure)
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
            fail("no SUBMISSION given (a directory, a .py file, a .zip or a tar archive)")
        if not out:
            fail("--out DIR is required")
        for p in submissions:
            if not os.path.exists(p):
                fail(f"submission {p!r} does not exist")
            if not (os.path.isdir(p) or p.lower().endswith((".py",) + ARCHIVE_EXTS)):
                fail(f"submission {p!r} must be a directory, a .py file, a .zip or a tar archive")
        paths = list(submissions)
    if os.path.exists(out) and not os.path.isdir(out):
        fail(f"--out {out!r} exists and is not a directory")
    names = output_names(paths)
    try:
        caps = preflight(spec, insecure)     # before anything is written
    except IsolationUnavailable as e:
        raise Refused(e.line()) from None
    if spec.contract is not None and spec.contract.oracle:
        from grading.running.checkspec import check_oracle
        spec.limits.insecure = bool(insecure)
        try:
            check_oracle(spec)             # the course's solution agrees with the contract (else exit 2)
        except IsolationUnavailable as e:
            raise Refused(e.line()) from None
    os.makedirs(out, exist_ok=True)
    if not gradescope:
        write_manifest(out, paths, names)

    def write(res):
        if gradescope:
            write_text_atomic(os.path.join(out, "results.json"), results_text(res))
            write_text_atomic(os.path.join(out, "feedback.md"), feedback_markdown(res))
        else:
            write_submission(res, out, res.name)

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
    finished = []
    try:
        results, caps = grade_batch(spec.source, paths, jobs=jobs, progress=progress, hide=[out], names=names,
                                    on_result=lambda r: (write(r), finished.append(r)), insecure=insecure,
                                    caps=caps)
    except IsolationUnavailable as e:
        raise Refused(e.line()) from None
    except CourseSolutionFailed as e:
        if bar is not None:
            bar.stop()
            bar = None
        _course_failed(e, spec, out, gradescope_root if gradescope else None, paths, names, finished)
    finally:
        if bar is not None:
            bar.stop()
        if not gradescope and finished:   # also after an interruption: the summary of what finished
            order = {n: i for i, n in enumerate(names)}
            done = sorted(finished, key=lambda r: order.get(r.name, 0))
            write_text_atomic(os.path.join(out, "summary.csv"), summary_csv(done))
            write_text_atomic(os.path.join(out, "junit.xml"), junit_xml(done))
    faults = [r for r in results if r.fault]
    if caps.get("one_at_a_time") and not as_json:
        click.echo("note: " + caps["one_at_a_time"], err=True)
    if (caps.get("isolation") or {}).get("level") == "container" and not as_json:
        click.echo("note: no namespace can be made here (a container's default seccomp profile, or user "
                   "namespaces refused): graded at isolation level 'container' -- Landlock's file-system view, "
                   "seccomp, limits and a uid of its own (docs/sandbox.md)", err=True)
    if as_json:
        emit_json({"assignment": spec.name, "out": os.path.abspath(out), "isolation": caps,
                   "insecure": insecure, "grader_faults": len(faults),
                   "submissions": [r.to_dict() for r in results]})
    else:
        for r in results:
            tag = f" ({', '.join(r.diagnoses)})" if r.diagnoses else ""
            click.echo(f"{r.name}: {r.score:g}/{r.max_score:g}{tag}")
        if insecure and any(r.insecure for r in results):
            click.echo("warning: graded with --insecure: " + results[0].isolation_text(), err=True)
        click.echo(f"results in {out}")
    if faults:
        click.echo(f"mistakebound: error: the grader failed on {len(faults)} submission(s) "
                   f"({', '.join(r.name for r in faults[:5])}); their results say 'not graded'", err=True)
        for r in faults[:5]:          # the whole reason is the instructor's: a report names only its kind
            click.echo(f"  {r.name}: {r.fault}", err=True)
        raise SystemExit(1)
    return 0


STAFF_FILE = "course_solution_failed.txt"


def _course_failed(e, spec, out, gradescope_root, paths, names, finished):
    """The course's own solution failed mid-batch: grading stops.  Its text (the input it failed
    on, perhaps a hidden one, and the solution's own message) goes to the instructor only -- the
    terminal and a staff-only file beside the results (Gradescope: beside ``results/``, which
    students never see) --; a Gradescope student's results.json says only "not graded"."""
    from grading.running.grader import _not_graded
    from grading.output.report import results_text
    where = gradescope_root if gradescope_root else out
    staff = os.path.join(where, STAFF_FILE)
    done = {r.name for r in finished}
    left = [n for n in names if n not in done]
    text = (f"{spec.name}: grading stopped: {e.staff_text}\n"
            f"Fix the course's solution ({spec.contract.oracle}) or the spec, then grade again.\n"
            f"graded before it stopped: {len(done)}; not graded: {len(left)} ({', '.join(left[:20])})\n")
    write_text_atomic(staff, text)
    if gradescope_root:
        res = _not_graded(spec, names[0], "not graded: the autograder could not grade this submission (a "
                          "fault of the course's own setup, not of your code); your instructor has been told "
                          "and will regrade it", "not graded (the course's setup)", fault="course solution")
        write_text_atomic(os.path.join(out, "results.json"), results_text(res))
        click.echo(text, nl=False)           # Gradescope's autograder output: shown to the staff only
    click.echo(f"mistakebound: error: the course's solution failed, grading stopped (no student report "
               f"quotes it): {e.staff_text[:2000]}; details in {staff}", err=True)
    raise SystemExit(1)


def _catalogue(list_, init, submissions, out, assignment, as_json):
    """--list and --init NAME."""
    from grading.spec.shipped import init_text, shipped
    if list_ and init:
        fail("--list and --init are separate steps: give one")
    if submissions or assignment:
        fail("--list / --init take no SUBMISSION and no --assignment")
    if list_:
        rows = shipped()
        if as_json:
            emit_json({"assignments": rows})
            return 0
        for r in rows:
            click.echo(f"{r['name']:20s} {r['max_score']:4g} pts  {r['submit']}: {r['call']}")
            click.echo(f"{'':20s}           {r['title']}")
        return 0
    text = init_text(init)
    path = out or f"{init}.toml"
    if os.path.exists(path):
        fail(f"{path} exists; give another --out (an existing file is never overwritten)")
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        fail(f"--out: directory {parent!r} does not exist")
    write_text_atomic(path, text)
    if as_json:
        emit_json({"spec": os.path.abspath(path), "from": init})
    else:
        click.echo(f"wrote {path}: edit it, then `mistakebound grade --check-spec {path} SOLUTION`")
    return 0


def _spec_tools(check_spec, gradescope_zip, submissions, out, assignment, gradescope, as_json, insecure):
    """--check-spec and --gradescope-zip (one at a time, without grading options)."""
    if check_spec and gradescope_zip:
        fail("--check-spec and --gradescope-zip are separate steps: give one")
    if assignment or gradescope:
        fail("--check-spec / --gradescope-zip take the spec as their value; drop --assignment / --gradescope")
    if gradescope_zip:
        from grading.output.gradescope import build_autograder
        if submissions:
            fail("--gradescope-zip takes no SUBMISSION")
        info = build_autograder(gradescope_zip, out or "autograder.zip")
        if as_json:
            emit_json(info)
        else:
            click.echo(f"wrote {info['archive']} ({info['files']} files, {info['bytes']} bytes): upload it as "
                       "the assignment's autograder on Gradescope")
        return 0
    from grading.running.checkspec import check_spec as run_check
    if len(submissions) > 1:
        fail("--check-spec takes at most one SUBMISSION (the course's reference solution)")
    from sandbox.isolation import IsolationUnavailable
    try:
        res = run_check(check_spec, submissions[0] if submissions else None, insecure=insecure)
    except IsolationUnavailable as e:
        raise Refused(e.line()) from None
    if as_json:
        emit_json(res.to_dict())
    else:
        click.echo(res.text())
    if not res.ok:
        click.get_current_context().exit(1)
    return 0
