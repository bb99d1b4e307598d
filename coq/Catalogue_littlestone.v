(** * Catalogue: the Standard Optimal Algorithm (Littlestone 1988, section 3) — at the statement
    printed from the catalogue's formulas: each mistake lowers the Littlestone dimension of the
    version space by at least one, which never falls below 0 while the target is in it. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.Statements.
Require Import ZArith Lia.

Theorem soa_bound : soa_bound_statement.
Proof.
  intros D L M a c H0 Hr Hc Hs HM.
  assert (I : forall k, (k <= M)%nat -> (L k + Z.of_nat k <= D)%Z).
  { induction k as [|k IH]; intros Hk; [simpl; lia|].
    specialize (IH ltac:(lia)). pose proof (Hc k ltac:(lia)). pose proof (Hs k ltac:(lia)) as S.
    rewrite Nat.add_1_r in S. destruct (Hr k ltac:(lia)) as [E|E]; lia. }
  specialize (I M (le_n M)). lia.
Qed.
