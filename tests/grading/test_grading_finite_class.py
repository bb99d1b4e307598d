"""The finite-class assignment shapes: Halving and the Standard Optimal Algorithm over a class H
given as its truth table (Littlestone 1988; Shalev-Shwartz 2012, section 1.2; Blum's 15-859
notes), called ``halving(H, X, y)`` / ``soa(H, X, y)``.  The reference is the learners' exact run
under the contract's tie convention; on it the proofs' invariants hold (Halving: a mistake at
least halves the version space, so 2^M <= |H|; SOA: a mistake lowers Ldim(V), so M <= Ldim(H));
the worst cases are the adversary's; the shipped correct solutions get full marks and each
common mistake loses points with its cause named, confirmed by a one-change re-run."""
from __future__ import annotations

import os

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from grading.references.problems_finite import HalvingProblem, SoaProblem
from grading.references.problems_unit import make_any_problem
from grading.references.reference import reference_run
from grading.references.reference_finite import FINITE_BUGS, Instance, finite_loop, instances
from grading.spec.contract_parse import parse_contract
from grading.spec.spec import load_spec
from learners.littlestone import Littlestone

EX = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "grading", "examples")


def _contract(alg, **kw):
    return parse_contract(kw, algorithm=alg, style="function", entry=alg, bias=False, normalize=False,
                          labels="pm1", kernel=None, src="f.toml", epochs=1)


@st.composite
def _realizable(draw, max_m=4, max_class=10, max_T=8):
    """(H, points, y): a class of distinct hypotheses over 0..m-1 and a sequence one of them labels."""
    m = draw(st.integers(1, max_m))
    codes = draw(st.lists(st.integers(0, 2 ** m - 1), min_size=1, max_size=min(2 ** m, max_class), unique=True))
    H = [[1 if (c >> j) & 1 else -1 for j in range(m)] for c in codes]
    target = draw(st.integers(0, len(H) - 1))
    pts = draw(st.lists(st.integers(0, m - 1), min_size=1, max_size=max_T))
    return H, pts, [H[target][x] for x in pts]


def test_the_contract_of_the_finite_shapes():
    for alg in ("halving", "soa"):
        c = _contract(alg)
        assert c.ties == "predict+1" and c.answer == "mistakes"
        assert [a.ref for a in c.call.args] == ["H", "X", "y"] and c.epochs_fixed
        assert _contract(alg, ties="predict-1", answer="predictions").answer == "predictions"
        for bad, match in (({"answer": "weights"}, "mistakes\" or \"predictions"), ({"ties": "mistake"}, "ties"),
                           ({"order": "get_order"}, "not an option"), ({"call": {"args": ["X", "y"]}}, "class H"),
                           ({"call": {"args": ["H", "X", "y", "T"]}}, "no passes")):
            with pytest.raises(Exception, match=match):
                _contract(alg, **bad)
    with pytest.raises(Exception, match="passes H"):
        parse_contract({"call": {"args": ["H", "X", "y"]}}, algorithm="weighted_majority", style="function",
                       entry="train", bias=False, normalize=False, labels="pm1", kernel=None, src="w.toml", epochs=1)


def test_the_request_hands_the_class_in_the_courses_labels():
    X, y = instances([[1, -1], [-1, -1]], [1, 0, 1]), [-1, 1, -1]
    c = _contract("halving").replace(labels="01")
    from grading.references.plan import request
    req = request(c, X, y, 1)
    assert req["values"] == {"H": [[1, 0], [0, 0]], "X": [1, 0, 1], "y": [0, 1, 0]}
    assert [a["ref"] for a in req["plan"]["args"]] == ["H", "X", "y"]
    # the rows keep the class through the grader's slicing, reordering and copying
    import copy
    import pickle
    assert X[:2][1].H == X[0].H and copy.deepcopy(X)[2].H == X[0].H and pickle.loads(pickle.dumps(X))[0].H == X[0].H
    assert repr(X[:1]) != repr(instances([[1, 1], [-1, -1]], [1])), "the cache key must hold the class"


def test_the_class_is_watched_like_x_and_y():
    """The grader digests H as it does X and y, and the child hands H back after the call: a
    call that changes H is seen by the inputs-not-modified test."""
    import types

    from sandbox import _digest
    from sandbox._plan_child import run as child_run
    from grading.references.plan import request
    req = request(_contract("soa"), instances([[1, -1], [-1, 1]], [0, 1]), [1, 1], 1)
    sent = _digest.expected(req)
    assert set(sent) == {"H", "X", "y"}
    mod = types.SimpleNamespace(soa=lambda H, X, y: (H[0].reverse(), [1, 1])[1])

    def bad(msg):
        return ValueError(msg)
    back = child_run(mod, "soa", req, None, bad)["watched"]
    assert {k: _digest.digest(v) for k, v in back.items() if k != "H"} == {k: sent[k] for k in ("X", "y")}
    assert _digest.digest(back["H"]) != sent["H"]


