"""Assignment specs: a small TOML file per assignment (defaults in ``grading/assignments/``).

An instructor copies one and changes what the course needs::

    [assignment]
    name = "perceptron"            # the name used in reports
    algorithm = "perceptron"       # perceptron | winnow | kernel_perceptron | weighted_majority | passive_aggressive | hedge | halving | soa
    style = "function"             # function: train(X, y, ...) ; class: object with predict/update
    module = "perceptron"          # the file students submit: perceptron.py
    entry = "train"                # function name (style = function) or class name (style = class)
    bias = true                    # perceptron: learn b (update b += y)
    normalize = false              # scale every example to unit length first
    labels = "pm1"                 # "pm1": y in {+1,-1};  "01": y in {0,1};  "bool": True/False
    epochs = 1                     # the default of train's epochs parameter (the default_arguments test)
    max_epochs = 3                 # generated tests draw epochs in 1..max_epochs
    kernel = "poly:c=1,k=2"        # kernel_perceptron only
    solution = "solution/"         # the course's reference solution (grade --check-spec), relative to the spec
    data_files = ["train.csv"]     # the course's files placed beside the code (a module may read them on import)

    [contract]                     # how the course's code is called and what it computes: see
    inputs = "numpy"               # grading/spec/contract.py and docs/grading.md ("The contract")
    [contract.call]
    args = ["X", "y", "T"]

    [limits]                       # sandbox limits (see docs/grading.md)
    time_floor = 2.0               # seconds: a test's wall-clock limit is at least this ...
    time_factor = 200              # ... and at least this many times the reference's time
    cpu_seconds = 60
    memory_mb = 1024
    processes = 32
    file_size_mb = 2
    open_files = 64
    network = false
    packages = ["numpy"]           # importable by the student's code (nothing else from site-packages)
    harmless_imports = []          # modules answered by inert stand-ins (plots nobody asked for)
    submission_seconds = 600       # wall-clock budget of one submission, all tests together

    [hypothesis]
    max_examples = 40
    max_n = 8
    max_d = 4

    [tests.one_example]            # one table per test: points, hidden
    points = 1
    [tests.hidden_random]
    points = 3
    hidden = true

Unknown keys are refused (a typo must not silently change a grade).  Every key is declared once, with
its type, default and meaning, in grading/spec/spec_keys.py: the parser reads it, and docs/grading.md's
key tables are generated from it.
"""
from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field

from learners.errors import InputError

from grading.spec.contract import Contract
from grading.spec.contract_parse import parse_contract
from grading.spec.spec_keys import ALGORITHMS, REQUIRED, Derived, key as _key, names as _names
from sandbox.worker import Limits

__all__ = ["Spec", "TestSpec", "load_spec", "assignment_names", "ASSIGNMENTS_DIR", "hidden_seed", "HIDDEN_SEED_ENV",
           "HIDDEN_SEED_FILE_ENV"]

HIDDEN_SEED_ENV = "MISTAKEBOUND_HIDDEN_SEED"
HIDDEN_SEED_FILE_ENV = "MISTAKEBOUND_HIDDEN_SEED_FILE"


def hidden_seed(environ=None) -> tuple[int, str]:
    """The seed the hidden tests' inputs are drawn from, and where it came from.

    Never in the spec (students see the spec, or can guess it) and never in the code: the
    instructor's ``MISTAKEBOUND_HIDDEN_SEED`` (any text), or the first line of the file named by
    ``MISTAKEBOUND_HIDDEN_SEED_FILE`` (kept outside the submissions: no worker sees any host file);
    otherwise 64 fresh random bits per grading run (one seed for the whole batch: every submission
    faces the same hidden inputs).  Set it to regrade with the same hidden inputs."""
    import hashlib
    env = os.environ if environ is None else environ
    text, where = env.get(HIDDEN_SEED_ENV), f"the instructor's seed (${HIDDEN_SEED_ENV})"
    if not text and env.get(HIDDEN_SEED_FILE_ENV):
        path = env[HIDDEN_SEED_FILE_ENV]
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.readline().strip()
        except (OSError, UnicodeDecodeError) as e:
            raise InputError(f"${HIDDEN_SEED_FILE_ENV}: cannot read {path!r} ({getattr(e, 'strerror', None) or e})") \
                from None
        if not text:
            raise InputError(f"${HIDDEN_SEED_FILE_ENV}: {path!r} holds no seed on its first line")
        where = f"the instructor's seed file (${HIDDEN_SEED_FILE_ENV})"
    if not text:
        return int.from_bytes(os.urandom(8), "big"), "a secret seed drawn afresh for this grading run"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"), where

