"""The Littlestone dimension solver against brute force on random small classes, its two witnesses
(the shattered tree, SOA's worst case), SOA as a learner, and the adversary rows."""
from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adversary.littlestone_worst import certify_tree, force_on_tree, soa_row, tree_lower_row, tree_paths
from learners import InputError, run_halving
from learners.littlestone import Littlestone, run_soa


def classes(max_d=4):
    """A non-empty set of distinct labellings of a domain of 1..max_d points."""
    return st.integers(1, max_d).flatmap(
        lambda d: st.sets(st.tuples(*[st.sampled_from([1, -1])] * d), min_size=1, max_size=2 ** d).map(sorted))


def _shattered(H, d, pts):
    """Brute force: some complete tree of depth d over the points (every internal node a point)
    has every path labelled by some h in H."""
    nodes = 2 ** d - 1
    for assign in product(pts, repeat=nodes):
        def paths(k, depth):
            if depth == 0:
                yield []
                return
            for y, child in ((1, 2 * k + 1), (-1, 2 * k + 2)):
                for rest in paths(child, depth - 1):
                    yield [(assign[k], y)] + rest
        if all(any(all(h[x] == y for x, y in p) for h in H) for p in paths(0, d)):
            return True
    return False


def brute_ldim(H):
    pts = range(len(H[0]))
    d = 0
    while (1 << (d + 1)) <= len(H) and d + 1 <= 3 and _shattered(H, d + 1, pts):
        d += 1
    return d


@settings(max_examples=200, deadline=None)
@given(classes())
def test_ldim_is_the_brute_force_depth(H):
    L = Littlestone(H)
    k = L.ldim()
    assert k <= (len(H)).bit_length() - 1                    # Ldim <= lg |H|
    if k <= 3:
        assert k == brute_ldim(H)
    else:                                                     # all 16 labellings of 4 points
        assert len(H) == 16


@settings(max_examples=200, deadline=None)
@given(classes())
def test_both_witnesses(H):
    L = Littlestone(H)
    k = L.ldim()
    tree = L.mistake_tree()
    assert certify_tree(H, tree, k)
    assert L.soa_worst() == k                                 # SOA's worst case is exactly Ldim


@settings(max_examples=150, deadline=None)
@given(classes(), st.data())
def test_soa_meets_ldim_on_realizable_sequences(H, data):
    L = Littlestone(H)
    h = data.draw(st.sampled_from(H))
    pts = data.draw(st.lists(st.integers(0, len(H[0]) - 1), max_size=12))
    tr = run_soa(H, pts, [h[x] for x in pts])
    assert tr.mistakes <= L.ldim() and tr.extras["realizable"]
    assert all(a >= b for a, b in zip([L.ldim()] + tr.extras["ldim_after"], tr.extras["ldim_after"]))


@settings(max_examples=100, deadline=None)
@given(classes())
def test_any_learner_errs_ldim_times_on_the_tree(H):
    L = Littlestone(H)
    k = L.ldim()
    for predict in (lambda p, y, x: 1, lambda p, y, x: -1 if len(p) % 2 else 1,
                    lambda p, y, x: run_halving([[h[q] for q in p + [x]] for h in H], y + [1]).steps[-1].prediction):
        m, pts, ys = force_on_tree(L.mistake_tree(), k, predict)
        assert m == k and any(all(h[x] == y for x, y in zip(pts, ys)) for h in H)


def test_a_tree_one_level_too_deep_is_refused():
    H = [[1, 1], [1, -1], [-1, -1]]                           # thresholds on 2 points: Ldim 1
    L = Littlestone(H)
    assert L.ldim() == 1
    deeper = (0, {1: (1, {1: None, -1: None}), -1: (1, {1: None, -1: None})})
    assert not certify_tree(H, deeper, 2)                     # (-1, +1) is no hypothesis's
    assert len(list(tree_paths(deeper, 2))) == 4


