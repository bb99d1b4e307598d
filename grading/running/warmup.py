"""What every submission of a batch shares, computed once before the grading processes start.

Every submission of an assignment faces the same tests: the same edge cases, probes and
worst-case sequences, the same hypothesis draws (the visible seed, and the batch's secret hidden
seed), the same timed data for the linear-time test -- and the reference's answers on all of them,
with its time on each.  :func:`warm` computes them in the grading parent, from the spec alone,
before any submission is run; :func:`snapshot` packs them and :func:`install` unpacks a copy in
each grading process, so a submission's grading only runs the submission and compares.

The shared values are the grader's own: nothing of a submission enters them (a start the
submission draws itself, ``init = "own"`` without the course's solution, is read per submission
as before), each grading process holds a private copy (unpickled from bytes made in the parent,
which the processes never see again), and what is sent to the sandbox is built afresh from them
for each call (:mod:`grading.references.plan`).  A value the warm-up could not compute is left out: the
test computes it when it needs it, as it always did, so every verdict is the one a grading
process computes on its own (``tests/grading/test_grading_warmup.py`` grades the same submissions both
ways and compares the reports).
"""
from __future__ import annotations

import pickle

from grading.checks import checks, checks_differential, checks_properties
from grading.checks import oracle

__all__ = ["warm", "snapshot", "install", "clear", "packed", "packed_in_two", "RunsNoSubmission"]


def _caches() -> dict:
    """The per-process caches the tests read before computing anything themselves."""
    return {"expected": checks._EXPECTED, "cases": checks_differential._CASES,
            "scaling": checks_properties._SCALING, "scaling_answers": checks_properties._SCALING_ANSWERS,
            "ref_seconds": checks_properties._REF_SECONDS, "oracle_answers": oracle._ANSWERS}


class RunsNoSubmission(Exception):
    """Raised (and never swallowed) when the warm-up would call a submission."""


class _NoWorker:
    """The warm-up runs no submission: any attempt to call one is a bug of the warm-up."""
    box = None
    alive = False
    starts = 0
    start_error = None

    def __init__(self, *a, **k):
        pass

    def call(self, *a, **k):
        raise RunsNoSubmission("the warm-up runs no submission")

    def close(self):
        pass


def _try(f, *a, **k):
    try:
        f(*a, **k)
    except (RunsNoSubmission, oracle.CourseSolutionFailed):
        raise
    except Exception:  # noqa: BLE001 - left to the test, which computes (and reports) it as before
        pass


PARTS = ("visible", "hidden", "timed")


def warm(spec, parts=PARTS) -> None:
    """Fill this process's caches with what every submission of ``spec`` will need (the spec's
    ``hidden_seed`` must be set: the hidden draws are computed too).  The course's own solution
    failing on one of those inputs raises :class:`~grading.checks.oracle.CourseSolutionFailed`
    here, before any submission is graded: every submission would ask it that input and stop the
    batch the same way (a hanging solution is waited for once, not once more per grading process).  ``parts``: "visible" (every
    test's inputs and answers but the hidden draws' and the timed passes'), "hidden" (the hidden
    draws and their answers), "timed" (the linear-time test's data, answers and the reference's
    time): two processes can share the work."""
    if not spec.tests or spec.contract is None:
        return
    c = spec.contract
    if c.init == "own" and not c.oracle:
        return          # every reference run starts from the submission's own start: nothing to share
    g = checks.Grader(spec, _NoWorker)
    try:
        _warm(g, spec, set(parts))
    finally:
        g.close()


def _warm(g, spec, parts) -> None:
    P = g.problem
    kinds = {t.kind for t in spec.tests}
    if "hidden" in parts and "hidden_random" in kinds and spec.hidden_seed is not None:
        for X, y, e in _get(lambda: g.generated_cases(spec.hidden_seed, 2), []):
            _try(g.expected, X, y, e)
    if "timed" in parts and "linear_time" in kinds and spec.style == "function":
        n, n_max = checks_properties.SIZES[P.algorithm]
        while n <= n_max:
            _try(g.reference_seconds, n)
            for rep in range(checks_properties.REPEATS):
                X, y = g.properties._scaling_data(n, rep)
                _try(g.properties._scaling_answer, X, y, (n, rep))
            n *= 2
    if "visible" not in parts:
        return
    inputs = []
    edges = _get(P.edge_cases, {})
    for k in kinds & set(checks.EDGE):
        if k in edges:
            inputs.append(edges[k][1:])
            inputs += [c[1:] for c in _get(lambda: P.more_cases(k), [])]
    if "inputs_not_modified" in kinds:
        inputs += [c[1:] for c in list(edges.values())[:4]]
    if kinds & {"inputs_not_modified", "default_arguments"}:
        inputs += _get(P.probes, [])
    if "worst_case" in kinds:
        inputs += [c[1:] for c in _get(P.worst_cases, [])]
    if "random" in kinds:
        inputs += _get(lambda: g.generated_cases(checks_differential.SEED_VISIBLE, 1), [])
    if "invariants" in kinds and spec.style == "function":
        data = _get(P.invariant_data, None)
        if data is not None:
            X, y = data[0], data[1]
            inputs += [(X[:k], y[:k], 1) for k in range(1, len(X) + 1)]
    for X, y, e in inputs:
        _try(g.expected, X, y, e)
    if "default_arguments" in kinds and spec.style == "function" and spec.contract.call.defaults:
        _, _, contract, cases = _get(g.differential.defaults_plan, (None, None, None, []))
        for X, y, e in cases:
            _try(g.expected, X, y, e, contract=contract)
            _try(g.expected, X, y, e)


