"""Theorems about the learners themselves: running the Coq learner functions (coq/Learners.v, the
ones the differential test compares with the Python learners) makes at most the catalogue's bound
of mistakes.  The statements are printed from the catalogue's formula objects, Coq type-checks
each proof against its statement, and a learner weakened so that it no longer updates has no
theorem.  The Coq tests skip locally without coqc; in CI (CI=1) they run."""
from __future__ import annotations

import dataclasses
import json
import re

import pytest
from coq_support import copy_build

import learners
from coq import build, learner_theorems as lth
from coq.export import ExportError
from proofs.catalogue import registry


pytestmark = pytest.mark.xdist_group("coq")      # the session's one Coq build, in one worker


# ------------------------------------------------------------------ the statements (no Coq needed)
def test_four_learners_each_with_a_statement_printed_from_its_catalogue_entry():
    assert {lt.learner.id for lt in lth.LEARNER_THEOREMS} == {
        "perceptron", "perceptron_bias", "kernel_perceptron", "winnow_halving",
        "perceptron_exact", "winnow_halving_exact",         # these two: run over the rationals, as compared with Python
        "winnow_halving_any", "winnow_halving_any_exact",   # any r of the n variables, sigma(0..r-1)
        "weighted_majority", "weighted_majority_half", "randomized_weighted_majority", "halving",  # expert advice
        "any_algorithm",                                    # a lower bound for every deterministic algorithm
        "passive_aggressive", "passive_aggressive_1", "passive_aggressive_2",    # every step of the run (LearnersPA.v)
        "passive_aggressive_exact",
        "hedge", "hedge_tuned",                             # rows of losses, over the reals (LearnersHedge.v)
        "hedge_exact",                                      # over the rationals, as compared with Python
        "any_algorithm_ldim",                               # every algorithm on a shattered mistake tree
        "soa",                                              # SOA with the Littlestone dimension (LittlestoneSOA.v)
        "multiclass_perceptron",                            # one vector per class (LearnersMulticlass.v)
        "any_algorithm_blocks",                             # every algorithm on disjunctions, any blocks, every n
        "second_order_perceptron"}                          # B kept by Sherman-Morrison (LearnersSecondOrder.v)
    files, errors = lth.learner_files()
    assert errors == {}
    text = files[lth.STATEMENT_FILE]
    for lt in lth.LEARNER_THEOREMS:
        stmt = lth.learner_statement(lt)
        assert f"Definition {lt.id}_statement : Prop :=\n  {stmt}.\n" in text
        if isinstance(lt, lth.ExpertsLearnerTheorem):
            assert callable(getattr(learners, lt.learner.python.split("(")[0].split(".")[-1]))
            assert re.search(rf"let {lt.learner.own} : (nat|R) := (Q2R \()?{re.escape(lt.learner.coq)} ", stmt)
            continue
        if isinstance(lt, lth.StepsLearnerTheorem):
            assert re.search(rf"let run := (map .*\()?{re.escape(lt.learner.coq)} (RN|Mistakebound.LearnersPA.QRN) ", stmt)
            assert callable(getattr(learners, "run_passive_aggressive"))
            continue
        if isinstance(lt, lth.LowerBoundTheorem):
            assert stmt.startswith("forall (alg : Mistakebound.DisjunctionLowerBound.algorithm) (r l : nat),")
            assert stmt.endswith(f"{lt.learner.coq} alg nil ex = (r * l)%nat")
            continue
        if isinstance(lt, lth.HedgeLearnerTheorem):
            assert (f"let LH : R := {lt.learner.coq} beta n " in stmt or
                    f"let LH : R := Q2R ({lt.learner.coq} b n m " in stmt and "let b_m := Q2R b ^ m in (b_m = beta)" in stmt)
            assert callable(learners.run_hedge)
            continue
        if isinstance(lt, lth.LdimLowerBoundTheorem):
            assert stmt.endswith(f"{lt.learner.coq} alg nil ex = d")
            continue
        if isinstance(lt, lth.SoaTheorem):
            assert f"(Z.of_nat ({lt.learner.coq} dom H ex) <= " in stmt and callable(learners.run_soa)
            continue
        if isinstance(lt, lth.MulticlassTheorem):
            assert stmt.endswith(f"INR ({lt.learner.coq} d K ex) <= 2 * R_ ^ 2 / g ^ 2")
            assert callable(learners.MulticlassPerceptron) and registry.get(lt.base).id == lt.base
            continue
        if isinstance(lt, lth.PsdKernelTheorem):          # tests/coq/test_coq_kernel_psd.py
            assert f"({lt.learner.coq} RN n K xs ys false false (fun _ => 0) 0 order)" in stmt
            assert callable(learners.run_kernel_perceptron)
            continue
        if isinstance(lt, lth.SecondOrderTheorem):        # tests/coq/test_coq_second_order.py
            assert f"let ms := {lt.learner.coq} d a ex in" in stmt
            assert lt.learner.python.startswith("learners.run_second_order_perceptron(")
            continue
        if isinstance(lt, lth.DisjunctionFormTheorem):
            assert stmt.startswith("forall (alg : Mistakebound.DisjunctionLowerBound.algorithm) ")
            assert f"{lt.learner.coq} alg nil ex = (" in stmt and "NoDup target" in stmt
            continue
        base = registry.get(lt.base)
        per_ex, glob, concl, sums = lth._parts(lt)
        if not lt.over_examples:
            assert concl is base.conclusion and sums == []     # the catalogue's bound, the same object
        kept = {n for n, _ in per_ex} | {n for n, _ in glob}
        assert kept | set(lt.learner.run) >= {n for n, _ in base.hypotheses}
        assert not kept & set(lt.learner.run)
        assert f"({lt.learner.coq} " in stmt                   # the statement runs the named learner
        fn = lt.learner.python.split("(")[0].split(".")[-1]       # the Python learner it is compared with
        assert callable(getattr(learners, fn))
    radius = lth.learner_statement(lth.LEARNER_THEOREMS[0])
    assert "Mistakebound.Learners.perceptron_run RN dim false vzero 0 ex" in radius
    assert "(forall (x : Vec) (y : R), In (x, y) ex -> ((y * (dot dim x u)) >= g))" in radius
    assert radius.endswith("((INR (M)%nat) <= ((R_ ^ 2) / (g ^ 2)))")
    assert "perceptron_run RN dim true vzero 0 ex" in lth.learner_statement(lth.LEARNER_THEOREMS[1])


