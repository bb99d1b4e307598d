"""The suite's trusted rules, proved in Coq.

Every schema of every trusted rule (``proofs.kernel.rules.RULES``) is printed from the schema object itself,
on generic arguments (an index ``i``, bounds, a term ``F(i)`` of the sum, coefficients), into the
generated ``RuleStatements.v`` as ``Definition rule__<rule>__<schema>__<variant>_statement``, once per
way the printer reads it (an integer or a natural-number index; a real or an integer term).  The
generated ``Rules.v`` proves each one with the tactic below (``RulesLib.v`` holds the lemmas about
the sums, powers of two and lg); Coq checks each lemma against its statement with the catalogue's
checks.  A schema whose statement does not print, or that has no proof here, is reported as a
trusted rule *not* proved in Coq.  ``induction`` is Coq's own principle (``Rules.v`` proves the
schema the kernel applies, over the integers, by ``Z`` well-founded induction).
"""
from __future__ import annotations

from proofs.language.formula import INT, NAT, REAL, VEC, Expr, Int, Real, Vec

from coq.export import ExportError, step_statement
from coq.names import LOGICAL

__all__ = ["lemma_name", "lemma_binders", "rule_lemmas", "rules_files", "schema_variant", "RULE_PROOFS"]

VAR, NUM = "var", "num"

# the positions of the arguments that are terms of the sum (functions of the index)
_BODY_ARGS = {"sum_empty": (2,), "sum_succ": (3,), "sum_nonneg": (3,), "sum_linear": (4, 6), "sum_scale": (4,),
              "sum_mono": (3, 4), "sum_const": (), "sum_term_le": (3,), "sum_split": (4,),
              "vsum_empty": (2,), "vsum_succ": (3,), "gram_nonneg": (3, 4)}

# variants: (index sort, sort of the numbers)
_VARIANTS = {"Z": (INT, REAL), "N": (NAT, REAL), "NZ": (NAT, INT)}

_SUM_Z = "intros; unfold sum_inclZ in *"
_SUM_N = "intros; unfold sum_incl in *"
_ZSUM_N = "intros; unfold zsum_incl in *"
# sum_succ over a natural index: the range grows by one term, at position hi + 1
_SUCC_N = ("intros F lo hi [H1 H2]; unfold {u}; "
           "replace (Z.to_nat (hi + 1 + 1) - Z.to_nat lo)%nat with (S (Z.to_nat (hi + 1) - Z.to_nat lo)) by lia; "
           "cbn [{s}]; f_equal; f_equal; lia.")
_SPLIT_N = ("intros F lo m hi [H1 H2]; unfold {u}; "
            "replace (Z.to_nat (hi + 1) - Z.to_nat lo)%nat with "
            "((Z.to_nat (m + 1) - Z.to_nat lo) + (Z.to_nat (hi + 1) - Z.to_nat (m + 1)))%nat by lia; "
            "rewrite {s}_split; f_equal; apply {s}_ext; intros k Hk; f_equal; lia.")
_VSUM_EMPTY = ("intros dim F lo; unfold vsum_incl; "
               "replace (Z.to_nat (lo - 1 + 1) - Z.to_nat lo)%nat with 0%nat by lia; intros k Hk; reflexivity.")
_VSUM_SUCC = ("intros dim F lo hi [H1 H2]; unfold vsum_incl; "
              "replace (Z.to_nat (hi + 1 + 1) - Z.to_nat lo)%nat with (S (Z.to_nat (hi + 1) - Z.to_nat lo)) by lia; "
              "cbn [vsum_lt]; intros k Hk; unfold vadd; f_equal; "
              "replace (Z.of_nat (Z.to_nat lo + (Z.to_nat (hi + 1) - Z.to_nat lo))) with (hi + 1)%Z by lia; "
              "reflexivity.")
