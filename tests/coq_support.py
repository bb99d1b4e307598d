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
