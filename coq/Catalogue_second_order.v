(** * Catalogue: the second-order perceptron (Cesa-Bianchi, Conconi & Gentile 2005, Theorem 1, the
    form before the logarithms), at the statement printed from the catalogue's formulas. *)
Require Import Mistakebound.Axioms Mistakebound.Prelude Mistakebound.VecLemmas Mistakebound.Glue.
Require Import Mistakebound.Statements.
Require Import Reals Lra Lia.
Open Scope R_scope.

Theorem second_order_perceptron_bound : second_order_perceptron_bound_statement.
Proof.
Admitted.
