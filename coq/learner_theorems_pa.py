"""Learner theorems over every step of a run (the Passive-Aggressive family, Crammer et al. 2006):
the catalogue theorem speaks of T steps (``w(t)``, ``x(t)``, ``y(t)``, the loss ``l(t)``, the step
size ``tau(t)``, ... for t < T, with the update equations as hypotheses), and the learner's run on
a sequence of examples gives them, T its length.

The statement is printed from the catalogue's formula objects (``coq.learner_theorems`` lists the
entries and writes them into ``LearnerStatements.v``):

* the hypotheses the learner's run discharges (its start, update, loss and step-size equations,
  its mistake flags) are dropped, and only those: every one must be the catalogue's;
* a hypothesis that defines a sequence of the examples (``l*(t) = max(0, 1 - y(t) u.x(t))``) is
  replaced by its definition wherever the sequence occurs;
* every other per-step hypothesis ``for all t < T: P(x(t), y(t))`` becomes a hypothesis on every
  example of the sequence; one without T or the run's sequences stays as it is;
* in the conclusion each sum over the T steps, ``sum_{s=0}^{T-1} body(s)``, becomes the same body
  summed over the learner's run (``PARuns.pa_sum``: each step record with its example), the run's
  sequences read on the step record (``l(s)``: its loss, ``tau(s)``: its step size, ``z(s)``: its
  mistake as 0 or 1) and the example's on the example; nothing else of the run may be left.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from proofs.language.formula import BOOL, INT, REAL, Expr, Int, Real, Vec
from proofs.language.substitution import free_vars, walk
from coq.export import CoqPrinter, ExportError, _z_indexed
from coq.names import LOGICAL
from coq.learner_theorems_sums import below_body

__all__ = ["StepsLearner", "StepsLearnerTheorem", "PASSIVE_AGGRESSIVE", "PASSIVE_AGGRESSIVE_1",
           "PASSIVE_AGGRESSIVE_2", "PASSIVE_AGGRESSIVE_EXACT", "steps_statement"]

LPA, PAR = f"{LOGICAL}.LearnersPA", f"{LOGICAL}.PARuns"


@dataclass(frozen=True)
class StepsLearner:
    """A Coq learner whose every step is a step of the catalogue's run."""
    id: str
    python: str                      # the Python learner the differential test compares it with
    coq: str                         # the Coq function
    run_term: str                    # the Coq run; {dim}: the examples' dimension, {C}: the catalogue's C
    step_type: str                   # the Coq type of one step record
    inputs: tuple                    # ((Coq name, Coq type), ...): the learner's input sequence
    example: tuple                   # ((formula variable, Coq type), ...): one example
    step_reads: tuple                # ((sequence, Coq term of the step record st), ...)
    run: tuple                       # the catalogue hypotheses the run discharges
    defs: tuple = ()                 # the catalogue hypotheses that define a sequence of the examples
    steps: str = "T"                 # the catalogue variable counting the steps
    requires: tuple = (PAR,)         # Coq modules the statement names beyond the learner's
    members: str = "ex"              # the Coq list of (real) examples the run's steps go with


@dataclass(frozen=True)
class StepsLearnerTheorem:
    id: str
    name: str
    learner: StepsLearner
    base: str


_x, _y = Vec("x"), Real("y")
_PA_RUN = ("starts_at_zero", "update", "hinge_loss")
_READS = (("l", f"{LPA}.pa_loss st"), ("tau", f"{LPA}.pa_tau st"),
          ("z", f"(if {LPA}.pa_mistake st then 1%Z else 0%Z)"))


def _pa(variant: str, step: str, extra=(), defs=()) -> StepsLearner:
    c = "0" if variant == "PA" else "{C}"         # PA has no C: any value, the run does not read it
    return StepsLearner(
        id={"PA": "passive_aggressive", "PA1": "passive_aggressive_1", "PA2": "passive_aggressive_2"}[variant],
        python=f"learners.run_passive_aggressive(variant={variant.lower()!r})", coq=f"{LPA}.pa_run",
        run_term=f"{LPA}.pa_run RN {LPA}.{variant} {c} {{dim}} vzero ex", step_type=f"{LPA}.pastep RN",
        inputs=(("ex", "list (Vec * R)"),), example=((_x, "Vec"), (_y, "R")), step_reads=_READS,
        run=_PA_RUN + (step,) + tuple(extra), defs=tuple(defs))


