"""A rule instance the printer normalises is derived in Coq from its schema lemma at the arguments
the kernel kept on the rule fact, bridged by rewrites Coq checks (coq/bridge.py); a wrong argument
or an instance edited after the fact leaves a difference Coq does not accept, and is not derived.
Skipped locally without coqc; in CI (CI=1) they run."""
from __future__ import annotations

import re
import subprocess

import pytest

from coq import build, generate
from coq.bridge import explicit_args, raw_formula
from proofs.catalogue import registry
from proofs.verify.runner import build as build_proof

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("coq")]


def test_a_rule_fact_keeps_its_schema_and_arguments():
    """The kernel keeps, on a rule fact, the schema and the arguments it was built on: the schema at
    those arguments is the fact's formula again."""
    from proofs.kernel import rules
    th = registry.get("hinge_loss_bound")
    p = build_proof(th).proof
    facts = [f for st in p.steps for _, f in st.hyps if f.how == "rule"]
    assert facts
    for f in facts:
        rid, schema = f.rule.split(".", 1)
        assert rules.schema_formula(rid, schema, f.rule_args) == f.formula
        assert raw_formula(f) == f.formula
    with pytest.raises(Exception):
        facts[0].rule_args = ()


@pytest.fixture(scope="module")
def derived(coq_report):
    rep = coq_report              # the session's one build (tests/conftest.py)
    bdir = build.default_build_dir()
    ok = {(m.group(1), int(m.group(2)), int(m.group(3)))
          for log in sorted(bdir.glob("ChecksProbe_*.log"))
          for m in re.finditer(r"MBOK (\w+) (\d+) (\d+)", log.read_text())}
    return rep, bdir, ok


def _explicit_ok(ok):
    """(candidate, hypothesis, alternative) derived at the kernel's arguments through a bridge
    that rewrites at least one integer term."""
    for c in generate.CANDIDATES:
        for k in range(len(c.htexts)):
            for a, (lem, raw, args) in enumerate(c._alts(k)):
                if args and raw and raw[1] and (c.name, k, a) in ok:
                    yield c, k, a


