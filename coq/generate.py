"""The generated Coq files: ``Statements.v`` (every catalogue statement, printed from its formula
objects), ``StepStatements_all.v`` (every step obligation of every proof) and one ``Steps_<group>.v``
per group of theorem families (each step lemma with its tactic: the default of Tactics.v or a hint
from :mod:`.hints`); the rule-instance probe (``ChecksProbe_<i>.v``) and the steps' corollaries
without the instances it derives (``StepsDerived.v``)."""
from __future__ import annotations

from coq.export import CoqPrinter, ExportError, statement, step_parts, step_statement
from coq.hints import hint
from coq.hints_winnow import WINNOW_FAMILIES
from coq.names import LOGICAL

__all__ = ["generated_files", "trusted_rules", "rule_uses", "rule_uses_of", "step_group", "LOGICAL", "STEP_STATEMENTS",
           "probe_files", "derived_files"]



# step files by group of families: each coqc run first loads the standard library's reals (~1 s of
# CPU), so the small families share a file; the groups are sized so that the step files (with the
# probe's two) keep two coqc busy (measured at load 7, CPU s: vectors 4.4, experts 5.0, winnow 6.5;
# the 2-D perceptron's own file was 2.1, 0.6 of it loading: it joins the vectors)
_STEP_GROUPS = {"cauchy_schwarz": "vectors", "claim1_correlation_growth": "vectors", "claim2_norm_growth": "vectors",
                "block_novikoff": "vectors", "multiclass_perceptron_bound": "vectors",
                "inseparable_hinge": "vectors", "hinge_exact_form": "vectors", "subgradient_descent": "vectors",
                "kernel_closure": "vectors", "polynomial_kernel": "vectors", "gaussian_kernel": "vectors",
                "kernel_perceptron": "vectors", "kernel_freund_schapire_bound": "vectors",
                "perceptron_2d": "vectors",
                "halving_bound": "experts", "exp_monotone": "experts", "weighted_majority_bound": "experts",
                "weighted_majority_half_bound": "experts",
                "randomized_weighted_majority_bound": "experts", "freund_schapire_bound": "experts",
                "passive_aggressive_bound": "experts", "passive_aggressive_pa1_bound": "experts",
                "passive_aggressive_pa2_bound": "experts",
                "margin_lower_bound": "experts", "two_experts_lower_bound": "experts",
                "disjunction_lower_bound": "experts", "perceptron_orthogonal_run": "experts",
                **{f: "winnow" for f in WINNOW_FAMILIES}}

# every step statement, in one file (a statement file: coq.checks.STATEMENT_FILES_RE)
STEP_STATEMENTS = "StepStatements_all"


# what every step file requires (the last one without importing it)
STEP_REQUIRES = ("Axioms", "Prelude", "VecLemmas", "Tactics", "Hinge")


def step_group(th) -> str:
    fam = th.family or "catalogue"
    return _STEP_GROUPS.get(fam, fam)


def _vec_leaves(formulas) -> list[str]:
    from proofs.language.formula import VEC
    from proofs.language.substitution import walk
    pr = CoqPrinter()
    leaves = set()
    for f in formulas:
        for n in walk(f):
            if n.sort == VEC and n.op in ("var", "call"):
                leaves.add(pr.V(n))
    return sorted(leaves)


def _default_tactic(step, formulas) -> str:
    if step.kind == "identity":
        leaves = _vec_leaves(formulas)
        comm = "".join(f"rewrite ?(dot_comm dim {b} {a}); " for i, a in enumerate(leaves) for b in leaves[i + 1:])
        return f"first [ (intros; mb_expand; {comm}ring) | mb_identity | mb_solve ]."
    return "first [ mb_instance | mb_instances | mb_solve ]."


_RULES: dict[str, set] = {}
_USES: dict[str, set] = {}


