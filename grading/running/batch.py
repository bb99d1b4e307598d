"""A batch of submissions: safe output names, the manifest, and a pool of grading processes in
which one submission can never cost another its grade.

* :func:`output_names`: each submission's result folder is its file name reduced to letters,
  digits, ``-`` and ``_`` (at most 64 characters); a name already taken (compared without case,
  for case-insensitive file systems) gets ``.2``, ``.3``, ... -- a dot never survives the
  reduction, so a suffixed name cannot collide with another submission's, and no folder can be
  called like the grader's own files (``summary.csv``, ``junit.xml``, ``manifest.csv``).
* :func:`write_manifest`: ``manifest.csv`` maps each submission path to its folder.
* :func:`run_pool`: ``jobs`` grading processes, each grading one submission at a time.  A result
  is handed to ``on_result`` (which writes it, atomically) the moment it arrives.  A grading
  process that dies, or runs past the submission's budget plus a margin, is killed and replaced;
  that submission gets a "not graded" result naming the grader's fault, the others go on.  The
  processes left idle at the end of a batch are kept for this process's next batch (which opens
  its own spec, hidden seed and warm-up in them); :func:`close_pool` stops them.
  When the course's own solution fails (:class:`grading.checks.oracle.CourseSolutionFailed`), the
  batch stops: that is the course's to fix, and its text is for the instructor only.
"""
from __future__ import annotations

import collections
import csv
import io
import os
import time

__all__ = ["output_names", "write_manifest", "run_pool", "close_pool", "GRADER_FILES", "WATCHDOG_MARGIN"]

GRADER_FILES = ("summary.csv", "junit.xml", "manifest.csv")
WATCHDOG_MARGIN = 120.0

from grading.spec.submission import safe_base


def output_names(paths) -> list[str]:
    taken, out = set(), []
    for p in paths:
        base = safe_base(p)
        name, k = base, 1
        while name.casefold() in taken:
            k += 1
            name = f"{base}.{k}"
        taken.add(name.casefold())
        out.append(name)
    return out


def manifest_csv(paths, names) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["submission", "folder"])
    for p, n in zip(paths, names):
        w.writerow([_csv_safe(os.path.abspath(p)), n])
    return buf.getvalue()


def write_manifest(out_dir: str, paths, names) -> None:
    from learners.io import write_text_atomic
    write_text_atomic(os.path.join(out_dir, "manifest.csv"), manifest_csv(paths, names))


def _csv_safe(s: str) -> str:
    """A spreadsheet must not read a cell as a formula, nor a terminal an escape sequence: control
    and formatting characters (ESC, BEL, CR, bidi overrides...) are written escaped."""
    from sandbox.wire import _escape
    s = "".join(ch if ch.isprintable() and ch not in "\\" else _escape(ch) for ch in s)
    return "'" + s if s[:1] in ("=", "+", "-", "@", "\t", "\r") else s


# --- the pool -----------------------------------------------------------------------------------
def _serve(conn):  # pragma: no cover - in the pool
    """A grading process: batches one after another, the submissions of each one at a time.  A
    batch opens with ``("batch", grade_submission, spec_src, base_dir, hide, insecure, hidden_seed,
    shared)`` (``grade_submission`` is handed in by the caller, so this module does not depend on
    the grader; ``shared``: the batch's warm-up, computed once in the parent,
    :mod:`grading.running.warmup`): what the previous batch left in this process's caches is dropped
    first, so a batch is graded exactly as by a fresh process.  ``None``: stop."""
    from sandbox.isolation import IsolationUnavailable
    from grading.checks import shrinks
    from grading.checks.oracle import CourseSolutionFailed
    from grading.spec.spec import load_spec
    from grading.running import warmup
    from sandbox import stop_templates
    spec = grade_submission = base_dir = hide = None
    while True:
        try:
            task = conn.recv()
        except EOFError:
            task = None
        if task is None:        # the workers' template is waited for: its CPU time is this process's
            stop_templates()
            return
        if task[0] == "batch":
            _, grade_submission, spec_src, base_dir, hide, insecure, hidden_seed, shared = task
            warmup.clear()
            shrinks.clear()
            warmup.install(shared)
            spec = load_spec(spec_src)
            spec.limits.insecure = bool(insecure)
            spec.hidden_seed = hidden_seed
            continue
        i, path, name, searches = task
        shrinks.merge(searches, mark=False)      # the other grading processes' searches (grading.checks.shrinks)
        try:
            res = grade_submission(spec, path, name=name, base_dir=base_dir, hide=hide)
            conn.send(("ok", i, res, shrinks.export()))
        except IsolationUnavailable as e:
            conn.send(("refused", i, (e.layer, e.reason), shrinks.export()))
        except CourseSolutionFailed as e:        # the course's, not the student's: stops the batch
            conn.send(("course", i, e.staff_text, shrinks.export()))
        except Exception as e:  # noqa: BLE001 - a fault of the grader: reported, the batch goes on
            conn.send(("fault", i, f"{type(e).__name__}: {str(e)[:300]}", shrinks.export()))


def pool_context():
    """The grading processes' start method: a fork server that has imported the grader's modules
    once (when this process starts it), not once per grading process."""
    import multiprocessing as mp
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(["grading.running._preload", "hypothesis"])
    return ctx


