"""``mistakebound verify -q`` into a file or a pipe prints its lines without loading rich: the same
text rich would print there (folded at the same column, the same spaces kept), checked against
rich itself on random texts."""
from __future__ import annotations

import io
import random

from rich.console import Console

from mistakebound.cmd_verify import WIDTH, _Plain, wrap


def _rich(text: str) -> str:
    buf = io.StringIO()
    Console(file=buf, width=WIDTH, emoji=False, force_terminal=False, markup=False).print(text, highlight=False)
    return buf.getvalue()


def test_wrap_folds_as_rich_does_on_random_texts():
    rng = random.Random(7)
    for _ in range(1500):
        words = ["".join(rng.choice("abcxyz,;:()/=_-.019") for _ in range(rng.choice([1, 2, 3, 5, 8, 13, 40, 150])))
                 for _ in range(rng.randint(1, 50))]
        text = "".join(w + rng.choice([" ", " ", "  "]) for w in words).rstrip()
        assert "".join(line + "\n" for line in wrap(text)) == _rich(text), text


def test_the_summary_line_folds_as_rich_does_with_the_markup_left_out():
    summary = ("39/39 theorems proved, 8/8 errata refuted; 294 steps: 262 re-checked by cvc5 on the same text, 32 "
               "identities over a symbolic dimension re-checked at d = 1..3 only; trusted rules: exp_laws, "
               "exp_power_series, exp_tangent, finite_sum_linearity, induction, natural_powers, pow2_log2, sqrt_def, "
               "vector_sums; 1.30 s (1060/1060 verdicts from the proof cache)")
    out = io.StringIO()
    _Plain(out).print(summary + "  [red]FAILED[/]")
    buf = io.StringIO()
    Console(file=buf, width=WIDTH, emoji=False, force_terminal=False).print(summary + "  [red]FAILED[/]",
                                                                            highlight=False)
    assert out.getvalue() == buf.getvalue()
    assert max(len(line) for line in out.getvalue().splitlines()) <= WIDTH and "[red]" not in out.getvalue()
