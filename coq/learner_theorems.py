"""Theorems about the learners themselves: for every sequence of examples that satisfies a catalogue
theorem's conditions on each example, running the Coq learner function (``coq/Learners.v``: the
functions ``python -m coq differential`` compares with the suite's Python learners) makes at most
the theorem's bound of mistakes.

A catalogue theorem speaks of a run described by its mistakes (``w(k)``, ``x(k)``, ``y(k)`` for
k < M, with the update equations as hypotheses).  A :class:`LearnerTheorem` names a :class:`Learner`
and such a catalogue theorem; its Coq statement is printed from that theorem's formula objects:

* the hypotheses the learner's run discharges (its start and update equations, its mistake
  condition) are dropped, and only those: every one of them must be named by the learner;
* every other per-mistake hypothesis ``for all k < M: P(x(k), y(k))`` becomes a hypothesis on every
  example of the sequence, ``forall x y, In (x, y) ex -> P(x, y)`` (the mistakes are among the
  examples): the sequences are replaced, as formula objects, by the example's terms;
* a hypothesis without M or the run's sequences stays as it is;
* the conclusion keeps its formula, M bound to the learner's mistake count:
  ``let M := <the learner's count of mistakes on ex> in C``.

The statements go into the generated ``LearnerStatements.v``; ``LearnerTheorems.v`` proves each
(from the catalogue counterpart, the learner's run giving the update equations), and ``Checks.v``
makes Coq type-check ``LearnerTheorems.<id>`` against ``LearnerStatements.<id>_statement``.

The learners over expert advice (Weighted Majority, its randomized form, Halving) and the lower bound
for every algorithm on disjunctions have their own entry types, in ``coq.learner_theorems_experts``.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from proofs.language.formula import BOOL, INT, NAT, REAL, VEC, Bool, Expr, Fun, Ite, Nat, Real, Vec, forall_below
from proofs.language.substitution import free_vars, walk
from coq.export import CoqPrinter, ExportError, _z_indexed
from coq.names import LOGICAL
from coq.learner_sides import KERNEL_DOMAIN, Reads, Side, check_sides, print_side
from coq.learner_theorems_sums import below_body, sum_lets, sums_over_examples
from coq.learner_theorems_pa import (PASSIVE_AGGRESSIVE, PASSIVE_AGGRESSIVE_1, PASSIVE_AGGRESSIVE_2,
                                  PASSIVE_AGGRESSIVE_EXACT, StepsLearner, StepsLearnerTheorem, steps_statement)
from coq.learner_theorems_experts import (ANY_ALGORITHM, HALVING, RANDOMIZED_WEIGHTED_MAJORITY, WEIGHTED_MAJORITY,
                                       WEIGHTED_MAJORITY_HALF, AnyLearner, ExpertsLearner, ExpertsLearnerTheorem,
                                       LowerBoundTheorem, binders_of, disjunction_statement, experts_statement)
from coq.learner_theorems_hedge import (HEDGE, HEDGE_EXACT, HEDGE_TUNED, LEARNER_HEDGE, LEARNER_HEDGE_EXACT,
                                     LEARNER_HEDGE_REGRET, HedgeLearner,
                                     HedgeLearnerTheorem, hedge_statement)
from coq.learner_theorems_disjunctions import (ANY_ALGORITHM_BLOCKS, LEARNER_DISJUNCTION_FORMS, DisjunctionFormTheorem,
                                            disjunction_form_statement)
from coq.learner_theorems_littlestone import (ANY_ALGORITHM_LDIM, LEARNER_LDIM_LOWER_BOUND, LEARNER_SOA, SOA, LdimLowerBoundTheorem,
                                           SoaTheorem, ldim_statement, soa_statement)
from coq.learner_theorems_multiclass import LEARNER_MULTICLASS, MULTICLASS, MulticlassTheorem, multiclass_statement
from coq.learner_theorems_psd import PsdKernelTheorem, learner_kernel_psd, psd_statement
from coq.learner_theorems_second_order import (LEARNER_SECOND_ORDER, LEARNER_SECOND_ORDER_RATIO, SECOND_ORDER,
                                            SecondOrderTheorem, second_order_statement)

__all__ = ["Learner", "LearnerTheorem", "StepsLearner", "StepsLearnerTheorem", "ExpertsLearner", "ExpertsLearnerTheorem", "AnyLearner", "LowerBoundTheorem", "DisjunctionFormTheorem", "PsdKernelTheorem", "SecondOrderTheorem", "LEARNERS", "LEARNER_THEOREMS", "learner_statement", "learner_files",
           "learner_checks", "STATEMENT_FILE", "PROOF_FILE"]

STATEMENT_FILE, PROOF_FILE = "LearnerStatements.v", "LearnerTheorems.v"
L = f"{LOGICAL}.Learners"


@dataclass(frozen=True)
class Learner:
    """A Coq learner function and how a catalogue statement's run is read on it."""
    id: str
    python: str                      # the Python learner the differential test compares it with
    coq: str                         # the Coq function (in coq/Learners.v)
    inputs: tuple                    # ((Coq name, Coq type), ...): the learner's input sequence
    example: tuple                   # ((formula variable or symbol, Coq type), ...): one example
    members: str                     # the Coq list the example is taken from
    mistakes: str                    # the Coq count of mistakes ({dim}: the examples' dimension)
    sequences: dict                  # catalogue sequence name -> (index arity, function of the example's terms)
    run: tuple                       # the catalogue hypotheses the run discharges
    side: tuple = ()                 # conditions on the inputs (coq.learner_sides.Side: formula objects)
    dim_of: str = ""                 # the example variable whose space gives {dim}
    domain: object = None            # the Python learner's inputs the side conditions are checked on


