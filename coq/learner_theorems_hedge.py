"""The learner theorem of Hedge (Freund & Schapire 1997): the Coq learner of
``coq/LearnersHedge.v`` (weights multiplied by beta^l, ``Rpower``) run on any rows of losses in
[0, 1], its own total loss bounded by the catalogue's ``hedge_bound``.

The statement is printed from the catalogue entry's formula objects: the hypotheses about the run
(``proofs.catalogue.hedge_bound.RUN``: the weights' start and update, the total weight, the averaged loss,
the losses' range) are dropped as discharged by the learner -- the range becomes a condition on
every loss of the input rows --, every other hypothesis must not speak of the run and stays, and in
the conclusion the two run totals, sum_t H(t) and sum_t l(t, j), become the learner's
``hedge_loss`` and ``option_loss j``.  ``HedgeRuns.v`` proves it from ``Catalogue_hedge.hedge_core``.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction

from proofs.language.formula import NAT, REAL, And, Eq, Expr, Fun, Nat, Real, forall_below, num
from proofs.catalogue.hedge_bound import RUN as HEDGE_RUN
from proofs.language.substitution import free_vars, walk
from coq.export import CoqPrinter, ExportError, _z_indexed
from coq.learner_sides import HEDGE_DOMAIN, Reads, Side, SideDomain, check_sides, print_side
from coq.learner_theorems_experts import binders_of
from coq.names import LOGICAL

__all__ = ["HedgeLearner", "HedgeLearnerTheorem", "HEDGE", "LEARNER_HEDGE", "HEDGE_TUNED", "LEARNER_HEDGE_REGRET",
           "HEDGE_EXACT", "LEARNER_HEDGE_EXACT", "hedge_statement"]

LH_ = f"{LOGICAL}.LearnersHedge"
LHQ = f"{LOGICAL}.LearnersHedgeQ"


@dataclass(frozen=True)
class HedgeLearner:
    id: str
    python: str
    coq: str
    inputs: tuple
    run: tuple                       # the catalogue hypotheses the learner's run discharges
    side: tuple                      # conditions on the input rows (coq.learner_sides.Side: formula objects)
    counts: tuple                    # ((name, Coq term), ...): the learner's totals
    requires: tuple = (LH_,)
    horizon: str = ""                # the Coq term for the number of steps T, where a statement fixes it
    domain: object = HEDGE_DOMAIN    # the Python learner's inputs the side conditions are checked on


@dataclass(frozen=True)
class HedgeLearnerTheorem:
    id: str
    name: str
    learner: HedgeLearner
    base: str


# one row of losses: loss(i) is option i's loss on it (0 past the row's end, as nth reads it)
_ROW = Reads("ex", (("row", "list R"),), "row", (("loss", "fun i : nat => nth i row 0"),))
_loss, _i = Fun("loss", (NAT,), REAL), Nat("i")
# every loss of every row in [0, 1]: learners.run_hedge refuses any other (the catalogue's losses_range,
# which the learner's run discharges, read on the input rows)
LOSSES_IN_RANGE = Side(forall_below(_i, Nat("n"), And(num(0) <= _loss(_i), _loss(_i) <= 1)), "domain", _ROW)

HEDGE = HedgeLearner(
    id="hedge", python="learners.run_hedge(beta=beta)", coq=f"{LH_}.hedge_loss",
    inputs=(("ex", "list (list R)"),),
    run=HEDGE_RUN,
    side=(LOSSES_IN_RANGE,),
    counts=(("LH", f"{LH_}.hedge_loss beta {{n}} {LH_}.hedge_start ex"), ("Lj", f"{LH_}.option_loss j ex")))

LEARNER_HEDGE = HedgeLearnerTheorem(
    "learner_hedge", "Hedge with a penalty beta in (0, 1) on rows of losses in [0, 1]: its total loss against every "
    "option j's", HEDGE, "hedge_bound")

# the tuned form: beta fixed by the number of rows T (a hypothesis of the catalogue entry)
HEDGE_TUNED = HedgeLearner(**{**HEDGE.__dict__, "id": "hedge_tuned", "python": "learners.run_hedge(beta=exp(-sqrt(2 ln n / T)))",
                              "horizon": "length ex"})
LEARNER_HEDGE_REGRET = HedgeLearnerTheorem(
    "learner_hedge_regret", "Hedge with beta = exp(-sqrt(2 ln n / T)) on T rows of losses in [0, 1]: regret at most "
    "sqrt(2 T ln n) against every option", HEDGE_TUNED, "hedge_regret_bound")


# the rational run the differential compares with run_hedge(exact=True) (coq/LearnersHedgeQ.v): losses
# k/m given as the naturals k, beta = b^m for the positive rational b = beta^(1/m); read through Q2R.
# Every loss table run_hedge(exact=True) accepts has this form: beta^l rational for every loss l = p/q
# in lowest terms makes beta^(1/q) rational, and so beta^(1/m) for m the common denominator.
_ROWQ = Reads("ex", (("row", "list nat"),), "row", (("k", "fun i : nat => nth i row 0%nat"),))
_k = Fun("k", (NAT,), NAT)
_m, _bR, _bm = Nat("m"), Real("b_r"), Real("b_m")
LOSSES_K_LE_M = Side(forall_below(_i, Nat("n"), _k(_i) <= _m), "domain", _ROWQ)
M_POS = Side(_m >= 1, "domain")
B_POS = Side(_bR > 0, "domain", Reads(lets=(("b_r", "Q2R b"),)))
LINK_BETA_ROOT = Side(Eq(_bm, Real("beta")), "link", Reads(lets=(("b_m", "Q2R b ^ m"),)))


def _root(beta: Fraction, m: int):
    from learners.hedge import rational_power
    return rational_power(beta, Fraction(1, m))


def _hedge_exact_inputs():
    """Loss tables over 1..3 options and 0..3 steps with beta in (0, 1] (1 refused), read as
    (n, m, b, rows of k): m the losses' common denominator, b = beta^(1/m) when rational."""
    rng = random.Random(20262)
    vals = (Fraction(0), Fraction(1), Fraction(1, 2), Fraction(1, 3), Fraction(2, 3), Fraction(3, 2))
    for T in range(0, 4):
        for n in (1, 2, 3):
            for beta in (Fraction(1, 2), Fraction(1, 4), Fraction(1, 8), Fraction(4, 9), Fraction(1, 64), Fraction(1)):
                rows = [[rng.choice(vals[:5]) if rng.random() < 0.9 else rng.choice(vals) for _ in range(n)]
                        for _ in range(T)]
                m = 1
                for r in rows:
                    for v in r:
                        m = m * v.denominator // math.gcd(m, v.denominator)
                b = _root(beta, m)
                yield (n, m, b, beta, tuple(tuple(int(v * m) for v in r) for r in rows))


