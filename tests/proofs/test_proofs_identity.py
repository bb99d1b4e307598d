"""One identity per symbol, one meaning per sum, and text that stays text.

* Random terms (hypothesis) over one symbol table, every variable with a random display form:
  the kernel's structural equality and every printer's reading agree (equal terms print the same
  SMT-LIB, the same sympy expression and the same exact value; the SMT-LIB printer distinguishes
  what the kernel distinguishes).
* A proof that declares one name two ways (two sorts, a variable and a function, two display
  forms) is a build error, wherever the second declaration is (statement, step, lemma, rule).
* Sums and bounded "for all" over a natural or an integer index with random integer bounds
  (negative ones included): the evaluator, sympy, the concrete instance the solvers read and the
  SMT-LIB "for all" give the same value.
* Labels, display forms and names cannot put a command into an SMT-LIB text.
"""
from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs.printers.concrete import evaluate, instance
from proofs.catalogue.core import BUILD_ERROR, Source, Theorem
from proofs.language.formula import (REAL, FormulaError, ForAll, Implies, And, Int, Nat, Real, Seq, Sum, Vec, dot,
                            forall_below, num)
from proofs.kernel.kernel import KernelError, Proof
from proofs.printers.render import latex, text
from proofs.verify.runner import build
from proofs.printers.smtlib import SmtContext, problem
from proofs.printers.symbolic import to_sympy

SRC = Source("", "a test", "a test")
DISPLAYS = ["", r"\gamma", "gamma", "g'", "x_1"]
NAMES = {"x": Real, "y": Real, "n": Nat, "k": Int}


@st.composite
def terms(draw, depth=3, shown=None):
    """A random numeric term over x, y (reals), n (a natural), k (an integer), a sequence F and a
    sum; ``shown`` fixes one display form per name (one symbol table), else every occurrence
    gets a random one."""
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        if draw(st.booleans()):
            name = draw(st.sampled_from(sorted(NAMES)))
            tex, txt = shown[name] if shown else (draw(st.sampled_from(DISPLAYS)), draw(st.sampled_from(DISPLAYS)))
            return NAMES[name](name, tex=tex, text=txt)
        return num(draw(st.integers(-3, 4)))
    kind = draw(st.sampled_from(["add", "mul", "sub", "neg", "pow", "seq", "sum"]))
    a = draw(terms(depth=depth - 1, shown=shown))
    if kind == "neg":
        return -a
    if kind == "pow":
        return a ** draw(st.integers(2, 3))
    if kind == "seq":
        F = Seq("F", REAL, tex=shown["F"][0] if shown else draw(st.sampled_from(DISPLAYS)))
        return F(Nat("n") + draw(st.integers(0, 2)))
    if kind == "sum":
        i = Nat("i")
        return Sum(i, draw(st.integers(-2, 1)), Nat("n"), i * a)
    b = draw(terms(depth=depth - 1, shown=shown))
    return {"add": a + b, "mul": a * b, "sub": a - b}[kind]


def _redisplay(e):
    """The same term with every display form changed (what a second author would type)."""
    from proofs.language.formula import Expr
    if e.op == "var":
        return Expr("var", name=e.name, sort=e.sort, tex=e.tex + "'", text=e.text + "'")
    if e.op == "call":
        return Expr("call", tuple(_redisplay(x) for x in e.args), e.name, e.sort, tex="G", text="G")
    return Expr(e.op, tuple(_redisplay(x) for x in e.args), e.name, e.sort, e.value) if e.args else e


ENV = {"x": Fraction(3, 2), "y": -2, "n": 3, "k": -1, "F": {t: Fraction(t * t - 1, 3) for t in range(0, 8)}}


SHOWN = st.fixed_dictionaries({n: st.tuples(st.sampled_from(DISPLAYS), st.sampled_from(DISPLAYS))
                                for n in list(NAMES) + ["F"]})


def _coq(e):
    """The Coq printer's text of a term (None where it has no translation, e.g. an integer sum)."""
    from coq.export import CoqPrinter, ExportError
    from proofs.language.formula import to_real
    try:
        return CoqPrinter().R(to_real(e))
    except ExportError:
        return None


