"""grading: grade students' perceptron, Winnow and kernel-perceptron code — isolated,
property-based, with feedback that teaches (see docs/grading.md).

The isolated run of a submission is the floor below (``sandbox``: ``Worker``, ``Limits``).
Exports are lazy: ``import grading`` alone does not pull in hypothesis or learners.
"""
from __future__ import annotations

__all__ = ["load_spec", "grade_submission", "grade_batch", "Worker", "Limits"]


def __getattr__(name):
    if name == "load_spec":
        from grading.spec.spec import load_spec
        return load_spec
    if name in ("grade_submission", "grade_batch"):
        from grading.running import grader
        return getattr(grader, name)
    if name in ("Worker", "Limits"):
        import sandbox
        return getattr(sandbox, name)
    raise AttributeError(f"module 'grading' has no attribute {name!r}")
