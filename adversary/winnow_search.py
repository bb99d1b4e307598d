"""Worst-case sequences for Winnow learning a monotone disjunction of r out of n variables.

Public API
----------
``search_winnow(n, r, variant="halve", budget=30.0, seed=0, progress=None, alpha=2) -> Sequence``
    Constructive "promotions first" plays, then a beam search over the game modulo symmetry
    scored by the exact state upper bound (ties: the bound's slack).  It stops as soon as a
    sequence meets that bound (provably optimal), else at the budget with the best found.  For
    n <= 16 it also tries the exhaustive proof (below) whenever the best improves, and once more
    late in the budget; ``meta.optimal`` / ``meta.optimality_proof`` say what was shown.
    ``progress(fraction_done, best_so_far)`` is called as it goes.

``exhaustive_winnow(n, r, variant="halve", alpha=2, budget=None) -> Sequence``
    The exact maximum: the best sequence L from the search, then the question "is there a
    sequence with L + 1 mistakes?" decided by depth-first search over every mistake-inducing move
    modulo symmetry, with memoised proven upper bounds (a state is cut only when the exact state
    bound shows it cannot reach the goal, so the answer is exact).  Search and proof alternate in
    doubling time slices, sharing the memo.  ``TimeoutError`` past ``budget`` seconds.

``prove_at_most(n, r, variant, M, alpha=2, budget=None)``
    (True, None) when no sequence has more than M mistakes, else (False, a longer sequence).

``winnow_bounds(n, r, variant, mistakes) -> dict``
    The notes' bound, the catalogue's sharper bounds and the tight halving bound (n a power of
    2), and the exact state bound of :class:`adversary.winnow_game.WinnowGame`, each with the
    ratio mistakes / bound (the lg n comparisons are made exactly, 2**(M - c) <= n**k).

Every sequence has labels equal to the OR of its target (``target`` = relevant indices 0..r-1)
and its ``claims`` / ``meta`` record the mistakes, bounds, strategy and time.  The mistake count
is computed by the exact game model here; tests replay every sequence through
``learners.run_winnow(..., exact=True)``, which is the independent check.  See
docs/winnow-adversary.md for the bound's proof and the measured grid.
"""
from __future__ import annotations

import time
from fractions import Fraction

from adversary.winnow_beam import search_winnow_moves
from adversary.winnow_game import WinnowGame, closed_form_bounds
from adversary.winnow_plays import SearchResult, check_moves, play_to_rows
from adversary.winnow_proof import _Memo, _raise_or_prove, _Timeout, prove_at_most

__all__ = ["search_winnow", "exhaustive_winnow", "winnow_bounds", "play_to_rows", "SearchResult",
           "search_winnow_moves", "exhaustive_winnow_moves", "prove_at_most"]


# ---- exhaustive search -------------------------------------------------------------------------

def exhaustive_winnow_moves(n, r, variant="halve", alpha=2, budget=None, *, prune=True,
                            heuristic_budget=None, start_moves=None) -> SearchResult:
    """Exact maximum over every mistake-inducing move, modulo symmetry.

    ``prune=False``: plain memoised longest path (every reachable state gets its exact value;
    ``res.values``).  ``prune=True`` (default): start from the heuristic search's best sequence
    (a lower bound L), then ask "is there a sequence with >= L + 1 mistakes?" by depth-first
    search with memoised *proven upper bounds* (a state is cut when mistakes so far plus the exact
    state bound cannot reach the goal); each success raises L and the question is asked again,
    a failure proves L optimal.  Raises TimeoutError when ``budget`` seconds pass first.
    """
    t0 = time.process_time()
    game = WinnowGame(n, r, variant, alpha)
    deadline = None if budget is None else t0 + float(budget)
    counter = [0]

    def tick(nstates):
        counter[0] += 1
        if deadline is not None and counter[0] % 64 == 0 and time.process_time() > deadline:
            raise _Timeout(nstates)

    if not prune:
        game.minimal_fp = False      # the plain game: every move, no dominance
        memo = {}

        def value(st):
            got = memo.get(st)
            if got is not None:
                return got[0]
            tick(len(memo))
            best, best_mv = 0, None
            for mv in game.moves(st):
                v = 1 + value(game.apply(st, mv))
                if v > best:
                    best, best_mv = v, mv
            memo[st] = (best, best_mv)
            return best

        try:
            v = value(game.start)
        except _Timeout:
            raise TimeoutError(f"exhaustive search for n={n}, r={r}, {variant} did not finish in {budget} s "
                               f"({len(memo)} states)") from None
        moves, st = [], game.start
        while memo[st][1] is not None:
            moves.append(memo[st][1])
            st = game.apply(st, moves[-1])
        check_moves(game, moves)
        res = SearchResult(game, moves, "exhaustive", time.process_time() - t0, optimal=True, exact_value=v,
                           states=len(memo))
        res.values = {st: bv[0] for st, bv in memo.items()}
        return res

    memo = _Memo(game)

    def timeout(best_len):
        return TimeoutError(f"exhaustive search for n={n}, r={r}, {variant} did not finish in {budget} s "
                            f"(best found {best_len}, state bound {game.ub_start()}, {len(memo.U)} states)")

    if start_moves is not None:
        best_moves = list(start_moves)
        check_moves(game, best_moves)
        try:
            best_moves, _, nstates = _raise_or_prove(game, best_moves, deadline, memo=memo)
        except _Timeout as e:
            raise timeout(e.args[0]) from None
    else:
        # alternate slices of heuristic search (which for n <= 16 tries proofs itself whenever it
        # improves) with slices of the proof search from the best so far; the memo of proven
        # bounds is shared, so no proof work is lost; slices double
        first = 20.0 if budget is None else float(budget) / 2
        best_moves, slice_, seed = [], (heuristic_budget or first), 0
        while True:
            left = None if deadline is None else deadline - time.process_time()
            if left is not None and left <= 0:
                raise timeout(len(best_moves))
            hb = slice_ if left is None else max(0.01, min(slice_, left / 2))
            heur = search_winnow_moves(n, r, variant, budget=hb, seed=seed, alpha=alpha, _memo=memo,
                                       _final_proof=False)
            if len(heur.moves) > len(best_moves):
                best_moves = list(heur.moves)
            if heur.optimal and len(heur.moves) == len(best_moves):
                heur.exact_value = heur.mistakes
                heur.values = None
                heur.states = len(memo.U) + len(memo.P)
                heur.seconds = time.process_time() - t0
                heur.strategy = f"exhaustive ({heur.proof}; sequence by {heur.strategy})"
                return heur
            left = None if deadline is None else deadline - time.process_time()
            pd = time.process_time() + slice_ if left is None else time.process_time() + max(0.0, min(slice_, left))
            try:
                best_moves, _, nstates = _raise_or_prove(game, best_moves, pd, memo=memo)
                break
            except _Timeout as e:
                if len(e.args[2]) > len(best_moves):
                    best_moves = list(e.args[2])
            slice_ *= 2
            seed += 1
    res = SearchResult(game, best_moves, "exhaustive", time.process_time() - t0, optimal=True,
                       exact_value=len(best_moves), states=len(memo.U) + len(memo.P))
    res.proof = "exhaustive"
    res.values = None
    return res


