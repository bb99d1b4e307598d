"""Winnow plays: the class-level moves of :class:`adversary.winnow_game.WinnowGame` turned into
concrete 0/1 examples, re-checked move by move, and the plain result record the searches return."""
from __future__ import annotations

from adversary.winnow_game import WinnowGame

__all__ = ["SearchResult", "play_to_rows", "check_moves"]


class SearchResult:
    """Plain result: the moves (class level), the concrete rows/labels, and bookkeeping."""

    def __init__(self, game, moves, strategy, seconds, optimal, exact_value=None, states=None):
        self.game = game
        self.moves = list(moves)
        self.mistakes = len(self.moves)
        self.strategy = strategy
        self.seconds = seconds
        self.optimal = optimal            # True when mistakes == an exact upper bound / exhaustive
        self.exact_value = exact_value
        self.proof = "exhaustive" if exact_value is not None else None   # how optimality was shown
        self.states = states
        self.budget_exhausted = False     # True when the time budget stopped the search first

    def rows(self):
        return play_to_rows(self.game, self.moves)


# ---- realisation: class-level moves -> concrete 0/1 examples -----------------------------------

def play_to_rows(game: WinnowGame, moves):
    """Concrete examples for a list of class-level moves: relevant variables are 0..r-1; within a
    class the lowest-indexed variables are chosen.  Returns (rows, labels, target)."""
    n, r = game.n, game.r
    exps = [0] * n
    alive = [True] * n
    sat = game.sat
    rows, labels = [], []
    for mv in moves:
        row = [0] * n
        for e, k in mv.rel:
            got = 0
            for i in range(r):
                if got == k:
                    break
                if exps[i] == e and exps[i] < sat and not row[i]:
                    row[i] = 1
                    got += 1
            if got != k:
                raise AssertionError("move does not fit the state (relevant)")
        for e, k in mv.irr:
            got = 0
            for i in range(r, n):
                if got == k:
                    break
                if alive[i] and exps[i] == e and not row[i]:
                    row[i] = 1
                    got += 1
            if got != k:
                raise AssertionError("move does not fit the state (irrelevant)")
        for i in range(n):
            if row[i]:
                if mv.fn:
                    exps[i] += 1
                elif game.eliminate:
                    alive[i] = False
                else:
                    exps[i] -= 1
        rows.append(row)
        labels.append(1 if mv.fn else 0)
    return rows, labels, list(range(r))


def check_moves(game: WinnowGame, moves) -> int:
    """Re-play class-level moves on the abstract state; every one must be a mistake."""
    st = game.start
    for t, mv in enumerate(moves):
        if not game.is_mistake(st, mv):
            raise AssertionError(f"move {t} is not a mistake")
        st = game.apply(st, mv)
    return len(moves)
