"""A rule instance the printer normalises, derived in Coq from its schema lemma.

The printer writes every integer term in a canonical linear form (``k - 1 + 1`` is ``k``), so an
instance of a schema often is not, syntactically, the schema's Coq lemma at any arguments, and
unification does not see through it.  The kernel keeps, on every rule fact, the arguments the
schema was built on; the schema at those arguments, printed with its integer terms *as built*
(``raw``), is what Coq's own instance of the lemma reads, and unification finds it.  The bridge to
the printed instance rewrites each integer term the two forms print differently,
``replace <as built> with <canonical> by lia``, and ends with ``exact``: Coq decides whether the
two statements are the same; Python only proposes the rewrites.  An argument list that does not
give the printed instance (a wrong argument, an instance edited after the fact) leaves a
difference no rewrite removes, and the instance is not derived.
"""
from __future__ import annotations

from proofs.language.formula import Expr

from proofs.language.formula import NAT

from coq.export import CoqPrinter, ExportError, _z_indexed, coq_ident
from coq.intterms import nat_safe

__all__ = ["raw_parts", "raw_formula", "bridge_tactic", "explicit_args", "explicit_tactic", "premise_bridge", "instance_args"]


class RawPrinter(CoqPrinter):
    """The printer, with ``raw`` switched on: integer terms printed as built; ``bridge`` records the
    (as built, canonical) text of every integer term the two forms print differently."""

    def __init__(self, *a):
        super().__init__(*a)
        self.bridge: list[tuple[str, str]] = []

    def _both(self, fn, e: Expr) -> str:
        out = fn(e)
        self.raw = False
        try:
            canon = fn(e)
        finally:
            self.raw = True
        if canon != out and (out, canon) not in self.bridge:
            self.bridge.append((out, canon))
        return out

    def z(self, e: Expr) -> str:
        return self._both(super().z, e) if self.raw else super().z(e)

    def nat(self, e: Expr) -> str:
        return self._both(self._nat_raw, e) if self.raw else super().nat(e)

    def _nat_raw(self, e: Expr) -> str:
        try:
            return super().nat(e)
        except ExportError:          # as built it is an integer term (k - 1 + 1): a natural through Z
            if not self.raw:
                raise
            return f"(Z.to_nat {self.z(e)})"

    def nat_lower(self, lo: Expr) -> str:
        if self.raw and not (lo.sort == NAT and nat_safe(lo)):
            return self._both(super().nat_lower, lo)
        return super().nat_lower(lo)


def raw_formula(f) -> Expr | None:
    """The formula to print as built for a step's hypothesis ``f``: a rule fact's schema rebuilt at
    the arguments the kernel kept; a rule fact at other values of its variables: itself."""
    from proofs.kernel import rules
    if f.how == "rule" and f.rule_args and "." in (f.rule or ""):
        rid, schema = f.rule.split(".", 1)
        try:
            return rules.schema_formula(rid, schema, f.rule_args)
        except (KeyError, TypeError, ValueError):
            return None
    if f.how == "specialize" and f.premises and f.premises[0].how == "rule":
        return f.formula
    return None


def explicit_args(pr, f, lem: str) -> str | None:
    """The arguments the kernel kept on the rule fact ``f``, printed (as built) for the binders of
    the Rules.v lemma ``lem``, in its order; a term of the sum as a function of its index.  None
    when ``f`` is not a rule fact or an argument does not print."""
    import re
    from proofs.language.formula import NAT, REAL
    from coq.rules_coq import lemma_binders
    binders = lemma_binders(lem)
    args = instance_args(f)
    if not args or binders is None:
        return None
    idx = next((a for a in args if a.op == "var" and a is args[0]), None)
    was = pr.raw
    pr.raw, saved = True, pr.bridge
    pr.bridge = []
    try:
        out = []
        for name, typ in binders:
            if name == "dim":
                out.append(_dimension(pr, args))
                continue
            m = re.match(r"^[Fncav](\d+)$", name)
            if not m or int(m.group(1)) >= len(args):
                return None
            e = args[int(m.group(1))]
            typ = typ.strip()
            if "->" not in typ:
                out.append(_term(pr, e, typ))
                continue
            if idx is None:
                return None
            dom, cod = (t.strip() for t in typ.split("->", 1))
            body = _term(pr, e, cod)
            i, isort = coq_ident(idx.name), ("nat" if idx.sort == NAT else "Z")
            if dom == isort:
                out.append(f"(fun {i} : {isort} => {body})")
            elif dom == "Z":
                out.append(f"(fun mbz : Z => (fun {i} : nat => {body}) (Z.to_nat mbz))")
            else:
                out.append(f"(fun mbn : nat => (fun {i} : Z => {body}) (Z.of_nat mbn))")
        return " ".join(out)
    except ExportError:
        return None
    finally:
        pr.raw, pr.bridge = was, saved


def instance_args(f) -> tuple | None:
    """The schema arguments of a rule fact (those the kernel kept), or of a rule fact at other
    values of its variables (``specialize``): the rule fact's arguments with the values put for its
    variables, read off by matching its formula against the specialised one.  Only a proposal: Coq
    decides whether the lemma at those arguments gives the instance."""
    if f.how == "rule":
        return tuple(f.rule_args) or None
    if f.how != "specialize" or not f.premises or f.premises[0].how != "rule" or not f.premises[0].rule_args:
        return None
    from proofs.language.substitution import free_vars, subst
    src = f.premises[0]
    target = f.formula
    m: dict = {}
    vs = {v.name for v in free_vars(src.formula)}
    if not _match(src.formula, target, vs, m):
        # under guards t >= 0 (a natural variable given an integer term): the guarded formula
        if not (target.op == "implies" and len(target.args) == 2 and _match(src.formula, target.args[1], vs, m := {})):
            return None
    mapping = {v: m[v.name] for v in free_vars(src.formula) if v.name in m}
    try:
        return tuple(subst(a, mapping) for a in src.rule_args)
    except Exception:                   # a proposal that cannot be built is no proposal
        return None


