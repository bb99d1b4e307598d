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
    The notes' bound, the prototype's sharper bounds and the tight halving bound (n a power of
    2), and the exact state bound of :class:`adversary.winnow_game.WinnowGame`, each with the
    ratio mistakes / bound (the lg n comparisons are made exactly, 2**(M - c) <= n**k).

Every sequence has labels equal to the OR of its target (``target`` = relevant indices 0..r-1)
and its ``claims`` / ``meta`` record the mistakes, bounds, strategy and time.  The mistake count
is computed by the exact game model here; tests replay every sequence through
``learners.run_winnow(..., exact=True)``, which is the independent check.  See
docs/winnow-adversary.md for the bound's proof and the measured grid.
"""
from __future__ import annotations

import random
import time
from fractions import Fraction

from learners.errors import InputError

from .winnow_game import Move, WinnowGame, closed_form_bounds

__all__ = ["search_winnow", "exhaustive_winnow", "winnow_bounds", "play_to_rows", "SearchResult",
           "search_winnow_moves", "exhaustive_winnow_moves", "prove_at_most"]


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


# ---- candidate moves for the heuristic search --------------------------------------------------

def _greedy(classes, cap, order):
    """Pick (exp, k) from classes [(e, c, u)] in the given order (list of indices), taking as many
    of each as fit under ``cap``.  Returns (pick, sum)."""
    s = 0
    pick = []
    for i in order:
        e, c, u = classes[i]
        if u > cap - s:
            continue
        k = min(c, (cap - s) // u)
        if k:
            pick.append((e, k))
            s += k * u
    return pick, s


def _norm(pick):
    return tuple(sorted(pick))


def _fp_candidates(game, irr, variants, rng):
    N = game.N
    total = sum(c * u for _, c, u in irr)
    if total < N:
        return []
    m = len(irr)
    out = []
    desc = list(range(m - 1, -1, -1))
    asc = list(range(m))
    for v in variants:
        if v == "desc":
            order = desc
        elif v == "asc":
            order = asc
        else:
            order = list(range(m))
            rng.shuffle(order)
        pick, s = _greedy(irr, N, order)
        if s < N:
            used = dict(pick)
            # top up with the smallest coin that reaches N, else the largest left, repeatedly
            while s < N:
                left = [(u, e) for e, c, u in irr if used.get(e, 0) < c]
                if not left:
                    break
                ok = [(u, e) for u, e in left if s + u >= N]
                u, e = min(ok) if ok else max(left)
                used[e] = used.get(e, 0) + 1
                s += u
            pick = list(used.items())
        if s >= N:
            out.append(Move(False, (), _norm(pick)))
    return out


def _fn_candidates(game, st, irr, variants, rng):
    N = game.N
    out = []
    m = len(irr)
    desc = list(range(m - 1, -1, -1))
    asc = list(range(m))
    for e in sorted(set(st.rel)):
        w = game.unit(e)
        cap = N - 1 - w
        for v in variants:
            if v == "desc":
                order = desc
            elif v == "asc":
                order = asc
            elif v == "half":
                # leave room: fill to about half the gap (keeps mass for later promotions)
                pick, s = _greedy(irr, cap // 2, desc)
                out.append(Move(True, ((e, 1),), _norm(pick)))
                continue
            else:
                order = list(range(m))
                rng.shuffle(order)
            pick, s = _greedy(irr, cap, order)
            out.append(Move(True, ((e, 1),), _norm(pick)))
    return out


def _classes(game, st):
    return [(e, c, game.unit(e)) for e, c in st.irr]


# ---- constructive plays ----------------------------------------------------------------------

def _play_promotions_first(game, rel_order="low", fill="desc", fp="desc"):
    """All promotions first (each relevant promotion filled with irrelevant weight to just below
    n), then demotions of weight exactly n (or least overshoot) while any is possible."""
    st = game.start
    moves = []
    rng = random.Random(0)
    while st.rel:
        irr = _classes(game, st)
        e = st.rel[0] if rel_order == "low" else st.rel[-1]
        w = game.unit(e)
        order = list(range(len(irr) - 1, -1, -1)) if fill == "desc" else list(range(len(irr)))
        pick, _ = _greedy(irr, game.N - 1 - w, order)
        mv = Move(True, ((e, 1),), _norm(pick))
        moves.append(mv)
        st = game.apply(st, mv)
    while True:
        c = _fp_candidates(game, _classes(game, st), [fp], rng)
        if not c:
            break
        moves.append(c[0])
        st = game.apply(st, c[0])
    return moves


def _tie_random(ns, rng):
    return rng.random()


def _tie_fine(ns, rng):
    # prefer many distinct irrelevant weights (finer fills later), then random
    return (-len(ns.irr), rng.random())


def _beam(game, width, rng, deadline, fn_variants, fp_variants, full=False, tiebreak=_tie_random,
          use_slack=False):
    """Beam search over the game; score = mistakes so far + exact upper bound on the rest."""
    # node: (mistakes, state, parent_node, move)
    root = (0, game.start, None, None)
    beam = [root]
    best = root
    while beam:
        if time.monotonic() > deadline:
            break
        children = {}
        for node in beam:
            k, st = node[0], node[1]
            irr = _classes(game, st)
            if full:
                cands = [mv for mv in game.moves(st) if not mv.fn or mv.rel[0][1] == 1 and len(mv.rel) == 1]
            else:
                cands = _fp_candidates(game, irr, fp_variants, rng) + _fn_candidates(game, st, irr, fn_variants, rng)
            for mv in cands:
                ns = game.apply(st, mv)
                if ns in children:
                    continue
                children[ns] = (k + 1, ns, node, mv)
        if not children:
            break
        scored = []
        for ns, ch in children.items():
            u, slack = game.ub_detail(ns)
            ub = ch[0] + u
            if ub <= best[0]:
                continue
            scored.append(((ub, slack) if use_slack else ub, tiebreak(ns, rng), ch))
        for _, _, ch in scored:
            if ch[0] > best[0]:
                best = ch
        if use_slack:
            scored.sort(key=lambda t: (-t[0][0], -t[0][1], t[1]))
        else:
            scored.sort(key=lambda t: (-t[0], t[1]))
        beam = [ch for _, _, ch in scored[:width]]
        # a node with nothing left still counts (best updated above)
    moves = []
    node = best
    while node[2] is not None:
        moves.append(node[3])
        node = node[2]
    moves.reverse()
    return moves


def search_winnow_moves(n, r, variant="halve", budget=30.0, seed=0, progress=None, alpha=2,
                        _memo=None, _final_proof=True) -> SearchResult:
    """The search itself, returning class-level moves (see :func:`search_winnow`)."""
    t0 = time.monotonic()
    budget = float(budget)
    if not budget > 0:
        raise InputError(f"budget must be > 0 seconds, got {budget}")
    game = WinnowGame(n, r, variant, alpha)
    if _memo is not None:
        game = _memo.game
    ub0 = game.ub_start()
    deadline = t0 + budget
    rng = random.Random(seed)
    memo = _memo if _memo is not None else (_Memo(game) if n <= 16 else None)
    best, best_name = [], "none"

    def consider(moves, name):
        nonlocal best, best_name
        if len(moves) > len(best):
            check_moves(game, moves)
            best, best_name = moves, name
        if progress is not None:
            progress(min(1.0, (time.monotonic() - t0) / budget), len(best))

    for rel_order in ("low", "high"):
        for fill in ("desc", "asc"):
            consider(_play_promotions_first(game, rel_order, fill), f"promotions-first({rel_order},{fill})")
            if len(best) >= ub0:
                break
    width = 1
    proved_tried, proved, final = -1, False, False
    while len(best) < ub0 and time.monotonic() < deadline:
        fnv = ["desc", "asc", "rand"] if width > 1 else ["desc"]
        fpv = ["desc", "asc", "rand"] if width > 1 else ["desc", "asc"]
        configs = ((_tie_fine, True), (_tie_random, True), (_tie_fine, False)) if width <= 4 else \
            ((_tie_fine, True), (_tie_random, True))
        for tb, sl in configs:
            moves = _beam(game, width, rng, deadline, fnv, fpv, tiebreak=tb, use_slack=sl)
            consider(moves, f"beam(width={width},{tb.__name__[5:]}{',slack' if sl else ''})")
            if len(best) >= ub0 or time.monotonic() >= deadline:
                break
        width *= 2
        late = _final_proof and time.monotonic() - t0 >= 0.6 * budget
        if memo is not None and width >= 8 and len(best) < ub0 and (proved_tried != len(best) or late and not final):
            # small n: whenever the best improved, try to prove it optimal (or improve it) by the
            # exhaustive search with 10% of the time left (a proof is often immediate); once 60% of
            # the budget is gone, one last attempt with all the rest (the memo is shared)
            share = 0.1 if proved_tried != len(best) and not late else 1.0
            final = final or share == 1.0
            proved_tried = len(best)
            left = deadline - time.monotonic()
            if left > 0:
                try:
                    tick = None if progress is None else \
                        (lambda b: progress(min(1.0, (time.monotonic() - t0) / budget), max(b, len(best))))
                    moves, _, _ = _raise_or_prove(game, best, time.monotonic() + left * share, tick, memo=memo)
                    consider(moves, best_name if len(moves) == len(best) else "exhaustive")
                    proved = True
                    break
                except _Timeout as e:
                    if len(e.args[2]) > len(best):
                        consider(e.args[2], "exhaustive")
    secs = time.monotonic() - t0
    if progress is not None:
        progress(1.0, len(best))
    res = SearchResult(game, best, best_name, secs, optimal=proved or len(best) >= ub0)
    res.proof = "exhaustive" if proved else ("state bound" if len(best) >= ub0 else None)
    return res


# ---- exhaustive search -------------------------------------------------------------------------

class _Timeout(Exception):
    pass


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
    t0 = time.monotonic()
    game = WinnowGame(n, r, variant, alpha)
    deadline = None if budget is None else t0 + float(budget)
    counter = [0]

    def tick(nstates):
        counter[0] += 1
        if deadline is not None and counter[0] % 64 == 0 and time.monotonic() > deadline:
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
        res = SearchResult(game, moves, "exhaustive", time.monotonic() - t0, optimal=True, exact_value=v,
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
            left = None if deadline is None else deadline - time.monotonic()
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
                heur.seconds = time.monotonic() - t0
                heur.strategy = f"exhaustive ({heur.proof}; sequence by {heur.strategy})"
                return heur
            left = None if deadline is None else deadline - time.monotonic()
            pd = time.monotonic() + slice_ if left is None else time.monotonic() + max(0.0, min(slice_, left))
            try:
                best_moves, _, nstates = _raise_or_prove(game, best_moves, pd, memo=memo)
                break
            except _Timeout as e:
                if len(e.args[2]) > len(best_moves):
                    best_moves = list(e.args[2])
            slice_ *= 2
            seed += 1
    res = SearchResult(game, best_moves, "exhaustive", time.monotonic() - t0, optimal=True,
                       exact_value=len(best_moves), states=len(memo.U) + len(memo.P))
    res.proof = "exhaustive"
    res.values = None
    return res


def prove_at_most(n, r, variant, M, alpha=2, budget=None):
    """Exhaustively decide "at most M mistakes": returns (True, None) when no sequence has more
    than M mistakes, (False, moves) with a longer sequence otherwise.  TimeoutError past budget."""
    game = WinnowGame(n, r, variant, alpha)
    deadline = None if budget is None else time.monotonic() + float(budget)
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
        if deadline is not None and time.monotonic() > deadline:
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


# ---- bounds and Sequence objects ---------------------------------------------------------------

def winnow_bounds(n, r, variant, mistakes, alpha=2) -> dict:
    """Bounds next to a mistake count: the notes' formula, the sharper prototype bounds (n a power
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
    from .sequence import Sequence
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
