"""Wall-clock and CPU of the first ``mistakebound verify --coq`` build, as the user runs it.

    python bench/bench_coq.py [--runs 1] [--files 12]

Each run is ``mistakebound verify --coq -q --json`` in a fresh process with an empty build directory
(a new temporary ``$MISTAKEBOUND_COQ_BUILD``), so every file is compiled and every proof checked by
Coq's kernel.  Prints each run's wall-clock, the coqc CPU the build reports (user + system time of
every coqc run: what counts when other jobs share the machine), the verdict line, the machine's load
average before and after and its cores, and the files that cost the most CPU.
Target: the cold build <= 60 s wall on a quiet 2-core machine (about 120 s of coqc CPU or less,
spread over both cores).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def one(build_dir: str) -> dict:
    env = dict(os.environ, MISTAKEBOUND_COQ_BUILD=build_dir)
    env["PYTHONPATH"] = ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    report = os.path.join(build_dir + "-report.json")
    load0 = os.getloadavg()
    t = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "mistakebound", "verify", "--coq", "-q", "--json", report],
                       capture_output=True, text=True, timeout=3600, env=env)
    wall = time.perf_counter() - t
    load1 = os.getloadavg()
    try:
        with open(report) as fh:
            data = json.load(fh)
        coq = data.get("coq", data)
    except (OSError, ValueError):
        coq = {}
    finally:
        if os.path.exists(report):
            os.unlink(report)
    verdict = next((ln for ln in p.stdout.splitlines() if "kernel-checked in Coq" in ln), p.stderr.strip()[-200:])
    return {"wall": wall, "cpu": coq.get("cpu_seconds", float("nan")), "rc": p.returncode, "verdict": verdict,
            "load": (load0, load1), "files": coq.get("file_seconds", {}),
            "compiled": len(coq.get("compiled", []))}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=1, help="cold builds to run (default 1)")
    ap.add_argument("--files", type=int, default=12, help="how many of the costliest files to list")
    args = ap.parse_args(argv)
    print(f"cores: {os.cpu_count()}")
    rows = []
    for i in range(args.runs):
        d = tempfile.mkdtemp(prefix="mb-bench-coq-")
        try:
            r = one(d)
        finally:
            shutil.rmtree(d, ignore_errors=True)
        rows.append(r)
        (a, _, _), (b, _, _) = r["load"]
        print(f"run {i + 1}: {r['wall']:.1f} s wall, {r['cpu']:.1f} s coqc CPU, {r['compiled']} files compiled, "
              f"exit {r['rc']}; load {a:.2f} -> {b:.2f}")
        print(f"  {r['verdict']}")
    top = sorted(rows[-1]["files"].items(), key=lambda kv: -kv[1])[:args.files]
    print("costliest files (CPU s): " + ", ".join(f"{f} {s:.1f}" for f, s in top))
    best = min(rows, key=lambda r: r["wall"])
    print(f"best: {best['wall']:.1f} s wall, {best['cpu']:.1f} s coqc CPU (target: <= 60 s wall, quiet 2 cores)")
    return 0 if all(r["rc"] == 0 for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
