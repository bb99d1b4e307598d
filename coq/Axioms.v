(** * Axioms: the one place where the development's logical assumptions are listed.

    The development declares no axiom of its own: no [Axiom], [Parameter], [Hypothesis] or
    [Variable] appears in any other file (the suite's build checks this textually), and every
    theorem is closed.  What [Print Assumptions] may report is therefore only what the
    standard library's real numbers rest on, plus excluded middle where [ln] (hence [lg]) is used:

    - [ClassicalDedekindReals.sig_forall_dec]         (standard library reals)
    - [ClassicalDedekindReals.sig_not_dec]            (standard library reals)
    - [FunctionalExtensionality.functional_extensionality_dep] (standard library reals)
    - [Classical_Prop.classic]                         (excluded middle: [ln] of the standard library)

    The build parses [Print Assumptions] for every catalogue theorem and fails when an axiom not
    in the list below appears.  The list is read by the suite from the lines starting with
    "ALLOWED:". *)

(* ALLOWED: ClassicalDedekindReals.sig_forall_dec reals *)
(* ALLOWED: ClassicalDedekindReals.sig_not_dec reals *)
(* ALLOWED: FunctionalExtensionality.functional_extensionality_dep reals *)
(* ALLOWED: Classical_Prop.classic extra *)

Require Export Coq.Reals.Reals.
Require Export Coq.micromega.Lra Coq.micromega.Psatz.
Require Export Coq.QArith.QArith Coq.QArith.Qreals.
Require Export Coq.Lists.List.
Require Export Coq.Arith.Arith Coq.ZArith.ZArith.
Require Export Coq.Logic.FunctionalExtensionality.
