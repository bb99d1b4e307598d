"""Wall-clock of ``mistakebound verify`` as the user runs it, cold (empty proof cache) and warm.

    python bench/bench_verify.py [--runs 3]

Each run is ``mistakebound verify -q`` in a fresh process (start-up and imports included).  *Cold*:
an empty proof cache (a new temporary ``$XDG_CACHE_HOME``), so every step is solved; *warm*: the
same cache again, nothing changed, so every verdict comes from the cache (the proof kernel still
builds every theorem).  Python's compiled modules (``__pycache__``) are kept, as in any
installation, even when ``PYTHONDONTWRITEBYTECODE`` is set here.  Prints each run's wall-clock and CPU seconds (the process and its engine
workers), the best and the median, the machine's load average and cores.
Targets: cold <= 5 s, warm <= 1 s on a quiet 2-core machine.

    python bench/bench_verify.py --split

runs one cold check in this process instead and prints where the CPU goes: this process (building
the proofs, printing the texts, sympy; by thread) and the engine workers' CPU by kind of request
(z3, cvc5, satisfiability, the learners' replays), as the workers report it, and how many
questions were sent to an engine more than once (0: nothing decided twice); ``--with-cache``
writes an empty temporary proof cache as a cold ``verify`` does.  Every report ends with the load
average and a gauge of the host's core speed (CPU seconds of 10^7 Python additions).
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from results import Run, gauge

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def one(cache_home: str, extra=()) -> tuple[float, float, str, int]:
    env = dict(os.environ, XDG_CACHE_HOME=cache_home)
    env.pop("PYTHONDONTWRITEBYTECODE", None)        # compiled modules are kept, as in any installation
    env["PYTHONPATH"] = ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "mistakebound", "verify", "-q", *extra], capture_output=True,
                       text=True, timeout=600, env=env)
    dt = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    last = " ".join(p.stdout.split()[-8:]) if p.stdout.strip() else p.stderr.strip()[:200]
    return dt, cpu, last, p.returncode


def _threads() -> dict:
    """CPU seconds of each live thread of this process, by name (Linux; {} elsewhere)."""
    import threading
    names = {t.native_id: t.name for t in threading.enumerate()}
    out: dict = {}
    try:
        tick = os.sysconf("SC_CLK_TCK")
        for tid in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{tid}/stat") as fh:
                f = fh.read().rsplit(")", 1)[1].split()
            name = names.get(int(tid), "other")
            out[name] = out.get(name, 0.0) + (int(f[11]) + int(f[12])) / tick
    except (OSError, ValueError, AttributeError):
        return {}
    return out


def split(with_cache: bool = False) -> int:
    """One cold check in this process, the workers' CPU by kind of request."""
    import collections
    sys.path.insert(0, ROOT)
    home = tempfile.mkdtemp(prefix="bench-verify-") if with_cache else None
    if home:
        os.environ["XDG_CACHE_HOME"] = home
    g = gauge()
    before = _threads()                          # the gauge and start-up are not the run's
    c0, t0 = time.process_time(), time.perf_counter()
    from proofs.engines import workers
    from proofs.verify import certificate
    from proofs.verify.checks import Options
    from proofs.verify.runner import run_catalogue
    options = Options(necessity=False)           # as ``mistakebound verify`` without --json / --latex
    by_op: dict = collections.defaultdict(lambda: [0, 0.0])
    last: dict = {}                              # each worker's thread -> when its last answer arrived
    submit = workers._Pool.submit

    texts: collections.Counter = collections.Counter()      # (engine, text) -> times sent

    def counted(self, payload, timeout_ms):
        texts.update([(payload["op"], payload["smt"])] if "smt" in payload else
                     [(payload["op"], t) for t in payload.get("texts", ())])
        f = submit(self, payload, timeout_ms)

        def done(fut, op=payload["op"]):
            res = fut.result()
            by_op[op][0] += 1
            by_op[op][1] += (res or {}).get("cpu", 0.0)
            import threading
            last[threading.current_thread().name] = time.perf_counter() - t0
        f.add_done_callback(done)
        return f
    workers._Pool.submit = counted
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cat = run_catalogue(None, use_cache=with_cache, options=options)
    wall = time.perf_counter() - t0
    threads = {k: v - before.get(k, 0.0) for k, v in _threads().items()}
    workers.shutdown()
    if home:
        shutil.rmtree(home, ignore_errors=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    hits, n = cat.verdict_counts()
    print(f"cold, in one process ({'writing an empty proof cache' if with_cache else 'no proof cache'}): "
          f"{wall:.2f} s wall, all as expected: {cat.ok}, {n} verdicts")
    for r in cat.results:
        if not r.ok:
            print(f"  not as expected: {r.theorem.id}: {r.status}" + (f" ({r.reasons[0]})" if r.reasons else ""))
    print(f"  this process: {time.process_time() - c0:.2f} s CPU (imports, proofs built, texts printed, sympy)")
    if threads:
        print("    by thread: " + ", ".join(f"{k} {v:.2f} s" for k, v in sorted(threads.items(), key=lambda x: -x[1]))
              + " (proofs-worker-*: sending requests, reading answers, writing the cache; proofs-bg: sympy)")
    kids = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    print(f"  engine workers: {kids:.2f} s CPU, of which requests:")
    for op, (k, cpu) in sorted(by_op.items(), key=lambda x: -x[1][1]):
        print(f"    {op:8s} {k:5d} requests  {cpu:6.2f} s CPU")
    if last:
        print("    last answer of each worker at " + ", ".join(f"{k} {v:.2f} s" for k, v in sorted(last.items()))
              + f" (the run ended at {wall:.2f} s: a core idle at the end shows as a gap)")
    twice = sum(n - 1 for n in texts.values() if n > 1)
    print(f"    {len(texts)} distinct (engine, text) questions; sent more than once: {twice}"
          f" (the checker's obligations handed over: {certificate.STATS['handed_over']}"
          f" of {certificate.STATS['obligations']})")
    rest = kids - sum(cpu for _, cpu in by_op.values())
    print(f"    and {rest:.2f} s CPU outside requests (each worker's start-up and imports, reading requests)")
    print(f"  total: {time.process_time() - c0 + kids:.2f} s CPU (about 9 s or less is what 5 s of wall-clock "
          f"needs on 2 quiet cores)")
    print(f"{os.cpu_count()} cores; load average now {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"gauge {g:.2f} s CPU before")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="cold and warm runs each (default 3)")
    ap.add_argument("--split", action="store_true", help="one cold check in this process: CPU by engine")
    ap.add_argument("--with-cache", action="store_true",
                    help="with --split: write an empty temporary proof cache, as a cold verify does")
    a = ap.parse_args()
    if a.split:
        return split(a.with_cache)
    run = Run("bench_verify.py")
    res: dict[str, list] = {"cold": [], "warm": []}
    for i in range(a.runs):
        home = tempfile.mkdtemp(prefix="bench-verify-")
        try:
            for kind in ("cold", "warm"):
                load = os.getloadavg()[0]
                dt, cpu, last, rc = one(home)
                res[kind].append((dt, cpu))
                print(f"{kind} run {i + 1}: {dt:.2f} s wall, {cpu:.2f} s CPU (all processes), exit {rc}, "
                      f"load average before {load:.2f}: ...{last}", flush=True)
        finally:
            shutil.rmtree(home, ignore_errors=True)
    for kind, goal in (("cold", 5.0), ("warm", 1.0)):
        ts, cs = [t for t, _ in res[kind]], [c for _, c in res[kind]]
        print(f"{kind}: best {min(ts):.2f} s, median {statistics.median(ts):.2f} s wall; CPU median "
              f"{statistics.median(cs):.2f} s (goal <= {goal:g} s wall on a quiet 2-core machine)")
        run.add(f"verify {kind}, whole catalogue: best / median wall ({a.runs} runs)",
                f"{min(ts):.2f} / {statistics.median(ts):.2f} s", f"<= {goal:g} s")
        run.add(f"verify {kind}: median CPU, all processes", f"{statistics.median(cs):.2f} s")
    run.write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