def _match(p, t, vs: set, m: dict) -> bool:
    """Does the formula ``t`` arise from ``p`` by putting terms for the variables named in ``vs``
    (recorded in ``m``)?"""
    if p.op == "var" and p.name in vs:
        if p.name in m:
            return m[p.name] == t
        m[p.name] = t
        return True
    if p.op != t.op or len(p.args) != len(t.args) or p.name != t.name or p.value != t.value:
        return False
    if not p.args:
        return p == t
    return all(_match(a, b, vs, m) for a, b in zip(p.args, t.args))


def _dimension(pr, args) -> str:
    """The dimension the printer gives the vectors among a rule's arguments (``dim`` without one)."""
    from proofs.language.formula import VEC
    for a in args:
        if a.sort == VEC:
            try:
                return pr.sp.dim(a)
            except (ExportError, KeyError, AttributeError, TypeError):
                break
    return "dim"


def _term(pr, e, typ: str) -> str:
    from proofs.language.formula import REAL
    if typ == "Z":
        return pr.z(e)
    if typ == "nat":
        return pr.nat(e)
    if typ == "R":
        return pr.R(e) if e.sort == REAL else f"(IZR {pr.z(e)})"
    if typ == "Vec":
        return pr.V(e)
    raise ExportError(f"a rule argument of type {typ}")


def explicit_tactic(name: str, raw: str, pairs, lem_path: str, stmt_path: str, args: str,
                    to_nat: str = "binders") -> str:
    """Prove the goal (a printed instance) from the schema lemma at the kernel's arguments: the
    lemma specialised to them, its terms' index read back through ``Z.to_nat (Z.of_nat i) = i``,
    checked to be ``raw`` (the schema at those arguments as built), then bridged as below.  When
    that fails (the lemma's premises or its terms are written otherwise than the instance's: a
    ``lo >= 0`` the instance does not state, a termwise premise over integer bounds, a real sum of
    integers or an integer sum cast to the reals), ``mbr_bridge`` (RulesLib.v) proves the lemma's
    premises from the instance's and its conclusion from the lemma's, by bounded tactics only.
    ``to_nat``: where the specialised lemma may hold a ``Z.to_nat (Z.of_nat _)`` to read back.
    "binders": the arguments write ``Z.to_nat`` (a term of a sum as a function of its integer index,
    applied under the sum's binder to ``Z.of_nat i``): setoid rewriting, which reaches under binders.
    "bounds": only the lemma's statement writes it, of its bounds, and the arguments put for them are
    closed terms: plain ``rewrite`` reaches them (setoid rewriting costs 0.1-0.7 s a call even when
    it finds nothing; it was a third of the probe's CPU).  "": neither writes ``Z.to_nat``."""
    steps = "".join(f"try (replace {a} with {b} in {name} by lia); " for a, b in pairs)
    spec = (f"pose proof {lem_path} as mbL; unfold {stmt_path} in mbL; specialize (mbL {args}); cbv beta in mbL; "
            + {"binders": "try setoid_rewrite Nat2Z.id in mbL; ", "bounds": "rewrite ?Nat2Z.id in mbL; "}.get(to_nat, ""))
    direct = f"assert ({name} : {raw}) by (exact mbL); clear mbL; {steps}exact {name}"
    return f"mbr_clear_props; {spec}first [ ({direct}) | ({premise_bridge(pairs)}) ]"


def premise_bridge(pairs) -> str:
    """With the lemma specialised in ``mbL``: its integer terms as built rewritten to the printed
    ones where ``lia`` shows them equal, then ``mbr_bridge``: Coq proves the lemma's premises from
    the instance's and the instance's conclusion from the lemma's, or the alternative fails."""
    steps = "".join(f"try (replace {a} with {b} in mbL by lia); " for a, b in pairs)
    return f"{steps}mbr_bridge mbL"


def bridge_tactic(name: str, raw: str, pairs, rule_tac: str) -> str:
    """Prove the goal (a printed instance) from ``raw`` (the schema at its arguments, proved by
    ``rule_tac``), rewriting each (as built, canonical) pair by lia, then ``exact``."""
    steps = "".join(f"try (replace {a} with {b} in {name} by lia); " for a, b in pairs)
    return f"assert ({name} : {raw}) by ({rule_tac}); {steps}exact {name}"


def raw_parts(hyps, goal: Expr, raws) -> list[tuple[str, list[tuple[str, str]]] | None]:
    """For each formula of ``raws`` (None: skipped), printed by the printer of :func:`step_parts`
    (same binders) with its integer terms as built: (text, [(raw, canonical) integer terms])."""
    pr = RawPrinter(_z_indexed(list(hyps) + [goal]), list(hyps) + [goal] + [r for r in raws if r is not None])
    for h in list(hyps) + [goal]:
        pr.P(h)
    pr.binders(list(hyps) + [goal])
    out = []
    for r in raws:
        if r is None:
            out.append(None)
            continue
        pr.raw, pr.bridge = True, []
        try:
            text = pr.P(r)
        except ExportError:
            text = None
        finally:
            pr.raw = False
        out.append((text, list(reversed(pr.bridge))) if text is not None else None)
    return out, pr