_GRAM_N = ("intros dim b x s n Hs; apply Rle_ge; unfold sum_incl; "
           "apply (gram_exp_nonneg dim s _ (fun k => b (0 + k)%nat) (fun k => x (0 + k)%nat)); lra.")
_SUCC_NAT = ("intros F lo hi H; unfold {u}; "
             "replace (Z.to_nat (hi + 1 + 1) - lo)%nat with (S (Z.to_nat (hi + 1) - lo)) by lia; "
             "cbn [{s}]; f_equal; f_equal; lia.")
_TERM_NAT = ("intros F lo hi j [Hn [H1 H2]]; unfold {u}; "
             "replace (F j) with (F (Z.of_nat (lo + Z.to_nat (j - Z.of_nat lo))%nat)) by (f_equal; lia); "
             "apply ({s}_term _ (fun k => F (Z.of_nat (lo + k)%nat))); [intros k Hk; apply {ge}, Hn; lia | lia].")
_SPLIT_NAT = ("intros F lo m hi [H1 H2]; unfold {u}; "
              "replace (Z.to_nat (hi + 1) - lo)%nat with "
              "((Z.to_nat (m + 1) - lo) + (Z.to_nat (hi + 1) - Z.to_nat (m + 1)))%nat by lia; "
              "rewrite {s}_split; f_equal; apply {s}_ext; intros k Hk; f_equal; lia.")
