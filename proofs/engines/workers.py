"""The engines' child processes: a pool of long-lived workers, each running z3 and cvc5.

Every solver question (a step's text to z3 and to cvc5, the satisfiability and necessity questions)
is a job: :func:`submit` returns a :class:`concurrent.futures.Future` at once and the job goes to a
shared queue.  One thread per worker takes the next jobs, sends them to its child process (one
JSON request per line; two at a time, so the child never waits for this process to read an
answer) and waits for each answer with a wall-clock deadline counted from when the child could
start it; past it the child is killed (the answer is then None: "unknown", never "proved") and a
fresh child takes the jobs that were waiting.  A shared queue deals the jobs to whichever worker
is free, so the machine's cores stay busy until the last job; a child is started once and reused
for every job (the engines are imported once per child, not per step).

The child is ``python -m proofs.engines.engine_worker`` (requests ``{"op": "z3" | "cvc5" | "sat" |
"guarded", ...}``).
"""
from __future__ import annotations

import atexit
import os
import threading
import time

__all__ = ["submit", "shutdown", "pool_size", "child_env"]

START_ALLOWANCE = 10.0      # seconds a fresh child may take to start (imports), on top of a job's limit
MARGIN = 2.0                # seconds past a job's own limit before its child is killed
DEPTH = 2                   # requests in a child at once: one solving, the next waiting in its pipe


def pool_size() -> int:
    """Worker processes: one per core (at least two), or ``$MISTAKEBOUND_WORKERS``."""
    env = os.environ.get("MISTAKEBOUND_WORKERS", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 2
    return max(2, n)


def child_env() -> dict:
    """This process's environment with the suite's own directory first on ``PYTHONPATH``, so that a
    child process runs this very code (not another installed copy)."""
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


class _Child:
    """One child process; used by one thread at a time."""

    def __init__(self):
        self.proc = None
        self.buf = b""
        self.fresh = False

    def _start(self):
        import subprocess
        import sys
        self.proc = subprocess.Popen([sys.executable, "-m", "proofs.engines.engine_worker"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0, env=child_env())
        self.buf = b""
        self.fresh = True

    def kill(self):
        p, self.proc = self.proc, None
        if p is not None:
            try:
                p.kill()
                p.wait(timeout=2)
            except Exception:
                pass

    # The pool's shutdown may kill the child from another thread at any moment (``self.proc``
    # becomes None, its pipes close): every use below works on its own reference to the process
    # and reads a closed pipe or a vanished process as "the child is gone", never as an error.
    def send(self, line: bytes) -> bool:
        """Write one request (starting the child if needed); False if the child is gone."""
        p = self.proc
        if p is None or p.poll() is not None:
            self._start()
            p = self.proc
        try:
            view = memoryview(line)
            while view:
                view = view[p.stdin.write(view):]
        except (BrokenPipeError, OSError, ValueError, AttributeError):
            self.kill()
            return False
        return True

    def receive(self, end: float):
        """The next answer line, or None (the child died, or ``end`` (monotonic) passed: killed)."""
        import select
        p = self.proc
        while b"\n" not in self.buf:
            left = end - time.monotonic()
            try:
                if p is None or self.proc is not p or left <= 0 or not select.select([p.stdout], [], [], left)[0]:
                    self.kill()
                    return None
                chunk = os.read(p.stdout.fileno(), 1 << 16)
            except (OSError, ValueError, AttributeError):
                self.kill()
                return None
            if not chunk:
                self.kill()
                return None
            self.buf += chunk
        out, self.buf = self.buf.split(b"\n", 1)
        return out


class _Pool:
    def __init__(self):
        self.jobs = None
        self.threads: list = []
        self.children: list[_Child] = []
        self.lock = threading.Lock()

    def submit(self, payload: dict, timeout_ms: int):
        import json
        import queue
        from concurrent.futures import Future
        with self.lock:
            if self.jobs is None:
                self.jobs = queue.SimpleQueue()
            while len(self.threads) < pool_size():
                c = _Child()
                t = threading.Thread(target=self._serve, args=(c, self.jobs), daemon=True,
                                     name=f"proofs-worker-{len(self.threads)}")
                self.children.append(c)
                self.threads.append(t)
                t.start()
        f: Future = Future()
        self.jobs.put(((json.dumps(payload) + "\n").encode(), timeout_ms / 1000, f))
        return f

    def _serve(self, child: _Child, jobs):
        """Serve ``jobs`` (the queue this thread was started for: a shutdown replaces the pool's,
        and puts one None here per thread) until told to stop.  Whatever goes wrong in here -- a
        child killed by the shutdown under this thread's feet, the interpreter exiting -- ends in
        "no answer" for the jobs this thread holds, never in a traceback after the verdicts."""
        import collections
        sent: collections.deque = collections.deque()     # [line, seconds, future], oldest first
        try:
            self._serve_jobs(child, jobs, sent)
        except Exception:  # noqa: BLE001 - a worker thread reports through its futures only
            child.kill()
        finally:
            child.kill()
            for _, _, f in sent:
                _answer(f, None)

    def _serve_jobs(self, child: _Child, jobs, sent):
        """Keep up to two requests in the child (the next one waits in its pipe while this process,
        busy with other threads, reads the answer to the first), and wait for the oldest with its
        deadline, counted from when the child could start it."""
        import json
        import queue
        ready = time.monotonic()           # when the child could start the oldest request
        while True:
            while len(sent) < DEPTH:
                try:
                    job = jobs.get(block=not sent)
                except queue.Empty:
                    break
                if job is None:                              # shut down
                    return
                if not sent:
                    ready = time.monotonic()
                fresh = child.proc is None or child.proc.poll() is not None
                if not child.send(job[0]):
                    _answer(job[2], None)
                    continue
                if fresh:
                    ready = time.monotonic() + START_ALLOWANCE
                sent.append(job)
            if not sent:
                continue
            line, seconds, f = sent[0]
            out = child.receive(ready + seconds + MARGIN)
            sent.popleft()
            try:
                res = json.loads(out) if out else None
            except ValueError:          # a garbled answer is no answer
                child.kill()
                res = None
            _answer(f, res)
            ready = time.monotonic()
            if child.proc is None and sent:                  # killed: the rest go to a fresh child
                again = list(sent)
                sent.clear()
                for job in again:
                    if child.send(job[0]):
                        sent.append(job)
                    else:
                        _answer(job[2], None)
                ready = time.monotonic() + START_ALLOWANCE

    def shutdown(self):
        import queue
        with self.lock:
            for c in self.children:
                c.kill()
            if self.jobs is not None:
                while True:                  # jobs no thread took: answered "no answer", never left waiting
                    try:
                        job = self.jobs.get_nowait()
                    except queue.Empty:
                        break
                    if job is not None:
                        _answer(job[2], None)
                for _ in self.threads:
                    self.jobs.put(None)
            self.children, self.threads, self.jobs = [], [], None


def _answer(f, value) -> None:
    """Resolve a job's future once (a second answer, e.g. after a shutdown, is dropped)."""
    try:
        if not f.done():
            f.set_result(value)
    except Exception:  # noqa: BLE001 - InvalidStateError when another thread resolved it first
        pass


_POOL = _Pool()


def submit(payload: dict, timeout_ms: int):
    """Queue one request (``payload["op"]`` names the engine); a Future of the answer dict, or of
    None when the child died or ran past ``timeout_ms`` plus a margin."""
    return _POOL.submit(payload, timeout_ms)


def shutdown() -> None:
    """Stop the child processes (also done at interpreter exit)."""
    _POOL.shutdown()


atexit.register(shutdown)
