"""Benchmark: grade N submissions of the perceptron assignment with every isolation layer on, as
the command line does (namespaces, the allow-list file-system view, per-worker uid or user
namespace, no_new_privs + seccomp, rlimits, wall-clock limits, checked from outside before the
student's code runs).  Target: 100 correct submissions in <= 60 s on 2 cores.

    python bench/bench_grading.py [--n 100] [--jobs 2] [--quick]

Three measurements in one run:

1. N correct submissions (the target);
2. N mixed submissions (grading/examples/perceptron/: the correct ones and one per common
   mistake; failing ones cost more: shrinking, first departure, diagnosis);
3. the price of isolation per worker: starting a fully isolated worker and making one call,
   against starting the same Python (``-I -S``) and exchanging one line with it -- the ratio is
   what the layers cost.

The machine may be shared: the load average before and after is printed with the figures, and
each batch runs in a child process whose whole tree's CPU time (the grader, its grading processes,
every worker) is measured as well: CPU seconds / 2 is what the batch needs at least on 2 quiet
cores, whatever else runs on the machine.
"""
import argparse
import collections
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from results import Run  # noqa: E402
EX = os.path.join(os.path.dirname(HERE), "grading", "examples", "perceptron")


def _copies(tmp, kinds, n):
    paths = []
    for i in range(n):
        k = kinds[i % len(kinds)]
        d = os.path.join(tmp, f"s{i:03d}_{k}")
        shutil.copytree(os.path.join(EX, k), d)
        paths.append(d)
    return paths


def _inner(assignment, kinds, n, jobs):
    """In the child process: grade, print the figures as JSON."""
    import json
    from grading.running.grader import grade_batch
    tmp = tempfile.mkdtemp(prefix="mb-bench-grading-")
    try:
        paths = _copies(tmp, kinds, n)
        t0 = time.perf_counter()
        results, caps = grade_batch(assignment, paths, jobs=jobs)
        dt = time.perf_counter() - t0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    from grading.running.batch import close_pool
    close_pool()        # the grading processes kept for a next batch stopped and waited for: their CPU counts
    try:        # the fork server (parent of the grading processes) waited for: its CPU counts
        from multiprocessing import forkserver
        forkserver._forkserver._stop()
    except Exception:  # noqa: BLE001 - an interpreter without it: the figure is then a lower bound
        pass
    print(json.dumps({"dt": dt, "caps": caps.get("text") if isinstance(caps, dict) else str(caps),
                      "budget": (results[0].isolation or {}).get("budget", ""),
                      "results": [[r.name, r.score, r.max_score, list(r.diagnoses)] for r in results]}))


class _R:
    def __init__(self, name, score, max_score, diagnoses):
        self.name, self.score, self.max_score, self.diagnoses = name, score, max_score, diagnoses


def _batch(assignment, kinds, n, jobs):
    """(wall seconds, results, isolation text, CPU seconds of the batch's whole process tree)."""
    import json
    import resource
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run([sys.executable, os.path.abspath(__file__), "--inner", assignment, ",".join(kinds), str(n),
                        str(jobs)], capture_output=True, text=True, cwd=os.path.dirname(HERE))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise SystemExit(p.stderr[-3000:])
    d = json.loads(p.stdout.strip().splitlines()[-1])
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return d["dt"], [_R(*r) for r in d["results"]], {"text": d["caps"], "budget": d["budget"]}, cpu


def _startup(k):
    """Mean seconds: an isolated worker started + one call, and a bare Python round trip."""
    from sandbox.worker import Limits, Worker
    src = open(os.path.join(EX, "correct", "perceptron.py"), "rb").read()
    call = {"op": "call", "name": "train", "args": [[[1.0, 2.0]], [1]], "kwargs": {"epochs": 1}, "returns": "w_b"}
    t0 = time.perf_counter()
    for _ in range(k):
        w = Worker({"perceptron.py": src}, "perceptron", Limits())
        r = w.call(call, timeout=10)
        assert r.error is None, r
        w.close()
    iso = (time.perf_counter() - t0) / k
    t0 = time.perf_counter()
    for _ in range(k):
        p = subprocess.Popen([sys.executable, "-I", "-S", "-c", "import sys; sys.stdout.write(sys.stdin.readline())"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        p.communicate(b"{}\n")
    bare = (time.perf_counter() - t0) / k
    return iso, bare


def main():
    if len(sys.argv) == 6 and sys.argv[1] == "--inner":
        _inner(sys.argv[2], sys.argv[3].split(","), int(sys.argv[4]), int(sys.argv[5]))
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--assignment", default="perceptron")
    ap.add_argument("--quick", action="store_true", help="20 submissions, 5 start-ups (a smoke run)")
    args = ap.parse_args()
    n, k = (20, 5) if args.quick else (args.n, 20)
    run = Run("bench_grading.py")
    load0 = os.getloadavg()
    dt, results, caps, cpu = _batch(args.assignment, ["correct", "correct_numpy"], n, args.jobs)
    full = sum(r.score == r.max_score for r in results)
    target = 60 * n / 100
    quiet = cpu / min(args.jobs, os.cpu_count() or 1)
    print(f"1. {n} correct submissions of '{args.assignment}', {args.jobs} jobs, {os.cpu_count()} cores: "
          f"{dt:.1f} s wall ({n / dt:.2f}/s), {cpu:.1f} CPU-s for the whole tree (>= {quiet:.1f} s on {args.jobs} "
          f"quiet cores); full marks {full}/{n}; target <= {target:g} s -> "
          + ("MET" if dt <= target and full == n else
             "NOT MET on this machine's wall clock; its CPU time fits the target on quiet cores"
             if quiet <= target and full == n else "NOT MET"))
    dt2, results2, _, cpu2 = _batch(args.assignment, sorted(os.listdir(EX)), n, args.jobs)
    print(f"2. {n} mixed submissions: {dt2:.1f} s wall, {cpu2:.1f} CPU-s; ratio mixed/correct {dt2 / dt:.2f}")
    hist = collections.Counter(f"{r.score:g}/{r.max_score:g}" for r in results2)
    print("   scores:", dict(sorted(hist.items())))
    by_kind = collections.defaultdict(set)
    for r in results2:
        by_kind[r.name.split("_", 1)[1]].add((r.score, tuple(r.diagnoses)))
    for kind, v in sorted(by_kind.items()):
        print(f"     {kind:22s} {sorted(v)}")
    iso, bare = _startup(k)
    print(f"3. worker start + one call: isolated {iso * 1000:.0f} ms, bare Python round trip {bare * 1000:.0f} ms; "
          f"ratio {iso / bare:.2f}")
    print(f"isolation: {caps.get('text') or caps}")
    print(f"budget per worker: {caps.get('budget')}")
    print(f"load average before {load0[0]:.2f}, after {os.getloadavg()[0]:.2f} "
          "(a shared machine: re-measure on a quiet one)")
    run.add(f"{n} correct '{args.assignment}' submissions, {args.jobs} jobs: wall, CPU of the tree; full marks",
            f"{dt:.1f} s, {cpu:.1f} CPU-s; {full}/{n}", f"<= {target:g} s")
    run.add(f"{n} mixed submissions: wall, CPU", f"{dt2:.1f} s, {cpu2:.1f} CPU-s")
    run.add("worker start + one call: isolated / bare Python", f"{iso * 1000:.0f} / {bare * 1000:.0f} ms")
    run.add("isolation", str(caps.get('text') or caps))
    run.write()


if __name__ == "__main__":
    main()
