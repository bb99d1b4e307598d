"""Winnow adversary: exact exhaustive values, heuristic search on the baseline cells, every
sequence replayed by the reference learner (learners.run_winnow, exact)."""
from fractions import Fraction
import itertools

import pytest

from adversary.sequence import Sequence
from adversary.winnow_game import Move, WinnowGame, closed_form_bounds, exact_lg_le, floor_bound
from adversary.winnow_search import (exhaustive_winnow, exhaustive_winnow_moves, prove_at_most, search_winnow,
                                     winnow_bounds)
from learners import run_winnow
from learners.errors import InputError


def replay(seq: Sequence) -> int:
    tr = run_winnow(seq.examples, seq.labels, variant=seq.variant, alpha=seq.alpha, exact=True, record="none")
    return tr.mistakes


def check_sequence(seq: Sequence, n: int, r: int, variant: str):
    assert seq.algorithm == "winnow" and seq.variant == variant
    assert seq.dim == n and sorted(seq.target) == list(range(r))
    for row, lab in zip(seq.examples, seq.labels):
        assert lab == int(any(row[j] for j in seq.target))
    m = replay(seq)
    assert m == seq.claims["mistakes"] == seq.n_examples     # every example is a mistake
    # round trip through the file format keeps it replayable
    again = Sequence.loads(seq.dumps())
    assert replay(again) == m
    return m


@pytest.mark.parametrize("n,r,want", [(4, 1, 4), (8, 1, 7), (8, 2, 14)])
def test_exhaustive_halving_reproduces_known_values(n, r, want):
    seq = exhaustive_winnow(n, r, "halve")
    assert check_sequence(seq, n, r, "halve") == want
    assert seq.meta["optimal"] is True and seq.meta["exact_maximum"] == want


@pytest.mark.parametrize("n,r,want", [(4, 1, 3), (8, 1, 5), (8, 2, 9), (4, 2, 5)])
def test_exhaustive_elimination_small(n, r, want):
    seq = exhaustive_winnow(n, r, "eliminate")
    assert check_sequence(seq, n, r, "eliminate") == want


def _brute_force_max(n, r, variant):
    """Independent of the symmetry reduction: depth-first over concrete examples (all 2^n
    subsets), the learner's state taken from run_winnow itself, memoised on the weight vector."""
    target = list(range(r))
    xs = [list(bits) for bits in itertools.product((0, 1), repeat=n) if any(bits)]
    memo = {}

    def best(prefix_x, prefix_y):
        if prefix_x:
            tr = run_winnow(prefix_x, prefix_y, variant=variant, exact=True, record="none")
            key = tr.weights
        else:
            key = (Fraction(1),) * n
        if key in memo:
            return memo[key]
        b = 0
        for x in xs:
            y = int(any(x[j] for j in target))
            w = key
            s = sum(w[j] for j in range(n) if x[j])
            if (1 if s >= n else 0) == y:
                continue
            b = max(b, 1 + best(prefix_x + [x], prefix_y + [y]))
        memo[key] = b
        return b

    return best([], [])


@pytest.mark.parametrize("n,r,variant", [(4, 1, "halve"), (4, 1, "eliminate"), (3, 1, "halve"), (4, 2, "eliminate")])
def test_exhaustive_agrees_with_brute_force_over_concrete_examples(n, r, variant):
    assert exhaustive_winnow_moves(n, r, variant).mistakes == _brute_force_max(n, r, variant)


@pytest.mark.parametrize("r,baseline", [(1, 16), (2, 32), (4, 62), (8, 125)])
def test_search_beats_baseline_n64_halving(r, baseline):
    seq = search_winnow(64, r, "halve", budget=5.0)
    m = check_sequence(seq, 64, r, "halve")
    assert m >= baseline
    assert m <= closed_form_bounds(64, r, "halve")["sharper"]["max_M"]


def test_search_elimination_n64_and_progress():
    calls = []
    seq = search_winnow(64, 2, "eliminate", budget=5.0, progress=lambda f, b: calls.append((f, b)))
    m = check_sequence(seq, 64, 2, "eliminate")
    assert m == 22 == seq.meta["bounds"]["state_ub"]["max_M"]   # r(2 lg n - 1): optimal
    assert calls and calls[-1] == (1.0, 22)
    assert all(0 <= f <= 1 for f, _ in calls)


def test_search_winnow2_alpha3_replays():
    seq = search_winnow(16, 2, "winnow2", budget=2.0, alpha=3)
    assert seq.alpha == 3
    m = check_sequence(seq, 16, 2, "winnow2")
    assert m >= 4


