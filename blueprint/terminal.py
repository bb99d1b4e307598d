"""One entry's proof in the terminal (``mistakebound verify --show ID``): the statement, the lecture
note, the lemmas both ways, and every step with the facts it uses (and what they rest on), the
engines' verdicts, the trusted rules it applies and its Coq lemma.  Plain text from the same model
as the site (``blueprint.model``), printed with ``proofs.printers.render.text``."""
from __future__ import annotations

import textwrap

from proofs.printers.render import text

from blueprint.model import grouped

__all__ = ["show_text"]


def _grouped(pairs) -> str:
    return "; ".join(f"{e} {s}" + (f" x{n}" if n > 1 else "") for (e, s), n in grouped(pairs))


def _wrap(s: str, indent: int, width: int) -> list:
    return textwrap.wrap(s, width=max(40, width - indent), subsequent_indent="  ",
                         break_long_words=False, break_on_hyphens=False) or [""]


def show_text(e, width: int = 100) -> str:  # noqa: C901 - one section after the other
    L: list = []

    def put(s: str, indent: int = 0):
        for line in _wrap(s, indent, width):
            L.append(" " * indent + line)

    kind = "erratum: a false statement of the notes" if e.kind == "erratum" else "theorem"
    put(f"{e.id}: {e.name}")
    put(f"status: {e.status} ({kind}; expected {e.expected}){'' if e.ok else '  NOT AS EXPECTED'}")
    for r in e.reasons:
        put(f"- {r}", 2)
    if e.hypotheses:
        put("hypotheses:")
        for n, f in e.hypotheses:
            put(f"{n}: {text(f)}", 2)
    put(f"conclusion: {text(e.conclusion)}")
    s = e.source
    put(f"source: {s['title']}" + (f" [{s['note']}]" if s["note"] else "") + f": {s['where']}")
    put(f"the source's wording: {s['how']}", 2)
    put(f"module: {e.module}; Coq: {e.coq} (coq/{e.coq.split('.')[0]}.v)")
    if e.coq_check is not None:
        c = e.coq_check
        put(f"Coq: {c['status']}, steps {c['steps_checked']}/{c['steps_total']}" + (f" ({c['reason']})" if c["reason"] else ""))
    put("lemmas: " + (", ".join(f"{i} ({st})" for i, st in e.lemmas) or "none"))
    put("used by: " + (", ".join(e.used_by) or "no theorem of the catalogue"))
    if e.kind == "theorem":
        put("trusted rules: " + (", ".join(r + ("" if r in e.own_rules else " (through a lemma)") for r in e.rules)
                                 or "none"))
    if e.nonvacuity:
        put(f"hypotheses satisfiable together: {e.nonvacuity} ({e.nonvacuity_how})")
    if e.kind == "erratum":
        import json
        put(f"counterexample: {json.dumps(e.counterexample, sort_keys=True)}")
        put(f"exact evaluation: {e.exact or '-'}")
        if e.witness:
            put(f"replay: {e.witness}")
        return "\n".join(L) + "\n"
    L.append("")
    put(f"proof ({len(e.steps)} step{'s' if len(e.steps) != 1 else ''}, in the order the kernel registered them):")
    for i, st in enumerate(e.steps, 1):
        L.append("")
        put(f"{i}. {st.id} ({st.kind}){'' if st.ok else '  NOT PROVED'}: {st.title}", 2)
        if st.facts:
            put("uses:", 5)
            for f in st.facts:
                rests = ", ".join(f"{k} {n}" for k, n in f.origins)
                put(f"{f.label} ({f.how_text}; rests on {rests}): {text(f.formula)}", 7)
        put(f"proves: {text(st.goal)}", 5)
        v = _grouped(st.verdicts)
        if st.recheck != "full":
            v += f" ({st.recheck})"
        if st.hyps_sat:
            v += f"; hypotheses satisfiable: {st.hyps_sat}"
        put(f"verdicts: {v}", 5)
        rules = sorted({n for f in st.facts for k, n in f.origins if k == "rule"})
        if rules:
            put(f"trusted rules: {', '.join(rules)}", 5)
        if st.coq_lemma:
            put(f"Coq: Lemma {st.coq_lemma} ({st.coq_file})" + (f": {st.coq_status}" if st.coq_status else ""), 5)
        else:
            put("Coq: not exported as a step lemma", 5)
    if e.conclusion_from:
        L.append("")
        put("the conclusion is the fact of: " + ", ".join(f"{k} {n}" for k, n in e.conclusion_from), 2)
    return "\n".join(L) + "\n"
