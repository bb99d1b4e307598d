"""Reading data sets from CSV: the last column is the label; one header row (no cell a number) is allowed.

Numbers are read exactly (``"0.2"`` is 1/5) and handed to the learners, which convert them to
float64 in float mode.  Errors name the file, the line and the problem.
"""
from __future__ import annotations

import csv
import os
from fractions import Fraction

from learners.errors import InputError

__all__ = ["read_csv", "write_text_atomic", "REPORT_MODE"]


def _num(s):
    try:
        return Fraction(s.strip())
    except (ValueError, ZeroDivisionError):
        return None


def read_csv(path):
    """Return (rows of Fractions, labels as Fractions, header or None)."""
    p = os.fspath(path)
    if not os.path.exists(p):
        raise InputError(f"{p}: no such file")
    if os.path.isdir(p):
        raise InputError(f"{p}: is a directory, not a CSV file")
    try:
        with open(p, newline="", encoding="utf-8") as fh:
            lines = [r for r in csv.reader(fh) if any(c.strip() for c in r)]
    except UnicodeDecodeError:
        raise InputError(f"{p}: not a text file (UTF-8 expected)") from None
    except csv.Error as e:
        raise InputError(f"{p}: not a valid CSV file ({e})") from None
    if not lines:
        raise InputError(f"{p}: empty file, no examples")
    header = None
    if all(_num(c) is None for c in lines[0]):  # a header row: no cell is a number
        header = [c.strip() for c in lines[0]]
        lines = lines[1:]
        if not lines:
            raise InputError(f"{p}: only a header row, no examples")
    width = len(lines[0])
    if width < 2:
        raise InputError(f"{p}: each row needs at least one feature and a label (got {width} column)")
    if header is not None and len(header) != width:
        raise InputError(f"{p}: the header has {len(header)} columns, the data {width}")
    rows, labels = [], []
    for k, r in enumerate(lines):
        line_no = k + (2 if header is not None else 1)
        if len(r) != width:
            raise InputError(f"{p}: line {line_no} has {len(r)} columns, expected {width} (ragged rows)")
        vals = []
        for j, c in enumerate(r):
            v = _num(c)
            if v is None:
                raise InputError(f"{p}: line {line_no}, column {j + 1}: {c.strip()!r} is not a number")
            vals.append(v)
        rows.append(vals[:-1])
        labels.append(vals[-1])
    return rows, labels, header


REPORT_MODE = 0o644


def write_text_atomic(path, text: str, mode: int = REPORT_MODE) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same directory renamed into
    place: a reader never sees a half-written file, and a failure leaves nothing behind.  The one
    writer every part uses (the CLI, adversary sequence files, grading reports).  The file gets
    ``mode`` (0644 by default: readable by the group and others, like a file the shell writes
    under the usual umask; a temporary file alone would be 0600)."""
    import tempfile
    path = os.fspath(path)
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".tmp-", suffix=os.path.basename(path))
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
