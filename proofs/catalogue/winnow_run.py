"""Winnow's run as formulas: the vocabulary of every Winnow theorem, and the proof steps they share.

Winnow as Blum's notes define it ("The Winnow Algorithm (a simple version)", Theorem 5): n Boolean
variables with weights starting at 1; on an example x it predicts 1 iff w.x >= n; on a mistake on
a positive example (a *promotion*) it doubles the weight of every active variable (x_i = 1), on a
mistake on a negative example (a *demotion*) it halves them -- or, in the elimination variant,
sets them to 0.  The target is the disjunction of r of the variables; up to renaming, the first r
(indices 0..r-1).

An example the learner gets right changes nothing, so the run is described by its M mistakes:
for t = 0..M-1, ``x(t, i)`` in {0, 1} is the example of the t-th mistake, ``y(t)`` its label,
``w(t, i)`` the weights before it (``w(M, i)`` the weights at the end).  Each per-step hypothesis
is "for all t < M: ..." (``forall_below``); the counts are sums:
``P(t)`` = sum_{s<t} y(s), the promotions among the first t mistakes (the other t - P(t) are
demotions), and ``d(t, i)`` = sum_{s<t} y(s) x(s, i), the promotions that doubled weight i.

The two general theorems the bounds use as lemmas (``winnow_relevant_weights``,
``winnow_total_weight``) let a demotion multiply the active weights by any factor beta >= 0
(beta <= 1 too for the total weight): beta = 1/2 is the notes' Winnow, beta = 0 the elimination
variant.  The per-step hypotheses come in three groups (the examples and their labels, the
mistake, the update rule): applying a lemma is a solver step whose hypotheses are the lemma and
the theorem's, and z3's satisfiability and necessity questions on it are much faster with three
quantified hypotheses than with nine.

Names: the per-step variable is ``t`` and the variable index ``i`` both where they are bound (in
the hypotheses) and where they are free (in the proofs), so a sum means the same function to the
solvers wherever it occurs.
"""
from __future__ import annotations

from fractions import Fraction

from proofs.language.formula import INT, REAL, And, Eq, Fun, Iff, Implies, Nat, Or, Real, Sum, forall_below, num
from proofs.language.functions import Min, lg, pow2
from proofs.language.substitution import subst
from proofs.kernel.kernel import induction_goals

n = Nat("n")
r = Nat("r")
M = Nat("M")
l = Nat("l", tex=r"\ell", text="l")
t = Nat("t")
i = Nat("i")
s = Nat("s")
beta = Real("beta", tex=r"\beta", text="beta")

w = Fun("w", (INT, INT), REAL)          # w(t, i): weight of variable i before the t-th mistake
x = Fun("x", (INT, INT), INT)           # x(t, i): variable i in the example of the t-th mistake
y = Fun("y", (INT,), INT)               # y(t): the label of the t-th mistake

HALF = Fraction(1, 2)
# non-vacuity: a run of 2 mistakes over 4 variables, one of them relevant (two promotions of x_0)
WITNESS = {M: 2, n: 4, r: 1}
ENCODING = ("the run restricted to its M mistakes: x(t, i) and y(t) are the t-th mistake's example and label, "
            "w(t, i) the weights before it; the relevant variables are the first r")


def act(tt):
    """w.x on the t-th mistake: sum_{i<n} w(t, i) x(t, i)."""
    return Sum(i, 0, n - 1, w(tt, i) * x(tt, i))


def total(tt):
    """The total weight W(t) = sum_{i<n} w(t, i)."""
    return Sum(i, 0, n - 1, w(tt, i))


def relevant_total(tt):
    """The weight of the relevant variables, sum_{i<r} w(t, i)."""
    return Sum(i, 0, r - 1, w(tt, i))


def irrelevant_total(tt):
    """The weight of the irrelevant variables, sum_{r<=i<n} w(t, i)."""
    return Sum(i, r, n - 1, w(tt, i))


def relevant_active(tt):
    """How many relevant variables the t-th example sets: sum_{i<r} x(t, i)."""
    return Sum(i, 0, r - 1, x(tt, i))


def promotions(tt):
    """P(t) = sum_{s<t} y(s): the promotions among the first t mistakes."""
    return Sum(s, 0, tt - 1, y(s))


