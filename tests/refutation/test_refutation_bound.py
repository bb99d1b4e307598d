"""mistakebound check-bound / refutation.check_bound: holds, refuted (replayable), unknown."""
from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st

from learners import run_perceptron
from learners.errors import InputError
from refutation import check_bound, quantity_symbols
from adversary.sequence import Sequence
from adversary.certify import certify


# ----------------------------------------------------------------------------- independent re-check
def _dot(a, b):
    return sum((Fraction(p) * Fraction(q) for p, q in zip(a, b)), Fraction(0))


def _quantities_from_file(seq: Sequence):
    """R, W, gamma, L, TD, n, d recomputed from the sequence itself (not from certify)."""
    X, y = seq.examples, seq.labels
    if seq.algorithm == "kernel_perceptron":
        assert seq.kernel == "linear"
        d = len(X[0])
        w = [sum((b * x[i] for b, x in zip(seq.target, X)), Fraction(0)) for i in range(d)]
    else:
        w = list(seq.target)
    r_sq = max(_dot(x, x) for x in X)
    margins = [yi * _dot(w, x) for x, yi in zip(X, y)]
    m = min(margins)
    if m > 0:
        w_sq, L = _dot(w, w) / (m * m), Fraction(0)
    else:
        w_sq, L = _dot(w, w), sum((max(Fraction(0), 1 - mi) for mi in margins), Fraction(0)) * seq.epochs
    R, W = sp.sqrt(sp.Rational(r_sq)), sp.sqrt(sp.Rational(w_sq))
    g = 1 / (R * W)
    return {"R": R, "W": W, "gamma": g, "L": sp.Rational(L), "TD": g * sp.Rational(L),
            "n": sp.Integer(len(X) * seq.epochs), "d": sp.Integer(len(X[0]))}, m > 0


def _mistakes(seq: Sequence) -> int:
    if seq.algorithm == "winnow":
        from learners import run_winnow
        return run_winnow(seq.examples, seq.labels, variant=seq.variant, exact=True, epochs=seq.epochs,
                          record="none").mistakes
    if seq.algorithm == "kernel_perceptron":
        from learners import run_kernel_perceptron
        return run_kernel_perceptron(seq.examples, seq.labels, seq.kernel, exact=True, epochs=seq.epochs,
                                     record="none").mistakes
    return run_perceptron(seq.examples, seq.labels, exact=True, epochs=seq.epochs, record="none").mistakes


def _assert_refutation_replays(v, path=None):
    seq = Sequence.load(path) if path else Sequence.from_dict(json.loads(json.dumps(v.sequence.to_dict())))
    M = _mistakes(seq)
    assert M == v.mistakes == seq.claims["mistakes"]
    cert = certify(seq)
    assert cert.ok and cert.mistakes == M
    syms = quantity_symbols(v.algorithm)
    E = sp.sympify(v.expr, locals=syms)
    if v.algorithm == "winnow":
        q = {"n": sp.Integer(seq.dim), "r": sp.Integer(len(seq.target))}
    else:
        q, separable = _quantities_from_file(seq)
        if v.setting == "separable":
            assert separable
    val = E.xreplace({syms[k]: x for k, x in q.items() if k in syms})
    diff = sp.nsimplify(sp.Integer(M) - val) if val.is_Rational else sp.Integer(M) - val
    if v.strict:
        assert sp.N(diff, 50) >= -sp.Float(10) ** -40
        if diff.is_Rational:
            assert diff >= 0
    else:
        assert sp.N(diff, 50) > 0
        if diff.is_Rational:
            assert diff > 0


# ----------------------------------------------------------------------------- the required answers
@pytest.mark.parametrize("expr", ["R**2*W", "1/gamma", "< R**2*W**2"])
def test_required_refutations(expr, tmp_path):
    out = tmp_path / "ref.json"
    v = check_bound("perceptron", expr, out=out, budget=20)
    assert v.status == "refuted" and v.exit_code == 1
    assert v.setting == "separable"
    assert out.exists() and v.out == str(out)
    _assert_refutation_replays(v, out)


