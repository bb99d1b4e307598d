"""Wall-clock of the whole catalogue (z3 + sympy, cvc5 re-check, non-vacuity) as the user runs it.

    python bench/bench_verify.py [--runs 3]

Runs ``mistakebound verify -q`` in a fresh process each time (imports included) and prints the
wall-clock seconds of each run, the best and the median, and the load average of the machine
(the catalogue uses four processes: the parent, two cvc5 workers and the satisfiability worker).
Target: <= 5 s on a 2-core machine.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    times, cpus = [], []
    for i in range(a.runs):
        load = os.getloadavg()[0]
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        p = subprocess.run([sys.executable, "-m", "mistakebound", "verify", "-q"], capture_output=True, text=True,
                           timeout=300)
        dt = time.perf_counter() - t
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        times.append(dt)
        cpus.append(cpu)
        print(f"run {i + 1}: {dt:.2f} s wall, {cpu:.2f} s CPU in all processes "
              f"(exit {p.returncode}, load average before {load:.2f}) "
              f"{p.stdout.strip().splitlines()[-1] if p.stdout.strip() else p.stderr.strip()[:200]}")
    print(f"best {min(times):.2f} s, median {statistics.median(times):.2f} s wall over {len(times)} runs; "
          f"CPU median {statistics.median(cpus):.2f} s; {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
