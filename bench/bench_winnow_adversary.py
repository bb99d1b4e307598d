"""Benchmark: the Winnow adversary over the grid n in {16, 64, 256, 1024} x r in {1, 2, 4, 8},
halving and elimination.

For each cell: mistakes found by ``adversary.winnow_search.search_winnow`` (stops early when it
meets the exact state upper bound, i.e. when it is provably optimal), the mistakes counted by an
independent replay through ``learners.run_winnow(..., exact=True)``, the notes' bound, the
catalogue's sharper bound (n = 2^p), the exact state bound, ratios, and wall time (search and
replay separately).  Optionally the exhaustive search for n <= 16 (``--exhaustive SECONDS``).

    /tmp/venv/bin/python bench/bench_winnow_adversary.py [--budget 30] [--variants halve,eliminate]
        [--ns 16,64,256,1024] [--rs 1,2,4,8] [--exhaustive 0] [--json out.json]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from adversary.winnow_search import exhaustive_winnow_moves, search_winnow, winnow_bounds  # noqa: E402
from learners import run_winnow  # noqa: E402
from results import Run  # noqa: E402

BASELINE = {  # the mistakes of a greedy search with exact dyadic weights
    ("halve", 64): (16, 32, 62, 125), ("halve", 256): (22, 44, 86, 175), ("halve", 1024): (28, 56, 111, 219),
    ("eliminate", 1024): (19, 31, 54, 92),
}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budget", type=float, default=30.0)
    ap.add_argument("--variants", default="halve,eliminate")
    ap.add_argument("--ns", default="16,64,256,1024")
    ap.add_argument("--rs", default="1,2,4,8")
    ap.add_argument("--exhaustive", type=float, default=0.0, help="seconds per n<=16 cell for the exact search")
    ap.add_argument("--alpha", default="2", help="winnow2's alpha (an integer or p/q)")
    ap.add_argument("--json", default=None)
    ap.add_argument("--feasibility", type=float, default=0.0,
                    help="instead of the grid: exhaustive search at n in {4, 8, 16}, r in {1, 2, 4, 8}, "
                         "this many seconds per cell, seeded by the heuristic and from scratch")
    a = ap.parse_args(argv)
    from learners.numbers import to_fraction
    alpha = to_fraction(a.alpha, what="alpha")
    if a.feasibility > 0:
        return feasibility(a)
    run = Run("bench_winnow_adversary.py")
    rows = []
    hdr = ("variant", "n", "r", "M", "replay", "baseline", "notes bound", "M/notes", "sharper", "M/sharper",
           "state ub", "optimal", "search s", "replay s", "exhaustive")
    print("| " + " | ".join(hdr) + " |")
    print("|" + "---|" * len(hdr))
    for variant in a.variants.split(","):
        for n in [int(x) for x in a.ns.split(",")]:
            for r in [int(x) for x in a.rs.split(",")]:
                t0 = time.perf_counter()
                seq = search_winnow(n, r, variant, budget=a.budget, seed=0, alpha=alpha)
                t1 = time.perf_counter()
                tr = run_winnow(seq.examples, seq.labels, variant=variant, alpha=alpha, exact=True, record="none")
                t2 = time.perf_counter()
                M = seq.claims["mistakes"]
                assert tr.mistakes == M, (variant, n, r, tr.mistakes, M)
                b = winnow_bounds(n, r, variant, M, alpha)
                notes = b.get("notes")
                base = BASELINE.get((variant, n))
                base_v = base[[1, 2, 4, 8].index(r)] if base and r in (1, 2, 4, 8) else None
                exh = ""
                if a.exhaustive > 0 and n <= 16:
                    try:
                        res = exhaustive_winnow_moves(n, r, variant, budget=a.exhaustive, alpha=alpha)
                        exh = f"exact {res.mistakes} ({res.seconds:.1f} s)"
                    except TimeoutError:
                        exh = f"timeout {a.exhaustive:g} s"
                sharper = b.get("sharper")
                row = {
                    "variant": variant, "n": n, "r": r, "mistakes": M, "replay": tr.mistakes, "baseline": base_v,
                    "notes_bound": notes["max_M"] if notes else None,
                    "ratio_notes": float(notes["ratio"]) if notes else None,
                    "sharper_bound": sharper["max_M"] if sharper else None,
                    "ratio_sharper": float(sharper["ratio"]) if sharper else None,
                    "state_ub": b["state_ub"]["max_M"], "optimal": bool(seq.meta["optimal"]), "proof": seq.meta.get("optimality_proof"),
                    "search_seconds": round(t1 - t0, 3), "replay_seconds": round(t2 - t1, 3),
                    "strategy": seq.meta["strategy"], "exhaustive": exh,
                }
                rows.append(row)
                def f3(v):
                    return "-" if v is None else f"{v:.3f}"
                name = variant if variant != "winnow2" else f"winnow2(alpha={a.alpha})"
                print(f"| {name} | {n} | {r} | {M} | {tr.mistakes} | {base_v if base_v is not None else '-'} | "
                      f"{row['notes_bound'] or '-'} | {f3(row['ratio_notes'])} | {row['sharper_bound'] or '-'} | "
                      f"{f3(row['ratio_sharper'])} | {row['state_ub']} | "
                      f"{('yes (' + row['proof'] + ')') if row['optimal'] else 'no'} | "
                      f"{row['search_seconds']:.2f} | {row['replay_seconds']:.2f} | {exh or '-'} |", flush=True)
                if sharper and M > sharper["max_M"]:
                    print(f"!!! REFUTATION: {variant} n={n} r={r}: {M} mistakes > sharper bound "
                          f"{sharper['formula']} = {sharper['max_M']}", flush=True)
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(rows, fh, indent=1)
    for row in rows:
        ratio = row["ratio_sharper"] if row["ratio_sharper"] is not None else row["ratio_notes"]
        run.add(f"Winnow {row['variant']} n={row['n']} r={row['r']}: mistakes (ratio to the bound; optimal?)",
                f"{row['mistakes']} ({'-' if ratio is None else f'{ratio:.3f}'}; "
                f"{'yes' if row['optimal'] else 'no'}) in {row['search_seconds']:.1f} s")
    run.write()
    return 0


def feasibility(a):
    hdr = ("variant", "n", "r", "exact (heuristic start)", "s", "exact (from scratch)", "s")
    print("| " + " | ".join(hdr) + " |")
    print("|" + "---|" * len(hdr))
    for variant in a.variants.split(","):
        for n in (4, 8, 16):
            for r in (1, 2, 4, 8):
                if r > n:
                    continue
                cells = []
                for start in (None, []):
                    t0 = time.perf_counter()
                    try:
                        res = exhaustive_winnow_moves(n, r, variant, budget=a.feasibility, start_moves=start)
                        seq_rows, labels, _ = res.rows()
                        tr = run_winnow(seq_rows, labels, variant=variant, exact=True, record="none")
                        assert tr.mistakes == res.mistakes
                        cells += [str(res.mistakes), f"{time.perf_counter() - t0:.1f}"]
                    except TimeoutError:
                        cells += ["timeout", f">{a.feasibility:g}"]
                print(f"| {variant} | {n} | {r} | " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