@dataclass(frozen=True)
class LearnerTheorem:
    id: str
    name: str
    learner: Learner
    base: str                        # the catalogue theorem whose conditions and bound it takes
    extra: tuple = ()                # further hypotheses, each a catalogue entry's: ((entry id, hypothesis name), ...)
    run_seq: tuple = field(default=("w", "x", "y", "b", "alpha"))
    over_examples: bool = False      # sums over the mistakes in the bound read over the examples (coq.learner_theorems_sums)


# ------------------------------------------------------------------ the learners
_x, _y = Vec("x"), Real("y")
_phi, _K = Fun("phi", (VEC,), VEC, tex=r"\phi"), Fun("K", (VEC, VEC), REAL)
_xb, _lab = Fun("xb", (INT,), BOOL), Bool("lab")
_PERC_RUN = ("starts_at_zero", "update_on_mistake", "mistake")


def _perceptron(bias: bool) -> Learner:
    b = "true" if bias else "false"
    return Learner(
        id="perceptron_bias" if bias else "perceptron", python=f"learners.run_perceptron(bias={bias})",
        coq=f"{L}.perceptron_run", inputs=(("ex", "list (Vec * R)"),), example=((_x, "Vec"), (_y, "R")),
        members="ex", mistakes=f"{L}.perceptron_mistakes ({L}.perceptron_run RN {{dim}} {b} vzero 0 ex)",
        sequences={"x": (1, lambda: _x), "y": (1, lambda: _y)}, dim_of="x",
        run=_PERC_RUN + (("bias_starts_at_zero", "bias_update_on_mistake") if bias else ()))


PERCEPTRON, PERCEPTRON_BIAS = _perceptron(False), _perceptron(True)

KERNEL_PERCEPTRON = Learner(
    id="kernel_perceptron", python="learners.run_kernel_perceptron(bias=False)", coq=f"{L}.kperceptron_run",
    inputs=(("n", "nat"), ("xs", "nat -> Vec"), ("ys", "nat -> R"), ("order", "list nat")),
    example=((_x, "Vec"), (_y, "R")), members="(map (fun i => (xs i, ys i)) order)",
    mistakes=f"{L}.count_true {L}.ks_mistake ({L}.kperceptron_run RN n K xs ys false false (fun _ => 0) 0 order)",
    sequences={"x": (1, lambda: _phi(_x)), "y": (1, lambda: _y)},
    side=(Side(Nat("i") < Nat("n"), "domain", Reads("order", (("i", "nat"),), "i")),), domain=KERNEL_DOMAIN,
    run=_PERC_RUN)

