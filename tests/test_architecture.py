"""The import arrows point one way: sandbox (the ground floor) <- checker <- learners <- proofs <- coq <- adversary <- refutation
<- blueprint <- grading <- mistakebound."""
import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
LAYERS = ["sandbox", "checker", "learners", "proofs", "coq", "adversary", "refutation", "blueprint", "grading", "mistakebound"]


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


# what the checker may import besides itself: the standard library and the engines it asks
CHECKER_MAY_IMPORT = {"z3", "cvc5", "sympy"}


def _checker_imports(root):
    import sys
    bad = []
    for f in sorted(root.rglob("*.py")):
        tree = ast.parse(f.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [(node.module or "").split(".")[0]]
            elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
                    "__import__", "import_module"):
                names = ["<dynamic import>"]
            for n in names:
                if n != "checker" and n not in sys.stdlib_module_names and n not in CHECKER_MAY_IMPORT:
                    bad.append(f"{f.relative_to(root.parent)}:{node.lineno} imports {n}")
    return bad


def test_checker_imports_nothing_of_the_suite():
    """The checker is the trusted base: it imports the standard library, z3, cvc5 and sympy, and
    nothing of the suite (not even the ground floor), nor anything dynamically."""
    assert _checker_imports(ROOT / "checker") == []


def test_checker_import_rule_can_fail(tmp_path):
    (tmp_path / "checker").mkdir()
    (tmp_path / "checker" / "x.py").write_text("import json\nfrom proofs.kernel import kernel\nimport sandbox\n")
    assert [b.split(" imports ")[1] for b in _checker_imports(tmp_path / "checker")] == ["proofs", "sandbox"]


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


# ----------------------------------------------------------------------------- the module graph
def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict:
    """Every module of the code folders: dotted name -> path."""
    return {_module_name(f): f for part in LAYERS for f in sorted((ROOT / part).rglob("*.py"))}


