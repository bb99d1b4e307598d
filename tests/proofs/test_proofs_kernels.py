"""The kernel family: Lin's closure rules, the polynomial and Gaussian kernels, and the kernel
perceptron, proved through the proof kernel; false edits of them are never proved; the
feature-space constructions mean the same in sympy, in exact evaluation and for the solvers."""
from contextlib import contextmanager
from dataclasses import replace
from fractions import Fraction

import pytest

from proofs.catalogue import registry
from proofs.printers.concrete import evaluate, instance
from proofs.language.formula import VEC, And, Eq, Fun, Ite, Nat, Real, Vec, dot
from proofs.language.functions import VSum, exp, npow, sqrt, tensor, tensor_pow, vcat, vec1
from proofs.kernel.kernel import KernelError
from proofs.printers.render import latex, text
from proofs.verify.runner import build, run_catalogue
from proofs.printers.smtlib import problem
from proofs.printers.symbolic import identity_holds

IDS = ["kernel_closure_rules", "polynomial_kernel_feature_map", "gaussian_kernel_legal",
       "kernel_perceptron_is_feature_perceptron"]


@pytest.fixture(scope="module")
def family():
    return run_catalogue(IDS)


@contextmanager
def swapped(th):
    """The catalogue with ``th`` in place of the theorem of the same id."""
    cat = registry.all_theorems()
    k = [t.id for t in cat].index(th.id)
    old, cat[k] = cat[k], th
    try:
        yield
    finally:
        cat[k] = old


def status_of(th) -> str:
    with swapped(th):
        return run_catalogue([th.id]).by_id(th.id).status


# --------------------------------------------------------------------------- the family is proved
def test_family_proved_with_named_rules(family):
    rules = {r.theorem.id: set(r.rules) for r in family.results}
    assert all(r.status == "proved" for r in family.results), [(r.theorem.id, r.reasons) for r in family.results]
    assert rules["kernel_closure_rules"] == {"finite_sum_linearity", "sqrt_def"}
    assert rules["polynomial_kernel_feature_map"] == {"finite_sum_linearity", "induction", "natural_powers", "sqrt_def"}
    assert rules["gaussian_kernel_legal"] == {"exp_laws", "exp_power_series", "finite_sum_linearity", "induction"}
    assert rules["kernel_perceptron_is_feature_perceptron"] == {"finite_sum_linearity", "induction", "vector_sums"}


def test_hypotheses_hold_on_concrete_instances(family):
    """Non-vacuity on a concrete instance in the plane (a two-example run for the perceptrons),
    the feature-map hypotheses kept as 'for all' over coordinates."""
    r = {x.theorem.id: x for x in family.results}
    assert r["kernel_perceptron_is_feature_perceptron"].nonvacuity_how == "instance with T = 2, vectors in R^2"
    assert r["kernel_closure_rules"].nonvacuity_how == "instance with no sizes, vectors in R^2"
    assert all(x.nonvacuity.status == "sat" for x in family.results)


def test_every_step_checked_by_both_solvers(family):
    for r in family.results:
        for s in r.steps:
            assert s.ok, (r.theorem.id, s.step.id)
            engines = {v.engine for v in [s.verdict] + s.cross}
            assert {"z3", "cvc5"} <= engines, (r.theorem.id, s.step.id, engines)
            if s.step.kind == "identity":              # sympy, then both solvers in dimensions 1, 2, 3
                assert s.verdict.engine == "sympy" and len(s.cross) == 6


def test_statements_are_the_formulas(family):
    th = {r.theorem.id: r.theorem for r in family.results}
    assert text(th["polynomial_kernel_feature_map"].conclusion) == \
        "(c + x.x')^k = (sqrt(c), x)^{(x)k}.(sqrt(c), x')^{(x)k}"
    assert r"\otimes k" in latex(th["polynomial_kernel_feature_map"].conclusion)
    assert text(th["gaussian_kernel_legal"].statement) == \
        "c >= 0 ==> sum_{i=0..n - 1} (sum_{j=0..n - 1} a(i)*a(j)*exp(-c*|x(i) - x(j)|^2)) >= 0"
    closure = text(th["kernel_closure_rules"].conclusion)
    for part in ("c*K1(x, x') = (sqrt(c)*phi1(x)).(sqrt(c)*phi1(x'))", "(phi1(x), phi2(x)).(phi1(x'), phi2(x'))",
                 "(phi1(x) (x) phi2(x)).(phi1(x') (x) phi2(x'))"):
        assert part in closure
    assert "w(t) = sum_{j=0..t - 1} alpha(j)*phi(x(j))" in text(th["kernel_perceptron_is_feature_perceptron"].conclusion)