HALVING_WINNOW = Learner(
    id="winnow_halving", python="learners.run_winnow(variant='halve')", coq=f"{L}.winnow_halving",
    inputs=(("ex", "list ((nat -> bool) * bool)"),), example=((_xb, "nat -> bool"), (_lab, "bool")),
    members="ex", mistakes=f"{L}.winnow_mistakes ({L}.winnow_halving RN n ex)",
    sequences={"x": (2, lambda i: Ite(_xb(i), 1, 0)), "y": (1, lambda: Ite(_lab, 1, 0))},
    run=("weights_start_at_1", "mistake_at_threshold_n", "update_on_mistake"))

# any r of the n variables: the catalogue's variable i is the learner's sigma(i) (sigma an input the
# run does not read: the theorem holds for every sigma, so for every set {sigma(0), ..., sigma(r-1)})
_sigma = Fun("sigma", (NAT,), NAT)
_i = Nat("i")
HALVING_WINNOW_ANY = dataclasses.replace(
    HALVING_WINNOW, id="winnow_halving_any", inputs=(("sigma", "nat -> nat"),) + HALVING_WINNOW.inputs,
    sequences={"x": (2, lambda i: Ite(_xb(_sigma(i)), 1, 0)), "y": (1, lambda: Ite(_lab, 1, 0))},
    side=(Side(forall_below(_i, Nat("r"), _sigma(_i) < Nat("n")), "renaming"),))

# the same functions run over the rationals (QN): the runs python -m coq differential compares with
# the exact Python learners; the examples are read through Q2R
PERCEPTRON_EXACT = dataclasses.replace(
    PERCEPTRON, id="perceptron_exact", python="learners.run_perceptron(bias=False, exact=True)",
    inputs=(("ex", "list ((nat -> Q) * Q)"),), members="(map (fun e => (fun i => Q2R (fst e i), Q2R (snd e))) ex)",
    mistakes=f"{L}.perceptron_mistakes ({L}.perceptron_run QN {{dim}} false (fun _ => 0%Q) 0%Q ex)")
HALVING_WINNOW_EXACT = dataclasses.replace(
    HALVING_WINNOW, id="winnow_halving_exact", python="learners.run_winnow(variant='halve', exact=True)",
    mistakes=f"{L}.winnow_mistakes ({L}.winnow_halving QN n ex)")
HALVING_WINNOW_ANY_EXACT = dataclasses.replace(
    HALVING_WINNOW_ANY, id="winnow_halving_any_exact", python=HALVING_WINNOW_EXACT.python,
    mistakes=HALVING_WINNOW_EXACT.mistakes)


LEARNERS = (PERCEPTRON, PERCEPTRON_BIAS, KERNEL_PERCEPTRON, HALVING_WINNOW, PERCEPTRON_EXACT, HALVING_WINNOW_EXACT,
            HALVING_WINNOW_ANY, HALVING_WINNOW_ANY_EXACT,
            WEIGHTED_MAJORITY, WEIGHTED_MAJORITY_HALF, RANDOMIZED_WEIGHTED_MAJORITY, HALVING, ANY_ALGORITHM,
            PASSIVE_AGGRESSIVE, PASSIVE_AGGRESSIVE_1, PASSIVE_AGGRESSIVE_2, PASSIVE_AGGRESSIVE_EXACT)


def _feature_map():
    """K(a, b) = phi(a).phi(b): the hypothesis of the catalogue's kernel theorem, as it states it."""
    return ("kernel_freund_schapire_bound", "feature_map")


def _extra(lt) -> list:
    """The further hypotheses, read from the catalogue entries that state them (no formula of the
    theorem's own: a restriction has to be some catalogue entry's hypothesis)."""
    from proofs.catalogue import registry
    out = []
    for ref in lt.extra:
        if not (isinstance(ref, tuple) and len(ref) == 2 and all(isinstance(r, str) for r in ref)):
            raise ExportError(f"{lt.id}: a further hypothesis must name a catalogue entry's hypothesis, got {ref!r}")
        eid, name = ref
        if eid not in registry.theorem_ids() or name not in dict(registry.get(eid).hypotheses):
            raise ExportError(f"{lt.id}: {eid} has no hypothesis {name}")
        out.append((name, dict(registry.get(eid).hypotheses)[name]))
    return out


