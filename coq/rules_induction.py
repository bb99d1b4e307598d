"""Induction, and the rule instances under it, derived in Coq.

A step's hypothesis may rest on the kernel's ``induction`` through instantiations (``inst``) and
changes of free variables (``specialize``): ``inst(induction(k, P, base, step, n), M)``.  The step
lemma assumes that hypothesis; its corollary ``<step>__derived`` assumes instead the *leaves* of
that derivation (the base and step facts, each the goal of its own step lemma, printed from the
kernel's own formulas: the step fact for every ``k``, a specialised fact for every value of the
variables put), and proves the hypothesis from them in Coq: the generated lemma
``<step>__ind<k>`` applies ``Rules.rule__induction__induction__N`` (the schema over a natural
index, proved by Coq's own ``induction`` in ``Rules.v``) to the base and step facts, and each
instantiation by application.  A leaf that is a rule instance is derived from its ``Rules.v``
lemma as any other.

Python only proposes: which integer subterms Coq's substitution writes otherwise than the printer's
canonical form (``Z.of_nat (t + 1) - 1`` against ``Z.of_nat t``), each bridged by ``replace ... by
lia``; every lemma is first tried in the probe, and one Coq does not accept is not used, so the
induction stays counted as not proved in Coq.
"""
from __future__ import annotations

import re

from proofs.language.formula import NAT, ForAll

from coq.bridge import _match
from coq.subst_text import int_bridge, subst_many, subst_text
from coq.export import CoqPrinter, ExportError, _z_indexed, step_parts
from coq.intterms import coq_ident
from coq.names import LOGICAL

__all__ = ["expandable", "induction_candidate", "IND_LEMMA"]

IND_LEMMA = "rule__induction__induction__N"
_DERIVED = ("inst", "specialize", "induction")


class _Node:
    __slots__ = ("kind", "fact", "kids", "closure", "vars", "terms", "leaf")

    def __init__(self, kind, fact, kids=(), closure=(), vars_=(), terms=()):
        self.kind, self.fact, self.kids = kind, fact, list(kids)
        self.closure = tuple(closure)     # variables the parent puts values for: the node holds for all of them
        self.vars, self.terms = tuple(vars_), tuple(terms)
        self.leaf = None                  # a leaf's index among the candidate's leaves


def _is_rule_leaf(f) -> bool:
    return f.how == "rule" or (f.how == "specialize" and f.premises and f.premises[0].how == "rule")


def _values(src, target, names) -> dict | None:
    """The terms put for the variables ``names`` of ``src`` to give ``target`` (under its guards)."""
    m: dict = {}
    if _match(src, target, names, m):
        return m
    if target.op == "implies" and len(target.args) == 2:
        m = {}
        if _match(src, target.args[1], names, m):
            return m
    return None


def _tree(f, closure=()) -> _Node | None:
    """The derivation of ``f`` down to its leaves (facts not made by inst / specialize / induction,
    and rule instances); None when a node's arguments cannot be read back.  ``closure``: the
    variables ``f`` is stated for all values of (a parent puts values for them; the kernel allowed
    it, none being fixed by an assumption), passed on to every premise that mentions them."""
    from proofs.language.substitution import free_vars

    def inherit(g, own=()):
        names = {v.name for v in free_vars(g.formula)}
        return [c for c in closure if c.name in names and c.name not in {v.name for v in own}] + list(own)

    if f.how not in _DERIVED or _is_rule_leaf(f):
        return _Node("leaf", f, closure=closure)
    if f.how == "induction":
        k, P, n = f.rule_args
        if k.sort != NAT or n.sort != NAT or k.name in {c.name for c in closure}:
            return None
        base, step = f.premises
        kids = [_tree(base, inherit(base)), _tree(step, inherit(step, (k,)))]
        return None if None in kids else _Node("ind", f, kids, closure, (k,), (n,))
    src = f.premises[0]
    if f.how == "inst":
        vs = src.formula.args[:-1]
        m = _values(src.formula.args[-1], f.formula, {v.name for v in vs})
        if m is None or any(v.name not in m for v in vs):
            return None
        kid = _tree(src, inherit(src))
        return None if kid is None else _Node("inst", f, [kid], closure, vs, [m[v.name] for v in vs])
    fv = sorted(free_vars(src.formula), key=lambda v: v.name)
    m = _values(src.formula, f.formula, {v.name for v in fv})
    if m is None:
        return None
    vs = [v for v in fv if v.name in m and m[v.name] != v]
    kid = _tree(src, inherit(src, vs))
    return None if kid is None else _Node("spec", f, [kid], closure, vs, [m[v.name] for v in vs])