def doublings(tt, ii):
    """d(t, i) = sum_{s<t} y(s) x(s, i): the promotions among the first t mistakes that doubled w_i."""
    return Sum(s, 0, tt - 1, y(s) * x(s, ii))


def relevant_doublings(tt):
    """sum_{i<r} d(t, i): the doublings of relevant weights among the first t mistakes."""
    return Sum(i, 0, r - 1, doublings(tt, i))


def update_rule(demotion: str, tt=t, ii=i):
    """Step 3 of the notes' algorithm for one variable: a promotion (a mistake on a positive example)
    doubles an active weight, a demotion halves it ("halves"), sets it to 0 ("eliminates") or
    multiplies it by beta ("scales"); an inactive weight is unchanged."""
    new = {"halves": HALF * w(tt, ii), "eliminates": num(0), "scales": beta * w(tt, ii)}[demotion]
    return And(Implies(And(Eq(y(tt), 1), Eq(x(tt, ii), 1)), Eq(w(tt + 1, ii), 2 * w(tt, ii))),
               Implies(And(Eq(y(tt), 0), Eq(x(tt, ii), 1)), Eq(w(tt + 1, ii), new)),
               Implies(Eq(x(tt, ii), 0), Eq(w(tt + 1, ii), w(tt, ii))))


def run_hypotheses(demotion: str, beta_at_most_1: bool = True) -> list[tuple[str, object]]:
    """Winnow's run, as the notes define it: ``demotion`` is "halves", "eliminates" or "scales"
    (multiplies the active weights by beta, 0 <= beta, and beta <= 1 unless ``beta_at_most_1`` is
    False: the general theorems)."""
    hs = [
        ("n_pos", n >= 1),
        ("relevant_among_variables", r <= n),
        ("examples_labelled_by_target", forall_below(t, M, And(
            forall_below(i, n, Or(Eq(x(t, i), 0), Eq(x(t, i), 1))),
            Eq(y(t), Min(1, relevant_active(t)))))),
        ("weights_start_at_1", forall_below(i, n, Eq(w(0, i), 1))),
        ("mistake_at_threshold_n", forall_below(t, M, Iff(act(t) >= n, Eq(y(t), 0)))),
        ("update_on_mistake", forall_below(t, M, forall_below(i, n, update_rule(demotion)))),
    ]
    if demotion == "scales":
        hs.append(("demotion_factor", And(num(0) <= beta, beta <= 1) if beta_at_most_1 else num(0) <= beta))
    return hs


POW2 = [("n_is_power_of_2", Eq(n, pow2(l))), ("n_at_least_2", l >= 1)]
R_POS = ("r_pos", r >= 1)


# --------------------------------------------------------------------------- concrete runs (errata)
class Table(list):
    """Values of a function of the run's indices, as nested lists (JSON as it is): ``w(t, i)`` is
    ``table[t][i]``.  ``proofs.printers.concrete.evaluate`` calls it."""

    def __call__(self, *idx):
        from proofs.printers.concrete import NotExact
        v = self
        for k in idx:
            k = int(k)
            if not isinstance(v, list) or not 0 <= k < len(v):
                raise NotExact(f"index {k} is outside the run")
            v = v[k]
        return v


def concrete_run(n_: int, r_: int, x_rows, y_vals, w_rows, **more) -> dict:
    """A counterexample: a concrete run of Winnow restricted to its mistakes."""
    return {"n": n_, "r": r_, "M": len(x_rows), **more, "x": Table(x_rows), "y": Table(y_vals), "w": Table(w_rows)}


def replay(cex: dict, variant: str, examples=None, labels=None, bound: str = ""):
    """``learners.run_winnow`` (exact) on the counterexample's examples (or on ``examples`` whose
    mistakes are the counterexample's): the mistakes and the weights after each must be the
    counterexample's."""
    from fractions import Fraction as F

    from learners import run_winnow
    X = examples if examples is not None else [list(row) for row in cex["x"]]
    Y = labels if labels is not None else list(cex["y"])
    tr = run_winnow(X, Y, variant=variant, exact=True)
    mistakes = [st for st in tr.steps if st.mistake]
    got = [list(tr.initial_weights)] + [list(st.weights) for st in mistakes]
    want = [[F(v) for v in row] for row in cex["w"]]
    ok = tr.mistakes == cex["M"] and got == want
    return ok, (f"run_winnow({variant}) on n = {cex['n']}, r = {cex['r']}: {tr.mistakes} mistake(s), weights "
                f"{'as in' if got == want else 'differ from'} the counterexample; {bound}")


