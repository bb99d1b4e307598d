"""Mutants of the theorem catalogue, generated from the catalogue itself.

Two families of edits, as a careless or hostile author of a proof could make them:

* **proof edits** intercept the i-th call a proof makes to the kernel and change what it passes:
  a step's goal (scale a coefficient or a variable, flip, tighten or loosen the inequality),
  its facts (drop one; retype one as a plain formula; retype a strengthened copy together with a
  matching change of the goal; forge a Fact without the kernel), or an induction's predicate.
  The statement is unchanged, so a mutant that is still "proved" has a valid proof of a true
  statement; the retyping and forging edits must be refused when the catalogue is built.
* **statement edits** change the theorem's stated hypotheses or conclusion (scale, flip, tighten,
  drop, and strengthen a hypothesis together with the conclusion).  A mutant that is still
  "proved" must state something the original statement implies (checked by z3 on the two
  statements); anything else would be a false statement proved.
"""
from __future__ import annotations

import dataclasses
from contextlib import contextmanager
from dataclasses import dataclass

from proofs.language.formula import BOOL, NAT, VEC, Expr, num
from proofs.language.substitution import walk
from proofs.kernel.kernel import Fact, KernelError, Proof

REL_FLIP = {"le": "ge", "ge": "le", "lt": "gt", "gt": "lt"}
REL_TIGHT = {"le": "lt", "ge": "gt"}
REL_LOOSE = {"lt": "le", "gt": "ge"}


# --------------------------------------------------------------------------- formula edits
def _rewrite_first(e: Expr, pred, make):
    """``e`` with the first node (pre-order) satisfying ``pred`` replaced by ``make(node)``;
    None when no node matches."""
    done = [False]

    def go(n):
        if done[0]:
            return n
        if pred(n):
            done[0] = True
            return make(n)
        if not n.args or n.op in ("forall", "sum"):
            if n.op == "forall":       # edit inside a per-step hypothesis's body, not its range
                body = go(n.args[-1])
                return n if body is n.args[-1] else Expr(n.op, n.args[:-1] + (body,), n.name, n.sort, n.value,
                                                         n.tex, n.text)
            return n
        kids = n.args[:1] if n.op == "pow" else n.args        # never an exponent
        args = tuple(go(c) for c in kids) + n.args[len(kids):]
        return n if all(a is b for a, b in zip(args, n.args)) else Expr(n.op, args, n.name, n.sort, n.value, n.tex,
                                                                         n.text)
    out = go(e)
    return out if done[0] else None


def _is_rel(n):
    return n.op in REL_FLIP


def first(*candidates):
    """The first candidate that is not None (formulas have no truth value: ``a or b`` is an error)."""
    for c in candidates:
        if c is not None:
            return c
    return None


def scale_coefficient(e):
    """Double the first nonzero numeric constant inside a relation."""
    return _rewrite_first(e, lambda n: n.op == "num" and n.value not in (0,),
                          lambda n: Expr("num", value=n.value * 2, sort=n.sort))


def scale_variable(e):
    """Replace the first numeric variable v by 2 v (a vector by 2 v too)."""
    def make(n):
        return num(2) * n
    return _rewrite_first(e, lambda n: n.op in ("var", "call") and n.sort not in (BOOL,) and
                          (n.sort != NAT or True), make)


def flip(e):
    return _rewrite_first(e, _is_rel, lambda n: Expr(REL_FLIP[n.op], n.args, sort=BOOL))


def tighten(e):
    return _rewrite_first(e, lambda n: n.op in REL_TIGHT, lambda n: Expr(REL_TIGHT[n.op], n.args, sort=BOOL))


def loosen(e):
    """a < b -> a <= b; failing that, a <= b -> a <= b + 1 (a weaker statement)."""
    out = _rewrite_first(e, lambda n: n.op in REL_LOOSE, lambda n: Expr(REL_LOOSE[n.op], n.args, sort=BOOL))
    if out is not None:
        return out

    def make(n):
        a, b = n.args
        return (a <= b + 1) if n.op == "le" else (a + 1 >= b)
    return _rewrite_first(e, lambda n: n.op in ("le", "ge") and n.args[0].sort != VEC, make)


