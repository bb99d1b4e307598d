"""A question asked twice while its first answer is pending is solved once, and both askers get
that answer; a question answered "unknown" is asked again later (it is never kept).

Counted with ``proofs.engines.engines.CALLS`` (questions actually sent to an engine), never timed.
"""
from __future__ import annotations

import pytest

from proofs.engines import cache, engines
from proofs.verify import checks
from proofs.engines.engines import PROVED, SAT, UNKNOWN, UNSAT, PendingCvc5, PendingSat, PendingZ3

TEXT = "(set-logic ALL)\n(declare-fun a () Real)\n(assert (>= a 1.0))\n(assert (not (>= a 0.0)))\n(check-sat)\n"
HYPS = "(set-logic ALL)\n(declare-fun a () Real)\n(assert (>= a 1.0))\n(check-sat)\n"
EMPTY = "(set-logic ALL)\n(declare-fun a () Real)\n(assert (> a a))\n(check-sat)\n"


@pytest.fixture
def no_disk():
    was = cache.enabled()
    cache.set_enabled(False)
    checks.reset_memo()
    yield
    checks.reset_memo()
    cache.set_enabled(was)


def test_the_same_text_pending_twice_is_solved_once(no_disk):
    p1, p2 = PendingZ3(TEXT, 10000), PendingZ3(TEXT, 10000)
    c1, c2 = PendingCvc5(TEXT, 10000), PendingCvc5(TEXT, 10000)
    assert engines.CALLS == {"z3": 1, "cvc5": 1}
    v1, v2 = p1.get(), p2.get()
    assert v1.status == v2.status == PROVED and v1.engine == v2.engine == "z3"
    assert v2 is not v1 and v2.seconds == 0.0 and not v2.cached      # answered once, not from the cache
    assert c1.get().status == c2.get().status == PROVED
    # the second asker may be waited for first: it still gets the first's answer
    p3, p4 = PendingZ3(TEXT + " ", 10000), PendingZ3(TEXT + " ", 10000)
    assert p4.get().status == PROVED and p3.get().status == PROVED
    assert engines.CALLS == {"z3": 2, "cvc5": 1}


def test_satisfiability_texts_pending_twice_are_solved_once(no_disk):
    s1 = PendingSat([HYPS, EMPTY])
    s2 = PendingSat([EMPTY, HYPS + " "])
    assert engines.CALLS == {"z3-sat": 3}
    assert [v.status for v in s2.get()] == [UNSAT, SAT]
    assert [v.status for v in s1.get()] == [SAT, UNSAT]


def test_an_unknown_answer_is_asked_again(no_disk, monkeypatch):
    from concurrent.futures import Future
    sent = []

    def killed(payload, timeout_ms):         # the worker died: no answer ("unknown")
        sent.append(payload["op"])
        f = Future()
        f.set_result(None)
        return f
    monkeypatch.setattr(engines.workers, "submit", killed)
    assert PendingZ3(TEXT, 1000).get().status == UNKNOWN
    assert PendingZ3(TEXT, 1000).get().status == UNKNOWN
    assert sent == ["z3", "z3"]
