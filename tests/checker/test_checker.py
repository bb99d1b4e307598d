"""The independent checker (checker/): it decides from a certificate alone, refuses what is
ill-formed, and never proves an edited certificate's statement unless it is the true original.

* every catalogue certificate is proved (an erratum: refuted) by ``mistakebound check`` in a fresh
  process;
* a certificate edited field by field (a sort, a symbol, a hypothesis, the conclusion, a rule id,
  an instantiation, a use list, an obligation's goal, a lemma statement, a coefficient) is
  refused, or decided not proved, or still proves exactly the original (true) statement;
* ill-formed terms are refused (fractional exponents, ill-sorted sum bounds, captured binders,
  ill-sorted nodes) and sorts are computed, never read.
"""
from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import checker
from checker.terms import CheckError, parse
from proofs.catalogue import registry
from proofs.verify.certificate import make, oracle
from proofs.verify.runner import build

ROOT = Path(__file__).resolve().parents[2]
FAMILY = ["block_novikoff_unit", "claim1_correlation_growth", "claim2_unit_examples", "cauchy_schwarz"]


def _cert(tid):
    th = registry.get(tid)
    b = build(th)
    assert not b.error, b.error
    return make(th, b.fact if th.kind == "theorem" else None)


@pytest.fixture(scope="module")
def family():
    return {tid: _cert(tid) for tid in FAMILY}


def _decide(certs: dict, tid: str):
    checked = [checker.read(c) for c in certs.values()]
    return checked[list(certs).index(tid)], checker.decide(checked, oracle())[tid]


