"""bench/RESULTS.md, the one place measured figures live: every benchmark script appends its rows here.

A figure means little without the state of the machine that produced it, so each row carries the
date, the machine (processor, cores, Python), the load average before and after the run, and a
gauge of how fast the host's cores ran (CPU seconds of 10^7 Python additions, before and after;
lower is faster: the same shared machine reads 0.8 s at a quiet moment and 1.9 s at a busy one).
The README and docs link here instead of quoting figures in prose, so nothing goes stale unseen.

    run = Run("bench_verify.py")            # load average and gauge read now
    run.add("cold verify, best wall", "3.46 s", goal="<= 5 s")
    run.write()                              # load and gauge read again; rows appended

``MISTAKEBOUND_BENCH_RESULTS`` names another file (the tests write to a temporary one).
"""
from __future__ import annotations

import datetime
import os
import platform
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().with_name("RESULTS.md")
HEAD = """# Measured figures

Written by the benchmark scripts in `bench/` (through `bench/results.py`), never by hand: each run
appends one row per figure, with the date, the machine, the load average before and after the run,
and a gauge of the host's core speed (CPU seconds of 10^7 Python additions, before / after; lower
is faster). Goals are stated for a quiet 2-core machine; a row measured under load says so in its
load and gauge columns. Run a script again to add a row: `python bench/bench_verify.py`.
"""
COLUMNS = ("date (UTC)", "figure", "value", "goal", "machine", "load before → after", "gauge before / after")


def gauge() -> float:
    """CPU seconds of a fixed pure-Python loop (10^7 additions at module level): how fast this host's
    cores run right now, quoted with every figure."""
    g = {"time": time}
    exec("t = time.process_time()\ns = 0\nfor i in range(10 ** 7):\n    s += i\nd = time.process_time() - t", g)
    return g["d"]


def machine() -> str:
    """Processor model, cores, Python and OS, in one short cell."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


class Run:
    """One run of one benchmark script: the machine's state at its start, the figures it measured."""

    def __init__(self, script: str, *, with_gauge: bool = True):
        self.script = script
        self.date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
        self.load0 = os.getloadavg()[0]
        self.with_gauge = with_gauge
        self.gauge0 = gauge() if with_gauge else None
        self.rows: list[tuple[str, str, str]] = []

    def add(self, figure: str, value: str, goal: str = "") -> None:
        self.rows.append((figure, value, goal))

    def write(self, path: Path | str | None = None) -> Path:
        """Append this run's rows to its script's table (made on first use); returns the file."""
        path = Path(path or os.environ.get("MISTAKEBOUND_BENCH_RESULTS") or RESULTS)
        load1 = os.getloadavg()[0]
        g = (f"{self.gauge0:.2f} / {gauge():.2f} s" if self.with_gauge else "-")
        state = (self.date, machine(), f"{self.load0:.2f} → {load1:.2f}", g)
        lines = ["| " + " | ".join(_cell(c) for c in (state[0], fig, val, goal, *state[1:])) + " |"
                 for fig, val, goal in self.rows]
        text = path.read_text(encoding="utf-8") if path.exists() else HEAD
        text = _insert(text, f"## {self.script}", lines)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
        print(f"figures appended to {path} ({len(lines)} rows)")
        return path


def _insert(text: str, head: str, rows: list[str]) -> str:
    """``text`` with ``rows`` appended to the table under ``head`` (a new section at the end if none)."""
    lines = text.rstrip("\n").split("\n")
    if head not in lines:
        table = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
        return "\n".join(lines + ["", head, ""] + table + rows) + "\n"
    i = lines.index(head) + 1
    while i < len(lines) and not lines[i].startswith("## "):
        i += 1
    j = i
    while j > 0 and not lines[j - 1].strip():            # after the section's last non-blank line
        j -= 1
    return "\n".join(lines[:j] + rows + lines[j:]) + "\n"