RULE_PROOFS_BASE: dict[tuple[str, str, str], str] = {
    ("finite_sum_linearity", "dot_nonneg", ""): "intros; apply Rle_ge, dot_self_nonneg.",
    ("finite_sum_linearity", "sum_empty", "Z"): _SUM_Z + "; replace (_ - 1 - _ + 1)%Z with 0%Z by ring; reflexivity.",
    ("finite_sum_linearity", "sum_empty", "N"): _SUM_N + "; replace (Z.to_nat (_ - 1 + 1) - _)%nat with 0%nat by lia; reflexivity.",
    ("finite_sum_linearity", "sum_nonneg", "Z"):
        _SUM_Z + "; match goal with H : forall _, _ |- _ => apply Rle_ge, sum_lt_nonneg; intros j Hj; "
        "apply Rge_le, H; lia end.",
    ("finite_sum_linearity", "sum_nonneg", "N"):
        _SUM_N + "; match goal with H : forall _, _ |- _ => apply Rle_ge, sum_lt_nonneg; intros j Hj; "
        "apply Rge_le, H; lia end.",
    ("finite_sum_linearity", "sum_mono", "Z"):
        _SUM_Z + "; match goal with H : forall _, _ |- _ => apply sum_lt_le; intros j Hj; apply H; lia end.",
    ("finite_sum_linearity", "sum_mono", "N"):
        _SUM_N + "; match goal with H : forall _, _ |- _ => apply sum_lt_le; intros j Hj; apply H; lia end.",
    ("finite_sum_linearity", "sum_scale", "Z"): _SUM_Z + "; apply sum_lt_scal.",
    ("finite_sum_linearity", "sum_scale", "N"): _SUM_N + "; apply sum_lt_scal.",
    ("finite_sum_linearity", "sum_linear", "Z"): _SUM_Z + "; rewrite sum_lt_add, !sum_lt_scal; reflexivity.",
    ("finite_sum_linearity", "sum_linear", "N"): _SUM_N + "; rewrite sum_lt_add, !sum_lt_scal; reflexivity.",
    ("finite_sum_linearity", "sum_const", "Z"):
        _SUM_Z + "; rewrite sum_lt_const, INR_IZR_INZ, Z2Nat.id by lia; "
        "match goal with |- IZR ?a * ?c = IZR ?b * ?c => replace a with b by ring; reflexivity end.",
    ("finite_sum_linearity", "sum_succ", "Z"):
        _SUM_Z + "; match goal with |- sum_lt (Z.to_nat (?h + 1 - ?l + 1)) _ = _ => "
        "replace (Z.to_nat (h + 1 - l + 1)) with (S (Z.to_nat (h - l + 1))) by lia; simpl; "
        "f_equal; f_equal; lia end.",
    ("finite_sum_linearity", "sum_term_le", "Z"):
        "intros F lo hi j [Hn [H1 H2]]; unfold sum_inclZ; "
        "replace (F j) with (F (lo + Z.of_nat (Z.to_nat (j - lo)))%Z) by (f_equal; lia); "
        "apply (sum_lt_term _ (fun k => F (lo + Z.of_nat k)%Z)); [intros k Hk; apply Rge_le, Hn; lia | lia].",
    ("finite_sum_linearity", "sum_split", "Z"):
        "intros F lo m hi [H1 H2]; unfold sum_inclZ; "
        "replace (Z.to_nat (hi - lo + 1)) with (Z.to_nat (m - lo + 1) + Z.to_nat (hi - (m + 1) + 1))%nat by lia; "
        "rewrite sum_lt_split; f_equal; apply sum_lt_ext; intros k Hk; f_equal; lia.",
    ("finite_sum_linearity", "sum_succ", "N"): _SUCC_N.format(s="sum_lt", u="sum_incl"),
    ("finite_sum_linearity", "sum_const", "N"):
        _SUM_N + "; rewrite sum_lt_const, INR_IZR_INZ; f_equal; f_equal; lia.",
    ("finite_sum_linearity", "sum_term_le", "N"):
        "intros F lo hi j [H0 [Hn [H1 H2]]]; unfold sum_incl; "
        "replace (F j) with (F (Z.of_nat (Z.to_nat lo + Z.to_nat (j - lo))%nat)) by (f_equal; lia); "
        "apply (sum_lt_term _ (fun k => F (Z.of_nat (Z.to_nat lo + k)%nat))); "
        "[intros k Hk; apply Rge_le, Hn; lia | lia].",
    ("finite_sum_linearity", "sum_split", "N"): _SPLIT_N.format(s="sum_lt", u="sum_incl"),
    # the same laws for a sum of integers over a natural index (zsum_incl)
    ("finite_sum_linearity", "sum_empty", "NZ"):
        _ZSUM_N + "; replace (Z.to_nat (_ - 1 + 1) - _)%nat with 0%nat by lia; reflexivity.",
    ("finite_sum_linearity", "sum_succ", "NZ"): _SUCC_N.format(s="zsum_lt", u="zsum_incl"),
    ("finite_sum_linearity", "sum_nonneg", "NZ"):
        _ZSUM_N + "; match goal with H : forall _, _ |- _ => apply Z.le_ge, zsum_lt_nonneg; intros j Hj; "
        "apply Z.ge_le, H; lia end.",
    ("finite_sum_linearity", "sum_linear", "NZ"): _ZSUM_N + "; rewrite zsum_lt_add, !zsum_lt_scal; reflexivity.",
    ("finite_sum_linearity", "sum_scale", "NZ"): _ZSUM_N + "; apply zsum_lt_scal.",
    ("finite_sum_linearity", "sum_mono", "NZ"):
        _ZSUM_N + "; match goal with H : forall _, _ |- _ => apply zsum_lt_le; intros j Hj; apply H; lia end.",
    ("finite_sum_linearity", "sum_const", "NZ"): _ZSUM_N + "; rewrite zsum_lt_const; f_equal; lia.",
    ("finite_sum_linearity", "sum_term_le", "NZ"):
        "intros F lo hi j [H0 [Hn [H1 H2]]]; unfold zsum_incl; "
        "replace (F j) with (F (Z.of_nat (Z.to_nat lo + Z.to_nat (j - lo))%nat)) by (f_equal; lia); "
        "apply (zsum_lt_term _ (fun k => F (Z.of_nat (Z.to_nat lo + k)%nat))); "
        "[intros k Hk; apply Z.ge_le, Hn; lia | lia].",
    ("finite_sum_linearity", "sum_split", "NZ"): _SPLIT_N.format(s="zsum_lt", u="zsum_incl"),
    ("vector_sums", "vsum_empty", "N"): _VSUM_EMPTY,
    ("vector_sums", "vsum_empty", "NZ"): _VSUM_EMPTY,
    ("vector_sums", "vsum_succ", "N"): _VSUM_SUCC,
    ("vector_sums", "vsum_succ", "NZ"): _VSUM_SUCC,
    ("exp_power_series", "gram_nonneg", "Z"):
        "intros dim b x s n Hs; apply Rle_ge; unfold sum_inclZ; "
        "apply (gram_exp_nonneg dim s _ (fun k => b (0 + Z.of_nat k)%Z) (fun k => x (0 + Z.of_nat k)%Z)); lra.",
    ("exp_power_series", "gram_nonneg", "N"): _GRAM_N,
    ("exp_power_series", "gram_nonneg", "NZ"): _GRAM_N,
    ("exp_tangent", "exp_ge_tangent", ""): "intros; apply exp_ineq1_le.",
    # exp(-a) <= 1 - a + a^2/2 for a >= 0: exp's Taylor sums up to a^3/6 are below exp(a), then 1/exp(a)
    ("exp_quadratic", "exp_neg_le_quadratic", ""): r"""intros a H.
  pose (f := fun k => / INR (fact k) * a ^ k).
  assert (Fpos : forall k, 0 <= f k)
    by (intros k; unfold f; apply Rmult_le_pos; [left; apply Rinv_0_lt_compat, INR_fact_lt_0 | apply pow_le; lra]).
  assert (Mono : forall k, sum_f_R0 f 3 <= sum_f_R0 f (3 + k)).
  { intros k. induction k as [|k IH]; [rewrite Nat.add_0_r; lra|].
    replace (3 + S k)%nat with (S (3 + k)) by lia.
    change (sum_f_R0 f (S (3 + k))) with (sum_f_R0 f (3 + k) + f (S (3 + k))).
    pose proof (Fpos (S (3 + k))); lra. }
  assert (S3 : sum_f_R0 f 3 = 1 + a + a * a / 2 + a * a * a / 6) by (unfold f; simpl; field).
  assert (T3 : 1 + a + a * a / 2 + a * a * a / 6 <= exp a).
  { rewrite <- S3. destruct (Rle_or_lt (sum_f_R0 f 3) (exp a)) as [|L]; [assumption|exfalso].
    destruct (Mistakebound.Gaussian.exp_taylor a (sum_f_R0 f 3 - exp a) ltac:(lra)) as [N HN].
    specialize (HN (3 + N)%nat ltac:(lia)). specialize (Mono N). unfold R_dist in HN. fold f in HN.
    apply Rabs_def2 in HN. lra. }
  rewrite exp_Ropp. assert (P : 0 < 1 + a + a * a / 2 + a * a * a / 6) by nra.
  apply Rle_trans with (/ (1 + a + a * a / 2 + a * a * a / 6)); [apply Rinv_le_contravar; lra|].
  apply Rmult_le_reg_l with (1 + a + a * a / 2 + a * a * a / 6); [exact P|]. rewrite Rinv_r by lra.
  assert (0 <= a * a * a * (2 + a + a * a)) by (apply Rmult_le_pos; [apply Rmult_le_pos; [apply Rmult_le_pos|]|]; nra).
  nra.""",
}
RULE_PROOFS: dict[tuple[str, str, str], str] = {
    **RULE_PROOFS_BASE,
    # the lower bound of a sum a natural number (an instance from 0, or from any natural term)
    **{("finite_sum_linearity", name, v + "/nat"): RULE_PROOFS_BASE[("finite_sum_linearity", name, v)]
       for name in ("sum_empty", "sum_nonneg", "sum_linear", "sum_scale", "sum_mono", "sum_const") for v in ("N", "NZ")},
    ("finite_sum_linearity", "sum_succ", "N/nat"): _SUCC_NAT.format(s="sum_lt", u="sum_incl"),
    ("finite_sum_linearity", "sum_succ", "NZ/nat"): _SUCC_NAT.format(s="zsum_lt", u="zsum_incl"),
    ("finite_sum_linearity", "sum_term_le", "N/nat"): _TERM_NAT.format(s="sum_lt", u="sum_incl", ge="Rge_le"),
    ("finite_sum_linearity", "sum_term_le", "NZ/nat"): _TERM_NAT.format(s="zsum_lt", u="zsum_incl", ge="Z.ge_le"),
    ("finite_sum_linearity", "sum_split", "N/nat"): _SPLIT_NAT.format(s="sum_lt", u="sum_incl"),
    ("finite_sum_linearity", "sum_split", "NZ/nat"): _SPLIT_NAT.format(s="zsum_lt", u="zsum_incl"),
    **{("vector_sums", "vsum_empty", v): "intros dim F lo; unfold vsum_incl; replace (Z.to_nat (Z.of_nat lo - 1 + 1) - lo)%nat "
       "with 0%nat by lia; intros k Hk; reflexivity." for v in ("N/nat", "NZ/nat")},
    **{("vector_sums", "vsum_succ", v): "intros dim F lo hi H; unfold vsum_incl; replace (Z.to_nat (hi + 1 + 1) - lo)%nat with "
       "(S (Z.to_nat (hi + 1) - lo)) by lia; cbn [vsum_lt]; intros k Hk; unfold vadd; f_equal; "
       "replace (Z.of_nat (lo + (Z.to_nat (hi + 1) - lo))) with (hi + 1)%Z by lia; reflexivity." for v in ("N/nat", "NZ/nat")},
    ("pow2_log2", "pow2_succ", "/nat"): "intros; unfold pow2; rewrite Nat.add_1_r; simpl; ring.",
    ("pow2_log2", "pow2_pos", "/nat"): "intros; unfold pow2; apply Rlt_gt, pow_lt; lra.",
    ("pow2_log2", "lg_pow2", "/nat"): "intros; unfold pow2; rewrite <- pow2Z_nat, lg_pow2Z, <- INR_IZR_INZ; reflexivity.",
    ("pow2_log2", "pow2_increasing", "/nat"): "intros a b H; unfold pow2; rewrite <- !pow2Z_nat; apply pow2Z_mono; lia.",
    ("natural_powers", "pow_succ", "/nat"): "intros; rewrite Nat.add_1_r; simpl; ring.",
    ("natural_powers", "tensor_pow_succ", "/nat"): "intros dim k v H; rewrite Nat.add_1_r; intros j Hj; reflexivity.",
    ("pow2_log2", "pow2_zero", ""): "reflexivity.",
    ("pow2_log2", "pow2_succ", ""): "intros; rewrite pow2Z_add; unfold pow2Z at 2; simpl; ring.",
    ("pow2_log2", "pow2_pos", ""): "intros; apply Rlt_gt, pow2Z_pos.",
    ("pow2_log2", "lg_pow2", ""): "intros; apply lg_pow2Z.",
    ("pow2_log2", "lg_strictly_increasing", ""): "intros a b [H1 H2]; apply lg_lt; lra.",
    ("pow2_log2", "pow2_increasing", ""): "intros; apply pow2Z_mono; assumption.",
    ("exp_laws", "exp_add", ""): "intros; apply exp_plus.",
    ("exp_laws", "exp_pos", ""): "intros; apply Rlt_gt, exp_pos.",
    ("exp_laws", "exp_zero", ""): "exact exp_0.",
    ("sqrt_def", "sqrt_sq", ""): "intros a H; split; [apply Rle_ge, sqrt_pos | apply sqrt_sqrt; lra].",
    ("natural_powers", "pow_zero", ""): "intros; reflexivity.",
    ("natural_powers", "pow_succ", ""):
        "intros a n H; rewrite <- (Z2Nat.id n ltac:(lia)); replace (Z.of_nat (Z.to_nat n) + 1)%Z with "
        "(Z.of_nat (S (Z.to_nat n))) by lia; rewrite <- !pow_powerRZ; simpl; ring.",
    ("natural_powers", "tensor_pow_zero", ""): "intros; intros i _; reflexivity.",
    ("induction", "induction", ""):
        "intros P n H0 HS j [Hj Hjn]; rewrite <- (Z2Nat.id j Hj) in *; induction (Z.to_nat j) as [|m IH]; "
        "[exact H0 | rewrite Nat2Z.inj_succ, <- Z.add_1_r; apply HS; split; [lia | split; [lia | apply IH; lia]]].",
    ("induction", "induction", "N"):
        "intros P n H0 HS j [_ Hj]; revert Hj; induction j as [|m IH]; intros Hj; "
        "[exact H0 | rewrite <- Nat.add_1_r; apply HS; split; [lia | split; [lia | apply IH; lia]]].",
}