PASSIVE_AGGRESSIVE = _pa("PA", "pa_step")
PASSIVE_AGGRESSIVE_1 = _pa("PA1", "pa1_step", ("mistake_flags",), ("loss_of_u",))
PASSIVE_AGGRESSIVE_2 = _pa("PA2", "pa2_step", (), ("loss_of_u",))

# the run python -m coq differential compares with the exact Python learner: over the rationals in
# lowest terms (QRN), its step records and examples read through Q2R
PASSIVE_AGGRESSIVE_EXACT = StepsLearner(
    id="passive_aggressive_exact", python="learners.run_passive_aggressive(variant='pa', exact=True)",
    coq=f"{LPA}.pa_run",
    run_term=f"map ({LPA}.map_pastep {LPA}.Q2R_red_hom) ({LPA}.pa_run {LPA}.QRN {LPA}.PA 0%Q {{dim}} (fun _ => 0%Q) ex)",
    step_type=f"{LPA}.pastep RN", inputs=(("ex", "list ((nat -> Q) * Q)"),), example=((_x, "Vec"), (_y, "R")),
    step_reads=_READS, run=_PA_RUN + ("pa_step",),
    members="(map (fun e => (fun i => Q2R (fst e i), Q2R (snd e))) ex)")


def _subst(n: Expr, fn) -> Expr:
    got = fn(n)
    if got is not None:
        return got
    if n.op in ("var", "num") or not n.args:
        return n
    return Expr(n.op, tuple(_subst(c, fn) for c in n.args), n.name, n.sort, n.value, n.tex, n.text)


def _over_steps(n: Expr, steps: str) -> bool:
    if n.op != "sum":
        return False
    _, lo, hi, _ = n.args
    return (lo.op == "num" and lo.value == 0 and hi.op == "sub" and hi.args[0].op == "var"
            and hi.args[0].name == steps and hi.args[1].op == "num" and hi.args[1].value == 1)


