"""The trusted base is checked at start: ``verify`` and ``check-bound`` evaluate every trusted
rule's schema on random exact instances, and ``check-bound`` its table of theorems against their
conclusions, before answering; a false rule or entry stops them (exit 1) naming it, without the
test suite.  The check is cached by the fingerprint of the code it checks, so an edit on disk or
at run time is checked again.
"""
from __future__ import annotations

import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from proofs.kernel import trusted_base as tb
from proofs.kernel.rules import RULES, Implies, Sum, nat_lo

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str, cache: Path):
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_CACHE_HOME=str(cache))
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)


# an off-by-one in sum_const: hi - lo equal terms sum to (hi - lo) c (a sharper, false rule)
OFF_BY_ONE = """
import proofs.kernel.rules as r
from proofs.language.formula import And, Eq, Implies, Sum
sorts, _ = r.RULES["finite_sum_linearity"].schemas["sum_const"]
r.RULES["finite_sum_linearity"].schemas["sum_const"] = (sorts, lambda i, lo, hi, c: Implies(
    And(*r.nat_lo(i, lo), hi >= lo - 1), Eq(Sum(i, lo, hi, c), (hi - lo) * c)))
"""


def test_every_schema_passes_the_start_up_check():
    assert tb.check_rules(seed=12345) == []


def test_a_false_schema_is_named(monkeypatch):
    sorts, _ = RULES["finite_sum_linearity"].schemas["sum_const"]
    from proofs.language.formula import And, Eq
    monkeypatch.setitem(RULES["finite_sum_linearity"].schemas, "sum_const", (sorts, lambda i, lo, hi, c: Implies(
        And(*nat_lo(i, lo), hi >= lo - 1), Eq(Sum(i, lo, hi, c), (hi - lo) * c))))
    got = tb.schema_failures("finite_sum_linearity", "sum_const")
    assert got and "finite_sum_linearity.sum_const is false" in got[0]


def test_a_schema_edited_at_run_time_changes_the_fingerprint(monkeypatch):
    before = tb.rules_fingerprint()
    sorts, build = RULES["pow2_log2"].schemas["pow2_succ"]
    monkeypatch.setitem(RULES["pow2_log2"].schemas, "pow2_succ", (sorts, lambda t: build(t + 1)))
    assert tb.rules_fingerprint() != before


def test_an_edit_on_disk_changes_the_fingerprint(tmp_path):
    src = tmp_path / "schemas.py"
    src.write_text("K = 1\n")
    mod = types.SimpleNamespace(__file__=str(src))
    a = tb.fingerprint((mod,))
    src.write_text("K = 2\n")
    assert tb.fingerprint((mod,)) != a


def test_the_cache_records_a_pass_and_never_a_failure(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    calls = []
    tb.cached("t", "abc", lambda: calls.append(1) or [])
    tb.cached("t", "abc", lambda: calls.append(1) or [])
    assert calls == [1] and (tmp_path / "mistakebound" / "t-abc").exists()
    with pytest.raises(tb.TrustedBaseError, match="broken"):
        tb.cached("t", "def", lambda: ["broken"])
    assert not (tmp_path / "mistakebound" / "t-def").exists()


def test_verify_stops_on_an_off_by_one_schema_even_after_a_cached_pass(tmp_path):
    """Was: the edited rule was used by every proof that cites it; only the test suite noticed."""
    main = "from mistakebound.cli import main; main(['verify', '--theorem', 'cauchy_schwarz', '-q'])"
    clean = _run(main, tmp_path)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert any(p.name.startswith("trusted-base-") for p in (tmp_path / "mistakebound").iterdir())
    p = _run(OFF_BY_ONE + main, tmp_path)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "finite_sum_linearity.sum_const" in p.stderr and p.stderr.count("\n") == 1
    assert "proved" not in p.stdout


def test_check_bound_stops_on_a_wrong_table_entry(tmp_path):
    """A sharper bound for Block-Novikoff in check-bound's table (an id that misses, so the typed
    fallback formula R^2 W^2 / 2 would be used): was HOLDS for the false claim M <= R^2 W^2 / 2."""
    code = ("import refutation.bound_proof as bp\n"
            "bp._BOUND_IDS['block_novikoff'] = ('perceptron.margin_onee', 'R**2*W**2/2')\n"
            "from mistakebound.cli import main; main(['check-bound', 'perceptron', 'R**2*W**2/2'])")
    p = _run(code, tmp_path)
    assert p.returncode == 1 and "HOLDS" not in p.stdout, p.stdout + p.stderr
    assert "check-bound entry block_novikoff" in p.stderr


def test_check_bound_stops_on_a_wrong_term_table_entry(tmp_path):
    """dot(u, u) read as W^2 / 2 in proofs.catalogue.bounds' term table: Block-Novikoff's bound halves, and
    the false claim M <= R^2 W^2 / 2 was HOLDS."""
    code = ("import proofs.catalogue.bounds as pb\n"
            "t = pb.perceptron_terms()\n"
            "pb.perceptron_terms = lambda: ((t[0][0], 'W**2/2'),) + t[1:]\n"
            "from mistakebound.cli import main; main(['check-bound', 'perceptron', 'R**2*W**2/2'])")
    p = _run(code, tmp_path)
    assert p.returncode == 1 and "HOLDS" not in p.stdout, p.stdout + p.stderr
    assert "check-bound entry" in p.stderr


def test_the_table_check_passes_and_names_a_scaled_entry(monkeypatch):
    from refutation import bound_proof, bound_table
    assert bound_table.table_failures(seed=3) == []
    monkeypatch.setitem(bound_proof._BOUND_IDS, "hinge", ("perceptron.hinge", "R**2*W**2 + L"))
    got = bound_table.table_failures(seed=3)
    assert len(got) == 1 and "check-bound entry hinge" in got[0] and "fallback" in got[0]


def test_a_wrapped_schema_with_other_keyword_defaults_has_another_fingerprint():
    """A schema replaced by a wrapper whose keyword-only defaults carry the edit (as a mutation
    harness writes it): the fingerprint follows the defaults (was: one fingerprint for every edit,
    so the cached pass of one edit let the next through)."""
    def wrap(edit):
        def mutated(*args, edit=edit):
            return edit(*args)
        return mutated
    a = tb.fingerprint((), [wrap(lambda x: x + 1)])
    b = tb.fingerprint((), [wrap(lambda x: x - 1)])
    assert a != b
