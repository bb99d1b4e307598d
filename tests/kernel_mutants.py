"""Mutants of the kernel's other calls, of display names, labels, rule schemas and the bounds
table: the edits a contributor makes when writing a new theorem or touching a rule.

* **call edits** intercept the n-th call of one kind a proof makes and change its arguments:
  ``specialize`` of a variable a hypothesis fixes, under another display form (must be refused);
  ``generalize`` over such a variable, under another display form (must be refused);
  ``induction`` up to one more than the premises allow (refused) or over another display form
  of its variable (the same proof); ``inst`` at a shifted term (a valid instance, or a step the
  solvers refute) or at terms shown another way (the same proof, the same texts); ``rule`` with a
  bound that mentions the rule's index (refused) or a shifted integer argument (a valid instance);
  edits of the proof object's step list (the steps checked stay the conclusion's dependencies).
* **statement edits** of display forms and labels: one variable shown two ways (refused), a
  hypothesis name with a newline (refused).
* **schema edits** change a trusted rule's schema as an off-by-one would; the random-instance
  check of every schema (``tests/proofs/test_proofs_rules.py``) must find a false instance.
* **table edits** change an entry of ``proofs.catalogue.bounds``' term table or its variable map; the
  random-instance check (``table_agrees``) must see the bound differ from its theorem.
"""
from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from fractions import Fraction

from proofs.language.formula import INT, NAT, Expr, Nat, num
from proofs.kernel.kernel import Proof
from proofs.language.substitution import free_vars, walk


def redisplay(e):
    """The same formula with every symbol shown another way (equal for the kernel)."""
    if not isinstance(e, Expr):
        return e
    if e.op in ("var", "call"):
        return Expr(e.op, tuple(redisplay(x) for x in e.args), e.name, e.sort, e.value,
                    (e.tex or e.name) + "'", (e.text or e.name) + "'")
    return Expr(e.op, tuple(redisplay(x) for x in e.args), e.name, e.sort, e.value, e.tex, e.text) if e.args else e


@dataclass(frozen=True)
class CallEdit:
    kind: str                 # e.g. "specialize:fixed_display_copy"
    call: int                 # which call of that kind (0-based)
    expect_build_error: bool = False
    full_check: bool = False  # run the engines (otherwise the build alone decides)

    def label(self) -> str:
        return f"{self.kind}@{self.call}"


class CallEditedProof(Proof):
    """The kernel's proof object with one edit applied to one call of one kind."""

    def __init__(self, theorem, edit: CallEdit):
        super().__init__(theorem)
        self.edit, self.applied, self.n = edit, False, {}

    def _mine(self, kind: str) -> bool:
        i = self.n.get(kind, 0)
        self.n[kind] = i + 1
        return self.edit.kind.split(":")[0] == kind and i == self.edit.call

    def solve(self, sid, facts, goal, title=""):
        facts = list(facts)
        mine = self._mine("solve")
        if mine and self.edit.kind == "solve:generalize_fixed_display_copy":
            for j, f in enumerate(facts):
                # "for all g" of a fact about the g a hypothesis it rests on fixes
                fixed = {v.name for a in f.assumptions for v in free_vars(a)}
                vs = [v for v in free_vars(f.formula) if v.name in fixed and v.sort != "Bool"]
                if vs:
                    self.applied = True
                    facts[j] = self.generalize(f, redisplay(vs[0]))
                    break
        if mine and self.edit.kind == "solve:specialize_fixed_display_copy":
            for j, f in enumerate(facts):
                # a variable that a hypothesis this fact rests on mentions (fixed: specializing it
                # would turn "for this g" into "for every g")
                fixed = {v.name for a in f.assumptions for v in free_vars(a)}
                vs = [v for v in free_vars(f.formula) if v.name in fixed and v.sort not in ("Bool", "Vec")]
                if vs:
                    v = vs[0]
                    self.applied = True       # a fact at another value of a fixed variable, shown another way
                    facts[j] = self.specialize(f, {redisplay(v): 2 * v + 1})
                    break
        out = super().solve(sid, facts, goal, title)
        if self.edit.kind == "steps:hide_from_list":
            self.applied = True
            self.steps.remove(out.step)       # hidden from the list only: still a dependency, still checked
        if self.edit.kind == "steps:edit_list":
            from proofs.language.formula import TRUE
            self.applied = True
            self.steps.clear()                # the engines must still check every step the conclusion uses
            self.steps.append(dataclasses.replace(out.step, goal=TRUE))
            self._log[:] = self._log[:-1]     # and the kernel's own record, edited too
        return out

    def inst(self, fact, *terms):
        if self._mine("inst"):
            if self.edit.kind == "inst:term_shift" and terms:
                t = num(terms[0]) if not isinstance(terms[0], Expr) else terms[0]
                self.applied = True
                terms = (t + 1 if t.sort in (INT, NAT) else 2 * t,) + tuple(terms[1:])
            elif self.edit.kind == "inst:display_copy":
                terms = tuple(redisplay(num(t) if not isinstance(t, Expr) else t) for t in terms)
                self.applied = any(n.op in ("var", "call") for t in terms for n in walk(t))
        return super().inst(fact, *terms)

    def induction(self, k, P, base, step, n):
        if self._mine("induction"):
            if self.edit.kind == "induction:bound_plus_one":
                self.applied = True
                n = n + 1
            elif self.edit.kind == "induction:display_copy":
                self.applied = True                   # k is a variable: shown another way
                k, P, n = redisplay(k), redisplay(P), redisplay(n)
        return super().induction(k, P, base, step, n)

    def rule(self, rule_id, schema, *terms):
        if self._mine("rule"):
            from proofs.kernel.rules import RULES, VAR
            sorts = RULES[rule_id].schemas[schema][0]
            terms = list(terms)
            if self.edit.kind == "rule:index_in_bound" and VAR in sorts and INT in sorts:
                i, j = sorts.index(VAR), sorts.index(INT)
                self.applied = True               # a bound that mentions the rule's own index
                terms[j] = (num(terms[j]) if not isinstance(terms[j], Expr) else terms[j]) + terms[i]
            elif self.edit.kind == "rule:argument_shift" and INT in sorts:
                j = len(sorts) - 1 - sorts[::-1].index(INT)
                self.applied = True
                terms[j] = (num(terms[j]) if not isinstance(terms[j], Expr) else terms[j]) + 1
        return super().rule(rule_id, schema, *terms)