LEARNER_THEOREMS = (
    LearnerTheorem("learner_perceptron_radius", "The perceptron (no bias) on examples of norm at most R with margin gamma",
                   PERCEPTRON, "block_novikoff_radius"),
    LearnerTheorem("learner_perceptron_bias", "The perceptron with a bias on examples separated by (w*, b*) with margin 1",
                   PERCEPTRON_BIAS, "block_novikoff_bias"),
    LearnerTheorem("learner_kernel_perceptron_radius",
                   "The kernel perceptron, K(x, x') = phi(x).phi(x'), |phi(x)| <= R, margin gamma in feature space",
                   KERNEL_PERCEPTRON, "block_novikoff_radius", extra=(_feature_map(),)),
    LearnerTheorem("learner_winnow_halving", "Halving Winnow on a disjunction of r of the n variables",
                   HALVING_WINNOW, "winnow_halving_bound"),
    LearnerTheorem("learner_winnow_halving_any", "Halving Winnow on a disjunction of any r of the n variables: "
                   "sigma(0), ..., sigma(r - 1)", HALVING_WINNOW_ANY, "winnow_halving_bound"),
    LearnerTheorem("learner_winnow_halving_any_exact", "Halving Winnow run over the rationals, any r of the n variables",
                   HALVING_WINNOW_ANY_EXACT, "winnow_halving_bound"),
    LearnerTheorem("learner_perceptron_radius_exact", "The perceptron (no bias) run over the rationals",
                   PERCEPTRON_EXACT, "block_novikoff_radius"),
    LearnerTheorem("learner_winnow_halving_exact", "Halving Winnow run over the rationals",
                   HALVING_WINNOW_EXACT, "winnow_halving_bound"),
    LearnerTheorem("learner_freund_schapire",
                   "The perceptron (no bias) on any sequence of norm at most R: ((R + D)/gamma)^2, D^2 the squared "
                   "hinge losses of a unit u at margin gamma summed over the examples",
                   PERCEPTRON, "freund_schapire_bound", over_examples=True),
    LearnerTheorem("learner_kernel_freund_schapire",
                   "The kernel perceptron, K(x, x') = phi(x).phi(x'), |phi(x)| <= R, on any sequence: ((R + D)/gamma)^2 "
                   "in feature space",
                   KERNEL_PERCEPTRON, "freund_schapire_bound", extra=(_feature_map(),), over_examples=True),
    LearnerTheorem("learner_freund_schapire_exact", "The perceptron (no bias) run over the rationals on any sequence",
                   PERCEPTRON_EXACT, "freund_schapire_bound", over_examples=True),
    ExpertsLearnerTheorem("learner_halving", "Halving over n hypotheses, hypothesis j right on every example",
                          HALVING, "halving_bound"),
    ExpertsLearnerTheorem("learner_weighted_majority",
                          "Weighted Majority with a rational penalty beta in (0, 1): every expert j bounds its mistakes",
                          WEIGHTED_MAJORITY, "weighted_majority_bound"),
    ExpertsLearnerTheorem("learner_weighted_majority_half", "Weighted Majority with beta = 1/2: 2.41 (m + lg n)",
                          WEIGHTED_MAJORITY_HALF, "weighted_majority_half_bound"),
    ExpertsLearnerTheorem("learner_randomized_weighted_majority",
                          "Randomized Weighted Majority with a rational penalty beta in (0, 1): its expected mistakes",
                          RANDOMIZED_WEIGHTED_MAJORITY, "randomized_weighted_majority_bound"),
    StepsLearnerTheorem("learner_passive_aggressive",
                        "Passive-Aggressive on examples u separates with margin 1, |x| <= R: the squared hinge "
                        "losses of its run sum to at most |u|^2 R^2", PASSIVE_AGGRESSIVE, "passive_aggressive_bound"),
    StepsLearnerTheorem("learner_passive_aggressive_1",
                        "PA-I with C > 0 on any examples, 0 < |x| <= R: its mistakes, at most "
                        "max(R^2, 1/C) (|u|^2 + 2C sum of u's hinge losses)", PASSIVE_AGGRESSIVE_1,
                        "passive_aggressive_pa1_bound"),
    StepsLearnerTheorem("learner_passive_aggressive_2",
                        "PA-II with C > 0 on any examples, |x| <= R: its squared hinge losses, at most "
                        "(R^2 + 1/(2C)) (|u|^2 + 2C sum of u's squared hinge losses)", PASSIVE_AGGRESSIVE_2,
                        "passive_aggressive_pa2_bound"),
    StepsLearnerTheorem("learner_passive_aggressive_exact",
                        "Passive-Aggressive run over the rationals in lowest terms (as compared with the exact "
                        "Python learner) on separable examples", PASSIVE_AGGRESSIVE_EXACT, "passive_aggressive_bound"),
    LowerBoundTheorem("learner_disjunction_lower_bound",
                      "Every deterministic algorithm errs r lg(n/r) times on some r-literal monotone disjunction, "
                      "n = r 2^l", ANY_ALGORITHM, "r lg(n/r) for every deterministic algorithm"),
)
# Hedge over rows of losses (coq/LearnersHedge.v, HedgeRuns.v; coq.learner_theorems_hedge)
LEARNERS = LEARNERS + (HEDGE, HEDGE_TUNED, HEDGE_EXACT)
LEARNER_THEOREMS = LEARNER_THEOREMS + (LEARNER_HEDGE, LEARNER_HEDGE_REGRET, LEARNER_HEDGE_EXACT)
# every algorithm on a shattered mistake tree (coq/LittlestoneLowerBound.v; coq.learner_theorems_littlestone)
LEARNERS = LEARNERS + (ANY_ALGORITHM_LDIM, SOA)
LEARNER_THEOREMS = LEARNER_THEOREMS + (LEARNER_LDIM_LOWER_BOUND, LEARNER_SOA)
# the multiclass perceptron, one vector per class (coq/LearnersMulticlass.v; coq.learner_theorems_multiclass)
LEARNERS = LEARNERS + (MULTICLASS,)
LEARNER_THEOREMS = LEARNER_THEOREMS + (LEARNER_MULTICLASS,)
# every algorithm on disjunctions, any blocks and every n (coq/DisjunctionLowerBound.v; coq.learner_theorems_disjunctions)
LEARNERS = LEARNERS + (ANY_ALGORITHM_BLOCKS,)
LEARNER_THEOREMS = LEARNER_THEOREMS + LEARNER_DISJUNCTION_FORMS
# the kernel perceptron with any positive semidefinite kernel, a dual comparator (coq/KernelPSD.v; coq.learner_theorems_psd)
LEARNER_THEOREMS = LEARNER_THEOREMS + learner_kernel_psd(KERNEL_PERCEPTRON)
# the second-order perceptron, B kept by Sherman-Morrison (coq/LearnersSecondOrder.v, SecondOrderPerceptron.v;
# coq.learner_theorems_second_order)
LEARNERS = LEARNERS + (SECOND_ORDER,)
LEARNER_THEOREMS = LEARNER_THEOREMS + (LEARNER_SECOND_ORDER, LEARNER_SECOND_ORDER_RATIO)


