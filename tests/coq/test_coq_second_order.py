"""The second-order perceptron's learner theorems (Cesa-Bianchi, Conconi & Gentile 2005, Theorem 1 in
its determinant-free form; coq/LearnersSecondOrder.v, coq/SecondOrderPerceptron.v,
coq.learner_theorems_second_order): the statements run the Coq learner, Coq kernel-checks them on
the allowed axioms, and refuses them for a learner that never updates, for statements claiming more
(gamma doubled, the logarithms' factor dropped, the hinge losses dropped).  The catalogue counterpart
(coq/Catalogue_second_order.v, B_k given only up to equality in R^dim) is kernel-checked, and Coq refuses
its proof for the catalogue statement made false (a |u|^2 dropped, gamma doubled).  A proof left Admitted is
refused by the build's audit of every source (tests/coq/test_coq_export.py).  The Coq tests skip locally without coqc; in CI (CI=1) they run."""
from __future__ import annotations

import math
import subprocess
from fractions import Fraction as F

import pytest
from coq_support import build_with_statement_edited, copy_build

import learners
from coq import build, learner_theorems as lth
from coq import learner_theorems_second_order as lso

pytestmark = pytest.mark.xdist_group("coq")

IDS = ("learner_second_order_perceptron", "learner_second_order_perceptron_ratio")
LSO = "Mistakebound.LearnersSecondOrder"


def _theorem(tid):
    return next(lt for lt in lth.LEARNER_THEOREMS if lt.id == tid)


# ------------------------------------------------------------------ the statements (no Coq needed)
def test_the_statements_run_the_coq_learner_and_bound_its_mistakes():
    files, errors = lth.learner_files()
    assert errors == {}
    log, ratio = (lth.learner_statement(_theorem(i)) for i in IDS)
    for tid, stmt in zip(IDS, (log, ratio)):
        assert stmt.startswith("forall (d : nat) (a g : R) (u : Vec) (ex : list (Vec * R)),\n  a > 0 ->\n  g > 0 ->")
        assert "(forall (x : Vec) (y : R), In (x, y) ex -> y ^ 2 = 1) ->" in stmt
        assert f"let ms := {LSO}.sop_run d a ex in\n  let M : nat := length ms in" in stmt
        assert f"let D : R := {LSO}.sop_hinge_sum d u g ms in" in stmt
        assert f"let X2 : R := {LSO}.sop_proj_sum d u ms in" in stmt
        assert f"Definition {tid}_statement : Prop :=\n  {stmt}.\n" in files[lth.STATEMENT_FILE]
        assert lso.CITATION in _theorem(tid).base
        assert callable(learners.run_second_order_perceptron)     # the Python learner the reports name
    assert log.endswith(f"INR M * g - D <= sqrt ((a * dot d u u + X2) * {LSO}.sop_log_sum ms)")
    assert ratio.endswith(f"INR M * g - D <= sqrt ((a * dot d u u + X2) * {LSO}.sop_ratio_sum ms)")
    # the learner of learners.second_order_perceptron: B_0 z = z/a, Sherman-Morrison, a tie a mistake
    src = (build.SRC / "LearnersSecondOrder.v").read_text()
    assert "Definition sop_start (a : R) : Vec -> Vec := fun z => smul (/ a) z." in src
    assert "fun z => vsub (B z) (smul (dot d x (B z) / (1 + dot d x (B x))) (B x))." in src
    assert "if Rle_b (y * sop_margin d v B x) 0" in src


def _run(ex, a):
    """The suite's Python learner, exact, on the examples: its trace."""
    return learners.run_second_order_perceptron([x for x, _ in ex], [y for _, y in ex], a=a, exact=True)


def _e(i, d):
    return [F(int(i == j)) for j in range(d)]