class _Proc:
    def __init__(self, ctx):
        parent, child = ctx.Pipe()
        self.conn = parent
        self.proc = ctx.Process(target=_serve, args=(child,), daemon=True)
        from grading.running.mainless import without_main
        with without_main():
            self.proc.start()
        child.close()
        self.task = None
        self.t0 = 0.0
        self.seen = -1          # the version of the batch's searches this process was sent

    def begin(self, batch):
        """Open a batch in this process (OSError: it is gone)."""
        self.task, self.seen = None, -1
        self.conn.send(("batch",) + batch)

    def kill(self):
        try:
            self.proc.kill()
        except (OSError, AttributeError):
            pass
        self.proc.join(5)
        self.conn.close()


# Grading processes left idle by a batch, taken by this process's next batch: a course grading
# assignment after assignment (or a test suite, batch after batch) pays for starting them, and
# for their sandbox templates, once.  Only a process that finished its every task is kept.
_IDLE: list = []
_EXIT = [False]


def _take(ctx, batch) -> _Proc:
    if not _EXIT[0]:    # registered after multiprocessing's own exit handler, so run before it: the
        import atexit   # idle processes stop on their own (their templates waited for), not terminated
        atexit.register(close_pool)
        _EXIT[0] = True
    while _IDLE:
        p = _IDLE.pop()
        try:
            if p.proc.is_alive():
                p.begin(batch)
                return p
        except (OSError, ValueError):
            pass
        p.kill()
    p = _Proc(ctx)
    p.begin(batch)
    return p


def close_pool() -> None:
    """Stop the idle grading processes and wait for them (their CPU time, and their templates',
    is then counted where the caller measures it)."""
    while _IDLE:
        p = _IDLE.pop()
        try:
            p.conn.send(None)
        except (OSError, ValueError):
            pass
        p.proc.join(5)
        p.kill()


def run_pool(grade_submission, spec_src, paths, names, *, jobs, base_dir, hide, insecure, budget, on_result,
             on_fault, hidden_seed=None, shared=None):
    """Grade ``paths`` in ``jobs`` processes.  ``on_result(i, result)`` for each graded one,
    ``on_fault(i, reason)`` for one the grader failed on -- a grading process that died or hung,
    an internal error, or a worker that could not be isolated although the preflight passed (it
    is not graded, never graded weaker).  ``shared``: the bytes of :func:`grading.running.warmup.snapshot`,
    each grading process's own copy of what every submission needs."""
    from multiprocessing.connection import wait

    from grading.checks import shrinks
    ctx = pool_context()
    batch = (grade_submission, spec_src, base_dir, hide, insecure, hidden_seed, shared)
    shrinks.clear()         # this batch's searches, handed from one grading process to the others
    blobs = {}

    def send(p, i):
        v = shrinks.version()
        blob = None
        if p.seen < v:
            if v not in blobs:
                blobs.clear()
                blobs[v] = shrinks.export(force=True)
            blob, p.seen = blobs[v], v
        p.conn.send((i, paths[i], names[i], blob))

    pending = collections.deque(range(len(paths)))
    procs = [_take(ctx, batch) for _ in range(min(jobs, len(paths)))]
    limit = budget + WATCHDOG_MARGIN
    try:
        while pending or any(p.task is not None for p in procs):
            for k, p in enumerate(procs):
                if p.task is None and pending:
                    i = pending.popleft()
                    try:
                        if not p.proc.is_alive():
                            raise OSError("the grading process is gone")
                        send(p, i)
                    except OSError:          # it died while idle: a new one takes the task
                        p.kill()
                        p = procs[k] = _take(ctx, batch)
                        send(p, i)
                    p.task, p.t0 = i, time.monotonic()
            busy = [p for p in procs if p.task is not None]
            ready = wait([p.conn for p in busy] + [p.proc.sentinel for p in busy], timeout=1.0)
            for k, p in enumerate(procs):
                if p.task is None:
                    continue
                why = None
                if p.conn in ready:
                    try:
                        kind, i, payload, searches = p.conn.recv()
                        shrinks.merge(searches)
                    except (EOFError, OSError):
                        why = f"the grading process died (exit code {p.proc.exitcode})"
                    else:
                        p.task = None
                        if kind == "ok":
                            on_result(i, payload)
                        elif kind == "course":   # no submission is graded against a failing solution
                            from grading.checks.oracle import CourseSolutionFailed
                            raise CourseSolutionFailed(payload)
                        elif kind == "refused":   # after the preflight passed: this worker, not the platform
                            on_fault(i, "the sandbox could not be set up ({}: {})".format(*payload))
                        else:
                            on_fault(i, f"internal error: {payload}")
                        continue
                elif p.proc.sentinel in ready:
                    p.proc.join(1)
                    why = f"the grading process died (exit code {p.proc.exitcode})"
                elif time.monotonic() - p.t0 > limit:
                    why = f"the grading process did not finish within {limit:g} s"
                if why:
                    i = p.task
                    p.kill()
                    procs[k] = _take(ctx, batch)
                    on_fault(i, why)
    finally:
        _release(procs)


def _release(procs) -> None:
    """The end of a batch: a process that finished its every task is kept for the next batch; one
    still busy (the batch stopped on the course's failing solution, or on an error here) is killed."""
    for p in procs:
        if p.task is None and p.proc.is_alive() and not p.conn.closed:
            _IDLE.append(p)
        else:
            p.kill()