def _hedge_exact_accepts(x) -> bool:
    from learners import InputError, run_hedge
    n, m, b, beta, rows = x
    if not rows or b is None:
        return False                 # no call, or beta^(1/m) irrational: run_hedge(exact=True) refuses some loss
    try:
        run_hedge([[Fraction(k, m) for k in r] for r in rows], beta=beta, exact=True)
    except InputError:
        return False
    return True


HEDGE_EXACT_DOMAIN = SideDomain(
    inputs=_hedge_exact_inputs, accepts=_hedge_exact_accepts,
    env=lambda x: {"n": x[0], "m": x[1], "b_r": x[2] if x[2] is not None else 0},
    members=lambda x: [{"k": (lambda r: lambda i: r[int(i)] if 0 <= i < len(r) else 0)(r)} for r in x[4]],
    python="learners.run_hedge(exact=True)")

HEDGE_EXACT = HedgeLearner(
    id="hedge_exact", python="learners.run_hedge(beta=b**m, exact=True)", coq=f"{LHQ}.hq_loss",
    inputs=(("b", "Q"), ("m", "nat"), ("ex", "list (list nat)")),
    run=HEDGE_RUN,
    side=(LOSSES_K_LE_M, M_POS, B_POS, LINK_BETA_ROOT),
    counts=(("LH", f"Q2R ({LHQ}.hq_loss b {{n}} m (fun _ => 1%Q) ex)"),
            ("Lj", f"{LH_}.option_loss j ({LHQ}.hq_losses m ex)")),
    requires=(LH_, LHQ), domain=HEDGE_EXACT_DOMAIN)
