"""The shipped assignments (``grading/assignments/*.toml``): the list ``grade --list`` prints
and the commented spec ``grade --init NAME`` writes to start a course's own from."""
from __future__ import annotations

import os
import re

from learners.errors import InputError

__all__ = ["ASSIGNMENTS_DIR", "shipped_names", "shipped", "init_text"]

ASSIGNMENTS_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "assignments")


def shipped_names() -> list[str]:
    """The names of the shipped specs (no imports beyond the standard library: for --help)."""
    return sorted(f[:-5] for f in os.listdir(ASSIGNMENTS_DIR) if f.endswith(".toml"))


def shipped() -> list[dict]:
    """One row per shipped assignment: name, title, the file students submit, the call (or the
    theory questions), the tests and their points."""
    from grading.spec.spec import load_spec
    out = []
    for name in shipped_names():
        s = load_spec(name)
        if s.tests and s.style == "function" and s.contract.adapter:
            call = f"the handout's API, called by the course's adapter {s.contract.call.signature()}"
        elif s.tests and s.style == "function":
            call = s.contract.call.signature()
        elif s.tests:
            call = f"class {s.entry}(n_features) with predict(x), update(x, y)"
        else:
            call = f"{len(s.theory)} true/false questions"
        out.append({"name": name, "title": s.title, "algorithm": s.algorithm,
                    "submit": f"{s.module}.py" if s.tests else "answers.toml", "call": call,
                    "tests": [t.kind for t in s.tests] + [f"theory:{q.id}" for q in s.theory],
                    "max_score": s.max_score})
    return out


_HEADER = """# A grading spec for mistakebound grade, written by `mistakebound grade --init {name}`
# from the shipped assignment {name!r}.  Edit it for your course, then check it:
#     mistakebound grade --check-spec THIS.toml SOLUTION/   # both solutions must get full marks
#     mistakebound grade --assignment THIS.toml submissions/* --out results/
# Tables: [assignment] (what students submit), [contract] and [contract.call] (how the course's
# code is called and what it computes), [limits] (the sandbox), [hypothesis] (generated inputs),
# [tests.KIND] (points, hidden, visibility), [theory.ID].  docs/grading.md ("Every key") lists
# every key of every table with its values; unknown keys are refused.
# Tests offered for this assignment: {tests}.
#
"""


def init_text(name: str) -> str:
    """The shipped spec ``name`` with a header of comments; its ``solution`` (a path inside this
    package) is commented out: give the course's own.  An adapter's code is written into the spec."""
    from grading.spec.offered import test_kinds
    from grading.spec.spec import load_spec
    if name not in shipped_names():
        raise InputError(f"unknown assignment {name!r} (shipped: {', '.join(shipped_names())})")
    with open(os.path.join(ASSIGNMENTS_DIR, f"{name}.toml"), encoding="utf-8") as fh:
        body = fh.read()
    body = re.sub(r'(?m)^solution = "[^"\n]*"[^\n]*$',
                  '# solution = "solution/"   # the course\'s reference solution (grade --check-spec), relative '
                  'to this file', body)
    spec = load_spec(name)
    from grading.spec.adapter import inline
    body = inline(body, spec.contract)        # the adapter's file is inside this package: its code goes along
    kinds = test_kinds(spec) if spec.tests else ["theory questions"]
    return _HEADER.format(name=name, tests=", ".join(kinds)) + body
