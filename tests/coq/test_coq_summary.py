"""The verdict of ``verify --coq`` (coq/summary.py): the catalogue's counterparts, the learner theorems
and the Coq-vs-Python comparison counted in one headline, FAILED when any fails; the number of
Admitted proofs is Coq's answer, not a literal."""
from __future__ import annotations


import pytest
from coq_support import copy_build

from coq import build, differential, summary
from coq.build import KERNEL_CHECKED, CoqReport, TheoremCoq

pytestmark = pytest.mark.xdist_group("coq")


def _report(learner_status=KERNEL_CHECKED, assumptions=None):
    rep = CoqReport(available=True, version="8.16.1", allowed=build.allowed_axioms())
    rep.theorems = [TheoremCoq("cauchy_schwarz", "theorem", "Catalogue_vectors.cauchy_schwarz", KERNEL_CHECKED,
                               steps_total=1, steps_checked=1)]
    rep.learners = [TheoremCoq("learner_halving", "learner", "LearnerTheorems.learner_halving", learner_status,
                               python="learners.run_weighted_majority(beta=0)", base="halving_bound")]
    rep.assumptions = assumptions if assumptions is not None else {"cauchy_schwarz": [], "learner_halving": []}
    return rep


def _verdict(differing=()):
    return differential.Verdict(8, list(differing), 1.0, {"halving": 8}, {"exact": 8}, 20)


def test_the_headline_counts_counterparts_learner_theorems_and_the_differential():
    s = summary.summarize(_report(), _verdict())
    assert s.ok and s.headline.startswith("1/1 kernel-checked in Coq 8.16.1, learner theorems 1/1, "
                                          "differential 8/8 identical; 0 Admitted;")
    assert s.headline in s.lines and s.json["ok"] and s.json["differential"]["identical"] == 8
    # each of the three failing alone makes the headline FAILED
    bad = summary.summarize(_report(), _verdict(["halving ...: first difference at position 3"]))
    assert not bad.ok and bad.headline.startswith("FAILED: ") and "differential 7/8 identical" in bad.headline
    bad = summary.summarize(_report(learner_status=build.FAILED), _verdict())
    assert not bad.ok and bad.headline.startswith("FAILED: ") and "learner theorems 0/1" in bad.headline


def test_the_number_of_admitted_proofs_is_what_print_assumptions_names():
    """An Admitted lemma is reported by Print Assumptions under its own name, beside the allowed axioms."""
    rep = _report(assumptions={"cauchy_schwarz": ["Mistakebound.VecLemmas.cs_gap", "Classical_Prop.classic"],
                               "learner_halving": ["Mistakebound.ExpertsRuns.halving_gap"]})
    s = summary.summarize(rep, _verdict())
    assert s.admitted == ["Mistakebound.ExpertsRuns.halving_gap", "Mistakebound.VecLemmas.cs_gap"]
    assert "; 2 Admitted;" in s.headline and s.headline.startswith("FAILED: ") and not s.ok
    rep.audit = ["VecLemmas.v:10: 'Admitted' is not allowed (every axiom lives in Axioms.v; no gaps)"]
    assert "2 Admitted, 1 gap(s) in the sources" in summary.summarize(rep, _verdict()).headline


def test_verify_coq_prints_the_summary_built_in_coq():
    """cmd_verify's Coq part prints the summary's lines and writes its JSON: no headline of its own."""
    import inspect
    from mistakebound import cmd_verify
    src = inspect.getsource(cmd_verify._verify_coq)
    assert "coq_summary.summarize" in src and "Admitted" not in src and "kernel-checked in Coq" not in src


# ------------------------------------------------------------------ with Coq
@pytest.mark.slow
def test_weighted_majority_breaking_ties_the_other_way_fails_verify_coq(tmp_path, coq_report):
    """LearnersExperts.v with a tie predicting -1 instead of +1: whatever the proofs say, the comparison
    that verify --coq runs sees Halving and Weighted Majority differ from the Python learners, and the
    headline says FAILED."""
    assert coq_report.ok
    tie = "if Qle_bool 0 (wm_activation w row) then 1%Z else (-1)%Z."
    src = (build.SRC / "LearnersExperts.v").read_text()
    assert src.count(tie) == 1
    bdir = copy_build(tmp_path)
    flipped = src.replace(tie, "if Qle_bool (wm_activation w row) 0 then (-1)%Z else 1%Z.")
    rep, dv = summary.check(["learner_halving"], build_dir=bdir, sources={"LearnersExperts.v": flipped},
                            differential_cases=80)
    assert dv is not None and not dv.ok and dv.differing
    assert {line.split(" ", 1)[0] for line in dv.differing} <= {"weighted_majority", "halving"}
    s = summary.summarize(rep, dv)
    assert not s.ok and s.headline.startswith("FAILED: ")
