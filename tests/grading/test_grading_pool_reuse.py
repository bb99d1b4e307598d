"""Grading processes kept between batches (grading.running.batch): a batch leaves its idle grading
processes for this process's next batch, which opens its own batch in them (its spec, its secret
hidden seed, its warm-up; the previous batch's caches dropped) -- and grades exactly as fresh
processes do.  A process still busy when a batch ends is killed, never kept; ``close_pool`` stops
the idle ones."""
import os
import re

from grading.running import batch
from grading.running.grader import grade_batch

EX = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "grading", "examples")


def _copies(tmp_path, shape, samples):
    paths = []
    for s in samples:
        src = os.path.join(EX, shape, s)
        dst = tmp_path / f"{shape}-{s}"
        dst.mkdir()
        for f in os.listdir(src):
            if os.path.isfile(os.path.join(src, f)):
                (dst / f).write_bytes(open(os.path.join(src, f), "rb").read())
        paths.append(str(dst))
    return paths


def _report(results):
    """What a student is told, the linear-time test's measured seconds masked."""
    out = []
    for r in results:
        tests = [(t.kind, t.passed, t.score, t.output if t.kind != "linear_time"
                  else re.sub(r"\d+(\.\d+)?(e-?\d+)?", "#", t.output) if not t.passed else "passed")
                 for t in r.tests]
        out.append((r.name, r.score, r.max_score, r.note, r.fault, dict(r.diagnoses), tests))
    return out


def _running(pid) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(") ", 1)[1][0] != "Z"       # a zombie has stopped running
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False


def _pids():
    return sorted(p.proc.pid for p in batch._IDLE)


def test_the_next_batch_grades_in_the_same_processes_as_fresh_ones_would(tmp_path, monkeypatch):
    monkeypatch.setenv("MISTAKEBOUND_HIDDEN_SEED", "pool reuse")        # the same hidden draws every time
    perceptron = _copies(tmp_path, "perceptron", ["correct", "label_ignored"])
    winnow = _copies(tmp_path, "winnow_hw", ["correct", "strict_threshold"])
    batch.close_pool()
    first, _ = grade_batch("winnow_hw", winnow, jobs=2)
    kept = _pids()
    assert len(kept) == 2 and all(p.proc.is_alive() for p in batch._IDLE)
    reused, _ = grade_batch("perceptron", perceptron, jobs=2)         # another spec in the same processes
    assert _pids() == kept
    batch.close_pool()
    assert batch._IDLE == []
    assert [pid for pid in kept if _running(pid)] == []                 # stopped, not left running
    fresh, _ = grade_batch("perceptron", perceptron, jobs=2)
    assert not set(_pids()) & set(kept)
    assert _report(reused) == _report(fresh)
    assert [r.score == r.max_score for r in reused] == [True, False]    # the mistake still loses points
    again, _ = grade_batch("winnow_hw", winnow, jobs=2)                 # and back: the first spec again
    assert _report(again) == _report(first)
    batch.close_pool()


class _Proc:
    """A grading process as the end of a batch sees it."""
    def __init__(self, task, alive=True):
        self.task, self.killed = task, False
        self.proc = type("P", (), {"is_alive": lambda s: alive})()
        self.conn = type("C", (), {"closed": False})()

    def kill(self):
        self.killed = True


def test_only_a_process_that_finished_its_task_is_kept(monkeypatch):
    """The end of a batch (the course's solution failed while a process was still grading, or a
    process died): the busy one and the dead one are killed, only the idle live one is kept."""
    monkeypatch.setattr(batch, "_IDLE", [])
    busy, idle, dead = _Proc(3), _Proc(None), _Proc(None, alive=False)
    batch._release([busy, idle, dead])
    assert batch._IDLE == [idle]
    assert busy.killed and dead.killed and not idle.killed
