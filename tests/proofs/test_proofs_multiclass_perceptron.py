"""The multiclass perceptron's mistake bound (Crammer & Singer 2003; Collins 2002): the catalogue
entry is proved, its hypotheses are each needed by the proof, a tighter bound is not proved, and
``learners.MulticlassPerceptron``'s own runs satisfy the hypotheses (Kesler's construction,
replayed exactly) and the bound."""
from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import pytest

from learners import MulticlassPerceptron
from proofs.catalogue import registry
from proofs.catalogue.core import PROVED
from proofs.verify.runner import run_catalogue

TID = "multiclass_perceptron_bound"


def test_proved_with_induction_and_cauchy_schwarz():
    r = run_catalogue([TID]).by_id(TID)
    assert r.status == PROVED and r.nonvacuity.status == "sat"
    assert "induction" in r.rules and "cauchy_schwarz" in r.lemmas


@pytest.mark.parametrize("drop", ["other_class", "kesler_blocks_orthogonal", "kesler_block_norm", "mistake",
                                  "margin", "radius", "target_norm", "starts_at_zero"])
def test_each_hypothesis_is_needed(drop):
    th = registry.get(TID)
    edited = dataclasses.replace(th, id=f"{TID}_without_{drop}",
                                 hypotheses=[(n, f) for n, f in th.hypotheses if n != drop])
    assert run_catalogue([edited]).by_id(edited.id).status != PROVED


def test_the_factor_two_is_needed():
    """R^2/gamma^2 (the binary bound) does not follow: |W|^2 grows by up to 2 R^2 per mistake."""
    th = registry.get(TID)
    c = th.conclusion
    lhs, rhs = c.args
    tighter = dataclasses.replace(th, id=f"{TID}_halved", conclusion=type(c)(c.op, (lhs, rhs / 2), sort=c.sort))
    assert run_catalogue([tighter]).by_id(tighter.id).status != PROVED


def _kesler(x, j, K):
    out = [Fraction(0)] * (K * len(x))
    out[j * len(x):(j + 1) * len(x)] = x
    return out


def _dot(a, b):
    return sum((p * q for p, q in zip(a, b)), Fraction(0))


@pytest.mark.parametrize("seed", range(12))
def test_learner_runs_satisfy_the_hypotheses_and_the_bound(seed):
    """Replay MulticlassPerceptron (exact, no bias) mistake by mistake in Kesler's form: the other
    class r(k) it updates is the first of the largest other scores, W(k+1) = W(k) + phi(x, c) -
    phi(x, r), the mistake is W.phi(x, c) <= W.phi(x, r), and the count is at most 2 R^2/gamma^2
    with gamma the margin of a separating U scaled to |U|_F = 1 (compared squared, exactly)."""
    rng = np.random.default_rng(seed)
    while True:                   # data a random integer U separates, with at least two classes
        K, d, n = int(rng.integers(2, 5)), int(rng.integers(1, 4)), 40
        U = rng.integers(-3, 4, size=(K, d))
        X = rng.integers(-4, 5, size=(n, d))
        S = X @ U.T
        top = np.sort(S, axis=1)
        keep = top[:, -1] > top[:, -2]
        X, y = X[keep], np.argmax(S[keep], axis=1)
        if len(set(y.tolist())) >= 2:
            break
    m = MulticlassPerceptron(exact=True, bias=False, epochs=30).fit(X, y)
    classes = m.classes_.tolist()
    Kc = len(classes)
    # the replay
    W = [Fraction(0)] * (Kc * d)
    mistakes = 0
    for _ in range(30):
        for xi, yi in zip(X.tolist(), y.tolist()):
            x = [Fraction(v) for v in xi]
            c = classes.index(yi)
            s = [_dot(W, _kesler(x, j, Kc)) for j in range(Kc)]
            r = max((j for j in range(Kc) if j != c), key=lambda j: (s[j], -j))
            if not s[c] > s[r]:
                mistakes += 1
                a, b = _kesler(x, c, Kc), _kesler(x, r, Kc)
                assert _dot(W, a) <= _dot(W, b)
                assert _dot(a, b) == 0 and _dot(a, a) == _dot(x, x) == _dot(b, b)
                W = [wi + ai - bi for wi, ai, bi in zip(W, a, b)]
    assert mistakes == m.mistakes_ and mistakes > 0
    assert W == [v for row in m.coef_.tolist() for v in row]
    # the bound, with the labels' rows of U (every class present is a row of U)
    Ur = [[Fraction(int(v)) for v in U[k]] for k in classes]
    gam = min(_dot(Ur[classes.index(yi)], list(map(Fraction, xi))) - _dot(Ur[j], list(map(Fraction, xi)))
              for xi, yi in zip(X.tolist(), y.tolist()) for j in range(Kc) if j != classes.index(yi))
    R2 = max(_dot(list(map(Fraction, xi)), list(map(Fraction, xi))) for xi in X.tolist())
    F2 = sum(_dot(row, row) for row in Ur)
    assert gam > 0
    assert mistakes * gam**2 <= 2 * R2 * F2          # M <= 2 R^2 / (gamma/|U|_F)^2


