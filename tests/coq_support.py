"""Shared by the Coq tests: skip without coqc locally, fail in CI (CI=1), one build per session."""
from __future__ import annotations

import os

import pytest


def require_coq() -> str:
    from coq.build import find_coqc
    coqc = find_coqc()
    if coqc is None:
        if os.environ.get("CI"):
            pytest.fail("coqc is not installed, but CI must kernel-check the catalogue (.ci/run installs coq)")
        pytest.skip("coqc not installed (apt-get install coq coinor-csdp)")
    return coqc


def copy_build(parent):
    """A copy of the session's build directory at ``parent/coq`` (a test edits a source or a statement
    there and rebuilds only what the edit touches); the session's build is left as it was."""
    import shutil
    from pathlib import Path

    from coq import build
    bdir = Path(parent) / "coq"
    shutil.copytree(build.default_build_dir(), bdir, ignore=shutil.ignore_patterns(".lock"))
    return bdir


def build_with_statement_edited(monkeypatch, tmp_path, printer: str, tid: str, old: str, new: str, ids):
    """A copy of the session's build (:func:`copy_build`) in which learner theorem ``tid``'s statement,
    printed by ``coq.learner_theorems.<printer>``, has ``old`` (found exactly once) replaced by
    ``new``; the build's report for ``ids``.  Coq, not a text match, decides whether the unchanged
    proof in LearnerTheorems.v still has the edited statement's type."""
    from coq import build
    from coq import learner_theorems as lth
    real = getattr(lth, printer)

    def edited(lt):
        text = real(lt)
        if lt.id != tid:
            return text
        assert text.count(old) == 1
        return text.replace(old, new)
    monkeypatch.setattr(lth, printer, edited)
    return build.build(list(ids), build_dir=copy_build(tmp_path))