def test_freund_schapire_sums_the_squared_hinge_losses_over_the_examples():
    """The catalogue's D^2 sums over the mistakes; the learner's statement sums the same summand,
    read on one example, over every example (Coq proves the replacement), and nothing else moves."""
    from proofs.language.formula import Real
    from proofs.language.substitution import walk
    lt = next(t for t in lth.LEARNER_THEOREMS if t.id == "learner_freund_schapire")
    base = registry.get(lt.base)
    per_ex, glob, concl, sums = lth._parts(lt)
    assert [n for n, _ in sums] == ["S0"]
    (node,) = [n for n in walk(base.conclusion) if n.op == "sum"]
    i, _, _, body = node.args
    assert sums[0][1] == lth._on_example(body, i, lt.learner)
    assert concl == lth.sums_over_examples(base.conclusion, lambda b, k: lth._on_example(b, k, lt.learner), set())[0]
    assert Real("S0") in set(walk(concl)) and not [n for n in walk(concl) if n.op == "sum"]
    stmt = lth.learner_statement(lt)
    assert ("let S0 : R := Mistakebound.PerceptronRuns.sum_examples (fun (x : Vec) (y : R) => "
            "((Rmax 0 (g - (y * (dot dim x u)))) ^ 2)) ex in") in stmt
    assert stmt.endswith("((INR (M)%nat) <= (((R_ + (sqrt S0)) / g) ^ 2))")
    assert "(forall (x : Vec) (y : R), In (x, y) ex -> ((dot dim x x) <= (R_ ^ 2)))" in stmt
    # without the reading over the examples the bound speaks of the run: refused, not guessed
    with pytest.raises(ExportError, match="conclusion speaks of the run"):
        lth.learner_statement(dataclasses.replace(lt, over_examples=False))
    kern = lth.learner_statement(next(t for t in lth.LEARNER_THEOREMS if t.id == "learner_kernel_freund_schapire"))
    assert "(dot dim_phi (phi x) u)" in kern and "(map (fun i => (xs i, ys i)) order) in" in kern


