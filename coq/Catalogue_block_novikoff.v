(** * Catalogue: Block-Novikoff in its four forms and the bias notes' erratum, at the statements
    printed from the catalogue's formulas (Statements.v, generated). *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Glue.
Require Mistakebound.BlockNovikoff.
Require Import Mistakebound.Statements.
Open Scope R_scope.

Theorem block_novikoff_margin_one : block_novikoff_margin_one_statement.
Proof.
  intros dim M R_ u w x y H0 Hu Hm Hy Hg Hr. destruct (run_trunc dim M w x y H0 Hu) as [T0 TS].
  apply (BlockNovikoff.block_novikoff_margin_one dim M (fun k => trunc dim (w k)) (fun k => trunc dim (x k)) y u R_
           T0 TS); [below_tr Hm | exact (below Hy) | below_tr Hr | below_tr Hg].
Qed.

Theorem block_novikoff_unit : block_novikoff_unit_statement.
Proof.
  intros dim M g u w x y H0 Hu Hm Hy Hg Hx Hu1 Hg0. destruct (run_trunc dim M w x y H0 Hu) as [T0 TS].
  apply (BlockNovikoff.block_novikoff_unit dim M (fun k => trunc dim (w k)) (fun k => trunc dim (x k)) y u g
           T0 TS); [below_tr Hm | exact (below Hy) | below_tr Hx | below_tr Hg | exact Hu1 | exact Hg0].
Qed.

Theorem block_novikoff_radius : block_novikoff_radius_statement.
Proof.
  intros dim M R_ g u w x y H0 Hu Hm Hy Hg Hr Hu1 Hg0. destruct (run_trunc dim M w x y H0 Hu) as [T0 TS].
  apply (BlockNovikoff.block_novikoff_radius dim M (fun k => trunc dim (w k)) (fun k => trunc dim (x k)) y u R_ g
           T0 TS); [below_tr Hm | exact (below Hy) | below_tr Hr | below_tr Hg | exact Hu1 | exact Hg0].
Qed.

Theorem block_novikoff_bias : block_novikoff_bias_statement.
Proof.
  intros dim M R_ b bu u w x y H0 Hb0 Hu Hbu Hm Hy Hg Hr. destruct (run_trunc dim M w x y H0 Hu) as [T0 TS].
  apply (BlockNovikoff.block_novikoff_bias dim M (fun k => trunc dim (w k)) (fun k => trunc dim (x k)) b y u bu R_
           T0 Hb0 TS (run_trunc_bias dim M b y Hbu)); [below_tr Hm | exact (below Hy) | below_tr Hr | below_tr Hg].
Qed.

Theorem erratum_bias_notes_unsquared_norm : ~ erratum_bias_notes_unsquared_norm_statement.
Proof. intros H. apply BlockNovikoff.erratum_bias_notes_unsquared_norm. exact H. Qed.
