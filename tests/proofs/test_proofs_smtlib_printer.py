"""The SMT-LIB printer's shortcuts change no text: on the whole catalogue (every step's problem,
its hypotheses alone, its guarded necessity text, every theorem's hypotheses and every identity's
instances in dimensions 1..3) the printer is compared with a straightforward one that prints
every node afresh (no memo of shared subterms), looks at a call's free variables every time, and
escapes comments character by character."""
from __future__ import annotations

import pytest

from proofs.catalogue import registry
from proofs.printers import smtlib
from proofs.printers.concrete import instance
from proofs.language.formula import NAT, FormulaError
from proofs.verify.runner import build
from proofs.language.substitution import free_vars


def _plain_comment(s) -> str:
    return "".join(c if " " <= c <= "~" else f"\\u{ord(c):04x}" for c in str(s))


class _Plain(smtlib.SmtContext):
    def term(self, e, bound=frozenset()):
        return self._term(e, bound)

    def _term(self, e, bound):
        if e.op == "call":
            a = e.args
            self.declare(e.name, tuple(smtlib._SORT[x.sort] for x in a), smtlib._SORT[e.sort])
            if e.sort == NAT and not (free_vars(e) & bound):
                self.nat_terms.add(e)
            if e.sort == smtlib.VEC or any(x.sort == smtlib.VEC for x in a):
                self.uses_vec = True
            return f"({e.name} {' '.join(self.term(x, bound) for x in a)})"
        return super()._term(e, bound)


def _texts() -> list[tuple[str, str]]:
    out = []
    for th in registry.all_theorems():
        hyps = list(th.hypotheses)
        if hyps:
            out.append((th.id, smtlib.problem(hyps, None)))
            try:
                inst, _ = instance([f for _, f in hyps], {}, dim=2)
                out.append((th.id + "/instance", smtlib.problem([(f"h{i}", f) for i, f in enumerate(inst)], None)))
            except FormulaError:
                pass
        b = build(th)
        if b.proof is None:
            continue
        for st in b.proof.steps:
            hs = [(lab, f.formula) for lab, f in st.hyps]
            out.append((st.id, smtlib.problem(hs, st.goal, comment=f"step {st.id} of {st.theorem}: {st.title}")))
            if hs:
                out.append((st.id + "/hyps", smtlib.problem(hs, None)))
                out.append((st.id + "/guarded", smtlib.guarded(hs, st.goal)[0]))
            if st.kind == "identity":
                for d in (1, 2, 3):
                    try:
                        (g,), _ = instance([st.goal], {}, dim=d)
                    except FormulaError:
                        continue
                    out.append((f"{st.id}/d{d}", smtlib.problem([], g, comment=f"an identity in dimension {d}")))
    return out


def test_the_printer_prints_the_catalogue_as_the_straightforward_printer_does(monkeypatch):
    fast = _texts()
    monkeypatch.setattr(smtlib, "SmtContext", _Plain)
    monkeypatch.setattr(smtlib, "comment", _plain_comment)
    monkeypatch.setattr(smtlib, "_comment", _plain_comment)
    plain = _texts()
    assert len(fast) > 500 and [k for k, _ in fast] == [k for k, _ in plain]
    differ = [k for (k, a), (_, b) in zip(fast, plain) if a != b]
    assert not differ, f"texts that differ: {differ[:5]}"


@pytest.mark.parametrize("s", ["plain ~ text", "two\nlines", "tab\there", "\x7f", "caf\u00e9", "", "\u2028"])
def test_a_comment_is_escaped_as_character_by_character(s):
    assert smtlib.comment(s) == _plain_comment(s)


def test_a_natural_call_under_a_binder_is_guarded_as_the_straightforward_printer_guards_it(monkeypatch):
    from proofs.language.formula import ForAll, Fun, Nat
    f = Fun("f", (NAT,), NAT)
    k, n = Nat("k"), Nat("n")
    goal = ForAll([k], f(n) + f(k) >= 0)
    fast = smtlib.problem([], goal)
    assert "(assert (>= (f n) 0))" in fast and "(assert (>= (f k) 0))" not in fast
    monkeypatch.setattr(smtlib, "SmtContext", _Plain)
    assert smtlib.problem([], goal) == fast