def test_passive_aggressive_statements_sum_over_the_learners_run():
    """PA's squared losses, PA-I's mistakes and u's hinge losses: each sum over the T steps becomes
    the same summand over the learner's run, its loss, step size and mistake read on each step record,
    u's loss (a definition of the catalogue's) on each example; the step equations are the learner's."""
    ids = {lt.id: lt for lt in lth.LEARNER_THEOREMS}
    pa = lth.learner_statement(ids["learner_passive_aggressive"])
    assert "let run := Mistakebound.LearnersPA.pa_run RN Mistakebound.LearnersPA.PA 0 dim vzero ex in" in pa
    assert ("let S0 : R := Mistakebound.PARuns.pa_sum (fun (st : Mistakebound.LearnersPA.pastep RN) (x : Vec) (y : R) "
            "=> let l : R := Mistakebound.LearnersPA.pa_loss st in (l ^ 2)) run ex in") in pa
    assert pa.endswith("(S0 <= ((dot dim u u) * (R_ ^ 2)))")
    assert "(forall (x : Vec) (y : R), In (x, y) ex -> ((y * (dot dim u x)) >= 1))" in pa
    pa1 = lth.learner_statement(ids["learner_passive_aggressive_1"])
    assert "pa_run RN Mistakebound.LearnersPA.PA1 C_ dim vzero ex" in pa1
    assert "let z : Z := (if Mistakebound.LearnersPA.pa_mistake st then 1%Z else 0%Z) in (z)%Z) run ex in" in pa1
    assert "(y : R) => (Rmax 0 (1 - (y * (dot dim u x))))) run ex in" in pa1       # l*(t), by its definition
    assert pa1.endswith("((IZR (S0)%Z) <= ((Rmax (R_ ^ 2) (1 / C_)) * ((dot dim u u) + (2 * C_ * S1))))")
    assert "(C_ > 0) ->" in pa1 and "l_u" not in pa1
    exact = lth.learner_statement(ids["learner_passive_aggressive_exact"])     # the run compared with Python's
    assert ("let run := map (Mistakebound.LearnersPA.map_pastep Mistakebound.LearnersPA.Q2R_red_hom) "
            "(Mistakebound.LearnersPA.pa_run Mistakebound.LearnersPA.QRN Mistakebound.LearnersPA.PA 0%Q dim "
            "(fun _ => 0%Q) ex) in") in exact
    assert "run (map (fun e => (fun i => Q2R (fst e i), Q2R (snd e))) ex) in" in exact
    pa2 = lth.learner_statement(ids["learner_passive_aggressive_2"])
    assert "pa_run RN Mistakebound.LearnersPA.PA2 C_ dim vzero ex" in pa2 and "dot dim x x) > 0" not in pa2
    # a step equation the learner does not give, or a definition that is not one, is refused
    lt = ids["learner_passive_aggressive"]
    with pytest.raises(ExportError, match="no hypothesis pa1_step"):
        lth.learner_statement(dataclasses.replace(lt, learner=dataclasses.replace(lt.learner, run=lt.learner.run + ("pa1_step",))))
    with pytest.raises(ExportError, match="tau.* is a sequence of the run the learner does not give"):
        lth.learner_statement(dataclasses.replace(lt, learner=dataclasses.replace(lt.learner, run=lt.learner.run[:-1])))
    lt1 = ids["learner_passive_aggressive_1"]
    with pytest.raises(ExportError, match="does not define a sequence"):
        lth.learner_statement(dataclasses.replace(lt1, learner=dataclasses.replace(lt1.learner, defs=("c_pos",))))
    with pytest.raises(ExportError, match="sequence of the run the learner does not give"):
        lth.learner_statement(dataclasses.replace(lt1, learner=dataclasses.replace(lt1.learner, defs=())))


