"""The shipped example courses (grading/examples/<spec>/correct and /<bug>), graded once per test
module on two processes (each grades its share, sharing imports and caches)."""
from __future__ import annotations

import concurrent.futures as cf
import multiprocessing as mp
import os

from grading.running.grader import grade_submission

EX = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "grading", "examples")


def grade_examples(table: dict) -> dict:
    """``table`` maps a spec name to (its buggy example's folder, ...): returns
    {spec: {"correct": result, "bug": result}}."""
    jobs = [(spec, kind, os.path.join(EX, spec, "correct" if kind == "correct" else row[0]))
            for spec, row in sorted(table.items()) for kind in ("correct", "bug")]
    out: dict = {spec: {} for spec in table}
    with cf.ProcessPoolExecutor(max_workers=2, mp_context=mp.get_context("forkserver")) as ex:
        futs = {ex.submit(grade_submission, spec, path): (spec, kind) for spec, kind, path in jobs}
        for f in cf.as_completed(futs):
            spec, kind = futs[f]
            out[spec][kind] = f.result()
    return out