def _has_induction(f) -> bool:
    stack = [f]
    while stack:
        g = stack.pop()
        if g.how == "induction":
            return True
        if g.how in _DERIVED:
            stack.extend(g.premises)
    return False


def expandable(f) -> bool:
    """Does the hypothesis ``f`` rest on an induction (through inst / specialize)?  Its rule uses are
    then the step's own: the step's corollary derives them, or reports them not derived."""
    return _has_induction(f)


def _inner(n: _Node) -> list:
    """The formulas the derivation of ``n`` prints besides the statement's."""
    out = [_closed(n), n.fact.formula]
    if n.kind == "ind":
        k, P, _ = n.fact.rule_args
        out += [P, n.kids[1].fact.formula]
    elif n.kind in ("inst", "spec"):
        out.append(n.kids[0].fact.formula)
    return out


def _nodes(n: _Node, out: list) -> list:
    for k in n.kids:
        _nodes(k, out)
    out.append(n)
    return out


def _closed(n: _Node):
    return ForAll(n.closure, n.fact.formula) if n.closure else n.fact.formula


class _Induction:
    """Mixed into the step candidate of coq.generate (given as ``base``): a step whose hypotheses rest on inductions: each such hypothesis replaced by the leaves of
    its derivation and proved from them (``<step>__ind<k>``), the leaves that are rule instances
    derived from Rules.v as a candidate's hypotheses are."""

    @classmethod
    def make(cls, name, grp, st, hyps, goal, proved, _derivable, _direct_rule):
        from coq.bridge import explicit_args, raw_formula, raw_parts
        sb, sbtext, shtexts, sgtext = step_parts(hyps, goal)
        trees, leaves = [], []
        for _, f in st.hyps:
            t = _tree(f) if expandable(f) else None
            if t is not None:
                for nd in _nodes(t, []):
                    if nd.kind == "leaf":
                        key = (id(nd.fact), nd.closure)
                        got = next((j for j, lf in enumerate(leaves) if (id(lf.fact), lf.closure) == key), None)
                        if got is None:
                            got = len(leaves)
                            leaves.append(nd)
                        nd.leaf = got
            trees.append(t if expandable(f) else None)
        lforms = [_closed(lf) for lf in leaves]
        allf = list(hyps) + lforms
        try:
            binders, btext, texts, gtext = step_parts(allf, goal)
        except ExportError:
            binders, btext, texts, gtext = None, "", [], ""
        big = dict(re.findall(r"\((\w+) : ([^()]*)\)", btext))
        ok_print = (binders is not None and texts[:len(hyps)] == shtexts and gtext == sgtext
                    and all(big.get(b) == t for b, t in re.findall(r"\((\w+) : ([^()]*)\)", sbtext))
                    and len(re.findall(r"\((\w+) :", sbtext)) == len(sb)
                    and not any(b.startswith("mb") for b in binders))
        if not ok_print:       # the corollary cannot restate the step: no expansion, every use reported
            binders, btext, texts, gtext = sb, sbtext, shtexts, sgtext
            leaves, lforms = [], []
            failed = [t is not None or expandable(f) for (_, f), t in zip(st.hyps, trees)]
            trees = [None] * len(trees)
        else:
            failed = [expandable(f) and t is None for (_, f), t in zip(st.hyps, trees)]
        lfacts = [lf.fact for lf in leaves]
        facts = [f for _, f in st.hyps] + lfacts
        lemmas = [None if (trees[k] is not None or failed[k]) else _derivable(f, proved)
                  for k, (_, f) in enumerate(st.hyps)]
        lemmas += [None if lf.closure else _derivable(lf.fact, proved) for lf in leaves]
        forms = list(hyps) + lforms
        raws, pr = raw_parts(forms, goal, [raw_formula(f) if lem else None for lem, f in zip(lemmas, facts)])
        explicit = [{lem: explicit_args(pr, f, lem) for lem in (lems or ())} for lems, f in zip(lemmas, facts)]
        rids = [_direct_rule(f) for f in facts]
        c = cls(name, grp, binders, btext, texts, gtext, lemmas, rids, raws, explicit)
        c.nhyps, c.small_binders, c.trees, c.failed, c.leaves, c.facts = len(hyps), sb, trees, failed, leaves, facts
        # the derivation's inner formulas: vector spaces recorded for them too (the sequences'
        # indexing is the statement's)
        inner = [g for t in trees if t is not None for nd in _nodes(t, []) for g in _inner(nd)]
        c.pr = CoqPrinter(_z_indexed(forms + [goal]), forms + [goal] + inner)
        try:
            c.pr.binders(forms + [goal])
            c.recon = {k: c._recon(t) for k, t in enumerate(trees) if t is not None}
        except ExportError:
            c.recon = {}
        return c

    # -------------------------------------------------------------- the proof of one hypothesis
    def _ref(self, n: _Node) -> str:
        """A leaf's name, or an inner node's: numbered in the order they are first met (the
        generated text is the same in every run, so a rebuild reuses the compiled file)."""
        if n.kind == "leaf":
            return f"mbL{n.leaf}"
        names = self.__dict__.setdefault("_inner_names", {})
        return names.setdefault(id(n), f"mbN{len(names)}")

    def _recon(self, t: _Node) -> str | None:
        """The tactic proving the hypothesis (the root) from the leaves mbL<j> in context."""
        pr, lines = self.pr, []
        for n in _nodes(t, []):
            if n.kind == "leaf":
                continue
            tac = self._node_tac(n)
            if tac is None:
                return None
            if n is t:
                lines.append(tac)
            else:
                lines.append(f"assert ({self._ref(n)} : {pr.P(_closed(n))}) by ({tac})")
        return "; ".join(lines)

    def _inherited(self, kid: _Node, own=()) -> str:
        """The variables a premise is stated for all values of besides its own, applied to
        themselves (each introduced by the node under the same name)."""
        names = {v.name for v in own}
        return "".join(coq_ident(v.name) + " " for v in kid.closure if v.name not in names)

    def _bare(self, v, e) -> str:
        """A term as the printer writes it where a variable of its sort stands bare."""
        from proofs.language.formula import INT, REAL, VEC
        pr = self.pr
        if v.sort == NAT:
            return pr.N(e)
        if v.sort == INT:
            return pr.Zt(e)
        if v.sort == REAL:
            return pr.R(e)
        if v.sort == VEC:
            return pr.V(e)
        raise ExportError(f"a value of sort {v.sort}")

    def _arg(self, v, e) -> str:
        from proofs.language.formula import INT, REAL, VEC
        pr = self.pr
        if v.sort == NAT:
            return pr.nat(e)
        if v.sort == INT:
            return pr.z(e)
        if v.sort == REAL:
            return pr.R(e)
        if v.sort == VEC:
            return pr.V(e)
        raise ExportError(f"a value of sort {v.sort}")

    def _node_tac(self, n: _Node) -> str | None:
        pr = self.pr
        # a binder of the same name in context (the statement's own variable) is renamed out of the way
        intro = "".join(f"try (let x := fresh \"mbo\" in rename {coq_ident(v.name)} into x); intro {coq_ident(v.name)}; "
                        for v in n.closure)
        kid = n.kids[0]
        if n.kind in ("inst", "spec"):
            body = kid.fact.formula.args[-1] if n.kind == "inst" else kid.fact.formula
            beta = subst_many(pr.P(body), {coq_ident(v.name): self._bare(v, e) for v, e in zip(n.vars, n.terms)})
            f = n.fact.formula
            own = n.vars if n.kind == "spec" else ()
            x = f"({self._ref(kid)} {self._inherited(kid, own)}{' '.join('(' + self._arg(v, e) + ')' for v, e in zip(n.vars, n.terms))})"
            alts = [f"exact {x}", f"(intros mbG; exact {x})"]
            # the integer terms Coq's substitution writes otherwise: the whole instance, or under its guard
            br = int_bridge(beta, pr.P(f), "mbX")
            if br:
                alts.append(f"(pose proof {x} as mbX; {br}exact mbX)")
            br = int_bridge(beta, pr.P(f.args[1]), "mbX") if f.op == "implies" else None
            if br:
                alts.append(f"(intros mbG; pose proof {x} as mbX; {br}exact mbX)")
            return f"{intro}first [ " + " | ".join(alts) + " ]"
        # induction over a natural index, from 0 to n
        k, P, nbound = n.fact.rule_args
        base, step = n.kids
        kn = coq_ident(k.name)
        ptext = pr.P(P)
        beta0 = subst_text(ptext, kn, "0")
        b0 = int_bridge(beta0, pr.P(base.fact.formula))
        if b0 is None:
            return None
        step_f = step.fact.formula            # 0 <= k /\ k < n /\ P -> P[k := k + 1]
        beta1 = subst_text(ptext, kn, "(mbm + 1)")
        b1 = int_bridge(beta1, subst_text(pr.P(step_f.args[1]), kn, "mbm"))
        if b1 is None:
            return None
        lem = IND_LEMMA
        return (f"{intro}pose proof {LOGICAL}.Rules.{lem} as mbI; unfold {LOGICAL}.RuleStatements.{lem}_statement in mbI; "
                f"intros mbk mbHk; pattern mbk; apply (mbI _ {pr.nat(nbound)}); clear mbI; "
                f"[ cbv beta; first [ exact ({self._ref(base)} {self._inherited(base)}) | "
                f"({b0}exact ({self._ref(base)} {self._inherited(base)})) ] "
                f"| intros mbm mbHm; cbv beta in mbHm |- *; pose proof ({self._ref(step)} {self._inherited(step, (k,))}mbm mbHm) as mbX; "
                f"first [ exact mbX | ({b1}exact mbX) ] | exact mbHk ]")

    def _leaves_of(self, k) -> list[int]:
        return sorted({n.leaf for n in _nodes(self.trees[k], []) if n.kind == "leaf"})

    def _ind_stmt(self, k) -> str:
        chain = " ->\n  ".join([self.htexts[self.nhyps + j] for j in self._leaves_of(k)] + [self.htexts[k]])
        return f"forall {self.btext},\n  {chain}" if self.btext else chain

    def _ind_intro(self, k) -> str:
        names = list(self.binders) + [f"mbL{j}" for j in self._leaves_of(k)]
        return ("intros " + " ".join(names) + "; ") if names else ""

    def probe_lines(self) -> list[str]:
        out = super().probe_lines()
        for k, tac in self.recon.items():
            if tac:
                out.append(f"  first [ assert ({self._ind_stmt(k)}) by ({self._ind_intro(k)}{tac}); clear; "
                           f"idtac \"MBOK {self.name} {k} 0\" | idtac \"MBNO {self.name} {k}\" ].")
        return out

    def _recon_ok(self, k, ok) -> bool:
        return bool(self.recon.get(k)) and (self.name, k, 0) in ok

    def chosen(self, ok: set) -> list:
        out = super().chosen(ok)
        for k in range(self.nhyps):
            if self.trees[k] is not None:
                out[k] = ("induction",) if self._recon_ok(k, ok) else None
        return out

    def underived(self, ok: set) -> set:
        ch = self.chosen(ok)
        out = set()
        for k in range(self.nhyps):
            if self.trees[k] is None and not self.failed[k]:
                if self.rids[k] is not None and ch[k] is None:
                    out.add((self.name, self.rids[k]))
                continue
            # a hypothesis resting on an induction: every rule under it is this step's use
            inside = self._rules_under(k)
            if self.failed[k] or not self._recon_ok(k, ok):
                out |= {(self.name, r) for r in inside}
                continue
            for j in self._leaves_of(k):
                if self.rids[self.nhyps + j] is not None and ch[self.nhyps + j] is None:
                    out.add((self.name, self.rids[self.nhyps + j]))
        return out

    def _rules_under(self, k) -> set:
        return _rules_in(self.facts[k])

    def texts(self, ok: set, probe: str = "ChecksProbe"):
        ch = self.chosen(ok)
        H = self.nhyps
        need = sorted({j for k in range(H) if ch[k] == ("induction",) for j in self._leaves_of(k)})
        # an alternative's index may be 0: derived means "not None"
        if all(a is None for a in ch[:H]) and all(ch[H + j] is None for j in need):
            return None
        bargs = "".join(f" {b}" for b in self.binders)
        hn = [f"mbH{k}" for k in range(H)]
        leaves_in = [(f"mbL{j}", self.htexts[H + j]) for j in need if ch[H + j] is None]
        hyps_in = [(hn[k], self.htexts[k]) for k in range(H) if ch[k] is None]
        chain = " ->\n  ".join([t for _, t in hyps_in + leaves_in] + [self.gtext])
        stmt = f"forall {self.btext},\n  {chain}" if self.btext else chain
        intro = list(self.binders) + [h for h, _ in hyps_in + leaves_in]
        lines = [f"unfold {self.name}__derived_statement."] + (["intros " + " ".join(intro) + "."] if intro else [])
        for j in need:
            if ch[H + j] is not None:
                lines.append(f"assert (mbL{j} : {self.htexts[H + j]}) by "
                             f"(exact ({LOGICAL}.{probe}.{self.instance_name(H + j, ch[H + j])}{bargs})).")
        extra = ""
        for k in range(H):
            if ch[k] == ("induction",):
                args = " ".join(list(self.binders) + [f"mbL{j}" for j in self._leaves_of(k)])
                lines.append(f"assert ({hn[k]} : {self.htexts[k]}) by (exact ({self.name}__ind{k} {args})).")
                extra += (f"Lemma {self.name}__ind{k} : {self._ind_stmt(k)}.\nProof.\n  "
                          f"{self._ind_intro(k)}{self.recon[k]}.\nQed.\n\n")
            elif ch[k] is not None:
                lines.append(f"assert ({hn[k]} : {self.htexts[k]}) by "
                             f"(exact ({LOGICAL}.{probe}.{self.instance_name(k, ch[k])}{bargs})).")
        lines.append(f"exact ({LOGICAL}.Steps_{self.grp}.{self.name} {' '.join(list(self.small_binders) + hn)}).")
        proof = "\n  ".join(lines)
        return stmt, extra + f"Lemma {self.name}__derived : {self.name}__derived_statement.\nProof.\n  {proof}\nQed.\n\n"


def _rules_in(f) -> set:
    """The rules of every rule fact and induction in the derivation of ``f`` (through inst /
    specialize / induction)."""
    out, stack, seen = set(), [f], set()
    while stack:
        g = stack.pop()
        if id(g) in seen:
            continue
        seen.add(id(g))
        if g.how == "rule":
            out.add(g.rule.split(".", 1)[0])
        elif g.how == "induction":
            out.add("induction")
        if g.how in _DERIVED:
            stack.extend(g.premises)
    return out


_CLASSES: dict = {}


def induction_candidate(base, name, grp, st, hyps, goal, proved, derivable, direct_rule):
    """The candidate of a step with a hypothesis resting on an induction (``base``: the candidate
    class of coq.generate, ``derivable`` / ``direct_rule``: its helpers)."""
    cls = _CLASSES.get(base)
    if cls is None:
        cls = _CLASSES[base] = type("InductionCandidate", (_Induction, base), {})
    try:
        return cls.make(name, grp, st, hyps, goal, proved, derivable, direct_rule)
    except (ExportError, ValueError, TypeError, KeyError, AttributeError, IndexError):
        return None      # no corollary: every rule use of the step is reported not proved in Coq