def rule_uses(proof) -> set:
    """Every use of a trusted rule in a proof's steps: (rule, schema, variant, step id | None: a use
    no Coq lemma of the step derives).  A rule instance or an induction a step rests on (through
    inst / specialize) is one use; an
    identity sympy decided by linearity of finite sums is a use of finite_sum_linearity that the
    step's own Coq lemma proves (schema "identity")."""
    from coq.rules_coq import schema_variant
    from coq.rules_induction import expandable
    out = set()
    for st in proof.steps:
        if st.kind == "identity":
            from proofs.printers.symbolic import has_symbolic_sum
            if has_symbolic_sum(st.goal):
                out.add(("finite_sum_linearity", "identity", "", st.id))
        for _, top in st.hyps:
            # a rule instance at the top of a hypothesis (itself, or at other values of its
            # variables) is derived from Rules.v by the step's __derived lemma; one inside an
            # induction or an instantiation is not ("nested")
            direct = top.how == "rule" or (top.how == "specialize" and top.premises and top.premises[0].how == "rule")
            # one resting on an induction: the step's corollary derives it (coq.rules_induction)
            direct = direct or expandable(top)
            stack, seen = [top], set()
            while stack:
                f = stack.pop()
                if id(f) in seen:
                    continue
                seen.add(id(f))
                if f.how == "rule":
                    rid, schema = f.rule.split(".", 1)
                    variant = schema_variant(f.formula) if _has_index(rid, schema) else ""
                    out.add((rid, schema, variant, st.id if direct else None))
                elif f.how == "induction":
                    out.add(("induction", "induction", "N", st.id if direct else None))
                if f.how in ("inst", "specialize", "generalize", "induction"):
                    stack.extend(f.premises)
    return out


def rule_uses_of(theorem_id: str, seen=None) -> set:
    """The uses of :func:`rule_uses` of a theorem's proof and of its lemmas' proofs (known after
    :func:`generated_files` built the proofs), each with the theorem it occurs in."""
    seen = set() if seen is None else seen
    if theorem_id in seen or theorem_id not in _RULES:
        return set()
    seen.add(theorem_id)
    out = {(theorem_id,) + u for u in _USES.get(theorem_id, ())}
    for lid in _RULES[theorem_id][1]:
        out |= rule_uses_of(lid, seen)
    return out


def _steps_of(th, built=None):
    """(step, formulas) of a theorem's proof, or an error string when the proof does not build.
    ``built``: proofs already built in this run (theorem id -> ``proofs.verify.runner.Built``)."""
    b = (built or {}).get(th.id)
    if b is None:
        from proofs.verify.runner import build as build_proof
        b = build_proof(th)
    if b.error or b.proof is None:
        return None, b.error or "no proof"
    _RULES[th.id] = (set(b.proof.rules), set(b.proof.lemmas))
    _USES[th.id] = rule_uses(b.proof)
    return [(st, [f.formula for _, f in st.hyps], st.goal) for st in b.proof.steps], ""


def _direct_rule(f) -> str | None:
    """The rule id of a hypothesis that is a rule instance (itself, or at other values of its
    variables); else None."""
    src = f.premises[0] if f.how == "specialize" and f.premises else f
    return src.rule.split(".", 1)[0] if src.how == "rule" else None


def _derivable(f, proved) -> list[str] | None:
    """The proved Rules.v lemmas a step's hypothesis may be an instance of (a rule fact, or one at
    other values of its variables): the schema's lemma in the printer's variant, and the one whose
    lower bound or exponents are natural numbers; None when there is none."""
    from coq.rules_coq import lemma_name, schema_variant
    src = f.premises[0] if f.how == "specialize" and f.premises else f
    if src.how != "rule":
        return None
    rid, schema = src.rule.split(".", 1)
    variant = schema_variant(f.formula) if _has_index(rid, schema) else ""
    # an integer sum beside a real one (sum_mono of 1 <= w_i): the real lemma, its integer terms cast
    tries = (variant, variant + "/nat") + (("N", "N/nat") if variant == "NZ" else ())
    out = [lemma_name(rid, schema, v) for v in tries if (rid, schema, v) in proved]
    return out or None


def _has_index(rid, schema) -> bool:
    from proofs.kernel import rules
    return "var" in rules.RULES[rid].schemas[schema][0]


