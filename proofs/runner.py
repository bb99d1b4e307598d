"""Run the catalogue: discharge every obligation, re-check it, check non-vacuity, compose."""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from .core import TheoremResult, Theorem
from .engines import check_obligation


@dataclass
class CatalogueResult:
    results: list[TheoremResult]
    seconds: float
    selected: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.results)

    def to_json(self) -> dict:
        return {"theorems": [r.to_json() for r in self.results], "seconds": round(self.seconds, 3),
                "ok": self.ok, "selected": self.selected}

    def by_id(self, tid: str) -> TheoremResult:
        for r in self.results:
            if r.theorem.id == tid:
                return r
        raise KeyError(tid)


_MEMO: dict = {}


def _memo_check(o, nonvacuity, cross_check, theorem_id=None):
    """An obligation shared by several theorems (same id, same builder) is checked once per run."""
    key = (o.id, id(o.build), nonvacuity, cross_check)
    if key not in _MEMO:
        _MEMO[key] = check_obligation(o, nonvacuity=nonvacuity, cross_check=cross_check, theorem_id=theorem_id)
    r = _MEMO[key]
    if r.obligation is not o:
        import copy
        r = copy.copy(r)
        r.obligation = o
    return r


def check_theorem(th: Theorem, lemma_status: dict[str, str] | None = None, *, nonvacuity=True,
                  cross_check=True, resolve=True) -> TheoremResult:
    t = time.perf_counter()
    from . import registry
    in_registry = th.id in registry.theorem_ids() and registry.get(th.id) is th
    rs = [_memo_check(o, nonvacuity, cross_check, th.id if in_registry else None) for o in th.obligations]
    if resolve:
        for r in rs:
            r.resolve()
    ls = {lid: (lemma_status or {}).get(lid, "not checked") for lid in th.lemmas}
    wit = th.witness_check() if th.witness_check is not None else None
    return TheoremResult(th, rs, ls, wit, time.perf_counter() - t)


def run_catalogue(ids=None, *, progress=None, nonvacuity=True, cross_check=True) -> CatalogueResult:
    """Check the theorems named (all when ``ids`` is None) and the lemmas they use."""
    from . import registry
    t0 = time.perf_counter()
    _MEMO.clear()
    ths = registry.all_theorems() if not ids else registry.with_lemmas(ids)
    status: dict[str, str] = {}
    out = []
    for th in ths:
        out.append(check_theorem(th, status, nonvacuity=nonvacuity, cross_check=cross_check,
                                 resolve=False))
    # the cvc5 re-checks ran in a child process meanwhile; collect them, then compose statuses
    for r in out:
        for o in r.obligations:
            o.resolve()
        r.lemma_status = {lid: status.get(lid, "not checked") for lid in r.theorem.lemmas}
        status[r.theorem.id] = r.status
        if progress is not None:
            progress(r.theorem, r)
    return CatalogueResult(out, time.perf_counter() - t0, list(ids or []))