def _probe(bdir, c, k, alts) -> str:
    """One probe of hypothesis k of c with the given alternatives; Coq's output."""
    c2 = generate.Candidate(c.name, c.grp, c.binders, c.btext, list(c.htexts), c.gtext,
                            [None] * len(c.htexts), c.rids, [None] * len(c.htexts), [{}] * len(c.htexts))
    c2._alts = lambda j: alts if j == k else []
    (bdir / "ChecksBridgeTest.v").write_text(generate.probe_file([c2]))
    r = subprocess.run([build.find_coqc(), "-q", "-R", ".", "Mistakebound", "ChecksBridgeTest.v"], cwd=bdir,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def test_normalised_instances_are_derived_at_the_kernels_arguments(derived):
    rep, bdir, ok = derived
    found = list(_explicit_ok(ok))
    assert len(found) >= 10
    assert any("finite_sum_linearity" in (c.rids[k] or "") for c, k, _ in found)


def test_a_false_bridge_is_not_derived(derived):
    """The schema at wrong arguments (one integer argument moved by one), and an instance edited
    after the fact (its text moved by one), are not derived; the alternative as generated is."""
    rep, bdir, ok = derived
    c, k, a = next((c, k, a) for c, k, a in _explicit_ok(ok) if c._alts(k)[a][2].endswith(")%Z"))
    lem, raw, args = c._alts(k)[a]
    out = _probe(bdir, c, k, [(lem, raw, args)])
    assert f"MBOK {c.name} {k} 0" in out
    # a wrong argument: the last integer argument plus one
    assert args.endswith(")%Z"), args
    depth, start = 0, None
    for pos in range(len(args) - 3, -1, -1):
        depth += {")": 1, "(": -1}.get(args[pos], 0)
        if depth == 0:
            start = pos
            break
    wrong = args[:start] + f"({args[start:]} + 1)%Z"
    assert wrong != args
    out = _probe(bdir, c, k, [(lem, raw, wrong)])
    assert f"MBNO {c.name} {k}" in out and "MBOK" not in out
    # an instance edited after the fact: its statement is no longer the schema at those arguments
    c3 = generate.Candidate(c.name, c.grp, c.binders, c.btext, list(c.htexts), c.gtext, c.lemmas, c.rids,
                            c.raws, c.explicit)
    c3.htexts[k] = c.htexts[k].replace(" + ", " + 1 + ", 1)
    assert c3.htexts[k] != c.htexts[k]
    out = _probe(bdir, c3, k, [(lem, raw, args)])
    assert f"MBNO {c.name} {k}" in out and "MBOK" not in out


def _premise_bridged(ok, lemma_part: str, marker: str):
    """(candidate, hypothesis) derived in the probe, an instance of a lemma whose name contains
    ``lemma_part``, whose printed text contains ``marker``."""
    for c in generate.CANDIDATES:
        for k in range(len(c.htexts)):
            alts = c._alts(k)
            if marker in c.htexts[k] and any(lemma_part in lem for lem, *_ in alts) \
                    and any((c.name, k, a) in ok for a in range(len(alts))):
                return c, k
    return None


def _edited(c, k, text):
    c2 = generate.Candidate(c.name, c.grp, c.binders, c.btext, list(c.htexts), c.gtext, c.lemmas, c.rids,
                            c.raws, c.explicit)
    c2.htexts[k] = text
    return c2


def test_an_instance_with_a_weaker_premise_than_its_lemma_is_refused(derived):
    """The bridge proves the lemma's premises from the instance's (its lo >= 0, the position's
    range by lia): an instance whose premise is weaker than the lemma's (the position j of
    sum_term_le allowed one past the last term, j <= n where the lemma needs j <= n - 1) is not
    derived from it, however many alternatives the probe tries."""
    rep, bdir, ok = derived
    found = _premise_bridged(ok, "sum_term_le", "- 1))%Z) ->")
    assert found, "no instance of sum_term_le was derived"
    c, k = found
    alts = c._alts(k)
    assert f"MBOK {c.name} {k}" in _probe(bdir, c, k, alts)
    head, sep, tail = c.htexts[k].rpartition("- 1))%Z) ->")
    weak = head + "- 0))%Z) ->" + tail
    assert sep and weak != c.htexts[k]
    out = _probe(bdir, _edited(c, k, weak), k, alts)
    assert f"MBNO {c.name} {k}" in out and "MBOK" not in out


def test_a_weaker_termwise_premise_is_refused(derived):
    """A termwise premise (for every i in the range, the term is >= 0) that the bridge must prove
    from the instance's own: weakened to >= -1, sum_term_le's instance is refused."""
    rep, bdir, ok = derived
    found = _premise_bridged(ok, "sum_term_le", ">= 0)")
    assert found, "no instance of sum_term_le was derived"
    c, k = found
    alts = c._alts(k)
    assert f"MBOK {c.name} {k}" in _probe(bdir, c, k, alts)
    weak = c.htexts[k].replace(">= 0)", ">= (- 1))", 1)
    assert weak != c.htexts[k]
    out = _probe(bdir, _edited(c, k, weak), k, alts)
    assert f"MBNO {c.name} {k}" in out and "MBOK" not in out


def test_instances_written_otherwise_than_their_lemma_are_derived(derived):
    """Instances that differ from their Rules.v lemma by more than integer terms (the lemma's
    lo >= 0, a termwise premise over integer bounds, an integer sum cast to the reals) are derived
    through the bridge: no rule instance of a step is left underived."""
    rep, bdir, ok = derived
    left = set().union(*(c.underived(ok) for c in generate.CANDIDATES))
    assert not left, sorted(left)[:5]
    for t in rep.theorems:
        # what is left sits in an induction: the rule of induction, and the sums of its base and step
        assert set(t.rules_not_proved) <= {"induction", "finite_sum_linearity"}, (t.id, t.rules_not_proved)
        if "finite_sum_linearity" in t.rules_not_proved:
            assert "induction" in t.rules_not_proved, t.id
