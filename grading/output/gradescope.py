"""``grade --gradescope-zip``: a Gradescope autograder archive for one spec.

Gradescope's autograder specification (gradescope-autograders.readthedocs.io, "Autograder
Specifications"): a zip with ``setup.sh`` and ``run_autograder`` at its root; the zip is
extracted into ``/autograder/source``, ``setup.sh`` runs once (as root) when the image is built,
``run_autograder`` is copied to ``/autograder/run_autograder`` and runs once per submission, with
the submission in ``/autograder/submission``; it must write ``/autograder/results/results.json``.
Each submission gets its own container, so a course of thousands runs on Gradescope's fleet.

The archive holds::

    setup.sh          installs Python >= 3.11 if needed, a virtual environment, this package
    run_autograder    mistakebound grade --gradescope (the bundled package, the bundled spec)
    spec.toml         the assignment spec
    mistakebound/     this package's source (pyproject.toml, learners/ ... grading/ ...): from the
                      source tree, or -- installed from a wheel -- the installed distribution's own
                      files and a pyproject.toml written from its metadata

``run_autograder`` honours ``AUTOGRADER_ROOT`` (default ``/autograder``) and
``MISTAKEBOUND_PYTHON`` (default: the environment setup.sh made), so the archive can be run
locally in Gradescope's directory layout (tests/test_grading_contract_gradescope.py does).
"""
from __future__ import annotations

import os
import stat
import tempfile
import zipfile

from learners.errors import InputError

from sandbox.worker import project_root
from grading.spec.spec import load_spec

__all__ = ["build_autograder", "PACKAGES"]

PACKAGES = ("learners", "proofs", "coq", "adversary", "refutation", "sandbox", "grading", "mistakebound")
_DATA = (".py", ".toml", ".json", ".csv", ".txt", ".md", ".v", "_CoqProject")
DIST = "mistakebound"

SETUP_SH = """#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image.
set -eu
VENV="${MISTAKEBOUND_VENV:-/opt/mistakebound}"
SRC="$(cd "$(dirname "$0")" && pwd)"
PY=python3
if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    apt-get update
    apt-get install -y python3.11 python3.11-venv
    PY=python3.11
elif ! python3 -m venv --help >/dev/null 2>&1; then
    apt-get update
    apt-get install -y python3-venv
fi
"$PY" -m venv "$VENV"
"$VENV/bin/pip" install --upgrade pip
"$VENV/bin/pip" install "$SRC/mistakebound"
"$VENV/bin/python" -m mistakebound grade --help >/dev/null
"""

RUN_AUTOGRADER = """#!/usr/bin/env bash
# Gradescope runs this once per submission (in a fresh container, as root).
set -u
ROOT="${AUTOGRADER_ROOT:-/autograder}"
PY="${MISTAKEBOUND_PYTHON:-${MISTAKEBOUND_VENV:-/opt/mistakebound}/bin/python}"
[ -x "$PY" ] || PY=python3
mkdir -p "$ROOT/results"
cd "$ROOT/source/mistakebound"
"$PY" -m mistakebound grade --gradescope --gradescope-root "$ROOT" --assignment "$ROOT/source/spec.toml" \\
    --no-progress
status=$?
if [ ! -s "$ROOT/results/results.json" ]; then
    printf '{"score": 0, "output": "The autograder could not grade this submission (exit status %s); the course staff can see why in the autograder output.", "tests": []}\\n' "$status" > "$ROOT/results/results.json"
fi
exit 0
"""


def _files(root: str):
    """(path in the archive, path on disk) of the package's source."""
    for name in ("pyproject.toml", "README.md"):
        p = os.path.join(root, name)
        if os.path.isfile(p):
            yield f"mistakebound/{name}", p
    for pkg in PACKAGES:
        base = os.path.join(root, pkg)
        if not os.path.isdir(base):
            continue
        for dirpath, dirnames, filenames in os.walk(base):
            # the sample submissions (grading/examples) stay out: an image needs no solutions
            dirnames[:] = sorted(d for d in dirnames if d not in ("__pycache__", "examples") and not d.startswith("."))
            for fn in sorted(filenames):
                if fn.endswith(_DATA):
                    full = os.path.join(dirpath, fn)
                    yield "mistakebound/" + os.path.relpath(full, root).replace(os.sep, "/"), full