# --------------------------------------------------------------------------- shared proof steps
def step_range(tt=t):
    return And(num(0) <= tt, tt < M)


def at_t(p, name):
    """A per-step hypothesis at the free t: 0 <= t < M ==> its body."""
    return p.inst(p.hyp(name), t)


def generalize(p, fact, var, hi, sid: str):
    """"for all var with 0 <= var <= hi: fact", from a fact about a free ``var`` that no hypothesis
    mentions (the fact holds for every value of it).  The kernel has no rule of generalization
    yet, so this is induction on ``var``: the base and the successor case are instances of the
    fact itself (``specialize``), the step one trivial solve."""
    base = p.specialize(fact, {var: num(0)})
    nxt = p.specialize(fact, {var: var + 1})
    _, step_goal = induction_goals(var, fact.formula, hi)
    step = p.solve(sid, [nxt], step_goal, title=f"the fact holds for every {var.name}")
    return p.induction(var, fact.formula, base, step, hi)


def general_run(p, demotion: str):
    """Facts stating, in a theorem about the halving or the elimination variant, the hypotheses of
    the general theorems (``run_hypotheses("scales")``) at beta = 1/2 or 0: its own hypotheses
    (halving is literally the demotion at beta = 1/2), and for elimination the update rule with
    "w(t + 1, i) = 0" restated as multiplying by beta = 0."""
    facts = [p.hyp(name) for name, _ in run_hypotheses(demotion)]
    if demotion == "eliminates":
        scales = subst(dict(run_hypotheses("scales"))["update_on_mistake"], {beta: num(0)})
        conv = p.solve("elimination_is_factor_0", [p.hyp("update_on_mistake")], scales,
                       title="setting a weight to 0 multiplies it by beta = 0")
        facts = [f for f in facts if f.label != "update_on_mistake"] + [conv]
    return facts


def beta_of(demotion: str):
    return {"halves": HALF, "eliminates": num(0)}[demotion]


def counts_from_lemmas(p, demotion: str):
    """The two halves of the notes' proof for this variant (``winnow_relevant_weights`` and
    ``winnow_total_weight`` at its beta), applied in one step (its satisfiability and necessity
    questions, on the quantified run hypotheses, cost less once than twice): the fact stating both
    conclusions, returned as (relevant weights and promotions, total weight)."""
    from proofs.catalogue import registry
    facts = general_run(p, demotion)
    b = beta_of(demotion)
    ids = ("winnow_relevant_weights", "winnow_total_weight")
    goal = And(*[subst(registry.get(tid).conclusion, {beta: b}) for tid in ids])
    both = p.solve("general_lemmas", [p.lemma(tid, {"beta": b}) for tid in ids] + facts, goal,
                   title="winnow_relevant_weights and winnow_total_weight at this beta")
    return both, both


def promotions_bound(p, rel):
    """P <= r(1 + lg n), from the relevant weights' conclusion (one conjunct, without its quantifier)."""
    return p.solve("promotions_at_most_r_1_plus_lg_n", [rel], promotions(M) <= r * (1 + lg(n)),
                   title="at most r(1 + lg n) promotions")


def promotions_le_doublings(p, rel):
    """P <= sum_{i<r} d(M, i), from the relevant weights' conclusion."""
    return p.solve("promotions_le_relevant_doublings", [rel], promotions(M) <= relevant_doublings(M),
                   title="every promotion doubles a relevant weight")


