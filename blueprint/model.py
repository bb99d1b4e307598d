"""What the site (and ``mistakebound verify --show``) says about each catalogue entry, gathered
once: the run's verdicts, the proof's structure as the kernel built it, the Coq names (and, when
asked, Coq's verdicts), the lemma graph both ways, and the worst-case sequences.

Everything here is deterministic: no timings, no solver models (z3's example models may differ
between runs), every list sorted or in the catalogue's order.  Formulas stay formula objects
(``proofs.language.formula.Expr``); the printers (text, LaTeX, MathML) read them.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from proofs.verify.checks import REPLAY_CACHED
from proofs.catalogue.core import TheoremResult
from proofs.catalogue.sources import TITLES

__all__ = ["Entry", "Step", "FactUse", "Catalogue", "collect", "entry_from_result", "grouped", "SITE_STATUSES",
           "site_status", "coq_ok", "origins"]

# the statuses the site shows (in this order in the legend)
SITE_STATUSES = ("kernel-checked", "proved", "refuted", "unknown")

_HOW = {"hypothesis": "hypothesis", "solve": "step", "identity": "identity", "lemma": "lemma",
        "rule": "trusted rule", "inst": "instance", "specialize": "instance", "generalize": "generalization",
        "induction": "induction"}


@dataclass
class FactUse:
    """One fact a step uses: its label in the step, how the kernel made it, its formula, and where
    it comes from (the steps, hypotheses, lemmas and rules it rests on directly)."""
    label: str
    how: str
    formula: object
    origins: list            # [("step" | "hyp" | "lemma" | "rule", name), ...]

    @property
    def how_text(self) -> str:
        return _HOW.get(self.how, self.how)


@dataclass
class Step:
    id: str
    kind: str                  # solve | identity
    title: str
    goal: object
    facts: list                # FactUse
    verdicts: list             # [(engine, status)], primary first
    recheck: str               # "full" or what the second opinion covered
    hyps_sat: str | None       # sat / unsat / unknown (no model: it may differ between runs)
    unused: list               # labels the goal followed without (a diagnostic: a solver timeout under load
                               # changes it, so the site and the terminal view do not show it)
    ok: bool
    coq_lemma: str | None      # e.g. block_novikoff_unit__invariant_step
    coq_file: str | None       # e.g. Steps_block_novikoff.v
    coq_status: str | None = None    # kernel-checked / not closed / not reached / None (Coq not run)
    coq_reason: str = ""

    def to_json(self) -> dict:
        from proofs.printers.render import latex, text
        return {"id": self.id, "kind": self.kind, "title": self.title, "goal": text(self.goal),
                "goal_latex": latex(self.goal),
                "facts": [{"label": f.label, "how": f.how_text, "formula": text(f.formula),
                           "rests_on": [f"{k}:{n}" for k, n in f.origins]} for f in self.facts],
                "verdicts": [{"engine": e, "status": s} for e, s in self.verdicts], "recheck": self.recheck,
                "hypotheses_satisfiable": self.hyps_sat, "not_needed": list(self.unused), "ok": self.ok,
                "coq_lemma": self.coq_lemma, "coq_file": self.coq_file, "coq_status": self.coq_status}


@dataclass
class Entry:
    id: str
    name: str
    kind: str
    family: str
    module: str
    coq: str
    status: str                # the run's: proved / refuted / unknown / build error
    expected: str
    ok: bool
    reasons: list
    hypotheses: list           # [(name, Expr)]
    conclusion: object
    statement: object
    source: dict               # note, title, where, how
    encoding: str = ""
    notes: str = ""
    lemmas: list = field(default_factory=list)       # [(id, status)] direct lemmas, sorted
    used_by: list = field(default_factory=list)      # ids, catalogue order
    rules: list = field(default_factory=list)
    own_rules: list = field(default_factory=list)
    steps: list = field(default_factory=list)        # Step, proof order
    conclusion_from: list = field(default_factory=list)   # origins of the fact the proof returned
    nonvacuity: str | None = None                    # sat / ... (no model)
    nonvacuity_how: str = ""
    counterexample: dict | None = None
    exact: str = ""
    witness: str = ""
    coq_check: dict | None = None                    # None: Coq not run
    worst: dict | None = None                        # blueprint.worst's figures, when there are some

    @property
    def site_status(self) -> str:
        return site_status(self)

    def to_json(self) -> dict:
        from proofs.printers.render import latex, text
        d = {"id": self.id, "name": self.name, "kind": self.kind, "family": self.family, "module": self.module,
             "coq": self.coq, "status": self.status, "site_status": self.site_status, "expected": self.expected,
             "ok": self.ok, "reasons": list(self.reasons),
             "hypotheses": [{"name": n, "formula": text(f), "latex": latex(f)} for n, f in self.hypotheses],
             "conclusion": text(self.conclusion), "conclusion_latex": latex(self.conclusion),
             "statement": text(self.statement), "source": dict(self.source),
             "lemmas": [{"id": i, "status": s} for i, s in self.lemmas], "used_by": list(self.used_by),
             "trusted_rules": list(self.rules), "trusted_rules_own": list(self.own_rules),
             "steps": [s.to_json() for s in self.steps],
             "conclusion_rests_on": [f"{k}:{n}" for k, n in self.conclusion_from],
             "hypotheses_satisfiable": self.nonvacuity, "coq_check": self.coq_check}
        if self.counterexample is not None:
            d["counterexample"] = self.counterexample
            d["exact_evaluation"] = self.exact
        return d


def coq_ok(e: Entry) -> bool:
    """Coq was run and its kernel checked the counterpart (an erratum's: the negation) and the steps."""
    return bool(e.coq_check and e.coq_check.get("status") == "kernel-checked" and e.coq_check.get("steps_ok", True))


def site_status(e: Entry) -> str:
    """A theorem: kernel-checked / proved / unknown; an erratum stays "refuted" (its Coq check is
    shown beside it), so that a false statement of the notes is never coloured as a theorem."""
    if not e.ok:
        return "unknown"
    if e.kind == "theorem" and coq_ok(e):
        return "kernel-checked"
    return e.status


@dataclass
class Catalogue:
    entries: list              # Entry, catalogue order
    coq_run: bool              # Coq was asked for (and available)
    coq_version: str = ""
    ok: bool = True

    def by_id(self, tid: str) -> Entry:
        for e in self.entries:
            if e.id == tid:
                return e
        raise KeyError(tid)


# --------------------------------------------------------------------------- the proof's structure
def origins(fact) -> list:
    """The steps, hypotheses, lemmas and trusted rules a fact rests on directly (through instances
    and specializations, which add nothing of their own), in a stable order without repeats."""
    out: list = []
    stack = [fact]
    seen = set()
    while stack:
        f = stack.pop()
        if id(f) in seen:
            continue
        seen.add(id(f))
        if f.step is not None:
            o = ("step", f.step.id)
        elif f.how == "hypothesis":
            o = ("hyp", f.label)
        elif f.how == "lemma":
            o = ("lemma", f.lemma)
        elif f.how == "rule":
            o = ("rule", f.rule)
        else:
            o = None
            if f.how == "induction":
                if ("rule", "induction") not in out:
                    out.append(("rule", "induction"))
            stack.extend(reversed(f.premises))
        if o is not None and o not in out:
            out.append(o)
    return out


def _source(th) -> dict:
    note = th.source.note
    return {"note": note, "title": TITLES.get(note, note) if note else TITLES[""], "where": th.source.where,
            "how": th.source.how}


def entry_from_result(r: TheoremResult, built=None, coq_steps=None) -> Entry:
    """An entry from a run's result; ``built`` is the proof as the kernel built it
    (``proofs.verify.runner.build``), ``coq_steps`` the Coq lemma of each step (step id -> (lemma, file))."""
    th = r.theorem
    e = Entry(id=th.id, name=th.name, kind=th.kind, family=th.family, module=f"proofs/catalogue/{th.family}.py",
              coq=th.coq, status=r.status, expected=th.expected, ok=r.ok, reasons=list(r.reasons),
              hypotheses=list(th.hypotheses), conclusion=th.conclusion, statement=th.statement,
              source=_source(th), encoding=th.encoding, notes=th.notes,
              lemmas=sorted(r.lemmas.items()), rules=list(r.rules), own_rules=list(r.own_rules))
    if r.nonvacuity is not None:
        e.nonvacuity, e.nonvacuity_how = r.nonvacuity.status, r.nonvacuity_how
    if th.counterexample is not None:
        e.counterexample = th.counterexample
        e.exact = r.exact[1] if r.exact else ""
        # the same page whether the replay ran now or came from the proof cache
        e.witness = r.witness[1].replace(REPLAY_CACHED, "") if r.witness else ""
    coq_steps = coq_steps or {}
    for s in r.steps:
        st = s.step
        facts = [FactUse(lab, f.how, f.formula, origins(f)) for lab, f in st.hyps]
        lem, cfile = coq_steps.get(st.id, (None, None))
        e.steps.append(Step(
            id=st.id, kind=st.kind, title=st.title, goal=st.goal, facts=facts,
            verdicts=[(s.verdict.engine, s.verdict.status)] + [(v.engine, v.status) for v in s.cross],
            recheck=s.recheck, hyps_sat=s.hyps_sat.status if s.hyps_sat is not None else None,
            unused=sorted(s.unused()), ok=s.ok, coq_lemma=lem, coq_file=cfile))
    if built is not None and built.fact is not None:
        e.conclusion_from = origins(built.fact)
    return e


def _coq_step_names(theorems, built=None) -> dict:
    """theorem id -> step id -> (Coq lemma name, its file): the names coq.generate gives them."""
    from coq.generate import generated_files, step_group
    _, steps, _ = generated_files(theorems, built)
    out = {}
    for th in theorems:
        out[th.id] = {sid: ((lem, f"Steps_{step_group(th)}.v") if lem else (None, None))
                      for sid, lem, _ in steps.get(th.id, [])}
    return out


def _coq_checks(ids) -> tuple[dict, str]:
    """Coq's verdict per theorem (coq.build; the compiled files are reused between runs)."""
    from coq import build as coq_build
    rep = coq_build.build(ids)
    out = {}
    for t in rep.theorems:
        out[t.id] = {"status": t.status, "reason": t.reason, "steps_ok": t.steps_ok or not t.steps_required,
                     "steps_checked": t.steps_checked, "steps_total": t.steps_total,
                     "failed": sorted(t.steps_failed), "unchecked": sorted(t.steps_unchecked),
                     "not_exported": sorted(i for i, _ in t.steps_not_exported),
                     "axioms": sorted(t.axioms), "rules_discharged": sorted(t.rules_discharged)}
    return out, rep.version


def collect(ids=None, *, coq: bool = False, worst: bool = True, progress=None) -> Catalogue:
    """Run the catalogue (the entries named and their lemmas; all when ``ids`` is None) and gather
    every entry.  ``coq``: also kernel-check in Coq (needs coqc).  ``worst``: compute the worst-case
    sequences (``blueprint.worst``)."""
    from proofs.catalogue import registry
    from proofs.verify.runner import build, run_catalogue
    cat = run_catalogue(ids, progress=progress)
    theorems = [r.theorem for r in cat.results]
    built = dict(cat.built)                       # each proof built once in this run

    def built_of(th):
        if th.kind != "theorem":
            return None
        if th.id not in built:
            built[th.id] = build(th)
        return built[th.id]
    for th in registry.all_theorems():
        built_of(th)
    coq_names = _coq_step_names(registry.all_theorems(), built)
    checks, version = ({}, "")
    if coq:
        checks, version = _coq_checks([t.id for t in theorems])
    entries = []
    for r in cat.results:
        e = entry_from_result(r, built_of(r.theorem), coq_names.get(r.theorem.id))
        if coq and e.id in checks:
            c = checks[e.id]
            e.coq_check = c
            for s in e.steps:
                if s.coq_lemma is None:
                    s.coq_status = "not exported"
                elif s.id in c["failed"]:
                    s.coq_status = "not closed"
                elif s.id in c["unchecked"]:
                    s.coq_status = "not reached"
                else:                      # its step file compiled up to and past it
                    s.coq_status = "kernel-checked"
        entries.append(e)
    users: dict[str, list] = {}                   # over the whole catalogue, whatever was run
    for th in registry.all_theorems():
        b = built_of(th)
        for lid in sorted(b.proof.lemmas) if b is not None and b.proof is not None else ():
            users.setdefault(lid, []).append(th.id)
    for e in entries:
        e.used_by = users.get(e.id, [])
    if worst:
        from blueprint.worst import worst_cases
        for e in entries:
            e.worst = worst_cases(e.id)
    return Catalogue(entries, coq_run=coq, coq_version=version, ok=cat.ok)


def grouped(pairs) -> list:
    """Equal verdicts side by side counted once (an identity's re-checks in d = 1, 2, 3): [(pair, n)]."""
    out: list = []
    for p in pairs:
        if out and out[-1][0] == p:
            out[-1][1] += 1
        else:
            out.append([p, 1])
    return [(p, n) for p, n in out]
