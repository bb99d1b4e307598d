"""Benchmark: the adversary table (every cell timed) and the extra families (plane, alternating cube,
inseparable, kernels).

    /tmp/venv/bin/python bench/bench_adversary.py [--out DIR] [--budget SECONDS] [--quick]

Prints one line per cell (mistakes, bound, ratio, seconds) and the totals, and writes
DIR/bench.json.  --quick runs only the perceptron grid and the small extras.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from fractions import Fraction

from results import Run


def _f(v):
    if isinstance(v, Fraction):
        return str(v) if len(str(v)) < 14 else f"{float(v):.12g}"
    return str(v)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="bench_adversary_out")
    ap.add_argument("--budget", type=float, default=25.0)
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args(argv)
    from adversary.certify import certify
    from adversary.table import grid, run_cell
    os.makedirs(a.out, exist_ok=True)
    run = Run("bench_adversary.py")
    out = {"cells": [], "extras": []}
    t0 = time.monotonic()
    for cell in grid("perceptron" if a.quick else "all"):
        row = run_cell(cell, a.out, budget=a.budget)
        print(f"{cell.label():<36} M={row['mistakes']:<5} bound={_f(row['bound']):<14} ratio={_f(row['ratio']):<16} "
              f"{row['seconds']:7.2f} s", flush=True)
        out["cells"].append({"cell": cell.label(), "mistakes": row["mistakes"], "bound": _f(row["bound"]),
                             "ratio": _f(row["ratio"]), "seconds": row["seconds"]})
    out["table_seconds"] = round(time.monotonic() - t0, 2)
    print(f"table: {len(out['cells'])} cells in {out['table_seconds']} s; "
          f"max cell {max(c['seconds'] for c in out['cells']):.2f} s", flush=True)

    def extra(name, make):
        t = time.monotonic()
        seq = make()
        c = certify(seq)
        s = time.monotonic() - t
        f = c.figures
        rec = {"name": name, "mistakes": c.mistakes, "bound": _f(c.bound), "ratio": _f(c.ratio), "seconds": round(s, 2)}
        for k in ("ratio_exact_form", "ratio_interval", "exact_form_attained"):
            if k in f:
                rec[k] = [float(x) for x in f[k]] if isinstance(f[k], tuple) else f[k]
        out["extras"].append(rec)
        print(f"{name:<36} M={c.mistakes:<6} bound={_f(c.bound):<14} ratio={_f(c.ratio):<16} {s:7.2f} s "
              + " ".join(f"{k}={rec[k]}" for k in ("ratio_exact_form", "ratio_interval") if k in rec), flush=True)

    from adversary.perceptron_2d import sequence_2d
    from adversary.perceptron_fibonacci import fibonacci_family
    from adversary.perceptron_inseparable import factor_two, noisy
    from adversary.kernel_worst import gaussian_spaced, poly_simplex
    for g in ("1/2", "0.3", "1/5", "1/10", "1/20"):
        extra(f"plane length<=1 gamma={g}", lambda g=g: sequence_2d(g))
        extra(f"plane unit gamma={g}", lambda g=g: sequence_2d(g, unit=True))
    for d in ((4, 8) if a.quick else (4, 8, 12)):
        extra(f"alternating cube d={d}", lambda d=d: fibonacci_family(d))
    for lam in ("1/2", "9/10", "99/100"):
        extra(f"factor-two n=20 lambda={lam}", lambda lam=lam: factor_two(20, lam))
    for g, d in (("1/5", 3), ("1/10", 5), ("1/10", 100)):
        for nz in ("1/4", "1/2", "1"):
            extra(f"noisy gamma={g} d={d} noise={nz}", lambda g=g, d=d, nz=nz: noisy(g, d, nz, seed=0))
    for sp in (5, 3, 2):
        extra(f"gaussian n=30 spacing={sp} sigma", lambda sp=sp: gaussian_spaced(30, sp))
    extra("poly (1+x.y)^2 simplex n=10", lambda: poly_simplex(10, 1, 2))
    out["total_seconds"] = round(time.monotonic() - t0, 2)
    with open(os.path.join(a.out, "bench.json"), "w") as fh:
        json.dump(out, fh, indent=1)
    print(f"total {out['total_seconds']} s", flush=True)
    run.add(f"adversary table{' --quick' if a.quick else ''}: cells, wall", f"{len(out['cells'])} cells in {out['table_seconds']} s (longest cell {max(c['seconds'] for c in out['cells']):.2f} s)")
    run.add("lowest ratio over the cells", min((c['ratio'] for c in out['cells']), key=lambda r: float(Fraction(r))))
    run.add("table and extras: wall", f"{out['total_seconds']} s")
    run.write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