@settings(max_examples=60, deadline=None)
@given(data=_realizable(), ties=st.sampled_from(["predict+1", "predict-1"]))
def test_reference_is_the_learners_run_and_the_loop_agrees(data, ties):
    """The reference (learners.run_halving / run_soa, a tie to -1 on the negated class) and the
    step-by-step loop the diagnoses change agree step for step, under both tie conventions."""
    H, pts, y = data
    for alg in ("halving", "soa"):
        run = reference_run(_contract(alg, ties=ties), instances(H, pts), y, 1)
        loop = finite_loop(alg, H, pts, y, ties)
        assert [(s.activation, s.mistake, s.weights) for s in run.steps] == loop
        # a tie follows the convention, and only a tie
        for s in run.steps:
            pred = 1 if s.activation > 0 or (s.activation == 0 and ties == "predict+1") else -1
            assert s.mistake == (pred != s.label)


@settings(max_examples=60, deadline=None)
@given(data=_realizable())
def test_halving_invariants_on_the_reference_run(data):
    """Every step leaves V = the hypotheses consistent with every label so far (never empty: the
    target stays); a mistake at least halves V; so 2^M <= |H| (proofs/catalogue/halving_bound.py)."""
    H, pts, y = data
    run = reference_run(_contract("halving"), instances(H, pts), y, 1)
    size = len(H)
    for t, s in enumerate(run.steps):
        consistent = tuple(int(all(h[x] == v for x, v in zip(pts[:t + 1], y[:t + 1]))) for h in H)
        assert s.weights == consistent and sum(s.weights) >= 1
        if s.mistake:
            assert 2 * sum(s.weights) <= size
        size = sum(s.weights)
    assert 2 ** run.mistakes <= len(H)


# a mistake of Halving's vote that leaves Ldim(V) as it was: what SOA's rule avoids
_VOTE_KEEPS_LDIM = ([[1, -1, -1, 1], [1, -1, -1, -1], [-1, 1, -1, 1], [1, 1, -1, -1], [-1, 1, -1, -1], [-1, -1, 1, 1],
                     [1, -1, 1, -1], [-1, -1, 1, -1]], [0], [-1])
# the larger side by size is the one of smaller dimension (the finite shapes' fourth probe)
_SIZES_PART = ([[-1, 1, -1, 1], [-1, 1, -1, -1], [-1, -1, 1, 1], [-1, -1, -1, -1], [1, -1, 1, -1]], [3, 0, 1],
               [-1, -1, -1])


@settings(max_examples=60, deadline=None)
@given(data=_realizable())
@example(data=_VOTE_KEEPS_LDIM)
def test_soa_invariants_on_the_reference_run(data):
    """Ldim of the version space never grows and drops on every mistake; so M <= Ldim(H)
    (proofs/catalogue/soa_bound.py), and SOA never makes more mistakes than Halving's log2 |H|."""
    H, pts, y = data
    L = Littlestone(H)
    run = reference_run(_contract("soa"), instances(H, pts), y, 1)
    before = L.ldim()
    for s in run.steps:
        after = L.ldim(sum(v << h for h, v in enumerate(s.weights)))
        assert 0 <= after <= before and (not s.mistake or after < before)
        before = after
    assert run.mistakes <= L.ldim() and 2 ** run.mistakes <= len(H)


def test_worst_cases_are_the_adversarys_and_reach_the_bounds():
    """Halving's: log2 |H| mistakes on every labelling of 3 points, Ldim(H) on the intervals' tree;
    SOA's: its own worst line reaches Ldim(H) on the intervals."""
    for name, cls in (("halving", HalvingProblem), ("soa", SoaProblem)):
        P = make_any_problem(load_spec(name))
        assert isinstance(P, cls)
        cases = P.worst_cases()
        assert cases and all(isinstance(r, Instance) for _, X, _, _ in cases for r in X)
        for what, X, y, e in cases:
            H = X[0].H
            assert any(all(h[r[0]] == v for r, v in zip(X, y)) for h in H), what      # realizable
            run = reference_run(P.contract, X, y, e)
            d = Littlestone(H).ldim()
            if "every labelling" in what:
                assert 2 ** run.mistakes == len(H)
            if name == "soa" or "tree" in what:
                assert run.mistakes == d, what


def test_every_common_mistake_changes_the_answer_on_a_probe():
    """Each cause can be confirmed: on the probes its re-run differs from the reference's, under
    the shipped answer of each shape (the number of mistakes for Halving, the predictions for SOA)."""
    for name, bugs in (("halving", ("removes_consistent", "update_only_on_mistakes", "first_consistent")),
                       ("soa", ("sizes_not_ldim", "update_only_on_mistakes"))):
        P = make_any_problem(load_spec(name))
        assert set(bugs) <= set(FINITE_BUGS)
        changes = [{"bugs": {b}} for b in bugs] + [{"contract": P.contract.replace(ties="predict-1")}]
        for ch in changes:
            assert any(not P.compare(P.expected(X, y, e), P.expected(X, y, e, **ch))[0] for X, y, e in P.probes()), \
                (name, ch)
        for k, (what, X, y, e) in P.edge_cases().items():      # each edge case runs, and the ties one meets ties
            run = reference_run(P.contract, X, y, e)
            if k == "ties":
                assert all(s.activation == 0 for s in run.steps)


