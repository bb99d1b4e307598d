"""The engines' work on one step, one theorem's hypotheses and one erratum (``proofs.verify.runner``
decides from it).

* a *solve* step: its SMT-LIB text to z3 and to cvc5; the satisfiability questions (the step's
  hypotheses together, each one dropped) to z3 -- every solver question a job for the worker
  processes (``proofs.engines.workers``), answered from the proof cache when it was answered before;
* an *identity*: sympy in a symbolic dimension (on a background thread), and its instances in
  dimensions 1, 2, 3 to z3 and cvc5;
* a theorem's hypotheses on a concrete instance (non-vacuity), with the model relabelled as the
  statement's vectors and sequences;
* an erratum's counterexample: exact evaluation, the pinned instance to both solvers, the
  learner's replay.

How the engines are run (time limits, whether the necessity questions are asked, when cvc5
starts) is an :class:`Options` value, passed down from ``proofs.verify.runner.run_catalogue`` to every
job; the limits travel to the worker processes inside each request.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from proofs.engines import cache, workers
from proofs.printers.concrete import NotExact, evaluate, instance
from proofs.catalogue.core import StepResult, Theorem
from proofs.engines.engines import (PROVED, REFUTED, SAT, UNKNOWN, UNSAT, PendingCvc5, PendingSat, PendingZ3, Verdict, recall,
                      sympy_identity)
from proofs.language.formula import FormulaError, Not
from proofs.printers.smtlib import guarded, problem
from proofs.language.substitution import free_vars, walk
from proofs.printers.symbolic import needs_coordinates

# appended to a replay that came from the proof cache (the site strips it: its pages are the same either way)
REPLAY_CACHED = " (replay from the proof cache)"

DIMS = (1, 2, 3)


@dataclass(frozen=True)
class Options:
    """How the engines are run on a catalogue's steps (``DEFAULT``: as ``mistakebound verify --json``)."""
    timeout_ms: int = 10000        # per step and engine; steps take well under a second, the margin is for loaded machines
    necessity: bool = True         # ask whether each hypothesis is needed (the mutation tests, which judge outcomes only, do not)
    necessity_ms: int = 500        # "is this hypothesis needed?" is informational: unknown after 0.5 s is an answer
    eager_cross_check: bool = True  # start cvc5 before z3 answers (two cores at work); False: only on z3's proof


DEFAULT = Options()

# sympy identities and the learners' replays of errata are Python work; z3 runs in C with the
# GIL released.  One background thread lets them overlap with the z3 checks of the main thread.
_BG = None


def _background():
    global _BG
    if _BG is None:
        from concurrent.futures import ThreadPoolExecutor
        _BG = ThreadPoolExecutor(max_workers=1, thread_name_prefix="proofs-bg")
    return _BG


class _Done:
    """A finished value with the interface of a Future."""
    def __init__(self, v):
        self.v = v

    def result(self):
        return self.v

    get = result