# --------------------------------------------------------------------------- false edits are not proved
def _closure():
    return registry.get("kernel_closure_rules")


def test_scaled_conclusion_not_proved():
    from proofs.catalogue import kernel_closure as kc
    th = _closure()
    bad = Eq(2 * kc.c * kc.K1(kc.x, kc.xp), dot(sqrt(kc.c) * kc.phi1(kc.x), sqrt(kc.c) * kc.phi1(kc.xp)))
    assert status_of(replace(th, conclusion=And(bad, *th.conclusion.args[1:]))) == "refuted"


def test_negative_scale_not_proved():
    from proofs.catalogue import kernel_closure as kc
    th = _closure()
    hyps = [(n, kc.c <= 0 if n == "c_nonneg" else f) for n, f in th.hypotheses]
    assert status_of(replace(th, hypotheses=hyps)) == "refuted"


def test_retyped_fact_is_a_build_error():
    from proofs.catalogue import kernel_closure as kc
    th = _closure()

    def forged(p):               # the scale rule's conclusion typed by hand, not proved
        return p.solve("forged", [kc.SCALED], p.theorem.conclusion)
    b = build(replace(th, proof=forged))
    assert "must be a fact" in b.error


def test_polynomial_with_negative_c_not_proved():
    th = registry.get("polynomial_kernel_feature_map")
    from proofs.catalogue.feature_maps import c
    assert status_of(replace(th, hypotheses=[("c_nonneg", c <= 0)])) == "refuted"


def test_gaussian_with_negative_c_not_proved():
    th = registry.get("gaussian_kernel_legal")
    from proofs.catalogue.feature_maps import c
    assert status_of(replace(th, hypotheses=[("c_nonneg", c <= 0)])) == "refuted"


def test_kernel_perceptron_with_scaled_dual_update_not_proved():
    from proofs.catalogue import kernel_perceptron as kp
    th = registry.get("kernel_perceptron_is_feature_perceptron")
    t, T, y, alpha = kp.t, kp.T, kp.y, kp.alpha
    from proofs.language.formula import forall_below
    bad = forall_below(t, T, Eq(alpha(t), Ite(y(t) * kp.dual_activation(t, kp.x(t)) <= 0, 2 * y(t), 0)))
    hyps = [(n, bad if n == "kernel_perceptron" else f) for n, f in th.hypotheses]
    assert status_of(replace(th, hypotheses=hyps)) == "refuted"


# --------------------------------------------------------------------------- the constructions
x, xp, z = Vec("x"), Vec("xp"), Vec("z")
phi = Fun("phi", (VEC,), VEC)
psi = Fun("psi", (VEC,), VEC)
c, s = Real("c"), Real("s")


@pytest.mark.parametrize("lhs, rhs, holds", [
    (dot(vcat(phi(x), psi(x)), vcat(phi(xp), psi(xp))), dot(phi(x), phi(xp)) + dot(psi(x), psi(xp)), True),
    (dot(tensor(phi(x), psi(x)), tensor(phi(xp), psi(xp))), dot(phi(x), phi(xp)) * dot(psi(x), psi(xp)), True),
    (dot(tensor(phi(x), psi(x)), tensor(phi(xp), psi(xp))), dot(phi(x), phi(xp)) + dot(psi(x), psi(xp)), False),
    (dot(vcat(vec1(c), x), vcat(vec1(c), xp)), c * c + dot(x, xp), True),
    (dot(vcat(vec1(c), x), vcat(vec1(c), xp)), c + dot(x, xp), False),
    (dot(tensor_pow(x, 2), tensor_pow(xp, 2)), dot(x, xp) ** 2, True),
    (dot(s * phi(x), phi(z)), s * dot(phi(x), phi(z)), True),
    (dot(phi(x), phi(xp)), dot(phi(xp), phi(x)), True),
    (dot(phi(x), phi(xp)), dot(phi(x), phi(x)), False),
    (dot(tensor(x, z), tensor(xp, z)), dot(x, xp) * dot(z, z), True),
    (dot(tensor(x, z), tensor(xp, xp)), dot(x, xp) * dot(z, xp), True),
    (dot(tensor(x, z), tensor(xp, xp)), dot(x, xp) * dot(z, x), False),
    (dot(tensor(x, z), tensor(z, xp)), dot(x, xp) * dot(z, z), False),
])
def test_block_identities(lhs, rhs, holds):
    assert identity_holds(lhs, rhs)[0] is holds
    # the solvers agree on the instance in dimension 2 (a false identity has a counterexample)
    from proofs.engines.engines import z3_run
    (g,), _ = instance([Eq(lhs, rhs)], {}, dim=2)
    # 60 s only guards against a hang (a loaded machine can take several seconds; a timeout is "unknown")
    assert z3_run(problem([], g), 60000)[0] == ("unsat" if holds else "sat")


