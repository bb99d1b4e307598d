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
  1 + r(3 lg n - 2) (halve) and r(2 lg n - 1) (eliminate) proved in proofs/catalogue/winnow_pow2_bound.py
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
from fractions import Fraction

from learners.errors import InputError
from learners.numbers import fraction_str

from adversary.certificate import Certificate, _dot, _perceptron_figures, hinge_exact_form_float
from adversary.certify_experts import certify_experts
from adversary.certify_kernel import _certify_kernel
from adversary.sequence import Sequence
from adversary.winnow_theorems import (TIGHT_THEOREM, log_rational as _log_rational, max_mistakes_allowed,
                              winnow_bound, winnow_sharper_bound, winnow_tight_bound, within_log_bound)

__all__ = ["Certificate", "certify", "winnow_bound", "winnow_sharper_bound", "winnow_tight_bound", "within_log_bound",
           "hinge_exact_form_float", "CLAIM_TOLERANCE"]

CLAIM_TOLERANCE = 1e-9      # relative, for figures that are not rational (floats for display)


# ------------------------------------------------------------------------------- certify --
def certify(seq: Sequence, *, record: str = "none") -> Certificate:
    """Replay ``seq`` with the exact learner and compute its figures; check its claims."""
    if not isinstance(seq, Sequence):
        raise InputError("certify needs an adversary.sequence.Sequence")
    fn = {"perceptron": _certify_perceptron, "winnow": _certify_winnow,
          "kernel_perceptron": _certify_kernel, "weighted_majority": certify_experts,
          "randomized_weighted_majority": certify_experts}[seq.algorithm]
    cert = fn(seq, record)
    _check_claims(seq, cert)
    return cert


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
