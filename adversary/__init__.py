"""adversary: worst-case sequences, the sequence file format, exact certification and replay.
Claims about bounds and kernels are checked one floor up, in ``refutation``.

Exports are lazy so that importing one module of the package does not import the others.
"""
from __future__ import annotations

__all__ = ["Sequence", "certify", "Certificate"]


def __getattr__(name):
    if name == "Sequence":
        from adversary.sequence import Sequence
        return Sequence
    if name in ("certify", "Certificate"):
        from adversary import certify as _c
        return getattr(_c, name)
    raise AttributeError(f"module 'adversary' has no attribute {name!r}")