FORMULA_EDITS = {"scale_coefficient": scale_coefficient, "scale_variable": scale_variable, "flip": flip,
                 "tighten": tighten, "loosen": loosen}
STRONGER = {"scale_coefficient", "flip", "tighten", "scale_variable"}   # edits that usually claim more


# --------------------------------------------------------------------------- proof edits
@dataclass(frozen=True)
class Edit:
    kind: str          # e.g. "goal:flip", "drop_fact", "retype_fact", "strengthen_fact_and_goal", "forge_fact"
    call: int          # which solve call (0-based)
    arg: int = 0       # which fact
    expect_build_error: bool = False

    def label(self) -> str:
        return f"{self.kind}@{self.call}" + (f"[{self.arg}]" if self.kind in ("drop_fact", "retype_fact",
                                                                              "strengthen_fact_and_goal") else "")


class EditedProof(Proof):
    """The kernel's proof object with one edit applied to one solve call."""

    def __init__(self, theorem, edit: Edit):
        super().__init__(theorem)
        self.edit = edit
        self.n_solve = 0
        self.applied = False

    def solve(self, sid, facts, goal, title=""):
        i = self.n_solve
        self.n_solve += 1
        e = self.edit
        if i == e.call:
            facts, goal = self._apply(list(facts), goal)
        return super().solve(sid, facts, goal, title)

    def _apply(self, facts, goal):
        e = self.edit
        kind = e.kind
        if kind.startswith("goal:"):
            g = FORMULA_EDITS[kind[5:]](goal)
            if g is not None:
                self.applied = True
                return facts, g
        elif kind == "drop_fact" and e.arg < len(facts):
            self.applied = True
            return facts[:e.arg] + facts[e.arg + 1:], goal
        elif kind == "retype_fact" and e.arg < len(facts):
            self.applied = True                        # the same formula, typed again instead of the fact
            return facts[:e.arg] + [facts[e.arg].formula] + facts[e.arg + 1:], goal
        elif kind == "strengthen_fact_and_goal" and e.arg < len(facts):
            stronger = first(scale_coefficient(facts[e.arg].formula), scale_variable(facts[e.arg].formula))
            g = first(scale_coefficient(goal), scale_variable(goal))
            if stronger is not None and g is not None:
                self.applied = True
                return facts[:e.arg] + [stronger] + facts[e.arg + 1:], g
        elif kind == "forge_fact" and facts:
            self.applied = True
            forged = Fact(object(), facts[0].formula, "solve", self)    # the kernel must refuse this
            return [forged] + facts[1:], goal
        return facts, goal


def proof_edits(n_solve: int, n_facts: list[int]) -> list[Edit]:
    """Every edit kind at every solve call.  Facts: in the last step (the one that concludes)
    drop each in turn, elsewhere the first and the last; retype the first and the last."""
    out = []
    for i in range(n_solve):
        for k in FORMULA_EDITS:
            out.append(Edit(f"goal:{k}", i))
        drops = range(n_facts[i]) if i == n_solve - 1 else sorted({0, n_facts[i] - 1} - {-1})
        for j in drops:
            out.append(Edit("drop_fact", i, j))
        if n_facts[i]:
            for j in sorted({0, n_facts[i] - 1}):
                out.append(Edit("retype_fact", i, j, expect_build_error=True))
            out.append(Edit("strengthen_fact_and_goal", i, 0, expect_build_error=True))
            out.append(Edit("forge_fact", i, 0, expect_build_error=True))
    return out


# --------------------------------------------------------------------------- statement edits
@dataclass(frozen=True)
class StatementEdit:
    kind: str          # "conclusion:<edit>", "hypothesis:<edit>", "drop_hypothesis", "hypothesis_and_conclusion"
    hyp: int = -1

    def label(self) -> str:
        return self.kind + (f"[{self.hyp}]" if self.hyp >= 0 else "")

    def apply(self, th):
        hs = list(th.hypotheses)
        concl = th.conclusion
        if self.kind.startswith("conclusion:"):
            concl = FORMULA_EDITS[self.kind.split(":")[1]](concl)
        elif self.kind.startswith("hypothesis:"):
            name, f = hs[self.hyp]
            g = FORMULA_EDITS[self.kind.split(":")[1]](f)
            if g is None:
                return None
            hs[self.hyp] = (name, g)
        elif self.kind == "drop_hypothesis":
            hs.pop(self.hyp)
        elif self.kind == "hypothesis_and_conclusion":
            name, f = hs[self.hyp]
            g = first(scale_coefficient(f), scale_variable(f))
            concl = first(scale_coefficient(concl), scale_variable(concl))
            if g is None:
                return None
            hs[self.hyp] = (name, g)
        if concl is None:
            return None
        return dataclasses.replace(th, hypotheses=tuple(hs), conclusion=concl)


