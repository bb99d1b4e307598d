"""z3 in a worker asks each text first of one incremental solver (proofs.engines.engines.z3_run): nothing
of one text may be asserted in the next, a text z3 cannot parse leaves no scope open, and an
answer is the same as a fresh context's on the same text."""
from __future__ import annotations

from proofs.engines import engines


def test_one_text_is_not_asserted_in_the_next():
    pos = "(set-logic ALL)(declare-fun x () Real)(assert (> x 1.0))(check-sat)"
    neg = "(set-logic ALL)(declare-fun x () Real)(assert (< x 0.0))(check-sat)"
    both = "(set-logic ALL)(declare-fun x () Real)(assert (> x 1.0))(assert (< x 0.0))(check-sat)"
    for _ in range(3):
        assert engines.z3_run(pos, 4000)[0] == engines.SAT
        a, model, _, _ = engines.z3_run(neg, 4000)
        assert a == engines.SAT and model and model["x"].startswith("-")
        assert engines.z3_run(both, 4000)[0] == engines.UNSAT
    assert engines._SHARED is not None and len(engines._SHARED.assertions()) == 0


def test_a_sort_or_name_declared_again_with_another_meaning():
    a = "(declare-sort mb_Vec 0)(declare-fun u () mb_Vec)(declare-fun f (mb_Vec) Real)(assert (> (f u) 0.0))"
    b = "(declare-fun u () Real)(assert (= (* u u) 2.0))(assert (> u 0.0))"
    c = "(declare-fun u () Int)(assert (= (* u u) 2))"
    assert engines.z3_run(a, 4000)[0] == engines.SAT
    assert engines.z3_run(b, 4000)[0] == engines.SAT
    assert engines.z3_run(c, 4000)[0] == engines.UNSAT
    assert engines.z3_run(c, 4000, fresh=True)[0] == engines.UNSAT


def test_a_text_that_does_not_parse_leaves_no_scope_open():
    bad = "(declare-fun x () Real)(assert (> x undeclared_name))"
    a, _, why, _ = engines.z3_run(bad, 4000)
    assert a == "error" and "z3 error" in why
    ok = "(declare-fun x () Real)(assert (> x 1.0))(assert (< x 0.0))"
    assert engines.z3_run(ok, 4000)[0] == engines.UNSAT
    s = engines._SHARED
    assert s is not None and s.num_scopes() == 0 and len(s.assertions()) == 0


def test_the_shared_solver_and_a_fresh_context_agree_on_catalogue_texts():
    from proofs.printers.smtlib import problem
    from proofs.catalogue import registry
    th = next(t for t in registry.all_theorems() if t.kind == "theorem")
    from proofs.verify.runner import build
    b = build(th)
    assert not b.error
    n = 0
    for st in b.proof.steps:
        if st.kind != "solve":
            continue
        text = problem(tuple((lab, f.formula) for lab, f in st.hyps), st.goal)
        shared = engines.z3_run(text, 10000)[0]
        assert shared == engines.z3_run(text, 10000, fresh=True)[0] == engines.UNSAT
        n += 1
    assert n > 0
