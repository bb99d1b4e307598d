"""Benchmark: grading real course shapes -- the four shipped course contracts (MIT-style
function with get_order, scikit-learn-style class, Winnow homework, dual kernel perceptron on a
Gram matrix), each with the linear-time test -- against the classic perceptron assignment, in
one run, with every isolation layer on.  Target: 100 submissions in <= 60 s on 2 cores.

    python bench/bench_grading_contracts.py [--n 100] [--jobs 2] [--quick]

1. N submissions of the course shapes: grading/examples/<shape>/ (the correct sample and the one
   with a typical mistake), N/4 per shape, each shape one batch;
2. N correct submissions of the classic 'perceptron' assignment (the peer);
the ratio of the two, the scores and the causes named, and the load average (a shared machine:
re-measure on a quiet one).
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
EX = os.path.join(os.path.dirname(HERE), "grading", "examples")
SHAPES = ("mit_perceptron", "sklearn_perceptron", "winnow_hw", "dual_kernel")


def _batch(spec, samples, n, jobs):
    from grading.grader import grade_batch
    tmp = tempfile.mkdtemp(prefix="mb-bench-contracts-")
    try:
        paths = []
        for i in range(n):
            k = samples[i % len(samples)]
            d = os.path.join(tmp, f"s{i:03d}_{k}")
            shutil.copytree(os.path.join(EX, spec, k), d)
            paths.append(d)
        t0 = time.perf_counter()
        results, _ = grade_batch(spec, paths, jobs=jobs)
        return time.perf_counter() - t0, results
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="20 submissions of each kind (a smoke run)")
    args = ap.parse_args()
    n = 20 if args.quick else args.n
    load0 = os.getloadavg()
    total, seen = 0.0, collections.defaultdict(collections.Counter)
    for spec in SHAPES:
        samples = sorted(os.listdir(os.path.join(EX, spec)))
        dt, results = _batch(spec, samples, n // len(SHAPES), args.jobs)
        total += dt
        for r in results:
            seen[spec][(r.name.split("_", 1)[1], f"{r.score:g}/{r.max_score:g}", ", ".join(r.diagnoses))] += 1
    m = (n // len(SHAPES)) * len(SHAPES)
    target = 60 * m / 100
    print(f"1. {m} submissions of the four course shapes, {args.jobs} jobs, {os.cpu_count()} cores: {total:.1f} s "
          f"({m / total:.2f}/s); target <= {target:g} s -> {'MET' if total <= target else 'NOT MET'}")
    for spec in SHAPES:
        for (sample, score, causes), k in sorted(seen[spec].items()):
            print(f"     {spec:20s} {sample:18s} x{k:<3d} {score:7s} {causes or '(no cause named)'}")
    dt, results = _batch("perceptron", ["correct", "correct_numpy"], m, args.jobs)
    full = sum(r.score == r.max_score for r in results)
    print(f"2. {m} correct submissions of the classic 'perceptron' assignment: {dt:.1f} s ({m / dt:.2f}/s); "
          f"full marks {full}/{m}")
    print(f"ratio course shapes / classic: {total / dt:.2f}")
    print(f"load average before {load0[0]:.2f}, after {os.getloadavg()[0]:.2f} "
          "(a shared machine: re-measure on a quiet one)")


if __name__ == "__main__":
    main()
