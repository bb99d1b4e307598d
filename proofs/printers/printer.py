"""The printer protocol: one method per operation of the formula tree, for every printer and evaluator.

Every target a formula is printed to or evaluated in (text and LaTeX: ``proofs.printers.render``; MathML:
``blueprint.mathml``; SMT-LIB: ``proofs.printers.smtlib``; Coq: ``coq.export``; sympy: ``proofs.printers.symbolic``;
exact rationals: ``proofs.printers.exact``; concrete instances: ``proofs.printers.concrete``) is a subclass of
:class:`Printer`.  :meth:`Printer.node` sends a node to the method named after its operation,
``op_<operation>`` (``op_add``, ``op_le``, ...); operations printed alike share one method by
assignment (``op_le = op_lt = _relation``).  An operation of ``proofs.language.formula.OPERATORS`` that a
printer has no method for is listed by :meth:`Printer.lacking` (a question asked of the class, so
that tests/proofs/test_printers_operators.py checks every printer structurally, not only on samples), and
meeting it raises the printer's error naming the printer and the operation, never a silent gap.

Adding an operation: add it to ``OPERATORS`` (and its sort to ``proofs.language.formula``), then one
``op_<name>`` method to every printer class; the test fails until each printer has it or declares
why it leaves it out.

The trusted checker (``checker/``) keeps its own small printer and evaluator on purpose: it is the
independent base that re-checks certificates and imports nothing of ``proofs/``, so it does not use
this protocol.
"""
from __future__ import annotations

from proofs.language.formula import OPERATORS, FormulaError

__all__ = ["Printer"]


class Printer:
    """Dispatch of a formula node to ``op_<operation>``.  Subclasses set ``name`` (how the printer
    is named in an error) and ``error`` (the exception class their callers catch)."""

    name = "printer"                  # how the printer is named in an error: "the SMT-LIB printer"
    error: type[Exception] = FormulaError

    _methods: dict = {}                 # operation -> its method, per class (made once, below)

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        cls._methods = {op: getattr(cls, "op_" + op) for op in OPERATORS if callable(getattr(cls, "op_" + op, None))}

    def node(self, e, *args):
        """``e`` printed (or evaluated) by the method of its operation; ``args`` are passed on."""
        method = self._methods.get(e.op)
        if method is None:
            raise self.missing(e.op)
        return method(self, e, *args)

    def missing(self, op: str) -> Exception:
        """The error for an operation this printer has no method for."""
        return self.error(f"the {self.name} has no method for the operation {op!r}")

    @classmethod
    def lacking(cls) -> tuple[str, ...]:
        """The operations of ``proofs.language.formula.OPERATORS`` this printer class has no method for."""
        return tuple(op for op in OPERATORS if op not in cls._methods)


def vcat_parts(e) -> list:
    """The parts of a concatenation ``(u, v, ...)`` read left to right, nested concatenations
    flattened and a one-coordinate part ``(t)`` given as ``t``: what a display shows."""
    parts, stack = [], [e]
    while stack:
        n = stack.pop()
        if n.op == "vcat":
            stack.extend(reversed(n.args))
        else:
            parts.append(n.args[0] if n.op == "vec1" else n)
    return parts