# ------------------------------------------------------------------ the Coq learner against Python's
_MC_HEAD = """Require Import Mistakebound.Prelude Mistakebound.LearnersMulticlass.
Require Import Reals List Lra.
Import ListNotations.
Open Scope R_scope.
Ltac mc_num := cbv [dot sum_lt mc_update vadd vsub vzero nth Nat.eqb]; lra.
Ltac mc_eval := try unfold mc_mistakes; cbn [mc_run mc_best fst snd Nat.eqb];
  repeat (match goal with
  | |- context [Rlt_b ?a ?b] => first [ rewrite (proj2 (Rlt_b_spec a b)) by mc_num
                                      | rewrite (proj2 (Rlt_b_false a b)) by mc_num ]
  | |- context [Rle_b ?a ?b] => first [ rewrite (proj2 (Rle_b_spec a b)) by mc_num
                                      | rewrite (proj2 (Rle_b_false a b)) by mc_num ]
  end; cbn [mc_run mc_best fst snd Nat.eqb]).
"""


def _mc_goal(X, c, K, mistakes, W):
    """Coq's learner on the sequence: its count of mistakes and its final weights are Python's."""
    d = len(X[0])
    ex = "; ".join(f"((fun i => nth i [{'; '.join(f'({int(v)})' for v in x)}] 0), {ci}%nat)" for x, ci in zip(X, c))
    weights = " /\\ ".join(f"W {j}%nat {i}%nat = ({W[j][i].numerator} / {W[j][i].denominator})"
                           for j in range(K) for i in range(d))
    return (f"Goal mc_mistakes {d} {K} [{ex}] = {mistakes}%nat /\\\n"
            f"  let W := fst (mc_run {d} {K} (fun _ => vzero) [{ex}]) in {weights}.\n"
            "Proof. split; [mc_eval; reflexivity|]. cbv zeta. mc_eval.\n"
            "  repeat split; cbv [mc_update vadd vsub vzero nth Nat.eqb]; lra.\nQed.\n")


@pytest.mark.slow
@pytest.mark.xdist_group("coq")
def test_coq_multiclass_learner_runs_as_the_python_learner(tmp_path, coq_report):
    """LearnersMulticlass.v's learner (the model of learner_multiclass_perceptron) on 16 random
    tie-heavy sequences: Coq proves its mistakes and final weights equal to MulticlassPerceptron's
    (exact, no bias; its ties go to the first class), and refuses one count plus one."""
    import random
    import subprocess
    from coq.compile import default_build_dir
    rng = random.Random(5)
    goals = []
    for _ in range(16):
        K, d, n = rng.randint(2, 3), rng.randint(1, 2), rng.randint(2, 4)
        X = [[rng.randint(-1, 1) for _ in range(d)] for _ in range(n)]
        c = [rng.randrange(K) for _ in range(n)]
        if len(set(c)) < 2:
            c[0], c[1] = 0, 1
        m = MulticlassPerceptron(exact=True, bias=False).partial_fit(np.array(X), np.array(c), classes=list(range(K)))
        goals.append((X, c, K, m.mistakes_, [[Fraction(v) for v in row] for row in m.coef_.tolist()]))

    def compiles(text, name):
        f = tmp_path / f"{name}.v"
        f.write_text(_MC_HEAD + text)
        r = subprocess.run(["coqc", "-R", str(default_build_dir()), "Mistakebound", str(f)], cwd=tmp_path,
                           capture_output=True, text=True)
        return r.returncode == 0 or print(r.stdout[-2000:], r.stderr[-2000:])
    assert sum(g[3] for g in goals) > len(goals)          # mistakes happen, ties among them
    assert compiles("".join(_mc_goal(*g) for g in goals), "Agree")
    X, c, K, m, W = goals[0]
    assert not compiles(_mc_goal(X, c, K, m + 1, W), "Off")
