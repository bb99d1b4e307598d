"""A cold check decides every distinct question once: each text goes to each engine at most once
in a run -- two theorems with a common step or lemma, and the independent checker after the
kernel, share one answer -- and the checker's obligations are all answered by handing over the
verdicts already given on the very same texts (the checker replaces the kernel's verdict, it
does not add a second pass of the engines).

Counted on the requests the engine worker pool receives (``proofs.engines.workers``), never timed.
"""
from __future__ import annotations

import collections
import json

import pytest

from proofs.engines import workers
from proofs.verify import checks
from proofs.verify.checks import Options
from proofs.verify.runner import run_catalogue
from proofs.verify import certificate

# two theorems sharing the lemmas cauchy_schwarz and claim1_correlation_growth (identities over a
# symbolic dimension among their steps), and an erratum (its instance to both solvers, a replay)
IDS = ["block_novikoff_radius", "block_novikoff_unit", "erratum_halving_strict"]


def _questions(payload: dict) -> list[tuple]:
    op = payload["op"]
    if op in ("z3", "cvc5"):
        return [(op, payload["smt"])]
    if op == "sat":
        return [("sat", t) for t in payload["texts"]]
    if op == "guarded":
        return [("guarded", payload["guarded"], json.dumps(payload["queries"]))]
    return [(op, json.dumps(payload, sort_keys=True))]


@pytest.fixture
def counted(monkeypatch):
    asked: collections.Counter = collections.Counter()
    submit = workers._Pool.submit

    def counting(self, payload, timeout_ms):
        asked.update(_questions(payload))
        return submit(self, payload, timeout_ms)
    monkeypatch.setattr(workers._Pool, "submit", counting)
    checks.reset_memo()                  # nothing answered before in this process
    yield asked
    checks.reset_memo()


def test_a_cold_run_sends_each_text_to_each_engine_once_and_the_checker_none(counted):
    before = dict(certificate.STATS)
    cat = run_catalogue(IDS, use_cache=False, options=Options(necessity=False))
    assert cat.ok, [(r.theorem.id, r.status, r.reasons[:2]) for r in cat.results]
    twice = {(q[0], q[1][:80]): n for q, n in counted.items() if n > 1}
    assert twice == {}, twice
    ops = collections.Counter(q[0] for q in counted)
    assert ops["z3"] > 20 and ops["cvc5"] > 20, ops            # the run did solve: the count can fail
    # every obligation the checker met was decided once, before, on exactly its text
    asked = certificate.STATS["obligations"] - before["obligations"]
    handed = certificate.STATS["handed_over"] - before["handed_over"]
    assert asked >= 10 and handed == asked, (handed, asked)
    # and each of its texts is one the engines were given (the same text, not a second one)
    smt = {q[1] for q in counted if q[0] == "cvc5"}
    for r in cat.results:
        for s in r.steps:
            if s.step.kind == "solve":
                assert s.smtlib in smt
