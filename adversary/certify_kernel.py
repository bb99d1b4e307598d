"""Exact certification of a kernel-perceptron sequence: the replay, and the perceptron figures in
feature space (R_phi^2 = max K(x, x), |w*|^2 = beta^T G beta, margins y (G beta)_i).  The Gaussian
kernel's values are enclosed in rational intervals (mpmath interval arithmetic, 200 bits); every
mistake decision is checked to be the same for every kernel value inside them."""
from __future__ import annotations

from fractions import Fraction

from adversary.certificate import Certificate, _perceptron_figures
from adversary.sequence import Sequence

__all__ = ["GAUSS_PREC"]

GAUSS_PREC = 200            # bits for the Gaussian kernel intervals


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
