"""The independent checker: it decides "proved" from a certificate, plain data, alone.

The proof kernel (``proofs``), the catalogue and users' theorem files only *produce*
certificates (docs/certificates.md).  This package reads one, parses every term into its own term
type (``checker.terms``, every sort computed from the declarations), re-derives every step it can
(rule instances from its own fixed table, ``checker.schemas``; lemmas, instantiations,
specializations, inductions), checks the step graph, prints each remaining obligation itself
(``checker.smtlib``) and accepts an engine's verdict only on that very text
(``checker.check.decide``).  An erratum's counterexample is evaluated exactly
(``checker.evaluate``).  It imports nothing of the rest of the suite (tests/test_architecture.py
enforces it): the de Bruijn criterion, a checker small enough to be read in one sitting.
"""
from checker.check import (ASSUMING, FORMAT, INVALID, PROVED, REFUTED, UNKNOWN, VACUOUS, VACUOUS_WHY, VERSION, Checked,
                    Obligation, Verdict, decide, exact_model, identity_key, identity_text, read)
from checker.terms import CheckError, Reading as reading

__all__ = ["read", "decide", "Checked", "Obligation", "Verdict", "CheckError", "identity_text", "identity_key", "reading", "FORMAT",
           "VERSION", "PROVED", "REFUTED", "UNKNOWN", "INVALID", "ASSUMING", "VACUOUS", "VACUOUS_WHY", "exact_model"]