# --------------------------------------------------------------------------- jobs
class _StepJob:
    """The engines' work on one step text (shared by every theorem that has the same text)."""

    def __init__(self, step, options: Options = DEFAULT):
        self.step = step
        self.options = options
        self.primary: Verdict | None = None
        self.pending: list = []            # PendingCvc5 for the cross-checks
        self.cross_z3: list[Verdict] = []
        self.recheck = "full"
        self.sat = None                    # PendingSat-like (guarded) for hypotheses + necessity
        self.primary_future = None
        self.needed = None                 # the necessity questions (guarded text), when asked
        self.smt = ""
        self.texts: list[str] = []
        self.instances_z3 = None           # z3 on an identity's instances (pending)

    def start(self):
        st = self.step
        o = self.options
        if st.kind == "solve":
            hyps = tuple((lab, f.formula) for lab, f in st.hyps)
            self.smt = _text(("problem", hyps, st.goal, st.id, st.theorem, st.title),
                             lambda: problem(hyps, st.goal, comment=f"step {st.id} of {st.theorem}: {st.title}"))
            self.primary_future = PendingZ3(self.smt, o.timeout_ms)
            if o.eager_cross_check:
                self.pending = [PendingCvc5(self.smt, o.timeout_ms)]
            if hyps:
                # are the hypotheses satisfiable together?  (its own text: the goal plays no part,
                # so a step with the same facts shares the answer)
                fs = tuple(f for _, f in hyps)
                self.sat = PendingSat([_text(("hyps", fs), lambda: problem(list(hyps), None))])
                if o.necessity:       # is each one needed?  (informational)
                    text_, names, g = _text(("guarded", hyps, st.goal), lambda: guarded(hyps, st.goal))
                    self.needed = _PendingGuarded(text_, [names[:i] + names[i + 1:] + [g] for i in range(len(names))],
                                                  o.necessity_ms)
            return
        # an identity
        lhs, rhs = st.goal.args
        if not needs_coordinates(st.goal):
            self.smt = problem([], st.goal, comment=f"identity {st.id} of {st.theorem}: {st.title}")
            self.pending = [PendingCvc5(self.smt, o.timeout_ms)]
            self.primary_future = PendingZ3(self.smt, o.timeout_ms)
            return
        self.recheck = "symbolic dimension, re-checked at d = 1..3 only"
        texts = _INSTANCES.get(st.goal)
        if texts is None:
            texts = _INSTANCES[st.goal] = self._instances(st)
        self.texts = texts
        self.smt = texts[0] if texts else ""
        from proofs.engines.cache import formula_key
        known = recall("sympy", "sympy", (formula_key(lhs), formula_key(rhs)))
        self.primary_future = _Done(known) if known is not None else _background().submit(sympy_identity, lhs, rhs)
        self.instances_z3 = [PendingZ3(t, o.timeout_ms) for t in texts]
        self.pending = [PendingCvc5(t, o.timeout_ms) for t in texts]

    def _instances(self, st) -> list[str]:
        """The identity in coordinates of R^1, R^2, R^3, as texts (shared by every job with the
        same formula)."""
        texts = []
        for d in DIMS:
            try:
                (g,), _ = instance([st.goal], {}, dim=d)
            except FormulaError:
                continue
            texts.append(problem([], g, comment=f"an identity in dimension {d}"))
        return texts

    def result(self, step) -> StepResult:
        if self.primary is None:
            p = self.primary_future
            self.primary = p.get() if hasattr(p, "get") else p.result()
            if self.step.kind == "solve" and not self.options.eager_cross_check:
                if self.primary.status == PROVED:
                    self.pending = [PendingCvc5(self.smt, self.options.timeout_ms)]
                else:       # the step is not proved whatever cvc5 says: not asked, never counted as agreeing
                    self.cross_z3 = [Verdict(UNKNOWN, "cvc5", 0.0, reason="not asked: z3 did not prove the step")]
        if self.instances_z3 is not None:
            self.cross_z3 = [dataclasses.replace(p.get()) for p in self.instances_z3]
            if len(self.cross_z3) < len(DIMS):
                self.cross_z3.append(Verdict(UNKNOWN, "z3", 0.0, reason="no instance in some dimension"))
            self.instances_z3 = None
        cross = [p.get() for p in self.pending]
        for v in self.cross_z3:
            v.reason = v.reason or "instance"
        r = StepResult(step, self.smt, self.primary, self.cross_z3 + cross, self.recheck,
                       texts=self.texts or ([self.smt] if self.smt else []))
        if self.sat is not None:
            r.hyps_sat = self.sat.get()[0]
        if self.needed is not None and self.primary.status == PROVED:
            for (lab, _), v in zip(step.hyps, self.needed.get()):
                st = {UNSAT: PROVED, SAT: REFUTED}.get(v.status, UNKNOWN)
                r.necessity[lab] = Verdict(st, "z3", v.seconds, counterexample=v.counterexample)
        return r


_GUARDED: dict = {}       # necessity answers by (text, queries, limit), per process


def reset_memo() -> None:
    """Forget this process's answers (as a fresh process would); the proof cache is unaffected."""
    from proofs.engines.engines import reset_memo as reset_engines
    _GUARDED.clear()
    reset_engines()
_TEXTS: dict = {}         # SMT-LIB texts by the formulas they print (formulas hash structurally)


def _text(key, make):
    t = _TEXTS.get(key)
    if t is None:
        t = _TEXTS[key] = make()
    return t
_INSTANCES: dict = {}     # an identity's texts in dimensions 1, 2, 3, by its formula