def _generic(rule_id: str, name: str, sorts, variant: str, nat: bool = False):
    """The generic arguments of a schema in one variant (None when the variant does not apply);
    ``nat``: the integer arguments of a schema without index, and the lower bound of a sum, are
    natural-number variables (the printer writes a natural differently from an integer: the form an
    instance on naturals has, e.g. a sum from 0)."""
    from proofs.language.formula import Nat, Seq
    idx_sort, num_sort = _VARIANTS.get(variant, (INT, REAL))
    body = _BODY_ARGS.get(name, ())
    idx = [k for k, s in enumerate(sorts) if s == VAR]
    if bool(idx) != bool(variant):
        return None
    names = "ijk"
    ivars = {k: Expr("var", name=names[n], sort=idx_sort) for n, k in enumerate(idx)}
    main = ivars[idx[0]] if idx else None
    out = []
    for k, s in enumerate(sorts):
        if s == VAR:
            out.append(ivars[k])
        elif k in body:
            sort = num_sort if s == NUM else s
            out.append(Seq(f"F{k}", sort)(main))
        elif s == NUM:
            out.append(Real(f"c{k}") if num_sort == REAL else Int(f"c{k}"))
        elif s == INT:
            # natural: every integer argument of a schema without index, the lower bound of a sum
            nat_here = nat and (not idx or k == idx[0] + 1)
            out.append(Nat(f"n{k}") if nat_here else Int(f"n{k}"))
        elif s == REAL:
            out.append(Real(f"a{k}"))
        elif s == VEC:
            out.append(Vec(f"v{k}"))
        else:
            return None
    return out