@settings(max_examples=150)
@given(data=st.data())
@pytest.mark.slow
def test_printers_keep_the_kernels_equalities(data):
    shown = data.draw(SHOWN)
    a, b = data.draw(terms(shown=shown)), data.draw(terms(shown=shown))
    a2 = _redisplay(a)
    assert a == a2 and hash(a) == hash(a2)             # display forms are not part of identity
    for p, q in ((a, a2), (a, b)):
        ctx = SmtContext()
        sp, sq = ctx.term(p), ctx.term(q)
        if p == q:
            assert sp == sq
            assert to_sympy(p) == to_sympy(q)
            assert evaluate(p, ENV) == evaluate(q, ENV)
            assert _coq(p) == _coq(q)
        else:
            assert sp != sq, "the SMT-LIB printer must distinguish what the kernel distinguishes"
    if a == b:                                         # one symbol table: the same text for the reader too
        assert text(a) == text(b) and latex(a) == latex(b)


def _th(hyps, concl, proof, tid="t_identity"):
    return Theorem(id=tid, name="test", source=SRC, hypotheses=hyps, conclusion=concl, proof=proof)


@pytest.mark.parametrize("second", [
    Real("g", tex=r"\gamma", text="gamma"),       # another display
    Int("g"),                                     # another sort
])
def test_one_name_declared_two_ways_is_a_build_error(second):
    g = Real("g")

    def in_step(p):                                # the second declaration in a step's goal
        f = p.solve("s", [p.hyp("h")], Implies(second >= 0, g >= 0) if second.sort != "Real" else second >= 0)
        return f
    th = _th([("h", g >= 0)], g >= 0, in_step)
    b = build(th)
    assert b.error and "two ways" in b.error


def test_a_variable_and_a_function_of_one_name_is_a_build_error():
    w = Real("w")
    W = Seq("w", REAL)
    b = build(_th([("h", w >= 0)], W(0) >= 0, lambda p: p.solve("s", [p.hyp("h")], W(0) >= 0)))
    assert b.error and "two ways" in b.error


def test_a_lemma_or_rule_instance_that_redeclares_a_name_is_a_build_error():
    # cauchy_schwarz's a, b are vectors; this theorem's a is a real, and the lemma keeps its a
    a = Real("a")
    th = _th([("h", a >= 0)], a >= 0, lambda p: p.solve("s", [p.hyp("h"), p.lemma("cauchy_schwarz", {"b": Vec("q")})],
                                                          a >= 0))
    assert "two ways" in build(th).error
    # a rule instance whose index has the name of a real of the statement
    th2 = _th([("h", a >= 0)], a >= 0, lambda p: p.solve(
        "s", [p.hyp("h"), p.rule("finite_sum_linearity", "sum_empty", Nat("a"), 0, Real("c"))], a >= 0))
    assert "two ways" in build(th2).error


def test_specialize_and_induction_see_a_variable_by_its_name():
    """The checks "no hypothesis mentions it" and "a fresh variable" compare names: another
    display form (or any other copy) of a fixed variable is the same variable."""
    g = Real("g")
    g_shown = Real("g", tex=r"\gamma", text="gamma")
    th = _th([("h", g >= 1)], g >= 1, lambda p: p.solve("t", [p.specialize(p.hyp("h"), {g_shown: num(7)})], g >= 1))
    assert build(th).error
    k, M = Nat("k"), Nat("M")
    s = Seq("s", REAL)

    def ind(p):
        from proofs.kernel.kernel import induction_goals
        P = s(k) >= 0
        base_goal, step_goal = induction_goals(k, P, M)
        base = p.solve("base", [p.hyp("start")], base_goal)
        step = p.solve("step", [p.hyp("k_pos")], step_goal)       # rests on a hypothesis about k
        return p.solve("end", [p.inst(p.induction(Nat("k", text="kk"), P, base, step, M), M)], s(M) >= 0)
    th2 = _th([("start", s(0) >= 0), ("k_pos", ForAll(Nat("j"), s(Nat("j")) >= 0)), ("kk", k >= 0)],
              s(M) >= 0, ind)
    assert build(th2).error