def test_feature_space_of_its_own():
    """phi(x) lives in a space of its own dimension: its inner product with x has no coordinates
    in common, so sympy answers unknown (never proved)."""
    from proofs.engines.engines import sympy_identity
    assert sympy_identity(dot(phi(x), x), dot(x, phi(x))).status == "unknown"
    assert sympy_identity(dot(phi(x), psi(x)), dot(psi(x), phi(x))).status == "unknown"


def test_exact_values():
    env = {"x": ["1", "2"], "c": "3", "k": 2}
    k = Nat("k")
    assert evaluate(vcat(vec1(c), x), env) == (3, 1, 2)
    assert evaluate(tensor(x, x), env) == (1, 2, 2, 4)
    assert evaluate(dot(tensor_pow(vcat(vec1(sqrt(Real("one"))), x), k), tensor_pow(vcat(vec1(1), x), k)),
                    {**env, "one": 1}) == (1 + 5) ** 2
    assert evaluate(npow(c + 1, k), env) == 16
    j = Nat("j")
    assert evaluate(VSum(j, 0, 1, (j + 1) * x), env) == (3, 6)
    assert evaluate(exp(0 * c), env) == Fraction(1)


def test_rule_instances_are_schemas():
    from proofs.kernel.rules import RULES, schema_formula
    i, j, n = Nat("i"), Nat("j"), Nat("n")
    with pytest.raises(TypeError):             # a coefficient may not depend on the inner index
        schema_formula("exp_power_series", "gram_nonneg", (i, j, n, Real("b") * j, x, s))
    with pytest.raises(TypeError):             # nor the scale on either index
        schema_formula("exp_power_series", "gram_nonneg", (i, j, n, Real("b"), x, s * i))
    f = schema_formula("natural_powers", "pow_succ", (c, Nat("k")))
    assert text(f) == "k >= 0 ==> c^(k + 1) = c^k*c"
    assert {"natural_powers", "vector_sums", "exp_power_series"} <= set(RULES)
    assert all(r.why for r in RULES.values())


def test_every_fact_uses_each_symbol_with_one_sort():
    from proofs.language.substitution import symbols
    for tid in IDS:
        for st in build(registry.get(tid)).proof.steps:
            symbols(And(st.goal, *[f.formula for _, f in st.hyps]))


def test_builds_refuse_a_retyped_hypothesis():
    th = registry.get("kernel_perceptron_is_feature_perceptron")
    b = build(th)
    assert not b.error
    with pytest.raises(KernelError):
        b.proof.solve("again", [th.hypotheses[0][1]], th.conclusion)



def test_z3_asks_a_fresh_context_again_after_any_unknown_of_the_shared_one(monkeypatch):
    # z3's search in a shared context follows what the worker parsed before: a shared-context
    # timeout must not decide the step; the rest of the budget goes to a fresh context
    import z3

    from proofs.engines import engines
    made = []
    real = z3.Context

    def counting(*a, **k):
        made.append(1)
        return real(*a, **k)
    monkeypatch.setattr(z3, "Context", counting)
    hard = ("(declare-fun x () Int)(declare-fun y () Int)(declare-fun z () Int)"
            "(assert (> x 0))(assert (> y 0))(assert (> z 0))"
            "(assert (= (+ (* x x x) (* y y y)) (* z z z)))")
    answer, _, why, _ = engines.z3_run(hard, 400)
    assert answer == engines.UNKNOWN
    assert made == [1], "the shared context's unknown was not asked of a fresh context"