SHIPPED = {"halving": {"removes_consistent": "removes the consistent hypotheses",
                       "ties_predict_minus": "ties predicted -1",
                       "update_only_on_mistakes": "shrinks the version space only on mistakes"},
           "soa": {"sizes_not_ldim": "version-space sizes compared instead of Littlestone dimensions",
                   "update_only_on_mistakes": "shrinks the version space only on mistakes"}}
_GRADED: dict = {}


def _graded(name):
    """The shape's shipped examples graded once (one batch per shape, shared by the cases below)."""
    if name not in _GRADED:
        from grading.running.grader import grade_batch
        folders = ["correct"] + sorted(SHIPPED[name])
        assert sorted(os.listdir(os.path.join(EX, name))) == sorted(folders)
        results, _ = grade_batch(name, [os.path.join(EX, name, f) for f in folders], jobs=1)
        _GRADED[name] = {r.name: r for r in results}
    return _GRADED[name]


@pytest.mark.slow
@pytest.mark.parametrize("name,example", [(n, e) for n in SHIPPED for e in ["correct"] + sorted(SHIPPED[n])])
def test_shipped_examples_correct_full_marks_bugs_lose_points_and_are_named(name, example):
    r = _graded(name)[example]
    if example == "correct":
        assert r.score == r.max_score == load_spec(name).max_score and r.diagnoses == {}
    else:
        assert r.score < r.max_score
        # lost on the visible tests, whatever the hidden seed
        assert any(not t.passed for t in r.tests if not t.hidden), [t.kind for t in r.tests if not t.passed]
        cause = SHIPPED[name][example]
        assert list(r.diagnoses) == [cause], r.diagnoses
        shown = [t.output for t in r.tests if not t.passed and not t.hidden]
        assert any(f"likely mistake: {cause} --" in o for o in shown)
        assert not any("cause: not named" in o or "data shuffled" in o for o in shown)


def _load(name):
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"{name}_under_test", os.path.join(EX, name, "correct", f"{name}.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return getattr(mod, name)


@settings(max_examples=40, deadline=None)
@given(data=_realizable())
@example(data=_SIZES_PART)
def test_bounds_on_the_shipped_solutions_own_runs(data):
    """The courses' solutions on their own runs: Halving within log2 |H| mistakes, SOA within
    Ldim(H) (its predictions' mistakes), each equal to the reference's answer."""
    H, pts, y = data
    halving, soa = _load("halving"), _load("soa")
    m = halving([list(h) for h in H], list(pts), list(y))
    assert 2 ** m <= len(H)
    assert m == reference_run(load_spec("halving").contract, instances(H, pts), y, 1).mistakes
    preds = soa([list(h) for h in H], list(pts), list(y))
    mistakes = sum(p != v for p, v in zip(preds, y))
    assert len(preds) == len(y) and mistakes <= Littlestone(H).ldim()
    run = reference_run(load_spec("soa").contract, instances(H, pts), y, 1)
    assert preds == [v if not s.mistake else -v for s, v in zip(run.steps, y)]


@pytest.mark.parametrize("alg", ["halving", "soa"])
def test_the_suites_own_solution_follows_every_contract(alg):
    """The solution --check-spec writes from the contract (grading.references.synth), run here
    in-process on the edge cases and probes: right under each label encoding, tie convention and
    answer, with lists and with numpy arrays -- and wrong under the other tie convention."""
    import numpy as np

    from grading.references.synth import solution_source
    from grading.references.plan import read_answer, request
    from sandbox._plan_child import plain
    P = make_any_problem(load_spec(alg))
    cases = [k[1:] for k in P.edge_cases().values()] + list(P.probes())
    for labels in ("pm1", "01", "bool"):
        for ties in ("predict+1", "predict-1"):
            for answer in ("mistakes", "predictions"):
                c = _contract(alg, ties=ties, answer=answer).replace(labels=labels)
                other = c.replace(ties="predict+1" if ties == "predict-1" else "predict-1")
                ns: dict = {}
                exec(compile(solution_source(c), f"{alg}.py", "exec"), ns)
                Pc = make_any_problem(load_spec(alg))
                Pc.contract = c             # compared and shown under this contract
                differs = False
                for X, y, e in cases:
                    vals = request(c, X, y, e)["values"]
                    for arrays in (False, True):
                        args = [np.array(vals[k]) if arrays else vals[k] for k in ("H", "X", "y")]
                        # as the wire carries it (the child's plain values) and the grader reads it
                        got = read_answer(c, {"ret": plain(ns[alg](*args), ValueError)}, 1)
                        assert Pc.compare(Pc.expected(X, y, e, contract=c), got)[0], (labels, ties, answer, X, y)
                        differs = differs or not Pc.compare(Pc.expected(X, y, e, contract=other), got)[0]
                assert differs, (labels, ties, answer)