def test_strict_claim_is_refuted_by_equality():
    v = check_bound("perceptron", "< R**2*W**2")
    assert v.strict and v.mistakes is not None
    assert v.claimed_value == str(v.mistakes)            # M = R^2 W^2 exactly
    assert "=" in v.comparison


@pytest.mark.parametrize("expr,theorem", [("1/gamma**2", "block_novikoff_margin_one"),
                                          ("R**2*W**2", "block_novikoff_margin_one"),
                                          ("R**2*W**2 + 2*L", "hinge_loss_bound"),
                                          ("1/gamma**2 + 2*TD/gamma", "hinge_loss_bound"),
                                          ("< R**2*W**2 + 1/2", "block_novikoff_margin_one")])
def test_required_holds(expr, theorem):
    v = check_bound("perceptron", expr, budget=20)
    assert v.status == "holds" and v.exit_code == 0, v.explain()
    assert v.catalogue_status.get(theorem) == "proved"
    assert any(theorem in t for t in v.theorems)


def test_trivial_bound_holds_by_definition():
    v = check_bound("perceptron", "n")
    assert v.status == "holds" and any("one_per_trial" in t for t in v.theorems)


def test_agnostic_coefficient_one_on_L_is_refuted():
    v = check_bound("perceptron", "R**2*W**2 + L")
    assert v.status == "refuted" and v.setting == "agnostic"
    _assert_refutation_replays(v)


def test_kernel_perceptron():
    v = check_bound("kernel_perceptron", "R**2*W")
    assert v.status == "refuted" and v.sequence.algorithm == "kernel_perceptron"
    _assert_refutation_replays(v)
    assert check_bound("kernel_perceptron", "1/gamma**2").status == "holds"


def test_winnow():
    h = check_bound("winnow", "2 + 3*r*(1 + log(n, 2))")
    assert h.status == "holds" and "winnow_halving_bound" in h.catalogue_status
    e = check_bound("winnow", "1 + 2*r*(1 + lg(n))", variant="eliminate")
    assert e.status == "holds" and e.catalogue_status.get("winnow_elimination_bound") == "proved"
    v = check_bound("winnow", "r*log(n, 2)", budget=20)
    assert v.status == "refuted" and v.sequence.algorithm == "winnow"
    _assert_refutation_replays(v)


def test_unknown_says_what_was_searched():
    v = check_bound("winnow", "3*r*lg(n) + 1", budget=2)
    assert v.status == "unknown" and v.exit_code == 3
    assert any("z3" in s for s in v.searched) and any("Winnow adversary" in s for s in v.searched)


@pytest.mark.parametrize("alg,expr,pos", [("perceptron", "R**2*Q", 6), ("perceptron", "R**2*W**2 +", 12),
                                          ("winnow", "R*n", 1), ("perceptron", "", None),
                                          ("perceptron", "> R", 1), ("perceptron", "x.y", 1)])
def test_bad_claims(alg, expr, pos):
    with pytest.raises(InputError) as ei:
        check_bound(alg, expr)
    assert "\n" not in str(ei.value)
    if pos is not None:
        assert f"(at position {pos})" in str(ei.value)


def test_bad_algorithm_and_budget():
    with pytest.raises(InputError):
        check_bound("svm", "R")
    with pytest.raises(InputError):
        check_bound("perceptron", "R", budget=-1)


# ----------------------------------------------------------------------------- CLI
def _cli(*args):
    return subprocess.run([sys.executable, "-m", "mistakebound", *args], capture_output=True, text=True, timeout=180)


