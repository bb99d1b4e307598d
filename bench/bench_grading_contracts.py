"""Benchmark: grading real course shapes -- every shipped course contract (MIT-style function
with get_order, scikit-learn-style class, Winnow homework, dual kernel perceptron on a Gram
matrix, UCL Winnow on float features, CS5350's per-epoch permutation, passes fixed in the call, a
kernel chosen by name, a parameter dict, a step size per example, Raschka's perceptron against
the course's solution as oracle, passes until one makes no mistake, the averaged perceptron with a
counter per example, the voted perceptron's (w, count) votes) -- against the classic perceptron assignment, in one run, with
every isolation layer on.  Target: 100 submissions in <= 60 s on 2 cores.

    python bench/bench_grading_contracts.py [--n 100] [--jobs 2] [--quick] [--no-shared]

1. N submissions of the course shapes: grading/examples/<shape>/ (the correct sample and the one
   with a typical mistake: half buggy), N split evenly over the shapes, each shape one batch;
2. N correct submissions of the classic 'perceptron' assignment (the peer);
the ratio of the two, the scores and the causes named, and the load average (a shared machine:
re-measure on a quiet one).  Each part runs in a child process whose whole tree's CPU time is
measured (the grading parent, its grading processes, every sandboxed worker): the parent's own
work plus the rest divided by the cores is what the batch needs at least on quiet cores,
whatever else runs on the machine.
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
from results import Run  # noqa: E402
EX = os.path.join(os.path.dirname(HERE), "grading", "examples")
SHAPES = ("mit_perceptron", "sklearn_perceptron", "winnow_hw", "dual_kernel", "ucl_winnow", "utah_perceptron",
          "fixed_passes", "kernel_by_name", "dict_params", "decaying_step", "raschka_perceptron", "until_no_mistake",
          "averaged_perceptron", "voted_perceptron")


def _batch(spec, samples, n, jobs, shared=True):
    from grading.running.grader import grade_batch
    tmp = tempfile.mkdtemp(prefix="mb-bench-contracts-")
    try:
        paths = []
        for i in range(n):
            k = samples[i % len(samples)]
            d = os.path.join(tmp, f"s{i:03d}_{k}")
            shutil.copytree(os.path.join(EX, spec, k), d)
            paths.append(d)
        t0 = time.perf_counter()
        results, _ = grade_batch(spec, paths, jobs=jobs, shared=shared)
        return time.perf_counter() - t0, results
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _inner(what, n, jobs, shared):
    """In a child process: grade, print the figures as JSON (its own CPU time: the grading parent's
    serial work -- preflight, warm-up, the pool's bookkeeping)."""
    import json
    out = {"total": 0.0, "seen": []}
    if what == "shapes":
        for k, spec in enumerate(SHAPES):
            samples = sorted(os.listdir(os.path.join(EX, spec)))
            dt, results = _batch(spec, samples, n // len(SHAPES) + (k < n % len(SHAPES)), jobs, shared)
            out["total"] += dt
            out["seen"] += [[spec, r.name.split("_", 1)[1], f"{r.score:g}/{r.max_score:g}", ", ".join(r.diagnoses),
                             r.score == r.max_score] for r in results]
    else:
        dt, results = _batch("perceptron", ["correct", "correct_numpy"], n, jobs, shared)
        out["total"] = dt
        out["seen"] = [["perceptron", r.name.split("_", 1)[1], f"{r.score:g}/{r.max_score:g}", "",
                        r.score == r.max_score] for r in results]
    from grading.running.batch import close_pool
    close_pool()        # the grading processes kept for a next batch stopped and waited for: their CPU counts
    try:        # the fork server (parent of the grading processes) waited for: its CPU counts
        from multiprocessing import forkserver
        forkserver._forkserver._stop()
    except Exception:  # noqa: BLE001 - an interpreter without it: the figure is then a lower bound
        pass
    import resource
    me = resource.getrusage(resource.RUSAGE_SELF)
    out["self_cpu"] = me.ru_utime + me.ru_stime
    print(json.dumps(out))


def _run(what, n, jobs, shared):
    """(wall seconds of grading, results, CPU of the grading parent, CPU of everything below it)."""
    import json
    import resource
    import subprocess
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run([sys.executable, os.path.abspath(__file__), "--inner", what, str(n), str(jobs),
                        "1" if shared else "0"], capture_output=True, text=True, cwd=os.path.dirname(HERE))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise SystemExit(p.stderr[-3000:])
    d = json.loads(p.stdout.strip().splitlines()[-1])
    tree = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return d["total"], d["seen"], d["self_cpu"], tree - d["self_cpu"]


def main():
    if len(sys.argv) == 6 and sys.argv[1] == "--inner":
        _inner(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1")
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="20 submissions of each kind (a smoke run)")
    ap.add_argument("--no-shared", action="store_true",
                    help="each grading process computes the tests' inputs and answers itself (the comparison)")
    args = ap.parse_args()
    n = 20 if args.quick else args.n
    shared = not args.no_shared
    run = Run("bench_grading_contracts.py")
    up0 = _uptime()
    cores = min(args.jobs, os.cpu_count() or 1)
    total, seen, own, below = _run("shapes", n, args.jobs, shared)
    cpu = own + below
    # on quiet cores: the grading parent's own work (preflight, warm-up) counted as if it never
    # overlapped the pool's, the pool's spread over the cores
    quiet = own + below / cores
    target = 60 * n / 100
    print(f"1. {n} submissions of the {len(SHAPES)} course shapes (half buggy), {args.jobs} jobs, {os.cpu_count()} "
          f"cores, shared warm-up {'on' if shared else 'off'}: {total:.1f} s wall ({n / total:.2f}/s)")
    print(f"   CPU: {cpu:.1f} s in all ({own:.1f} s the grading parent: preflight, warm-up; {below:.1f} s the grading "
          f"processes and the sandboxed workers); on {cores} quiet cores about {quiet:.1f} s "
          f"(target <= {target:g} s -> {'MET' if quiet <= target else 'NOT MET'}; wall clock here "
          f"{'MET' if total <= target else 'NOT MET'}, with whatever else runs on the machine)")
    counts = collections.Counter((s, k, sc, ca) for s, k, sc, ca, _ in seen)
    for (spec, sample, score, causes), k in sorted(counts.items()):
        print(f"     {spec:20s} {sample:20s} x{k:<3d} {score:7s} {causes or '(no cause named)'}")
    dt, seen2, own2, below2 = _run("classic", n, args.jobs, shared)
    full = sum(s[-1] for s in seen2)
    print(f"2. {n} correct submissions of the classic 'perceptron' assignment: {dt:.1f} s wall ({n / dt:.2f}/s); "
          f"full marks {full}/{n}; CPU {own2 + below2:.1f} s ({own2:.1f} s the grading parent); on {cores} quiet "
          f"cores about {own2 + below2 / cores:.1f} s")
    print(f"ratio course shapes / classic: {total / dt:.2f} (wall clock), {cpu / max(own2 + below2, 1e-9):.2f} (CPU)")
    print(f"uptime before: {up0}")
    print(f"uptime after:  {_uptime()}")
    run.add(f"{n} course-shape submissions (half buggy), {args.jobs} jobs: wall, CPU, quiet {cores}-core estimate",
            f"{total:.1f} s, {cpu:.1f} CPU-s, {quiet:.1f} s", f"<= {target:g} s")
    run.add(f"{n} correct 'perceptron' submissions: wall, CPU; full marks",
            f"{dt:.1f} s, {own2 + below2:.1f} CPU-s; {full}/{n}")
    run.write()


def _uptime() -> str:
    import subprocess
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "n/a"


if __name__ == "__main__":
    main()