# ---- bounds and Sequence objects ---------------------------------------------------------------

def winnow_bounds(n, r, variant, mistakes, alpha=2) -> dict:
    """Bounds next to a mistake count: the notes' formula, the catalogue's sharper bounds (n a power
    of 2), the state upper bound; ratio = mistakes / (largest integer the bound allows)."""
    game = WinnowGame(n, r, variant, alpha)
    out = {}
    if variant != "winnow2" or game.base == 2:
        for key, b in closed_form_bounds(n, r, variant).items():
            mx = b["max_M"]
            out[key] = {"formula": b["formula"], "max_M": mx, "ratio": Fraction(mistakes, mx) if mx else None,
                        "exceeded": mistakes > mx}
    ub = game.ub_start()
    out["state_ub"] = {"formula": "exact mass/promotion bound (WinnowGame.ub_remaining)", "max_M": ub,
                       "ratio": Fraction(mistakes, ub) if ub else None, "exceeded": mistakes > ub}
    return out


def _to_sequence(res: SearchResult, extra_meta=None):
    from adversary.sequence import Sequence
    game = res.game
    rows, labels, target = res.rows()
    bounds = winnow_bounds(game.n, game.r, game.variant, res.mistakes, game.alpha)
    claims = {"mistakes": res.mistakes}
    main = bounds.get("notes")
    if main is not None:
        claims["bound"] = main["max_M"]
        claims["ratio"] = main["ratio"]
    meta = {
        "strategy": res.strategy, "n": game.n, "r": game.r, "seconds": round(res.seconds, 3),
        "optimal": bool(res.optimal), "optimality_proof": res.proof,
        "budget_exhausted": bool(getattr(res, "budget_exhausted", False)),
        "bounds": {k: {"formula": v["formula"], "max_M": v["max_M"]} for k, v in bounds.items()},
    }
    if res.states is not None:
        meta["states"] = res.states
    if extra_meta:
        meta.update(extra_meta)
    return Sequence("winnow", rows, labels, target=target, variant=game.variant,
                    alpha=game.alpha if game.variant == "winnow2" else None,
                    claims=claims, meta=meta)


def search_winnow(n, r, variant="halve", budget=30.0, seed=0, progress=None, alpha=2):
    """A worst-case sequence for Winnow (see the module docstring); returns a Sequence."""
    res = search_winnow_moves(n, r, variant, budget=budget, seed=seed, progress=progress, alpha=alpha)
    return _to_sequence(res, {"seed": seed, "budget": budget})


def exhaustive_winnow(n, r, variant="halve", alpha=2, budget=None):
    """The exact worst case (see the module docstring); returns a Sequence whose meta records
    ``optimal: true`` and the number of states visited."""
    res = exhaustive_winnow_moves(n, r, variant, alpha=alpha, budget=budget)
    return _to_sequence(res, {"exact_maximum": res.exact_value})
