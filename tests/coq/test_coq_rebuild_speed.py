"""What keeps a rebuild with nothing to compile cheap, and the probe's bridge tactic light, without
changing what is checked: comment stripping equal to the character-by-character reading it
replaces, and setoid rewriting kept exactly where a term under a binder needs it."""
from __future__ import annotations

import random
import re

from coq.bridge import explicit_tactic
from coq.compile import strip_comments


def _reference(text: str) -> str:
    """The former reading, one character at a time: nested comments dropped, strings emptied."""
    out, depth, i = [], 0, 0
    while i < len(text):
        if text.startswith("(*", i):
            depth += 1
            i += 2
        elif text.startswith("*)", i) and depth:
            depth -= 1
            i += 2
        else:
            if not depth:
                out.append(text[i])
            i += 1
    return re.sub(r'"[^"]*"', '""', "".join(out))


def test_strip_comments_agrees_with_the_character_reading():
    rng = random.Random(7)
    cases = ["", "(*", "*)", "(*)", "(* a (* b *) c *) d", "x *) y (* z", 'a "(*" b', "(**)(**)*)", "**)"]
    cases += ["".join(rng.choice('(*)a" \n.') for _ in range(rng.randint(0, 40))) for _ in range(5000)]
    for t in cases:
        assert strip_comments(t) == _reference(t), repr(t)


def test_strip_comments_keeps_code_and_drops_nested_comments():
    text = 'Lemma a : True. (* Admitted (* nested *) still comment *) Proof. exact I. Qed. "(* s *)"'
    got = strip_comments(text)
    assert "Admitted" not in got and "nested" not in got and "still" not in got
    assert got.startswith("Lemma a : True. ") and got.endswith('Qed. ""')


def test_setoid_rewriting_only_where_a_binder_needs_it():
    args = dict(name="mbR", raw="True", pairs=[], lem_path="L", stmt_path="S", args="a b")
    under = explicit_tactic(**args, to_nat="binders")
    bounds = explicit_tactic(**args, to_nat="bounds")
    neither = explicit_tactic(**args, to_nat="")
    assert "setoid_rewrite Nat2Z.id in mbL" in under
    assert "setoid_rewrite" not in bounds and "rewrite ?Nat2Z.id in mbL" in bounds
    assert "Nat2Z.id" not in neither
    # the default (a caller that does not say) keeps the rewriting under binders
    assert "setoid_rewrite Nat2Z.id in mbL" in explicit_tactic(**args)


def test_the_probe_reads_back_z_to_nat_under_binders_when_the_arguments_write_it():
    """Every probe alternative whose specialised arguments write Z.to_nat (a sum's term as a function
    of its integer index, applied under the sum's binder) keeps the setoid rewriting."""
    from proofs.catalogue import registry
    from coq import generate
    generate.generated_files(registry.all_theorems())
    probes = generate.probe_files(generate.CANDIDATES)
    n_under = n_spec = 0
    for text in probes.values():
        for m in re.finditer(r"specialize \(mbL (.*?)\); cbv beta in mbL; (try setoid_rewrite Nat2Z\.id in mbL; )?",
                             text):
            n_spec += 1
            if "Z.to_nat" in m.group(1):
                n_under += 1
                assert m.group(2), m.group(0)[:300]
    assert n_spec > 0 and n_under > 0