def _get(f, default):
    try:
        return f()
    except (RunsNoSubmission, oracle.CourseSolutionFailed):
        raise
    except Exception:  # noqa: BLE001 - left to the test
        return default


def snapshot() -> bytes:
    """This process's shared caches, packed for the grading processes."""
    return pickle.dumps(_caches(), protocol=pickle.HIGHEST_PROTOCOL)


def install(blob: bytes | None) -> None:
    """In a grading process: its own copy of the parent's caches."""
    if not blob:
        return
    for name, values in pickle.loads(blob).items():
        _caches()[name].update(values)


def packed(spec, parts=PARTS) -> bytes:
    """:func:`warm` for ``spec`` alone, packed: what this process had cached before (other specs,
    earlier batches) is neither packed nor lost."""
    saved = {k: dict(d) for k, d in _caches().items()}
    clear()
    try:
        warm(spec, parts)
        return snapshot()
    finally:
        for k, d in _caches().items():
            d.update(saved[k])


_COURSE_FAILED = "course solution failed"


def _hidden_part(conn, spec_src, insecure, hidden_seed, extra_hide):  # pragma: no cover - in a helper process
    """A helper process: the hidden and timed parts of the warm-up, sent back packed (nothing on
    failure)."""
    try:
        from grading.spec.spec import load_spec
        spec = load_spec(spec_src)
        spec.limits.insecure = bool(insecure)
        spec.limits.extra_hide = list(extra_hide)
        spec.hidden_seed = hidden_seed
        conn.send_bytes(packed(spec, parts=("hidden", "timed")))
    except oracle.CourseSolutionFailed as e:     # the batch stops: said to the parent
        conn.send_bytes(pickle.dumps({_COURSE_FAILED: e.staff_text}, protocol=pickle.HIGHEST_PROTOCOL))
    except Exception:  # noqa: BLE001 - the grading processes then compute it themselves
        pass
    finally:
        conn.close()


def packed_in_two(spec, ctx=None) -> bytes:
    """:func:`packed` with the hidden draws and the timed data computed at the same time in a
    helper process (the pool's fork server, ``ctx``): the grading parent's work before the pool
    starts is shared by two cores.  A helper that fails leaves its part to the grading processes
    (same verdicts)."""
    import multiprocessing as mp
    if ctx is None or not spec.source or spec.hidden_seed is None:
        return packed(spec)
    recv, send = ctx.Pipe(duplex=False)
    helper = ctx.Process(target=_hidden_part, args=(send, spec.source, spec.limits.insecure, spec.hidden_seed,
                                                    list(spec.limits.extra_hide)), daemon=True)
    try:
        from grading.running.mainless import without_main
        with without_main():
            helper.start()
    except (OSError, mp.ProcessError):
        return packed(spec)
    send.close()
    try:
        mine = packed(spec, parts=("visible",))
        other = b""
        try:
            if recv.poll(600):
                other = recv.recv_bytes()
        except (EOFError, OSError):
            pass
    finally:
        recv.close()
        helper.join(5)
        if helper.is_alive():
            helper.kill()
            helper.join(5)
    theirs = pickle.loads(other) if other else {}
    if _COURSE_FAILED in theirs:
        raise oracle.CourseSolutionFailed(theirs[_COURSE_FAILED])
    if not theirs:
        return mine
    merged = pickle.loads(mine)
    for name, values in theirs.items():
        merged[name].update(values)
    return pickle.dumps(merged, protocol=pickle.HIGHEST_PROTOCOL)


def clear() -> None:
    """Empty this process's caches (tests: grade without the shared warm-up)."""
    for d in _caches().values():
        d.clear()