LEARNER_HEDGE_EXACT = HedgeLearnerTheorem(
    "learner_hedge_exact", "Hedge run over the rationals (as compared with the exact Python learner) on losses k/m, "
    "beta = b^m: its total loss against every option j's", HEDGE_EXACT, "hedge_bound")


def hedge_statement(lt: HedgeLearnerTheorem) -> str:
    from proofs.catalogue import registry
    from proofs.catalogue.hedge_bound import L_HEDGE, L_J
    base = registry.get(lt.base)
    ln = lt.learner
    names = {n for n, _ in base.hypotheses}
    if set(ln.run) - names:
        raise ExportError(f"{lt.base} has no hypothesis {sorted(set(ln.run) - names)[0]} for the learner to discharge")
    seqs = {n.name for _, f in base.hypotheses for n in walk(f) if n.op == "call"}

    def of_run(f, steps_ok=False):
        return any(n.op == "call" and n.name in seqs for n in walk(f)) or \
            (not steps_ok and any(v.name == "T" for v in free_vars(f)))
    glob, timed = [], []
    for name, f in base.hypotheses:
        if name in ln.run:
            continue
        if of_run(f, steps_ok=bool(ln.horizon)):
            raise ExportError(f"{lt.base}: hypothesis {name} speaks of the run but is not discharged by the learner")
        (timed if any(v.name == "T" for v in free_vars(f)) else glob).append((name, f))
    repl = {L_HEDGE: Real("LH"), L_J: Real("Lj")}

    def go(n):
        if n in repl:
            return repl[n]
        if n.op in ("var", "num") or not n.args:
            return n
        return Expr(n.op, tuple(go(c) for c in n.args), n.name, n.sort, n.value, n.tex, n.text)
    concl = go(base.conclusion)
    if of_run(concl, steps_ok=bool(ln.horizon)):
        raise ExportError(f"{lt.base}: the conclusion speaks of the run beyond the totals the learner counts")
    if "LH" not in {v.name for v in free_vars(concl)}:
        raise ExportError(f"{lt.base}: the conclusion does not bound the learner's loss")
    forms = [f for _, f in glob] + [f for _, f in timed] + [concl]
    pr = CoqPrinter(_z_indexed(forms), forms)
    counts = dict(ln.counts)
    binders = [(n, t) for n, t in binders_of(pr.binders(forms)) if n not in counts and not (ln.horizon and n == "T")]
    bound = dict(binders)
    if bound.get("n") != "nat" or bound.get("beta") != "R" or bound.get("j") != "nat":
        raise ExportError(f"{lt.base} has no number of options n, option j or penalty beta")
    head = " ".join(f"({n} : {t})" for n, t in binders + list(ln.inputs))
    check_sides(lt.id, base, ln.side, ln.domain, ln.run, ln.inputs)
    prem = [print_side(s) for s in ln.side] + [pr.P(f) for _, f in glob]
    lets = "".join(f"let {c} : R := {counts[c].format(n='n')} in\n  " for c in ("LH", "Lj"))
    body = f"{lets}{pr.P(concl)}"
    if ln.horizon:                    # T is the number of rows: bound before the hypotheses that fix beta by it
        body = f"let T : nat := {ln.horizon} in\n  " + " ->\n  ".join([pr.P(f) for _, f in timed] + [body])
    elif timed:
        raise ExportError(f"{lt.base}: a hypothesis speaks of the number of steps T")
    chain = " ->\n  ".join(prem + [body])
    return f"forall {head},\n  {chain}"