# ------------------------------------------------------------------ printing
def _on_example(body: Expr, k: Expr, learner: Learner) -> Expr:
    """The body with every ``s(k, ...)`` of a run sequence replaced by the example's term; refused
    when a sequence is read elsewhere than at k, or k is left."""
    def go(n):
        if n.op == "call" and n.name in learner.sequences:
            arity, term = learner.sequences[n.name]
            if len(n.args) != arity or n.args[0] != k:
                raise ExportError(f"{n.name}(...) is read at another index than the mistake's")
            return term(*[go(a) for a in n.args[1:]])
        if n.op in ("var", "num") or not n.args:
            return n
        return Expr(n.op, tuple(go(c) for c in n.args), n.name, n.sort, n.value, n.tex, n.text)
    out = go(body)
    if k in free_vars(out):
        raise ExportError(f"the mistake index {k.name} is left after reading the run on one example")
    if any(v.name == "M" for v in free_vars(out)):
        raise ExportError("a condition on one example speaks of the number of mistakes M")
    return out


def _parts(lt: LearnerTheorem):
    """(per-example hypotheses, global hypotheses, conclusion) as formula objects."""
    from proofs.catalogue import registry
    base = registry.get(lt.base)
    ln = lt.learner
    unknown = set(ln.run) - {n for n, _ in base.hypotheses}
    if unknown:
        raise ExportError(f"{lt.base} has no hypothesis {sorted(unknown)[0]} for the learner to discharge")
    seqs = set(ln.sequences) | set(lt.run_seq)
    per_ex, glob = [], []
    for name, f in list(base.hypotheses) + _extra(lt):
        if name in ln.run:
            continue
        kb = below_body(f)
        if kb is not None:
            per_ex.append((name, _on_example(kb[1], kb[0], ln)))
            continue
        if any(n.op == "call" and n.name in seqs for n in walk(f)) or any(v.name == "M" for v in free_vars(f)):
            raise ExportError(f"{lt.base}: hypothesis {name} speaks of the run but is neither discharged by the "
                              f"learner nor a condition on each mistake")
        glob.append((name, f))
    c, sums = base.conclusion, []
    if lt.over_examples:
        taken = {v.name for f in [c] + [f for _, f in base.hypotheses] for v in free_vars(f)}
        c, sums = sums_over_examples(c, lambda body, k: _on_example(body, k, ln), taken)
    if any(n.op == "call" and n.name in seqs for n in walk(c)):
        raise ExportError(f"{lt.base}: the conclusion speaks of the run's sequences")
    return per_ex, glob, c, sums