class _PendingGuarded:
    """Necessity questions on one guarded text (each with the short limit: unknown is an answer).

    They are informational (whether each hypothesis was needed; no verdict depends on them), so
    their answers are kept in the proof cache as a whole, unknowns included, under a key that
    includes the time limit ``limit_ms`` (:attr:`Options.necessity_ms`)."""

    def __init__(self, text_: str, queries, limit_ms: int):
        import json
        self.n = len(queries)
        self.key = (text_, json.dumps(queries), str(limit_ms))
        self._r = _GUARDED.get(self.key)
        if self._r is None and cache.enabled():
            self._r = _necessity_from_json(cache.load(cache.key("z3-guarded", "z3", *self.key)), self.n)
        if self._r is None:
            from proofs.engines.engines import _count
            _count("z3-guarded")
            self.ticket = workers.submit({"op": "guarded", "guarded": text_, "queries": queries,
                                          "timeout_ms": limit_ms, "necessity_timeout_ms": limit_ms,
                                          "retry": False}, 5000 + 2 * limit_ms * self.n)

    def get(self) -> list[Verdict]:
        if self._r is None:
            res = self.ticket.result()
            if res is None or "error" in res or len(res.get("answers", ())) != self.n:
                self._r = [Verdict(UNKNOWN, "z3", 0.0, reason="satisfiability worker failed") for _ in range(self.n)]
            else:
                self._r = [Verdict(a["answer"] if a["answer"] in (SAT, UNSAT) else UNKNOWN, "z3",
                                   a.get("seconds", 0.0), counterexample=a.get("model"), reason=a.get("reason", ""))
                           for a in res["answers"]]
                _GUARDED[self.key] = self._r
                if cache.enabled():
                    cache.store(cache.key("z3-guarded", "z3", *self.key),
                                [{"status": v.status, "seconds": v.seconds, "model": v.counterexample}
                                 for v in self._r])
        return self._r


def _necessity_from_json(d, n):
    if not isinstance(d, list) or len(d) != n:
        return None
    out = []
    for a in d:
        if (not isinstance(a, dict) or a.get("status") not in (SAT, UNSAT, UNKNOWN)
                or not isinstance(a.get("seconds"), (int, float))
                or not isinstance(a.get("model"), (dict, type(None)))):
            return None
        out.append(Verdict(a["status"], "z3", float(a["seconds"]), counterexample=a["model"], cached=True))
    return out


# --------------------------------------------------------------------------- theorem-level checks
def _nonvacuity(th: Theorem):
    """The stated hypotheses on a concrete instance (naturals bounding the per-step hypotheses set
    to small values, vectors in coordinates): a model is a real example the theorem is about."""
    hyps = [f for _, f in th.hypotheses]
    if not hyps:
        return None, "no hypotheses"
    sizes = dict(th.witness_sizes or {})
    if not sizes:
        for f in hyps:
            for n in walk(f):
                if n.op == "forall" and len(n.args) == 2:
                    for v in free_vars(n):
                        if v.sort == "Nat" and v in free_vars(n.args[-1].args[0]):
                            sizes.setdefault(v, 2)
    try:
        inst, info = instance(hyps, sizes, dim=th.witness_dim)
        how = (f"instance with {', '.join(f'{v.name} = {n}' for v, n in sizes.items()) or 'no sizes'}, "
               f"vectors in R^{th.witness_dim}")
        smt = problem([(f"h{i}", f) for i, f in enumerate(inst)], None)
        return (PendingSat([smt]), info), how
    except FormulaError as e:
        smt = problem(list(th.hypotheses), None)
        return (PendingSat([smt]), None), f"the hypotheses as stated (no concrete instance: {e})"


def _relabel(model, info):
    if not model or info is None:
        return model
    out: dict = {}
    for k, v in model.items():
        if k in info.labels:
            name, coord = info.labels[k]
            if coord is None:
                out[name] = v
            else:
                out.setdefault(name, [None] * info.dim)[coord] = v
        else:
            out[k] = v
    return out