ASSIGNMENTS_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "assignments")
_ASSIGNMENT_KEYS = _names("assignment")
DATA_FILES_BYTES = 8 << 20
_LIMIT_KEYS = _names("limits")
_HYP_KEYS = _names("hypothesis")
_TEST_KEYS = _names("tests.KIND")
_THEORY_KEYS = _names("theory.ID")


@dataclass
class TestSpec:
    kind: str
    points: float = 1.0
    hidden: bool = False
    visibility: str | None = None


@dataclass
class TheorySpec:
    """A theory question graded with the refutation engine (adversary.refutation): the student
    answers true/false in ``answers.toml`` (``[<id>] answer = true``)."""
    id: str
    kind: str                 # "kernel": is K a legal kernel?   "bound": does the bound hold?
    expr: str
    algorithm: str = "perceptron"
    variant: str = "halve"
    points: float = 1.0
    hidden: bool = False
    visibility: str | None = None
    prompt: str = ""


@dataclass
class Spec:
    name: str
    algorithm: str
    style: str = "function"
    module: str = "perceptron"
    entry: str = "train"
    title: str = ""
    bias: bool = True
    normalize: bool = False
    labels: str = "pm1"
    epochs: int = 1
    max_epochs: int = 3
    kernel: str = "linear"
    time_floor: float = 2.0
    time_factor: float = 200.0
    limits: Limits = field(default_factory=Limits)
    max_examples: int = 40
    max_n: int = 8
    max_d: int = 4
    tests: list[TestSpec] = field(default_factory=list)
    theory: list[TheorySpec] = field(default_factory=list)
    source: str = ""
    solution: str = ""
    hidden_seed: int | None = None      # never read from the spec: see hidden_seed()
    data_files: dict = field(default_factory=dict)   # name -> bytes: the course's files beside the code
    contract: Contract | None = None

    @property
    def max_score(self) -> float:
        return float(sum(t.points for t in self.tests) + sum(q.points for q in self.theory))


def assignment_names() -> list[str]:
    return sorted(f[:-5] for f in os.listdir(ASSIGNMENTS_DIR) if f.endswith(".toml"))


def _check_keys(d: dict, allowed: set, where: str, src: str):
    if not isinstance(d, dict):
        raise InputError(f"{src}: [{where}] must be a table")
    bad = sorted(set(d) - allowed)
    if bad:
        raise InputError(f"{src}: unknown key {bad[0]!r} in [{where}] (known: {', '.join(sorted(allowed))})")


def _typed(d, key, typ, default, src, where):
    if key not in d:
        return default
    v = d[key]
    if typ is float and isinstance(v, int) and not isinstance(v, bool):
        v = float(v)
    if typ is int and isinstance(v, bool) or not isinstance(v, typ):
        raise InputError(f"{src}: {where}.{key} must be {typ.__name__}, got {v!r}")
    return v


def _get(d, table, name, src, ctx=None, where=None):
    """``d[name]`` checked against the key's declaration (grading.spec.spec_keys), or its default."""
    k = _key(table, name)
    default = k.default
    if isinstance(default, Derived):
        default = default(ctx)
    elif default is REQUIRED:
        default = None
    elif isinstance(default, tuple):
        default = list(default)
    return _typed(d, name, k.type, default, src, where or table)


