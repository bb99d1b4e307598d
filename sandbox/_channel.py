"""The grader's end of the pipes to a worker: every descriptor non-blocking, every wait with a
deadline (a worker that stops reading its requests, floods its output or answers out of turn
costs only its own call), the printed output drained from a pipe and capped, and the budget of
the worker's whole process tree checked while the grader waits.  Mixed into
:class:`sandbox.worker.Worker`."""
from __future__ import annotations

import os
import select
import signal
import subprocess
import time

from sandbox import wire
from sandbox.limits import CallResult, describe_exit

__all__ = ["Channel"]

START_TIMEOUT = 10.0


class Channel:
    # --- the channel --------------------------------------------------------------------
    # Every descriptor is non-blocking and every wait has a deadline: a worker that stops reading
    # its requests, floods its output or answers out of turn costs only its own call.
    OUTPUT_KEEP = 1 << 14

    def _drain_output(self) -> None:
        fd = getattr(self, "out_r", None)
        while fd is not None:
            try:
                chunk = os.read(fd, 1 << 16)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                return
            if not chunk:
                return
            self._printed_total += len(chunk)
            if len(self._printed) < self.OUTPUT_KEEP:
                self._printed += chunk[: self.OUTPUT_KEEP - len(self._printed)]

    def _output_over(self) -> bool:
        return self._printed_total > self.limits.file_size_mb * (1 << 20)

    def _tick(self, deadline: float) -> CallResult | None:
        """Between waits: the output cap and the process tree's CPU budget."""
        self._drain_output()
        if self._output_over():
            return CallResult(error="output", message=f"output limit exceeded ({self.limits.file_size_mb:g} MB of "
                              "printing)")
        g = getattr(self, "group", None)
        if g is not None:
            cpu = g.cpu_seconds()
            if cpu is not None and cpu > self.limits.cpu_seconds:
                return CallResult(error="crash", message=f"CPU time limit exceeded ({self.limits.cpu_seconds:g} s for "
                                  "all its processes together)")
        return None

    def tree_tasks(self) -> int | None:
        """Threads in the worker's whole process tree now (its control group, or its one process)."""
        g = getattr(self, "group", None)
        if g is not None:
            return g.tasks()
        from sandbox._cgroup import tasks_of_pid
        return tasks_of_pid(self._inner) if self.alive else None

    def tree_running(self) -> int | None:
        """Threads of the worker's tree that are working now: running, or runnable and waiting
        for a CPU (on a loaded machine a working thread may get little CPU in a moment)."""
        from sandbox._cgroup import running, tids_of_pid
        g = getattr(self, "group", None)
        if g is not None:
            return running(g.tids())
        return running(tids_of_pid(self._inner)) if self.alive else None

    def settle(self, tasks_before: int | None, deadline: float, grace: float = 0.5) -> bool:
        """After an answer, before its cost is read: wait until the tree is at rest again -- no CPU
        being spent, and no thread or process started since ``tasks_before`` was counted still
        alive (for ``grace`` seconds at most: an idle thread pool may stay) -- so that the work a
        call set going (a thread still computing, a child, a thread that starts late) is all in the
        figure read next.  At rest means no thread running or waiting for a CPU, and (between two
        looks) almost no CPU spent: on a loaded machine a thread that works may get a small share of
        a CPU for a while, so the rate of CPU spent alone does not tell work from rest.  False when
        it was still busy at ``deadline``: the worker is then killed."""
        step, last = 0.002, self.cpu_seconds()
        rest = getattr(self, "_rest", None)
        if rest is not None and last is not None and last == rest[0] and rest[1] is self.proc and \
                (tasks_before is None or (self.tree_tasks() or 0) <= tasks_before):
            return True         # not one CPU-nanosecond spent since the tree was last seen at rest
        t0 = time.monotonic()
        while True:
            time.sleep(step)
            now, n = self.cpu_seconds(), self.tree_tasks()
            idle = (now is None or last is None or now - last < 0.2 * step) and not self.tree_running()
            if idle and (n is None or tasks_before is None or n <= tasks_before or time.monotonic() - t0 >= grace):
                self._rest = (now, self.proc)
                return True
            if time.monotonic() >= deadline or not self.alive:
                self.kill()
                return False
            last, step = now, min(2 * step, 0.05)

    def _write(self, obj, deadline: float | None = None) -> None:
        """Send one message; raises OSError when the worker is gone, TimeoutError when it does not
        take the message by ``deadline``."""
        import json
        data = (json.dumps(obj) + "\n").encode()
        view = memoryview(data)
        deadline = deadline if deadline is not None else time.monotonic() + START_TIMEOUT
        while view:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the worker did not read its request")
            outs = [self.out_r] if self.out_r is not None else []
            r, w, _ = select.select(outs, [self.req_w], [], min(left, 0.25))
            if r:
                self._drain_output()
                if self._output_over():
                    raise TimeoutError("output limit")
            if not w:
                continue
            try:
                n = os.write(self.req_w, view)
            except BlockingIOError:
                continue
            view = view[n:]

    def _read(self, deadline: float):
        """The next message as a JSON value, or a CallResult (timeout, crash, bad message)."""
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return CallResult(error="timeout", message=f"time limit exceeded ({self._limit:.3g} s wall clock)")
            fds = [self.resp_r] + ([self.out_r] if self.out_r is not None else [])
            r, _, _ = select.select(fds, [], [], min(left, 0.25))
            over = self._tick(deadline)
            if over is not None:
                return over
            if self.resp_r not in r:
                continue
            try:
                chunk = os.read(self.resp_r, 1 << 16)
            except (BlockingIOError, InterruptedError):
                continue
            if not chunk:
                try:
                    rc = self.proc.wait(timeout=2)
                except subprocess.TimeoutExpired:
                    rc = None
                self._drain_output()
                return CallResult(error="crash", message=self._exit_words(rc))
            self._buf += chunk
            if len(self._buf) > wire.MAX_MESSAGE and b"\n" not in self._buf:
                return CallResult(error="bad-return", message=f"the answer is larger than "
                                  f"{wire.MAX_MESSAGE >> 20} MiB (the grader's limit for one answer)")
        line, self._buf = self._buf.split(b"\n", 1)
        try:
            return wire.decode(line)
        except wire.WireError as e:
            return CallResult(error="bad-return", message=str(e))

    def _exit_words(self, rc) -> str:
        g = getattr(self, "group", None)
        if g is not None and rc is not None and rc < 0 and -rc in (signal.SIGKILL, signal.SIGXCPU):
            if g.memory_hit():
                return f"memory limit reached ({self.tree_memory_mb()} MB for all its processes together)"
        if self._output_over():
            return f"output limit exceeded ({self.limits.file_size_mb:g} MB of printing)"
        return describe_exit(rc, self.limits)

    def _ahead(self) -> bool:
        """Did the worker send something before it was asked (an answer ahead of its request)?"""
        if self._buf:
            return True
        try:
            r, _, _ = select.select([self.resp_r], [], [], 0)
            if not r:
                return False
            chunk = os.read(self.resp_r, 1 << 16)
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            return False
        self._buf += chunk
        return bool(chunk)