# ------------------------------------------------------------------ one meaning for every sum
def _z3_value(e):
    """The value z3 gives a closed term of the concrete instance (sums and "for all" unrolled)."""
    import z3
    from proofs.engines.engines import model_dict  # noqa: F401 - the engines module loads z3's settings
    from proofs.language.formula import Eq
    v = Real("probe_value") if e.sort != "Bool" else None
    fs, inst = instance([Eq(e, v) if v is not None else e], {})
    text_ = problem([("probe", f) for f in fs], None)
    s = z3.Solver()
    s.from_string(text_)
    if v is None:
        return s.check() == z3.sat
    assert s.check() == z3.sat
    m = s.model()
    val = m.eval(z3.Real(inst.names[(v, None)].name), model_completion=True)
    return Fraction(str(val.as_fraction()))


@settings(max_examples=60)
@given(seed=st.integers(0, 2**32))
def test_sums_and_bounded_quantifiers_mean_one_thing(seed):
    rnd = random.Random(seed)
    idx = (Nat if rnd.random() < 0.6 else Int)("i")
    lo, hi = rnd.randint(-4, 3), rnd.randint(-4, 4)
    F = Seq("F", REAL)
    vals = {t: Fraction(rnd.randint(-6, 6), rnd.choice((1, 2))) for t in range(-5, 6)}
    s = Sum(idx, num(lo), num(hi), F(idx))
    ev = evaluate(s, {"F": vals})
    want = sum((vals[t] for t in range(max(lo, 0) if idx.sort == "Nat" else lo, hi + 1)), Fraction(0))
    assert ev == want
    sym = to_sympy(s).subs({}).doit()
    import sympy as sp
    sym = sym.replace(lambda x: isinstance(x, sp.core.function.AppliedUndef),
                      lambda x: sp.Rational(vals[int(x.args[0])].numerator, vals[int(x.args[0])].denominator))
    assert sp.Rational(sym) == sp.Rational(ev.numerator, ev.denominator)
    # a bounded "for all" over the same index: the SMT-LIB text (guard i >= 0 on a natural) and
    # the evaluator agree; F(i) >= c holds exactly when c is at most every term in the range
    c = Fraction(rnd.randint(-6, 3))
    fa = ForAll(idx, Implies(And(num(lo) <= idx, idx <= num(hi)), F(idx) >= c))
    truth = evaluate(fa, {"F": vals})
    from proofs.language.formula import Eq
    facts = [("F", Eq(F(num(t)), num(v))) for t, v in vals.items()]
    import z3
    text_ = problem(facts, fa)           # unsat = the facts imply the "for all"
    z = z3.Solver()
    z.from_string(text_)
    assert (z.check() == z3.unsat) == truth
    # the concrete instance the solvers read for the non-vacuity checks: the same value
    assert _z3_value(_pinned(s, vals)) == ev


def _pinned(s, vals):
    """The sum with F's values written in (a closed term for the instance)."""
    i, lo, hi, body = s.args
    # F(i) as an if-then-else table over the index (the instance unrolls the sum at numeric bounds)
    from proofs.language.formula import Ite, Eq as Eq_
    table = num(0) + 0
    for t in sorted(vals):
        table = Ite(Eq_(i, num(t)), num(vals[t]), table)
    return Sum(i, lo, hi, table)


# ------------------------------------------------------------------ text stays text
def test_a_label_cannot_become_a_command():
    a = Real("a")
    hostile = "h\n(assert false)\n(check-sat)"
    text_ = problem([(hostile, a >= 0)], a >= 0, comment="title\n(assert false)\rmore")
    commands = [ln for ln in text_.splitlines() if ln.strip() and not ln.startswith(";")]
    assert not any("false" in ln for ln in commands)
    assert all("\r" not in ln and "\u2028" not in ln for ln in text_.splitlines())
    import z3
    s = z3.Solver()
    s.from_string(text_)
    assert s.check() == z3.unsat                        # a >= 0 and not a >= 0: nothing injected


@pytest.mark.parametrize("bad", ["x\ny", "x y", "true", "and", "exp", "pi", "mb_x", "_x", "x-1", "\u03b3", "1x", ""])
def test_names_are_identifiers_the_printers_keep(bad):
    with pytest.raises(FormulaError):
        Real(bad)