def in_units_of_n(p, weight, demotion: str):
    """The total-weight facts in units of n (the threshold), so that what follows is linear: with
    S_u = sum_{i<r} w(M, i)/n and I_u = sum_{r<=i<n} w(M, i)/n, S_u + I_u + (1 - beta)(M - P) <= 1 + P
    (strictly when P >= 1), S_u >= 0, I_u >= 0, and, with a demotion, I_u >= beta; for halving
    S_u + I_u > 0.  Returns (invariant, signs)."""
    b = beta_of(demotion)
    P, S, I = promotions(M), units(0, r - 1), units(r, n - 1)
    scale = [p.rule("finite_sum_linearity", "sum_scale", i, 0, r - 1, 1 / n, w(M, i)),
             p.rule("finite_sum_linearity", "sum_scale", i, r, n - 1, 1 / n, w(M, i))]
    lhs = S + I + (1 - b) * (M - P)
    inv = p.solve("total_weight_in_units_of_n", [weight, p.hyp("n_pos")] + scale,
                  And(lhs <= 1 + P, Implies(P >= 1, lhs < 1 + P)), title="divide by n >= 1")
    signs = [num(0) <= S, num(0) <= I, Implies(promotions(M) < M, I >= b)]
    if demotion == "halves":
        signs.append(num(0) < S + I)
    sig = p.solve("weights_in_units_of_n", [weight, p.hyp("n_pos")] + scale, And(*signs),
                  title="the relevant and irrelevant weights, divided by n")
    return inv, sig


def units(lo, hi):
    """sum_{lo<=i<=hi} w(M, i)/n: final weights in units of the threshold."""
    return Sum(i, lo, hi, unit(w(M, i)))


def unit(e):
    """e/n, written (1/n) e so that sums of such terms scale (``sum_scale``)."""
    return (1 / n) * e


def labels_boolean(p):
    """0 <= t < M ==> y(t) is 0 or 1 (the minimum of 1 and a count)."""
    nonneg = p.rule("finite_sum_linearity", "sum_nonneg", i, 0, r - 1, x(t, i))
    return p.solve("label_is_0_or_1",
                   [at_t(p, "examples_labelled_by_target"), nonneg, p.hyp("relevant_among_variables")],
                   Implies(step_range(), Or(Eq(y(t), 0), Eq(y(t), 1))),
                   title="y(t) = min(1, sum_{i<r} x(t, i)) is 0 or 1")


def label_covers_relevant(p):
    """0 <= t < M and i < r ==> x(t, i) <= y(t): a relevant variable set makes the label 1."""
    term = p.rule("finite_sum_linearity", "sum_term_le", i, 0, r - 1, x(t, i), i)
    return p.solve("relevant_variable_sets_label", [at_t(p, "examples_labelled_by_target"), term,
                                                     p.hyp("relevant_among_variables")],
                   Implies(And(step_range(), i < r), x(t, i) <= y(t)),
                   title="the target is a disjunction: x(t, i) = 1 for a relevant i makes y(t) = 1")


def weights_nonneg(p, yb):
    """For every t <= M and i < n: w(t, i) >= 0, and > 0 when beta > 0 (induction over the
    mistakes; a theorem with the hypotheses of ``run_hypotheses("scales")``)."""
    def N(tt):
        return forall_below(i, n, And(w(tt, i) >= 0, Implies(beta > 0, w(tt, i) > 0)))
    base_goal, step_goal = induction_goals(t, N(t), M)
    base = p.solve("weights_nonneg_at_start", [p.hyp("weights_start_at_1")], base_goal,
                   title="the weights start at 1")
    step = p.solve("weights_nonneg_step", [at_t(p, "update_on_mistake"), at_t(p, "examples_labelled_by_target"), yb,
                                           p.hyp("demotion_factor")], step_goal,
                   title="doubling, multiplying by beta >= 0 or keeping a weight keeps it >= 0 (> 0 if beta > 0)")
    return p.induction(t, N(t), base, step, M)


__all__ = ["Table", "concrete_run", "replay", "n", "r", "M", "l", "t", "i", "s", "beta", "w", "x", "y", "HALF",
           "WITNESS", "ENCODING", "act", "total", "relevant_total", "irrelevant_total", "relevant_active",
           "promotions", "doublings", "relevant_doublings", "run_hypotheses", "update_rule", "POW2", "R_POS",
           "step_range", "at_t", "generalize", "general_run", "beta_of", "counts_from_lemmas",
           "in_units_of_n", "unit", "units", "promotions_bound", "promotions_le_doublings", "labels_boolean",
           "label_covers_relevant", "weights_nonneg"]
