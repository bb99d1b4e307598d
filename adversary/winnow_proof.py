"""The exhaustive decision for the Winnow game: "is there a sequence with more than L mistakes?",
answered by depth-first search over every mistake-inducing move modulo symmetry, with memoised
*proven upper bounds* (a state is cut only when the exact state bound of
:class:`adversary.winnow_game.WinnowGame` shows it cannot reach the goal, so the answer is exact).
"""
from __future__ import annotations

import time

from adversary.winnow_game import WinnowGame
from adversary.winnow_plays import check_moves

__all__ = ["prove_at_most"]


class _Timeout(Exception):
    pass


def prove_at_most(n, r, variant, M, alpha=2, budget=None):
    """Exhaustively decide "at most M mistakes": returns (True, None) when no sequence has more
    than M mistakes, (False, moves) with a longer sequence otherwise.  TimeoutError past budget."""
    game = WinnowGame(n, r, variant, alpha)
    deadline = None if budget is None else time.process_time() + float(budget)
    try:
        moves, _, _ = _raise_or_prove(game, [], deadline, lower=M)
    except _Timeout:
        raise TimeoutError(f"could not decide 'at most {M}' for n={n}, r={r}, {variant} in {budget} s") from None
    return (True, None) if not moves else (False, moves)


class _Memo:
    """The exhaustive search's memory for one game, kept across attempts: proven upper bounds
    (U), found paths (P) and cached state bounds.  Both stay valid forever."""

    def __init__(self, game):
        self.game = game
        self.U, self.P, self.ubc = {}, {}, {}


def _raise_or_prove(game, best_moves, deadline, on_tick=None, lower=None, memo=None):
    """From a sequence of L mistakes: repeatedly ask "is there one with >= L + 1?" (depth-first over
    every move modulo symmetry, memoised proven upper bounds, states cut by the exact state bound).
    Returns (best moves, True, states) when L is proved optimal; raises _Timeout((L, states)) at
    the deadline (the best sequence so far is in the exception's third arg)."""
    memo = memo if memo is not None else _Memo(game)
    U = memo.U        # proven upper bounds on the value of a state
    P = memo.P        # state -> (length of a found path from it, first move)
    ubc = memo.ubc
    counter = [0]
    best_moves = list(best_moves)
    check_moves(game, best_moves)

    def ub(st):
        u = ubc.get(st)
        if u is None:
            u = game.ub_remaining(st)
            ubc[st] = u
        return min(u, U.get(st, u))

    def solve(st, need):
        """>= need: a path of that length from st is recorded in P; < need: an upper bound."""
        if need <= 0:
            return P[st][0] if st in P else 0
        p = P.get(st)
        if p is not None and p[0] >= need:
            return p[0]
        u = ub(st)
        if u < need:
            return u
        counter[0] += 1
        if on_tick is not None and counter[0] % 64 == 0:
            on_tick(len(best_moves))
        if deadline is not None and time.process_time() > deadline:
            raise _Timeout(len(best_moves), len(U), best_moves)
        kids = []
        for mv in game.moves(st):
            ns = game.apply(st, mv)
            kids.append((ub(ns), ns, mv))
        kids.sort(key=lambda t: -t[0])
        upper = 0
        for cu, ns, mv in kids:
            if 1 + cu < need:
                upper = max(upper, 1 + cu)
                continue
            v = solve(ns, need - 1)
            if v >= need - 1:
                P[st] = (1 + v, mv)
                return 1 + v
            upper = max(upper, 1 + v)
        U[st] = upper
        return upper

    def path_from(st):
        out = []
        while st in P and P[st][1] is not None and P[st][0] > 0:
            out.append(P[st][1])
            st = game.apply(st, out[-1])
        return out

    lower = len(best_moves) if lower is None else max(lower, len(best_moves))
    while True:
        v = solve(game.start, lower + 1)
        if v < lower + 1:
            break
        found = path_from(game.start)
        check_moves(game, found)
        if len(found) <= lower:      # cannot happen: P only records real paths
            raise AssertionError("exhaustive search recorded a path shorter than claimed")
        best_moves, lower = found, len(found)
    return best_moves, True, len(U) + len(P)
