"""``mistakebound kernel "EXPR"``: is K(x, y) a legal (positive semidefinite) kernel?"""
from __future__ import annotations

import click

from .common import emit_json, fail, input_errors_exit_2


@click.command("kernel", context_settings={"ignore_unknown_options": True})
@click.argument("expr")
@click.option("--dim", type=int, default=None, metavar="D",
              help="Largest input dimension for the counterexample search (default 3; the derivation is dimension-free).")
@click.option("--budget", type=float, default=5.0, show_default=True, metavar="S",
              help="Seconds for the derivation and the counterexample search.")
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
@input_errors_exit_2
def kernel(expr, dim, budget, as_json):
    """Decide whether K(x, y) = EXPR is a legal kernel (PSD on every finite set of points).

    EXPR is written in x and y with dot(x, y), norm(x), norm(x - y), numbers and elementary
    functions (exp, log, sqrt, sin, cos, tan, tanh, sinh, cosh, atan, abs), e.g.
    "(1 + dot(x, y))**2" or "exp(-norm(x - y)**2/2)".

    \b
    Answers, with exit codes:
      0 legal    a derivation by the closure rules (cK, K1 + K2, K1 K2, f(x)f(y)K,
                 polynomials with nonnegative coefficients, exp of a legal kernel);
                 trusted steps are named
      1 illegal  points with exact rational coordinates whose Gram matrix G has
                 v^T G v < 0 for a rational v, certified exactly (rationals) or by
                 interval arithmetic (transcendental entries) -- never by floats
      3 unknown  neither; says what was tried
      2          bad input (a parse error names the position)
    """
    from refutation.kernel_legality import check_kernel
    if budget is not None and not (0 < budget <= 600):
        fail(f"--budget must be in (0, 600] seconds, got {budget}")
    v = check_kernel(expr, dim=dim, budget=budget)
    if as_json:
        emit_json(v.to_json())
    else:
        click.echo(v.explain())
    return v.exit_code
