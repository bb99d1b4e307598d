"""Check a claimed mistake bound ``M <= EXPR`` (or ``M < EXPR``): prove it, refute it, or say unknown.

**The quantities** (what EXPR may mention) and how they are tied together:

perceptron / kernel_perceptron (the kernel perceptron in feature space)
  ``R`` = max |x|, ``W`` = |w*|, ``gamma`` = 1/(R W), ``L`` = the hinge loss of w* at margin 1
  summed over every trial, ``TD`` = Blum's total distance = gamma·L, ``n`` = the number of trials
  (examples presented, one pass), ``d`` = the input dimension.  Two settings:

  * *separable* (the default when EXPR mentions neither L nor TD): w* separates the sequence and
    is scaled to min y w*·x = 1 (Lin's margin-1 form), so L = TD = 0, gamma is the margin of w*
    on the examples scaled into the unit ball (Blum's gamma) and R W >= 1;
  * *agnostic* (EXPR mentions L or TD): w* is any nonzero vector; L >= 0 and L >= n(1 - R W).

  In both gamma = 1/(R W) — with unit examples and |w*| = 1 at margin gamma this is Blum's
  setting (w* scaled by 1/gamma has margin 1 and norm 1/gamma), and Blum's TD_gamma with unit
  examples is gamma·L.

winnow
  ``n`` = the number of variables, ``r`` = the number of relevant variables (1 <= r <= n) of the
  target monotone disjunction; ``--variant`` halve (Blum's simple Winnow, default) or eliminate.

**holds**: z3 shows that no admissible values of the quantities and no integer M obeying the
catalogue's theorems (Block–Novikoff M <= R^2 W^2; the hinge bound M <= R^2 W^2 + 2L; Winnow's
2 + 3r(1 + lg n) / 1 + 2r(1 + lg n); and M <= n, one mistake per trial at most) violate the claim.
The unsat core names the theorems used; their status is then re-checked by running the
catalogue (``proofs.verify.runner.run_catalogue``), and "holds" is answered only if they are proved.
Functions z3 cannot reason about (sqrt, log, exp, floor, ...) are replaced by fresh variables with
true bounds (e.g. log a <= a - 1), which can only make a proof harder, never wrong.

**refuted**: a concrete sequence and target (exact rationals), replayed by the exact reference
learner (``adversary.certify.certify``), whose mistake count M and certified quantities violate the
claim: M > EXPR (M >= EXPR for a strict claim), decided exactly — rationals, or for sqrt/log/exp
an interval enclosure that excludes 0 (equality only when sympy proves it exactly).  Families
searched: orthonormal examples at several sizes and scales (``perceptron_separable.orthonormal``),
inseparable orthonormal variants, the d = 3 margin-gamma construction
(``perceptron_separable.orthogonal_margin``), the 2-D search (``perceptron_2d.best_2d``) and for
Winnow ``winnow_search.search_winnow`` / ``exhaustive_winnow``.

**unknown**: neither; the verdict says what was searched.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import sympy as sp

from learners.errors import InputError

from refutation.bound_assume import parse_assumptions
from refutation.bound_domain import check_assumptions, model_hint
from refutation.bound_proof import FACTS, catalogue_status, prove, proved_statement
from refutation.bound_quantities import (ALGORITHMS, WINNOW_VARIANTS, domain_texts, evaluate_claim, instance_quantities,
                               quantity_symbols)
from refutation.bound_search import refute
from refutation.expr_parse import parse_bound

__all__ = ["BoundVerdict", "check_bound", "ALGORITHMS", "quantity_symbols", "evaluate_claim",
           "instance_quantities"]


# ---------------------------------------------------------------------------------------------
# The verdict
# ---------------------------------------------------------------------------------------------
@dataclass
class BoundVerdict:
    """The answer of :func:`check_bound`.

    ``status``: ``"holds"`` (``theorems`` lists the catalogue theorems z3 needed, ``reason`` says
    why), ``"refuted"`` (``sequence`` is the :class:`adversary.sequence.Sequence`, ``mistakes`` its
    exact mistake count, ``quantities`` the certified quantities and ``claimed_value`` the claim
    there) or ``"unknown"`` (``searched`` says what was tried).  ``exit_code`` is the CLI's.
    """
    algorithm: str
    claim: str
    expr: str
    strict: bool
    setting: str
    status: str
    reason: str = ""
    theorems: list = field(default_factory=list)
    catalogue_status: dict = field(default_factory=dict)
    sequence: object = None
    mistakes: int | None = None
    quantities: dict = field(default_factory=dict)
    claimed_value: str | None = None
    comparison: str = ""
    searched: list = field(default_factory=list)
    trusted: list = field(default_factory=list)
    out: str | None = None
    seconds: float = 0.0
    assumptions: list = field(default_factory=list)
    lower_bound: str | None = None      # "no algorithm can do better than ..." where a lower bound applies
    domain: list = field(default_factory=list)     # what the quantities are assumed to be (every verdict says it)
    witness: str = ""                   # a run's values satisfying the assumptions (checked exactly)

    @property
    def exit_code(self) -> int:
        return {"holds": 0, "refuted": 1, "vacuous": 1, "unknown": 3}[self.status]

    def to_json(self) -> dict:
        return {
            "algorithm": self.algorithm, "claim": self.claim, "expr": self.expr, "strict": self.strict,
            "setting": self.setting, "status": self.status, "reason": self.reason,
            "theorems": self.theorems, "catalogue_status": self.catalogue_status,
            "mistakes": self.mistakes, "quantities": self.quantities, "claimed_value": self.claimed_value,
            "comparison": self.comparison, "searched": self.searched, "trusted": self.trusted,
            "sequence_file": self.out, "assumptions": list(self.assumptions),
            "sequence": self.sequence.to_dict() if self.sequence is not None else None,
            "seconds": round(self.seconds, 3), "lower_bound": self.lower_bound,
            "domain": list(self.domain), "assumptions_witness": self.witness or None,
        }

    def explain(self) -> str:
        rel = "<" if self.strict else "<="
        lines = [f"claim: {self.algorithm} makes M {rel} {self.expr} mistakes   (setting: {self.setting})"]
        if self.domain:
            lines.append("domain: " + "; ".join(self.domain))
        if self.assumptions:
            lines.append("assuming: " + "; ".join(self.assumptions)
                         + (f"   (satisfied, e.g., by {self.witness})" if self.witness else ""))
        lines.append(f"verdict: {self.status.upper()}")
        if self.status == "vacuous":
            lines.append(f"  vacuous: no run satisfies these assumptions ({self.reason}); every claim would "
                         f"hold there, so none is answered")
        elif self.status == "holds":
            lines.append(f"  {self.reason}")
            for t in self.theorems:
                lines.append(f"  uses: {t}")
            for k, v in self.catalogue_status.items():
                lines.append(f"  catalogue: {k}: {v}")
        elif self.status == "refuted":
            lines.append(f"  {self.reason}")
            lines.append("  quantities: " + ", ".join(f"{k} = {_short(v)}" for k, v in self.quantities.items()))
            lines.append(f"  claim there: {_short(self.claimed_value)}")
            lines.append(f"  {self.comparison}")
            if self.out:
                lines.append(f"  sequence written to {self.out} (re-check: mistakebound replay {self.out})")
        else:
            if self.reason:
                lines.append(f"  {self.reason}")
            lines.append("  searched:")
            lines.extend(f"    - {s}" for s in self.searched)
        for t in self.trusted:
            lines.append(f"  trusted: {t}")
        if self.lower_bound:
            lines.append(f"  lower bound: {self.lower_bound}")
        lines.append(f"({self.seconds:.2f} s)")
        return "\n".join(lines)


def _short(s: str, width: int = 70) -> str:
    """Long exact values (e.g. square roots of 100-digit rationals) shortened for the terminal."""
    if len(s) <= width:
        return s
    approx = s[s.rfind("(~"):] if s.endswith(")") and "(~" in s else ""
    return f"{approx or '...'} [exact value: {len(s)} characters, see --json]"


def check_bound(algorithm: str, expr: str, *, budget: float = 20.0, variant: str = "halve",
                setting: str = "auto", out=None, search: bool = True, assume=()) -> BoundVerdict:
    """Check the claim "ALGORITHM makes at most EXPR mistakes" (``< EXPR``: strictly fewer).

    ``budget`` bounds the search in seconds; ``variant`` is Winnow's (halve | eliminate);
    ``setting`` is ``auto`` | ``separable`` | ``agnostic`` (perceptrons; auto = agnostic iff EXPR
    mentions L or TD).  ``out``: a path to write the refuting sequence to (atomically).  Raises
    :class:`InputError` for bad input.  ``assume``: assumptions such as ``"d == 2"``, ``"n == 2**l"``,
    ``"r >= 1"`` (:mod:`refutation.bound_assume`): hypotheses of the proof attempt, constraints on
    the counterexample search.
    """
    t0 = time.monotonic()
    if algorithm not in ALGORITHMS:
        raise InputError(f"algorithm must be one of {', '.join(ALGORITHMS)}, got {algorithm!r}")
    if variant not in WINNOW_VARIANTS:
        raise InputError(f"variant must be one of {', '.join(WINNOW_VARIANTS)}, got {variant!r}")
    if setting not in ("auto", "separable", "agnostic"):
        raise InputError(f"setting must be auto, separable or agnostic, got {setting!r}")
    try:
        budget = float(budget)
    except (TypeError, ValueError):
        raise InputError(f"budget must be a number of seconds, got {budget!r}") from None
    if not (0 < budget <= 3600):
        raise InputError(f"budget must be in (0, 3600] seconds, got {budget}")
    if out is not None:
        import os
        if os.path.isdir(out):
            raise InputError(f"--out {out} is a directory; give a file name")
        parent = os.path.dirname(os.path.abspath(out))
        if os.path.exists(parent) and not os.access(parent, os.W_OK):
            raise InputError(f"--out {out}: the directory is not writable")
    syms = quantity_symbols(algorithm)
    pb = parse_bound(expr, syms)
    assumed = parse_assumptions(assume, syms)
    E, strict = pb.expr, pb.strict
    used = {s.name for s in E.free_symbols}
    if algorithm == "winnow":
        st = f"winnow/{variant}"
    elif setting == "auto":
        st = "agnostic" if used & {"L", "TD"} else "separable"
    else:
        st = setting
    if st == "separable" and used & {"L", "TD"} and setting == "separable":
        pass   # allowed: L = TD = 0 there
    v = BoundVerdict(algorithm, expr, sp.sstr(E), strict, st, "unknown", assumptions=assumed.texts)
    v.domain = domain_texts(algorithm, st, tuple(assumed.fresh))
    deadline = t0 + budget
    confirmed = True
    if assumed:
        # an assumption outside the domain is bad input (InputError); together they must leave a run
        how, why = check_assumptions(algorithm, st, assumed)
        if how == "vacuous":
            v.status, v.reason = "vacuous", why
            v.seconds = time.monotonic() - t0
            return v
        if how == "ok":
            v.witness = why
        else:
            confirmed = False
            v.searched.append(f"no run satisfying the assumptions was confirmed: {why}")

    # 1. holds?
    status, core, info = prove(algorithm, "separable" if st == "separable" else "agnostic", variant, E, strict,
                                timeout_ms=min(8000, max(1000, budget * 300)), assume=assumed)
    v.searched.append(f"z3 on the catalogue's bounds over all admissible values: {status}"
                      + (f" ({info})" if isinstance(info, str) else ""))
    if status == "proved":
        used_facts = [FACTS[c] for c in core]
        if algorithm == "kernel_perceptron":
            used_facts.append(FACTS["kernel_feature_space"])
        cat_ids = [tid for f in used_facts for tid in f.catalogue]
        cat = catalogue_status(cat_ids)
        v.catalogue_status = cat
        v.theorems = [f"{f.id}: {proved_statement(f.id)} [{f.source}]" + (f" = catalogue {', '.join(f.catalogue)}" if f.catalogue else "")
                      for f in used_facts]
        if not confirmed:
            v.reason = ("z3 derives the claim, but no run satisfying the assumptions was confirmed "
                        "(it could hold only vacuously)")
        elif all(s == "proved" for s in cat.values()):
            v.status = "holds"
            rel = ">" if not strict else ">="
            v.reason = (f"z3: no admissible values of the quantities and no integer M within the theorems "
                        f"below have M {'>=' if strict else '>'} {v.expr} (unsat; {info})")
            _ = rel
            v.trusted = ["z3 (unsat answer on the composed obligation)",
                         "the catalogue's own trusted rules (see mistakebound verify)"]
            if "one_per_trial" in core:
                v.trusted.append("definition: n counts the trials, and each trial is at most one mistake")
            if algorithm == "winnow" or any(isinstance(a, sp.log) for a in sp.preorder_traversal(E)):
                v.trusted.append("log abstraction: log(a) replaced by a variable with log(a) <= a - 1, "
                                 "log(a) >= 1 - 1/a; constants such as log 2 pinned between the rational ends of an "
                                 "interval enclosure (true facts)")
            v.seconds = time.monotonic() - t0
            return v
        else:
            v.reason = "z3 derives the claim from theorems the catalogue did not prove: " + \
                ", ".join(f"{k} ({s})" for k, s in cat.items() if s != "proved")
    hint = None
    if status == "not_implied" and isinstance(info, dict):
        v.searched.append("z3 model not excluded by the theorems: " + ", ".join(f"{k}={x}" for k, x in info.items()))
        hint = model_hint(algorithm, info)

    from refutation.lower_bounds import lower_bound_note
    v.lower_bound = lower_bound_note(algorithm, st, E, strict)

    # 2. refuted?
    if search:
        ref = refute(algorithm, st, variant, E, strict, deadline, v, assumed, hint=hint)
        if ref:
            if out is not None:
                try:
                    v.sequence.save(out)
                except OSError as e:
                    raise InputError(f"cannot write the sequence to {out}: {e.strerror or e}") from None
                v.out = str(out)
            v.seconds = time.monotonic() - t0
            return v
    v.seconds = time.monotonic() - t0
    return v