def test_weighted_majority_statements_bound_the_learner_by_every_expert():
    """The experts' entries: the catalogue's run equations are dropped, its sums over the run of
    z (the learner's mistakes) and e (expert j's) become the learner's counts, the rest is kept."""
    wm = lth.learner_statement(next(lt for lt in lth.LEARNER_THEOREMS if lt.id == "learner_weighted_majority"))
    assert "(let bq_r := Q2R bq in (bq_r = beta)) ->" in wm and "((beta > 0) /\\ (beta < 1))" in wm
    assert "let M : nat := Mistakebound.LearnersExperts.wm_mistakes bq (Mistakebound.LearnersExperts.wm_start n) ex in" in wm
    assert "let m : nat := Mistakebound.LearnersExperts.expert_mistakes j ex in" in wm
    assert wm.endswith("((INR (M)%nat) <= (((ln_inv_beta * (INR (m)%nat)) + ln_n) / ln_wm))")
    assert "(W " not in wm and "(F " not in wm and "zsum" not in wm      # nothing of the run is left
    half = lth.learner_statement(next(lt for lt in lth.LEARNER_THEOREMS if lt.id == "learner_weighted_majority_half"))
    assert "wm_mistakes (1 # 2)" in half and half.endswith("((INR (M)%nat) <= ((241 / 100) * ((INR (m)%nat) + lg_n)))")
    assert "((lg_n * ln_2) = ln_n)" in half
    rwm = lth.learner_statement(next(lt for lt in lth.LEARNER_THEOREMS if lt.id == "learner_randomized_weighted_majority"))
    assert "let EM : R := Q2R (Mistakebound.LearnersExperts.rwm_expected bq" in rwm
    assert rwm.endswith("(EM <= (((ln_inv_beta * (INR (m)%nat)) + ln_n) / (1 - beta)))")
    halving = lth.learner_statement(next(lt for lt in lth.LEARNER_THEOREMS if lt.id == "learner_halving"))
    assert "In (row, lab) ex -> let adv := fun i : nat => nth i row 0%Z in ((adv (j)%nat) = lab)%Z" in halving  # target
    assert halving.endswith("((INR (M)%nat) <= (lg (INR (N)%nat)))")


def test_an_experts_learner_that_discharges_less_or_counts_the_wrong_thing_is_refused():
    from proofs.language.substitution import free_vars
    lt = next(lt for lt in lth.LEARNER_THEOREMS if lt.id == "learner_weighted_majority")
    ln = lt.learner
    short = dataclasses.replace(ln, run=tuple(r for r in ln.run if r != "majority_wrong_on_mistake"))
    with pytest.raises(ExportError, match="majority_wrong_on_mistake speaks of the run"):
        lth.learner_statement(dataclasses.replace(lt, learner=short))
    with pytest.raises(ExportError, match="halving_bound has no hypothesis"):
        lth.learner_statement(dataclasses.replace(lt, base="halving_bound"))
    no_m = dataclasses.replace(ln, totals=(("z", "M"),), counts=(ln.counts[0],))
    with pytest.raises(ExportError, match="beyond the totals"):           # sum e is left in the conclusion
        lth.learner_statement(dataclasses.replace(lt, learner=no_m))
    other = dataclasses.replace(ln, counts=(("M", ln.counts[0][1].replace("wm_mistakes", "wm_trace")), ln.counts[1]))
    with pytest.raises(ExportError, match="does not run"):
        lth.learner_statement(dataclasses.replace(lt, learner=other))
    fixed_j = dataclasses.replace(ln, counts=(ln.counts[0], ("m", ln.counts[1][1].replace(" j ", " 0%nat "))),
                                  side=tuple(c for c in ln.side if "j" not in {v.name for v in free_vars(c.formula)}))
    with pytest.raises(ExportError, match="nothing reads the learner.s input j"):
        lth.learner_statement(dataclasses.replace(lt, learner=fixed_j))
    assert "learner_weighted_majority" in lth.learner_files([dataclasses.replace(lt, learner=short)])[1]