def test_the_tight_sequence_numbers():
    """The worst case the bound is read against (d orthonormal instances labelled +1, u = (1, ..., 1)
    / sqrt(d), gamma = 1/sqrt(d)): on the Python learner every round ties, M = d, q_k = 1/a, and M / bound =
    1/sqrt((a + 1) ln(1 + 1/a)) (0.995 at a = 50); with gamma doubled the claimed bound is below
    M gamma, so that mutant below is a false statement, not only an unproved one."""
    for d, a in ((3, F(1)), (4, F(50))):
        tr = _run([(_e(i, d), 1) for i in range(d)], a)
        qs = tr.extras["q"]
        assert tr.mistakes == d and qs == [1 / a] * d and tr.extras["margins"] == [0] * d    # every round a tie
        bound = math.sqrt((float(a) + 1) * sum(math.log(1 + float(q)) for q in qs))    # a |u|^2 + sum (u.x)^2 = a + 1
        gamma = 1 / math.sqrt(d)
        assert d * gamma <= bound < 2 * d * gamma
        assert abs(d * gamma / bound - 1 / math.sqrt((float(a) + 1) * math.log(1 + 1 / float(a)))) < 1e-12
    assert 0.995 <= 1 / math.sqrt(51 * math.log(1 + 1 / 50)) < 0.996


# ------------------------------------------------------------------ kernel-checked by Coq
@pytest.fixture
def report(coq_report):
    return coq_report             # the session's one build (tests/conftest.py)


@pytest.mark.slow
def test_the_second_order_theorems_are_kernel_checked(report):
    rows = {t.id: t for t in report.learners}
    for tid in IDS:
        t = rows[tid]
        assert t.status == build.KERNEL_CHECKED, (t.id, t.reason)
        assert t.learner == f"{LSO}.sop_run" and "SecondOrderPerceptron.sop_bound" in t.base
        assert t.axioms and set(t.axioms) <= set(build.allowed_axioms())
        assert t.statement == lth.learner_statement(_theorem(tid))
    checks = (build.default_build_dir() / "Checks.v").read_text()
    for tid in IDS:                 # Coq, not a pattern, decides that the proof proves the statement
        assert (f"Definition check_{tid} : Mistakebound.LearnerStatements.{tid}_statement := "
                f"Mistakebound.LearnerTheorems.{tid}.") in checks



@pytest.mark.slow
def test_a_learner_that_never_updates_proves_nothing(tmp_path, report):
    """LearnersSecondOrder.v weakened so that a mistake leaves (v, B) as they were: every round is then
    a tie, hence a mistake, and on one instance repeated the bound grows like sqrt(M^2 ln 2) < M: the
    proofs of SecondOrderPerceptron.v no longer go through and neither learner theorem is checked."""
    src = (build.SRC / "LearnersSecondOrder.v").read_text()
    go = "sop_go d (vadd v (smul y x)) (sop_sm d B x) rest"
    fin = "sop_final d (vadd v (smul y x)) (sop_sm d B x) rest"
    assert src.count(go) == 1 and src.count(fin) == 1
    lazy = src.replace(go, "sop_go d v B rest").replace(fin, "sop_final d v B rest")
    rep = build.build(list(IDS), build_dir=copy_build(tmp_path), sources={"LearnersSecondOrder.v": lazy})
    assert sorted((t.id, t.status) for t in rep.learners) == sorted((i, build.FAILED) for i in IDS)
    assert "SecondOrderPerceptron.v" in rep.file_errors and not rep.ok


_MUTATIONS = {      # each a false statement on the tight sequence (or on a repeated non-separable example)
    "gamma doubled": ("INR M * g - D <= ", "INR M * (2 * g) - D <= "),
    "the logarithms dropped": (f" * {LSO}.sop_log_sum ms)", ")"),
    "the hinge losses dropped": ("INR M * g - D <= ", "INR M * g <= "),
}


@pytest.mark.slow
@pytest.mark.parametrize("what", sorted(_MUTATIONS))
def test_a_stronger_statement_is_refused_by_coq(what, monkeypatch, tmp_path, report):
    """The bound printed stronger: the proof in LearnerTheorems.v no longer has the statement's type and
    Coq refuses it (the session's build, with the statement as printed, checks it)."""
    old, new = _MUTATIONS[what]
    rep = build_with_statement_edited(monkeypatch, tmp_path, "second_order_statement", IDS[0], old, new, IDS)
    assert new in (tmp_path / "coq" / lth.STATEMENT_FILE).read_text()
    rows = {t.id: t for t in rep.learners}
    assert rows[IDS[0]].status == build.FAILED and "LearnerTheorems.v" in rows[IDS[0]].reason, rows[IDS[0]]
    assert "SecondOrderPerceptron.sop_bound\" has type" in rows[IDS[0]].reason, rows[IDS[0]].reason
    assert not rep.ok
    assert {t.id: t.status for t in report.learners}[IDS[0]] == build.KERNEL_CHECKED