def test_display_forms_are_one_line():
    with pytest.raises(FormulaError):
        Real("g", text="g\n(assert false)")
    with pytest.raises(FormulaError):
        Seq("w", REAL, tex="w\r")
    with pytest.raises(FormulaError):             # even a node built by hand
        from proofs.language.formula import Expr
        Expr("var", name="a\n(assert false)", sort=REAL)


def test_hypothesis_names_and_theorem_ids_are_identifiers():
    a = Real("a")
    with pytest.raises((ValueError, KernelError)):       # refused when stated, and by the kernel
        Proof(_th([("h\n(assert false)", a >= 0)], a >= 0, lambda p: None))
    with pytest.raises((ValueError, KernelError)):
        Proof(_th([("h", a >= 0)], a >= 0, lambda p: None, tid="t x"))
    th = _th([("h", a >= 0)], a >= 0, lambda p: None)
    object.__setattr__(th, "hypotheses", (("h\n(assert false)", a >= 0),))   # edited after it was stated
    with pytest.raises(KernelError):
        Proof(th)


def test_a_fact_of_the_kernel_is_read_only():
    a = Real("a")
    p = Proof(_th([("h", a >= 0)], a >= 0, lambda p: None))
    h = p.hyp("h")
    for attr in ("formula", "how", "premises", "step", "assumptions", "label"):
        with pytest.raises((KernelError, AttributeError)):
            setattr(h, attr, None)
    with pytest.raises((KernelError, AttributeError)):
        h.extra = 1                                    # __slots__: no new attributes either
    assert not hasattr(h, "__dict__")
    st_ = p.solve("s", [h], a >= 0).step
    with pytest.raises(Exception):
        st_.goal = a >= 5                              # a step is frozen too


def test_the_checked_steps_are_the_conclusions_dependencies():
    """Editing the proof object's step list, rules or lemmas changes nothing that is checked."""
    a = Real("a")

    def hostile(p):
        f = p.solve("s", [p.hyp("h")], a >= 0)
        p.steps.clear()                                # hide the step from the engines
        p.rules.discard("induction")
        return f
    b = build(_th([("h", a >= 1)], a >= 0, hostile))
    assert not b.error and [s.id for s in b.proof.steps] == ["s"]

    def swap(p):                                       # a step registered, then replaced in the list
        f = p.solve("s", [p.hyp("h")], a >= 0)
        p._log[:] = []
        return f
    assert "did not register" in build(_th([("h", a >= 1)], a >= 0, swap)).error
    r_rules = build(_th([("h", a >= 1)], a >= 0, lambda p: p.solve(
        "s", [p.hyp("h"), p.rule("pow2_log2", "pow2_pos", Int("t"))], a >= 0)))
    assert r_rules.proof.rules == frozenset({"pow2_log2"})


_ = (dot, forall_below, BUILD_ERROR)


def test_substitution_never_captures_a_name_even_of_another_sort():
    from proofs.language.substitution import subst
    from proofs.language.formula import to_real
    i, F, a = Nat("i"), Seq("F", REAL), Real("a")
    with pytest.raises(FormulaError):
        subst(Sum(i, 0, Nat("n"), F(i) * a), {a: to_real(Int("i"))})      # an Int i under the Nat i binder
    with pytest.raises(FormulaError):
        subst(ForAll(i, F(i) >= a), {a: F(Int("i"))})


def test_a_refused_declaration_is_refused_again_when_its_formula_reuses_checked_terms():
    """The symbol table looks only at nodes it has not checked; a formula it refused (the error
    caught by the proof) is looked at again whole, and a new clash under an old subterm is found."""
    g = Real("g")
    tries = []

    def proof(p):
        h = p.hyp("h")                                    # g >= 0, checked
        bad = And(h.formula, Int("g") >= 0)               # one object, offered twice
        for k in range(2):
            try:
                p.solve(f"s{k}", [h], bad)
            except KernelError as e:
                tries.append(str(e))
        return p.solve("t", [h], g >= 0)
    b = build(_th([("h", g >= 0)], g >= 0, proof))
    assert len(tries) == 2 and all("two ways" in t for t in tries), tries
    assert "two ways" not in b.error          # (the steps refused are reported as unused)