def schema_variant(f: Expr) -> str:
    """The variant of a rule instance: the index and number sorts of its first sum ("" without)."""
    from proofs.language.substitution import walk
    for n in walk(f):
        if n.op in ("sum", "vsum"):
            i, body = n.args[0], n.args[3]
            if i.sort != NAT:
                return "Z"
            return "NZ" if body.sort in (INT, NAT) else "N"
    return ""


def lemma_name(rule_id: str, schema: str, variant: str) -> str:
    """The Rules.v lemma of a schema in a variant ("N", "N/nat", "/nat", "")."""
    return f"rule__{rule_id}__{schema}" + "".join(f"__{p}" for p in variant.split("/") if p)


def rule_lemmas() -> list[tuple[str, str, str, str, str | None]]:
    """(lemma, rule, schema, variant, statement text | None when it does not print)."""
    from proofs.kernel import rules
    out = []
    for r in rules.RULES.values():
        for name, (sorts, build) in r.schemas.items():
            for variant in (("Z", "N", "NZ") if VAR in sorts else ("",)):
                for nat in ((False, True) if INT in sorts and variant != "Z" and name != "gram_nonneg" else (False,)):
                    args = _generic(r.id, name, sorts, variant, nat)
                    if args is None:
                        continue
                    lem = lemma_name(r.id, name, variant + ("/nat" if nat else ""))
                    try:
                        text = step_statement([], build(*args))
                    except (ExportError, TypeError, ValueError):
                        text = None
                    out.append((lem, r.id, name, variant + ("/nat" if nat else ""), text))
    # induction over the integers, as Proof.induction applies it: from P(0) and, for 0 <= k < n,
    # P(k) => P(k+1), infer P(j) for 0 <= j <= n
    out.append(("rule__induction__induction", "induction", "induction", "",
                "forall (P : Z -> Prop) (n : Z), P 0%Z -> (forall k : Z, (0 <= k)%Z /\\ (k < n)%Z /\\ P k -> "
                "P (k + 1)%Z) ->\n  forall j : Z, (0 <= j)%Z /\\ (j <= n)%Z -> P j"))
    # the same over a natural index (the kernel's inductions run over natural numbers: Coq's own
    # induction on nat proves it; coq.rules_induction applies it)
    out.append(("rule__induction__induction__N", "induction", "induction", "N",
                "forall (P : nat -> Prop) (n : nat), P 0%nat -> (forall k : nat, (0 <= k)%nat /\\ (k < n)%nat /\\ P k -> "
                "P (k + 1)%nat) ->\n  forall j : nat, (0 <= j)%nat /\\ (j <= n)%nat -> P j"))
    return out