# ----------------------------------------------------------------------------- the catalogue, fresh
@pytest.mark.slow
def test_every_catalogue_certificate_is_checked_in_a_fresh_process(tmp_path):
    # a proof cache of its own: the session's stays as the other tests expect it (cold)
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_CACHE_HOME=str(tmp_path / "cache"))
    d = tmp_path / "certs"
    v = subprocess.run([sys.executable, "-m", "mistakebound", "verify", "-q", "--certificates", str(d)],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=1800)
    assert v.returncode == 0, v.stdout + v.stderr
    assert len(list(d.glob("*.json"))) == len(registry.all_theorems())
    p = subprocess.run([sys.executable, "-m", "mistakebound", "check", "--json", "-", str(d)], cwd=tmp_path,
                       env=env, capture_output=True, text=True, timeout=1800)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr
    rep = json.loads(p.stdout)
    want = {t.id: ("proved" if t.kind == "theorem" else "refuted") for t in registry.all_theorems()}
    assert {c["theorem"]: c["status"] for c in rep["certificates"]} == want
    # and one edited byte of one certificate is enough to lose "proved"
    f = d / "cauchy_schwarz.json"
    f.write_text(f.read_text().replace('"int","2"]]', '"int","3"]]', 1))
    p = subprocess.run([sys.executable, "-m", "mistakebound", "check", str(f)], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 1 and not p.stdout.startswith("proved"), p.stdout


def test_check_command_bad_input_is_one_line_exit_2(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_CACHE_HOME=str(tmp_path / "cache"))
    (tmp_path / "x.json").write_text("{not json")
    (tmp_path / "y.json").write_text('{"format": "something else"}')
    for args, words in ((["x.json"], "not JSON"), (["y.json"], "not a proof certificate"),
                        (["missing.json"], "cannot read")):
        p = subprocess.run([sys.executable, "-m", "mistakebound", "check", *args], cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=300)
        assert p.returncode == 2 and p.stderr.count("\n") == 1 and words in p.stderr, (args, p.stderr)
        assert p.stderr.startswith("mistakebound: error: ") and "Traceback" not in p.stderr
    p = subprocess.run([sys.executable, "-m", "mistakebound", "check", "--help"], env=env, capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0 and "--json" in p.stdout and "--allow-assumptions" in p.stdout


def test_the_family_is_proved(family):
    for tid in FAMILY:
        ch, v = _decide(family, tid)
        assert not ch.errors, ch.errors
        assert v.status == "proved", (tid, v.reasons)


# ----------------------------------------------------------------------------- edits, field by field
def _literal(t, path=()):
    """The path of the first literal in a wire term."""
    if isinstance(t, list) and t and t[0] in ("int", "real"):
        return path
    if isinstance(t, list):
        for k, a in enumerate(t[1:], 1):
            p = _literal(a, path + (k,))
            if p is not None:
                return p
    return None


def _bump(t):
    """The wire term with its first literal changed (k -> 2k + 1)."""
    t = copy.deepcopy(t)
    p = _literal(t)
    assert p is not None
    node = t
    for k in p:
        node = node[k]
    node[1] = str(2 * Fraction(node[1]) + 1)
    return t


def _step(c, by, k=0):
    return [s for s in c["steps"] if s["by"] == by][k]


def _swap_rel(t):
    t = copy.deepcopy(t)
    flip = {"le": "lt", "lt": "le", "ge": "gt", "gt": "ge", "eq": "le"}

    def go(x):
        if isinstance(x, list) and x and x[0] in flip:
            x[0] = flip[x[0]]
            return True
        return isinstance(x, list) and any(go(a) for a in x[1:])
    assert go(t)
    return t


def _edits():
    """(field kind, theorem, edit) -- each edit changes one field of one certificate."""
    B, C, S = "block_novikoff_unit", "cauchy_schwarz", "claim2_unit_examples"

    def sym(name, decl):
        return lambda c: c["symbols"].__setitem__(name, decl)

    def step_field(by, key, f, k=0):
        return lambda c: _step(c, by, k).__setitem__(key, f(_step(c, by, k)[key]))

    return [
        ("sort", B, sym("M", ["var", "Int"])), ("sort", B, sym("g", ["var", "Int"])),
        ("sort", B, sym("u", ["var", "Real"])), ("sort", B, sym("w", ["fun", ["Int"], "Real"])),
        ("sort", C, sym("t", ["var", "Nat"])),
        ("symbol", B, lambda c: c["symbols"].pop("g")), ("symbol", B, sym("M", ["fun", ["Int"], "Nat"])),
        ("symbol", S, lambda c: c["symbols"].__setitem__("x2", c["symbols"].pop("x"))),
        ("hypothesis", B, lambda c: c["hypotheses"].__setitem__(6, [c["hypotheses"][6][0], _bump(c["hypotheses"][6][1])])),
        ("hypothesis", B, lambda c: c["hypotheses"].pop(6)),
        ("hypothesis", S, lambda c: c["hypotheses"].__setitem__(1, [c["hypotheses"][1][0], _swap_rel(c["hypotheses"][1][1])])),
        ("conclusion", B, lambda c: c.__setitem__("conclusion", _swap_rel(c["conclusion"]))),
        ("conclusion", C, lambda c: c.__setitem__("conclusion", _bump(c["conclusion"]))),
        ("rule id", C, step_field("rule", "schema", lambda s: "sum_empty")),
        ("rule id", C, step_field("rule", "rule", lambda s: "free_lunch")),
        ("rule id", B, step_field("rule", "rule", lambda s: "exp_laws")),
        ("instantiation", C, step_field("rule", "args", lambda a: ["a"])),
        ("instantiation", B, step_field("inst", "terms", lambda t: [["add", t[0], ["int", "1"]]])),
        ("instantiation", B, step_field("lemma", "mapping", lambda m: [[m[0][0], "g"]] + m[1:] if m else [["g", "g"]])),
        ("instantiation", C, step_field("specialize", "mapping", lambda m: [[m[0][0], ["real", "1"]]])),
        ("instantiation", B, step_field("induction", "bound", lambda b: ["add", b, ["int", "1"]])),
        ("use list", B, step_field("solve", "uses", lambda u: u[:-1])),
        ("use list", B, step_field("solve", "uses", lambda u: u + [["later", "unit_mistake_bound"]])),
        ("use list", B, step_field("inst", "uses", lambda u: ["h:margin"])),
        ("use list", C, step_field("solve", "uses", lambda u: [u[1]], k=0)),
        ("obligation goal", B, step_field("solve", "formula", _bump, k=2)),
        ("obligation goal", S, step_field("solve", "formula", _swap_rel)),
        ("obligation goal", C, step_field("identity", "formula", _bump)),
        ("lemma statement", B, lambda c: c["lemmas"]["cauchy_schwarz"].__setitem__(
            "conclusion", _swap_rel(c["lemmas"]["cauchy_schwarz"]["conclusion"]))),
        ("lemma statement", B, lambda c: c["lemmas"]["claim2_unit_examples"]["hypotheses"].pop()),
        ("coefficient", C, step_field("solve", "formula", _bump, k=0)),
        ("coefficient", B, step_field("rule", "formula", _bump)),
        ("coefficient", B, step_field("lemma", "formula", _bump)),
        ("coefficient", S, step_field("identity", "formula", _bump)),
    ]


EDITS = _edits()


@pytest.mark.parametrize("kind,tid,edit", EDITS, ids=[f"{k}-{t}-{i}" for i, (k, t, _) in enumerate(EDITS)])
def test_an_edited_certificate_is_refused_or_still_true(family, kind, tid, edit):
    certs = copy.deepcopy(family)
    original = checker.read(family[tid]).statement
    edit(certs[tid])
    assert certs[tid] != family[tid], "the edit changed nothing"
    ch, v = _decide(certs, tid)
    if v.status == "proved":
        # the checker proved the statement of the edited certificate: it must be the original one
        assert ch.statement == original, (kind, "a changed statement was proved")
    else:
        assert v.status in ("invalid", "refuted", "unknown", "proved assuming"), v.status
        assert v.reasons or v.assumptions, "a verdict other than proved says why"


def test_most_edits_are_refused_before_any_engine(family):
    refused = 0
    for kind, tid, edit in EDITS:
        certs = copy.deepcopy(family)
        edit(certs[tid])
        refused += bool(checker.read(certs[tid]).errors)
    assert refused >= len(EDITS) // 2


def test_errors_name_the_step_the_rule_and_what_differed(family):
    c = copy.deepcopy(family["cauchy_schwarz"])
    _step(c, "rule")["schema"] = "sum_empty"
    (err,) = checker.read(c).errors
    assert "step f1:rule" in err and "finite_sum_linearity.sum_empty" in err
    c = copy.deepcopy(family["cauchy_schwarz"])
    _step(c, "rule")["formula"] = _bump(_step(c, "rule")["formula"])
    (err,) = checker.read(c).errors
    assert "step f1:rule (rule): the step records" in err and "but it derives" in err
    c = copy.deepcopy(family["block_novikoff_unit"])
    c["symbols"]["u"] = ["var", "Real"]
    (err,) = checker.read(c).errors
    assert "dot" in err and "Real" in err


def test_an_unknown_rule_is_an_assumption_never_proved(family):
    certs = copy.deepcopy(family)
    s = _step(certs["cauchy_schwarz"], "rule")
    s["rule"] = "my_rule"
    ch, v = _decide(certs, "cauchy_schwarz")
    assert not ch.errors and v.status == "proved assuming" and v.assumptions == ["my_rule.dot_nonneg"]
    # a theorem resting on it through a lemma inherits the assumption
    v2 = checker.decide([checker.read(c) for c in certs.values()], oracle())["block_novikoff_unit"]
    assert v2.status == "proved assuming" and "my_rule.dot_nonneg" in v2.assumptions


def test_a_lemma_needs_a_certificate_of_the_same_statement(family):
    certs = {"block_novikoff_unit": family["block_novikoff_unit"]}
    _, v = _decide(certs, "block_novikoff_unit")
    assert v.status == "unknown" and any("no certificate" in r for r in v.reasons)


def test_an_erratum_is_refuted_only_by_its_counterexample():
    c = _cert("erratum_claim2_strict")
    v = checker.decide([checker.read(c)], oracle())["erratum_claim2_strict"]
    assert v.status == "refuted"
    bad = copy.deepcopy(c)
    bad["counterexample"] = {k: (["0"] * len(x) if isinstance(x, list) else "0")
                             for k, x in bad["counterexample"].items()}
    v = checker.decide([checker.read(bad)], oracle())["erratum_claim2_strict"]
    assert v.status == "unknown" and v.reasons


# ----------------------------------------------------------------------------- terms
DECLS = {"x": ("var", "Real"), "k": ("var", "Nat"), "i": ("var", "Int"), "v": ("var", "Vec"),
         "f": ("fun", ("Int",), "Real")}


@pytest.mark.parametrize("term,words", [
    (["pow", "x", ["real", "1/2"]], "natural-number literal"),
    (["pow", "x", ["int", "-1"]], "natural-number literal"),
    (["pow", "x", "k"], "natural-number literal"),
    (["sum", "i", ["int", "0"], "x", ["call", "f", "i"]], "must be integers"),
    (["sum", "i", ["int", "0"], "i", ["call", "f", "i"]], "mentions i"),
    (["forall", ["i"], ["sum", "i", ["int", "0"], "k", ["call", "f", "i"]]], "captured"),
    (["add", "x", "v"], "all real or all integer"),
    (["add", "x", "k"], "all real or all integer"),
    (["le", "v", "v"], "le of a Vec"),
    (["call", "f", "x"], "declared Int"),
    (["call", "g", "i"], "not a declared function"),
    ("y", "not a declared variable"),
    (["int", "1/2"], "integer literal"),
    (["real", "0.5"], "is not 'p' or 'p/q'"),
    (["exp", "v"], "exp takes"),
])
def test_ill_formed_terms_are_refused(term, words):
    with pytest.raises(CheckError, match=words):
        parse(term, DECLS)


def test_sorts_are_computed_never_read():
    assert parse(["add", "k", ["int", "1"]], DECLS).sort == "Nat"
    assert parse(["sub", "k", ["int", "1"]], DECLS).sort == "Int"
    assert parse(["to_real", ["sub", "k", ["int", "1"]]], DECLS).sort == "Real"
    # a "sort" field on a node is not part of the wire form: a list with one is refused
    with pytest.raises(CheckError):
        parse(["add", "k", ["int", "1"], "Nat"], DECLS)


def test_substitution_never_captures():
    from checker.terms import node, subst
    body = parse(["forall", ["i"], ["le", ["call", "f", "i"], "x"]], DECLS)
    x = node("var", name="x", decls=DECLS)
    with pytest.raises(CheckError, match="capture"):
        subst(body, {x: parse(["to_real", "i"], DECLS)})
    assert subst(body, {x: parse(["to_real", "k"], DECLS)}) == parse(
        ["forall", ["i"], ["le", ["call", "f", "i"], ["to_real", "k"]]], DECLS)


# ----------------------------------------------------------------------------- one table of rules
def _generic_args(name, kinds):
    """Arguments to state a schema on: a term of the sum's index where the schema allows one."""
    from checker.schemas import BODY_ARGS
    from proofs.language.formula import Int, Real, Seq, Vec
    out = []
    for n, k in enumerate(kinds):
        body = n in BODY_ARGS.get(name, ())
        if k == "var":
            out.append(Int("ij"[sum(1 for x in kinds[:n] if x == "var")]))
        elif k in ("num", "Real") and body:
            out.append(Seq(f"F{n}", "Real")(Int("i")))
        elif k == "num":
            out.append(Real(f"a{n}"))
        elif k == "Vec":
            out.append(Seq(f"V{n}", "Vec")(Int("i")) if body else Vec(f"v{n}"))
        else:
            out.append({"Real": Real, "Int": Int}[k](f"a{n}"))
    return out


def test_the_kernel_and_the_checker_state_every_schema_alike():
    """The kernel's rule table (proofs/kernel/rules.py) and the checker's fixed table (checker/schemas.py)
    have the same rules, schemas and argument kinds, and every schema at generic arguments states
    the same formula in both (what the kernel builds is what the checker re-derives)."""
    from checker.schemas import SCHEMAS, instance
    from checker.check import declarations
    from proofs.kernel import rules
    from proofs.verify.certificate import symbols, term
    registry.all_theorems()                      # families register their rules on import
    kernel = {r.id: r for r in rules.RULES.values() if r.schemas}
    assert set(kernel) == set(SCHEMAS)
    for rid, r in kernel.items():
        assert set(r.schemas) == set(SCHEMAS[rid]), rid
        for name, (kinds, _) in r.schemas.items():
            assert tuple(kinds) == SCHEMAS[rid][name][0], (rid, name)
            args = _generic_args(name, kinds)
            f, read = rules.schema_instance(rid, name, args)
            decls = declarations(symbols([f] + list(read)))
            mine = instance(rid, name, [parse(term(a), decls) for a in read])
            assert mine == parse(term(f), decls), (rid, name)


@pytest.mark.parametrize("edit", [
    lambda c: c["steps"].__setitem__(0, {"id": 1}),
    lambda c: c["steps"][0].pop("name"),
    lambda c: c["steps"][-1].__setitem__("uses", [["a", ["not", "an id"]]]),
    lambda c: c.__setitem__("symbols", {"x": ["var"]}),
    lambda c: c.__setitem__("conclusion", ["pow", "g", ["int", "1000000000"]]),
    lambda c: c.__setitem__("hypotheses", {"a": 1}),
    lambda c: c.__setitem__("version", 2),
])
def test_malformed_data_is_refused_not_raised(family, edit):
    c = copy.deepcopy(family["block_novikoff_unit"])
    edit(c)
    assert checker.read(c).errors


def test_huge_values_are_not_evaluated():
    decls = {"n": ("var", "Int"), "i": ("var", "Nat"), "f": ("fun", ("Int",), "Real")}
    from checker.evaluate import NotExact, evaluate
    with pytest.raises(NotExact):
        evaluate(parse(["pow2", "n"], decls), {"n": Fraction(10 ** 9)})
    with pytest.raises(NotExact):
        evaluate(parse(["sum", "i", ["int", "0"], "n", ["to_real", "i"]], decls), {"n": Fraction(10 ** 12)})


# ----------------------------------------------------------------------------- generalization
def test_a_generalization_binds_only_what_no_hypothesis_mentions():
    """The second-order perceptron's certificate generalizes over fresh vectors: it reads clean, and
    the same step over a variable a hypothesis mentions, over one its fact does not mention, or
    recording another "for all" is refused before any engine."""
    c = _cert("second_order_perceptron_bound")
    assert not checker.read(c).errors
    gens = [s for s in c["steps"] if s["by"] == "generalize"]
    assert len(gens) >= 4
    for edit, words in ((lambda s: s.__setitem__("vars", ["a"]), "a hypothesis mentions it"),
                        (lambda s: s.__setitem__("vars", s["vars"] + ["u"]), "is not free"),
                        (lambda s: s.__setitem__("vars", []), "gives 'vars'"),
                        (lambda s: s.__setitem__("formula", s["formula"][:-1] + [["ge", ["real", "0"], ["real", "1"]]]),
                         "derives")):
        bad = copy.deepcopy(c)
        edit([s for s in bad["steps"] if s["by"] == "generalize"][0])
        errs = checker.read(bad).errors
        assert errs and words in errs[0], (words, errs)
