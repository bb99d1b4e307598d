(** * Catalogue: Block-Novikoff in its four forms and the bias notes' erratum, at the statements
    printed from the catalogue's formulas (Statements.v, generated). *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Glue.
Require Mistakebound.BlockNovikoff.
Require Import Mistakebound.Statements.
Open Scope R_scope.

Theorem block_novikoff_margin_one : block_novikoff_margin_one_statement.
Proof.
  intros dim M R_ u w x y H0 Hu Hm Hy Hg Hr.
  exact (BlockNovikoff.block_novikoff_margin_one dim M w x y u R_ H0 (below_succ w _ Hu) (below Hm) (below Hy)
           (below Hr) (below_dot_comm dim x u y 1 Hg)).
Qed.

Theorem block_novikoff_unit : block_novikoff_unit_statement.
Proof.
  intros dim M g u w x y H0 Hu Hm Hy Hg Hx Hu1 Hg0.
  exact (BlockNovikoff.block_novikoff_unit dim M w x y u g H0 (below_succ w _ Hu) (below Hm) (below Hy)
           (below Hx) (below_dot_comm dim x u y g Hg) Hu1 Hg0).
Qed.

Theorem block_novikoff_radius : block_novikoff_radius_statement.
Proof.
  intros dim M R_ g u w x y H0 Hu Hm Hy Hg Hr Hu1 Hg0.
  exact (BlockNovikoff.block_novikoff_radius dim M w x y u R_ g H0 (below_succ w _ Hu) (below Hm) (below Hy)
           (below Hr) (below_dot_comm dim x u y g Hg) Hu1 Hg0).
Qed.

Theorem block_novikoff_bias : block_novikoff_bias_statement.
Proof.
  intros dim M R_ b bu u w x y H0 Hb0 Hu Hbu Hm Hy Hg Hr.
  apply (BlockNovikoff.block_novikoff_bias dim M w x b y u bu R_ H0 Hb0 (below_succ w _ Hu) (below_succ b _ Hbu)
           (below Hm) (below Hy) (below Hr)).
  intros k Hk. rewrite dot_comm. apply Hg. lia.
Qed.

Theorem erratum_bias_notes_unsquared_norm : ~ erratum_bias_notes_unsquared_norm_statement.
Proof. intros H. apply BlockNovikoff.erratum_bias_notes_unsquared_norm. exact H. Qed.
