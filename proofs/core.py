"""The vocabulary of the catalogue: trusted rules, obligations, theorems, verdicts.

* A :class:`Theorem` is a statement (formula + LaTeX) with hypotheses, a :class:`Source` (which
  lecture note states it and how, in our notation), a list of :class:`Obligation` s, the lemma
  theorems it builds on and the named :data:`TRUSTED_RULES` it relies on.
* An :class:`Obligation` is one machine-checkable step.  ``engine="z3"``: hypotheses and a goal
  as z3 formulas; proved iff ``hypotheses & not goal`` is unsat.  ``engine="sympy"``: an identity
  ``lhs == rhs``; proved iff ``simplify(lhs - rhs) == 0``.  Exactly one obligation per proved
  theorem is its *composition*: the final inequality over the quantities the other steps bound.
* A :class:`Verdict` is ``proved`` / ``refuted`` (with the solver's counterexample) / ``unknown``
  (with the reason: timeout, gave up, could not decide).

``kind`` says what a catalogue entry is meant to be:

``theorem``  its expected outcome is *proved*;
``erratum``  a statement found in a lecture note that is false: expected outcome *refuted*
             (the counterexample is part of the report);
``open``     a conjecture whose honest status is reported (proved instances, the step that does
             not go through) without making ``mistakebound verify`` fail.

Building obligations is lazy (a ``build`` callable), so importing the catalogue is cheap.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

__all__ = [
    "TrustedRule", "TRUSTED_RULES", "Source", "Obligation", "Theorem", "Verdict",
    "PROVED", "REFUTED", "UNKNOWN", "KINDS",
]

PROVED, REFUTED, UNKNOWN = "proved", "refuted", "unknown"
KINDS = ("theorem", "erratum", "open")
ENGINES = ("z3", "sympy")


@dataclass(frozen=True)
class TrustedRule:
    """A step no solver in the suite checks; every report prints the rules a theorem uses."""
    id: str
    statement: str
    why: str


TRUSTED_RULES: dict[str, TrustedRule] = {r.id: r for r in [
    TrustedRule(
        "induction",
        "Induction on the natural numbers: if P(0) and P(k) => P(k+1) for every k >= 0, then P(M) for every M >= 0.",
        "a rule of inference over all of N; the solvers check the base case and the step as obligations"),
    TrustedRule(
        "finite_sum_linearity",
        "Finite sums are linear: sum_i (a_i + c b_i) = sum_i a_i + c sum_i b_i, and a termwise inequality a_i <= b_i sums to sum_i a_i <= sum_i b_i.",
        "a statement about sums of unboundedly many terms; each term is checked as an obligation"),
    TrustedRule(
        "pow2_log2",
        "Powers of two and lg = log2: 2^0 = 1, 2^k > 0, 2^(a+b) = 2^a 2^b, lg(2^k) = k, and lg is strictly increasing.",
        "z3 and cvc5 have no exponential with a variable exponent; the facts are used as hypotheses"),
    TrustedRule(
        "multinomial_theorem",
        "(z_0 + ... + z_d)^k = sum over j_0 + ... + j_d = k of k!/(j_0!...j_d!) z_0^j_0 ... z_d^j_d, for every d and k.",
        "for symbolic d and k it is outside sympy's simplifier; instances with small d and k are checked"),
    TrustedRule(
        "exp_power_series",
        "exp(t) = lim_{N->oo} sum_{k<=N} t^k / k! for every real t (the series converges).",
        "a limit; sympy checks the coefficients, not the convergence"),
    TrustedRule(
        "psd_closed_under_limits",
        "A pointwise limit of kernels (positive semidefinite functions) is a kernel: every Gram matrix is a limit of PSD matrices, and the PSD cone is closed.",
        "a limit step no solver can check"),
    TrustedRule(
        "orthonormal_basis_2d",
        "In R^2 a unit w* extends to an orthonormal basis (w*, e): every v has coordinates (v.w*, v.e), "
        "|v|^2 = (v.w*)^2 + (v.e)^2, and inner products and sums are computed coordinatewise.",
        "the one step that uses d = 2; linear algebra of a fixed basis, not a solver question"),
    TrustedRule(
        "feature_map_psd",
        "K(x, x') = phi(x).phi(x') for a real feature map phi (possibly into l2) is a legal kernel: sum_ij a_i a_j K(x_i, x_j) = |sum_i a_i phi(x_i)|^2 >= 0.",
        "definition of a legal kernel used in the notes (the Hilbert-space case needs l2 convergence)"),
]}


@dataclass(frozen=True)
class Source:
    """Which lecture note states the claim, and how -- in the project's notation, not the note's prose."""
    note: str            # file name in shared/sources, e.g. "000_16150bb9182f2f7b.txt"
    where: str           # e.g. "Blum, Perceptron and Winnow notes, Claim 2"
    how: str             # the claim as the note states it, rewritten in our notation

    def short(self) -> str:
        return f"{self.where} [{self.note[:3]}]"


@dataclass
class Obligation:
    """One machine-checked step.

    ``build()`` returns, for z3: ``{"hyps": [(name, expr), ...], "goal": expr}`` (plus optional
    ``"latex": {var name: LaTeX}``); for sympy: ``{"lhs": e1, "rhs": e2}`` and optionally
    ``"instances"``: a callable giving concrete (lhs, rhs) pairs for the cross-check.
    ``expect`` is the outcome the catalogue expects: ``proved`` (default), ``refuted`` (an
    erratum's claim) or ``unknown`` (the honest state of an open step).
    """
    id: str
    engine: str
    title: str
    encoding: str
    build: Callable[[], dict]
    expect: str = PROVED
    role: str = "lemma"          # "lemma", "composition", "claim" (erratum) or "instance" (open)
    uses: tuple[str, ...] = ()   # obligations/theorems whose results appear as hypotheses here
    timeout_ms: int = 4000

    def __post_init__(self):
        if self.engine not in ENGINES:
            raise ValueError(f"obligation {self.id}: unknown engine {self.engine!r}")
        if self.expect not in (PROVED, REFUTED, UNKNOWN):
            raise ValueError(f"obligation {self.id}: bad expectation {self.expect!r}")


@dataclass
class Theorem:
    id: str
    title: str
    statement: str               # plain-text formula
    latex: str                   # the statement in LaTeX
    hypotheses: list[str]        # LaTeX, one per hypothesis of the statement
    source: Source
    obligations: list[Obligation]
    kind: str = "theorem"
    lemmas: tuple[str, ...] = ()     # ids of theorems whose statements are used as hypotheses
    trusted: tuple[str, ...] = ()    # ids in TRUSTED_RULES
    family: str = ""
    notes: str = ""
    counterexample: dict | None = None   # erratum: a concrete instance, re-checked in exact arithmetic
    witness_check: Callable[[], tuple[bool, str]] | None = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"theorem {self.id}: unknown kind {self.kind!r}")
        for r in self.trusted:
            if r not in TRUSTED_RULES:
                raise ValueError(f"theorem {self.id}: unknown trusted rule {r!r}")
        ids = [o.id for o in self.obligations]
        if len(set(ids)) != len(ids):
            raise ValueError(f"theorem {self.id}: duplicate obligation ids")
        if self.kind == "theorem" and not any(o.role == "composition" for o in self.obligations):
            raise ValueError(f"theorem {self.id}: a theorem needs a composition obligation")

    @property
    def expected(self) -> str:
        return {"theorem": PROVED, "erratum": REFUTED, "open": "open"}[self.kind]

    def obligation(self, oid: str) -> Obligation:
        for o in self.obligations:
            if o.id == oid:
                return o
        raise KeyError(oid)


@dataclass
class Verdict:
    """The outcome of one check: proved / refuted (counterexample) / unknown (reason)."""
    status: str
    engine: str
    seconds: float = 0.0
    counterexample: dict | None = None
    reason: str = ""

    def to_json(self) -> dict:
        d: dict[str, Any] = {"status": self.status, "engine": self.engine, "seconds": round(self.seconds, 4)}
        if self.counterexample is not None:
            d["counterexample"] = self.counterexample
        if self.reason:
            d["reason"] = self.reason
        return d

    @property
    def proved(self) -> bool:
        return self.status == PROVED

    def __str__(self) -> str:
        s = f"{self.status} ({self.engine}, {self.seconds:.3f}s)"
        if self.counterexample:
            s += " counterexample: " + ", ".join(f"{k}={v}" for k, v in self.counterexample.items())
        if self.reason:
            s += f" [{self.reason}]"
        return s


@dataclass
class ObligationResult:
    obligation: Obligation
    verdict: Verdict
    cross_check: Verdict | None
    hypotheses_sat: Verdict | None = None        # are the hypotheses jointly satisfiable?
    dropped: dict[str, Verdict] = field(default_factory=dict)  # hyp name -> verdict without it
    smtlib: str | None = None
    pending: Any = None                          # a cvc5 check still running (see engines.PendingCvc5)
    pending_nv: Any = None                       # non-vacuity checks still running (engines.PendingNonvacuity)

    def resolve(self) -> "ObligationResult":
        if self.pending is not None:
            self.cross_check = self.pending.get()
            self.pending = None
        if self.pending_nv is not None:
            self.hypotheses_sat, self.dropped = self.pending_nv.get()
            self.pending_nv = None
        return self

    @property
    def agree(self) -> bool:
        """Primary engine and cross-check do not contradict each other."""
        if self.cross_check is None:
            return False
        a, b = self.verdict.status, self.cross_check.status
        return a == b

    @property
    def vacuous(self) -> bool:
        return self.hypotheses_sat is not None and self.hypotheses_sat.status == REFUTED

    @property
    def ok(self) -> bool:
        """Outcome as expected, re-checked, and not vacuous."""
        if self.vacuous:
            return False
        if self.obligation.expect == UNKNOWN:
            # an open step: fine as long as the two engines do not contradict each other
            return not (self.verdict.status in (PROVED, REFUTED) and self.cross_check is not None
                        and self.cross_check.status in (PROVED, REFUTED)
                        and self.cross_check.status != self.verdict.status)
        return self.verdict.status == self.obligation.expect and self.agree

    def unused_hypotheses(self) -> list[str]:
        return [h for h, v in self.dropped.items() if v.status == PROVED]

    def to_json(self) -> dict:
        o = self.obligation
        d = {
            "id": o.id, "engine": o.engine, "title": o.title, "encoding": o.encoding, "role": o.role,
            "expect": o.expect, "status": self.verdict.status, "seconds": round(self.verdict.seconds, 4),
            "verdict": self.verdict.to_json(),
            "cross_check": None if self.cross_check is None else self.cross_check.to_json(),
            "agree": self.agree, "ok": self.ok,
        }
        if self.hypotheses_sat is not None:
            d["hypotheses_satisfiable"] = self.hypotheses_sat.status == PROVED
            d["hypotheses_sat_check"] = self.hypotheses_sat.to_json()
        if self.dropped:
            d["hypotheses"] = {
                h: ("needed" if v.status == REFUTED else "unused" if v.status == PROVED else "unknown")
                for h, v in self.dropped.items()}
            d["dropped_counterexamples"] = {
                h: v.counterexample for h, v in self.dropped.items() if v.counterexample}
        return d


@dataclass
class TheoremResult:
    theorem: Theorem
    obligations: list[ObligationResult]
    lemma_status: dict[str, str] = field(default_factory=dict)
    witness: tuple[bool, str] | None = None
    seconds: float = 0.0

    @property
    def status(self) -> str:
        th = self.theorem
        if th.kind == "open":
            return "open"
        if th.kind == "erratum":
            claims = [r for r in self.obligations if r.obligation.role == "claim"]
            if claims and all(r.verdict.status == REFUTED and r.agree for r in claims) and \
                    (self.witness is None or self.witness[0]):
                return REFUTED
            return UNKNOWN
        if all(r.verdict.proved and r.agree and not r.vacuous for r in self.obligations) and \
                all(s == PROVED for s in self.lemma_status.values()):
            return PROVED
        if any(r.verdict.status == REFUTED for r in self.obligations if r.obligation.expect == PROVED):
            return REFUTED
        return UNKNOWN

    @property
    def ok(self) -> bool:
        th = self.theorem
        if th.kind == "open":
            return all(r.ok for r in self.obligations)
        if th.kind == "erratum":
            return self.status == REFUTED and all(r.ok for r in self.obligations)
        return self.status == PROVED and all(r.ok for r in self.obligations)

    def engines(self) -> list[str]:
        es = []
        for r in self.obligations:
            for e in (r.verdict.engine, r.cross_check.engine if r.cross_check else None):
                if e and e not in es:
                    es.append(e)
        return es

    def counts(self) -> tuple[int, int]:
        return sum(r.verdict.proved for r in self.obligations), len(self.obligations)

    def to_json(self) -> dict:
        th = self.theorem
        d = {
            "id": th.id, "title": th.title, "kind": th.kind, "statement": th.statement, "latex": th.latex,
            "hypotheses": th.hypotheses,
            "source": {"note": th.source.note, "where": th.source.where, "how": th.source.how},
            "status": self.status, "expected": th.expected, "ok": self.ok,
            "obligations": [r.to_json() for r in self.obligations],
            "lemmas": dict(self.lemma_status), "trusted": list(th.trusted),
            "engines": self.engines(), "seconds": round(self.seconds, 4),
        }
        if th.counterexample is not None:
            d["counterexample"] = th.counterexample
        if self.witness is not None:
            d["witness_check"] = {"ok": self.witness[0], "detail": self.witness[1]}
        if th.notes:
            d["notes"] = th.notes
        return d