def _erratum(th: Theorem, replay=None, options: Options = DEFAULT):
    """Exact evaluation of the counterexample, both solvers on the concrete instance, and the
    learner's replay (``start_replays``)."""
    env = th.counterexample
    if replay is None:
        replay = start_replays([th]).get(th.id, _Done(None))
    try:
        hs = [(n, evaluate(f, env)) for n, f in th.hypotheses]
        concl = evaluate(th.conclusion, env)
        bad = [n for n, v in hs if not v]
        ok = not bad and not concl
        detail = ("every hypothesis holds and the conclusion fails" if ok else
                  f"hypotheses that fail: {', '.join(bad)}" if bad else "the conclusion holds")
        exact = (ok, detail)
    except (NotExact, FormulaError) as e:
        exact = (False, f"cannot evaluate exactly: {e}")
    # the same instance for the solvers: the statement's symbols fixed to the counterexample
    try:
        dim = max([len(v) for v in env.values() if isinstance(v, (list, tuple)) and v and
                   not isinstance(v[0], (list, tuple))] + [1])
        forms = [f for _, f in th.hypotheses] + [Not(th.conclusion)]
        sizes = {v: env[v.name] for f in forms for v in free_vars(f)
                 if v.sort in ("Nat", "Int") and v.name in env}
        inst, info = instance(forms, sizes, dim=dim)
        pins = _pins(env, info)
        smt = problem([(f"h{i}", f) for i, f in enumerate(inst + pins)], None)
        pend = PendingCvc5(smt, options.timeout_ms, expect_sat=True)
        return exact, PendingZ3(smt, options.timeout_ms, expect_sat=True), pend, replay
    except (FormulaError, NotExact) as e:
        v = Verdict(UNKNOWN, "z3", 0.0, reason=f"no concrete instance: {e}")
        return exact, _Done(v), None, replay


def start_replays(ths) -> dict:
    """The learners' replays of the errata among ``ths``, by id (each with ``result()`` -> (ok,
    detail), raising if the replay failed).  A replay that confirmed its counterexample is kept in
    the proof cache under the hash of the learners' and the proofs' code (it depends on nothing
    else: exact arithmetic, no clock, no randomness).  The others run in one job of a worker
    process (the learners' imports are paid there, beside the solvers, and once), or, for an
    erratum that is not the registry's own (tests: its replay may be code outside ``proofs/`` and
    ``learners/``), on the background thread and never from or into the cache."""
    from proofs.catalogue import registry
    out, remote = {}, []
    for th in ths:
        if th.kind != "erratum" or th.witness_check is None:
            continue
        try:
            mine = registry.get(th.id) is th
        except KeyError:
            mine = False
        if not mine:
            out[th.id] = _background().submit(_local_replay, th, None)
            continue
        k = _replay_key(th) if cache.enabled() else None
        got = cache.load(k) if k else None
        if isinstance(got, list) and len(got) == 2 and got[0] is True and isinstance(got[1], str):
            out[th.id] = _Done((True, got[1] + REPLAY_CACHED))
            continue
        remote.append((th, k))
    if remote:
        from proofs.engines.engines import _count
        _count("replay", len(remote))
        fut = workers.submit({"op": "replay", "ids": [th.id for th, _ in remote]}, 120000)
        for i, (th, k) in enumerate(remote):
            out[th.id] = _RemoteReplay(fut, i, k)
    return out


def _replay_key(th: Theorem) -> str:
    import json
    return cache.key("replay", th.id, json.dumps(th.counterexample, sort_keys=True, default=str),
                     cache.tree_hash("proofs", "learners"))


def _local_replay(th: Theorem, k):
    ok, detail = th.witness_check()
    if k and ok is True and isinstance(detail, str):
        cache.store(k, [True, detail])
    return ok, detail


class _RemoteReplay:
    def __init__(self, fut, i, k):
        self.fut, self.i, self.k = fut, i, k

    def result(self):
        res = self.fut.result()
        if res is None or not isinstance(res.get("replays"), list):
            raise RuntimeError("the replay worker failed" + (f": {res.get('error')}" if res else " (killed)"))
        r = res["replays"][self.i]
        if "error" in r:
            raise RuntimeError(r["error"])
        ok, detail = r["ok"] is True, str(r["detail"])
        if self.k and ok:
            cache.store(self.k, [True, detail])
        return ok, detail


def _pins(env, info):
    """Equations fixing the instance's coordinates to the counterexample's values."""
    from proofs.language.formula import Eq, num
    out = []
    for key, var in info.names.items():
        term, coord = key
        try:
            val = evaluate(term, env)
        except (NotExact, FormulaError):
            continue
        if coord is not None:
            val = val[coord]
        out.append(Eq(var, num(val)))
    return out