@pytest.mark.slow
def test_cli_exit_codes(tmp_path):
    out = tmp_path / "s.json"
    r = _cli("check-bound", "perceptron", "R**2*W", "--out", str(out))
    assert r.returncode == 1 and "REFUTED" in r.stdout and out.exists()
    assert Sequence.load(out).claims["mistakes"] >= 1
    r = _cli("check-bound", "perceptron", "1/gamma**2", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["status"] == "holds"
    r = _cli("check-bound", "perceptron", "< R**2*W**2", "--json")
    d = json.loads(r.stdout)
    assert r.returncode == 1 and d["status"] == "refuted" and d["sequence"]["format"] == "mistakebound.sequence/1"
    r = _cli("check-bound", "winnow", "3*r*lg(n) + 1", "--budget", "1")
    assert r.returncode == 3
    r = _cli("check-bound", "perceptron", "R**2*W**2 +")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "position 12" in r.stderr
    r = _cli("check-bound", "perceptron", "R", "--out", str(tmp_path / "x.json"), "--budget", "0")
    assert r.returncode == 2 and not (tmp_path / "x.json").exists()


@pytest.mark.slow
def test_cli_replay_rechecks_the_refutation(tmp_path):
    from mistakebound.cli import COMMANDS
    import importlib.util
    assert "replay" in COMMANDS
    out = tmp_path / "s.json"
    assert _cli("check-bound", "perceptron", "1/gamma", "--out", str(out)).returncode == 1
    if importlib.util.find_spec(COMMANDS["replay"][0].split(":")[0]) is None:
        pytest.fail("mistakebound replay is not available yet")
    r = _cli("replay", str(out))
    assert r.returncode == 0, r.stdout + r.stderr


# ----------------------------------------------------------------------------- properties
@st.composite
def perceptron_claims(draw):
    c = draw(st.sampled_from(["1", "2", "1/2", "3/4"]))
    a = draw(st.integers(0, 3))
    b = draw(st.integers(0, 3))
    form = draw(st.sampled_from(["R**{a}*W**{b}", "gamma**(-{a})", "(R*W)**{a} + {c}*L", "{c}*n", "sqrt(n)*R**{a}"]))
    strict = draw(st.booleans())
    return ("< " if strict else "") + f"{c}*" + form.format(a=a, b=b, c=c)


@settings(max_examples=12)
@given(perceptron_claims())
def test_property_refutations_replay_and_holds_are_not_contradicted(claim):
    v = check_bound("perceptron", claim, budget=4)
    if v.status == "refuted":
        _assert_refutation_replays(v)
    elif v.status == "holds":
        # no orthonormal instance (M = k = R^2 W^2 = n, L = 0) contradicts it
        syms = quantity_symbols("perceptron")
        E = sp.sympify(v.expr, locals=syms)
        for k in (1, 2, 4, 9):
            val = E.xreplace({syms["R"]: 1, syms["W"]: sp.sqrt(k), syms["gamma"]: 1 / sp.sqrt(k), syms["L"]: 0,
                              syms["TD"]: 0, syms["n"]: k, syms["d"]: k})
            assert (k < val) if v.strict else (k <= val + sp.Rational(1, 10 ** 30)), (claim, k, val)


def test_two_theorems_and_abstracted_functions():
    v = check_bound("perceptron", "min(n, R**2*W**2)")
    assert v.status == "holds"
    assert {t.split(":")[0] for t in v.theorems} == {"block_novikoff", "one_per_trial"}
    assert check_bound("perceptron", "exp(R*W)", budget=5).status == "holds"      # e^t >= t^2 via Taylor
    r = check_bound("perceptron", "exp(R*W) - 2", budget=5)
    assert r.status == "refuted"
    _assert_refutation_replays(r)


def test_winnow_elimination_refutation_replays():
    v = check_bound("winnow", "r*lg(n) + 1", variant="eliminate", budget=10)
    assert v.status == "refuted" and v.sequence.variant == "eliminate"
    _assert_refutation_replays(v)


def test_out_must_be_a_writable_file(tmp_path):
    with pytest.raises(InputError):
        check_bound("perceptron", "R**2*W", out=tmp_path)          # a directory
    assert list(tmp_path.iterdir()) == []