# sequences in R^2 (a = 1), as Coq terms and as Python lists: a repeat (the second round's margin is
# 1/3 > 0), the tight pair (two ties), a repeat with the label flipped, and a second instance the
# first mistake already classifies (margin 1/5)
_E = {"e 0": _e(0, 2), "e 1": _e(1, 2), "vadd (e 0) (e 1)": [F(1), F(1)]}
_SEQUENCES = ([("e 0", 1), ("e 0", 1)], [("e 0", 1), ("e 1", 1)], [("e 0", 1), ("e 0", -1)],
              [("e 0", 1), ("vadd (e 0) (e 1)", 1)])
_HEAD = """Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.LearnersSecondOrder.
Require Import Reals List Lra.
Import ListNotations.
Open Scope R_scope.
Definition e (i : nat) : Vec := fun j => if Nat.eqb j i then 1 else 0.
(* every comparison of the run decided: the branch whose margin contradicts it closed by lra *)
Ltac sop_eval :=
  unfold sop_mistakes, sop_run;
  repeat (cbn [sop_go length];
    match goal with
    | |- context [Rle_b ?m 0] =>
        let E := fresh "E" in
        destruct (Rle_b m 0) eqn:E; [apply Rle_b_spec in E | apply Rle_b_false in E];
        unfold sop_margin, sop_sm, sop_start, dot, vsub, vadd, smul, vzero, e in E; cbn [sum_lt Nat.eqb] in E;
        try (exfalso; field_simplify in E; lra)
    end);
  reflexivity.
"""


@pytest.mark.slow
def test_the_coq_learner_errs_as_defined(tmp_path, report):
    """Coq computes the learner's mistakes on four short sequences and proves them equal to those of
    ``learners.run_second_order_perceptron`` (1, 2, 2, 1: the learner errs, so the theorem is not
    vacuous, and it updates, so a repeat is not a second mistake), and refuses the count of a learner
    that never updates (2 on the repeat)."""
    def goal(seq, n):
        ex = "; ".join(f"({x}, {y})" for x, y in seq)
        return f"Goal sop_mistakes 2 1 [{ex}] = {n}%nat.\nProof. sop_eval. Qed.\n"

    def compiles(text, name):
        f = tmp_path / f"{name}.v"
        f.write_text(_HEAD + text)
        return subprocess.run(["coqc", "-R", str(build.default_build_dir()), "Mistakebound", str(f)], cwd=tmp_path,
                              capture_output=True, text=True).returncode == 0
    counts = [_run([(_E[x], y) for x, y in seq], 1).mistakes for seq in _SEQUENCES]
    assert counts == [1, 2, 2, 1]
    assert compiles("".join(goal(seq, n) for seq, n in zip(_SEQUENCES, counts)), "Agree")
    assert not compiles(goal(_SEQUENCES[0], 2), "Lazy")


# ------------------------------------------------------------------ the catalogue counterpart
CAT = "second_order_perceptron_bound"
_CAT_MUTATIONS = {      # each false on one instance (test_the_catalogue_mutations_are_false)
    "a |u|^2 dropped": ("(a * (dot dim u u)) + ", ""),
    "gamma doubled": ("((INR (M)%nat) * gamma)", "((INR (M)%nat) * (2 * gamma))"),
}


def _cat_sides(a, g, u, xs, ys):
    """(M gamma - D, the claimed bound squared's two factors) on the Python learner's run, exact: the
    mistakes' instances and labels, q_k read on the run, u . x_k, the hinge losses."""
    tr = _run(list(zip(xs, ys)), a)
    qs = tr.extras["q"]
    assert tr.mistakes == len(xs) == len(qs)            # every round a mistake: the run is the mistakes'
    dots = [sum(ui * xi for ui, xi in zip(u, x)) for x in xs]
    loss = sum(max(F(0), g - y * d) for y, d in zip(ys, dots))
    proj = sum(d * d for d in dots)
    ratio = sum(q / (1 + q) for q in qs)
    return len(xs) * g - loss, a * sum(ui * ui for ui in u), proj, ratio, loss


