"""sandbox: running a submission's code isolated, and every byte it sends back checked.

A floor of its own (learners <- proofs <- adversary <- refutation <- sandbox <- grading <-
mistakebound), standard library only: :class:`Worker` runs one submission in a child process with
new mount, PID, IPC, UTS and network namespaces (inside a user namespace when that is what the
platform allows), an allow-list view of the file system, no capabilities, no_new_privs, a seccomp
filter and resource limits; it calls the submission (plainly, or through a course's call plan)
and validates every answer (``sandbox.wire``) before the caller sees it.  A layer that cannot be
set up raises :class:`IsolationUnavailable`.

Exports are lazy: ``import sandbox`` loads nothing else.
"""
from __future__ import annotations

import importlib

_LAZY = {"Worker": "worker", "CHILD": "worker", "Limits": "limits", "CallResult": "limits", "Budget": "limits",
         "IsolationUnavailable": "isolation", "project_root": "isolation", "SUITE_PACKAGES": "isolation",
         "stop_templates": "_template"}

__all__ = sorted(_LAZY)


def __getattr__(name):
    if name == "stop_templates":
        return importlib.import_module("sandbox._template").stop_all
    if name in _LAZY:
        return getattr(importlib.import_module(f"sandbox.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'sandbox' has no attribute {name!r}")