def _base(lt):
    from proofs.catalogue import registry
    return registry.get(lt.base)


def _binders(text: str) -> list[tuple[str, str]]:
    return binders_of(text)


def learner_statement(lt) -> str:
    """The Coq statement of a learner theorem, printed from the catalogue's formula objects."""
    if isinstance(lt, ExpertsLearnerTheorem):
        return experts_statement(lt)
    if isinstance(lt, LowerBoundTheorem):
        return disjunction_statement(lt)
    if isinstance(lt, StepsLearnerTheorem):
        return steps_statement(lt)
    if isinstance(lt, HedgeLearnerTheorem):
        return hedge_statement(lt)
    if isinstance(lt, LdimLowerBoundTheorem):
        return ldim_statement(lt)
    if isinstance(lt, SoaTheorem):
        return soa_statement(lt)
    if isinstance(lt, MulticlassTheorem):
        return multiclass_statement(lt)
    if isinstance(lt, DisjunctionFormTheorem):
        return disjunction_form_statement(lt)
    if isinstance(lt, PsdKernelTheorem):
        return psd_statement(lt)
    if isinstance(lt, SecondOrderTheorem):
        return second_order_statement(lt)
    per_ex, glob, concl, sums = _parts(lt)
    ln = lt.learner
    forms = [f for _, f in per_ex] + [f for _, f in glob] + [concl] + [b for _, b in sums]
    pr = CoqPrinter(_z_indexed(forms), forms)
    ex_names = {e.name for e, _ in ln.example}
    ex_hyps = [pr.P(f) for _, f in per_ex]
    gl = [pr.P(f) for _, f in glob]
    c = pr.P(concl)
    dim = ""
    if ln.dim_of:
        node = next((n for f in forms for n in walk(f) if n.op == "dot"
                     and any(a.op == "var" and a.name == ln.dim_of for a in n.args)), None)
        if node is None:
            raise ExportError(f"no inner product fixes the dimension of the example {ln.dim_of}")
        dim = pr.sp.dim(node)
    binders = [(n, t) for n, t in _binders(pr.binders(forms))
               if n not in ex_names and n != "M" and n not in {s for s, _ in sums}]
    if "M" not in {v.name for v in free_vars(concl)}:
        raise ExportError(f"{lt.base}: the conclusion does not bound M")
    base = _base(lt)
    own = {v.name for f in [base.conclusion] + [f for _, f in base.hypotheses] for v in free_vars(f)} | \
        {n.name for f in [base.conclusion] + [f for _, f in base.hypotheses] for n in walk(f) if n.op == "call"}
    inputs = {n for n, _ in ln.inputs}
    for n in inputs:
        if n in own:
            raise ExportError(f"the learner's input {n} clashes with a variable of {lt.base}")
    binders = [(n, t) for n, t in binders if n not in inputs]
    exb = " ".join(f"({coq_name(e)} : {t})" for e, t in ln.example)
    tup = ", ".join(coq_name(e) for e, _ in ln.example)
    head = " ".join(f"({n} : {t})" for n, t in binders + list(ln.inputs))
    check_sides(lt.id, _base(lt), ln.side, ln.domain, ln.run, ln.inputs, ln.mistakes)
    prem = [print_side(sd) for sd in ln.side] + [f"(forall {exb}, In ({tup}) {ln.members} -> {h})" for h in ex_hyps] + gl
    mist = ln.mistakes.format(dim=dim)
    if not re.search(rf"\({re.escape(ln.coq)} ", mist):
        raise ExportError(f"the learner's count of mistakes does not run {ln.coq}")
    renamings = {v.name for sd in ln.side if sd.why == "renaming" for v in free_vars(sd.formula)} | \
        {c.name for sd in ln.side if sd.why == "renaming" for c in walk(sd.formula) if c.op == "call"}
    for n, _ in ln.inputs:              # on the quantified inputs, not on a fixed sequence
        if n in renamings:              # read by the renaming of the catalogue's variables only
            continue
        if not re.search(rf"(?<![\w.']){re.escape(n)}(?![\w'])", mist):
            raise ExportError(f"the learner's count of mistakes does not read its input {n}")
    lets = ""
    if sums:
        lets = sum_lets(sums, pr, exb, ln.members)
    chain = " ->\n  ".join(prem + [f"let M : nat := {mist} in\n  {lets}{c}"])
    return f"forall {head},\n  {chain}"


