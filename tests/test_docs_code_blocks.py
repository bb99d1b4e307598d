"""Every code block of README.md and docs/*.md runs: a ```python block as a script in a temporary
directory; a ```console block's ``$ `` commands one after the other in a temporary directory where the
package's files are at their repository paths (``mistakebound/examples/...``; ``mistakebound`` is
this checkout's ``python -m mistakebound``), each exit code checked (0, or
the code its comment states: ``# exit 1: refuted``).  Commands that are too slow are marked slow
(still run in CI); those that need software or data a reader provides are skipped with the
reason, in the tables below.  The output a block shows under a command is compared with what the
command prints (standard output, alone or with standard error before or after it): a line ``...`` stands for any number of
lines, and ``...`` inside a line for any text on it (times, paths, figures that depend on the
machine), as in doctest's ELLIPSIS.  A command shown without output is only run.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
FENCE = re.compile(r"^```(python|console)[^\n]*\n(.*?)^```", re.M | re.S)
EXIT = re.compile(r"#\s*exit(?: code)? (\d+)")

# commands (by their start) a test cannot run, and why
SKIP = {
    "apt-get install": "installs system packages",
    "mistakebound grade --assignment perceptron alice": "grades the reader's submissions (alice/, bob.py, ...)",
    "mistakebound grade --gradescope ": "runs inside Gradescope's container (/autograder)",
    "mistakebound adversary table": "run with its defaults by tests/adversary/test_adversary_tightness.py::"
                                    "test_table_with_defaults_exits_0_and_every_row_is_tight",
    "cat results/manifest.csv": "reads the output of a grading run above",
    "python -m proofs.verify.runner ID": "ID stands for a theorem id (the block shows the form of the command)",
    # run once per session, through the same entry point, by the Coq tests
    "python -m coq coqchk": "run by tests/coq/test_coq_build.py::test_coqchk_rechecks_the_whole_build",
    "python -m coq differential": "run by tests/coq/test_coq_differential.py (the same 1200 sequences)",
    "mistakebound verify --coq": "run by tests/coq/test_coq_build.py::test_verify_coq_cli (the same command, on the "
                                 "session's one Coq build)",
}
# commands that run for more than about a minute on a loaded machine (still run in CI)
SLOW = ("mistakebound verify -q", "mistakebound verify --coq", "python -m proofs.verify.docs", "python -m coq differential",
        "mistakebound adversary winnow --n 1024", "mistakebound adversary winnow --n 16",
        "mistakebound check-bound", "mistakebound kernel", "mistakebound catalogue", "mistakebound verify --show",
        "mistakebound verify --file")
NEEDS_COQ = ("mistakebound verify --coq", "python -m coq differential")
# python blocks (by the hash of their text) that are fragments of a larger program, and why
FRAGMENTS: dict[str, str] = {
    "169a1cc21bf0d8df": "a fragment on the reader's own data (X, y and a target w_star are not defined)",
}


def _blocks():
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            line = text[:m.start()].count("\n") + 1
            yield doc.relative_to(ROOT).as_posix(), line, m.group(1), m.group(2)


def _commands():
    for doc, line, kind, body in _blocks():
        if kind != "console":
            continue
        cmds = [c for c in _shown(body) if c[0].strip() != "echo $?"]
        marks = [pytest.mark.slow] if any(c.startswith(SLOW) for c, _ in cmds) else []
        if any(c.startswith(NEEDS_COQ) for c, _ in cmds):
            marks.append(pytest.mark.xdist_group("coq"))     # the session's one Coq build, in one worker
        yield pytest.param(doc, line, cmds, id=f"{doc}:{line}", marks=marks)


def _shown(body: str) -> list[tuple[str, list[str]]]:
    """A console block's commands, each with the output lines shown under it."""
    out: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            out.append((line[2:], []))
        elif out:
            out[-1][1].append(line.rstrip())
    return [(c, _trim(shown)) for c, shown in out]


def _trim(lines: list[str]) -> list[str]:
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return lines


def matches(shown: list[str], got: list[str]) -> bool:
    """Whether the printed lines ``got`` are what ``shown`` shows (``...`` lines and ``...`` in a line
    stand for anything)."""
    pats = [None if s.strip() == "..." else re.compile(".*".join(map(re.escape, s.split("..."))) + r"\Z")
            for s in shown]
    memo: dict = {}

    def go(i: int, j: int) -> bool:
        if (i, j) not in memo:
            if i == len(pats):
                memo[i, j] = j == len(got)
            elif pats[i] is None:
                memo[i, j] = go(i + 1, j) or (j < len(got) and go(i, j + 1))
            else:
                memo[i, j] = j < len(got) and bool(pats[i].match(got[j])) and go(i + 1, j + 1)
        return memo[i, j]
    return go(0, 0)


def test_the_output_matcher_can_fail():
    assert matches(["a ... b", "...", "end"], ["a 1.5 s b", "x", "y", "end"])
    assert matches(["...", "end"], ["end"])
    assert not matches(["a ... b", "end"], ["a 1 c", "end"])
    assert not matches(["exact line"], ["exact line", "one more"])
    assert not matches(["one", "two"], ["two", "one"])