def test_a_run_hypothesis_the_learner_does_not_discharge_is_refused():
    """A learner that claimed fewer of the run's equations (or a catalogue entry with a hypothesis
    about the run it does not know) gets no statement, not a weaker one."""
    lt = lth.LEARNER_THEOREMS[0]
    short = dataclasses.replace(lt.learner, run=("starts_at_zero", "update_on_mistake"))
    with pytest.raises(ExportError, match="mistake"):
        # the mistake condition y(k) w(k).x(k) <= 0 speaks of w(k): not a condition on one example
        lth.learner_statement(dataclasses.replace(lt, learner=short))
    with pytest.raises(ExportError, match="no hypothesis bias_starts_at_zero"):
        lth.learner_statement(dataclasses.replace(lt, learner=lth.PERCEPTRON_BIAS))
    wrong = dataclasses.replace(lt.learner, mistakes=lt.learner.mistakes.replace("perceptron_run", "voted"))
    with pytest.raises(ExportError, match="does not run"):
        lth.learner_statement(dataclasses.replace(lt, learner=wrong))
    on_nil = dataclasses.replace(lt.learner, mistakes=lt.learner.mistakes.replace(" ex)", " nil)"))
    with pytest.raises(ExportError, match="does not read its input ex"):
        lth.learner_statement(dataclasses.replace(lt, learner=on_nil))
    from proofs.language.formula import forall_below
    from proofs.catalogue.perceptron_run import M, k, y
    with pytest.raises(ExportError, match="must name a catalogue entry's hypothesis"):
        lth.learner_statement(dataclasses.replace(lt, extra=(("few", forall_below(k, M, y(k) <= M)),)))
    assert "learner_perceptron_radius" in lth.learner_files([dataclasses.replace(lt, learner=short)])[1]


# ------------------------------------------------------------------ kernel-checked by Coq
@pytest.fixture
def report(coq_report):
    return coq_report             # the session's one build (tests/conftest.py)


@pytest.mark.slow
def test_the_learner_theorems_are_kernel_checked(report):
    rows = {t.id: t for t in report.learners}
    assert set(rows) == {lt.id for lt in lth.LEARNER_THEOREMS}
    for lt in lth.LEARNER_THEOREMS:
        t = rows[lt.id]
        assert t.status == build.KERNEL_CHECKED, (t.id, t.reason)
        assert t.learner == lt.learner.coq and t.base == lt.base
        assert t.axioms and set(t.axioms) <= set(build.allowed_axioms())
    assert report.ok
    bdir = build.default_build_dir()
    checks = (bdir / "Checks.v").read_text()
    stmts = (bdir / lth.STATEMENT_FILE).read_text()
    for lt in lth.LEARNER_THEOREMS:     # Coq, not a pattern, decides that the proof proves the statement
        assert (f"Definition check_{lt.id} : Mistakebound.LearnerStatements.{lt.id}_statement := "
                f"Mistakebound.LearnerTheorems.{lt.id}.") in checks
        assert f"Definition {lt.id}_statement : Prop :=\n  {lth.learner_statement(lt)}.\n" in stmts


@pytest.mark.slow
def test_verify_coq_reports_the_learner_theorems(verify_coq_runs):
    """``mistakebound verify --coq``, the run shared with tests/coq/test_coq_build.py (tests/conftest.py):
    its JSON report and its text, and a selection naming a learner theorem."""
    r, data, sel = verify_coq_runs
    assert r.returncode == 0, r.stderr[-2000:]
    got = {t["id"]: t for t in data["learner_theorems"]}
    assert set(got) == {lt.id for lt in lth.LEARNER_THEOREMS}
    assert all(t["status"] == "kernel-checked" and t["kind"] == "learner" for t in got.values())
    assert got["learner_winnow_halving"]["learner"] == "Mistakebound.Learners.winnow_halving"
    n = len(lth.LEARNER_THEOREMS)
    assert f"learner theorems kernel-checked: {n}/{n}" in r.stdout
    assert sel.returncode == 0, sel.stderr[-2000:]
    data = json.loads(sel.stdout)
    assert [t["id"] for t in data["learner_theorems"]] == ["learner_perceptron_radius"]     # the selection only
    assert data["learner_theorems"][0]["status"] == "kernel-checked"



_UPDATE = "let w' := if m then perc_update F w x y else w in"
# each learner's update on a mistake, and the learner theorems that must then fail
_FROZEN = {
    "perceptron": (_UPDATE, ["learner_perceptron_radius", "learner_perceptron_bias", "learner_perceptron_radius_exact",
                             "learner_freund_schapire", "learner_freund_schapire_exact"]),
    "kernel_perceptron": ("let alpha' := if m then (fun j => if Nat.eqb j i then nadd F (alpha j) (ys i) else alpha j) "
                          "else alpha in", ["learner_kernel_perceptron_radius", "learner_kernel_freund_schapire",
                                         "learner_kernel_perceptron_psd", "learner_kernel_perceptron_psd_norm"]),
    "passive_aggressive": ("let w' := fun i => nadd F (w i) (nmul F (nmul F tau y) (x i)) in",
                           ["learner_passive_aggressive", "learner_passive_aggressive_1", "learner_passive_aggressive_2",
                            "learner_passive_aggressive_exact"]),
    "winnow": ("let w' := if m then winnow_update F w x (if lab then up else down) else w in",
               ["learner_winnow_halving", "learner_winnow_halving_exact"]),
}


