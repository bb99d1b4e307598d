"""Benchmark: grading real course shapes -- every shipped course contract (MIT-style function
with get_order, scikit-learn-style class, Winnow homework, dual kernel perceptron on a Gram
matrix, UCL Winnow on float features, CS5350's per-epoch permutation, passes fixed in the call, a
kernel chosen by name, a parameter dict, a step size per example, Raschka's perceptron against
the course's solution as oracle, passes until one makes no mistake, the averaged perceptron with a
counter per example, the voted perceptron's (w, count) votes) -- against the classic perceptron assignment, in one run, with
every isolation layer on.  Target: 100 submissions in <= 60 s on 2 cores.

    python bench/bench_grading_contracts.py [--n 100] [--jobs 2] [--quick]

1. N submissions of the course shapes: grading/examples/<shape>/ (the correct sample and the one
   with a typical mistake: half buggy), N split evenly over the shapes, each shape one batch;
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
SHAPES = ("mit_perceptron", "sklearn_perceptron", "winnow_hw", "dual_kernel", "ucl_winnow", "utah_perceptron",
          "fixed_passes", "kernel_by_name", "dict_params", "decaying_step", "raschka_perceptron", "until_no_mistake",
          "averaged_perceptron", "voted_perceptron")


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
    up0 = _uptime()
    total, seen = 0.0, collections.defaultdict(collections.Counter)
    with TreeCPU() as meter:
        for k, spec in enumerate(SHAPES):
            samples = sorted(os.listdir(os.path.join(EX, spec)))
            dt, results = _batch(spec, samples, n // len(SHAPES) + (k < n % len(SHAPES)), args.jobs)
            total += dt
            for r in results:
                seen[spec][(r.name.split("_", 1)[1], f"{r.score:g}/{r.max_score:g}", ", ".join(r.diagnoses))] += 1
    cpu = meter.seconds
    m = n
    target = 60 * m / 100
    print(f"1. {m} submissions of the {len(SHAPES)} course shapes (half buggy), {args.jobs} jobs, {os.cpu_count()} "
          f"cores: {total:.1f} s ({m / total:.2f}/s); target <= {target:g} s -> {'MET' if total <= target else 'NOT MET'}")
    print(f"   CPU time of the batch (this process and every process below it): {cpu:.1f} s -- on a quiet "
          f"{os.cpu_count()}-core machine about {cpu / min(args.jobs, os.cpu_count()):.1f} s of wall clock "
          f"(target {target:g} s -> {'MET' if cpu / min(args.jobs, os.cpu_count()) <= target else 'NOT MET'}); "
          f"the wall clock above includes waiting for the other jobs on the machine")
    for spec in SHAPES:
        for (sample, score, causes), k in sorted(seen[spec].items()):
            print(f"     {spec:20s} {sample:20s} x{k:<3d} {score:7s} {causes or '(no cause named)'}")
    with TreeCPU() as meter2:
        dt, results = _batch("perceptron", ["correct", "correct_numpy"], m, args.jobs)
    full = sum(r.score == r.max_score for r in results)
    print(f"2. {m} correct submissions of the classic 'perceptron' assignment: {dt:.1f} s ({m / dt:.2f}/s); "
          f"full marks {full}/{m}; CPU {meter2.seconds:.1f} s")
    print(f"ratio course shapes / classic: {total / dt:.2f} (wall clock), {cpu / max(meter2.seconds, 1e-9):.2f} (CPU)")
    print(f"load average before {load0[0]:.2f}, after {os.getloadavg()[0]:.2f} "
          "(a shared machine: re-measure on a quiet one)")
    print(f"uptime before: {up0}")
    print(f"uptime after:  {_uptime()}")


class TreeCPU:
    """CPU seconds (user + system) of this process and every process below it -- the grading
    pool (children of the forkserver, itself a child of this process) and the sandboxed workers --
    sampled from /proc every 0.1 s (a process's last 0.1 s may be missed: a lower bound).  What the
    batch costs whatever else runs on the machine: the CPU-aware figure."""

    def __init__(self):
        import threading
        self.seen = {}
        self.stop_ev = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.tick = os.sysconf("SC_CLK_TCK")

    def _sample(self):
        me = os.getpid()
        parent, cpu = {}, {}
        for d in os.listdir("/proc"):
            if not d.isdigit():
                continue
            try:
                with open(f"/proc/{d}/stat") as fh:
                    f = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parent[int(d)] = int(f[1])
            cpu[int(d)] = (int(f[11]) + int(f[12])) / self.tick
        for pid in cpu:
            p, hops = pid, 0
            while p and p != me and hops < 64:
                p, hops = parent.get(p, 0), hops + 1
            if p == me:
                self.seen[pid] = max(self.seen.get(pid, 0.0), cpu[pid])

    def _run(self):
        while not self.stop_ev.is_set():
            self._sample()
            self.stop_ev.wait(0.1)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop_ev.set()
        self.thread.join()
        self._sample()
        return False

    @property
    def seconds(self) -> float:
        return sum(self.seen.values())


def _uptime() -> str:
    import subprocess
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "n/a"


if __name__ == "__main__":
    main()
