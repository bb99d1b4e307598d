"""The vocabulary of the catalogue: sources, theorems (and errata), and their results.

A :class:`Theorem` states its hypotheses and its conclusion once, as formula objects
(``proofs.language.formula``); the text, LaTeX and SMT-LIB a reader sees are printed from them.  A
theorem's ``proof`` is a function of a :class:`proofs.kernel.kernel.Proof` returning the fact that
establishes the conclusion; the kernel checks that it does.  An *erratum* is a statement found in
a lecture note that is false: it carries a concrete counterexample (values of its symbols), which
is evaluated exactly (every hypothesis true, the conclusion false) and confirmed by z3 and cvc5.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from proofs.engines.engines import PROVED, REFUTED, SAT, UNKNOWN, Verdict
from proofs.language.formula import BOOL, And, Expr, Implies
from proofs.language.substitution import free_vars
from proofs.printers.render import latex, text

__all__ = ["Source", "Theorem", "StepResult", "TheoremResult", "KINDS", "PROVED", "REFUTED", "UNKNOWN",
           "BUILD_ERROR"]

KINDS = ("theorem", "erratum")
BUILD_ERROR = "build error"


@dataclass(frozen=True)
class Source:
    """Which lecture note states the claim, and how -- the note's wording, in the suite's notation."""
    note: str            # a key of proofs.catalogue.sources.TITLES: a lecture note or a paper ("" = this suite)
    where: str           # e.g. "Blum, Perceptron notes, Claim 2"
    how: str             # the claim as the note states it

    def short(self) -> str:
        return f"{self.where} [{self.note[:3]}]" if self.note.endswith(".txt") else self.where


@dataclass
class Theorem:
    id: str
    name: str                                   # prose, e.g. "Perceptron convergence, unit examples"
    source: Source
    hypotheses: tuple                           # ((name, formula), ...)
    conclusion: Expr
    proof: Callable | None = None               # kind "theorem": Proof -> Fact
    kind: str = "theorem"
    encoding: str = ""                          # what the variables stand for
    notes: str = ""
    counterexample: dict | None = None          # kind "erratum": exact values of the statement's symbols
    witness_check: Callable[[], tuple[bool, str]] | None = None   # an independent replay (the learner)
    witness_sizes: dict | None = None           # non-vacuity: values of natural-number variables
    witness_dim: int = 2
    family: str = ""
    coq: str = ""                               # its Coq counterpart, Module.name (set by the registry)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"theorem {self.id}: unknown kind {self.kind!r}")
        self.hypotheses = tuple(self.hypotheses)
        names = [n for n, _ in self.hypotheses]
        from proofs.language.formula import valid_name
        for n in [self.id] + names:        # printed into SMT-LIB comments and Coq names: identifiers only
            if not valid_name(n):
                raise ValueError(f"theorem {self.id!r}: {n!r} is not an identifier")
        if len(set(names)) != len(names):
            raise ValueError(f"theorem {self.id}: two hypotheses with one name")
        for n, f in self.hypotheses:
            if not isinstance(f, Expr) or f.sort != BOOL:
                raise ValueError(f"theorem {self.id}: hypothesis {n} is not a formula")
        if not isinstance(self.conclusion, Expr) or self.conclusion.sort != BOOL:
            raise ValueError(f"theorem {self.id}: the conclusion is not a formula")
        if self.kind == "theorem" and self.proof is None:
            raise ValueError(f"theorem {self.id}: a theorem needs a proof")
        if self.kind == "erratum" and self.counterexample is None:
            raise ValueError(f"erratum {self.id}: needs a concrete counterexample")

    @property
    def statement(self) -> Expr:
        """hypotheses => conclusion, the formula the catalogue proves (or, for an erratum, refutes)."""
        hs = [f for _, f in self.hypotheses]
        return Implies(And(*hs), self.conclusion) if hs else self.conclusion

    @property
    def expected(self) -> str:
        return PROVED if self.kind == "theorem" else REFUTED

    @property
    def title(self) -> str:
        return f"{self.name}: {text(self.conclusion)}"

    def statement_text(self) -> str:
        return text(self.statement)

    def variables(self) -> list[Expr]:
        return sorted(free_vars(self.statement), key=lambda v: v.name)


@dataclass
class StepResult:
    """What the engines said about one step the kernel registered."""
    step: Any                                   # proofs.kernel.kernel.Step
    smtlib: str                                 # the text z3 and cvc5 read (for an identity: d = 1)
    verdict: Verdict                            # primary: z3 (solve) or sympy (identity)
    cross: list[Verdict] = field(default_factory=list)   # cvc5 on the same text; identity: z3+cvc5 per dimension
    recheck: str = "full"                       # "full" or e.g. "symbolic sum, re-checked at d = 1..3 only"
    hyps_sat: Verdict | None = None             # are the hypotheses satisfiable together?
    necessity: dict = field(default_factory=dict)   # label -> Verdict of the goal without that hypothesis
    memo: bool = False                          # the same text was checked for an earlier theorem
    texts: list = field(default_factory=list)   # every text the solvers read (identity: one per dimension)

    @property
    def agree(self) -> bool:
        return bool(self.cross) and all(v.status == PROVED for v in self.cross)

    @property
    def ok(self) -> bool:
        """Proved by the primary engine and by every cross-check, hypotheses satisfiable."""
        if self.verdict.status != PROVED or not self.agree:
            return False
        if self.step.kind == "solve" and self.step.hyps:
            return self.hyps_sat is not None and self.hyps_sat.status == SAT
        return True

    @property
    def from_cache(self) -> str:
        """"all" / "some" / "none": how many of the step's verdicts came from the proof cache."""
        vs = [self.verdict] + list(self.cross) + ([self.hyps_sat] if self.hyps_sat is not None else [])
        k = sum(v.cached for v in vs)
        return "all" if k == len(vs) else "some" if k else "none"

    def unused(self) -> list[str]:
        return [h for h, v in self.necessity.items() if v.status == PROVED]

    def to_json(self) -> dict:
        st = self.step
        d = {"id": st.id, "kind": st.kind, "title": st.title, "goal": text(st.goal), "goal_latex": latex(st.goal),
             "hypotheses": [{"label": lab, "how": f.how, "formula": text(f.formula)} for lab, f in st.hyps],
             "status": self.verdict.status, "verdict": self.verdict.to_json(),
             "cross_checks": [v.to_json() for v in self.cross], "recheck": self.recheck, "ok": self.ok,
             "from_cache": self.from_cache}
        if self.hyps_sat is not None:
            d["hypotheses_satisfiable"] = self.hyps_sat.to_json()
        if self.necessity:
            d["necessity"] = {h: ("needed" if v.status == REFUTED else "unused" if v.status == PROVED else "unknown")
                              for h, v in self.necessity.items()}
        return d