def test_the_catalogue_mutations_are_false():
    """On one instance x_0 = (1) labelled +1, a = 1, u = (1), gamma = 1 (one mistake, a tie; q_0 = 1):
    M gamma - D = 1 and the bound sqrt((1 + 1) * 1/2) = 1 is met with equality; without a |u|^2 it is
    sqrt(1/2) < 1, and with gamma doubled (D unchanged) the left side is 2 > 1.  So both mutants below
    are false statements, not only unproved ones."""
    lhs, au, proj, ratio, loss = _cat_sides(F(1), F(1), [F(1)], [[F(1)]], [1])
    assert (lhs, au, proj, ratio, loss) == (1, 1, 1, F(1, 2), 0)
    assert lhs ** 2 == (au + proj) * ratio                              # the theorem, tight
    assert lhs ** 2 > proj * ratio                                      # a |u|^2 dropped: false
    assert (1 * (2 * F(1)) - loss) ** 2 > (au + proj) * ratio           # gamma doubled: false


@pytest.mark.slow
def test_the_catalogue_counterpart_is_kernel_checked(report):
    """coq/Catalogue_second_order.v proves the statement printed from the catalogue's formulas, with
    no Admitted, on the allowed axioms."""
    from coq.export import statement
    from proofs.catalogue import registry
    t = {t.id: t for t in report.theorems}[CAT]
    assert t.status == build.KERNEL_CHECKED, (t.id, t.reason)
    assert t.coq_name == "Catalogue_second_order.second_order_perceptron_bound"
    assert t.axioms and set(t.axioms) <= set(build.allowed_axioms())
    stmts = (build.default_build_dir() / "Statements.v").read_text()
    assert f"Definition {CAT}_statement : Prop :=\n  {statement(registry.get(CAT))}.\n" in stmts
    assert build.audit_sources({"Catalogue_second_order.v": (build.SRC / "Catalogue_second_order.v").read_text()}) == []


def _check_against(tmp_path, name, stmt):
    """coqc on a file that states ``stmt`` and gives the session's compiled proof as its proof: (ok, output)."""
    f = tmp_path / f"{name}.v"
    f.write_text("Require Import Mistakebound.Axioms Mistakebound.Prelude.\n"
                 "Require Mistakebound.Catalogue_second_order.\nOpen Scope R_scope.\n"
                 f"Definition edited_statement : Prop :=\n  {stmt}.\n"
                 f"Definition check : edited_statement := Mistakebound.Catalogue_second_order.{CAT}.\n")
    r = subprocess.run(["coqc", "-R", str(build.default_build_dir()), "Mistakebound", str(f)], cwd=tmp_path,
                       capture_output=True, text=True)
    return r.returncode == 0, r.stdout + r.stderr


@pytest.mark.slow
@pytest.mark.parametrize("what", sorted(_CAT_MUTATIONS))
def test_a_false_catalogue_statement_is_refused_by_coq(what, tmp_path, report):
    """The catalogue statement printed with one edit that makes it false: Coq refuses the compiled
    proof of coq/Catalogue_second_order.v as a proof of it, a type error; the unedited statement,
    stated the same way, is accepted (so the refusal is the edit's)."""
    from coq.export import statement
    from proofs.catalogue import registry
    assert {t.id: t.status for t in report.theorems}[CAT] == build.KERNEL_CHECKED
    stmt = statement(registry.get(CAT))
    old, new = _CAT_MUTATIONS[what]
    assert stmt.count(old) == 1
    ok, out = _check_against(tmp_path, "Same", stmt)
    assert ok, out
    ok, out = _check_against(tmp_path, "Edited", stmt.replace(old, new))
    assert not ok
    assert "has type" in out and "while it is expected to have type" in out and "edited_statement" in out, out