def steps_statement(lt: StepsLearnerTheorem) -> str:  # noqa: C901 - one pass per kind of hypothesis
    from proofs.catalogue import registry
    base = registry.get(lt.base)
    ln = lt.learner
    names = {n for n, _ in base.hypotheses}
    unknown = (set(ln.run) | set(ln.defs)) - names
    if unknown:
        raise ExportError(f"{lt.base} has no hypothesis {sorted(unknown)[0]} for the learner to discharge")
    seqs = {n.name for _, f in base.hypotheses for n in walk(f) if n.op == "call"} | \
        {n.name for n in walk(base.conclusion) if n.op == "call"}
    ex_seq = {"x": _x, "y": _y}
    reads = dict(ln.step_reads)
    # the definitions: sequence -> (index, defining term)
    defined = {}
    for name, f in base.hypotheses:
        if name not in ln.defs:
            continue
        kb = below_body(f, ln.steps)
        if kb is None or kb[1].op != "eq" or kb[1].args[0].op != "call" or kb[1].args[0].args != (kb[0],):
            raise ExportError(f"{lt.base}: {name} does not define a sequence at each step")
        lhs, rhs = kb[1].args
        if any(n.op == "call" and n.name not in ex_seq for n in walk(rhs)):
            raise ExportError(f"{lt.base}: {name} defines {lhs.name} from more than the examples")
        defined[lhs.name] = (kb[0], rhs)

    def on_example(body: Expr, k: Expr, allow_run: bool) -> Expr:
        def fn(n):
            if n.op == "call" and n.name in defined:
                idx, rhs = defined[n.name]
                if n.args != (k,):
                    raise ExportError(f"{n.name}(...) is read at another index than the step's")
                return on_example(_subst(rhs, lambda m: k if m == idx else None), k, allow_run)
            if n.op == "call" and n.name in ex_seq:
                if n.args != (k,):
                    raise ExportError(f"{n.name}(...) is read at another index than the step's")
                return ex_seq[n.name]
            if n.op == "call" and allow_run and n.name in reads:
                if n.args != (k,):
                    raise ExportError(f"{n.name}(...) is read at another index than the step's")
                return Int(n.name) if n.sort == INT else Real(n.name)
            if n.op == "call" and n.name in seqs:
                raise ExportError(f"{n.name}(...) is a sequence of the run the learner does not give here")
            return None
        out = _subst(body, fn)
        if k in free_vars(out):
            raise ExportError(f"the step index {k.name} is left after reading the run on one step")
        if any(v.name == ln.steps for v in free_vars(out)):
            raise ExportError(f"a condition on one step speaks of the number of steps {ln.steps}")
        return out

    per_ex, glob = [], []
    for name, f in base.hypotheses:
        if name in ln.run or name in ln.defs:
            continue
        kb = below_body(f, ln.steps)
        if kb is not None:
            per_ex.append(on_example(kb[1], kb[0], allow_run=False))
            continue
        if any(n.op == "call" and n.name in seqs for n in walk(f)) or any(v.name == ln.steps for v in free_vars(f)):
            raise ExportError(f"{lt.base}: hypothesis {name} speaks of the run but is neither discharged by the "
                              f"learner nor a condition on each step")
        glob.append(f)
    sums: list = []
    taken = {v.name for _, f in base.hypotheses for v in free_vars(f)} | {v.name for v in free_vars(base.conclusion)}

    def total(n):
        if not _over_steps(n, ln.steps):
            return None
        i, _, _, body = n.args
        name = f"S{len(sums)}"
        while name in taken:
            name += "_"
        sums.append((name, n.sort, on_example(body, i, allow_run=True)))
        return Int(name) if n.sort == INT else Real(name)
    concl = _subst(base.conclusion, total)
    if not sums:
        raise ExportError(f"{lt.base}: the conclusion sums nothing over the steps")
    if any(n.op == "call" and n.name in seqs for n in walk(concl)) or \
            any(v.name == ln.steps for v in free_vars(concl)):
        raise ExportError(f"{lt.base}: the conclusion speaks of the run beyond its sums over the steps")
    forms = per_ex + glob + [concl] + [b for _, _, b in sums]
    pr = CoqPrinter(_z_indexed(forms), forms)
    node = next((n for f in forms for n in walk(f) if n.op == "dot"
                 and any(a.op == "var" and a.name == "x" for a in n.args)), None)
    if node is None:
        raise ExportError("no inner product fixes the dimension of the examples")
    fmt = {"dim": pr.sp.dim(node)}
    printed = [pr.P(h) for h in per_ex] + [pr.P(f) for f in glob] + [pr.P(concl)] + \
        [pr.z(b) if sort == INT else pr.R(b) for _, sort, b in sums]     # the printer learns the dimensions
    local = {e.name for e, _ in ln.example} | set(reads) | {s for s, _, _ in sums}
    binders = [(n, t) for n, t in re.findall(r"\((\w+) : ([^()]*)\)", pr.binders(forms)) if n not in local]
    bound = dict(binders)
    for n, _ in ln.inputs:
        if n in bound:
            raise ExportError(f"the learner's input {n} clashes with a variable of {lt.base}")
    if "{C}" in ln.run_term:
        if bound.get("C_") != "R":
            raise ExportError(f"{lt.base} has no real C for the learner's aggressiveness")
        fmt["C"] = "C_"
    run = ln.run_term.format(**fmt)
    if not re.search(rf"(^|\(){re.escape(ln.coq)} ", run) or not re.search(r"(?<![\w.'])ex\)*$", run):
        raise ExportError(f"the learner's run does not run {ln.coq} on its input ex")
    exb = " ".join(f"({e.name} : {t})" for e, t in ln.example)
    tup = ", ".join(e.name for e, _ in ln.example)
    prem = [f"(forall {exb}, In ({tup}) {ln.members} -> {h})" for h in printed[:len(per_ex)]] + printed[len(per_ex):len(per_ex) + len(glob)]
    lets = f"let run := {run} in\n  "
    for name, sort, body in sums:
        used = {n.name for n in walk(body) if n.op == "var"}
        inner = "".join(f"let {s} : {'Z' if s == 'z' else 'R'} := {term} in " for s, term in ln.step_reads if s in used)
        if sort == INT:
            lets += (f"let {name} : Z := {PAR}.pa_zsum (fun (st : {ln.step_type}) {exb} => {inner}{pr.z(body)}) "
                     f"run {ln.members} in\n  ")
        else:
            lets += (f"let {name} : R := {PAR}.pa_sum (fun (st : {ln.step_type}) {exb} => {inner}{pr.R(body)}) "
                     f"run {ln.members} in\n  ")
    head = " ".join(f"({n} : {t})" for n, t in binders + list(ln.inputs))
    chain = " ->\n  ".join(prem + [f"{lets}{pr.P(concl)}"])
    return f"forall {head},\n  {chain}"


_ = (BOOL, REAL)