def test_winnow2_alpha2_equals_halving():
    a = exhaustive_winnow_moves(8, 1, "winnow2", alpha=2).mistakes
    assert a == exhaustive_winnow_moves(8, 1, "halve").mistakes == 7


@pytest.mark.parametrize("n,r,variant", [(4, 1, "halve"), (8, 2, "halve"), (8, 2, "eliminate"), (8, 4, "eliminate"),
                                         (4, 2, "halve"), (16, 1, "halve")])
def test_state_upper_bound_is_never_beaten(n, r, variant):
    g = WinnowGame(n, r, variant)
    assert exhaustive_winnow_moves(n, r, variant).mistakes <= g.ub_start()


@pytest.mark.parametrize("n,r,variant", [(4, 1, "halve"), (4, 2, "halve"), (8, 1, "halve"), (4, 3, "halve"),
                                         (4, 1, "eliminate"), (4, 2, "eliminate"), (8, 2, "eliminate"),
                                         (6, 2, "eliminate"), (5, 1, "halve"), (4, 1, "winnow2")])
def test_state_upper_bound_holds_in_every_state(n, r, variant):
    # without pruning, so the values cannot depend on the bound being checked
    res = exhaustive_winnow_moves(n, r, variant, prune=False, alpha=3 if variant == "winnow2" else 2)
    g = res.game
    assert len(res.values) > 3
    for st, v in res.values.items():
        assert v <= g.ub_remaining(st), (st, v)
    assert exhaustive_winnow_moves(n, r, variant, alpha=g.alpha).mistakes == res.mistakes
    # from an empty lower bound the pruned search must climb to the same value by itself
    assert exhaustive_winnow_moves(n, r, variant, alpha=g.alpha, start_moves=[]).mistakes == res.mistakes


@pytest.mark.parametrize("n,r", [(8, 3), (7, 2), (9, 1)])
def test_elimination_dominance_pruning_keeps_the_value(n, r):
    # minimal false positives only (pruned search) == every move (plain longest path)
    assert exhaustive_winnow_moves(n, r, "eliminate", start_moves=[]).mistakes == \
        exhaustive_winnow_moves(n, r, "eliminate", prune=False).mistakes


def test_closed_form_bounds_exact():
    # 2 + 3r(1 + lg n) at n = 1024, r = 8: 2 + 24 * 11 = 266
    b = closed_form_bounds(1024, 8, "halve")
    assert b["notes"]["max_M"] == 266 and b["sharper"]["max_M"] == 225 and b["tight"]["max_M"] == 224
    assert closed_form_bounds(1024, 8, "eliminate")["sharper"]["max_M"] == 152
    # n not a power of 2: lg 10 = 3.32..., 2 + 3(1 + lg 10) = 14.97 -> 14
    assert closed_form_bounds(10, 1, "halve")["notes"]["max_M"] == 14
    assert "sharper" not in closed_form_bounds(10, 1, "halve")
    assert exact_lg_le(3, 1, 8) and not exact_lg_le(4, 1, 8)
    assert floor_bound(0, 1, 1023) == 9 and floor_bound(0, 1, 1024) == 10
    wb = winnow_bounds(64, 1, "halve", 16)
    assert wb["notes"]["ratio"] == Fraction(16, 23) and wb["sharper"]["exceeded"] is False


def test_moves_are_checked_to_be_mistakes():
    g = WinnowGame(8, 1, "halve")
    # a false positive at the start is impossible: 7 irrelevant weights sum to 7 < 8
    assert not g.is_mistake(g.start, Move(False, (), ((0, 7),)))
    assert g.is_mistake(g.start, Move(True, ((0, 1),), ((0, 6),)))
    assert not g.is_mistake(g.start, Move(True, ((0, 1),), ((0, 7),)))    # sum 8 >= 8: predicted 1


@pytest.mark.parametrize("n,r,variant,alpha,msg", [
    (0, 1, "halve", 2, "n must be"), (4, 5, "halve", 2, "r must be"), (4, 0, "halve", 2, "r must be"),
    (4, 1, "double", 2, "unknown Winnow variant"), (4, 1, "winnow2", 1, "alpha must be > 1"),
    (4, 1, "winnow2", "x", "alpha"), (True, 1, "halve", 2, "n must be")])