def test_known_dimensions():
    assert Littlestone([list(b) for b in product((1, -1), repeat=5)]).ldim() == 5
    thresholds = [[1 if x >= k else -1 for x in range(16)] for k in range(17)]
    assert Littlestone(thresholds).ldim() == 4                # binary search: floor(lg 17)
    singletons = [[1 if x == k else -1 for x in range(10)] for k in range(10)]
    assert Littlestone(singletons).ldim() == 1


def test_bad_class():
    with pytest.raises(InputError):
        Littlestone([[1, 0]])
    with pytest.raises(InputError):
        Littlestone([[1, 1], [1]])
    with pytest.raises(InputError, match="domain"):
        run_soa([[1, -1]], [2], [1])


def test_littlestone_rows_certify():
    for r in (soa_row(8), tree_lower_row(8)):
        assert r["ok"] and r["mistakes"] == r["bound"] == 4


# ------------------------------------------------------------------ the theorem
def test_soa_bound_proved_and_its_false_edits_not():
    import dataclasses
    from proofs.catalogue import registry
    from proofs.catalogue.core import PROVED
    from proofs.verify.runner import run_catalogue
    th = registry.get("soa_bound")
    r = run_catalogue(["soa_bound"]).by_id("soa_bound")
    assert r.status == PROVED and r.nonvacuity.status == "sat" and "induction" in r.rules
    for drop in ("soa_takes_larger_side", "target_in_class", "dimension_recursion"):
        edited = dataclasses.replace(th, id="soa_without_" + drop, hypotheses=[(n, f) for n, f in th.hypotheses if n != drop])
        assert run_catalogue([edited]).by_id(edited.id).status != PROVED
    c = th.conclusion
    lhs, rhs = c.args
    tighter = dataclasses.replace(th, id="soa_strict", conclusion=type(c)(c.op, (lhs, rhs - 1), sort=c.sort))
    assert run_catalogue([tighter]).by_id("soa_strict").status != PROVED


# ------------------------------------------------------------------ Coq computes the same dimension and run
@pytest.mark.slow
def test_coq_ldim_and_soa_agree_with_python(tmp_path, coq_report):
    """LittlestoneSOA.v's ldim and soa_mistakes, run by vm_compute on 25 random classes and
    sequences, give the Python figures: each is a Coq goal that only the right value closes (and a
    value one off is refused)."""
    import random
    import subprocess
    from coq import build
    rng = random.Random(7)
    goals = []
    for k in range(25):
        d = rng.randint(1, 4)
        H = sorted({tuple(rng.choice((1, -1)) for _ in range(d)) for _ in range(rng.randint(1, 10))})
        h = rng.choice(H)
        pts = [rng.randrange(d) for _ in range(rng.randint(0, 8))]
        L = Littlestone(H)
        m = run_soa(H, pts, [h[x] for x in pts]).mistakes
        hyps = "; ".join("(fun x : nat => " + " ".join(f"if Nat.eqb x {i} then ({v})%Z else" for i, v in enumerate(row))
                         + " 0%Z)" for row in H)
        dom = "; ".join(str(i) for i in range(d))
        ex = "; ".join(f"({x}%nat, ({h[x]})%Z)" for x in pts)
        goals.append(f"Goal ldim [{dom}]%nat [{hyps}] = ({L.ldim()})%Z. Proof. vm_compute. reflexivity. Qed.\n"
                     f"Goal soa_mistakes [{dom}]%nat [{hyps}] [{ex}] = {m}%nat. Proof. vm_compute. reflexivity. Qed.\n")
    head = "Require Import Coq.ZArith.ZArith Coq.Lists.List Mistakebound.LittlestoneSOA.\nImport ListNotations.\n"
    bdir = str(build.default_build_dir())

    def compiles(text, name):
        f = tmp_path / f"{name}.v"
        f.write_text(head + text)
        return subprocess.run(["coqc", "-R", bdir, "Mistakebound", str(f)], cwd=tmp_path, capture_output=True,
                              text=True).returncode == 0
    assert compiles("".join(goals), "Agree")
    wrong = goals[0].split("\n")[0].replace(" = (", " = (1 + ", 1)
    assert not compiles(wrong + "\n", "Off")
