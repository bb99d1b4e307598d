"""Child processes for the engines: cvc5 (the second opinion) and z3 for the non-vacuity checks.

One JSON request per line in, one answer per line out.  Requests are pipelined: :meth:`submit`
returns at once (the child solves while this process goes on: the machine's two cores work
together), :meth:`result` waits for one answer with a wall-clock deadline; past it the child is
killed (the verdict is then "unknown", never "proved") and the requests still queued go to a
fresh child.
"""
from __future__ import annotations

import atexit
import time

__all__ = ["Worker", "CVC5", "NONVACUITY", "shutdown"]


class Worker:
    """A long-lived child process running a worker module (one JSON request per line).

    Requests are pipelined: :meth:`submit` returns at once (the child solves while this process
    goes on with z3 and sympy -- the two run on two cores), :meth:`result` waits for one answer
    with a wall-clock deadline; past it the child is killed (verdict unknown) and the requests
    still queued are resubmitted to a fresh child."""

    def __init__(self, module: str):
        self.module = module
        self.proc = None
        self.queue: list[int] = []          # tickets sent to the current child, in order
        self.requests: dict[int, tuple[str, int]] = {}
        self.answers: dict[int, dict | None] = {}
        self.next_ticket = 0
        self.last_progress = 0.0

    def _start(self):
        import os
        import subprocess
        import sys
        env = dict(os.environ)
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        self.proc = subprocess.Popen([sys.executable, "-m", self.module], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0, env=env)
        os.set_blocking(self.proc.stdin.fileno(), False)    # a full pipe must not block us: see _write
        self.buf = b""
        self.queue = []
        self.last_progress = time.monotonic()

    def kill(self):
        if self.proc is not None:
            try:
                self.proc.kill()
                self.proc.wait(timeout=2)
            except Exception:
                pass
            self.proc = None

    def _send(self, ticket: int) -> None:
        import json
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        payload, timeout_ms = self.requests[ticket]
        if not self.queue:
            self.last_progress = time.monotonic()
        self.queue.append(ticket)
        self._write((json.dumps(payload) + "\n").encode())

    def _write(self, data: bytes) -> None:
        """Write a request without deadlocking: while the child's input pipe is full (the child is
        blocked writing answers nobody reads yet), read its answers into ``answers``."""
        import os
        import select
        view = memoryview(data)
        fd = self.proc.stdin.fileno()
        while view:
            try:
                view = view[os.write(fd, view):]
                continue
            except BlockingIOError:
                pass
            readable, _, _ = select.select([self.proc.stdout], [self.proc.stdin], [], 1.0)
            if readable:
                self._drain()

    def _drain(self) -> None:
        """Answers the child has written so far, each to the ticket at the head of the queue."""
        import json
        import os
        chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
        if not chunk:
            raise BrokenPipeError("the child closed its output")
        self.buf += chunk
        while b"\n" in self.buf and self.queue:
            line, self.buf = self.buf.split(b"\n", 1)
            self.answers[self.queue.pop(0)] = json.loads(line)
            self.last_progress = time.monotonic()

    def submit(self, payload: dict, timeout_ms: int) -> int:
        t = self.next_ticket
        self.next_ticket += 1
        self.requests[t] = (payload, int(timeout_ms))
        try:
            self._send(t)
        except (BrokenPipeError, OSError):
            self.kill()
            self.answers[t] = None
        return t

    def _line(self, left: float):
        """One answer line from the child, b"" at EOF, None when ``left`` seconds pass first.
        Reads the raw pipe (no Python-level buffering that select() could not see)."""
        import os
        import select
        end = time.monotonic() + left
        while b"\n" not in self.buf:
            wait = max(end - time.monotonic(), 0.0)       # always look at the pipe at least once
            if not select.select([self.proc.stdout], [], [], wait)[0]:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
            if not chunk:
                return b""
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    def result(self, ticket: int) -> dict | None:
        import json
        wait_start = time.monotonic()
        while ticket not in self.answers:
            if self.proc is None or not self.queue:
                self.answers[ticket] = None
                break
            head = self.queue[0]
            # the child works while this process is busy elsewhere: count from when we began waiting
            deadline = max(self.last_progress, wait_start) + self.requests[head][1] / 1000 + 2.0
            line = self._line(max(deadline - time.monotonic(), 0))
            if line:
                self.last_progress = time.monotonic()
                self.queue.pop(0)
                self.answers[head] = json.loads(line)
            elif line == b"":                       # the child died
                self.queue.pop(0)
                self.answers[head] = None
                self._restart_rest()
            else:                                   # the head request is stuck: kill, resubmit the rest
                self.queue.pop(0)
                self.answers[head] = None
                self._restart_rest()
        self.requests.pop(ticket, None)
        return self.answers.pop(ticket)

    def _restart_rest(self):
        rest = list(self.queue)
        self.kill()
        self.queue = []
        for t in rest:
            try:
                self._send(t)
            except (BrokenPipeError, OSError):
                self.answers[t] = None



# two cvc5 children (cvc5 is the slowest engine on the nonlinear problems; requests are dealt
# round-robin) and one z3 child for the non-vacuity checks
CVC5 = [Worker("proofs.cvc5_worker"), Worker("proofs.cvc5_worker")]
NONVACUITY = Worker("proofs.nonvacuity_worker")


def shutdown() -> None:
    """Stop the child processes (also done at interpreter exit)."""
    for w in CVC5 + [NONVACUITY]:
        w.kill()


atexit.register(shutdown)