class Candidate:
    """A step whose hypotheses include rule instances Rules.v proves: the step lemma's corollary
    without them is derived once Coq showed each instance follows from its lemma (the probe)."""

    def __init__(self, name, grp, binders, btext, htexts, gtext, lemmas, rids=(), raws=(), explicit=()):
        self.name, self.grp, self.binders, self.btext = name, grp, binders, btext
        self.htexts, self.gtext, self.lemmas = htexts, gtext, lemmas
        self.rids = list(rids) or [None] * len(htexts)       # the rule of each hypothesis that is an instance
        # each hypothesis's schema at the arguments the kernel kept, printed as built, with the
        # (as built, canonical) integer terms to bridge (coq.bridge); None: none
        self.raws = list(raws) or [None] * len(htexts)
        # per hypothesis: lemma -> the kernel's arguments of the instance printed for its binders
        self.explicit = list(explicit) or [{}] * len(htexts)

    def _alts(self, k) -> list[tuple]:
        """The ways to derive hypothesis k: each lemma by unification; at the kernel's arguments,
        bridged; by unification with the schema as built, bridged."""
        lems = self.lemmas[k] or []
        raw = self.raws[k]
        out = [(lem, None, None) for lem in lems]
        if raw:
            # at the kernel's arguments the natural-number variant first: the printed instances'
            # lower bounds are natural numbers, and a variant that does not fit fails only after a
            # long conversion (measured: the probe's CPU time 18.9 s against 15.4 s); the printer's
            # own variant before the fallback of an integer sum (NZ before N: 25 instances fit the
            # first, 9 the second)
            bases = list(dict.fromkeys(lem.removesuffix("__nat") for lem in lems))
            order = sorted(lems, key=lambda lem: (bases.index(lem.removesuffix("__nat")), not lem.endswith("__nat")))
            out += [(lem, raw, self.explicit[k][lem]) for lem in order if self.explicit[k].get(lem)]
            out += [(lem, raw, None) for lem in lems] if raw[1] else []
        return out

    def _tac(self, lem, raw, args) -> str:
        from coq.bridge import bridge_tactic, explicit_tactic
        if raw is None:
            return _mb_rule(lem)
        if args is not None:
            from coq.rules_coq import lemma_statement_text
            to_nat = "binders" if "Z.to_nat" in args or lemma_statement_text(lem) is None else \
                "bounds" if "Z.to_nat" in lemma_statement_text(lem) else ""
            return explicit_tactic("mbR", raw[0], raw[1], f"{LOGICAL}.Rules.{lem}",
                                   f"{LOGICAL}.RuleStatements.{lem}_statement", args, to_nat)
        return bridge_tactic("mbR", raw[0], raw[1], _mb_rule(lem))

    def instance_name(self, k: int, a: int) -> str:
        """The probe's lemma of hypothesis k derived by alternative a (``abstract ... using``)."""
        return f"{self.name}__mbI{k}_{a}"

    def probe_lines(self) -> list[str]:
        """Each alternative proves the hypothesis, closed over the step's binders, as a lemma of its
        own (``abstract ... using``): the derived corollary uses that very lemma (its statement
        converted by Coq's kernel) instead of running the tactic again."""
        out = []
        for k, text in enumerate(self.htexts):
            alts = self._alts(k)
            if alts:
                inst = f"forall {self.btext}, {text}" if self.btext else text
                intro = ("intros " + " ".join(self.binders) + "; ") if self.binders else ""
                tries = " | ".join(f"assert ({inst}) by (abstract ({'intros; ' if raw is None else intro}"
                                   f"{self._tac(lem, raw, args)}) using {self.instance_name(k, a)}); "
                                   f"clear; idtac \"MBOK {self.name} {k} {a}\"" for a, (lem, raw, args) in enumerate(alts))
                out.append(f"  first [ {tries} | idtac \"MBNO {self.name} {k}\" ].")
        return out

    def chosen(self, ok: set) -> list[int | None]:
        """The alternative each hypothesis is derived by (the first one Coq derived it by in the
        probe, ``ok``: (name, k, alternative)); None where it is not derived."""
        out = []
        for k in range(len(self.lemmas)):
            got = [a for a in range(len(self._alts(k))) if (self.name, k, a) in ok]
            out.append(min(got) if got else None)
        return out

    def underived(self, ok: set) -> set:
        """(step lemma, rule) of every rule instance among the hypotheses that Coq did not derive."""
        return {(self.name, r) for r, a in zip(self.rids, self.chosen(ok)) if r is not None and a is None}

    def texts(self, ok: set, probe: str = "ChecksProbe") -> tuple[str, str] | None:
        """(statement, lemma) with the instances Coq derived (``ok``: (name, k, alternative)), each
        taken from the probe's lemma of it (module ``probe``); None if none."""
        chosen = self.chosen(ok)
        if all(a is None for a in chosen):
            return None
        leaves = [h for h, a in zip(self.htexts, chosen) if a is None]
        chain = " ->\n  ".join(leaves + [self.gtext])
        stmt = f"forall {self.btext},\n  {chain}" if self.btext else chain
        hn = [f"mbH{k}" for k in range(len(self.htexts))]
        intro = self.binders + [h for h, a in zip(hn, chosen) if a is None]
        lines = [f"unfold {self.name}__derived_statement."] + (["intros " + " ".join(intro) + "."] if intro else [])
        args = "".join(f" {b}" for b in self.binders)
        for k, (h, text, a) in enumerate(zip(hn, self.htexts, chosen)):
            if a is not None:
                lines.append(f"assert ({h} : {text}) by (exact ({LOGICAL}.{probe}.{self.instance_name(k, a)}{args})).")
        if hn:
            lines.append("revert " + " ".join(hn) + ".")
        if self.binders:
            lines.append("revert " + " ".join(self.binders) + ".")
        lines.append(f"exact {LOGICAL}.Steps_{self.grp}.{self.name}.")
        proof = "\n  ".join(lines)
        return stmt, f"Lemma {self.name}__derived : {self.name}__derived_statement.\nProof.\n  {proof}\nQed.\n\n"


