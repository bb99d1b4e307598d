"""Exact certification of a sequence: replay it with the exact reference learner and compute
every figure the mistake-bound theorems speak of, as rationals.

``certify(seq) -> Certificate``.  The figures:

Perceptron (Block-Novikoff, margin-1 form, Lin's slides; Blum's notes in unit-length form):
  R^2 = max |x|^2 (with a bias: max |x|^2 + 1, the augmented examples (x, 1));
  m = min y (w*.x + b*) for the file's target;
  separable (m > 0): w* scaled by 1/m, so |w*|^2 = |target|^2 / m^2 and bound = R^2 |w*|^2
  (= 1/gamma^2 with gamma the normalized margin, gamma^2 = m^2 / (R^2 |target|^2));
  inseparable (m <= 0): the target is used as given (the hinge bound holds for every w):
  L = sum over every visit of max(0, 1 - y (w*.x + b*)), textbook bound R^2 |w*|^2 + 2L, and
  the exact form (c/2 + sqrt(c^2/4 + L))^2 with c^2 = R^2 |w*|^2, decided exactly through
  M <= L or (M - L)^2 <= c^2 M (the quadratic the proof solves).  Blum's TD_gamma form
  1/gamma^2 + (2/gamma) TD_gamma is the same number when R = 1 (gamma = 1/|w*|, TD = gamma L).
Kernel perceptron: the same in feature space, with R_phi^2 = max K(x, x), |w*|^2 = beta^T G beta
  and margins y (G beta)_i.  The Gaussian kernel is irrational: its values are enclosed in
  rational intervals (mpmath interval arithmetic, 200 bits), every mistake decision is checked
  to be the same for every kernel value in the intervals, and bound and ratio are intervals.
Winnow (Blum's notes; Littlestone 1988): with P the promotions and D the demotions,
  halve:     M <= 3r(1 + lg theta) + 2n/theta        (theta = n: 2 + 3r(1 + lg n))
  eliminate: M <= 2r(1 + lg theta) + n/theta         (theta = n: 1 + 2r(1 + lg n))
  winnow2:   M <= (1+alpha) r (1 + log_alpha theta) + alpha n / ((alpha - 1) theta)
  (valid for theta >= 1), decided exactly as base^(p) <= theta^(s) where (M - A)/B = p/s; the
  bound is a rational when log theta is, else a float for display only, next to the largest
  integer M it allows (``max_mistakes_allowed``, exact).  For theta = n = 2^p the sharper forms
  1 + r(3 lg n - 2) (halve) and r(2 lg n - 1) (eliminate) proved in proofs/sharper_winnow.py
  (winnow_halving_pow2, winnow_elimination_pow2) are reported too (``sharper_bound``,
  ``ratio_sharper``), and for halving with r >= 1 the tight r(3 lg n - 2)
  (winnow_halving_pow2_tight, found by the exact adversary; ``tight_bound``, ``ratio_tight``,
  ``within_tight``, ``tight_theorem``).  The halve/eliminate bounds
  at theta = n are the catalogue's winnow_halving_bound / winnow_elimination_bound; other theta
  and winnow2 use the same potential argument, derived here directly.

Claims stored in the file (``claims``: mistakes, bound, ratio, ...) are compared with the
recomputed figures; a mismatch rejects the file and names the figure.

Trusted steps (named in every certificate): the reference learners of ``learners`` (exact
mode), Python's ``fractions``, and for Gaussian kernels mpmath's interval ``exp``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from learners.errors import InputError
from learners.numbers import fraction_str

from .sequence import Sequence

__all__ = ["Certificate", "certify", "winnow_bound", "winnow_sharper_bound", "winnow_tight_bound", "within_log_bound",
           "hinge_exact_form_float", "CLAIM_TOLERANCE"]

CLAIM_TOLERANCE = 1e-9      # relative, for figures that are not rational (floats for display)
GAUSS_PREC = 200            # bits for the Gaussian kernel intervals


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


# --------------------------------------------------------------------------------- bounds --
def _log_rational(base: Fraction, theta: Fraction):
    """log_base(theta) as a Fraction when it is an integer power relation base^k = theta^1
    (or theta = base^(p/q) with small q), else None."""
    if theta <= 0 or base <= 1:
        return None
    for q in range(1, 13):
        # theta^q = base^p ?
        tq = theta ** q
        x, p = Fraction(1), 0
        if tq >= 1:
            while x < tq:
                x *= base
                p += 1
            if x == tq:
                return Fraction(p, q)
        else:
            while x > tq:
                x /= base
                p -= 1
            if x == tq:
                return Fraction(p, q)
    return None


def within_log_bound(M: int, A: Fraction, B: Fraction, base: Fraction, theta: Fraction) -> bool:
    """Decide M <= A + B log_base(theta) exactly (B > 0, base > 1, theta > 0)."""
    if M <= A:
        return True
    q = (Fraction(M) - A) / B            # need q <= log_base theta, i.e. base^q <= theta
    p, s = q.numerator, q.denominator
    return base ** p <= theta ** s


def winnow_bound(variant: str, n: int, r: int, alpha=2, theta=None):
    """(A, B, base) with M <= A + B log_base(theta); None when theta < 1 (not covered)."""
    alpha = Fraction(alpha)
    theta = Fraction(n) if theta is None else Fraction(theta)
    if theta < 1:
        return None
    if variant == "halve":
        return Fraction(3 * r) + Fraction(2 * n) / theta, Fraction(3 * r), Fraction(2)
    if variant == "eliminate":
        return Fraction(2 * r) + Fraction(n) / theta, Fraction(2 * r), Fraction(2)
    if variant == "winnow2":
        return (1 + alpha) * r + alpha * n / ((alpha - 1) * theta), (1 + alpha) * r, alpha
    raise InputError(f"unknown Winnow variant {variant!r}")


def winnow_sharper_bound(variant: str, n: int, r: int, alpha=2, theta=None):
    """The sharper bounds for theta = n = 2^p (proofs/sharper_winnow.py: theorems
    winnow_halving_pow2, n >= 2, and winnow_elimination_pow2, n >= 2 and r >= 1), else None."""
    if theta is not None and Fraction(theta) != n:
        return None
    if n < 2 or n & (n - 1):
        return None
    p = n.bit_length() - 1
    if variant == "halve":
        return Fraction(1 + r * (3 * p - 2))
    if variant == "eliminate" and r >= 1:
        return Fraction(r * (2 * p - 1))
    return None


TIGHT_THEOREM = "winnow_halving_pow2_tight"


def winnow_tight_bound(variant: str, n: int, r: int, alpha=2, theta=None):
    """The tight halving bound r(3 lg n - 2) for theta = n = 2^p >= 2 and r >= 1 (proofs/sharper_winnow.py:
    theorem winnow_halving_pow2_tight; attained by the exact adversary), as an exact integer
    Fraction; None outside those conditions (other variants, other theta, n not a power of 2, r = 0)."""
    if variant != "halve" or r < 1:
        return None
    if theta is not None and Fraction(theta) != n:
        return None
    if n < 2 or n & (n - 1):
        return None
    p = n.bit_length() - 1
    return Fraction(r * (3 * p - 2))


def max_mistakes_allowed(A: Fraction, B: Fraction, base: Fraction, theta: Fraction) -> int:
    """The largest integer M with M <= A + B log_base(theta), decided exactly."""
    M = max(0, math.floor(A))
    while within_log_bound(M + 1, A, B, base, theta):
        M += 1
    return M


def hinge_exact_form_float(c2: Fraction, L: Fraction) -> float:
    """(c/2 + sqrt(c^2/4 + L))^2 as a float (display only; the comparison is exact)."""
    from decimal import Decimal, getcontext
    getcontext().prec = 50
    c2d = Decimal(c2.numerator) / Decimal(c2.denominator)
    Ld = Decimal(L.numerator) / Decimal(L.denominator)
    c = c2d.sqrt()
    return float((c / 2 + (c2d / 4 + Ld).sqrt()) ** 2)


# ------------------------------------------------------------------------------- certify --
def certify(seq: Sequence, *, record: str = "none") -> Certificate:
    """Replay ``seq`` with the exact learner and compute its figures; check its claims."""
    if not isinstance(seq, Sequence):
        raise InputError("certify needs an adversary.sequence.Sequence")
    fn = {"perceptron": _certify_perceptron, "winnow": _certify_winnow,
          "kernel_perceptron": _certify_kernel}[seq.algorithm]
    cert = fn(seq, record)
    _check_claims(seq, cert)
    return cert


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


def _certify_perceptron(seq: Sequence, record: str) -> Certificate:
    from learners import run_perceptron
    X, y = seq.examples, seq.labels
    tb = seq.target_bias if seq.bias and seq.target is not None else None
    tr = run_perceptron(X, y, epochs=seq.epochs, bias=seq.bias, exact=True, record=record,
                        target=seq.target, target_bias=(tb if tb is not None else (0 if seq.bias and seq.target is not None else None)))
    M = tr.mistakes
    cert = Certificate("perceptron", M, tr.n_steps, trace=tr,
                       trusted=["learners.run_perceptron (exact mode)", "fractions.Fraction"])
    f = cert.figures
    f.update(n_examples=seq.n_examples, dim=seq.dim, epochs=seq.epochs, bias=seq.bias)
    extra = 1 if seq.bias else 0
    r_sq = max(_dot(x, x) for x in X) + extra
    if seq.target is None:
        f["r_sq"] = r_sq
        f["note"] = "no target in the file: mistakes only, no bound"
        return cert
    b = tb if tb is not None else Fraction(0)
    margins = [yi * (_dot(seq.target, x) + b) for x, yi in zip(X, y)]
    m = min(margins)
    w_sq = _dot(seq.target, seq.target) + (b * b if seq.bias else 0)
    hinge = [max(Fraction(0), 1 - mi) for mi in margins]
    L_all = sum((hinge[i] for i in tr.order), Fraction(0))
    L_mis = sum((hinge[i] for i, mk in zip(tr.order, tr.mistake_flags) if mk), Fraction(0))
    _perceptron_figures(M, L_all, L_mis, r_sq, w_sq, m, cert, seq.evaluate)
    return cert


def _certify_winnow(seq: Sequence, record: str) -> Certificate:
    from learners import run_winnow
    tr = run_winnow(seq.examples, seq.labels, epochs=seq.epochs, theta=seq.theta, variant=seq.variant,
                    alpha=seq.alpha, exact=True, record=record)
    M = tr.mistakes
    cert = Certificate("winnow", M, tr.n_steps, trace=tr,
                       trusted=["learners.run_winnow (exact mode)", "fractions.Fraction"])
    n = seq.dim
    theta = Fraction(n) if seq.theta is None else seq.theta
    f = cert.figures
    f.update(n=n, n_examples=seq.n_examples, epochs=seq.epochs, variant=seq.variant,
             alpha=seq.alpha, theta=theta)
    promotions = sum(1 for i, mk in zip(tr.order, tr.mistake_flags) if mk and seq.labels[i] == 1)
    f["promotions"] = promotions
    f["demotions"] = M - promotions
    if seq.target is None:
        f["note"] = "no target in the file: mistakes only, no bound"
        return cert
    r = len(seq.target)
    f["r"] = r
    ab = winnow_bound(seq.variant, n, r, seq.alpha, theta)
    if ab is None:
        f["note"] = "theta < 1: no bound in the catalogue"
        return cert
    A, B, base = ab
    f["bound_form"] = {"halve": "3r(1 + lg theta) + 2n/theta", "eliminate": "2r(1 + lg theta) + n/theta",
                       "winnow2": "(1+alpha) r (1 + log_alpha theta) + alpha n/((alpha-1) theta)"}[seq.variant]
    if theta == n and seq.variant != "winnow2":
        f["bound_form"] = {"halve": "2 + 3r(1 + lg n)", "eliminate": "1 + 2r(1 + lg n)"}[seq.variant]
    f["bound_A"], f["bound_B"], f["log_base"] = A, B, base
    lg = _log_rational(base, theta)
    if lg is not None:
        cert.bound = A + B * lg
        cert.ratio = Fraction(M) / cert.bound
    else:
        cert.bound = float(A) + float(B) * math.log(theta) / math.log(base)
        cert.ratio = M / cert.bound
        f["bound_note"] = "log is irrational: bound and ratio are floats (display); within_bound is exact"
    cert.within_bound = within_log_bound(M, A, B, base, theta)
    f["max_mistakes_allowed"] = max_mistakes_allowed(A, B, base, theta)
    f["ratio_max_allowed"] = Fraction(M, f["max_mistakes_allowed"]) if f["max_mistakes_allowed"] else None
    if theta == n and seq.variant != "winnow2":
        f["theorem"] = {"halve": "winnow_halving_bound", "eliminate": "winnow_elimination_bound"}[seq.variant]
    else:
        f["theorem"] = "direct (potential argument in adversary/certify.py; not in the catalogue for this alpha/theta)"
    if seq.variant in ("halve", "eliminate"):      # these variants always use factor 2
        sb = winnow_sharper_bound(seq.variant, n, r, seq.alpha, theta)
        if sb is not None:
            f["sharper_bound"] = sb
            f["sharper_theorem"] = {"halve": "winnow_halving_pow2", "eliminate": "winnow_elimination_pow2"}[seq.variant]
            f["ratio_sharper"] = Fraction(M) / sb if sb > 0 else None
            f["within_sharper"] = M <= sb
            if M > sb:
                cert.within_bound = False
                cert.reasons.append(f"{M} mistakes exceed the sharper bound {sb} ({f['sharper_theorem']})")
        tb = winnow_tight_bound(seq.variant, n, r, seq.alpha, theta)
        if tb is not None:
            f["tight_bound"] = tb
            f["tight_theorem"] = TIGHT_THEOREM
            f["ratio_tight"] = Fraction(M) / tb if tb > 0 else None
            f["within_tight"] = M <= tb
            if M > tb:
                cert.within_bound = False
                cert.reasons.append(f"{M} mistakes exceed the tight bound {tb} ({TIGHT_THEOREM})")
    if not cert.within_bound:
        cert.reasons.append(f"{M} mistakes exceed the bound {cert.bound}: the replay contradicts the theorem")
    return cert


# ------------------------------------------------------------------------------- kernels --
def _gauss_interval(c: Fraction, d2: Fraction):
    """Rational lo <= exp(-c d2) <= hi (mpmath interval arithmetic)."""
    if d2 == 0:
        return Fraction(1), Fraction(1)
    from mpmath import iv
    iv.prec = GAUSS_PREC
    x = iv.mpf(-(c * d2).numerator) / iv.mpf((c * d2).denominator)
    e = iv.exp(x)
    a, b = e._mpi_
    return _raw_mpf_frac(a), _raw_mpf_frac(b)


def _outward(lo: Fraction, hi: Fraction, bits: int = 64):
    """A shorter enclosure: lo rounded down and hi rounded up to multiples of 2^-bits (relative)."""
    def rnd(v: Fraction, up: bool) -> Fraction:
        if v == 0:
            return v
        e = max(0, bits - (abs(v.numerator).bit_length() - v.denominator.bit_length()))
        q = Fraction(2) ** e
        x = v * q
        k = -((-x.numerator) // x.denominator) if up else x.numerator // x.denominator
        return Fraction(k) / q
    return rnd(lo, False), rnd(hi, True)


def _raw_mpf_frac(t) -> Fraction:
    """An mpmath raw mpf tuple (sign, man, exp, bc) -> its exact Fraction value."""
    sign, man, exp, _bc = t
    v = Fraction(int(man)) * (Fraction(2) ** int(exp))
    return -v if sign else v


def _certify_kernel(seq: Sequence, record: str) -> Certificate:
    from learners import run_kernel_perceptron
    from learners.kernels import parse_kernel
    K = parse_kernel(seq.kernel)
    X, y, n = seq.examples, seq.labels, seq.n_examples
    gaussian = K.name == "gaussian"
    trusted = ["learners.run_kernel_perceptron (exact mode)", "fractions.Fraction"]
    if gaussian:
        trusted.append(f"mpmath interval exp ({GAUSS_PREC} bits) for the Gaussian kernel")
        c = K.params["c"]
        lo = [[None] * n for _ in range(n)]
        hi = [[None] * n for _ in range(n)]
        for i in range(n):
            for j in range(i, n):
                d2 = sum(((a - b) ** 2 for a, b in zip(X[i], X[j])), Fraction(0))
                l, h = _gauss_interval(c, d2)
                lo[i][j] = lo[j][i] = l
                hi[i][j] = hi[j][i] = h
        index = {x: i for i, x in reversed(list(enumerate(X)))}

        def kmid(a, b):
            i, j = index[tuple(a)], index[tuple(b)]
            return (lo[i][j] + hi[i][j]) / 2
        kern = kmid
    else:
        kern = K
    tr = run_kernel_perceptron(X, y, kern, epochs=seq.epochs, bias=seq.bias, exact=True,
                               record="all" if gaussian else record, target_alpha=seq.target)
    M = tr.mistakes
    cert = Certificate("kernel_perceptron", M, tr.n_steps, trace=tr, trusted=trusted)
    f = cert.figures
    f.update(n_examples=n, dim=seq.dim, epochs=seq.epochs, bias=seq.bias, kernel=K.spec())
    if gaussian:
        # every decision must be the same for every kernel value inside the intervals
        prev = [Fraction(0)] * n
        for st in tr.steps:
            i = st.index
            err = sum((abs(prev[j]) * (hi[j][i] - lo[j][i]) / 2 for j in range(n) if prev[j]), Fraction(0))
            if abs(st.activation) <= err and err > 0:
                cert.claims_ok = False
                cert.reasons.append(f"step {st.t}: the Gaussian activation is within {float(err):.3g} of 0; "
                                    "the mistake decision cannot be certified")
                break
            prev = list(st.weights)
        f["gaussian_decisions_certified"] = cert.claims_ok
    extra = 1 if seq.bias else 0
    if gaussian:
        r_sq = Fraction(1) + extra
    else:
        r_sq = max(K(x, x) for x in X) + extra
    if seq.target is None:
        f["r_sq"] = r_sq
        f["note"] = "no target in the file: mistakes only, no bound"
        return cert
    beta = seq.target
    b = seq.target_bias if (seq.bias and seq.target_bias is not None) else Fraction(0)
    sup = [j for j in range(n) if beta[j] != 0]
    if not gaussian:
        G = {}

        def g(i, j):
            key = (i, j) if i <= j else (j, i)
            if key not in G:
                G[key] = K(X[key[0]], X[key[1]])
            return G[key]
        fx = [sum((beta[j] * g(j, i) for j in sup), Fraction(0)) for i in range(n)]
        w_sq = sum((beta[i] * beta[j] * g(i, j) for i in sup for j in sup), Fraction(0)) + (b * b if seq.bias else 0)
        margins = [yi * (fx[i] + b) for i, yi in enumerate(y)]
        hinge = [max(Fraction(0), 1 - mi) for mi in margins]
        L_all = sum((hinge[i] for i in tr.order), Fraction(0))
        L_mis = sum((hinge[i] for i, mk in zip(tr.order, tr.mistake_flags) if mk), Fraction(0))
        _perceptron_figures(M, L_all, L_mis, r_sq, w_sq, min(margins), cert, seq.evaluate)
        f["r_phi_sq"] = r_sq
        return cert
    # Gaussian: interval figures
    def prod_iv(a, l, h):        # a * [l, h]
        return (a * l, a * h) if a >= 0 else (a * h, a * l)
    fl, fh = [], []
    for i in range(n):
        s_lo = s_hi = Fraction(0)
        for j in sup:
            p, q = prod_iv(beta[j], lo[j][i], hi[j][i])
            s_lo += p
            s_hi += q
        fl.append(s_lo)
        fh.append(s_hi)
    w_lo = w_hi = Fraction(b * b if seq.bias else 0)
    for i in sup:
        for j in sup:
            p, q = prod_iv(beta[i] * beta[j], lo[i][j], hi[i][j])
            w_lo += p
            w_hi += q
    w_lo = max(w_lo, Fraction(0))
    m_lo = min((fl[i] + b) if yi > 0 else -(fh[i] + b) for i, yi in enumerate(y))
    m_hi = min((fh[i] + b) if yi > 0 else -(fl[i] + b) for i, yi in enumerate(y))
    f["r_sq"] = f["r_phi_sq"] = r_sq
    f["target_norm_sq_interval"] = _outward(w_lo, w_hi)
    f["min_margin_interval"] = _outward(m_lo, m_hi)
    if m_lo <= 0:
        f["note"] = "the target's margin is not certified positive; the Gaussian hinge form is not computed"
        return cert
    b_lo, b_hi = r_sq * w_lo / (m_hi * m_hi), r_sq * w_hi / (m_lo * m_lo)
    f["separable"] = True
    f["bound_interval"] = _outward(b_lo, b_hi)
    f["ratio_interval"] = _outward(Fraction(M) / b_hi, Fraction(M) / b_lo)
    f["bound_form"] = "R_phi^2 |w*|^2 (w* scaled to min margin 1), rational enclosure"
    cert.bound = float((b_lo + b_hi) / 2)
    cert.ratio = M / cert.bound
    cert.within_bound = True if M <= b_lo else (False if M > b_hi else None)
    if cert.within_bound is False:
        cert.reasons.append(f"{M} mistakes exceed the bound interval: the replay contradicts the theorem")
    return cert


# -------------------------------------------------------------------------------- claims --
def _check_claims(seq: Sequence, cert: Certificate) -> None:
    for key, claimed in seq.claims.items():
        if key == "mistakes":
            if claimed != cert.mistakes:
                cert.claims_ok = False
                cert.reasons.append(f"claims.mistakes is {claimed} but the exact replay makes {cert.mistakes} mistakes")
            continue
        if key in ("bound", "ratio"):
            actual = getattr(cert, key)
            interval = cert.figures.get(f"{key}_interval")
            # Winnow: a bound may be stated as the largest integer number of mistakes it allows
            alt = cert.figures.get("max_mistakes_allowed" if key == "bound" else "ratio_max_allowed")
            if alt is not None and isinstance(claimed, (int, Fraction)) and Fraction(claimed) == alt:
                continue
        elif key in cert.figures and isinstance(cert.figures[key], (Fraction, int, float)) \
                and not isinstance(cert.figures[key], bool):
            actual, interval = cert.figures[key], None
        else:
            cert.unchecked_claims.append(key)
            continue
        if actual is None:
            cert.claims_ok = False
            cert.reasons.append(f"claims.{key} is given but the file has no {key} (no target?)")
            continue
        if not _claim_matches(claimed, actual, interval):
            cert.claims_ok = False
            shown = fraction_str(actual) if isinstance(actual, Fraction) else f"{actual:.12g}"
            if len(shown) > 40:
                shown = f"{float(actual):.17g} (a rational with a {len(str(Fraction(actual).denominator))}-digit denominator)"
            c = fraction_str(claimed) if isinstance(claimed, Fraction) else claimed
            cert.reasons.append(f"claims.{key} is {c} but the exact replay gives {shown}")


def _claim_matches(claimed, actual, interval=None) -> bool:
    if not isinstance(claimed, (Fraction, int, float)):
        return False
    c = Fraction(claimed)
    if isinstance(actual, Fraction) or isinstance(actual, int):
        return c == actual
    if interval is not None and interval[0] is not None and interval[1] is not None \
            and interval[0] <= c <= interval[1]:
        return True
    return abs(float(c) - actual) <= CLAIM_TOLERANCE * max(1.0, abs(actual))
