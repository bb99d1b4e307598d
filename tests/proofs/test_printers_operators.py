"""Every printer and evaluator of the formula tree handles every operation of the one table,
``proofs.language.formula.OPERATORS``: an operation added to the formulas and forgotten in one printer
fails here, instead of surfacing as a crash (or a silent gap) the first time a theorem uses it.
Two checks: every printer runs on a sample of every operation, and every printer class
(``proofs.printers.printer.Printer``) has a method for every operation.  What a printer leaves out on
purpose is declared below, with the reason."""
from fractions import Fraction

import pytest

from proofs.language import formula as F
from proofs.language import functions as G

x, y = F.Real("x"), F.Real("y")
n, k = F.Int("n"), F.Nat("k")
u, v = F.Vec("u"), F.Vec("v")
b = F.Bool("b")
w = F.Seq("w", F.REAL)

SAMPLES = {
    "var": x, "num": F.num(Fraction(3, 2)), "call": w(k), "true": F.TRUE, "false": F.FALSE,
    "and": F.And(x <= y, y <= x), "or": F.Or(x <= y, y <= x), "not": F.Not(x <= y),
    "implies": F.Implies(x <= y, y <= x), "iff": F.Iff(x <= y, y <= x),
    "le": x <= y, "lt": x < y, "ge": x >= y, "gt": x > y, "eq": F.Eq(x, y), "ne": F.Ne(x, y),
    "forall": F.ForAll([k], w(k) >= 0), "add": x + y, "mul": x * y, "sub": x - y, "div": x / y, "neg": -x,
    "abs": G.Abs(x), "max": G.Max(x, y), "min": G.Min(x, y), "pow": x ** 2, "npow": G.npow(x, k),
    "to_real": F.to_real(n), "exp": G.exp(x), "sqrt": G.sqrt(x), "lg": G.lg(x), "pow2": G.pow2(n),
    "ite": F.Ite(x <= y, x, y), "sum": F.Sum(k, 0, n, w(k)), "vsum": G.VSum(k, 0, n, u),
    "dot": F.dot(u, v), "smul": x * u, "vadd": u + v, "vsub": u - v, "vcat": G.vcat(u, v),
    "tensor": G.tensor(u, v), "vzero": F.vzero(), "vec1": G.vec1(x), "tpow": G.tensor_pow(u, k),
}


def _formula(e):
    """A formula holding ``e`` (printers that take statements)."""
    if e.sort == F.BOOL:
        return e
    if e.sort == F.VEC:
        return F.dot(e, v) >= 0
    return F.to_real(e) >= y if e.sort != F.REAL else e >= y


def _text(e):
    from proofs.printers.render import text
    return text(e)


def _latex(e):
    from proofs.printers.render import latex
    return latex(e)


def _mathml(e):
    from blueprint.mathml import mathml
    return mathml(e)


def _smtlib(e):
    from proofs.printers.smtlib import problem
    return problem([], _formula(e))


def _with_op(op):
    """A catalogue statement using ``op`` (a feature-space vector's dimension comes from the
    statement that declares it, not from a bare sample)."""
    from proofs.catalogue import registry
    from proofs.language.substitution import walk
    for th in registry.all_theorems():
        if any(n.op == op for n in walk(th.statement)):
            return th
    raise AssertionError(f"no catalogue statement uses {op}")


def _coq(e):
    from coq.export import statement, step_statement
    if e.op in FEATURE_SPACE:
        return statement(_with_op(e.op))
    return step_statement([], _formula(e))


def _sympy(e):
    """The identity engine: sympy over a symbolic dimension (coordinate blocks for feature maps)."""
    from proofs.printers.symbolic import block_identity_holds, identity_holds, needs_blocks
    t = F.dot(e, e) if e.sort == F.VEC else e
    holds, why = (block_identity_holds if needs_blocks(t) else identity_holds)(t, t)
    if not holds:                        # x = x must hold wherever the engine reads the term
        raise F.FormulaError(why)
    return "holds"


FEATURE_SPACE = ("vcat", "tensor", "tpow")


PRINTERS = {"text": _text, "latex": _latex, "mathml": _mathml, "smtlib": _smtlib, "coq": _coq, "sympy": _sympy}

_PIECEWISE = "piecewise terms have no polynomial normal form: identities over them are left to z3 and cvc5"
_SYMPY_LACKS = {**dict.fromkeys(F.BOOL_OPS, "the identity engine reads the terms of an equation; formulas are z3's"),
                **dict.fromkeys(("abs", "max", "min", "ite"), _PIECEWISE),
                "pow2": "a power of 2 with a variable exponent has no polynomial normal form: identities over "
                        "it are left to z3 and cvc5"}
# what a printer leaves out on purpose, and why
GAPS = {"sympy": _SYMPY_LACKS}


def test_the_samples_cover_every_operation():
    assert set(SAMPLES) == set(F.OPERATORS)
    assert all(e.op == op for op, e in SAMPLES.items())


