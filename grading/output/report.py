"""Writers: Gradescope ``results.json``, the feedback page (Markdown), the batch summary CSV and
the JUnit XML.

Gradescope's format (https://gradescope-autograders.readthedocs.io/en/latest/specs/): top level
``score``, ``execution_time`` (seconds), ``output``, ``tests``; each test ``name``, ``number``,
``score``, ``max_score``, ``status`` ("passed"/"failed"), ``output``, ``visibility``
("hidden", "after_due_date", "after_published", "visible").  We also write the top-level
``max_score``.

What the student's code said never reads as the grader's own text:

* messages that came from the worker (exception texts, import errors) reach a report only as
  ``sandbox.wire.student_text``: one line, control and formatting characters escaped, at most 400
  characters, between « and »;
* what the code printed is shown only in ``feedback.md``, in its own fenced section, every line
  prefixed with ``| `` and escaped, at most 40 lines / 4000 characters;
* every fence is longer than any run of backticks inside it;
* ``execution_time`` is whole seconds of the visible tests only (``reported_seconds``);
* sizes are capped: one test's output at ``TEST_CAP`` (16 KiB), the summary at ``TEST_CAP``, and
  each of ``results.json`` and ``feedback.md`` at ``REPORT_CAP`` (1 MiB) per submission.
"""
from __future__ import annotations

import csv
import io
import json
import os
import re
from xml.sax.saxutils import escape, quoteattr

from learners.io import write_text_atomic

from sandbox.wire import student_block

__all__ = ["results_json", "results_text", "feedback_markdown", "summary_csv", "junit_xml", "write_submission",
           "RESULT_KEYS", "TEST_KEYS", "REPORT_CAP", "TEST_CAP"]

RESULT_KEYS = ("score", "max_score", "execution_time", "output", "output_format", "test_output_format",
               "test_name_format", "tests")
TEST_KEYS = ("name", "number", "score", "max_score", "status", "output", "visibility")
REPORT_CAP = 1 << 20
TEST_CAP = 16 << 10
_CUT = "\n[the grader cut this text here: at most {} characters]"


def _num(x: float):
    return int(x) if float(x).is_integer() else round(float(x), 6)


def _cap(text: str, limit: int = TEST_CAP) -> str:
    if len(text) <= limit:
        return text
    note = _CUT.format(limit)
    return text[: max(0, limit - len(note))] + note