def _mb_rule(lem: str) -> str:
    return f"mb_rule {LOGICAL}.Rules.{lem} {LOGICAL}.RuleStatements.{lem}_statement"


def _candidate(name, grp, st, hyps, goal, proved) -> Candidate | None:
    from coq.rules_induction import expandable, induction_candidate
    if any(expandable(f) for _, f in st.hyps):
        return induction_candidate(Candidate, name, grp, st, hyps, goal, proved, _derivable, _direct_rule)
    lemmas = [_derivable(f, proved) for _, f in st.hyps]
    if not any(lemmas):
        return None
    from coq.bridge import explicit_args, raw_formula, raw_parts
    binders, btext, htexts, gtext = step_parts(hyps, goal)
    raws, pr = raw_parts(hyps, goal, [raw_formula(f) if lem else None for lem, (_, f) in zip(lemmas, st.hyps)])
    explicit = [{lem: explicit_args(pr, f, lem) for lem in (lems or ())} for lems, (_, f) in zip(lemmas, st.hyps)]
    return Candidate(name, grp, binders, btext, htexts, gtext, lemmas, [_direct_rule(f) for _, f in st.hyps], raws,
                     explicit)


CANDIDATES: list = []          # filled by generated_files


PROBE_FILES = 2      # the probe in this many files, compiled side by side (two coqc at a time)


def probe_file(cands, name: str = "mb_probe") -> str:
    """One proof that tries every candidate instance (a failure is printed, not fatal); each instance
    derived is a lemma of its own (``abstract ... using``), kept because the proof ends with
    ``Defined`` (with ``Qed`` Coq inlines them), kernel-checked like any other."""
    lines = [f"Require Import {LOGICAL}.Axioms {LOGICAL}.Prelude {LOGICAL}.Tactics {LOGICAL}.RulesLib.",
             f"Require {LOGICAL}.Rules {LOGICAL}.RuleStatements.", "Open Scope R_scope.",
             f"Lemma {name} : True.", "Proof."]
    for c in cands:
        lines += c.probe_lines()
    lines += ["  exact I.", "Defined."]
    return "\n".join(lines) + "\n"


def _probe_split(cands) -> dict:
    sizes = [0] * PROBE_FILES
    out = {}
    for c in cands:
        i = min(range(PROBE_FILES), key=lambda j: sizes[j])
        sizes[i] += sum(len(x) for x in c.probe_lines())
        out[c.name] = f"ChecksProbe_{i + 1}"
    return out


def probe_files(cands) -> dict[str, str]:
    """The rule-instance probe, split over :data:`PROBE_FILES` files (file name -> text)."""
    where = _probe_split(cands)
    out = {}
    for i in range(PROBE_FILES):
        mod = f"ChecksProbe_{i + 1}"
        mine = [c for c in cands if where[c.name] == mod]
        if mine:
            out[mod + ".v"] = probe_file(mine, f"mb_probe_{i + 1}")
    return out


def derived_files(cands, ok: set) -> dict[str, str]:
    """StepStatements_derived.v and StepsDerived.v for the instances Coq derived in the probe."""
    stmts, lemmas, groups, probes = [], [], set(), set()
    where = _probe_split(cands)
    for c in cands:
        t = c.texts(ok, where[c.name])
        if t is None:
            continue
        groups.add(c.grp)
        probes.add(where[c.name])
        stmts.append(f"Definition {c.name}__derived_statement : Prop :=\n  {t[0]}.\n\n")
        lemmas.append(t[1])
    if not lemmas:
        return {}
    head = "(* Generated by coq.build: do not edit. *)\n"
    return {
        "StepStatements_derived.v": head + f"Require Import {LOGICAL}.Axioms {LOGICAL}.Prelude.\nOpen Scope R_scope.\n\n"
        + "".join(stmts),
        "StepsDerived.v": head + "(* Each step lemma without the rule instances it assumes: every instance proved from\n"
        "   its lemma in Rules.v (a lemma of the probe), then the step lemma applies. *)\n"
        f"Require Import {LOGICAL}.Axioms {LOGICAL}.Prelude {LOGICAL}.StepStatements_derived.\n"
        f"Require " + " ".join(f"{LOGICAL}.{m}" for m in sorted(probes))
        + " " + " ".join(f"{LOGICAL}.Steps_{g}" for g in sorted(groups)) + ".\nOpen Scope R_scope.\n\n" + "".join(lemmas)}



