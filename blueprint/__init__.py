"""blueprint: the catalogue to read -- a static site (one page per entry: its statement typeset,
the proof as a graph of checked steps, the lemmas both ways, the worst-case sequences, the lecture
note it checks) and the same proof in the terminal (``mistakebound verify --show``).

It reads ``proofs`` (the run, the kernel's proof structure), ``coq`` (the step lemmas' names and,
when asked, Coq's verdicts) and ``adversary`` (worst-case sequences); nothing below needs it.
"""
from __future__ import annotations

__all__ = ["collect", "render_site", "write_site"]


def __getattr__(name):
    if name == "collect":
        from blueprint.model import collect
        return collect
    if name in ("render_site", "write_site"):
        from blueprint import site
        return getattr(site, name)
    raise AttributeError(f"module 'blueprint' has no attribute {name!r}")
