(** * Catalogue: Cauchy-Schwarz and Claims 1 and 2, at the statements printed from the catalogue's
    formulas (Statements.v, generated). *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Glue.
Require Mistakebound.Claims.
Require Import Mistakebound.Statements.
Open Scope R_scope.

Theorem cauchy_schwarz : cauchy_schwarz_statement.
Proof. intros dim a b. apply cauchy_schwarz_sq. Qed.

Theorem claim1_correlation_growth : claim1_correlation_growth_statement.
Proof.
  intros dim g u w x y Hy Hc Hg. apply Claims.claim1_correlation_growth. rewrite dot_comm.
  exact (Claims.margin_from_min_distance y (dot dim x u) g Hy Hc Hg).
Qed.

Theorem claim1_margin_one : claim1_margin_one_statement.
Proof.
  intros dim u w x y Hy Hp Hn. apply Claims.claim1_margin_one. rewrite dot_comm.
  exact (Claims.two_sided_margin_is_label_margin y (dot dim x u) Hy Hp Hn).
Qed.

Theorem claim2_norm_growth : claim2_norm_growth_statement.
Proof. intros dim R_ w x y Hy Hm Hr. exact (Claims.claim2_norm_growth dim w x y (R_ ^ 2) Hy Hm Hr). Qed.

Theorem claim2_unit_examples : claim2_unit_examples_statement.
Proof. intros dim w x y Hy Hm Hx. exact (Claims.claim2_unit_examples dim w x y Hy Hm Hx). Qed.

Theorem erratum_claim2_strict : ~ erratum_claim2_strict_statement.
Proof. intros H. apply Claims.erratum_claim2_strict. exact H. Qed.