def _edges(name: str, path: pathlib.Path, known: set) -> set:
    """Modules of ``known`` that ``name`` imports anywhere in its text (top level or inside a
    function: a lazy import closes a circle as surely as an eager one)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            targets = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in known else mod for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in known:       # import a.b.c of a non-module attribute: its module
                t = t.rpartition(".")[0]
            if t and t != name:
                out.add(t)
    return out


def _cycles(graph: dict) -> list:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def test_no_import_cycles():
    mods = _modules()
    known = set(mods)
    graph = {m: _edges(m, p, known) for m, p in mods.items()}
    assert not _cycles(graph), "import circles: " + "; ".join(" <-> ".join(c) for c in _cycles(graph))


def test_cycle_finder_finds_a_circle():
    # the finder itself must be able to fail
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


# ----------------------------------------------------------------------------- sizes and rooms
MAX_SHARE = 0.25


def _code_lines(path: pathlib.Path) -> int:
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def folder_shares() -> dict:
    """Non-blank lines of Python per top-level folder (tests excluded), as fractions of the total."""
    counts = {}
    for d in sorted(p for p in ROOT.iterdir() if p.is_dir()):
        if d.name == "tests" or d.name.startswith(".") or d.name.endswith(".egg-info") or d.name == "build":
            continue
        n = sum(_code_lines(f) for f in d.rglob("*.py"))
        if n:
            counts[d.name] = n
    total = sum(counts.values())
    return {k: v / total for k, v in counts.items()}


def test_no_folder_holds_more_than_a_quarter_of_the_code():
    shares = folder_shares()
    assert set(LAYERS) <= set(shares)
    big = {k: f"{v:.1%}" for k, v in shares.items() if v > MAX_SHARE}
    assert not big, f"folders over {MAX_SHARE:.0%} of the code: {big}"


def test_every_module_says_what_concept_it_holds():
    """Rooms follow concepts, not a line count: a file is split where its concepts split, and each
    module opens with a docstring naming the idea it holds (one idea may be one long file)."""
    import ast
    missing = []
    for part in LAYERS:
        for f in sorted((ROOT / part).rglob("*.py")):
            if not ast.get_docstring(ast.parse(f.read_text(encoding="utf-8"))):
                missing.append(f.relative_to(ROOT).as_posix())
    assert not missing, f"modules without a docstring saying what they hold: {missing}"


# ----------------------------------------------------------------------------- the concept layout
# Inside a floor, modules are grouped by concept: the floors that grew past one idea keep their
# modules in concept subpackages only (a module at the floor's top would be a room without a concept).
CONCEPTS = {
    "proofs": {"language", "printers", "engines", "kernel", "catalogue", "verify"},
    "grading": {"spec", "references", "checks", "running", "output"},
}
# tests mirror the floors; a test of the house as a whole (imports, docs, packaging, bench) stays on top
HOUSE_TESTS = {"test_architecture.py", "test_docs_code_blocks.py", "test_docs_front.py", "test_packaging.py",
               "test_bench_results.py"}
TEST_FLOORS = set(LAYERS) - {"mistakebound"} | {"cli"}


@pytest.mark.parametrize("part", sorted(CONCEPTS))
def test_a_grown_floor_keeps_its_modules_in_concept_subpackages(part):
    top = sorted(f.name for f in (ROOT / part).glob("*.py") if f.name != "__init__.py")
    assert top == [], f"{part}/ holds modules outside its concept subpackages: {top}"
    subs = {d.name for d in (ROOT / part).iterdir() if (d / "__init__.py").exists()}
    assert subs == CONCEPTS[part], f"{part}/'s concepts changed: {sorted(subs)} (update docs/architecture.md)"
    for s in subs:
        assert ast.get_docstring(ast.parse((ROOT / part / s / "__init__.py").read_text(encoding="utf-8"))), s


def test_each_theorem_family_lives_in_the_catalogue_under_its_own_name():
    from proofs.catalogue import registry
    here = {f.stem for f in (ROOT / "proofs" / "catalogue").glob("*.py")}
    assert set(registry.FAMILIES) <= here
    for fam, coq in registry.COQ_MODULES.items():
        assert (ROOT / "coq" / f"{coq}.v").exists(), (fam, coq)


def test_tests_mirror_the_floors():
    top = sorted(f.name for f in (ROOT / "tests").glob("test_*.py"))
    assert set(top) <= HOUSE_TESTS, f"tests at the top that belong to a floor: {sorted(set(top) - HOUSE_TESTS)}"
    dirs = {d.name for d in (ROOT / "tests").iterdir() if d.is_dir() and list(d.glob("test_*.py"))}
    assert dirs <= TEST_FLOORS, f"test folders that mirror no floor: {sorted(dirs - TEST_FLOORS)}"
    names = [f.name for f in (ROOT / "tests").rglob("test_*.py")]
    assert len(names) == len(set(names)), "two test files share a name (pytest imports them by basename)"


# the subpackages of proofs/ and grading/ in order: each imports only those before it, save (in proofs/)
# a catalogue theorem looked up by id (registry.get) inside the function that needs it
PROOFS_ORDER = ["language", "printers", "engines", "kernel", "catalogue", "verify"]
GRADING_ORDER = ["spec", "references", "checks", "running", "output"]


def _back_imports(root, order=PROOFS_ORDER):
    top = root.name
    out = []
    for f in sorted(root.rglob("*.py")):
        parts = f.relative_to(root).parts
        if len(parts) < 2:
            continue
        tree = ast.parse(f.read_text(encoding="utf-8"))
        top_level = {id(n) for n in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith(top + "."):
                targets = [(node.module, [a.name for a in node.names])]
            elif isinstance(node, ast.Import):
                targets = [(a.name, []) for a in node.names if a.name.startswith(top + ".")]
            else:
                continue
            for mod, names in targets:
                dst = mod.split(".")[1]
                if parts[0] not in order or dst not in order or order.index(dst) <= order.index(parts[0]):
                    continue
                lookup = (mod == "proofs.catalogue" and names == ["registry"]) or mod == "proofs.catalogue.registry"
                if not lookup or id(node) in top_level:
                    out.append(f"{f.relative_to(root.parent)}:{node.lineno} imports {mod}")
    return out


def test_subpackages_import_only_those_before_them(tmp_path):
    assert set(PROOFS_ORDER) == CONCEPTS["proofs"] and set(GRADING_ORDER) == CONCEPTS["grading"]
    assert _back_imports(ROOT / "proofs") == []
    assert _back_imports(ROOT / "grading", GRADING_ORDER) == []
    bad = tmp_path / "proofs" / "engines"
    bad.mkdir(parents=True)
    (bad / "x.py").write_text("from proofs.verify import runner\ndef f():\n    from proofs.catalogue import registry\n")
    (bad / "y.py").write_text("from proofs.catalogue import registry\n")
    assert _back_imports(tmp_path / "proofs") == ["proofs/engines/x.py:1 imports proofs.verify",
                                                        "proofs/engines/y.py:1 imports proofs.catalogue"]
