"""Writers: Gradescope ``results.json``, the feedback page (Markdown), the batch summary CSV and
the JUnit XML.

Gradescope's format (https://gradescope-autograders.readthedocs.io/en/latest/specs/): top level
``score``, ``execution_time`` (seconds), ``output``, ``tests``; each test ``name``, ``number``,
``score``, ``max_score``, ``status`` ("passed"/"failed"), ``output``, ``visibility``
("hidden", "after_due_date", "after_published", "visible").  We also write the top-level
``max_score`` the issue asks for.
"""
from __future__ import annotations

import csv
import io
import os
from xml.sax.saxutils import escape, quoteattr

from learners.io import write_text_atomic

__all__ = ["results_json", "feedback_markdown", "summary_csv", "junit_xml", "RESULT_KEYS", "TEST_KEYS"]

RESULT_KEYS = ("score", "max_score", "execution_time", "output", "tests")
TEST_KEYS = ("name", "number", "score", "max_score", "status", "output", "visibility")


def _num(x: float):
    return int(x) if float(x).is_integer() else round(float(x), 6)


def results_json(res) -> dict:
    tests = []
    for i, t in enumerate(res.tests, 1):
        vis = t.visibility or ("after_due_date" if t.hidden else "visible")
        tests.append({"name": t.name, "number": str(i), "score": _num(t.score), "max_score": _num(t.points),
                      "status": "passed" if t.passed else "failed", "output": t.output, "visibility": vis})
    return {"score": _num(res.score), "max_score": _num(res.max_score),
            "execution_time": round(res.seconds, 3), "output": res.summary_text(), "tests": tests}


def feedback_markdown(res) -> str:
    out = io.StringIO()
    w = out.write
    w(f"# {res.spec.title}: feedback for `{res.name}`\n\n")
    w(f"**Score: {_num(res.score)} / {_num(res.max_score)}**\n\n")
    if res.note:
        w(f"> {res.note}\n\n")
    names = res.mistake_names()
    if names:
        w("## Likely mistakes\n\n")
        for n, msg in names.items():
            w(f"- **{n}**: {msg}\n")
        w("\n")
    w("## Tests\n\n| # | test | points | result |\n|---|---|---|---|\n")
    for i, t in enumerate(res.tests, 1):
        w(f"| {i} | {t.name} | {_num(t.score)}/{_num(t.points)} | {'passed' if t.passed else 'failed'} |\n")
    w("\n")
    for i, t in enumerate(res.tests, 1):
        if t.passed or t.hidden:
            continue
        w(f"### {i}. {t.name}\n\n```\n{t.output}\n```\n\n")
    if res.printed:
        w("## What your code printed (visible tests, first lines)\n\n```\n" + res.printed + "\n```\n\n")
    w("## How your code was run\n\n")
    w(f"Each call ran in a separate sandboxed process ({res.isolation_text()}); "
      "the expected answers never left the grader.\n")
    return out.getvalue()


SUMMARY_FIELDS = ["submission", "score", "max_score", "passed", "failed", "mistakes", "seconds", "note"]


def summary_csv(results) -> str:
    out = io.StringIO()
    wr = csv.writer(out, lineterminator="\n")
    wr.writerow(SUMMARY_FIELDS)
    for r in results:
        wr.writerow([r.name, _num(r.score), _num(r.max_score), sum(t.passed for t in r.tests),
                     sum(not t.passed for t in r.tests), "; ".join(r.mistake_names()), round(r.seconds, 3), r.note])
    return out.getvalue()


def junit_xml(results) -> str:
    lines = ['<?xml version="1.0" encoding="UTF-8"?>']
    tot = sum(len(r.tests) for r in results)
    fails = sum(not t.passed for r in results for t in r.tests)
    secs = sum(r.seconds for r in results)
    lines.append(f'<testsuites name="mistakebound-grade" tests="{tot}" failures="{fails}" time="{secs:.3f}">')
    for r in results:
        f = sum(not t.passed for t in r.tests)
        lines.append(f'  <testsuite name={quoteattr(r.name)} tests="{len(r.tests)}" failures="{f}" '
                     f'time="{r.seconds:.3f}">')
        for t in r.tests:
            lines.append(f'    <testcase classname={quoteattr(r.name)} name={quoteattr(t.name)} '
                         f'time="{t.seconds:.3f}">')
            if not t.passed:
                msg = t.output.splitlines()[0] if t.output else "failed"
                lines.append(f'      <failure message={quoteattr(msg)}>{escape(t.output)}</failure>')
            lines.append('    </testcase>')
        lines.append('  </testsuite>')
    lines.append('</testsuites>')
    return "\n".join(lines) + "\n"


def write_submission(res, out_dir: str) -> str:
    import json
    d = os.path.join(out_dir, res.name)
    os.makedirs(d, exist_ok=True)
    write_text_atomic(os.path.join(d, "results.json"), json.dumps(results_json(res), indent=2) + "\n")
    write_text_atomic(os.path.join(d, "feedback.md"), feedback_markdown(res))
    return d