@pytest.mark.slow
def test_a_learner_that_does_not_update_has_no_theorem(tmp_path, report):
    """Learners.v weakened so that each learner keeps its state on a mistake (it then repeats a
    mistake for ever): none of their theorems is kernel-checked, and the report fails.  (One build
    for the three learners; the scratch-copy test below shows the statement names its learner.)"""
    srcs = {f: (build.SRC / f).read_text() for f in ("Learners.v", "LearnersPA.v")}
    ids = []
    for kind, (update, its) in _FROZEN.items():
        f = "LearnersPA.v" if kind == "passive_aggressive" else "Learners.v"
        assert srcs[f].count(update) == 1
        kept = "w in" if kind == "passive_aggressive" else update.rsplit("else ", 1)[1]
        srcs[f] = srcs[f].replace(update, update.split(":=")[0] + ":= " + kept)
        ids += its
    rep = build.build(ids, build_dir=copy_build(tmp_path), sources=srcs)
    assert sorted((t.id, t.status) for t in rep.learners) == sorted((i, build.FAILED) for i in ids)
    assert not rep.ok


@pytest.mark.slow
def test_weighted_majority_that_does_not_update_its_weights_has_no_theorem(tmp_path, report):
    """LearnersExperts.v weakened so that a wrong expert keeps its weight: with one expert always
    right and two always wrong the learner errs at every step, and no proof of its theorems (nor of
    Halving's, the penalty 0, nor of the randomized form's, which keeps the same weights) is
    accepted."""
    update = "map (fun p => if Z.eqb (snd p) y then fst p else fst p * beta) (combine w row)."
    src = (build.SRC / "LearnersExperts.v").read_text()
    assert src.count(update) == 1
    ids = ["learner_weighted_majority", "learner_weighted_majority_half", "learner_randomized_weighted_majority",
           "learner_halving"]
    rep = build.build(ids, build_dir=copy_build(tmp_path), sources={"LearnersExperts.v": src.replace(
        update, "map (fun p => fst p) (combine w row).")})
    assert sorted((t.id, t.status) for t in rep.learners) == sorted((i, build.FAILED) for i in ids)
    assert not rep.ok


@pytest.mark.slow
def test_an_adversary_that_agrees_with_the_algorithm_proves_no_lower_bound(tmp_path, report):
    """DisjunctionLowerBound.v with the adversary labelling each example as the algorithm predicts:
    the algorithm then never errs, and Coq accepts no proof of r l mistakes."""
    label = "let y := negb (alg hist x) in"
    src = (build.SRC / "DisjunctionLowerBound.v").read_text()
    assert src.count(label) == 1
    ids = ["learner_disjunction_lower_bound", "learner_disjunction_lower_bound_blocks",
           "learner_disjunction_lower_bound_any_n", "learner_disjunction_lower_bound_any_n_sharp"]
    rep = build.build(ids, build_dir=copy_build(tmp_path),
                      sources={"DisjunctionLowerBound.v": src.replace(label, "let y := alg hist x in")})
    assert sorted((t.id, t.status) for t in rep.learners) == sorted((i, build.FAILED) for i in ids)
    assert not rep.ok


@pytest.mark.slow
def test_a_statement_naming_a_scratch_learner_that_does_not_update_is_not_proved(monkeypatch, tmp_path, report):
    """The statement names its learner: pointed at a scratch copy of the perceptron that does not
    update, the same proof no longer has the statement's type and Coq refuses it."""
    src = (build.SRC / "Learners.v").read_text().replace(_UPDATE, "let w' := w in")
    lt = lth.LEARNER_THEOREMS[0]
    frozen = dataclasses.replace(lt.learner, coq="Mistakebound.LearnersFrozen.perceptron_run",
                                 mistakes=lt.learner.mistakes.replace("Mistakebound.Learners.", "Mistakebound.LearnersFrozen."))
    monkeypatch.setattr(lth, "LEARNER_THEOREMS", (dataclasses.replace(lt, learner=frozen),) + lth.LEARNER_THEOREMS[1:])
    rep = build.build(["learner_perceptron_radius"], build_dir=copy_build(tmp_path), sources={"LearnersFrozen.v": src})
    assert "LearnersFrozen.perceptron_run RN dim false" in (tmp_path / "coq" / lth.STATEMENT_FILE).read_text()
    (t,) = rep.learners
    assert t.status == build.FAILED and t.learner.endswith("LearnersFrozen.perceptron_run")
    assert "LearnerTheorems.v" in t.reason and "LearnersFrozen.v" not in rep.file_errors, t.reason
    assert not rep.ok


