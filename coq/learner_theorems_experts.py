"""Learner theorems over expert advice and for every algorithm (``coq.learner_theorems`` lists
them with the others and prints every statement into ``LearnerStatements.v``).

* :class:`ExpertsLearnerTheorem`: a Coq learner over rows of +-1 advice (``coq/LearnersExperts.v``)
  and a catalogue theorem about a run over T steps (or, for Halving, over the mistakes).  The
  hypotheses the learner's run discharges are dropped (each must be the catalogue's), every other
  hypothesis must not speak of the run and stays; in the conclusion each run total (the sum over
  the steps of z, of e, of F) becomes the learner's count (its mistakes M, expert j's m, the
  expected mistakes EM), and nothing else of the run may be left.  ``ExpertsRuns.v`` reads the
  learner's run as the catalogue's sequences.
* :class:`LowerBoundTheorem`: a statement about every deterministic algorithm, printed here from
  (r, l) and the definitions of ``coq/DisjunctionLowerBound.v``: no catalogue entry states it over
  formulas.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from proofs.language.formula import INT, NAT, REAL, And, Eq, Expr, Fun, Int, Nat, Or, Real, forall_below
from coq.learner_sides import Reads, Side, check_sides, experts_domain, print_side
from proofs.language.substitution import walk
from coq.export import CoqPrinter, ExportError, _z_indexed
from coq.names import LOGICAL

__all__ = ["ExpertsLearner", "ExpertsLearnerTheorem", "AnyLearner", "LowerBoundTheorem", "WEIGHTED_MAJORITY",
           "WEIGHTED_MAJORITY_HALF", "RANDOMIZED_WEIGHTED_MAJORITY", "HALVING", "ANY_ALGORITHM",
           "experts_statement", "disjunction_statement", "binders_of"]


@dataclass(frozen=True)
class ExpertsLearner:
    """A Coq learner over expert advice (rows of +-1 predictions, one per expert, and a +-1 label)
    and how a catalogue statement's run over T steps is read on it: the sums over the run of the
    sequences in ``totals`` are the learner's counts (``M``: its mistakes, ``m``: expert j's)."""
    id: str
    python: str
    coq: str                         # the Coq function (in coq/LearnersExperts.v)
    inputs: tuple                    # ((Coq name, Coq type), ...)
    counts: tuple                    # ((count name, Coq term), ...): {n} is the catalogue's number of experts
    run: tuple                       # the catalogue hypotheses the run discharges
    side: tuple = ()                 # conditions on the inputs (coq.learner_sides.Side: formula objects)
    totals: tuple = (("z", "M"), ("e", "m"))    # a sequence of integers gives a nat, of reals a real
    own: str = "M"                   # the count of the learner's own mistakes (or their expectation)
    beta: str = ""                   # the learner's penalty input (Q), tied to the catalogue's beta by a hypothesis
    experts: str = "n"               # the catalogue variable counting the experts
    steps: str = "T"                 # the catalogue variable counting the steps
    domain: object = None            # the Python learner's inputs the side conditions are checked on


@dataclass(frozen=True)
class ExpertsLearnerTheorem:
    id: str
    name: str
    learner: ExpertsLearner
    base: str


LE = f"{LOGICAL}.LearnersExperts"
_WM_RUN = ("weights_start", "best_start", "update_total", "wrong_fraction", "update_best", "best_in_total",
           "majority_wrong_on_mistake", "mistake_bits")
# one example of an advice table: its row (adv(i): the i-th expert's advice, len_row: its length), its label
_ROW = Reads("ex", (("row", "list Z"), ("lab", "Z")), "(row, lab)",
             (("adv", "fun i : nat => nth i row 0%Z"), ("len_row", "length row")))
_adv, _lab, _i = Fun("adv", (NAT,), INT), Int("lab"), Nat("i")


def _rows(n: str) -> tuple:
    """j is one of the n experts; every row has n values in {-1, +1}, every label is -1 or +1."""
    N = Nat(n)
    return (Side(Nat("j") < N, "domain"),
            Side(And(Eq(Nat("len_row"), N), forall_below(_i, N, Or(Eq(_adv(_i), 1), Eq(_adv(_i), -1))),
                     Or(Eq(_lab, 1), Eq(_lab, -1))), "domain", _ROW))


_LINK_BETA = Side(Eq(Real("bq_r"), Real("beta")), "link", Reads(lets=(("bq_r", "Q2R bq"),)))


def _wm(beta: str) -> ExpertsLearner:
    fixed = beta != "bq"
    return ExpertsLearner(
        id="weighted_majority_half" if fixed else "weighted_majority",
        python="learners.run_weighted_majority(beta=%s, exact=True)" % ("Fraction(1, 2)" if fixed else "bq"),
        coq=f"{LE}.wm_mistakes",
        inputs=(() if fixed else (("bq", "Q"),)) + (("j", "nat"), ("ex", "list (list Z * Z)")),
        counts=(("M", f"{LE}.wm_mistakes {beta} ({LE}.wm_start {{n}}) ex"), ("m", f"{LE}.expert_mistakes j ex")),
        run=_WM_RUN, side=(() if fixed else (_LINK_BETA,)) + _rows("n"), beta="" if fixed else "bq",
        domain=experts_domain("n", not fixed))


WEIGHTED_MAJORITY, WEIGHTED_MAJORITY_HALF = _wm("bq"), _wm("(1 # 2)")

# Randomized Weighted Majority: the same weights; its expected mistakes sum_t F(t), over the rationals
RANDOMIZED_WEIGHTED_MAJORITY = ExpertsLearner(
    id="randomized_weighted_majority", python="learners.run_randomized_weighted_majority(beta=bq, exact=True)",
    coq=f"{LE}.rwm_expected", inputs=(("bq", "Q"), ("j", "nat"), ("ex", "list (list Z * Z)")),
    counts=(("EM", f"Q2R ({LE}.rwm_expected bq ({LE}.wm_start {{n}}) ex)"), ("m", f"{LE}.expert_mistakes j ex")),
    totals=(("F", "EM"), ("e", "m")), own="EM",
    run=_WM_RUN[:6], side=(_LINK_BETA,) + _rows("n"), beta="bq", domain=experts_domain("n", True))

# Halving: Weighted Majority with the penalty 0 over the hypotheses' predictions (one expert each); the
# catalogue's run is read at the learner's mistakes, M itself is the count, the target is hypothesis j
HALVING = ExpertsLearner(
    id="halving", python="learners.run_weighted_majority(beta=0, exact=True)", coq=f"{LE}.wm_mistakes",
    inputs=(("j", "nat"), ("ex", "list (list Z * Z)")),
    counts=(("M", f"{LE}.wm_mistakes 0 ({LE}.wm_start {{n}}) ex"),), totals=(),
    run=("class_size", "vote_split", "majority_was_wrong", "wrong_voters_removed", "target_in_class"),
    side=_rows("N") + (Side(Eq(_adv(Nat("j")), _lab), "reads target_in_class", _ROW),),
    experts="N", steps="M", domain=experts_domain("N", False, halving=True))


@dataclass(frozen=True)
class AnyLearner:
    """Every deterministic online algorithm: a function from the history of labelled examples and
    the next example to a prediction (``algorithm`` in coq/DisjunctionLowerBound.v), run by ``coq``."""
    id: str
    python: str                      # the adversary that plays the same construction in Python
    coq: str


@dataclass(frozen=True)
class LowerBoundTheorem:
    """A lower bound for every algorithm: its statement is printed here from (r, l), n = r 2^l."""
    id: str
    name: str
    learner: AnyLearner
    base: str                        # what it bounds (no catalogue entry states it over formulas)


DLB = f"{LOGICAL}.DisjunctionLowerBound"
ANY_ALGORITHM = AnyLearner(id="any_algorithm", python="adversary.unit_worst.disjunction_forcing",
                           coq=f"{DLB}.mistakes")


def disjunction_statement(lt: LowerBoundTheorem) -> str:
    """For every algorithm and r, l: r l examples over the n = r 2^l variables, labelled by the
    disjunction of r of them (one in each block of 2^l), on which the algorithm errs r l times."""
    ex = f"list {DLB}.example"
    return (f"forall (alg : {DLB}.algorithm) (r l : nat),\n"
            f"  exists (ex : {ex}) (target : list nat),\n"
            f"    length ex = (r * l)%nat /\\ length target = r /\\\n"
            f"    (forall c : nat, (c < r)%nat -> (c * 2 ^ l <= nth c target 0 < (c + 1) * 2 ^ l)%nat) /\\\n"
            f"    (forall (x : nat -> bool) (y : bool), In (x, y) ex ->\n"
            f"       (forall i : nat, x i = true -> (i < r * 2 ^ l)%nat) /\\ y = {DLB}.disjunction target x) /\\\n"
            f"    {lt.learner.coq} alg nil ex = (r * l)%nat")



def binders_of(text: str) -> list[tuple[str, str]]:
    return re.findall(r"\((\w+) : ([^()]*)\)", text)


def experts_statement(lt: ExpertsLearnerTheorem) -> str:
    """The statement of an experts learner theorem: the catalogue's hypotheses the learner's run
    discharges are dropped (every name must be the catalogue's), every other hypothesis must not
    speak of the run and stays; in the conclusion each run total (sum over the T steps of z, of e)
    becomes the learner's count, and nothing else of the run may be left."""
    from proofs.catalogue import registry
    from proofs.catalogue.experts_run import sum_to
    from proofs.language.formula import Nat, Real, Seq
    from proofs.language.substitution import free_vars
    base = registry.get(lt.base)
    ln = lt.learner
    names = {n for n, _ in base.hypotheses}
    unknown = set(ln.run) - names
    if unknown:
        raise ExportError(f"{lt.base} has no hypothesis {sorted(unknown)[0]} for the learner to discharge")
    seqs = {n.name for _, f in base.hypotheses for n in walk(f) if n.op == "call"}
    steps = ln.steps

    def of_run(f, counted=()):
        return any(n.op == "call" and n.name in seqs for n in walk(f)) or \
            any(v.name == steps and v.name not in counted for v in free_vars(f))
    glob = []
    for name, f in base.hypotheses:
        if name in ln.run:
            continue
        if of_run(f):
            raise ExportError(f"{lt.base}: hypothesis {name} speaks of the run but is not discharged by the learner")
        glob.append((name, f))
    T = Nat(steps)
    repl, ctype = {}, {}
    for seq, count in ln.totals:
        sorts = {n.sort for _, f in base.hypotheses for n in walk(f) if n.op == "call" and n.name == seq}
        if len(sorts) != 1:
            raise ExportError(f"{lt.base} has no run sequence {seq}")
        sort = sorts.pop()
        repl[sum_to(Seq(seq, sort), T)] = Real(count) if sort == REAL else Nat(count)
        ctype[count] = "R" if sort == REAL else "nat"

    def go(n):
        if n in repl:
            return repl[n]
        if n.op in ("var", "num") or not n.args:
            return n
        return Expr(n.op, tuple(go(c) for c in n.args), n.name, n.sort, n.value, n.tex, n.text)
    concl = go(base.conclusion)
    counts = dict(ln.counts)
    own = ln.own
    if set(counts) != {c for _, c in ln.totals} | {own}:
        raise ExportError(f"the learner must give a count for every run total, {own} its own mistakes")
    if of_run(concl, counts):
        raise ExportError(f"{lt.base}: the conclusion speaks of the run beyond the totals the learner counts")
    if own not in {v.name for v in free_vars(concl)}:
        raise ExportError(f"{lt.base}: the conclusion does not bound {own}")
    forms = [f for _, f in glob] + [concl]
    pr = CoqPrinter(_z_indexed(forms), forms)
    binders = [(n, t) for n, t in binders_of(pr.binders(forms)) if n not in counts]
    bound = dict(binders)
    if bound.get(ln.experts) != "nat":
        raise ExportError(f"{lt.base} has no number of experts {ln.experts}")
    if ln.beta and bound.get("beta") != "R":
        raise ExportError(f"{lt.base} has no real penalty beta for the learner's {ln.beta}")
    for n, _ in ln.inputs:
        if n in bound:
            raise ExportError(f"the learner's input {n} clashes with a variable of {lt.base}")
    fmt = {"n": ln.experts, "beta": "beta"}
    head = " ".join(f"({n} : {t})" for n, t in binders + list(ln.inputs))
    check_sides(lt.id, base, ln.side, ln.domain, ln.run, ln.inputs)
    sides = [print_side(s) for s in ln.side]
    prem = sides + [pr.P(f) for _, f in glob]
    if not re.search(rf"^(Q2R \()?{re.escape(ln.coq)} ", counts[own]):
        raise ExportError(f"the learner's count of mistakes does not run {ln.coq}")
    def reads(n, text):
        return re.search(rf"(?<![\w.']){re.escape(n)}(?![\w'])", text) is not None
    seq_in = ln.inputs[-1][0]                 # the sequence of examples: the learner's run reads it
    if not reads(seq_in, counts[own]):
        raise ExportError(f"the learner's count of mistakes does not read its input {seq_in}")
    for n, _ in ln.inputs:                    # every input quantified, none fixed
        if not any(reads(n, c) for c in list(counts.values()) + sides):
            raise ExportError(f"nothing reads the learner's input {n}")
    lets = "".join(f"let {c} : {ctype.get(c, 'nat')} := {counts[c].format(**fmt)} in\n  "
                   for c in sorted(counts, key=lambda c: c != own))
    chain = " ->\n  ".join(prem + [f"{lets}{pr.P(concl)}"])
    return f"forall {head},\n  {chain}"
