"""``mistakebound check-bound ALGORITHM "EXPR"``: prove or refute a claimed mistake bound."""
from __future__ import annotations

import click

from mistakebound.common import emit_json, fail, input_errors_exit_2, trusted_base_refused


@click.command("check-bound", context_settings={"ignore_unknown_options": True})
@click.argument("algorithm", type=click.Choice(["perceptron", "winnow", "kernel_perceptron"]))
@click.argument("expr")
@click.option("--out", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write the refuting sequence (format mistakebound.sequence/1) to FILE; "
                   "re-check it with `mistakebound replay FILE`.")
@click.option("--budget", type=float, default=10.0, show_default=True, metavar="S",
              help="Seconds for the proof attempt and the counterexample search.")
@click.option("--variant", type=click.Choice(["halve", "eliminate"]), default="halve", show_default=True,
              help="Winnow variant (Blum's double/halve, or the elimination variant).")
@click.option("--setting", type=click.Choice(["auto", "separable", "agnostic"]), default="auto", show_default=True,
              help="Perceptrons: separable (w* separates, scaled to margin 1, L = 0) or agnostic "
                   "(any w*); auto = agnostic iff EXPR mentions L or TD.")
@click.option("--assume", "assume", multiple=True, metavar="COND",
              help='An assumption on the quantities, e.g. "d == 2", "n == 2**l" (n a power of 2; other names are '
                   'new integers >= 0), "r >= 1". Repeatable. A hypothesis of the proof, a constraint on the search.')
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON (with the sequence).")
@input_errors_exit_2
def check_bound(algorithm, expr, out, budget, variant, setting, as_json, assume=()):
    """Is "ALGORITHM makes at most EXPR mistakes" true?  Write "< EXPR" for a strict claim.

    \b
    Quantities EXPR may use (sympy syntax, e.g. "R**2*W**2 + 2*L", "1/gamma**2"):
      perceptron, kernel_perceptron: R (max |x|), W (|w*|), gamma (= 1/(R W), the
        margin on examples scaled into the unit ball), L (hinge loss of w* at margin 1),
        TD (Blum's total distance = gamma L), n (number of trials), d (dimension)
      winnow: n (variables), r (relevant variables); lg n is log(n, 2)

    \b
    Assumptions (--assume, repeatable) restrict the claim: "d == 2" (the perceptron
    in the plane), "n == 2**l" (n a power of 2), "r >= 1"; they are hypotheses of
    the proof attempt and every refuting instance must satisfy them exactly.

    \b
    Answers, with exit codes:
      0 holds    z3 shows the claim follows from the catalogue's proved theorems
                 (which ones is printed; the catalogue is re-run to confirm them)
      1 refuted  a sequence and target (exact rationals) on which the exact reference
                 learner makes M > EXPR mistakes (M >= EXPR for a strict claim); --out
                 writes it for `mistakebound replay`
      1 vacuous  no run satisfies the assumptions together with the domain printed
      3 unknown  neither within the budget; says what was searched
      2          bad input (a parse error names the position; an assumption outside
                 the domain); 1 also when the start-up check finds a trusted rule or
                 an entry of the table of theorems wrong (named on stderr)
    """
    from refutation.bound_check import check_bound as run
    if not (0 < budget <= 3600):
        fail(f"--budget must be in (0, 3600] seconds, got {budget}")
    if trusted_base_refused(bounds=True):
        return 1
    v = run(algorithm, expr, budget=budget, variant=variant, setting=setting, out=out, assume=assume)
    if as_json:
        emit_json(v.to_json())
    else:
        click.echo(v.explain())
    return v.exit_code
