"""``mistakebound kernel "EXPR"``: is K(x, y) a legal (positive semidefinite) kernel?"""
from __future__ import annotations

import click

from mistakebound.common import emit_json, fail, input_errors_exit_2


@click.command("kernel", context_settings={"ignore_unknown_options": True})
@click.argument("expr")
@click.option("--dim", type=int, default=None, metavar="D",
              help="The input dimension: 1 makes x and y numbers (min(x, y), abs(x - y)); D >= 2 gives "
                   "counterexamples with D coordinates.  Default: every dimension (the derivation is "
                   "dimension-free, the search tries d = 1, 2, 3).")
@click.option("--domain", type=click.Choice(["real", "nonneg", "positive"]), default="real", show_default=True,
              help="Where the coordinates of x and y live: all reals, [0, inf) or (0, inf).")
@click.option("--budget", type=float, default=5.0, show_default=True, metavar="S",
              help="Seconds for the derivation and the counterexample search.")
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
@input_errors_exit_2
def kernel(expr, dim, domain, budget, as_json):
    """Decide whether K(x, y) = EXPR is a legal kernel (PSD on every finite set of points of
    the domain).

    EXPR is written in x and y with dot(x, y), norm(x), norm(x - y), numbers and elementary
    functions (exp, log, sqrt, sin, cos, tan, tanh, sinh, cosh, atan, asin, acos, abs), e.g.
    "(1 + dot(x, y))**2" or "exp(-norm(x - y)**2/2)"; min(a, b), max(a, b), relu(a);
    indicators 1[COND] or ind(COND) and piecewise terms where(COND, A, B), "A if COND else B"
    (COND: == != < <= > >=, and, or, not; x == y compares vectors); coordinate-wise
    sum(k(x, y)) and prod(k(x, y)) (x, y are the coordinates inside), e.g. "sum(min(x, y))"
    with --domain nonneg.  With --dim 1, x and y are numbers: "min(x, y)", "exp(-abs(x - y))".

    \b
    Answers, with exit codes:
      0 legal    a derivation by the closure rules (cK, K1 + K2, K1 K2, f(x)f(y)K,
                 polynomials with nonnegative coefficients, exp of a legal kernel)
                 and cited theorems (Brownian motion min(s, t), the equality
                 indicator, the box overlap, the arc-cosine kernels); trusted steps
                 and cited theorems are named
      1 illegal  points with exact rational coordinates whose Gram matrix G has
                 v^T G v < 0 for a rational v, certified exactly (rationals) or by
                 interval arithmetic (transcendental entries) -- never by floats
      3 unknown  neither; says what was tried
      2          bad input (a parse error names the position)
    """
    from refutation.kernel_legality import check_kernel
    if budget is not None and not (0 < budget <= 600):
        fail(f"--budget must be in (0, 600] seconds, got {budget}")
    v = check_kernel(expr, dim=dim, budget=budget, domain=domain)
    if as_json:
        emit_json(v.to_json())
    else:
        click.echo(v.explain())
    return v.exit_code