def test_the_differential_compares_the_randomized_expectation():
    """The Coq function the randomized theorem is about (rwm_expected) is compared with the Python
    learner's exact expectation on every Weighted Majority case with beta > 0."""
    from fractions import Fraction
    from coq import differential as d
    c = next(c for c in d.generate(60) if c.kind == "weighted_majority" and c.opts["beta"])
    assert "(qenc (rwm_expected " in d.coq_term(c)
    exp = learners.run_randomized_weighted_majority(c.X, c.y, beta=Fraction(c.opts["beta"])).extras["expected_mistakes"]
    assert d.python_trace(c)[-2:] == [exp.numerator, exp.denominator]


@pytest.mark.slow
def test_coq_and_python_agree_on_the_randomized_expectation_and_a_different_one_is_seen(report):
    from fractions import Fraction
    from coq import differential as d
    cases = [c for c in d.generate(120, seed=7) if c.kind == "weighted_majority" and c.opts["beta"]]
    assert cases
    expected = [d.python_trace(c) for c in cases]
    assert d.run_coq(cases, build.default_build_dir()) == expected
    # the same WM runs, but the expectation of the randomized learner at another penalty
    other = []
    for c, e in zip(cases, expected):
        b = Fraction(1, 3) if Fraction(c.opts["beta"]) != Fraction(1, 3) else Fraction(1, 5)
        q = learners.run_randomized_weighted_majority(c.X, c.y, beta=b).extras["expected_mistakes"]
        other.append(e[:-2] + [q.numerator, q.denominator])
    assert any(o != e for o, e in zip(other, expected))
    assert d.run_coq(cases, build.default_build_dir()) != other


@pytest.mark.slow
def test_passive_aggressive_bound_claimed_for_pa2_is_not_proved(monkeypatch, tmp_path, report):
    """PA's sum l^2 <= |u|^2 R^2 printed about PA-II's run (the statement names PA-II, the proof is
    PA's): Coq refuses it."""
    lts = list(lth.LEARNER_THEOREMS)
    i = next(k for k, t in enumerate(lts) if t.id == "learner_passive_aggressive")
    swapped = dataclasses.replace(lts[i].learner, run_term=lts[i].learner.run_term.replace(
        "LearnersPA.PA 0", "LearnersPA.PA2 1"))
    lts[i] = dataclasses.replace(lts[i], learner=swapped)
    monkeypatch.setattr(lth, "LEARNER_THEOREMS", tuple(lts))
    rep = build.build(["learner_passive_aggressive"], build_dir=copy_build(tmp_path))
    assert "pa_run RN Mistakebound.LearnersPA.PA2 1 dim" in (tmp_path / "coq" / lth.STATEMENT_FILE).read_text()
    (t,) = rep.learners
    assert t.status == build.FAILED and "LearnerTheorems.v" in t.reason
    assert not rep.ok


@pytest.mark.slow
def test_a_rational_hedge_that_does_not_update_has_no_exact_theorem(tmp_path, report):
    """LearnersHedgeQ.v with the weights left as they are: its run is no longer the real learner's,
    and Coq accepts no proof of learner_hedge_exact."""
    update = "fun i => w i * npow QN b (nth i row 0%nat)."
    src = (build.SRC / "LearnersHedgeQ.v").read_text()
    assert src.count(update) == 1
    rep = build.build(["learner_hedge_exact"], build_dir=copy_build(tmp_path),
                      sources={"LearnersHedgeQ.v": src.replace(update, "fun i => w i.")})
    assert [(t.id, t.status) for t in rep.learners] == [("learner_hedge_exact", build.FAILED)]
    assert not rep.ok
