"""Proof certificates: what the kernel built, written as plain data for the checker (``checker``).

A certificate (docs/certificates.md) is one JSON object per catalogue entry: the symbols with
their sorts, the hypotheses and the conclusion, every step the concluded fact rests on (premises
first) with the steps it uses and how it was made (a rule instance with its arguments, a lemma
with its instantiation, an engine obligation, ...), and the statements of the lemmas it uses.  An
erratum carries its counterexample instead of steps.  Nothing here is trusted: a certificate that
does not say what the proof did is refused by the checker, never "proved".

This module also decodes the checker's terms back into formula objects (:func:`to_expr`), so that
an identity obligation is decided by the same engines as the kernel's (sympy in a symbolic
dimension, z3 and cvc5 on the instances in dimensions 1, 2, 3), and it is the engines' side of
the checker's oracle (:func:`oracle`): each obligation's verdict on the checker's own text.
"""
from __future__ import annotations

from fractions import Fraction

from checker import FORMAT, VERSION
from checker.terms import Term

from proofs.language.formula import INT, NAT, REAL, Expr, num
from proofs.kernel.kernel import Fact, dependencies

__all__ = ["make", "term", "symbols", "to_expr", "oracle", "check_run", "prepare"]


def _frac(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


def term(e: Expr, memo: dict | None = None):
    """A formula object in the certificate's wire form (``checker.terms``)."""
    if memo is not None:               # equal subterms share one list (the checker reads it once)
        hit = memo.get(id(e))
        if hit is not None and hit[0] is e:
            return hit[1]
        hit = memo.get(e)
        if hit is not None:
            memo[id(e)] = (e, hit)
            return hit
    op = e.op
    if op == "var":
        out = e.name
    elif op == "num":
        out = ["real" if e.sort == REAL else "int", _frac(e.value)]
    elif op == "call":
        out = ["call", e.name] + [term(a, memo) for a in e.args]
    elif op == "forall":
        out = ["forall", [v.name for v in e.args[:-1]], term(e.args[-1], memo)]
    else:
        out = [op] + [term(a, memo) for a in e.args]
    if memo is not None:
        memo[e] = out
        memo[id(e)] = (e, out)
    return out


def symbols(formulas) -> dict:
    """Every symbol of the formulas, declared: ``["var", sort]`` or ``["fun", [sorts], sort]``."""
    out: dict = {}
    seen: set = set()
    stack = list(formulas)
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        stack.extend(n.args)
        if n.op == "var":
            out.setdefault(n.name, ["var", n.sort])
        elif n.op == "call":
            out.setdefault(n.name, ["fun", [INT if a.sort in (INT, NAT) else a.sort for a in n.args], n.sort])
    return out


def _statement(th, memo) -> dict:
    fs = [f for _, f in th.hypotheses] + [th.conclusion]
    return {"symbols": symbols(fs), "hypotheses": [[n, term(f, memo)] for n, f in th.hypotheses],
            "conclusion": term(th.conclusion, memo)}


def _value(x):
    if isinstance(x, bool):
        return x
    if isinstance(x, (int, Fraction)):
        return _frac(Fraction(x))
    if isinstance(x, str):
        return x
    if isinstance(x, (list, tuple)):
        return [_value(y) for y in x]
    if isinstance(x, dict) and sorted(x) == list(range(len(x))):
        return [_value(x[k]) for k in range(len(x))]
    raise ValueError(f"a counterexample value {type(x).__name__} has no certificate form")


def make(th, fact: Fact | None = None, origin: dict | None = None, memo: dict | None = None) -> dict:
    """The certificate of a theorem whose proof concluded ``fact`` (an erratum: none).

    ``origin`` maps a step (by id) to the step whose text the engines were given for it -- an
    earlier theorem's step with the same facts and goal: its comment and labels are the ones
    recorded, so that the checker prints that very text (comments carry no meaning)."""
    origin = origin or {}
    memo = {} if memo is None else memo          # one per run: equal subterms share one list
    cert = {"format": FORMAT, "version": VERSION, "theorem": th.id, "kind": th.kind, "name": th.name}
    stmt = _statement(th, memo)
    formulas = [f for _, f in th.hypotheses] + [th.conclusion]
    if th.kind == "erratum":
        cert.update(stmt)
        cert["counterexample"] = {k: _value(v) for k, v in (th.counterexample or {}).items()}
        return cert
    ids: dict = {}
    steps: list = []
    lemmas: dict = {}
    order = _postorder(fact)
    n = 0
    for f in order:
        if f.step is not None:
            sid = f.step.id
        elif f.how == "hypothesis":
            sid = f"h:{f.label}"
        else:
            n += 1
            sid = f"f{n}:{f.how}"
        ids[id(f)] = sid
        s = {"id": sid, "by": f.how, "formula": term(f.formula, memo)}
        formulas.append(f.formula)
        if f.how == "hypothesis":
            s["name"] = f.label
        elif f.how == "solve":
            first = origin.get(id(f.step), f.step)
            s["uses"] = [[lab, ids[id(p)]] for (lab, _), (_, p) in zip(first.hyps, f.step.hyps)]
            s["comment"] = f"step {first.id} of {first.theorem}: {first.title}"
        elif f.how == "identity":
            s["title"] = f.step.title
        elif f.how == "rule":
            rid, _, schema = f.rule.partition(".")
            s.update({"rule": rid, "schema": schema, "args": [term(a, memo) for a in f.rule_args]})
            formulas.extend(f.rule_args)
        elif f.how == "lemma":
            from proofs.catalogue import registry
            s.update({"lemma": f.lemma, "mapping": [[v.name, term(num(t), memo)] for v, t in f.rule_args]})
            formulas.extend(num(t) for _, t in f.rule_args)
            if f.lemma not in lemmas:
                lemmas[f.lemma] = _statement(registry.get(f.lemma), memo)
        elif f.how == "inst":
            s.update({"uses": [ids[id(f.premises[0])]], "terms": [term(t, memo) for t in f.rule_args]})
            formulas.extend(f.rule_args)
        elif f.how == "specialize":
            s.update({"uses": [ids[id(f.premises[0])]], "mapping": [[v.name, term(num(t), memo)] for v, t in f.rule_args]})
            formulas.extend(num(x) for pair in f.rule_args for x in pair)
        elif f.how == "generalize":
            s.update({"uses": [ids[id(f.premises[0])]], "vars": [term(v, memo) for v in f.rule_args]})
            formulas.extend(f.rule_args)
        elif f.how == "induction":
            k, P, bound = f.rule_args
            s.update({"uses": [ids[id(p)] for p in f.premises], "var": term(k, memo), "predicate": term(P, memo),
                      "bound": term(bound, memo)})
            formulas.extend((k, P, bound))
        steps.append(s)
    cert["symbols"] = symbols(formulas)
    cert.update({"hypotheses": stmt["hypotheses"], "conclusion": stmt["conclusion"], "lemmas": lemmas, "steps": steps})
    return cert


def _postorder(fact: Fact) -> list:
    """The facts ``fact`` rests on, each after the facts it uses, ``fact`` last."""
    out, done = [], set()
    stack = [(fact, False)]
    while stack:
        f, expanded = stack.pop()
        if id(f) in done:
            continue
        if expanded:
            done.add(id(f))
            out.append(f)
            continue
        stack.append((f, True))
        for p in reversed(f.premises):
            if id(p) not in done:
                stack.append((p, False))
    return out


_ = dependencies


# ----------------------------------------------------------------------------- back to formula objects
def to_expr(t: Term, memo: dict | None = None) -> Expr:
    """The checker's term as a formula object (for the engines that decide identities)."""
    memo = {} if memo is None else memo
    hit = memo.get(t)
    if hit is not None:
        return hit
    if t.op == "lit":
        e = Expr("num", value=t.value, sort=t.sort)
    elif t.op in ("var", "call"):
        e = Expr(t.op, tuple(to_expr(a, memo) for a in t.args), name=t.name, sort=t.sort, tex=t.name, text=t.name)
    else:
        e = Expr(t.op, tuple(to_expr(a, memo) for a in t.args), sort=t.sort)
    memo[t] = e
    return e


# ----------------------------------------------------------------------------- the engines' side of the oracle
STATS = {"obligations": 0, "handed_over": 0}     # handed over: decided before on the very same text
SAT_TIMEOUT_MS = 5000      # z3 on whether a certificate's hypotheses hold together; past it: "unknown"


def oracle(known: dict | None = None, options=None):
    """An oracle for ``checker.decide``: each obligation's verdicts on the checker's own text.

    ``known`` maps a text to verdicts already given on exactly that text in this run (the
    kernel's own check of the same step); any other text is sent to the engines (z3 and cvc5 on
    an SMT-LIB text; sympy and the coordinate instances on an identity), answered from the proof
    cache when it was decided before.  ``options``: how the engines are run
    (:class:`proofs.verify.checks.Options`; None: the default)."""
    from proofs.verify.checks import DEFAULT
    options = options or DEFAULT
    known = known or {}
    counterexamples: dict = {}      # text -> (engine, values): a solver's model refuting that text

    def ask(obligations):
        STATS["obligations"] += len(obligations)
        from proofs.engines.engines import REFUTED, PendingCvc5, PendingZ3
        out: list = [None] * len(obligations)
        pend = []
        for n, o in enumerate(obligations):
            if o.kind != "sat" and o.text in known:
                out[n] = dict(known[o.text])
                STATS["handed_over"] += 1
            elif o.kind == "smt":
                pend.append((n, "smt", (PendingZ3(o.text, options.timeout_ms), PendingCvc5(o.text, options.timeout_ms))))
            elif o.kind == "sat":          # are the hypotheses satisfiable?  z3's model (checked exactly there)
                pend.append((n, "sat", PendingZ3(o.text, SAT_TIMEOUT_MS, expect_sat=True)))
            else:
                pend.append((n, "identity", _identity_job(o, options)))
        for n, kind, job in pend:
            if kind == "sat":
                v = job.get()
                out[n] = {"z3": v.status, "model": dict(v.counterexample or {})}
            elif kind == "smt":
                vs = [job[0].get(), job[1].get()]
                out[n] = {"z3": vs[0].status, "cvc5": vs[1].status}
                model = next((v for v in vs if v.status == REFUTED and v.counterexample), None)
                if model is not None:
                    counterexamples[obligations[n].text] = (model.engine, dict(model.counterexample))
            else:
                out[n] = identity_verdicts(job[1].result(job[0]))
        return out
    ask.counterexamples = counterexamples
    return ask


def _identity_job(o, options):
    from proofs.verify.checks import _StepJob
    from proofs.kernel.kernel import Step
    goal = to_expr(o.goal)
    st = Step(o.step, "identity", "checker", (), goal, "checker")
    job = _StepJob(st, options)
    job.start()
    return st, job


def identity_verdicts(sr) -> dict:
    """An identity's verdicts as the checker reads them: sympy, and every coordinate instance."""
    from proofs.engines.engines import PROVED, UNKNOWN
    inst = PROVED if sr.cross and all(v.status == PROVED for v in sr.cross) else UNKNOWN
    return {"sympy": sr.verdict.status, "instances": inst}


# ----------------------------------------------------------------------------- a run ends in the checker
def known_verdicts(results) -> dict:
    """The verdicts a run's engines gave, by the exact text the checker gives each obligation:
    a solve step's SMT-LIB text (z3's and cvc5's), an identity's canonical text (sympy's and the
    coordinate instances')."""
    import checker
    from proofs.engines.engines import UNKNOWN
    known, done, memo = {}, set(), {}
    for r in results:
        for sr in r.steps:
            if sr.step.kind == "solve":
                known[sr.smtlib] = {"z3": sr.verdict.status, "cvc5": sr.cross[-1].status if sr.cross else UNKNOWN}
            elif sr.step.goal not in done:
                done.add(sr.step.goal)
                key = checker.identity_key(term(sr.step.goal, memo), symbols([sr.step.goal]))
                known[key] = identity_verdicts(sr)
    return known


def check_run(built: dict, results: dict, origin: dict | None = None, prepared=None) -> dict:
    """Write every certificate of a run, have the checker decide each, and let its verdict stand:
    a theorem the kernel's pipeline called proved (an erratum: refuted) keeps that status only if
    the checker says the same of its certificate.  The checker's texts are the kernel's when the
    printers agree, and then the verdicts already given on them are handed over (no second engine
    pass); any other text goes to the engines.  ``prepared``: what :func:`prepare` made of the
    same ``built`` and ``origin`` (the runner does that while the engines still work).  Returns
    theorem id -> certificate."""
    import checker
    from proofs.engines.engines import PROVED, REFUTED, UNKNOWN
    certs, checked, failed = prepared if prepared is not None else prepare(built, origin)
    for tid, why in failed.items():
        results[tid].reasons.append(why)
    known = known_verdicts([results[tid] for tid in certs])
    verdicts = checker.decide(checked, oracle(known))
    for tid, r in results.items():
        v = verdicts.get(tid)
        r.checker = v
        want = PROVED if r.theorem.kind == "theorem" else REFUTED
        if r.status == want and (v is None or v.status != want):
            r.status = REFUTED if v is not None and v.status == REFUTED else UNKNOWN
            r.reasons.append("the checker " + (f"says {v.status}: " + "; ".join(v.reasons[:3]) if v is not None
                                               else "was given no certificate"))
    return certs


def prepare(built: dict, origin: dict | None = None):
    """The certificates of a run's built entries and the checker's reading of each (everything
    the checker does before it asks for verdicts: no engine runs here): (certificates by theorem
    id, the checker's readings, why an entry has no certificate by theorem id)."""
    import checker
    certs, memo, failed = {}, {}, {}
    for tid, b in built.items():
        if b.theorem.kind == "erratum" or (not b.error and b.fact is not None):
            try:
                certs[tid] = make(b.theorem, b.fact, origin, memo)
            except Exception as e:  # a proof the certificate cannot say is never checked, never proved
                failed[tid] = f"no certificate: {type(e).__name__}: {e}"
    with checker.reading():
        checked = [checker.read(c) for c in certs.values()]
    return certs, checked, failed