def _data_files(names, spec_dir, src) -> dict:
    """``[assignment] data_files``: files the course hands out with the handout (a CSV the module
    reads when it is imported), relative to the spec; placed beside the code under their names."""
    out, total = {}, 0
    for name in names:
        if not isinstance(name, str) or not name or name.startswith(("/", "\\")) or ".." in name.split("/"):
            raise InputError(f"{src}: assignment.data_files must list relative paths inside the spec's folder; "
                             f"got {name!r}")
        try:
            with open(os.path.join(spec_dir, name), "rb") as fh:
                data = fh.read(DATA_FILES_BYTES + 1)
        except OSError as e:
            raise InputError(f"{src}: assignment.data_files: cannot read {name!r} (relative to the spec): "
                             f"{e.strerror}") from None
        total += len(data)
        if total > DATA_FILES_BYTES:
            raise InputError(f"{src}: assignment.data_files: over {DATA_FILES_BYTES >> 20} MB in all")
        out[name] = data
    return out


def load_spec(name_or_path: str) -> Spec:
    """A shipped assignment by name (``perceptron``) or a path to a TOML spec."""
    if os.path.exists(name_or_path) and not os.path.isdir(name_or_path):
        path = name_or_path
    else:
        path = os.path.join(ASSIGNMENTS_DIR, f"{name_or_path}.toml")
        if not os.path.exists(path) or os.sep in name_or_path:
            raise InputError(f"unknown assignment {name_or_path!r} (shipped: {', '.join(assignment_names())}; "
                             "or give a path to a .toml spec)")
    src = os.path.basename(path)
    try:
        with open(path, "rb") as fh:
            doc = tomllib.load(fh)
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"{src}: not valid TOML ({str(e).splitlines()[0]})") from None
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}") from None
    extra = sorted(set(doc) - {"assignment", "contract", "limits", "hypothesis", "tests", "theory"})
    if extra:
        raise InputError(f"{src}: unknown table [{extra[0]}]")
    a = doc.get("assignment", {})
    _check_keys(a, _ASSIGNMENT_KEYS, "assignment", src)
    alg = _get(a, "assignment", "algorithm", src)
    if alg not in ALGORITHMS:
        raise InputError(f"{src}: assignment.algorithm must be one of {', '.join(ALGORITHMS)}, got {alg!r}")
    ctx = {"src": src, "algorithm": alg}
    s = Spec(name=_get(a, "assignment", "name", src, ctx), algorithm=alg,
             source=os.path.abspath(path))
    ctx["name"] = s.name
    s.title = _get(a, "assignment", "title", src, ctx)
    s.style = ctx["style"] = _get(a, "assignment", "style", src, ctx)
    if s.style not in _key("assignment", "style").choices:
        raise InputError(f"{src}: assignment.style must be 'function' or 'class', got {s.style!r}")
    if s.style == "class" and alg != "perceptron":
        raise InputError(f"{src}: the class style is available for the perceptron only")
    s.module = _get(a, "assignment", "module", src, ctx)
    if not s.module.isidentifier():
        raise InputError(f"{src}: assignment.module must be a Python module name, got {s.module!r}")
    s.entry = _get(a, "assignment", "entry", src, ctx)
    s.bias = _get(a, "assignment", "bias", src, ctx)
    if alg != "perceptron" and s.bias:
        raise InputError(f"{src}: assignment.bias is a perceptron option")
    s.normalize = _get(a, "assignment", "normalize", src, ctx)
    if alg == "winnow" and s.normalize:
        raise InputError(f"{src}: assignment.normalize is not a Winnow option")
    s.labels = _get(a, "assignment", "labels", src, ctx)
    if s.labels not in _key("assignment", "labels").choices:
        raise InputError(f"{src}: assignment.labels must be 'pm1', '01' or 'bool', got {s.labels!r}")
    if s.style == "class" and s.labels == "bool":
        raise InputError(f"{src}: the online class style takes labels 'pm1' or '01'")
    s.epochs = ctx["epochs"] = _get(a, "assignment", "epochs", src, ctx)
    s.max_epochs = _get(a, "assignment", "max_epochs", src, ctx)
    if s.epochs < 1 or s.max_epochs < 1:
        raise InputError(f"{src}: epochs must be >= 1")
    s.data_files = _data_files(_get(a, "assignment", "data_files", src, ctx), os.path.dirname(os.path.abspath(path)),
                               src)
    sol = _get(a, "assignment", "solution", src, ctx)
    if sol:
        s.solution = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(path)), sol))
    s.kernel = _get(a, "assignment", "kernel", src, ctx)
    if alg == "kernel_perceptron":
        from learners.kernels import parse_kernel
        try:
            parse_kernel(s.kernel)
        except InputError as e:
            raise InputError(f"{src}: assignment.kernel: {e}") from None
    s.contract = parse_contract(doc.get("contract"), algorithm=alg, style=s.style, entry=s.entry, bias=s.bias,
                                normalize=s.normalize, labels=s.labels, kernel=s.kernel, epochs=s.epochs, src=src)
    if s.contract.oracle:              # the course's own solution, relative to the spec (grading.checks.oracle)
        where = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(path)), s.contract.oracle))
        if not os.path.exists(where):
            raise InputError(f"{src}: contract.oracle: {s.contract.oracle!r} does not exist (relative to the spec)")
        s.contract = s.contract.replace(oracle=where)
    if s.contract.adapter:             # the course's adapter: a file relative to the spec, or inline code
        from grading.spec.adapter import load_adapter
        s.contract = load_adapter(s.contract, os.path.dirname(os.path.abspath(path)), src)
    if s.contract.epochs_fixed and s.style == "function":
        s.max_epochs = 1          # the course's call has no epochs argument: every call is one pass
    lim = doc.get("limits", {})
    _check_keys(lim, _LIMIT_KEYS, "limits", src)
    s.time_floor = _get(lim, "limits", "time_floor", src)
    s.time_factor = _get(lim, "limits", "time_factor", src)
    L = Limits()
    L.cpu_seconds = _get(lim, "limits", "cpu_seconds", src)
    L.memory_mb = _get(lim, "limits", "memory_mb", src)
    L.processes = _get(lim, "limits", "processes", src)
    L.file_size_mb = _get(lim, "limits", "file_size_mb", src)
    L.open_files = _get(lim, "limits", "open_files", src)
    L.network = _get(lim, "limits", "network", src)
    L.submission_seconds = _get(lim, "limits", "submission_seconds", src)
    L.packages = _get(lim, "limits", "packages", src)
    from sandbox.isolation import SUITE_PACKAGES
    for p in L.packages:
        if not isinstance(p, str) or not p.isidentifier():
            raise InputError(f"{src}: limits.packages must list top-level package names, got {p!r}")
        if p in SUITE_PACKAGES:
            raise InputError(f"{src}: limits.packages may not include the grader's own package {p!r}")
    L.harmless_imports = _get(lim, "limits", "harmless_imports", src)
    import sys as _sys
    for p in L.harmless_imports:
        if not isinstance(p, str) or not p.isidentifier():
            raise InputError(f"{src}: limits.harmless_imports must list top-level module names, got {p!r}")
        if p in L.packages or p in _sys.stdlib_module_names:
            raise InputError(f"{src}: limits.harmless_imports may not name {p!r}: "
                             + ("it is in limits.packages (the real package)" if p in L.packages else
                                "it is a standard-library module"))
    for k in ("time_floor", "time_factor"):
        if getattr(s, k) <= 0:
            raise InputError(f"{src}: limits.{k} must be positive")
    if min(L.cpu_seconds, L.memory_mb, L.processes, L.open_files, L.file_size_mb, L.submission_seconds) <= 0:
        raise InputError(f"{src}: every limit must be positive")
    if s.contract.inputs == "pandas" and not {"numpy", "pandas"} <= set(L.packages):
        raise InputError(f"{src}: contract.inputs = \"pandas\" hands the code pandas objects: list \"numpy\", "
                         "\"pandas\" and its dependencies (\"dateutil\") in limits.packages")
    s.limits = L
    h = doc.get("hypothesis", {})
    _check_keys(h, _HYP_KEYS, "hypothesis", src)
    s.max_examples = _get(h, "hypothesis", "max_examples", src)
    s.max_n = _get(h, "hypothesis", "max_n", src)
    s.max_d = _get(h, "hypothesis", "max_d", src)
    if min(s.max_examples, s.max_n, s.max_d) < 1:
        raise InputError(f"{src}: hypothesis settings must be >= 1")
    from grading.spec.offered import test_kinds
    kinds = test_kinds(s)
    theory = doc.get("theory", {})
    if not isinstance(theory, dict):
        raise InputError(f"{src}: [theory] must hold one table per question")
    for qid, q in theory.items():
        _check_keys(q, _THEORY_KEYS, f"theory.{qid}", src)
        kind = _get(q, "theory.ID", "kind", src, ctx, f"theory.{qid}")
        if kind not in _key("theory.ID", "kind").choices:
            raise InputError(f"{src}: theory.{qid}.kind must be 'kernel' or 'bound'")
        expr = _get(q, "theory.ID", "expr", src, ctx, f"theory.{qid}")
        if not expr:
            raise InputError(f"{src}: theory.{qid}.expr is required")
        vis = _get(q, "theory.ID", "visibility", src, ctx, f"theory.{qid}")
        s.theory.append(TheorySpec(
            id=qid, kind=kind, expr=expr, algorithm=_get(q, "theory.ID", "algorithm", src, ctx, f"theory.{qid}"),
            variant=_get(q, "theory.ID", "variant", src, ctx, f"theory.{qid}"),
            points=_get(q, "theory.ID", "points", src, ctx, f"theory.{qid}"),
            hidden=_get(q, "theory.ID", "hidden", src, ctx, f"theory.{qid}"), visibility=vis,
            prompt=_get(q, "theory.ID", "prompt", src, ctx, f"theory.{qid}")))
    tests = doc.get("tests", {})
    if not isinstance(tests, dict) or (not tests and not s.theory):
        raise InputError(f"{src}: no [tests.*] tables (known tests: {', '.join(kinds)})")
    for kind, t in tests.items():
        _check_keys(t, _TEST_KEYS, f"tests.{kind}", src)
        if kind not in kinds:
            from grading.spec.offered import not_offered
            why = not_offered(s, kind)
            if why:
                raise InputError(f"{src}: test {kind!r} is not offered under this spec: {why} (offered: "
                                 f"{', '.join(kinds)})")
            raise InputError(f"{src}: unknown test {kind!r} for {alg} ({s.style} style); known: {', '.join(kinds)}")
        pts = _get(t, "tests.KIND", "points", src, where=f"tests.{kind}")
        if pts < 0:
            raise InputError(f"{src}: tests.{kind}.points must be >= 0")
        vis = _get(t, "tests.KIND", "visibility", src, where=f"tests.{kind}")
        if vis is not None and vis not in _key("tests.KIND", "visibility").choices:
            raise InputError(f"{src}: tests.{kind}.visibility must be one of hidden, after_due_date, "
                             "after_published, visible")
        s.tests.append(TestSpec(kind=kind, points=pts, visibility=vis,
                                hidden=_get(t, "tests.KIND", "hidden", src, where=f"tests.{kind}")))
    return s