@dataclass
class TheoremResult:
    theorem: Theorem
    status: str = UNKNOWN
    reasons: list = field(default_factory=list)       # why not proved/refuted, one line each
    steps: list = field(default_factory=list)         # StepResult, in proof order
    lemmas: dict = field(default_factory=dict)        # lemma id -> its status
    rules: list = field(default_factory=list)         # trusted rules: own and every lemma's
    own_rules: list = field(default_factory=list)
    nonvacuity: Verdict | None = None                 # the stated hypotheses, jointly
    nonvacuity_how: str = ""
    exact: tuple | None = None                        # erratum: (ok, detail) of the exact evaluation
    witness: tuple | None = None                      # erratum: the independent replay
    erratum_verdicts: list = field(default_factory=list)   # erratum: z3's and cvc5's on the instance
    seconds: float = 0.0
    checker: Any = None                               # the checker's verdict on the certificate (checker.Verdict)

    @property
    def ok(self) -> bool:
        return self.status == self.theorem.expected

    def engines(self) -> list[str]:
        es = []
        for r in self.steps:
            for v in [r.verdict] + r.cross:
                if v.engine not in es:
                    es.append(v.engine)
        return es

    def counts(self) -> tuple[int, int]:
        return sum(r.ok for r in self.steps), len(self.steps)

    def exceptions(self) -> list[str]:
        """Steps whose second opinion is less than a re-check of the same statement."""
        return [f"{r.step.id}: {r.recheck}" for r in self.steps if r.recheck != "full"]

    def to_json(self) -> dict:
        th = self.theorem
        d = {
            "id": th.id, "kind": th.kind, "name": th.name, "title": th.title,
            "statement": text(th.statement), "statement_latex": latex(th.statement),
            "hypotheses": [{"name": n, "formula": text(f), "latex": latex(f)} for n, f in th.hypotheses],
            "conclusion": text(th.conclusion), "conclusion_latex": latex(th.conclusion),
            "coq": th.coq,
            "source": {"note": th.source.note, "where": th.source.where, "how (the source's wording)": th.source.how},
            "status": self.status, "expected": th.expected, "ok": self.ok, "reasons": list(self.reasons),
            "steps": [r.to_json() for r in self.steps], "lemmas": dict(self.lemmas),
            "trusted_rules": list(self.rules), "trusted_rules_own": list(self.own_rules),
            "recheck_exceptions": self.exceptions(), "engines": self.engines(), "seconds": round(self.seconds, 4),
        }
        if self.nonvacuity is not None:
            d["nonvacuity"] = {"how": self.nonvacuity_how, **self.nonvacuity.to_json()}
        if th.counterexample is not None:
            d["counterexample"] = th.counterexample
        if self.exact is not None:
            d["exact_evaluation"] = {"ok": self.exact[0], "detail": self.exact[1]}
        if self.witness is not None:
            d["witness_check"] = {"ok": self.witness[0], "detail": self.witness[1]}
        if th.notes:
            d["notes"] = th.notes
        if self.checker is not None:
            d["checker"] = self.checker.to_json()
        return d
