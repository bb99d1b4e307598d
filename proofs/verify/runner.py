"""Run the catalogue: build every proof through the kernel, check what it registered, decide.

1. *Build*: each theorem's proof runs against a fresh :class:`proofs.kernel.kernel.Proof`; a proof the
   kernel refuses (a hypothesis that is not a fact, a conclusion other than the statement, a rule
   premise of the wrong shape, a step the conclusion does not use) is a *build error*.  Lemmas
   are found as proofs use them and run first.
2. *Check*: every step's SMT-LIB text goes to z3 and to cvc5; the satisfiability questions (each
   step's hypotheses together, each hypothesis dropped, the theorem's hypotheses on a concrete
   instance) to z3 -- all of them jobs for a pool of worker processes, one per core.  Identities
   over vectors go to sympy (a thread here), and their instances in dimensions 1, 2, 3 to z3 and
   cvc5.  An answer given before to the same question, by the same engine versions and code, comes
   from the proof cache (``proofs.engines.cache``); the kernel's build of step 1 runs every time.  A
   theorem's checks start as soon as its proof is built (lemmas first), so the workers solve while
   the rest of the catalogue is built and printed.
3. *Decide*, failing closed: "proved" only when every step was proved by both engines (or, for an
   identity over a symbolic dimension, by sympy and by both engines on every instance), every
   step's hypotheses and the theorem's own hypotheses were found satisfiable, and every lemma is
   proved.  An erratum is "refuted" only when its counterexample evaluates exactly (hypotheses
   true, conclusion false) and z3 and cvc5 both find the concrete instance satisfiable.
4. *Check*: every entry's proof certificate (``proofs.verify.certificate``) goes to the independent
   checker (``checker``), which re-derives every step and accepts the engines' verdicts only on
   the texts it prints itself (the same texts: they are handed over, not solved again).  An entry
   stays "proved" (an erratum "refuted") only if the checker says so; step 3 is a convenience.
"""
from __future__ import annotations

import contextlib
import gc
import time
from dataclasses import dataclass, field

from proofs.verify.checks import DEFAULT, Options, _StepJob, _erratum, _nonvacuity, _relabel, start_replays
from proofs.catalogue.core import BUILD_ERROR, StepResult, Theorem, TheoremResult
from proofs.engines.engines import PROVED, REFUTED, SAT, UNKNOWN, Verdict
from proofs.language.formula import FormulaError
from proofs.kernel.kernel import KernelError, Proof

__all__ = ["run_catalogue", "check_theorem", "CatalogueResult", "build"]


@dataclass
class CatalogueResult:
    results: list[TheoremResult]
    seconds: float
    selected: list[str] = field(default_factory=list)
    cache_dir: str = ""                  # "" when the proof cache was not used
    certificates: dict = field(default_factory=dict)   # theorem id -> its certificate (checker/)
    built: dict = field(default_factory=dict)          # theorem id -> its Built proof, built once in this run

    def verdict_counts(self) -> tuple[int, int]:
        """(verdicts read from the proof cache, verdicts) over the steps checked (not repeated
        steps), the theorems' hypotheses and the errata's instances."""
        vs = []
        for r in self.results:
            for s in r.steps:
                if not s.memo:
                    vs += [s.verdict] + list(s.cross) + ([s.hyps_sat] if s.hyps_sat is not None else [])
            if r.nonvacuity is not None and r.nonvacuity.engine != "none":
                vs.append(r.nonvacuity)
            vs += r.erratum_verdicts
        return sum(v.cached for v in vs), len(vs)

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.results)

    def to_json(self) -> dict:
        hits, n = self.verdict_counts()
        return {"theorems": [r.to_json() for r in self.results], "seconds": round(self.seconds, 3),
                "ok": self.ok, "selected": self.selected,
                "cache": {"directory": self.cache_dir or None, "verdicts": n, "from_cache": hits}}

    def by_id(self, tid: str) -> TheoremResult:
        for r in self.results:
            if r.theorem.id == tid:
                return r
        raise KeyError(tid)


# --------------------------------------------------------------------------- build
@dataclass
class Built:
    theorem: Theorem
    proof: Proof | None = None
    error: str = ""
    fact: object = None                  # the fact the proof concluded (when it built)


def build(th: Theorem, make_proof=Proof) -> Built:
    """Run a theorem's proof against the kernel (no solver runs here).  ``make_proof`` makes the
    kernel object the proof talks to (tests pass a subclass that edits the proof's calls)."""
    if th.kind != "theorem":
        return Built(th)
    try:
        p = make_proof(th)              # the statement's own names are checked here
    except KernelError as e:
        return Built(th, None, str(e))
    try:
        fact = p.conclude(th.proof(p))
    except KernelError as e:
        return Built(th, p, str(e))
    except FormulaError as e:
        return Built(th, p, f"{th.id}: ill-formed formula: {e}")
    except Exception as e:  # a bug in proof code is a build error, never a proof
        return Built(th, p, f"{th.id}: the proof raised {type(e).__name__}: {e}")
    return Built(th, p, fact=fact)