def _fit(texts: list[str], budget: int) -> list[str]:
    """Shorten the longest texts until their total fits ``budget`` characters."""
    if sum(len(t) for t in texts) <= budget:
        return texts
    limit = max(200, budget // max(1, len(texts)))
    return [_cap(t, limit) for t in texts]


def _one_line(s: str) -> str:
    return " ".join(str(s).split("\n"))


_MD_SPECIAL = set("\\`*_{}[]()<>#+-.!|~&\"'=:$^")


def md_text(s: str) -> str:
    """Text shown outside a fence in Markdown: one line, control characters escaped, every
    character Markdown or HTML could read as markup backslash-escaped or written as an entity."""
    from sandbox.wire import _escape
    out = []
    for ch in _escape(_one_line(s)):
        if ch == "<":
            out.append("&lt;")
        elif ch == ">":
            out.append("&gt;")
        elif ch == "&":
            out.append("&amp;")
        elif ch in _MD_SPECIAL:
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


def results_json(res, budget: int = REPORT_CAP // 2) -> dict:
    tests = []
    outputs = _fit([_cap(t.output) for t in res.tests], budget)
    for i, (t, out) in enumerate(zip(res.tests, outputs), 1):
        vis = t.visibility or ("after_due_date" if t.hidden else "visible")
        tests.append({"name": t.name, "number": str(i), "score": _num(t.score), "max_score": _num(t.points),
                      "status": "passed" if t.passed else "failed", "output": out, "visibility": vis})
    return {"score": _num(res.score), "max_score": _num(res.max_score),
            "execution_time": res.reported_seconds, "output": _cap(res.summary_text()),
            "output_format": "text", "test_output_format": "text", "test_name_format": "text", "tests": tests}


def results_text(res) -> str:
    """``results.json`` as written: at most REPORT_CAP bytes (the test outputs are shortened
    until it fits)."""
    budget = REPORT_CAP // 2
    while True:
        text = json.dumps(results_json(res, budget), indent=2) + "\n"
        if len(text.encode("utf-8")) <= REPORT_CAP or budget < 1000:
            return text
        budget //= 2


def _cap_bytes(text: str, limit: int) -> str:
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    note = _CUT.format(limit).replace("characters", "bytes")
    return data[: limit - len(note) - 4].decode("utf-8", "ignore") + note


def _fence(text: str) -> str:
    runs = [len(m) for m in re.findall(r"`+", text)]
    f = "`" * max(3, max(runs, default=0) + 1)
    return f"{f}\n{text}\n{f}\n\n"


def feedback_markdown(res) -> str:
    out = io.StringIO()
    w = out.write
    w(f"# {md_text(res.spec.title)}: feedback for {md_text(res.name)}\n\n")
    if res.insecure:
        w(f"> **WARNING from the grader:** {_one_line(res.isolation_text())}\n\n")
    w(f"**Score: {_num(res.score)} / {_num(res.max_score)}**\n\n")
    if res.note:          # may quote student text (an import error, an archive member's name): fenced
        w(_fence(_one_line(res.note)))
    names = res.mistake_names()
    if names:
        w("## Likely mistakes\n\n")
        for n, msg in names.items():
            w(f"- **{md_text(n)}**: {md_text(msg)}\n")
        w("\n")
    w("## Tests\n\n| # | test | points | result |\n|---|---|---|---|\n")
    for i, t in enumerate(res.tests, 1):
        w(f"| {i} | {md_text(t.name)} | {_num(t.score)}/{_num(t.points)} | {'passed' if t.passed else 'failed'} |\n")
    w("\n")
    shown = [(i, t) for i, t in enumerate(res.tests, 1) if not (t.passed or t.hidden)]
    bodies = _fit([_cap(t.output) for _, t in shown], REPORT_CAP // 2)
    for (i, t), body in zip(shown, bodies):
        w(f"### {i}. {md_text(t.name)}\n\n" + _fence(body))
    if res.printed:
        w("## What your code printed (visible tests, first lines)\n\n"
          "Every line starting with `| ` below is your program's output, quoted by the grader.\n\n")
        w(_fence(student_block(res.printed)))
    if not res.spec.tests:          # theory questions only: no code of the student's ran
        w("## How your answers were read\n\n"
          "No code of yours ran: the grader read answers.toml (TOML, at most 64 KiB) and compared each answer "
          "with the refutation engine's verdict.\n")
        return _cap_bytes(out.getvalue(), REPORT_CAP)
    w("## How your code was run\n\n")
    w(f"Each call ran in a separate sandboxed process ({_one_line(res.isolation_text())}); "
      "the expected answers never left the grader. Time shown to you: whole seconds of the visible "
      f"tests ({res.reported_seconds} s).\n")
    return _cap_bytes(out.getvalue(), REPORT_CAP)


SUMMARY_FIELDS = ["submission", "score", "max_score", "passed", "failed", "mistakes", "seconds", "note"]


def _cell(s: str) -> str:
    from grading.running.batch import _csv_safe
    return _csv_safe(_one_line(s)[:2000])


def summary_csv(results) -> str:
    out = io.StringIO()
    wr = csv.writer(out, lineterminator="\n")
    wr.writerow(SUMMARY_FIELDS)
    for r in results:
        wr.writerow([_cell(r.name), _num(r.score), _num(r.max_score), sum(t.passed for t in r.tests),
                     sum(not t.passed for t in r.tests), _cell("; ".join(r.mistake_names())), round(r.seconds, 3),
                     _cell(r.note)])
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
                text = _cap(t.output)
                msg = text.splitlines()[0] if text else "failed"
                lines.append(f'      <failure message={quoteattr(msg)}>{escape(text)}</failure>')
            lines.append('    </testcase>')
        lines.append('  </testsuite>')
    lines.append('</testsuites>')
    return "\n".join(lines) + "\n"


def write_submission(res, out_dir: str, folder: str | None = None) -> str:
    """Write ``out_dir/<folder>/results.json`` and ``feedback.md`` (each atomically: a temporary
    file renamed into place).  Returns the folder's path."""
    d = os.path.join(out_dir, folder or res.name)
    write_text_atomic(os.path.join(d, "results.json"), results_text(res))
    write_text_atomic(os.path.join(d, "feedback.md"), feedback_markdown(res))
    return d
