"""The printers of the formula tree (one protocol, :mod:`proofs.printers.printer`): text and LaTeX,
SMT-LIB, sympy, and the exact, concrete and 60-digit evaluators."""