# --------------------------------------------------------------------------- the run
def run_catalogue(ids=None, *, progress=None, make_proof=None, use_cache: bool | None = None,
                  options: Options = DEFAULT) -> CatalogueResult:
    """Check the theorems named (all when ``ids`` is None; ids or Theorem objects) and every lemma
    they use.  ``make_proof`` (tests only) builds the named theorems' proofs, not their lemmas'.
    ``use_cache=False`` neither reads nor writes the proof cache (None: as configured).
    ``options``: how the engines are run (:class:`proofs.verify.checks.Options`)."""
    from proofs.engines import cache
    if use_cache is None:
        return _run(ids, progress, make_proof, options)
    was = cache.enabled()
    cache.set_enabled(use_cache)
    try:
        return _run(ids, progress, make_proof, options)
    finally:
        cache.set_enabled(was)


@contextlib.contextmanager
def _fewer_collections():
    """Building the catalogue makes some 10^5 short-lived formula nodes, freed by reference
    counting (a formula has no cycles): the cycle collector's youngest generation is looked at
    every 20000 new objects instead of every 700 while it runs (a tenth of a warm run's CPU
    otherwise), and as before afterwards."""
    old = gc.get_threshold()
    gc.set_threshold(max(old[0], 20000), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


@_fewer_collections()
def _run(ids, progress, make_proof, options: Options) -> CatalogueResult:
    from proofs.engines import cache
    from proofs.catalogue import registry
    t0 = time.perf_counter()
    wanted = registry.all_theorems() if not ids else [registry.get(i) if isinstance(i, str) else i for i in ids]
    built: dict[str, Built] = {}
    order: list[str] = []
    # the engines' work starts as soon as each theorem is built (the worker processes start and
    # import their engines while this process builds the rest): the errata's replays first (the
    # longest jobs), then each theorem's steps and hypotheses as its proof is assembled
    replays = start_replays([th for th in wanted if th.kind == "erratum"])
    jobs: dict = {}                               # a step's key -> its job (one per text)
    extra: dict[str, tuple] = {}

    def start(tid: str):
        b = built[tid]
        th = b.theorem
        started = time.perf_counter()
        if th.kind == "erratum":
            extra[tid] = ("erratum", _erratum(th, replays.get(tid, _NO_REPLAY), options))
        elif not b.error:
            for st in b.proof.steps:
                key = _key(st)
                if key not in jobs:
                    jobs[key] = _StepJob(st, options)
                    jobs[key].start()
            extra[tid] = ("theorem", _nonvacuity(th))
        else:
            extra[tid] = ("build error",)
        extra[tid] = extra[tid] + (time.perf_counter() - started,)

    def visit(th: Theorem, stack=()):
        if th.id in built:
            return
        if th.id in stack:
            raise KernelError(f"lemma cycle: {' -> '.join(stack + (th.id,))}")
        b = build(th, make_proof) if (make_proof is not None and not stack) else build(th)
        if b.proof is not None:
            for lid in b.proof.lemmas:
                visit(registry.get(lid), stack + (th.id,))
        built[th.id] = b
        order.append(th.id)
        start(th.id)

    for th in wanted:
        visit(th)
    if not ids:                                   # catalogue order for the whole run
        order = [t.id for t in registry.all_theorems() if t.id in built]

    # a step whose text an earlier theorem (in the report's order) already has is a repeat ("memo")
    per_theorem: dict[str, list] = {}
    seen: set = set()
    for tid in order:
        b = built[tid]
        if b.theorem.kind != "erratum" and not b.error:
            pairs = []
            for st in b.proof.steps:
                key = _key(st)
                pairs.append((st, jobs[key], key in seen))
                seen.add(key)
            per_theorem[tid] = pairs

    # the certificates are written and read by the checker while the engines work (no engine
    # runs there); its verdicts come after the kernel's, below
    from proofs.verify.certificate import check_run, prepare
    origin = {id(st): job.step for pairs in per_theorem.values() for st, job, _ in pairs}
    prepared = prepare(built, origin)

    # collect and decide, lemmas first
    results: dict[str, TheoremResult] = {}
    for tid in order:
        b = built[tid]
        th = b.theorem
        t = time.perf_counter()
        r = TheoremResult(th)
        if th.kind == "erratum":
            _decide_erratum(r, extra[tid][1])
        elif b.error:
            r.status = BUILD_ERROR
            r.reasons.append(b.error)
        else:
            for st, job, memo in per_theorem[tid]:
                sr = job.result(st)
                sr.memo = memo
                r.steps.append(sr)
            (pend, how) = extra[tid][1]
            if pend is None:
                r.nonvacuity, r.nonvacuity_how = Verdict(SAT, "none", 0.0, reason="no hypotheses"), how
            else:
                p, info = pend
                import dataclasses
                v = dataclasses.replace(p.get()[0])          # answers are cached: never edit them in place
                v.counterexample = _relabel(v.counterexample, info)
                r.nonvacuity, r.nonvacuity_how = v, how
            _decide_theorem(r, b.proof, results)
        r.seconds = extra[tid][-1] + (time.perf_counter() - t)
        results[tid] = r
    # the kernel's verdicts are a convenience: each entry ends in the checker, on its certificate
    certs = check_run(built, results, origin, prepared)
    if progress is not None:
        for tid in order:
            progress(results[tid].theorem, results[tid])
    return CatalogueResult([results[i] for i in order], time.perf_counter() - t0,
                           [i if isinstance(i, str) else i.id for i in (ids or [])],
                           cache.directory() if cache.enabled() else "", certs, built)


class _NoReplay:
    def result(self):
        return None


_NO_REPLAY = _NoReplay()


def _key(st) -> tuple:
    hyps = tuple(f.formula for _, f in st.hyps)
    return (st.kind, hyps, st.goal)


def _decide_theorem(r: TheoremResult, proof: Proof, results: dict):
    own = sorted(proof.rules)
    allr = set(own)
    for lid in sorted(proof.lemmas):
        lr = results.get(lid)
        r.lemmas[lid] = lr.status if lr else "not checked"
        if lr:
            allr |= set(lr.rules)
    r.own_rules, r.rules = own, sorted(allr)
    refuted = []
    for s in r.steps:
        if s.verdict.status == REFUTED or any(v.status == REFUTED for v in s.cross):
            refuted.append(s.step.id)
        if not s.ok:
            r.reasons.append(_step_reason(s))
    for lid, st in r.lemmas.items():
        if st != PROVED:
            r.reasons.append(f"lemma {lid} is {st}")
    nv = r.nonvacuity
    if nv is None or nv.status != SAT:
        r.reasons.append("the theorem's hypotheses were not shown satisfiable together"
                         + (f" ({nv.status}{': ' + nv.reason if nv and nv.reason else ''})" if nv else ""))
    if refuted:
        r.status = REFUTED
    elif not r.reasons:
        r.status = PROVED
    else:
        r.status = UNKNOWN


def _step_reason(s: StepResult) -> str:
    parts = [f"{s.verdict.engine}: {s.verdict.status}" + (f" ({s.verdict.reason})" if s.verdict.reason and
                                                          s.verdict.status != PROVED else "")]
    for v in s.cross:
        if v.status != PROVED:
            parts.append(f"{v.engine}: {v.status}" + (f" ({v.reason})" if v.reason else ""))
    if s.hyps_sat is not None and s.hyps_sat.status != SAT:
        parts.append(f"hypotheses satisfiable: {s.hyps_sat.status}")
    return f"step {s.step.id}: " + "; ".join(parts)


def _decide_erratum(r: TheoremResult, info):
    exact, z3p, pend, replay = info
    r.exact = exact
    z3v = z3p.get()
    cv = pend.get() if pend is not None else Verdict(UNKNOWN, "cvc5", 0.0, reason="no instance")
    r.erratum_verdicts = [z3v] + ([cv] if pend is not None else [])
    try:
        r.witness = replay.result()
    except Exception as e:  # a replay that fails is a failed check, never a refutation
        r.witness = (False, f"the replay raised {type(e).__name__}: {e}")
    r.nonvacuity, r.nonvacuity_how = z3v, "the counterexample as a concrete instance (z3)"
    ok = exact[0] and z3v.status == SAT and cv.status == SAT and (r.witness is None or r.witness[0])
    if not exact[0]:
        r.reasons.append(f"exact evaluation: {exact[1]}")
    if z3v.status != SAT:
        r.reasons.append(f"z3 on the instance: {z3v.status} {z3v.reason}".strip())
    if cv.status != SAT:
        r.reasons.append(f"cvc5 on the instance: {cv.status} {cv.reason}".strip())
    if r.witness is not None and not r.witness[0]:
        r.reasons.append(f"replay: {r.witness[1]}")
    r.status = REFUTED if ok else UNKNOWN


def check_theorem(th: Theorem) -> TheoremResult:
    """One theorem (with its lemmas), outside the registry order."""
    return run_catalogue([th.id]).by_id(th.id)




def main(argv=None) -> int:
    """``python -m proofs.verify.runner [ID ...]``: check theorems and print each status with its reasons
    (a developer's view; ``mistakebound verify`` is the user's)."""
    import sys
    from learners.errors import InputError
    from proofs.catalogue import registry
    ids = list(sys.argv[1:] if argv is None else argv) or None
    if ids and ids[0] in ("-h", "--help"):
        print("usage: python -m proofs.verify.runner [ID ...]   check theorems (all when no ID is given)")
        return 0
    try:
        for i in ids or ():
            registry.get(i)
    except InputError as e:
        print(f"proofs.verify.runner: error: {str(e).splitlines()[0]}", file=sys.stderr)
        return 2
    cat = run_catalogue(ids)
    for r in cat.results:
        p, n = r.counts()
        print(f"{r.theorem.id:44s} {r.status:12s} steps {p}/{n}  rules: {', '.join(r.rules) or '-'}  {r.seconds:.2f} s")
        for why in r.reasons:
            print(f"    - {why}")
    print(f"{len(cat.results)} entries in {cat.seconds:.2f} s; all as expected: {cat.ok}")
    return 0 if cat.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
