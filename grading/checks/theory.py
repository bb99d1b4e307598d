"""Theory questions (is this kernel legal? does this mistake bound hold?) graded with the
refutation engine ``adversary.refutation`` (``check_kernel``, ``check_bound``).

The student's answers are a TOML file ``answers.toml`` in the submission::

    [q_kernel]
    answer = false        # kernel questions: true = legal; bound questions: true = holds

No student code runs for these: the file is parsed in the grader with ``tomllib`` (at most 64 KiB;
a file too large, too deeply nested or not TOML scores 0 with that reason).  The engine's verdict
does not depend on the student, so it is computed once per process
(:mod:`grading.references.theory_answers`).  An "unknown" verdict (the
engine could neither prove nor refute within its budget) is never graded against the student: the
question scores full marks and says so, to be reviewed by hand.
"""
from __future__ import annotations

import tomllib

from grading.references.theory_answers import engine_verdict

__all__ = ["grade_theory"]

MAX_ANSWERS = 64 << 10


def _answers(files: dict) -> tuple[dict, str]:
    raw = files.get("answers.toml")
    if raw is None:
        return {}, "no answers.toml in the submission"
    if len(raw) > MAX_ANSWERS:
        return {}, f"answers.toml is larger than {MAX_ANSWERS >> 10} KiB"
    try:
        return tomllib.loads(raw.decode("utf-8", "replace")), ""
    except tomllib.TOMLDecodeError as e:
        return {}, f"answers.toml is not valid TOML ({str(e).splitlines()[0][:200]})"
    except RecursionError:
        return {}, "answers.toml is nested too deeply"
    except (ValueError, TypeError, OverflowError) as e:
        return {}, f"answers.toml cannot be read ({type(e).__name__})"


def grade_theory(spec, files: dict) -> list:
    """One TestOutcome per theory question of ``spec``."""
    from grading.checks.checks import TestOutcome
    answers, problem = _answers(files)
    out = []
    for q in spec.theory:
        what = "a legal kernel" if q.kind == "kernel" else f"a valid mistake bound for {q.algorithm}"
        name = f"theory {q.id}: is {q.expr} {what}?" if not q.hidden else f"theory {q.id} (hidden question)"
        given = answers.get(q.id, {}).get("answer") if isinstance(answers.get(q.id), dict) else None
        try:
            truth, status, explain = engine_verdict(q)
        except Exception as e:  # noqa: BLE001 - an engine failure must not cost points
            truth, status, explain = None, "error", f"{type(e).__name__}: {e}"
        if truth is None:
            out.append(TestOutcome(kind=f"theory:{q.id}", name=name, points=q.points, score=q.points, passed=True,
                                   output=f"not graded automatically (engine verdict: {status}); full marks "
                                   "pending review", hidden=q.hidden, visibility=q.visibility))
            continue
        if not isinstance(given, bool):
            msg = problem or f"no boolean answer for [{q.id}] in answers.toml (answer = true or false)"
            out.append(TestOutcome(kind=f"theory:{q.id}", name=name, points=q.points, score=0.0, passed=False,
                                   output=msg, hidden=q.hidden, visibility=q.visibility))
            continue
        ok = given == truth
        msg = "correct" if ok else f"incorrect: the engine's verdict is {status.upper()}\n{explain}"
        if q.hidden:
            msg = "passed" if ok else "failed (hidden test: its input is not shown)"
        out.append(TestOutcome(kind=f"theory:{q.id}", name=name, points=q.points, score=q.points if ok else 0.0,
                               passed=ok, output=msg, hidden=q.hidden, visibility=q.visibility))
    return out