def rules_files() -> tuple[dict[str, str], set[tuple[str, str, str]]]:
    """RuleStatements.v and Rules.v; and the (rule, schema, variant) triples given a proof."""
    head = "(* Generated by coq.build from the trusted rules' schema objects: do not edit. *)\n"
    stmts = [head, f"Require Import {LOGICAL}.Axioms {LOGICAL}.Prelude.\nOpen Scope R_scope.\n\n"]
    lemmas = [head, f"Require Import {LOGICAL}.Axioms {LOGICAL}.Prelude {LOGICAL}.VecLemmas {LOGICAL}.RulesLib.\n"
              f"Require Import {LOGICAL}.RuleStatements.\nOpen Scope R_scope.\n\n"]
    proved = set()
    for lem, rid, name, variant, text in rule_lemmas():
        if text is None:
            continue
        stmts.append(f"(* {rid}.{name} {variant} *)\nDefinition {lem}_statement : Prop :=\n  {text}.\n\n")
        tac = RULE_PROOFS.get((rid, name, variant))
        if tac is None:
            continue
        lemmas.append(f"Lemma {lem} : {lem}_statement.\nProof.\n  unfold {lem}_statement.\n  {tac}\nQed.\n\n")
        proved.add((rid, name, variant))
    return {"RuleStatements.v": "".join(stmts), "Rules.v": "".join(lemmas)}, proved


_BINDERS: dict[str, list[tuple[str, str]]] = {}
_TEXTS: dict[str, str | None] = {}


def lemma_statement_text(lem: str) -> str | None:
    """The statement text of a Rules.v lemma (as RuleStatements.v prints it); None: no such lemma."""
    if not _TEXTS:
        _TEXTS.update((name, text) for name, *_, text in rule_lemmas())
    return _TEXTS.get(lem)


def lemma_binders(lem: str) -> list[tuple[str, str]] | None:
    """The binders of a Rules.v lemma's statement, in order: (name, Coq type); a schema argument's
    binder is named after its position (``F3``, ``n1``, ``c4``, ``a0``, ``v0``); None: no such lemma."""
    import re
    if not _BINDERS:
        for name, *_, text in rule_lemmas():
            if text is None:
                continue
            m = re.match(r"forall ((?:\(\w+ : [^()]+\)\s*)+),", text)
            _BINDERS[name] = re.findall(r"\((\w+) : ([^()]+)\)", m.group(1)) if m else []
    return _BINDERS.get(lem)
