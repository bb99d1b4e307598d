"""The parent side of the worker template (``_template_child.py``): one preloaded interpreter per
grading process and per set of preloaded packages, asked for one forked worker per start.

:func:`spawn` returns a :class:`Forked` -- what :class:`subprocess.Popen` is to a freshly started
worker: ``pid``, ``poll()``, ``wait()``, ``returncode`` (negative: the signal that ended it).  The
child is the template's, not this process's: it is watched through a pidfd the template opened
before the child could end (so the pid cannot have been reused), and its exit status comes from
the template, which reaps it.

A template that cannot be started, that refuses (a preloaded package that needs more than the
worker's view shows) or that stops answering is not used again: workers are then started afresh,
as before.  The template never weakens a worker: the forked child sets up every isolation layer
itself, and the grader checks it from outside, exactly as for a fresh worker.
"""
from __future__ import annotations

import atexit
import json
import os
import select
import socket
import subprocess
import sys
import time

__all__ = ["spawn", "stop_all", "Forked", "ENABLED"]

CHILD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_child.py")
# MISTAKEBOUND_SANDBOX_TEMPLATE=0 starts every worker afresh (the comparison in bench/)
ENABLED = os.environ.get("MISTAKEBOUND_SANDBOX_TEMPLATE", "1") != "0"
PRELOAD = ("numpy",)          # preloaded when the spec allows it (what nearly every submission imports)
_TEMPLATES: dict = {}
_BROKEN: set = set()


class TemplateGone(Exception):
    pass


class Template:
    def __init__(self, cfg: dict, env: dict, timeout: float):
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-I", "-S", "-B", "-u", CHILD, "--template", str(theirs.fileno())],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd="/",
                pass_fds=(theirs.fileno(),), close_fds=True)
        finally:
            theirs.close()
        self.sock = mine
        self.exits: dict[int, int] = {}
        self.sock.send(json.dumps(cfg).encode())
        msg = self._next(time.monotonic() + timeout, want_fds=True)[0]
        if not isinstance(msg, dict) or msg.get("template") is not True:
            self.close()
            raise TemplateGone(str(msg.get("reason") if isinstance(msg, dict) else "no answer")[:300])

    def _next(self, deadline: float, want_fds: bool = False):
        """The template's next message (exit reports on the way are kept)."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.sock], [], [], left)[0]:
                raise TemplateGone("the template did not answer")
            try:
                data, fds, _, _ = socket.recv_fds(self.sock, 1 << 16, 1)
            except OSError as e:
                raise TemplateGone(str(e)) from None
            if not data:
                raise TemplateGone("the template ended")
            msg = json.loads(data)
            if isinstance(msg, dict) and "exit" in msg:
                for f in fds:
                    os.close(f)
                self.exits[int(msg["exit"])] = int(msg["rc"])
                if not want_fds:
                    return None
                continue
            if want_fds:
                return msg, fds
            for f in fds:
                os.close(f)
            return msg

    def fork(self, cwd: str, fds, timeout: float) -> "Forked":
        try:
            socket.send_fds(self.sock, [json.dumps({"cwd": cwd}).encode()], list(fds))
        except OSError as e:
            raise TemplateGone(str(e)) from None
        msg, got = self._next(time.monotonic() + timeout, want_fds=True)
        if not isinstance(msg, dict) or not isinstance(msg.get("pid"), int) or len(got) != 1:
            for f in got:
                os.close(f)
            raise TemplateGone("the template could not fork")
        self.exits.pop(msg["pid"], None)      # an earlier process of the same pid, already reaped
        return Forked(msg["pid"], got[0], self)

    def exit_status(self, pid: int, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        try:
            while pid not in self.exits:
                self._next(deadline)
        except (TemplateGone, ValueError):
            return -9
        return self.exits.pop(pid)

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Forked:
    """A worker forked by the template, watched like a Popen."""

    def __init__(self, pid: int, pidfd: int, template: Template):
        self.pid = pid
        self.pidfd = pidfd
        self.template = template
        self.returncode: int | None = None
        self.args = ["worker", str(pid)]

    def poll(self) -> int | None:
        if self.returncode is None and self.pidfd is not None and select.select([self.pidfd], [], [], 0)[0]:
            self._ended()
        return self.returncode

    def _ended(self) -> None:
        self.returncode = self.template.exit_status(self.pid, 5.0)
        os.close(self.pidfd)
        self.pidfd = None

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None and self.pidfd is not None:
            if not select.select([self.pidfd], [], [], timeout)[0]:
                raise subprocess.TimeoutExpired(self.args, timeout)
            self._ended()
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.pidfd is not None:
            import signal
            try:
                signal.pidfd_send_signal(self.pidfd, sig)
            except ProcessLookupError:
                pass

    def kill(self) -> None:
        import signal
        self.send_signal(signal.SIGKILL)

    def __del__(self):
        if self.pidfd is not None:
            try:
                os.close(self.pidfd)
            except OSError:
                pass


def spawn(key: tuple, cfg: dict, env: dict, cwd: str, fds, timeout: float) -> Forked | None:
    """A worker forked from this process's template for ``key`` (started on first use), or None
    when no template can serve (the caller starts the worker afresh)."""
    if not ENABLED or key in _BROKEN:
        return None
    t = _TEMPLATES.get(key)
    try:
        if t is None or t.proc.poll() is not None:
            t = _TEMPLATES[key] = Template(cfg, env, timeout)
        return t.fork(cwd, fds, timeout)
    except (TemplateGone, OSError, ValueError):
        _BROKEN.add(key)
        old = _TEMPLATES.pop(key, None)
        if old is not None:
            old.close()
        return None


def stop_all() -> None:
    """Close every template of this process and wait for it (its CPU time is then counted)."""
    while _TEMPLATES:
        _, t = _TEMPLATES.popitem()
        t.close()


atexit.register(stop_all)
