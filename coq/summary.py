"""The verdict of ``mistakebound verify --coq``: the catalogue's counterparts, the learner theorems and
the Coq-vs-Python comparison of the learners, counted together in one headline that says FAILED
when any of the three fails.

:func:`check` builds the development (``coq.build``) and, when the learners compiled, runs the
comparison (``coq.differential.verdict``: every learner and Python path, :data:`DIFFERENTIAL_CASES`
sequences); :func:`summarize` turns the two reports into the lines ``verify --coq`` prints and the
JSON it writes.  The number of Admitted proofs is Coq's answer: the names ``Print Assumptions``
reports, for any counterpart, step, rule or learner theorem checked, outside the allowed axioms
(an Admitted lemma is reported under its own name); a gap the lexical audit finds in the sources
(``coq.checks.refused_commands``) is counted beside it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["Summary", "check", "summarize", "DIFFERENTIAL_CASES"]

DIFFERENTIAL_CASES = 270          # 30 per learner kind, every Python path (coq.differential.generate)
_GAP = re.compile(r"'(Admitted|admit|Admit)' is not allowed")


@dataclass
class Summary:
    lines: list = field(default_factory=list)     # what verify --coq prints, in order
    headline: str = ""
    ok: bool = False
    admitted: list = field(default_factory=list)  # assumptions beyond the allowed axioms (Coq's Print Assumptions)
    gaps: list = field(default_factory=list)      # Admitted / admit found in the sources
    json: dict = field(default_factory=dict)


def check(ids=None, *, progress=None, build_dir=None, sources=None, differential_cases: int = DIFFERENTIAL_CASES):
    """(the build report, the comparison's verdict or None when it was not run).  The comparison runs
    on the whole catalogue, or when a learner theorem is selected; it needs the learners compiled."""
    from coq import build, differential
    from coq.learner_theorems import LEARNER_THEOREMS
    rep = build.build(ids, build_dir=build_dir, sources=sources, progress=progress)
    if not rep.available:
        return rep, None
    if ids and not set(ids) & {lt.id for lt in LEARNER_THEOREMS}:
        return rep, None
    needed = {"Learners.v", "LearnersTrace.v", "LearnersPA.v", "LearnersExperts.v", "LearnersFloat.v"}
    from pathlib import Path
    bdir = Path(rep.build_dir) if rep.build_dir else (build_dir or build.default_build_dir())
    if not needed <= set(rep.compiled) | set(rep.reused) or needed & set(rep.file_errors):
        return rep, differential.Verdict(0, [], 0.0, {}, {}, 0, "the learners did not compile")
    return rep, differential.verdict(differential_cases, bdir, coqc=rep.coqc or "coqc")


def _theorem_line(t, build) -> str | None:
    steps = f"steps {t.steps_checked}/{t.steps_total}" if t.steps_total else "no steps"
    line = f"{t.status:<15} {t.id:<36} {steps}"
    if t.status == build.NO_COUNTERPART:
        line = f"{t.status:<18} {t.id:<36} {steps}"
    elif t.status != build.KERNEL_CHECKED:
        line += f"  {t.reason}"
    elif not t.steps_ok:
        if not t.steps_required:
            line += "  (step tactics for this family not written yet)"
        elif t.steps_failed:
            line += f"  step not closed: {', '.join(t.steps_failed)}"
        else:
            line += f"  {len(t.steps_unchecked)} step(s) not reached: an earlier step in the same step file did not close"
    if t.rules_not_proved:
        line += f"  {len(t.rules_not_proved)} rule(s) not in Coq"
    return line[:300]


def summarize(rep, dv=None, quiet: bool = False) -> Summary:
    """The lines of ``verify --coq`` (one per theorem unless ``quiet`` and kernel-checked; the learner
    theorems; the comparison; the headline; the trusted rules; the build) and its JSON."""
    from coq import build
    s = Summary()
    for t in rep.theorems:
        if not quiet or t.status != build.KERNEL_CHECKED or (t.steps_required and not t.steps_ok):
            s.lines.append(_theorem_line(t, build))
    lk = sum(t.status == build.KERNEL_CHECKED for t in rep.learners)
    if rep.learners:
        s.lines.append("learner theorems (the Coq learners of Learners.v, LearnersExperts.v, LearnersPA.v, LearnersHedge.v, "
                       "LittlestoneSOA.v, LearnersMulticlass.v and LearnersSecondOrder.v, or every algorithm, run on any sequence meeting the entry's conditions; "
                       "compared with the Python learner named):")
        for t in rep.learners:
            if not quiet or t.status != build.KERNEL_CHECKED:
                line = f"  {t.status:<15} {t.id:<33} {t.python.split('.', 1)[-1]}, the bound of {t.base}"
                s.lines.append((line + (f"  {t.reason}" if t.reason else ""))[:300])
        s.lines.append(f"learner theorems kernel-checked: {lk}/{len(rep.learners)}")
    if dv is not None:
        s.lines += [f"differential: {line}" for line in dv.differing[:20]]
        s.lines.append(f"differential (Coq learners against the Python learners): {dv.line()}")
    s.lines += [f"problem: {p}" for p in rep.audit]
    k, n = rep.counts()
    extra = [a for a in rep.axioms_used() if rep.allowed.get(a) != "reals"]
    reals = [a for a in rep.axioms_used() if rep.allowed.get(a) == "reals"]
    steps_ok = sum(t.steps_checked for t in rep.theorems)
    steps_all = sum(t.steps_total - len(t.steps_not_exported) for t in rep.theorems)
    none = sum(t.status == build.NO_COUNTERPART for t in rep.theorems)
    s.admitted = sorted({a for got in rep.assumptions.values() if got for a in got if a not in rep.allowed})
    s.gaps = [p for p in rep.audit if _GAP.search(p)]
    diff_ok = dv is None or dv.ok
    s.ok = rep.ok and diff_ok and not s.admitted
    diff = ("differential not run (no learner theorem selected)" if dv is None else
            f"differential {dv.cases - len(dv.differing)}/{dv.cases} identical" if not dv.error else
            "differential FAILED")
    s.headline = ("" if s.ok else "FAILED: ") + (
        f"{k}/{n} kernel-checked in Coq {rep.version}" + (f" ({none} without a Coq counterpart)" if none else "")
        + f", learner theorems {lk}/{len(rep.learners)}, {diff}; {len(s.admitted)} Admitted"
        + (f", {len(s.gaps)} gap(s) in the sources" if s.gaps else "")
        + f"; axioms: {len(reals)} of the standard reals, {len(extra)} beyond"
        + (f" ({', '.join(a.split('.')[-1] for a in extra)})" if extra else "") + f"; steps {steps_ok}/{steps_all}")
    s.lines.append(s.headline)
    unproved = sorted({r for t in rep.theorems for r in t.rules_not_proved})
    s.lines.append(f"trusted rules not proved in Coq: {len(unproved)}" + (" (" + ", ".join(
        f"{r}: {sum(r in t.rules_not_proved for t in rep.theorems)} theorems" for r in unproved) + ")"
        if unproved else ""))
    s.lines.append(f"build {rep.seconds:.1f} s ({rep.cpu_seconds:.1f} s of coqc CPU; {len(rep.compiled)} files compiled, "
                   f"{len(rep.reused)} reused from {rep.build_dir})" + ("" if rep.ok else "  FAILED"))
    s.json = {**rep.to_json(), "ok": s.ok, "headline": s.headline, "admitted": s.admitted, "gaps": s.gaps,
              "differential": dv.to_json() if dv is not None else None}
    return s