def coq_name(e: Expr | Fun) -> str:
    from coq.intterms import coq_ident
    return coq_ident(e.name)


def learner_files(theorems=None) -> tuple[dict[str, str], dict[str, str]]:
    """(``{LearnerStatements.v: text}``, statement errors by learner theorem id)."""
    theorems = LEARNER_THEOREMS if theorems is None else theorems
    mods = sorted({lt.learner.coq.rsplit(".", 1)[0] for lt in theorems} | {f"{LOGICAL}.Learners"}
                  | ({f"{LOGICAL}.PerceptronRuns"} if any(getattr(lt, "over_examples", False) for lt in theorems) else set())
                  | {m for lt in theorems for m in getattr(lt.learner, "requires", ())})
    head = ("(* Generated by coq.build from the catalogue's formula objects and the learners they are read on: "
            "do not edit. *)\n"
            f"Require Import {LOGICAL}.Axioms {LOGICAL}.Prelude {LOGICAL}.Num.\nRequire {' '.join(mods)}.\n"
            "Open Scope R_scope.\n\n")
    from proofs.catalogue import registry
    parts, errors = [head], {}
    for lt in theorems:
        if lt.id in registry.theorem_ids():       # one check_<id> per name in Checks.v
            errors[lt.id] = f"the id {lt.id} is a catalogue entry's"
            continue
        try:
            name = lt.name.replace("(*", "( *").replace("*)", "* )")      # printed inside a comment
            parts.append(f"(* {lt.id}: {name}; the learner {lt.learner.coq}, the bound of {lt.base} *)\n"
                         f"Definition {lt.id}_statement : Prop :=\n  {learner_statement(lt)}.\n\n")
        except ExportError as e:
            errors[lt.id] = f"statement not exportable: {e}"
    return {STATEMENT_FILE: "".join(parts)}, errors



def learner_checks(theorems, built) -> list:
    """One Coq check per learner theorem (coq.checks): ``LearnerTheorems.<id>`` has the type
    ``LearnerStatements.<id>_statement`` (both files compiled)."""
    from coq.checks import CheckEntry
    if PROOF_FILE not in built or STATEMENT_FILE not in built:
        return []
    return [CheckEntry(lt.id, f"{LOGICAL}.{STATEMENT_FILE[:-2]}.{lt.id}_statement",
                       f"{LOGICAL}.{PROOF_FILE[:-2]}.{lt.id}", PROOF_FILE) for lt in theorems]