def count_calls(th) -> dict:
    """How many calls of each kind the proof makes."""
    n = {}

    class Counter(Proof):
        def _c(self, k):
            n[k] = n.get(k, 0) + 1

        def solve(self, *a, **kw):
            self._c("solve")
            return super().solve(*a, **kw)

        def inst(self, *a):
            self._c("inst")
            return super().inst(*a)

        def induction(self, *a):
            self._c("induction")
            return super().induction(*a)

        def rule(self, *a):
            self._c("rule")
            return super().rule(*a)
    p = Counter(th)
    p.conclude(th.proof(p))
    return n


def call_edits(th) -> list[CallEdit]:
    """Every refusal edit at every call (cheap: the build decides), and the edits that leave a
    valid proof or a refuted step at the first call of each kind (the engines decide)."""
    n = count_calls(th)
    out = [CallEdit("solve:specialize_fixed_display_copy", i, expect_build_error=True) for i in range(n.get("solve", 0))]
    out += [CallEdit("solve:generalize_fixed_display_copy", i, expect_build_error=True) for i in range(n.get("solve", 0))]
    out += [CallEdit("induction:bound_plus_one", i, expect_build_error=True) for i in range(n.get("induction", 0))]
    out += [CallEdit("induction:display_copy", i, expect_build_error=True) for i in range(n.get("induction", 0))]
    out += [CallEdit("inst:display_copy", i, expect_build_error=True) for i in range(n.get("inst", 0))]
    out += [CallEdit("rule:index_in_bound", i, expect_build_error=True) for i in range(n.get("rule", 0))]
    out.append(CallEdit("steps:edit_list", 0, expect_build_error=True))
    out.append(CallEdit("steps:hide_from_list", 0))
    if n.get("inst"):
        out.append(CallEdit("inst:term_shift", 0, full_check=True))
    if n.get("rule"):
        out.append(CallEdit("rule:argument_shift", 0, full_check=True))
    return out


# --------------------------------------------------------------------------- statement edits
def display_edits(th) -> list[tuple[str, object]]:
    """(label, mutant theorem): one variable shown another way in one place only, and a
    hypothesis name that would end an SMT-LIB comment."""
    out = []
    if th.hypotheses:
        name, f = th.hypotheses[0]
        hs = list(th.hypotheses)
        hs[0] = (name, redisplay(f))
        out.append(("display:one_hypothesis", dataclasses.replace(th, hypotheses=tuple(hs))))
        hs = list(th.hypotheses)
        hs[0] = (name + "\n(assert false)", f)
        mutant = dataclasses.replace(th)
        mutant.hypotheses = tuple(hs)        # set after the statement's own check (which refuses it)
        out.append(("labels:hypothesis_newline", mutant))
    out.append(("display:conclusion", dataclasses.replace(th, conclusion=redisplay(th.conclusion))))
    return out


# --------------------------------------------------------------------------- schema edits
def _conclusion(f):
    """(premise or None, conclusion) of a schema's formula."""
    return (f.args[0], f.args[1]) if f.op == "implies" else (None, f)


def _with_conclusion(f, c):
    from proofs.language.formula import Implies
    return Implies(f.args[0], c) if f.op == "implies" else c


