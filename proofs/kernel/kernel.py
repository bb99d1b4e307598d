"""The proof kernel: the only code that can make a :class:`Fact`.

A theorem states its hypotheses and its conclusion once, as formula objects.  Its proof is a
function that receives a :class:`Proof` and returns a Fact; the theorem is established when that
Fact's formula *is* (structurally) the stated conclusion, the only hypotheses it rests on are the
stated ones, and every check the kernel registered on the way answered "proved" (decided later,
by the engines).  The ways to make a Fact, each checking what it is given:

``hyp(name)``              a stated hypothesis of the theorem;
``solve(id, facts, goal)`` ``facts => goal``, by z3 and cvc5 (unsat of facts and not goal);
``identity(id, lhs, rhs)`` ``lhs = rhs`` over vectors in coordinates (sympy, symbolic dimension;
                           z3 and cvc5 on the instances in dimensions 1, 2, 3);
``lemma(id, mapping)``     an instance of a catalogue theorem's statement (it must be proved);
``rule(id, schema, ...)``  an instance of a named trusted rule's schema;
``inst(fact, terms)``      a "for all" fact at the given terms;
``specialize(fact, map)``  a fact at other values of variables no hypothesis mentions;
``generalize(fact, vs)``   "for all vs: fact", for variables no hypothesis it rests on mentions;
``induction(k, P, ...)``   the trusted rule of induction, premises checked for shape.

A hypothesis of a step that is not a Fact of this very proof is refused when the catalogue is
built (:class:`KernelError`), so a retyped or strengthened copy of a fact cannot be used.

Every symbol is identified by its name, as every printer identifies it: the proof keeps one
symbol table (statement, every fact, every lemma instance and rule instance), and a name used
with two sorts, as a variable and as a function, or with two display forms is refused.  What the
engines check is collected at the end from the concluded fact's dependencies (not from a list the
proof code could edit): the steps, the lemmas and the trusted rules a theorem rests on.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from proofs.kernel import rules as _rules
from proofs.language.formula import BOOL, INT, NAT, And, Eq, Expr, FormulaError, ForAll, Implies, _computed_sort, num, valid_name
from proofs.language.substitution import free_vars, nat_guards, subst, walk
from proofs.printers.render import _below, text

__all__ = ["Fact", "Proof", "Step", "KernelError", "induction_goals"]

_TOKEN = object()


class KernelError(Exception):
    """A proof that does not build: the catalogue refuses it before any solver runs."""


@dataclass(frozen=True, eq=False, slots=True)
class Step:
    """One check the kernel registered: ``solve`` (hypotheses => goal) or ``identity``."""
    id: str
    kind: str                      # "solve" or "identity"
    title: str
    hyps: tuple                    # ((label, Fact), ...) for solve; () for identity
    goal: Expr                     # the formula to prove (for identity: Eq(lhs, rhs))
    theorem: str


class SymbolTable:
    """One identity per symbol: name -> (variable or function, sort, argument sorts, tex, text).
    A name met again must be met the same way (printers know a symbol by its name alone)."""
    __slots__ = ("theorem", "table", "seen")

    def __init__(self, theorem_id: str):
        self.theorem, self.table = theorem_id, {}
        self.seen: dict = {}        # id -> node, for every node of a formula added without error

    def add(self, formula: Expr, where: str):
        # a node met again (the same object: a fact reused in a later formula) was checked with
        # all its subterms, and a node never changes: only new nodes are looked at
        met = []
        stack = [formula]
        while stack:
            n = stack.pop()
            if id(n) in self.seen:
                continue
            met.append(n)
            stack.extend(reversed(n.args))
            try:            # the sort it records is the one its structure gives (children are checked too)
                if _computed_sort(n) != n.sort:
                    raise FormulaError(f"a {n.op} node records the sort {n.sort}, its structure gives another")
            except FormulaError as e:
                raise KernelError(f"{self.theorem}/{where}: {e}") from None
            if n.op not in ("var", "call"):
                continue
            if not valid_name(n.name) or n.name.startswith("mb_"):
                raise KernelError(f"{self.theorem}/{where}: symbol name {n.name!r} is not an identifier the "
                                  f"printers keep as it is")
            kind = "function" if n.op == "call" else "variable"
            args = tuple(INT if a.sort in (INT, NAT) else a.sort for a in n.args)
            sig = (kind, n.sort, args, n.tex or n.name, n.text or n.name)
            old = self.table.setdefault(n.name, (sig, where))
            if old[0] != sig:
                raise KernelError(f"{self.theorem}/{where}: {n.name} is declared two ways in one proof: "
                                  f"{_sig(old[0])} (in {old[1]}) and {_sig(sig)}")
        for n in met:               # only once the whole formula passed (a refused one is looked at again)
            self.seen[id(n)] = n


def _sig(sig) -> str:
    kind, sort, args, tex, txt = sig
    head = f"a {kind} {'(' + ', '.join(args) + ') -> ' if kind == 'function' else 'of sort '}{sort}"
    return f"{head}, shown as {txt!r} / {tex!r}"


class Fact:
    """A formula the kernel accepted, with how it was justified.  Read-only."""
    __slots__ = ("formula", "how", "premises", "step", "lemma", "rule", "rule_args", "proof", "assumptions", "label")

    def __init__(self, token, formula: Expr, how: str, proof: "Proof", premises=(), step=None, lemma=None,
                 rule=None, label="", rule_args=()):
        if token is not _TOKEN:
            raise KernelError("a Fact is made by the proof kernel only")
        if not isinstance(formula, Expr) or formula.sort != BOOL:
            raise KernelError("a fact must be a formula")
        s = object.__setattr__
        s(self, "formula", formula)
        s(self, "how", how)
        s(self, "proof", proof)
        s(self, "premises", tuple(premises))
        s(self, "step", step)
        s(self, "lemma", lemma)
        s(self, "rule", rule)
        # what the step was built on (for its certificate): a rule's terms, a lemma's or a
        # specialization's (variable, term) pairs, an instantiation's terms, induction's (k, P, n)
        s(self, "rule_args", tuple(rule_args))
        s(self, "label", label)
        assumed = {formula} if how == "hypothesis" else set()
        for p in premises:
            assumed |= p.assumptions
        s(self, "assumptions", frozenset(assumed))
        proof._symbols.add(formula, label or how)

    def __setattr__(self, name, value):
        raise KernelError("a Fact cannot be changed")

    def __repr__(self):
        return f"Fact[{self.how}]({text(self.formula)})"


class Proof:
    """The kernel's interface for one theorem's proof (see the module docstring)."""

    def __init__(self, theorem, lemma_status=None):
        self.theorem = theorem
        if not valid_name(theorem.id):
            raise KernelError(f"theorem id {theorem.id!r} is not an identifier")
        self._symbols = SymbolTable(theorem.id)
        for name, f in theorem.hypotheses:
            if not valid_name(name):
                raise KernelError(f"{theorem.id}: hypothesis name {name!r} is not an identifier")
            self._symbols.add(f, f"hypothesis {name}")
        self._symbols.add(theorem.conclusion, "the conclusion")
        self.steps: list[Step] = []      # as registered; replaced by what the conclusion rests on
        self._log: list[Step] = []
        self._ids: set[str] = set()
        self.lemma_status = lemma_status or (lambda tid: None)
        self.lemmas: dict[str, object] = {}         # theorem id -> Theorem used as a lemma
        self.rules: set[str] = set()
        self._hyps = {name: Fact(_TOKEN, f, "hypothesis", self, label=name) for name, f in theorem.hypotheses}
        self._fixed = {v.name for _, f in theorem.hypotheses for v in free_vars(f)}

    # ------------------------------------------------------------------ hypotheses
    def hyp(self, name: str) -> Fact:
        if name not in self._hyps:
            raise KernelError(f"{self.theorem.id}: no hypothesis named {name!r}")
        return self._hyps[name]

    # ------------------------------------------------------------------ checked steps
    def _own(self, f, where: str) -> Fact:
        if not isinstance(f, Fact):
            raise KernelError(f"{self.theorem.id}/{where}: a hypothesis must be a fact of this proof, "
                              f"not a {type(f).__name__} ({_show(f)})")
        if f.proof is not self:
            raise KernelError(f"{self.theorem.id}/{where}: a fact of another proof cannot be used "
                              f"(use the theorem as a lemma)")
        return f

    def _new_id(self, sid: str):
        if not sid.isidentifier():
            raise KernelError(f"step id {sid!r} is not an identifier")
        if sid in self._ids:
            raise KernelError(f"{self.theorem.id}: two steps named {sid}")
        self._ids.add(sid)

    def solve(self, sid: str, facts, goal: Expr, title: str = "") -> Fact:
        """``facts => goal``: registered for z3 and cvc5; the Fact stands once both answer unsat."""
        self._new_id(sid)
        facts = [self._own(f, sid) for f in facts]
        if not isinstance(goal, Expr) or goal.sort != BOOL:
            raise KernelError(f"{self.theorem.id}/{sid}: the goal must be a formula")
        labels = _labels(facts)
        st = Step(sid, "solve", title or text(goal), tuple(zip(labels, facts)), goal, self.theorem.id)
        self.steps.append(st)
        self._log.append(st)
        return Fact(_TOKEN, goal, "solve", self, facts, step=st, label=sid)

    def identity(self, sid: str, lhs: Expr, rhs: Expr, title: str = "") -> Fact:
        """``lhs = rhs`` for all values of its variables (no hypotheses)."""
        self._new_id(sid)
        try:
            goal = Eq(lhs, rhs)
        except FormulaError as e:
            raise KernelError(f"{self.theorem.id}/{sid}: {e}") from None
        st = Step(sid, "identity", title or text(goal), (), goal, self.theorem.id)
        self.steps.append(st)
        self._log.append(st)
        from proofs.printers.symbolic import has_symbolic_sum
        rule = None
        if has_symbolic_sum(goal):       # sympy decides it by linearity of finite sums
            self.rules.add("finite_sum_linearity")
            rule = "finite_sum_linearity"
        return Fact(_TOKEN, goal, "identity", self, (), step=st, label=sid, rule=rule)

    # ------------------------------------------------------------------ lemmas and rules
    def lemma(self, theorem_id: str, mapping: dict | None = None) -> Fact:
        """The statement of a catalogue theorem, hypotheses => conclusion, with its variables
        replaced as ``mapping`` says.  The lemma must be proved for this theorem to be."""
        from proofs.catalogue import registry
        th = registry.get(theorem_id)
        if th.kind != "theorem":
            raise KernelError(f"{theorem_id} is not a theorem and cannot be a lemma")
        if th.id == self.theorem.id:
            raise KernelError(f"{th.id} cannot use itself as a lemma")
        names = {v.name: v for v in free_vars(th.statement)}
        m = {}
        for k, t in (mapping or {}).items():
            v = names.get(k) if isinstance(k, str) else k
            if v is None or v not in names.values():
                raise KernelError(f"{self.theorem.id}: lemma {theorem_id} has no variable {k!r} "
                                  f"(it has: {', '.join(sorted(names))})")
            m[v] = t
        try:
            f = _guarded(th.statement, m)
        except FormulaError as e:
            raise KernelError(f"{self.theorem.id}: lemma {theorem_id}: {e}") from None
        self.lemmas[th.id] = th
        return Fact(_TOKEN, f, "lemma", self, lemma=th.id, label=th.id, rule_args=tuple(m.items()))

    def rule(self, rule_id: str, schema: str, *terms) -> Fact:
        try:
            f, args = _rules.schema_instance(rule_id, schema, terms)
        except (KeyError, TypeError, FormulaError) as e:
            raise KernelError(f"{self.theorem.id}: rule {rule_id}: {e}") from None
        self.rules.add(rule_id)
        return Fact(_TOKEN, f, "rule", self, rule=f"{rule_id}.{schema}", label=f"{rule_id}.{schema}", rule_args=args)

    # ------------------------------------------------------------------ structural rules
    def inst(self, fact: Fact, *terms) -> Fact:
        """A "for all v1..vn: body" fact at the terms given: body[v := t]."""
        fact = self._own(fact, "inst")
        f = fact.formula
        if f.op != "forall":
            raise KernelError(f"{self.theorem.id}: inst needs a 'for all' fact, got {text(f)}")
        vs, body = f.args[:-1], f.args[-1]
        if len(terms) != len(vs):
            raise KernelError(f"{self.theorem.id}: {len(vs)} term(s) needed to instantiate {text(f)}")
        try:
            g = _guarded(body, dict(zip(vs, terms)))
        except FormulaError as e:
            raise KernelError(f"{self.theorem.id}: inst: {e}") from None
        return Fact(_TOKEN, g, "inst", self, (fact,), label=f"{fact.label}[{', '.join(text(num(t)) for t in terms)}]",
                    rule_args=tuple(num(t) for t in terms))

    def specialize(self, fact: Fact, mapping: dict) -> Fact:
        """A fact at other values of its free variables.  Sound for variables that no hypothesis
        of the fact mentions (they are universally quantified); the theorem's own variables,
        fixed by its hypotheses, cannot be specialized."""
        fact = self._own(fact, "specialize")
        fixed = _mentioned(fact)
        for v in mapping:
            if not isinstance(v, Expr) or v.op != "var":
                raise KernelError(f"{self.theorem.id}: specialize maps variables, not {_show(v)}")
        bad = [v.name for v in mapping if v.name in fixed]
        if bad:
            raise KernelError(f"{self.theorem.id}: cannot specialize {', '.join(bad)}: a hypothesis mentions it")
        try:
            g = _guarded(fact.formula, mapping)
        except FormulaError as e:
            raise KernelError(f"{self.theorem.id}: specialize: {e}") from None
        return Fact(_TOKEN, g, "specialize", self, (fact,), label=f"{fact.label}[...]", rule_args=tuple(mapping.items()))

    def generalize(self, fact: Fact, *vs: Expr) -> Fact:
        """``for all vs: fact`` -- the rule of generalization, sound for variables that no
        hypothesis the fact rests on mentions (the fact then holds at every value of them: what
        :meth:`specialize` uses, made a "for all" that a later step can instantiate)."""
        fact = self._own(fact, "generalize")
        fixed = _mentioned(fact)
        if not vs:
            raise KernelError(f"{self.theorem.id}: generalize needs at least one variable")
        free = {v.name for v in free_vars(fact.formula)}
        for v in vs:
            if not isinstance(v, Expr) or v.op != "var" or v.sort == BOOL:
                raise KernelError(f"{self.theorem.id}: generalize binds variables of a sort, not {_show(v)}")
            if v.name in fixed or v.name in self._fixed:
                raise KernelError(f"{self.theorem.id}: cannot generalize {v.name}: a hypothesis mentions it")
            if v.name not in free:
                raise KernelError(f"{self.theorem.id}: generalize over {v.name}, which the fact does not mention")
        if len({v.name for v in vs}) != len(vs):
            raise KernelError(f"{self.theorem.id}: generalize binds a variable twice")
        g = ForAll(list(vs), fact.formula)
        return Fact(_TOKEN, g, "generalize", self, (fact,), label=f"for all {', '.join(v.name for v in vs)}: "
                    f"{fact.label}", rule_args=tuple(vs))

    def induction(self, k: Expr, P: Expr, base: Fact, step: Fact, n: Expr) -> Fact:
        """From ``base``: P[k := 0] and ``step``: 0 <= k and k < n and P => P[k := k+1], infer
        "for all j with 0 <= j <= n: P[k := j]" (trusted rule ``induction``; shapes checked)."""
        base, step = self._own(base, "induction"), self._own(step, "induction")
        if k.op != "var" or k.sort not in (INT, NAT):
            raise KernelError(f"{self.theorem.id}: induction runs over an integer variable")
        if not isinstance(P, Expr) or P.sort != BOOL or not isinstance(n, Expr):
            raise KernelError(f"{self.theorem.id}: induction needs a predicate (a formula) and a bound (a term)")
        if k not in free_vars(P):
            raise KernelError(f"{self.theorem.id}: the induction predicate does not mention {k.name}")
        if k.name in {v.name for v in free_vars(n)}:
            raise KernelError(f"{self.theorem.id}: the induction bound mentions {k.name}")
        want_base, want_step = induction_goals(k, P, n)
        if base.formula != want_base:
            raise KernelError(f"{self.theorem.id}: induction base is {text(base.formula)}, needed {text(want_base)}")
        if step.formula != want_step:
            raise KernelError(f"{self.theorem.id}: induction step is {text(step.formula)}, needed {text(want_step)}")
        fixed = {v.name for a in step.assumptions | base.assumptions for v in free_vars(a)}
        if k.name in fixed or k.name in self._fixed:
            raise KernelError(f"{self.theorem.id}: {k.name} is fixed by a hypothesis; induction needs a fresh variable")
        j = Expr("var", name=f"{k.name}", sort=k.sort, tex=k.tex, text=k.text)
        concl = ForAll(j, Implies(And(num(0) <= j, j <= n), P))
        self.rules.add("induction")
        return Fact(_TOKEN, concl, "induction", self, (base, step), rule="induction", label=f"induction on {k.name}",
                    rule_args=(k, P, n))

    # ------------------------------------------------------------------ the end
    def conclude(self, fact) -> Fact:
        """Check that ``fact`` establishes the theorem as stated."""
        th = self.theorem
        if not isinstance(fact, Fact) or fact.proof is not self:
            raise KernelError(f"{th.id}: the proof must return a fact of its own, got {_show(fact)}")
        if fact.formula != th.conclusion:
            raise KernelError(f"{th.id}: the proof concludes {text(fact.formula)}, but the theorem states "
                              f"{text(th.conclusion)}")
        stated = {f for _, f in th.hypotheses}
        extra = [a for a in fact.assumptions if a not in stated]
        if extra:   # cannot happen through the kernel; kept as a last line of defence
            raise KernelError(f"{th.id}: the proof rests on an unstated hypothesis {text(extra[0])}")
        used = set()
        stack = [fact]
        while stack:
            f = stack.pop()
            if f.step is not None:
                used.add(f.step.id)
            stack.extend(f.premises)
        unused = [s.id for s in self._log if s.id not in used]
        if unused:
            raise KernelError(f"{th.id}: steps not used by the conclusion: {', '.join(unused)}")
        self._collect(fact)
        return fact

    def _collect(self, fact: Fact):
        """What the engines will check, collected from the fact's dependencies: every step the
        conclusion rests on (each registered by this proof, and the very step its fact records),
        and the lemmas and trusted rules it rests on.  ``steps``, ``lemmas`` and ``rules`` are
        replaced by these (read-only) collections."""
        from proofs.catalogue import registry
        th = self.theorem
        registered = {id(s) for s in self._log}
        steps, lemmas, rules = {}, {}, set()
        for f in dependencies(fact):
            if not isinstance(f, Fact) or f.proof is not self:
                raise KernelError(f"{th.id}: the conclusion rests on a fact of another proof")
            st = f.step
            if st is not None:
                if id(st) not in registered or st.theorem != th.id:
                    raise KernelError(f"{th.id}: the conclusion rests on a step {st.id} this proof did not register")
                if st.goal != f.formula or tuple(h for _, h in st.hyps) != f.premises:
                    raise KernelError(f"{th.id}: step {st.id} does not check the fact recorded with it")
                steps[id(st)] = st
            elif f.how in ("solve", "identity"):
                raise KernelError(f"{th.id}: a {f.how} fact without its step")
            if f.lemma is not None:
                lemmas[f.lemma] = registry.get(f.lemma)
            if f.rule is not None:
                rules.add(f.rule.split(".")[0])
        unused = [s.id for s in self._log if id(s) not in steps]
        if unused:
            raise KernelError(f"{th.id}: steps not used by the conclusion: {', '.join(unused)}")
        self.steps = tuple(s for s in self._log if id(s) in steps)
        self.lemmas = MappingProxyType(lemmas)
        self.rules = frozenset(rules)


def induction_goals(k: Expr, P: Expr, n: Expr) -> tuple[Expr, Expr]:
    """The two premises :meth:`Proof.induction` needs: P[k := 0], and
    0 <= k and k < n and P => P[k := k+1]."""
    return subst(P, {k: num(0)}), Implies(And(num(0) <= k, k < n, P), subst(P, {k: k + 1}))


def _mentioned(fact: Fact) -> set[str]:
    """The variables the hypotheses a fact rests on mention: fixed for it (no other value of them,
    and no "for all" over them, follows from it)."""
    return {v.name for a in fact.assumptions for v in free_vars(a)}


def _guarded(f: Expr, mapping: dict) -> Expr:
    """``f[mapping]``, under ``t >= 0`` for every natural-number variable given a term that is
    not a natural number (the instance holds only there)."""
    g = subst(f, mapping)
    guards = nat_guards(mapping)
    return Implies(And(*guards), g) if guards else g


def _labels(facts) -> list[str]:
    out, seen = [], {}
    for f in facts:
        base = f.label or f.how
        seen[base] = seen.get(base, 0) + 1
        out.append(base if seen[base] == 1 else f"{base}#{seen[base]}")
    return out


def _show(x) -> str:
    if isinstance(x, Expr):
        try:
            return text(x)
        except Exception:
            return "a formula"
    return type(x).__name__


def dependencies(fact: Fact):
    """Every fact the given one rests on (itself included), each once."""
    seen, order, stack = set(), [], [fact]
    while stack:
        f = stack.pop()
        if id(f) in seen:
            continue
        seen.add(id(f))
        order.append(f)
        stack.extend(f.premises)
    return order


_ = _below
