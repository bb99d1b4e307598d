"""Benchmark (issue 6): grade N submissions of the perceptron assignment with every isolation
measure on (per-worker uid, mount/network/PID namespaces when root, rlimits, wall-clock limits,
scrubbed environment), as the command line does.  Target: 100 submissions in <= 60 s on 2 cores.

    python bench/bench_grading.py [--n 100] [--jobs 2] [--assignment perceptron]

The submissions cycle through grading/examples/perceptron/ (correct ones and one per common
mistake), each copied to its own directory.  Prints the wall-clock time, submissions per second,
the isolation measures that were active, and the score histogram.
"""
import argparse
import collections
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--assignment", default="perceptron")
    args = ap.parse_args()
    from grading.grader import grade_batch
    from grading.sandbox import isolation_capabilities
    ex = os.path.join(os.path.dirname(HERE), "grading", "examples", "perceptron")
    kinds = sorted(os.listdir(ex))
    tmp = tempfile.mkdtemp(prefix="mb-bench-grading-")
    try:
        paths = []
        for i in range(args.n):
            k = kinds[i % len(kinds)]
            d = os.path.join(tmp, f"s{i:03d}_{k}")
            shutil.copytree(os.path.join(ex, k), d)
            paths.append(d)
        t0 = time.perf_counter()
        results, caps = grade_batch(args.assignment, paths, jobs=args.jobs)
        dt = time.perf_counter() - t0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    iso = dict(next((r.isolation for r in results if r.isolation), {}))
    iso["hidden_paths"] = f"{len(iso.get('hidden_paths', []))} paths (grader, /root, /home, every submission)"
    print(f"graded {len(results)} submissions of '{args.assignment}' with {args.jobs} jobs "
          f"on {os.cpu_count()} cores in {dt:.1f} s ({len(results) / dt:.2f} submissions/s, "
          f"{dt / len(results) * args.jobs:.2f} core-s each)")
    print(f"target: <= 60 s for 100 submissions on 2 cores -> {'MET' if dt <= 60 * args.n / 100 else 'NOT MET'}")
    print(f"platform: {caps}")
    print(f"isolation in the workers: {iso}")
    hist = collections.Counter(f"{r.score:g}/{r.max_score:g}" for r in results)
    print("scores:", dict(sorted(hist.items())))
    by_kind = collections.defaultdict(set)
    for r in results:
        by_kind[r.name.split("_", 1)[1]].add((r.score, tuple(r.diagnoses)))
    for k, v in sorted(by_kind.items()):
        print(f"  {k:22s} {sorted(v)}")


if __name__ == "__main__":
    main()