def _pythons():
    for doc, line, kind, body in _blocks():
        if kind == "python":
            yield pytest.param(doc, line, body, id=f"{doc}:{line}", marks=[pytest.mark.slow])


def _env(tmp_path) -> dict:
    bin_dir = tmp_path / ".bin"
    bin_dir.mkdir()
    shim = bin_dir / "mistakebound"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m mistakebound "$@"\n')
    shim.chmod(0o755)
    # the package's own files at their repository paths (mistakebound/examples/..., grading/examples/...)
    for part in ("mistakebound", "grading"):
        (tmp_path / part).symlink_to(ROOT / part, target_is_directory=True)
    env = dict(os.environ, PYTHONPATH=str(ROOT), PATH=os.pathsep.join([str(bin_dir), os.path.dirname(sys.executable), os.environ.get("PATH", "")]))
    env.setdefault("XDG_CACHE_HOME", str(tmp_path / ".cache"))
    return env


def test_the_docs_have_code_blocks():
    kinds = [k for _, _, k, _ in _blocks()]
    assert kinds.count("console") >= 10 and kinds.count("python") >= 4


@pytest.mark.parametrize("doc, line, cmds", list(_commands()))
def test_console_block(doc, line, cmds, tmp_path):
    env = _env(tmp_path)
    ran = 0
    for cmd, shown in cmds:
        skip = next((why for start, why in SKIP.items() if cmd.startswith(start)), None)
        if skip:
            continue
        if cmd.startswith(NEEDS_COQ) and shutil.which("coqc") is None:
            if os.environ.get("CI"):
                pytest.fail(f"{doc}:{line}: {cmd!r} needs coqc, which CI installs")
            continue
        m = EXIT.search(cmd)
        want = int(m.group(1)) if m else 0
        p = subprocess.run(["bash", "-c", cmd], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=1800)
        assert p.returncode == want, (f"{doc}:{line}: `{cmd}` exited {p.returncode}, the doc says {want}\n"
                                      f"{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
        if shown:
            out, err = ([ln.rstrip() for ln in t.splitlines()] for t in (p.stdout, p.stderr))
            got = _trim(out + err)
            assert any(matches(shown, _trim(g)) for g in (out, out + err, err + out)), (f"{doc}:{line}: `{cmd}` printed what the doc does not show.\n"
                                         "--- the doc shows:\n" + "\n".join(shown)
                                         + "\n--- the command printed:\n" + "\n".join(got[:80]))
        ran += 1
    if not ran:
        pytest.skip(f"{doc}:{line}: every command needs what a test cannot provide: "
                    + "; ".join(sorted({w for c, _ in cmds for s, w in SKIP.items() if c.startswith(s)}) or {"coqc"}))


@pytest.mark.parametrize("doc, line, body", list(_pythons()))
def test_python_block(doc, line, body, tmp_path):
    key = hashlib.sha256(body.encode()).hexdigest()[:16]
    if key in FRAGMENTS:
        pytest.skip(f"{doc}:{line}: {FRAGMENTS[key]}")
    script = tmp_path / "block.py"
    script.write_text(body)
    p = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=_env(tmp_path), capture_output=True,
                       text=True, timeout=1800)
    assert p.returncode == 0, f"{doc}:{line} (block {key}) failed:\n{p.stderr[-3000:]}"
    # exit 0 is not enough: a child process that died (a script re-run by multiprocessing, say) must not pass
    assert "Traceback (most recent call last)" not in p.stderr, f"{doc}:{line} (block {key}):\n{p.stderr[-3000:]}"


TOML = re.compile(r"^```toml[^\n]*\n(.*?)^```", re.M | re.S)


def _tomls():
    for doc in sorted((ROOT / "docs").glob("grading*.md")):
        text = doc.read_text(encoding="utf-8")
        for m in TOML.finditer(text):
            line = text[:m.start()].count("\n") + 1
            yield pytest.param(m.group(1), id=f"docs/{doc.name}:{line}")


@pytest.mark.parametrize("body", list(_tomls()))
def test_toml_block_of_the_grading_docs_loads(body, tmp_path):
    """A spec block loads as printed (beside the package's examples, for its ../examples paths); a
    [contract] block alone loads under the smallest [assignment] it fits."""
    from grading.spec.spec import ALGORITHMS, load_spec
    (tmp_path / "examples").symlink_to(ROOT / "grading" / "examples", target_is_directory=True)
    (tmp_path / "assignments").mkdir()
    spec = tmp_path / "assignments" / "block.toml"
    tests = "" if "[tests." in body else "\n[tests.one_example]\npoints = 1\n"
    if "[assignment]" in body:
        spec.write_text(body + tests)
        load_spec(str(spec))
        return
    errors = []
    for alg in ALGORITHMS:
        for bias in (["bias = true\n", "bias = false\n"] if alg == "perceptron" else [""]):
            spec.write_text(f'[assignment]\nalgorithm = "{alg}"\n{bias}' + body + tests)
            try:
                load_spec(str(spec))
                return
            except Exception as e:  # noqa: BLE001 - collected: the block must load under one of them
                errors.append(f"{alg} {bias.strip()}: {e}")
    pytest.fail("the block loads under no [assignment]:\n" + "\n".join(errors))
