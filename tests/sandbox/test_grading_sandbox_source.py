"""The code graded is the code shown: compiled Python in a submission is never run.

A zip whose ``perceptron.py`` is a stub returning zeros, with a ``__pycache__`` bytecode file
compiled (unchecked-hash form: Python would use it without looking at the source) from a full
solution, must be graded as the stub: the archive reader drops the bytecode and says so, and the
worker compiles every module of the submission from its source even if bytecode reaches it."""
import importlib.util
import io
import os
import py_compile
import zipfile

from sandbox.worker import Limits, Worker

GOOD = """
def train(X, y, epochs=1):
    w = [0.0] * len(X[0]); b = 0.0
    for _ in range(epochs):
        for x, t in zip(X, y):
            if t * (sum(a * c for a, c in zip(w, x)) + b) <= 0:
                w = [a + t * c for a, c in zip(w, x)]; b += t
    return w, b
"""
STUB = """
def train(X, y, epochs=1):
    return [0.0] * len(X[0]), 0.0
"""
CALL = {"op": "call", "name": "train", "args": [[[1.0, 2.0], [-1.0, 0.5]], [1, -1]], "kwargs": {"epochs": 1},
        "returns": "w_b"}
TAG = importlib.util.cache_from_source("perceptron.py").split("/")[-1]     # perceptron.cpython-311.pyc


def _bytecode_of(src: str, tmp) -> bytes:
    path = tmp / "full" / "perceptron.py"
    path.parent.mkdir(exist_ok=True)
    path.write_text(src)
    out = tmp / "full" / TAG
    py_compile.compile(str(path), cfile=str(out), doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    return out.read_bytes()


def _zip(tmp) -> str:
    pyc = _bytecode_of(GOOD, tmp)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("perceptron.py", STUB)
        z.writestr(f"__pycache__/{TAG}", pyc)
        z.writestr("helper.pyc", pyc)
    path = tmp / "stub_with_bytecode.zip"
    path.write_bytes(buf.getvalue())
    return str(path)


def test_the_archive_reader_drops_bytecode_and_says_so(tmp_path):
    from grading.spec.submission import load_submission, skipped_note
    files = load_submission(_zip(tmp_path), "perceptron")
    assert sorted(files) == ["perceptron.py"]
    note = skipped_note(files)
    assert f"«__pycache__/{TAG}» (compiled Python: only source is graded)" in note and "«helper.pyc»" in note
    d = tmp_path / "folder"
    (d / "__pycache__").mkdir(parents=True)
    (d / "perceptron.py").write_text(STUB)
    (d / "__pycache__" / TAG).write_bytes(_bytecode_of(GOOD, tmp_path))
    files = load_submission(str(d), "perceptron")
    assert sorted(files) == ["perceptron.py"] and "«__pycache__/»" in skipped_note(files)


def test_the_worker_compiles_the_source_even_when_bytecode_reaches_it(tmp_path):
    """Bypassing the reader: the worker itself never runs the bytecode beside the source, nor a
    sourceless .pyc module of the submission."""
    pyc = _bytecode_of(GOOD, tmp_path)
    files = {"perceptron.py": STUB.encode() + b"\ntry:\n    import helper\nexcept ImportError:\n    helper = None\n"
             b"def has_helper():\n    return 1 if helper is not None else 0\n",
             f"__pycache__/{TAG}": pyc, "helper.pyc": pyc}
    with Worker(files, "perceptron", Limits(cpu_seconds=5, memory_mb=512)) as w:
        r = w.call(CALL, timeout=10)
        assert r.error is None and r.ok == {"w": [0.0, 0.0], "b": 0.0}, r
        r = w.call({"op": "call", "name": "has_helper", "args": [], "returns": "label"}, timeout=10)
        assert r.error is None and r.ok == {"label": 0}, r


def test_a_stub_with_the_bytecode_of_a_solution_does_not_get_full_marks(tmp_path):
    from grading.running.grader import grade_submission
    res = grade_submission("perceptron", _zip(tmp_path))
    assert res.max_score > 0 and res.score < res.max_score / 2, (res.score, res.max_score)
    assert "compiled Python: only source is graded" in res.note
    from grading.output.report import results_json
    assert "compiled Python: only source is graded" in str(results_json(res))