def trusted_rules(theorem_id: str, seen=None) -> list[str]:
    """The trusted rules the suite's proof of a theorem rests on, its lemmas' included (known after
    :func:`generated_files` built the proofs)."""
    seen = set() if seen is None else seen
    if theorem_id in seen or theorem_id not in _RULES:
        return []
    seen.add(theorem_id)
    own, lemmas = _RULES[theorem_id]
    out = set(own)
    for lid in lemmas:
        out |= set(trusted_rules(lid, seen))
    return sorted(out)


def generated_files(theorems, built=None) -> tuple[dict[str, str], dict[str, list], dict[str, str]]:
    """Statements.v and Steps_<family>.v for the given theorems (``built``: their proofs, when this
    run has built them already).

    Returns (files, steps: theorem id -> [(step id, lemma name | None, reason)], statement errors)."""
    head = f"Require Import {LOGICAL}.Axioms {LOGICAL}.Prelude.\nOpen Scope R_scope.\n\n"
    parts = ["(* Generated by coq.build from the catalogue's formula objects: do not edit. *)\n", head]
    errors: dict[str, str] = {}
    for th in theorems:
        try:
            parts.append(f"(* {th.id}: {th.kind} *)\nDefinition {th.id}_statement : Prop :=\n  {statement(th)}.\n\n")
        except ExportError as e:
            errors[th.id] = f"statement not exportable: {e}"
    proof_errors: dict[str, str] = {}
    files = {"Statements.v": "".join(parts)}
    from coq.rules_coq import rules_files
    rfiles, proved = rules_files()
    files.update(rfiles)
    CANDIDATES.clear()
    steps: dict[str, list] = {}
    fam_parts: dict[str, list] = {}
    stmt_parts: dict[str, list] = {}
    shead = (f"(* Generated by coq.build from the formulas of each proof step: do not edit. *)\n"
             f"Require Import {' '.join(f'{LOGICAL}.{m}' for m in STEP_REQUIRES[:-1])}.\n"
             f"Require {LOGICAL}.{STEP_REQUIRES[-1]}.\n"
             f"Open Scope R_scope.\n")
    for th in theorems:
        if th.kind != "theorem":
            continue
        got, err = _steps_of(th, built)
        if got is None:
            steps[th.id] = []
            proof_errors[th.id] = f"the proof does not build: {err}"
            continue
        rows = []
        grp = step_group(th)
        for st, hyps, goal in got:
            name = f"{th.id}__{st.id}"
            try:
                stmt = step_statement(hyps, goal)
            except ExportError as e:
                rows.append((st.id, None, str(e)))
                continue
            tac = (hint(th.id, st.id, th.family) or _default_tactic(st, hyps + [goal])).strip()
            tac = tac if tac.endswith(".") else tac + "."
            stmt_parts.setdefault(grp, []).append(
                f"(* {th.id} / {st.id} ({st.kind}) *)\nDefinition {name}_statement : Prop :=\n  {stmt}.\n\n")
            fam_parts.setdefault(grp, []).append(
                f"(* {th.id} / {st.id} ({st.kind}) *)\nLemma {name} : {name}_statement.\n"
                f"Proof.\n  unfold {name}_statement.\n  {tac.strip()}\nQed.\n\n")
            c = _candidate(name, grp, st, hyps, goal, proved)
            if c is not None:
                CANDIDATES.append(c)
            rows.append((st.id, name, ""))
        steps[th.id] = rows
    if stmt_parts:
        files[f"{STEP_STATEMENTS}.v"] = (
            "(* Generated by coq.build from the formulas of each proof step: do not edit. *)\n"
            f"Require Import {LOGICAL}.Axioms {LOGICAL}.Prelude.\nOpen Scope R_scope.\n\n"
            + "".join(p for grp in sorted(stmt_parts) for p in stmt_parts[grp]))
    for fam, ps in fam_parts.items():
        files[f"Steps_{fam}.v"] = (shead + f"Require Import {LOGICAL}.{STEP_STATEMENTS}.\n\n" + "".join(ps))
    return files, steps, errors
