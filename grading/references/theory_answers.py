"""The reference answer of a theory question: the refutation engine's verdict (``check_kernel``,
``check_bound``), with its explanation stripped of running times, computed once per process (it
does not depend on the student)."""
from __future__ import annotations

import re

__all__ = ["engine_verdict"]

_VERDICTS: dict = {}
_TIMING = re.compile(r"\(\d+(\.\d+)?\s*m?s\)")


def engine_verdict(q):
    key = (q.kind, q.expr, q.algorithm, q.variant)
    if key not in _VERDICTS:
        from refutation import check_bound, check_kernel
        if q.kind == "kernel":
            v = check_kernel(q.expr)
            truth = {"legal": True, "illegal": False}.get(v.status)
        else:
            v = check_bound(q.algorithm, q.expr, variant=q.variant)
            truth = {"holds": True, "refuted": False}.get(v.status)
        _VERDICTS[key] = (truth, v.status, _without_timings(v.explain()))
    return _VERDICTS[key]


def _without_timings(text: str) -> str:
    """The engine's explanation without its running times (``(0.31 s)``): a student's feedback
    must not vary with the machine's load."""
    return "\n".join(ln for ln in text.splitlines() if not _TIMING.fullmatch(ln.strip())).rstrip()
