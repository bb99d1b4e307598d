"""The import arrows point one way: learners <- proofs <- adversary <- refutation <- grading <- mistakebound."""
import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
LAYERS = ["learners", "proofs", "adversary", "refutation", "grading", "mistakebound"]


def imported_parts(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name.split(".")[0], node.lineno
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0], node.lineno


@pytest.mark.parametrize("part", LAYERS)
def test_no_import_points_right(part):
    rank = LAYERS.index(part)
    bad = []
    for f in sorted((ROOT / part).rglob("*.py")):
        for mod, line in imported_parts(f):
            if mod in LAYERS and LAYERS.index(mod) > rank:
                bad.append(f"{f.relative_to(ROOT)}:{line} imports {mod}")
    assert not bad, "imports against the arrows: " + "; ".join(bad)


def test_runtime_never_imports_compare_extra():
    bad = []
    for part in LAYERS:
        for f in sorted((ROOT / part).rglob("*.py")):
            for mod, line in imported_parts(f):
                if mod in ("sklearn", "river"):
                    src = f.read_text().splitlines()[line - 1]
                    if not src.startswith((" ", "\t")):  # top-level import
                        bad.append(f"{f.relative_to(ROOT)}:{line}")
    assert not bad, "top-level imports of the compare extra: " + ", ".join(bad)
