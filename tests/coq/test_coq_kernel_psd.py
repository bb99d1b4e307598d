"""The kernel perceptron's learner theorems for any positive semidefinite kernel (coq/KernelPSD.v,
coq.learner_theorems_psd): the comparator given by dual coefficients, no feature map, so the
Gaussian kernel is covered.  The statements name the Coq learner the differential compares with
``run_kernel_perceptron``; Coq kernel-checks them on the other learner theorems' axioms, and refuses
a statement with a smaller bound or without the positive-semidefinite hypothesis.  The Coq tests
skip locally without coqc; in CI (CI=1) they run."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from coq_support import build_with_statement_edited

import learners
from coq import build, learner_theorems as lth
from coq.export import ExportError
from coq.learner_sides import print_side

pytestmark = pytest.mark.xdist_group("coq")

IDS = ("learner_kernel_perceptron_psd", "learner_kernel_perceptron_psd_norm")
PSD = ("(forall (c : nat -> R), 0 <= sum_lt n (fun i => sum_lt n (fun j => c i * c j * K (xs i) (xs j)))) ->\n  ")


def _theorem(tid):
    return next(lt for lt in lth.LEARNER_THEOREMS if lt.id == tid)


# ------------------------------------------------------------------ the statements (no Coq needed)
def test_the_statements_speak_of_any_psd_kernel_and_a_dual_comparator():
    files, errors = lth.learner_files()
    assert errors == {}
    unit, norm = (lth.learner_statement(_theorem(i)) for i in IDS)
    for stmt in (unit, norm):
        assert stmt.startswith("forall (K : Vec -> Vec -> R) (n : nat) (xs : nat -> Vec) (ys : nat -> R) "
                               "(order : list nat) (beta : nat -> R) (g R_")
        assert PSD in stmt and "phi" not in stmt                     # no feature map
        assert "(forall (i j : nat), (i < n)%nat -> (j < n)%nat -> K (xs i) (xs j) = K (xs j) (xs i))" in stmt
        assert ("Mistakebound.Learners.kperceptron_run RN n K xs ys false false (fun _ => 0) 0 order"
                in stmt)                                             # the learner the differential compares
        assert "y * sum_lt n (fun j => beta j * K (xs j) x) >= g" in stmt
        side, = lth.KERNEL_PERCEPTRON.side                          # the kernel perceptron's domain condition
        assert print_side(side) in stmt
        assert f"Definition {IDS[stmt is norm]}_statement : Prop :=\n  {stmt}.\n" in files[lth.STATEMENT_FILE]
    assert "beta i * beta j * K (xs i) (xs j))) <= 1 ->" in unit and unit.endswith("INR M <= R_ ^ 2 / g ^ 2")
    assert "<= W ^ 2 ->" in norm and norm.endswith("INR M <= R_ ^ 2 * W ^ 2 / g ^ 2")


def test_a_side_condition_stronger_than_the_python_learner_is_refused():
    """Every visited index below 2: run_kernel_perceptron visits more points, so the theorem is not
    printed."""
    from proofs.language.formula import Nat
    lt = _theorem(IDS[0])
    few = dataclasses.replace(lt.learner.side[0], formula=Nat("i") < 2)
    lt = dataclasses.replace(lt, learner=dataclasses.replace(lt.learner, side=lt.learner.side + (few,)))
    with pytest.raises(ExportError, match="is stronger than"):
        lth.learner_statement(lt)


def test_a_gaussian_run_meets_the_hypotheses_and_the_bound():
    """A concrete Gaussian-kernel run of the Python learner: the Gram matrix of its points (the
    learner's own kernel) is symmetric and positive semidefinite, K(x, x) = 1 = R^2, and the learner's
    final dual coefficients, normalised (|u|^2 = 1), are a comparator with margin gamma > 0 on every
    example; its mistakes over 30 epochs (any visiting order is one the theorem covers) are at most
    R^2 / gamma^2.  A rank-one matrix minus a diagonal entry is not positive semidefinite (the
    hypothesis can fail)."""
    from learners.kernels import parse_kernel
    rng = np.random.default_rng(3)
    X = rng.normal(size=(12, 2))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    run = learners.run_kernel_perceptron(X, y, kernel="gaussian:c=0.5", bias=False, epochs=30)
    K = parse_kernel("gaussian:c=0.5")
    G = np.array([[K(a, b) for b in X] for a in X])
    assert np.allclose(G, G.T) and np.linalg.eigvalsh(G).min() > -1e-9 and np.allclose(np.diag(G), 1.0)
    alpha = np.array(run.weights, dtype=float)
    beta = alpha / np.sqrt(alpha @ G @ alpha)
    gamma = (y * (G @ beta)).min()
    assert gamma > 0 and abs(beta @ G @ beta - 1) < 1e-9
    assert 0 < run.mistakes <= 1 / gamma ** 2
    bad = np.outer([1.0, 2.0], [1.0, 2.0]) - np.diag([2.0, 0.0])
    assert np.linalg.eigvalsh(bad).min() < 0


# ------------------------------------------------------------------ kernel-checked by Coq
@pytest.fixture
def report(coq_report):
    return coq_report             # the session's one build (tests/conftest.py)


@pytest.mark.slow
def test_the_psd_kernel_theorems_are_kernel_checked(report):
    rows = {t.id: t for t in report.learners}
    radius = rows["learner_kernel_perceptron_radius"]
    for tid in IDS:
        t = rows[tid]
        assert t.status == build.KERNEL_CHECKED, (t.id, t.reason)
        assert t.learner == "Mistakebound.Learners.kperceptron_run" and t.base.startswith("KernelPSD.")
        assert t.axioms and set(t.axioms) <= set(radius.axioms) | set(rows["learner_perceptron_radius"].axioms)
        assert set(t.axioms) <= set(build.allowed_axioms())
    checks = (build.default_build_dir() / "Checks.v").read_text()
    for tid in IDS:                 # Coq, not a pattern, decides that the proof proves the statement
        assert (f"Definition check_{tid} : Mistakebound.LearnerStatements.{tid}_statement := "
                f"Mistakebound.LearnerTheorems.{tid}.") in checks



_MUTATIONS = {
    "half the bound": ("INR M <= R_ ^ 2 / g ^ 2", "INR M <= R_ ^ 2 / (2 * g ^ 2)"),
    "no psd hypothesis": (PSD, ""),
}


@pytest.mark.slow
@pytest.mark.parametrize("what", sorted(_MUTATIONS))
def test_a_mutated_statement_is_refused_by_coq(what, monkeypatch, tmp_path, report):
    """R^2/gamma^2 printed as R^2/(2 gamma^2), or the positive-semidefinite hypothesis dropped: the
    proof in LearnerTheorems.v no longer has the statement's type and Coq refuses it."""
    old, new = _MUTATIONS[what]
    rep = build_with_statement_edited(monkeypatch, tmp_path, "psd_statement", IDS[0], old, new, [IDS[0]])
    assert new in (tmp_path / "coq" / lth.STATEMENT_FILE).read_text() or not new
    (t,) = rep.learners
    assert t.status == build.FAILED and "LearnerTheorems.v" in t.reason, (t.status, t.reason)
    assert not rep.ok
