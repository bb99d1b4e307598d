"""The heuristic Winnow search: constructive "promotions first" plays, then a beam search over the
game modulo symmetry scored by the exact state upper bound; for small n it hands its best sequence
to the exhaustive decision (:mod:`adversary.winnow_proof`) to prove it optimal or improve it."""
from __future__ import annotations

import random
import time

from learners.errors import InputError

from adversary.winnow_game import Move, WinnowGame
from adversary.winnow_plays import SearchResult, check_moves
from adversary.winnow_proof import _Memo, _raise_or_prove, _Timeout

__all__ = ["search_winnow_moves"]


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
        if time.process_time() > deadline:
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
    t0 = time.process_time()
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
            progress(min(1.0, (time.process_time() - t0) / budget), len(best))

    for rel_order in ("low", "high"):
        for fill in ("desc", "asc"):
            consider(_play_promotions_first(game, rel_order, fill), f"promotions-first({rel_order},{fill})")
            if len(best) >= ub0:
                break
    width = 1
    proved_tried, proved, final = -1, False, False
    while len(best) < ub0 and time.process_time() < deadline:
        fnv = ["desc", "asc", "rand"] if width > 1 else ["desc"]
        fpv = ["desc", "asc", "rand"] if width > 1 else ["desc", "asc"]
        configs = ((_tie_fine, True), (_tie_random, True), (_tie_fine, False)) if width <= 4 else \
            ((_tie_fine, True), (_tie_random, True))
        for tb, sl in configs:
            moves = _beam(game, width, rng, deadline, fnv, fpv, tiebreak=tb, use_slack=sl)
            consider(moves, f"beam(width={width},{tb.__name__[5:]}{',slack' if sl else ''})")
            if len(best) >= ub0 or time.process_time() >= deadline:
                break
        width *= 2
        late = _final_proof and time.process_time() - t0 >= 0.6 * budget
        if memo is not None and width >= 8 and len(best) < ub0 and (proved_tried != len(best) or late and not final):
            # small n: whenever the best improved, try to prove it optimal (or improve it) by the
            # exhaustive search with 10% of the time left (a proof is often immediate); once 60% of
            # the budget is gone, one last attempt with all the rest (the memo is shared)
            share = 0.1 if proved_tried != len(best) and not late else 1.0
            final = final or share == 1.0
            proved_tried = len(best)
            left = deadline - time.process_time()
            if left > 0:
                try:
                    tick = None if progress is None else \
                        (lambda b: progress(min(1.0, (time.process_time() - t0) / budget), max(b, len(best))))
                    moves, _, _ = _raise_or_prove(game, best, time.process_time() + left * share, tick, memo=memo)
                    consider(moves, best_name if len(moves) == len(best) else "exhaustive")
                    proved = True
                    break
                except _Timeout as e:
                    if len(e.args[2]) > len(best):
                        consider(e.args[2], "exhaustive")
    secs = time.process_time() - t0
    if progress is not None:
        progress(1.0, len(best))
    res = SearchResult(game, best, best_name, secs, optimal=proved or len(best) >= ub0)
    res.proof = "exhaustive" if proved else ("state bound" if len(best) >= ub0 else None)
    res.budget_exhausted = not res.optimal          # the loop ends on the deadline or on a proof
    return res