@pytest.mark.parametrize("printer", sorted(PRINTERS))
@pytest.mark.parametrize("op", F.OPERATORS)
def test_every_printer_handles_every_operation(printer, op):
    gap = GAPS.get(printer, {}).get(op)
    e = SAMPLES[op]
    if gap:
        pytest.skip(f"{printer} leaves out {op}: {gap}")
    out = PRINTERS[printer](e)
    assert isinstance(out, str) and out, (printer, op)


def test_every_declared_gap_is_still_a_gap():
    """A gap that a printer has since closed is no longer declared."""
    for printer, gaps in GAPS.items():
        for op in gaps:
            if op in ("true", "false") or SAMPLES[op].sort == F.BOOL:
                continue
            with pytest.raises(F.FormulaError):
                PRINTERS[printer](SAMPLES[op])


def test_an_unknown_operation_is_refused_when_made():
    with pytest.raises(F.FormulaError, match="no such operation"):
        F.Expr("frobnicate", (x,), sort=F.REAL)


# ----------------------------------------------------------------------------- the classes themselves
_APPROX_LACKS = {
    **dict.fromkeys(("true", "false", "iff", "ite"), "no trusted rule checked in 60 digits states a Boolean "
                    "constant, an equivalence or an if-then-else"),
    **dict.fromkeys(("vzero", "vadd", "vsub", "smul", "vsum", "vcat", "tensor", "vec1", "tpow", "npow"),
                    "the rules checked in 60 digits are about numbers and inner products of given vectors; "
                    "vector arithmetic and the feature-space constructions are evaluated exactly (proofs.printers.exact)")}

# every printer class, "module.Class", with the operations it has no method for and why
CLASSES = {
    "proofs.printers.render.TextPrinter": {},
    "blueprint.mathml.MathMLPrinter": {},
    "proofs.printers.smtlib.SmtContext": {},
    "coq.export.CoqPrinter": {},
    "proofs.printers.exact.Evaluator": {},
    "proofs.printers.concrete._Unroll": {},
    "proofs.printers.approx.Approx": _APPROX_LACKS,
    "proofs.printers.symbolic._Blocks": _SYMPY_LACKS,
    "proofs.printers.symbolic._Tr": {**_SYMPY_LACKS, **dict.fromkeys(
        ("vec1", "vcat", "tensor", "tpow", "npow", "vsum"),
        "the feature-space constructions are read by the block model (proofs.printers.symbolic._Blocks)")},
}


def _class(path):
    import importlib
    mod, name = path.rsplit(".", 1)
    return getattr(importlib.import_module(mod), name)


def _printer_classes():
    """Every subclass of Printer defined in the suite's modules (importing the printers first)."""
    from proofs.printers.printer import Printer
    for path in CLASSES:
        _class(path)
    import coq.bridge  # noqa: F401 - a subclass of the Coq printer
    out, todo = [], list(Printer.__subclasses__())
    while todo:
        c = todo.pop()
        todo.extend(c.__subclasses__())
        if c.__module__.split(".")[0] in ("proofs", "coq", "blueprint"):
            out.append(c)
    return out


@pytest.mark.parametrize("path", sorted(CLASSES))
def test_every_printer_class_has_a_method_for_every_operation(path):
    """Structural: the methods of the class, not a sample run.  A method removed (or an operation
    added to proofs.language.formula.OPERATORS and to no printer) fails here."""
    cls = _class(path)
    lacks = set(cls.lacking())
    declared = CLASSES[path]
    assert lacks <= set(declared), f"{path} has no method for {sorted(lacks - set(declared))}"
    assert set(declared) <= lacks, f"{path} now has a method for {sorted(set(declared) - lacks)}: drop the gap"
    assert all(isinstance(why, str) and why for why in declared.values())


def test_every_printer_class_is_declared():
    """A new printer (a subclass of Printer anywhere in the suite) is checked here too."""
    names = {f"{c.__module__}.{c.__qualname__}" for c in _printer_classes()}
    undeclared = names - set(CLASSES) - {"coq.bridge.RawPrinter"}
    assert not undeclared, f"printer classes missing from CLASSES: {sorted(undeclared)}"
    assert _class("coq.bridge.RawPrinter").lacking() == ()


def test_the_sample_gaps_are_the_class_gaps():
    """The identity engine's gaps on samples are those of its classes (one declaration, two checks)."""
    assert set(GAPS["sympy"]) == set(CLASSES["proofs.printers.symbolic._Blocks"])


def test_a_missing_method_is_caught_and_named():
    """The check can fail: a printer without one method is found by the structural check, and
    printing that operation names the printer and the operation."""
    from proofs.printers.render import TextPrinter

    class Partial(TextPrinter):
        name = "partial text printer"
        op_dot = None                        # as if the method had never been written

    assert Partial.lacking() == ("dot",)
    assert TextPrinter.lacking() == ()
    with pytest.raises(ValueError, match="the partial text printer has no method for the operation 'dot'"):
        Partial(False)(F.dot(u, v) >= 0)
    assert Partial(False)(x + y) == "x + y"
