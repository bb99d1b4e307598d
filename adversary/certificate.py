"""The :class:`Certificate` record of an exact replay, and the perceptron figures shared by the
linear and the kernel perceptron (Block–Novikoff in margin-1 form, the hinge bound and its exact
form; see :mod:`adversary.certify` for what each figure means)."""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from learners.numbers import fraction_str

__all__ = ["Certificate", "hinge_exact_form_float"]


@dataclass
class Certificate:
    algorithm: str
    mistakes: int
    n_steps: int
    bound: Any = None                 # Fraction, or float (irrational bound: display only), or None
    ratio: Any = None                 # M / bound: Fraction when the bound is rational, else float
    within_bound: bool | None = None  # decided exactly
    figures: dict = field(default_factory=dict)
    claims_ok: bool = True
    reasons: list = field(default_factory=list)
    unchecked_claims: list = field(default_factory=list)
    trusted: list = field(default_factory=list)
    trace: Any = None

    @property
    def ok(self) -> bool:
        """The file replays: every claim matches and the bound theorem was not violated."""
        return self.claims_ok and self.within_bound is not False

    def to_json(self) -> dict:
        return {
            "algorithm": self.algorithm, "ok": self.ok, "mistakes": self.mistakes, "n_steps": self.n_steps,
            "bound": _wire(self.bound), "ratio": _wire(self.ratio),
            "ratio_float": None if self.ratio is None else float(self.ratio),
            "within_bound": self.within_bound, "claims_ok": self.claims_ok, "reasons": list(self.reasons),
            "unchecked_claims": list(self.unchecked_claims),
            "figures": {k: _wire(v) for k, v in self.figures.items()}, "trusted": list(self.trusted),
        }


def _wire(v):
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else fraction_str(v)
    if isinstance(v, tuple):
        return [_wire(x) for x in v]
    if isinstance(v, list):
        return [_wire(x) for x in v]
    return v


def _dot(a, b):
    return sum((x * y for x, y in zip(a, b)), Fraction(0))


def hinge_exact_form_float(c2: Fraction, L: Fraction) -> float:
    """(c/2 + sqrt(c^2/4 + L))^2 as a float (display only; the comparison is exact)."""
    from decimal import Decimal, getcontext
    getcontext().prec = 50
    c2d = Decimal(c2.numerator) / Decimal(c2.denominator)
    Ld = Decimal(L.numerator) / Decimal(L.denominator)
    c = c2d.sqrt()
    return float((c / 2 + (c2d / 4 + Ld).sqrt()) ** 2)



def _perceptron_figures(M, L_all, L_mis, r_sq, w_sq, m, cert: Certificate, evaluate: str = "auto"):
    """Shared by the linear and kernel perceptron (exact rationals)."""
    f = cert.figures
    f["r_sq"] = r_sq
    f["target_norm_sq"] = w_sq
    f["min_margin"] = m                      # min y (w*.x + b*) for the target as given
    if w_sq == 0:
        cert.reasons.append("the target is the zero vector: no bound")
        cert.claims_ok = False
        return
    if m > 0 and evaluate == "auto":
        f["separable"] = True
        f["w_norm_sq"] = w_sq / (m * m)          # |w*|^2 after scaling to min margin 1
        f["gamma_sq"] = m * m / (r_sq * w_sq)     # normalized margin squared
        bound = r_sq * w_sq / (m * m)
        f["hinge_loss"] = Fraction(0)
        cert.bound = bound
        cert.ratio = Fraction(M) / bound
        cert.within_bound = M <= bound
        f["bound_form"] = "R^2 |w*|^2 (w* scaled to min y w*.x = 1)"
        f["theorem"] = "block_novikoff_bias" if f.get("bias") else "block_novikoff_margin_one"
    else:
        f["separable"] = m > 0
        f["evaluated_at"] = "the target as given (hinge form)"
        f["w_norm_sq"] = w_sq
        c2 = r_sq * w_sq
        f["hinge_loss"] = L_all
        f["hinge_loss_mistakes"] = L_mis
        bound = c2 + 2 * L_all
        f["bound_form"] = "R^2 |w*|^2 + 2 L(w*) (target as given, L over every visit)"
        f["theorem"] = "hinge_loss_bound; exact form: hinge_bound_exact_form"
        cert.bound = bound
        cert.ratio = Fraction(M) / bound
        cert.within_bound = M <= bound
        ex = hinge_exact_form_float(c2, L_all)
        f["exact_form"] = ex
        f["exact_form_text"] = "(c/2 + sqrt(c^2/4 + L))^2, c^2 = R^2 |w*|^2"
        f["ratio_exact_form"] = M / ex if ex else None
        within_exact = M <= L_all or (M - L_all) ** 2 <= c2 * M
        f["within_exact_form"] = within_exact
        f["exact_form_attained"] = M >= L_all and (M - L_all) ** 2 == c2 * M   # M equals the exact form
        # the sharper version with the loss over the mistakes only (what the proof uses)
        f["within_exact_form_mistakes"] = M <= L_mis or (M - L_mis) ** 2 <= c2 * M
        if r_sq == 1:   # Blum's TD_gamma form with gamma = 1/|w*|, TD_gamma = gamma L: the same number
            f["blum_td_form"] = "1/gamma^2 + (2/gamma) TD_gamma = |w*|^2 + 2L (R = 1, gamma = 1/|w*|): equal to the textbook bound"
        if not within_exact:
            cert.within_bound = False
    if cert.within_bound is False:
        cert.reasons.append(f"{M} mistakes exceed the bound {fraction_str(cert.bound) if isinstance(cert.bound, Fraction) else cert.bound}: "
                            "the replay contradicts the theorem (learner or certificate bug)")