def test_bad_input(n, r, variant, alpha, msg):
    with pytest.raises(InputError, match=msg):
        search_winnow(n, r, variant, budget=1.0, alpha=alpha)
    with pytest.raises(InputError, match=msg):
        exhaustive_winnow(n, r, variant, alpha=alpha)


def test_bad_budget():
    with pytest.raises(InputError):
        search_winnow(8, 1, "halve", budget=0)


@pytest.mark.slow
def test_exhaustive_sequence_records_how_optimality_was_shown():
    seq = exhaustive_winnow(8, 4, "halve")          # 26 < state bound 28: needs the proof search
    assert check_sequence(seq, 8, 4, "halve") == 26
    assert seq.meta["optimal"] is True and seq.meta["optimality_proof"] == "exhaustive"
    assert seq.meta["bounds"]["state_ub"]["max_M"] == 28
    seq = exhaustive_winnow(64, 2, "halve")         # meets the state bound: no enumeration needed
    assert check_sequence(seq, 64, 2, "halve") == 32 and seq.meta["optimality_proof"] == "state bound"


def test_exhaustive_timeout_is_reported():
    with pytest.raises(TimeoutError):
        exhaustive_winnow_moves(16, 8, "halve", budget=0.05)


# A 79-mistake sequence for halving at n = 16, r = 8 (found by search_winnow; rows as 16-bit hex,
# variable 0 = the most significant bit; relevant variables 0..7).  The state bound allows 80 and
# the catalogue's sharper bound 81; the exhaustive search proves 79 is the maximum.
N16R8_ROWS = [
    "80ff", "40fe", "00f0", "00ce", "80bf", "4078", "00c7", "00e7", "00f7", "20bc", "0008", "20f4", "80e4",
    "00cf", "0020", "00ef", "0010", "00ff", "80fe", "40df", "0010", "1077", "0010", "10ab", "00d6", "00de",
    "0020", "00fe", "40fc", "20f6", "10de", "00d7", "00df", "0020", "00ff", "20fe", "08fb", "0020", "0028",
    "08fb", "0030", "08f3", "00e6", "00f7", "00fe", "10fc", "047e", "0008", "0018", "04be", "04e3", "00d6",
    "0020", "00f7", "00fe", "08fc", "00fd", "04fc", "027e", "0008", "02b7", "0018", "02db", "00d6", "0020",
    "00f6", "017c", "0008", "01b6", "0018", "01da", "0020", "00e6", "00f6", "00fe", "02fc", "00f9", "01fa",
    "00fe",
]


def test_n16_r8_halving_optimum_is_79():
    X = [[int(b) for b in format(int(h, 16), "016b")] for h in N16R8_ROWS]
    y = [int(any(row[:8])) for row in X]
    tr = run_winnow(X, y, variant="halve", exact=True, record="none")
    assert tr.mistakes == 79 == len(X)
    assert WinnowGame(16, 8, "halve").ub_start() == 80
    assert prove_at_most(16, 8, "halve", 79, budget=60) == (True, None)


def test_prove_at_most_finds_a_longer_sequence():
    ok, moves = prove_at_most(8, 2, "halve", 13)
    assert ok is False and len(moves) == 14
    assert prove_at_most(8, 2, "halve", 14) == (True, None)


@pytest.mark.slow
def test_n1024_r8_halving_meets_r_3lgn_minus_2_exactly():
    seq = search_winnow(1024, 8, "halve", budget=20.0)
    m = check_sequence(seq, 1024, 8, "halve")
    assert m == 224 == 8 * (3 * 10 - 2) and seq.meta["optimal"] is True   # the greedy baseline: 219


@pytest.mark.parametrize("n,r", [(2, 1), (2, 2), (4, 1), (4, 2), (4, 3), (4, 4), (8, 1), (8, 2), (8, 3)])
def test_exact_optima_respect_the_tight_closed_forms(n, r):
    # halving: M <= r(3 lg n - 2) (one below the catalogue's 1 + r(3 lg n - 2));
    # elimination: M <= r(2 lg n - 1); both met with equality at r = 1 and at (8, 2) halving
    p = n.bit_length() - 1
    h = exhaustive_winnow_moves(n, r, "halve").mistakes
    e = exhaustive_winnow_moves(n, r, "eliminate").mistakes
    assert h <= r * (3 * p - 2) == closed_form_bounds(n, r, "halve")["tight"]["max_M"]
    assert e <= r * (2 * p - 1) == closed_form_bounds(n, r, "eliminate")["sharper"]["max_M"]
    if r == 1:
        assert h == 3 * p - 2 and e == 2 * p - 1