def _installed():
    """(pyproject.toml text, [(path in the archive, path on disk)]) from the installed
    distribution, when this package runs from an install (a wheel) rather than a source tree:
    its recorded files (every module and the package data the wheel carried) and a build file
    written from its metadata (name, version, Python, dependencies, entry point)."""
    from importlib import metadata
    try:
        dist = metadata.distribution(DIST)
    except metadata.PackageNotFoundError:
        return None
    files = []
    for f in dist.files or ():
        parts = f.parts
        if not parts or parts[0] not in PACKAGES or "__pycache__" in parts or "examples" in parts:
            continue
        if not str(f).endswith(_DATA):
            continue
        disk = str(f.locate())
        if os.path.isfile(disk):
            files.append(("mistakebound/" + "/".join(parts), disk))
    if not any(a == "mistakebound/sandbox/_plan_child.py" for a, _ in files):
        return None         # an editable install records no sources: not an install to carry
    meta = dist.metadata
    deps = [r for r in (dist.requires or []) if "extra ==" not in r]
    grading = [r.split(";")[0].strip() for r in (dist.requires or [])
               if "extra ==" in r and r.split("extra ==")[1].strip().strip("'\"") == "grading"]
    q = '", "'
    text = (f'[build-system]\nrequires = ["setuptools>=68", "wheel"]\nbuild-backend = "setuptools.build_meta"\n\n'
            f'[project]\nname = "{meta["Name"]}"\nversion = "{meta["Version"]}"\n'
            f'requires-python = "{meta.get("Requires-Python") or ">=3.11"}"\n'
            f'dependencies = ["{q.join(d.replace(chr(34), chr(39)) for d in deps)}"]\n\n'
            f'[project.optional-dependencies]\ngrading = [{", ".join(repr(g) for g in grading)}]\n\n'
            f'[project.scripts]\nmistakebound = "mistakebound.cli:main"\n\n'
            f'[tool.setuptools.packages.find]\nwhere = ["."]\ninclude = [{", ".join(repr(p + "*") for p in PACKAGES)}]\n\n'
            f'[tool.setuptools.package-data]\n"*" = ["*.csv", "*.toml", "*.json", "*.txt"]\n"grading" = ["assignments/*.toml"]\n'
            f'"coq" = ["*.v", "_CoqProject"]\n').replace("'", '"')
    return text, sorted(files)


def _add_text(zf, name, text, executable=False):
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = ((0o755 if executable else 0o644) | stat.S_IFREG) << 16
    zf.writestr(info, text)


def _travelling(spec, spec_bytes: bytes) -> tuple[bytes, dict]:
    """What the spec names beside itself goes into the archive with it: the course's adapter (its
    code written into the spec, or its file when the code cannot be quoted there) and the
    ``[assignment] data_files``, at their names relative to the spec."""
    beside = dict(spec.data_files)
    c = spec.contract
    if c is not None and c.adapter and c.adapter_src != "inline":
        from grading.spec.adapter import inline
        text = inline(spec_bytes.decode("utf-8"), c)
        if text != spec_bytes.decode("utf-8"):
            return text.encode("utf-8"), beside
        rel = os.path.relpath(c.adapter_src, os.path.dirname(os.path.abspath(spec.source)))
        if rel.startswith(os.pardir) or os.path.isabs(rel):
            raise InputError(f"{os.path.basename(spec.source)}: contract.adapter {rel!r} lies outside the spec's "
                             "folder and its code cannot be written into the spec: move it beside the spec")
        beside[rel] = c.adapter.encode("utf-8")
    return spec_bytes, beside


def build_autograder(spec_src: str, out_path: str) -> dict:
    """Write the archive for spec ``spec_src`` to ``out_path`` (atomically); returns a summary."""
    spec = load_spec(spec_src)
    if not spec.tests and not spec.theory:
        raise InputError(f"{os.path.basename(spec.source)}: nothing to grade")
    root = project_root()
    if os.path.isfile(os.path.join(root, "pyproject.toml")):
        pyproject, files = None, list(_files(root))          # a source checkout (or an editable install)
    else:
        got = _installed()
        if got is None:
            raise InputError(f"cannot bundle the package: no pyproject.toml in {root} and no installed "
                             f"'{DIST}' distribution with its files")
        pyproject, files = got
    out_dir = os.path.dirname(os.path.abspath(out_path)) or "."
    if not os.path.isdir(out_dir):
        raise InputError(f"--out: directory {out_dir!r} does not exist")
    with open(spec.source, "rb") as fh:
        spec_bytes = fh.read()
    oracle = {}
    if spec.contract is not None and spec.contract.oracle:      # the course's solution travels with the spec
        import re
        from grading.spec.submission import load_submission
        oracle = load_submission(spec.contract.oracle, spec.module)
        spec_bytes = re.sub(rb'(?m)^(\s*oracle\s*=\s*)"[^"\n]*"', rb'\1"oracle"', spec_bytes)
    spec_bytes, beside = _travelling(spec, spec_bytes)
    fd, tmp = tempfile.mkstemp(prefix=".autograder-", suffix=".zip", dir=out_dir)
    os.close(fd)
    count = 0
    try:
        with zipfile.ZipFile(tmp, "w") as zf:
            setup = SETUP_SH
            if spec.tests and spec.contract.inputs == "pandas":     # the grading extra: pandas in the sandbox
                setup = setup.replace('install "$SRC/mistakebound"', 'install "$SRC/mistakebound[grading]"')
            _add_text(zf, "setup.sh", setup, executable=True)
            _add_text(zf, "run_autograder", RUN_AUTOGRADER, executable=True)
            _add_text(zf, "spec.toml", spec_bytes)
            for name, data in sorted(oracle.items()):
                _add_text(zf, f"oracle/{name}", data)
                count += 1
            for name, data in sorted(beside.items()):         # beside spec.toml, as beside the spec
                _add_text(zf, name, data)
                count += 1
            if pyproject is not None:
                _add_text(zf, "mistakebound/pyproject.toml", pyproject)
                count += 1
            for arc, disk in files:
                with open(disk, "rb") as fh:
                    _add_text(zf, arc, fh.read())
                count += 1
        os.replace(tmp, out_path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return {"archive": os.path.abspath(out_path), "spec": spec.name, "files": count + 3,
            "bytes": os.path.getsize(out_path)}