def _int_shift(f, d):
    from catalogue_mutants import _rewrite_first
    return _rewrite_first(f, lambda n: n.op == "num" and n.sort in (INT, NAT) and n.value != 0,
                          lambda n: num(n.value + d))


def _drop_premise(f):
    from proofs.language.formula import And, Implies
    if f.op != "implies":
        return None
    p = f.args[0]
    return Implies(And(*p.args[1:]), f.args[1]) if p.op == "and" else f.args[1]


def _conclusion_edit(f, table):
    from proofs.language.formula import BOOL
    _, c = _conclusion(f)
    if c.op == "and":
        c = c.args[-1]
    if c.op not in table or (c.args[0].sort == "Vec" and table[c.op] not in ("eq", "ne")):
        return None
    return _with_conclusion(f, Expr(table[c.op], c.args, sort=BOOL)) if f.args and _conclusion(f)[1] is c else \
        (Expr(table[c.op], c.args, sort=BOOL) if f is c else None)


SCHEMA_EDITS = {
    "int_shift_up": lambda f: _int_shift(f, 1),          # an off-by-one in a bound or a count
    "int_shift_down": lambda f: _int_shift(f, -1),
    "drop_premise": _drop_premise,                       # a side condition forgotten
    "conclusion_flip": lambda f: _conclusion_edit(f, {"le": "ge", "ge": "le", "lt": "gt", "gt": "lt", "eq": "ne"}),
    "conclusion_tighten": lambda f: _conclusion_edit(f, {"le": "lt", "ge": "gt", "eq": "lt"}),
}


def schema_edits():
    """(rule id, schema, edit name, sorts, mutated builder) for every schema and every edit that
    changes it (a builder that returns None where the edit does not apply)."""
    from proofs.kernel.rules import RULES
    for r in RULES.values():
        for name, (sorts, build) in r.schemas.items():
            for ek, edit in SCHEMA_EDITS.items():
                def mutated(*args, build=build, edit=edit):
                    return edit(build(*args))
                yield r.id, name, ek, sorts, mutated


# --------------------------------------------------------------------------- bounds table
def random_env(rnd: random.Random) -> dict:
    """Values for every variable of the bound theorems' conclusions: the perceptron's run (w* = u,
    the mistakes x(i), y(i), i < M), R, gamma, b*, and Winnow's n, r."""
    M = rnd.randint(0, 4)
    n = rnd.randint(1, 64)
    q = lambda lo, hi: Fraction(rnd.randint(lo * 4, hi * 4), 4)  # noqa: E731
    return {"M": M, "R": q(0, 3) + Fraction(1, 4), "g": q(0, 2) + Fraction(1, 8), "bu": q(-2, 2),
            "u": (q(-2, 2), q(-2, 2)), "x": {t: (q(-2, 2), q(-2, 2)) for t in range(M)},
            "y": {t: rnd.choice((-1, 1)) for t in range(M)}, "n": n, "r": rnd.randint(0, n)}


def table_agrees(b, rnd, terms=None, variables=None) -> str:
    """"" when the bound's expression, at the symbols' values (their definitions evaluated on a
    random instance), equals the theorem's conclusion's right-hand side there; else why not."""
    import sympy as sp

    import proofs.catalogue.bounds as pb
    from approx_eval import approx, close
    from proofs.catalogue import registry
    th = registry.get(b.theorem)
    c = th.conclusion.args[0] if th.conclusion.op == "and" else th.conclusion
    saved = pb.VARIABLES
    try:
        if variables is not None:
            pb.VARIABLES = variables
        tbl = terms if terms is not None else (pb.perceptron_terms() if b.terms is None else b.terms)
        expr = pb._expr_of.__wrapped__(b.theorem, tbl)
    except ValueError as e:
        return f"{b.id}: the table does not read the conclusion ({e})"
    finally:
        pb.VARIABLES = saved
    env = random_env(rnd)
    want = approx(c.args[1], env)
    vals = {str(s): approx(pb.definitions()[str(s)], env) for s in expr.free_symbols}
    got = sp.lambdify(sorted(vals), expr, "mpmath")(*[vals[k] for k in sorted(vals)])
    return "" if close(got, want) else f"{b.id}: {expr} = {got} but the conclusion's bound is {want}"


def table_edits():
    """(label, terms, variables): every entry of the term table scaled or shifted, and every pair
    of variables of the map swapped."""
    import proofs.catalogue.bounds as pb
    base = pb.perceptron_terms()
    for j, (key, val) in enumerate(base):
        for tag, wrong in (("scaled", f"2*({val})"), ("shifted", f"{val} + 1")):
            yield f"bounds:entry_{tag}", base[:j] + ((key, wrong),) + base[j + 1:], None
    items = list(pb.VARIABLES.items())
    for a in range(len(items)):
        for b in range(a + 1, len(items)):
            (ka, va), (kb, vb) = items[a], items[b]
            if ka[1] == kb[1]:
                swapped = dict(pb.VARIABLES)
                swapped[ka], swapped[kb] = vb, va
                yield "bounds:variables_swapped", None, swapped


