"""Is ``K(x, y)`` a legal kernel (positive semidefinite on every finite set of points)?

Three answers, each with its evidence:

* **legal** — a derivation by the closure rules (Lin's slides, the catalogue's kernel family):
  base kernels (the linear kernel x·y, constants c >= 0), cK (c >= 0), K1 + K2, K1·K2, K^k,
  polynomials with nonnegative coefficients in x·y, f(x)f(y)K, and exp / sinh / cosh of a legal
  kernel.  The last is the one step no algebra can check — exp is a *limit* of polynomials with
  nonnegative coefficients and the PSD cone is closed — so it is the **named trusted rule**
  ``power-series-limit`` and every derivation that uses it says so.  For min, max, indicators,
  piecewise and coordinate-wise terms, the cited theorems of :mod:`refutation.kernel_rules`
  (Brownian motion, the equality indicator, the box overlap, the arc-cosine kernels) are named
  the same way.  Every algebraic step (a factorisation f(x)f(y)K, the split of an exponent) is
  re-checked by sympy.
* **illegal** — a small set of points with exact rational coordinates and a rational vector v
  with v^T G v < 0 for their Gram matrix G (so G has a negative eigenvalue).  The sign is
  certified exactly: by rational arithmetic when the entries are rational, otherwise by interval
  arithmetic with outward rounding (``mpmath.iv``, named in the certificate) — never by floats.
  The search itself uses floats; only the certificate counts.
* **unknown** — neither; the verdict says what was tried.

The kernel is parsed by :mod:`refutation.kernel_parse` (a function of |x|^2, x·y and |y|^2, of
the numbers x, y in dimension 1, and of coordinate-wise sums and products).  The verdict is about
the stated domain: ``dim`` (None = every dimension; 1 = x and y are numbers) and ``domain``
(``real``, ``nonneg`` = every coordinate >= 0, ``positive`` = every coordinate > 0).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import sympy as sp

from refutation.kernel_derive import TRUSTED_POWER_SERIES, derive, flatten, kernel_display, trusted_texts
from refutation.kernel_parse import check_domain, parse_kernel
from refutation.kernel_search import TRUSTED_INTERVALS, asymmetry, evaluate_kernel_exact, gram_exact, search_counterexample
from refutation.kernel_terms import domain_text

__all__ = ["KernelVerdict", "check_kernel", "TRUSTED_POWER_SERIES", "TRUSTED_INTERVALS",
           "kernel_display", "gram_exact", "evaluate_kernel_exact"]


# --------------------------------------------------------------------------------------------
# The verdict
# --------------------------------------------------------------------------------------------
@dataclass
class KernelVerdict:
    """The answer of :func:`check_kernel`.

    ``status`` is ``"legal"`` (``derivation`` lists the closure-rule steps, ``trusted`` the trusted
    rules used), ``"illegal"`` (``certificate`` holds the points, the exact Gram matrix, the vector
    v and v^T G v) or ``"unknown"`` (``tried`` says what was tried).  ``exit_code`` is the CLI's.
    """
    expr: str
    kernel: str
    status: str
    derivation: list = field(default_factory=list)
    trusted: list = field(default_factory=list)
    certificate: dict | None = None
    tried: list = field(default_factory=list)
    domain_note: str = ""
    seconds: float = 0.0
    domain: str = "real"
    dimension: int | None = None

    @property
    def exit_code(self) -> int:
        return {"legal": 0, "illegal": 1, "unknown": 3}[self.status]

    @property
    def legal(self) -> bool | None:
        return {"legal": True, "illegal": False}.get(self.status)

    def to_json(self) -> dict:
        return {"expr": self.expr, "kernel": self.kernel, "status": self.status,
                "derivation": self.derivation, "trusted": self.trusted,
                "certificate": self.certificate, "tried": self.tried,
                "domain_note": self.domain_note, "domain": self.domain, "dimension": self.dimension,
                "domain_text": domain_text(self.domain, self.dimension), "seconds": round(self.seconds, 4)}

    def explain(self) -> str:
        lines = [f"K(x, y) = {self.expr}" + (f"   [= {self.kernel}]" if self.kernel.replace(" ", "") != self.expr.replace(" ", "") else ""),
                 f"verdict: {self.status.upper()}", f"domain: {domain_text(self.domain, self.dimension)}"]
        if self.status == "legal":
            lines.append("derivation by the closure rules:")
            for s in self.derivation:
                src = f" [from {', '.join(map(str, s['from']))}]" if s["from"] else ""
                note = f"  ({s['note']})" if s["note"] else ""
                lines.append(f"  {s['step']}. {s['kernel']}   <- {s['rule']}{src}: {s['rule_text']}{note}")
            lines.append("trusted rules used: " + ("; ".join(self.trusted) if self.trusted else "none"))
            if self.domain_note:
                lines.append(self.domain_note)
        elif self.status == "illegal":
            c = self.certificate
            lines.append(f"counterexample in dimension {c['dimension']}: points "
                         + ", ".join("(" + ", ".join(p) + ")" for p in c["points"]))
            if c.get("kind") == "asymmetric":
                lines.append(f"  K(p1, p2) = {c['K(p1, p2)']}  but  K(p2, p1) = {c['K(p2, p1)']}")
            else:
                lines.append("  Gram matrix G = [" + "; ".join(", ".join(r) for r in c["gram"]) + "]")
                lines.append(f"  v = ({', '.join(c['vector'])}),  v^T G v = {c['quadratic_form']} < 0")
                if "quadratic_form_upper_bound" in c:
                    lines.append(f"  enclosure upper bound: {c['quadratic_form_upper_bound']}")
                if "determinant" in c:
                    lines.append(f"  det G = {c['determinant']}")
            lines.append(f"  {c['claim']}; certified by {c['method']}")
            for t in c.get("trusted", []):
                lines.append(f"  trusted: {t}")
        else:
            lines.append("tried:")
            lines.extend(f"  - {t}" for t in self.tried)
        lines.append(f"({self.seconds:.2f} s)")
        return "\n".join(lines)


def _domain_note(e) -> str:
    risky = any(isinstance(a, sp.Pow) and a.exp.is_number
                and ((a.exp < 0 and not a.base.is_positive) or (not a.exp.is_Integer and not a.base.is_nonnegative))
                for a in sp.preorder_traversal(e)) or e.has(sp.log) or e.has(sp.tan)
    return ("note: K may be undefined or not real at some points (a division, a root, log or tan); "
            "the verdict is about the points where it is defined and real") if risky else ""


def check_kernel(expr: str, dim: int | None = None, *, budget: float = 5.0, domain: str = "real") -> KernelVerdict:
    """Decide whether ``expr`` is a legal kernel on the stated domain.

    ``dim``: the input dimension; None (default) = every dimension (the derivation is
    dimension-free, the counterexample search tries d = 1, 2, 3); 1 = x and y are numbers
    (``min(x, y)``, ``abs(x - y)``); D >= 2 = x, y in R^D (counterexamples have D coordinates).
    ``domain``: ``real`` (default), ``nonneg`` (every coordinate >= 0) or ``positive`` (> 0).
    ``budget`` bounds the search in seconds.  Raises :class:`InputError` for bad input.
    """
    t0 = time.monotonic()
    check_domain(dim, domain)
    e = parse_kernel(expr, dim=dim, domain=domain)
    kdisp = kernel_display(e)
    deadline = t0 + max(0.5, float(budget))
    tried: list = []
    where = {"domain": domain, "dimension": dim}
    root = derive(e, deadline=t0 + max(0.5, float(budget)) * 0.4)
    tried.append("derivation by the closure rules (cK, K1 + K2, K1·K2, K^k, polynomials with nonnegative "
                 "coefficients, f(x)f(y)K, exp/sinh/cosh of a legal kernel, exponent splitting; min, max, "
                 "indicators, piecewise and coordinate-wise terms by the cited theorems)")
    if root is not None:
        steps = flatten(root)
        return KernelVerdict(expr, kdisp, "legal", derivation=steps, trusted=trusted_texts(steps),
                             domain_note=_domain_note(e), seconds=time.monotonic() - t0, **where)
    cert = search_counterexample(e, deadline, tried, dim=dim, domain=domain)
    if cert is None:
        cert = asymmetry(e, tried, dim=dim, domain=domain)
    if cert is not None:
        return KernelVerdict(expr, kdisp, "illegal", certificate=cert, tried=tried,
                             domain_note=_domain_note(e), seconds=time.monotonic() - t0, **where)
    return KernelVerdict(expr, kdisp, "unknown", tried=tried, domain_note=_domain_note(e),
                         seconds=time.monotonic() - t0, **where)