def statement_edits(th) -> list[StatementEdit]:
    out = [StatementEdit(f"conclusion:{k}") for k in FORMULA_EDITS]
    for j in range(len(th.hypotheses)):
        out.append(StatementEdit("drop_hypothesis", j))
        out.append(StatementEdit("hypothesis:scale_coefficient", j))
        out.append(StatementEdit("hypothesis:flip", j))
        out.append(StatementEdit("hypothesis_and_conclusion", j))
    return out


def background(original) -> list:
    """What the original's own proof established, each fact as "its hypotheses => it" (every one
    a theorem: the kernel accepted it and the engines proved its steps)."""
    from proofs.language.formula import And, Implies
    from proofs.kernel.kernel import dependencies
    from proofs.verify.runner import build
    b = build(original)
    if b.fact is None:
        return []
    out = []
    for f in dependencies(b.fact):
        out.append(Implies(And(*sorted(f.assumptions, key=repr)), f.formula) if f.assumptions else f.formula)
    return out


def entailed(original, mutant, timeout_ms: int = 60000) -> str:
    """Does the original statement (with the facts its proof established) imply the mutant's?
    "yes" (z3: unsat of those and not the mutant), "no" or "unknown".  The facts were checked
    by the same engines: this judges the assembly of proofs (what the mutants attack), not the
    solvers.  The 60 s timeout only guards against a hang: a loaded machine must not turn "yes"
    into "unknown"."""
    from proofs.engines.engines import z3_run
    from proofs.printers.smtlib import problem
    hyps = [("original", original.statement)] + [(f"fact{i}", f) for i, f in enumerate(background(original))]
    a, _, _, _ = z3_run(problem(hyps, mutant.statement), timeout_ms)
    return {"unsat": "yes", "sat": "no"}.get(a, "unknown")


# Statement edits that the kernel proves although the original statement does not imply them:
# each one was read and is true for the reason given.  A new case fails the suite until a person
# has looked at it and added it here with its reason.
_N_BELOW_ONE = ("true: the weight argument needs only n > 0, which exp(ln n) = n already gives; with 0 < n < 1 "
                "the same derivation holds (ln n < 0), so n < 1 in place of n >= 1 is still a theorem")
_LOSS_OF_U_LARGER = ("true: l*(t) = max(0, 2 - y u.x) is at least the hinge loss max(0, 1 - y u.x) of u and at least 0, "
                     "which is all Lemma 1 uses of l*; the PA-I and PA-II bounds grow with every l*(t) >= 0, so the "
                     "edited statement is the original one with a larger right-hand side (z3 cannot compare the sums)")
_HALVES_WIDER = ("true: the adversary's intervals stay nested whenever h(j) >= 2 h(j+1) (the interval of the "
                 "label 0 half ends at lo(j) + 2 h(j+1) <= lo(j) + h(j)), so the labels, the target's range and the "
                 "l mistakes follow for h(j) = 4 h(j+1) as for 2 h(j+1)")
REVIEWED_TRUE: dict[tuple[str, str], str] = {
    ("weighted_majority_bound", "hypothesis:flip[0]"): _N_BELOW_ONE,
    ("randomized_weighted_majority_bound", "hypothesis:flip[0]"): _N_BELOW_ONE,
    ("passive_aggressive_pa1_bound", "hypothesis:scale_coefficient[4]"): _LOSS_OF_U_LARGER,
    ("passive_aggressive_pa2_bound", "hypothesis:scale_coefficient[4]"): _LOSS_OF_U_LARGER,
    ("disjunction_lower_bound", "hypothesis:scale_coefficient[1]"): _HALVES_WIDER,
}