_ = walk


# --------------------------------------------------------------------------- sorts
def shifted_nat_term(t, how: str):
    """``t - 1`` passed where a natural number is expected, made to look natural: through a
    substitution (``(k + 1)[k := t - 2]``, whose rebuilt root once kept k + 1's sort Nat) or by
    hand (a ``sub`` node with the sort Nat written on it)."""
    from proofs.language.substitution import subst
    t = num(t) if not isinstance(t, Expr) else t
    if how == "subst":
        k = Nat("kk_sorted")
        return subst(k + 1, {k: t - 2})
    return Expr("sub", (t, num(1)), sort=NAT)


class SortEditedProof:
    """A Proof whose ``inst``, ``lemma`` and ``specialize`` calls get, for every natural-number
    variable, the term ``t - 1`` dressed as a natural (:func:`shifted_nat_term`).  ``log`` keeps
    (call, the terms put in, the fact the kernel made)."""

    def __new__(cls, theorem, how: str):
        from proofs.kernel.kernel import Proof
        from proofs.language.substitution import free_vars

        class _P(Proof):
            def inst(self, fact, *terms):
                f = fact.formula if hasattr(fact, "formula") else None
                vs = f.args[:-1] if f is not None and f.op == "forall" else ()
                new, put = list(terms), []
                for j, (v, t) in enumerate(zip(vs, terms)):
                    if v.sort == NAT:
                        new[j] = shifted_nat_term(t, how)
                        put.append(new[j])
                out = super().inst(fact, *new)
                if put:
                    self.sort_log.append(("inst", put, out))
                return out

            def lemma(self, theorem_id, mapping=None):
                from proofs.catalogue import registry
                names = {v.name: v for v in free_vars(registry.get(theorem_id).statement)}
                new, put = {}, []
                for k, t in (mapping or {}).items():
                    v = names.get(k) if isinstance(k, str) else k
                    if v is not None and v.sort == NAT:
                        t = shifted_nat_term(t, how)
                        put.append(t)
                    new[k] = t
                for name, v in names.items():        # an unmapped natural gets t - 1 at its own name
                    if v.sort == NAT and name not in {(x if isinstance(x, str) else x.name) for x in new}:
                        new[name] = shifted_nat_term(Nat(name), how)
                        put.append(new[name])
                out = super().lemma(theorem_id, new)
                if put:
                    self.sort_log.append(("lemma", put, out))
                return out

            def specialize(self, fact, mapping):
                new, put = {}, []
                for v, t in mapping.items():
                    if getattr(v, "sort", None) == NAT:
                        t = shifted_nat_term(t, how)
                        put.append(t)
                    new[v] = t
                out = super().specialize(fact, new)
                if put:
                    self.sort_log.append(("specialize", put, out))
                return out

        p = _P(theorem)
        p.sort_log = []
        return p


def guarded(fact_formula, term) -> bool:
    """Does the instance carry the guard ``term >= 0`` (the kernel's premise for a term that is
    not a natural number by its structure)?"""
    if fact_formula.op != "implies":
        return False
    g = fact_formula.args[0]
    parts = g.args if g.op == "and" else (g,)
    return any(p.op == "ge" and p.args[0] == term and p.args[1] == num(0) for p in parts)


# --------------------------------------------------------------------------- check-bound's domain
def domain_edits():
    """(algorithm, assumptions) that no run of the domain satisfies: each domain constraint
    contradicted by one assumption (an integer made fractional, a positive quantity 0 or
    negative), and one quantity given two values."""
    single = {
        "perceptron": ["R == 0", "R == -1", "W == 0", "gamma == 0", "gamma == -1/2", "gamma*R*W == 2", "L == -1",
                       "TD == -1", "n == 0", "n == 1/2", "d == 0", "d == 3/2", "TD == gamma*L + 1"],
        "winnow": ["n == 0", "r == 0", "r == n + 1", "n == 5/2", "r == 1/2", "r > n"],
    }
    for alg, conds in single.items():
        for c in conds:
            yield "domain:one_assumption", alg, [c]
    pairs = {"perceptron": ["R", "W", "gamma", "L", "n", "d"], "winnow": ["n", "r"]}
    for alg, qs in pairs.items():
        for q in qs:
            yield "domain:two_values", alg, [f"{q} == 2", f"{q} == 3"]
    yield "domain:setting", "perceptron", ["R == 1", "W == 1/2"]          # separable: R W >= 1
    yield "domain:fresh", "winnow", ["n == 2**l", "l >= 3", "n <= 7"]