def count_solve_calls(th) -> tuple[int, list[int]]:
    """How many solve calls the proof makes, and how many facts each passes."""
    class Counter(Proof):
        def __init__(self, t):
            super().__init__(t)
            self.sizes = []

        def solve(self, sid, facts, goal, title=""):
            self.sizes.append(len(list(facts)))
            return super().solve(sid, facts, goal, title)
    p = Counter(th)
    try:
        th.proof(p)
    except KernelError:
        pass
    return len(p.sizes), p.sizes


@contextmanager
def unchanged_lemmas_built_once():
    """While mutants are checked, what no edit touches is made once per statement, not once per
    mutant: the build of a lemma (a theorem of the catalogue, unchanged, with the kernel's own
    Proof) and the concrete instance of a statement's hypotheses on which their satisfiability is
    asked.  Every mutant's own proof is still built by the kernel, every step of it and of its
    lemmas still goes to the engines (with the proof cache off, answers given in this process are
    reused, as within one ``verify`` run), and every satisfiability question is asked afresh
    unless this process answered it already.  A statement edit makes a new statement: its
    hypotheses get their own instance, and its lemmas are the catalogue's."""
    from proofs.catalogue import registry
    from proofs.verify import runner
    from proofs.engines.engines import PendingSat
    orig_build, orig_nonvacuity = runner.build, runner._nonvacuity
    catalogue = {t.id: t for t in registry.all_theorems()}
    built: dict = {}
    instances: dict = {}

    def build(th, make_proof=Proof):
        if make_proof is not Proof or catalogue.get(th.id) is not th:
            return orig_build(th, make_proof)
        if th.id not in built:
            built[th.id] = orig_build(th)
        return built[th.id]

    def nonvacuity(th):
        key = (th.hypotheses, tuple(sorted((th.witness_sizes or {}).items(), key=repr)), th.witness_dim)
        if key not in instances:
            instances[key] = orig_nonvacuity(th)
            return instances[key]
        pend, how = instances[key]
        if pend is None:
            return pend, how
        asked, info = pend
        return (PendingSat(list(asked.texts)), info), how      # a new question object: nothing reused unasked

    runner.build, runner._nonvacuity = build, nonvacuity
    try:
        yield
    finally:
        runner.build, runner._nonvacuity = orig_build, orig_nonvacuity


# --------------------------------------------------------------------------- the report
CLASSES = {  # report class -> the prefixes of the counts' keys
    "proof edits (solve goals and facts)": ("proof:",),
    "statement edits": ("statement:conclusion", "statement:hypothesis", "statement:drop", "statement:proved"),
    "specialize / induction / inst / rule arguments": ("call:solve:", "call:induction:", "call:inst:", "call:rule:"),
    "step list": ("call:steps:",),
    "display names": ("statement:display:",),
    "labels": ("statement:labels:",),
    "rule schemas": ("schema:",),
    "bounds table": ("bounds:",),
}


def mutation_summary(counts) -> list[str]:
    """The mutants run per class with their outcomes, and the number of false statements proved;
    ``counts``: {kind: {outcome: n}}."""
    import collections
    lines = ["mutation suite: mutants run per class (outcomes)"]
    for cls, prefixes in CLASSES.items():
        keys = [k for k in counts if k.startswith(prefixes) and k != "statement:proved"]
        total: collections.Counter = collections.Counter()
        for k in keys:
            total.update(counts[k])
        if keys:
            lines.append(f"  {cls}: {sum(total.values())} ({', '.join(f'{o} {n}' for o, n in sorted(total.items()))})")
    skipped = sum(counts.get("sampled out:proof", {}).values())
    if skipped:
        lines.append(f"  proof edits whose verdict is not asserted, left out of this run: {skipped} "
                     f"(MISTAKEBOUND_MUTATION_FULL=1 runs them all)")
    false = counts.get("statement:proved", {}).get("NOT SHOWN TRUE", 0)
    lines.append(f"  false statements proved: {false}")
    return lines


def write_mutation_report(counts) -> None:
    """The counts by kind and outcome, as JSON, to the file MISTAKEBOUND_MUTATION_REPORT names."""
    import json
    import os
    path = os.environ.get("MISTAKEBOUND_MUTATION_REPORT")
    if path:
        with open(path, "w", encoding="utf-8") as fh:
            json.dump({k: dict(v) for k, v in sorted(counts.items())}, fh, indent=1, sort_keys=True)


_ = walk
