"""mistakebound kernel: min, max, indicators, piecewise and coordinate-wise kernels with known
answers from the literature.  Every verdict is checked against an independent reference: the
kernel written directly in mpmath (50 digits) on the certificate's points (an illegal verdict's
v^T G v must be negative there) or on random point sets of the domain (a legal verdict's Gram
matrices must be numerically PSD), never through the parser under test."""
from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st

from learners.errors import InputError
from refutation import check_kernel
from refutation.kernel_parse import parse_kernel
from refutation.kernel_rules import CITED

mpmath.mp.dps = 50


# ----------------------------------------------------------------------------- reference kernels
def _mp(v):
    f = Fraction(v)
    return mpmath.mpf(f.numerator) / f.denominator


def _dot(a, b):
    return mpmath.fsum(p * q for p, q in zip(a, b))


def _norm(a):
    return mpmath.sqrt(_dot(a, a))


def _cos(a, b):
    return max(-1, min(1, _dot(a, b) / (_norm(a) * _norm(b))))     # clipped: rounding at parallel points


REF = {   # written straight from the definitions; a, b are lists of mpf coordinates
    "min": lambda a, b: min(a[0], b[0]),
    "max": lambda a, b: max(a[0], b[0]),
    "min/max": lambda a, b: min(a[0], b[0]) / max(a[0], b[0]),
    "delta": lambda a, b: mpmath.mpf(1 if a == b else 0),
    "not-delta": lambda a, b: mpmath.mpf(0 if a == b else 1),
    "relu-dot": lambda a, b: max(_dot(a, b), 0),
    "arccos1": lambda a, b: _norm(a) * _norm(b) * (mpmath.sqrt(1 - _cos(a, b) ** 2)
                                                   + (mpmath.pi - mpmath.acos(_cos(a, b))) * _cos(a, b)) / mpmath.pi,
    "arccos0": lambda a, b: 1 - mpmath.acos(_cos(a, b)) / mpmath.pi,
    "hist": lambda a, b: mpmath.fsum(min(p, q) for p, q in zip(a, b)),
    "ghist": lambda a, b: mpmath.fsum(min(abs(p) ** mpmath.mpf("0.5"), abs(q) ** mpmath.mpf("0.5")) for p, q in zip(a, b)),
    "abs": lambda a, b: abs(a[0] - b[0]),
    "-abs": lambda a, b: -abs(a[0] - b[0]),
    "laplace": lambda a, b: mpmath.exp(-abs(a[0] - b[0])),
    "laplace-l1": lambda a, b: mpmath.exp(-mpmath.fsum(abs(p - q) for p, q in zip(a, b))),
    "triangle": lambda a, b: max(0, 1 - abs(a[0] - b[0])),
    "min-norm2": lambda a, b: min(_dot(a, a), _dot(b, b)),
}
C = "dot(x, y)/(norm(x)*norm(y))"
ARCCOS1 = f"norm(x)*norm(y)*(sqrt(1 - ({C})**2) + (pi - acos({C}))*{C})/pi"
ARCCOS0 = f"1 - acos({C})/pi"


def _points(rng, m, d, domain):
    P = rng.integers(-8, 9, size=(m, d)) / 4
    if domain == "nonneg":
        P = np.abs(P)
    elif domain == "positive":
        P = np.abs(P) + 0.25
    return [[Fraction(float(c)) for c in row] for row in P]


def _assert_psd_on_samples(ref, dim, domain, nonzero=False):
    rng = np.random.default_rng(7)
    for d in ([1] if dim == 1 else [1, 2, 3]):
        for _ in range(8):
            pts = _points(rng, 6, d, domain)
            if nonzero and any(all(c == 0 for c in p) for p in pts):
                continue
            G = np.array([[float(ref([_mp(c) for c in p], [_mp(c) for c in q])) for q in pts] for p in pts])
            assert np.allclose(G, G.T)
            assert np.linalg.eigvalsh(G).min() >= -1e-9 * max(1.0, np.abs(G).max())


def _assert_certificate(ref, cert, dim=None):
    pts = [[_mp(c) for c in p] for p in cert["points"]]
    if dim is not None:
        assert cert["dimension"] == dim and all(len(p) == dim for p in pts)
    v = [_mp(c) for c in cert["vector"]]
    q = mpmath.fsum(v[i] * v[j] * ref(pts[i], pts[j]) for i in range(len(v)) for j in range(len(v)))
    assert q < -mpmath.mpf(10) ** -30, (cert, q)
    if cert["method"] == "exact rational arithmetic":
        assert mpmath.almosteq(q, _mp(cert["quadratic_form"]), rel_eps=mpmath.mpf(10) ** -40)


def _rules(v):
    return [s["rule"] for s in v.derivation]


def _legal(expr, ref, rule, dim=None, domain="real", nonzero=False):
    v = check_kernel(expr, dim=dim, domain=domain)
    assert v.status == "legal" and v.exit_code == 0, (expr, v.tried)
    assert rule in _rules(v)
    # the derivation ends with the kernel itself
    last = parse_kernel(v.derivation[-1]["kernel"], dim=dim, domain=domain)
    assert sp.simplify(last - parse_kernel(expr, dim=dim, domain=domain)) == 0
    _assert_psd_on_samples(ref, dim, domain, nonzero)
    return v


def _illegal(expr, ref, dim=None, domain="real", cert_dim=None):
    v = check_kernel(expr, dim=dim, domain=domain)
    assert v.status == "illegal" and v.exit_code == 1, (expr, v.tried)
    _assert_certificate(ref, v.certificate, cert_dim)
    for p in v.certificate["points"]:           # the points lie in the stated domain
        assert all(Fraction(c) >= 0 for c in p) or domain == "real"
        assert all(Fraction(c) > 0 for c in p) or domain != "positive"
    return v


# ----------------------------------------------------------------------------- the kernels
def test_brownian_motion_min_is_legal_on_nonnegative_reals():
    """min(s, t) on [0, inf) is the covariance of Brownian motion (the Wiener process):
    Cov(B_s, B_t) = min(s, t), with features 1_[0, s] in L^2[0, inf)."""
    v = _legal("min(x, y)", REF["min"], "brownian", dim=1, domain="nonneg")
    assert any(t.startswith("brownian-motion") for t in v.trusted) and v.domain == "nonneg"


def test_min_is_illegal_on_the_real_line():
    """On all of R, min(x, y) is not a kernel: K(-1, -1) = -1 < 0 (a 1x1 Gram matrix)."""
    v = _illegal("min(x, y)", REF["min"], dim=1)
    assert len(v.certificate["points"]) == 1


def test_max_is_illegal_even_on_nonnegative_reals():
    """max(x, y) is not PSD: at the points 0 and 1 its Gram matrix [[0, 1], [1, 1]] has
    determinant -1 (the textbook non-example next to the Brownian min)."""
    v = _illegal("max(x, y)", REF["max"], dim=1, domain="nonneg")
    assert v.certificate["determinant"] == "-1"


def test_min_over_max_is_legal_on_positive_reals():
    """min(x, y)/max(x, y) on (0, inf) = exp(-|log x - log y|), the Laplacian (Ornstein–Uhlenbeck)
    covariance in log coordinates; derived here as min(x, y) · min(1/x, 1/y), a product of two
    Brownian-motion kernels (1/max is min of 1/x by monotonicity)."""
    v = _legal("min(x, y)/max(x, y)", REF["min/max"], "brownian", dim=1, domain="positive")
    assert {"monotone", "product"} <= set(_rules(v))


def test_equality_indicator_is_legal():
    """1[x = y], the Kronecker delta (white-noise) kernel: features e_x in l^2; the Gram matrix of
    any points is block-diagonal with all-ones blocks."""
    for expr in ("1[x == y]", "ind(x == y)", "1 if x == y else 0"):
        v = _legal(expr, REF["delta"], "delta")
        assert any(t.startswith("equality-indicator") for t in v.trusted)
    _legal("1[x == y]", REF["delta"], "delta", dim=1)


def test_inequality_indicator_is_illegal():
    """1[x != y] = 1 - delta: at two distinct points its Gram matrix is [[0, 1], [1, 0]]."""
    _illegal("1[x != y]", REF["not-delta"])


def test_relu_of_the_dot_product_is_illegal_in_dimension_2():
    """max(x·y, 0) is not PSD once d >= 2 (its restriction to the circle has a negative Fourier
    coefficient), unlike the arc-cosine kernel of Cho & Saul (2009), which is the *expectation*
    2 E_w[relu(w·x) relu(w·y)].  The certificate has 2 coordinates."""
    _illegal("max(dot(x, y), 0)", REF["relu-dot"], cert_dim=2)
    _illegal("max(dot(x, y), 0)", REF["relu-dot"], dim=2, cert_dim=2)
    _illegal("relu(dot(x, y))", REF["relu-dot"], cert_dim=2)


def test_relu_of_the_product_is_legal_in_dimension_1():
    """In one dimension max(xy, 0) = x+ y+ + x- y-: a sum of two rank-one kernels."""
    v = _legal("max(dot(x, y), 0)", REF["relu-dot"], "sign-split", dim=1)
    assert v.trusted == []                      # identities and closure rules only
    _legal("dot(x, y) if dot(x, y) > 0 else 0", REF["relu-dot"], "piecewise-minmax", dim=1)


def test_arc_cosine_kernels_are_legal():
    """The arc-cosine kernels of degree 1 and 0 (Cho & Saul, Kernel Methods for Deep Learning,
    NIPS 2009): k_1 = |x||y|(sin t + (pi - t) cos t)/pi and k_0 = 1 - t/pi, t the angle."""
    v = _legal(ARCCOS1, REF["arccos1"], "arc-cosine", nonzero=True)
    assert any("Cho & Saul" in t for t in v.trusted)
    _legal(ARCCOS0, REF["arccos0"], "arc-cosine", nonzero=True)


def test_histogram_intersection_is_legal_on_nonnegative_vectors():
    """sum_i min(x_i, y_i) on [0, inf)^d: the histogram-intersection kernel (Swain & Ballard 1991),
    positive definite (Barla, Odone & Verri, ICIP 2003): a sum of Brownian kernels."""
    v = _legal("sum(min(x, y))", REF["hist"], "coordinate-sum", domain="nonneg")
    assert "brownian" in _rules(v)
    _illegal("sum(min(x, y))", REF["hist"])          # with negative coordinates it is not


def test_generalized_histogram_intersection_is_legal_on_all_vectors():
    """sum_i min(|x_i|^a, |y_i|^a), the generalized histogram intersection kernel (Boughorbel,
    Tarel & Boujemaa, ICIP 2005), positive definite on all of R^d for a > 0."""
    _legal("sum(min(abs(x)**0.5, abs(y)**0.5))", REF["ghist"], "brownian")


def test_distance_is_illegal_and_its_negative_only_conditionally_psd():
    """|x - y| is not PSD (zero diagonal, positive off-diagonal); -|x - y| is only conditionally
    PSD (a metric of negative type, Schoenberg 1938): v^T G v >= 0 needs sum v = 0, and with
    v = (1, 1) the Gram matrix [[0, -1], [-1, 0]] gives -2."""
    _illegal("abs(x - y)", REF["abs"], dim=1)
    v = _illegal("-abs(x - y)", REF["-abs"], dim=1)
    assert sum(Fraction(c) for c in v.certificate["vector"]) != 0      # not a conditional certificate


def test_laplacian_kernel_is_legal_in_one_dimension_and_with_the_l1_norm():
    """exp(-|x - y|), the Laplacian kernel (the Ornstein–Uhlenbeck covariance): derived from
    Brownian motion, exp(-|x - y|) = e^-x e^-y min(e^2x, e^2y).  With the l1 norm,
    exp(-sum_i |x_i - y_i|) is the product of the one-dimensional ones."""
    v = _legal("exp(-abs(x - y))", REF["laplace"], "abs-min", dim=1)
    assert {"brownian", "monotone", "exp-split"} <= set(_rules(v))
    assert not any("power-series" in t for t in v.trusted)
    _legal("exp(-norm(x - y))", REF["laplace"], "abs-min", dim=1)
    _legal("exp(-sum(abs(x - y)))", REF["laplace-l1"], "coordinate-product")


def test_triangular_kernel_is_legal_in_dimension_1():
    """max(0, 1 - |x - y|), the triangular kernel on the line: the autocorrelation of the box
    1_[-1/2, 1/2], i.e. the overlap length of two unit intervals."""
    v = _legal("max(0, 1 - abs(x - y))", REF["triangle"], "box-overlap", dim=1)
    assert any(t.startswith("box-overlap") for t in v.trusted)


def test_min_of_squared_norms_is_legal_in_every_dimension():
    """min(|x|^2, |y|^2): the Brownian kernel composed with x -> |x|^2 >= 0."""
    _legal("min(dot(x, x), dot(y, y))", REF["min-norm2"], "brownian")


def test_euclidean_laplacian_stays_unknown_never_illegal():
    """exp(-|x - y|_2) is PSD in every dimension (Schoenberg), a theorem the rules do not encode:
    the answer must be unknown, never illegal."""
    v = check_kernel("exp(-norm(x - y))", budget=1.0)
    assert v.status == "unknown"


# ----------------------------------------------------------------------------- identities
def test_identities_hold_by_cases():
    a, t = sp.Symbol("a", real=True), sp.Symbol("t", real=True)
    p, q, c = sp.symbols("p q c", nonnegative=True)
    # |a - b| = a + b - 2 min(a, b): b above or below a
    for b in (a + p, a - p):
        assert sp.simplify(sp.Abs(a - b) - (a + b - 2 * sp.Min(a, b))) == 0
    # max(c a b, 0) = c (a+ b+ + a- b-): the four sign cases
    for sa in (1, -1):
        for sb in (1, -1):
            A, B = sa * p, sb * q
            lhs = sp.Max(c * A * B, 0)
            rhs = c * (sp.Max(A, 0) * sp.Max(B, 0) + sp.Max(-A, 0) * sp.Max(-B, 0))
            assert sp.simplify(lhs - rhs) == 0, (sa, sb)
    # where(a >= b, a, b) = max(a, b); where(a <= b, a, b) = min(a, b): b above, below, equal
    r = sp.Symbol("r", positive=True)
    for b in (a + r, a - r, a):
        for cond, mm in ((sp.Ge(a, b), sp.Max), (sp.Le(a, b), sp.Min)):
            pw = sp.Piecewise((a, cond), (b, True))
            assert sp.simplify(pw - mm(a, b)) == 0
    # the monotone rewrites and exp of a sum, on random numbers
    rng = np.random.default_rng(3)
    for _ in range(50):
        u, w, k = (mpmath.mpf(float(z)) for z in rng.normal(size=3) * 3)
        k = abs(k) + mpmath.mpf("0.1")
        assert mpmath.exp(k * min(u, w)) == min(mpmath.exp(k * u), mpmath.exp(k * w))
        assert mpmath.exp(-k * max(u, w)) == min(mpmath.exp(-k * u), mpmath.exp(-k * w))
        pu, pw_ = abs(u) + 1, abs(w) + 1
        assert 1 / max(pu, pw_) == min(1 / pu, 1 / pw_)
        assert mpmath.almosteq(mpmath.exp(-k * (u + w)), mpmath.exp(-k * u) * mpmath.exp(-k * w), rel_eps=mpmath.mpf(10) ** -40)
    assert t.is_real


def test_cited_theorems_are_named_with_their_feature_map_or_source():
    assert set(CITED) == {"brownian", "delta", "box-overlap", "arc-cosine"}
    assert "L^2[0, inf)" in CITED["brownian"] and "l^2" in CITED["delta"]
    assert "L^2(R)" in CITED["box-overlap"] and "Cho & Saul" in CITED["arc-cosine"]


# ----------------------------------------------------------------------------- language and domain
@pytest.mark.parametrize("bad,pos,words", [
    ("min(x, y)", 5, "--dim 1"), ("min(x)", 1, "at least 2"), ("ind(x)", 5, "condition"),
    ("where(x == y, 1)", 1, "3 arguments"), ("sum(sum(min(x, y)))", 5, "inside sum"),
    ("2[x == y]", 1, "indexing"), ("x < y", 1, "compare only"), ("1[dot(x, y)]", 3, "condition"),
    ("dot(x, y) < 1", 1, "condition, not a number"), ("piecewise(1, x == y)", 1, "odd number"),
])
def test_language_errors_name_the_position(bad, pos, words):
    with pytest.raises(InputError) as ei:
        check_kernel(bad)
    msg = str(ei.value)
    assert "\n" not in msg and f"(at position {pos})" in msg and words in msg, msg


def test_numbers_only_in_dimension_1():
    assert check_kernel("x*y", dim=1).status == "legal"
    with pytest.raises(InputError):
        check_kernel("x*y", dim=2)
    with pytest.raises(InputError):
        check_kernel("min(x, y)", domain="integers")


def test_stated_dimension_gives_certificates_of_that_dimension():
    v = check_kernel("norm(x - y)**2", dim=3)
    assert v.status == "illegal" and v.certificate["dimension"] == 3
    assert all(len(p) == 3 for p in v.certificate["points"])


@pytest.mark.slow
def test_cli_domain_dim_and_json():
    def cli(*args):
        return subprocess.run([sys.executable, "-m", "mistakebound", "kernel", *args],
                              capture_output=True, text=True, timeout=120)
    r = cli("max(dot(x,y), 0)")
    assert r.returncode == 1 and "counterexample in dimension 2" in r.stdout, r.stdout + r.stderr
    r = cli("min(x, y)", "--dim", "1", "--domain", "nonneg", "--json")
    d = json.loads(r.stdout)
    assert r.returncode == 0 and d["status"] == "legal" and d["domain"] == "nonneg" and d["dimension"] == 1
    assert d["derivation"][-1]["rule"] == "brownian" and d["derivation"][-1]["trusted"] is True
    r = cli("min(x, y)")
    assert r.returncode == 2 and r.stdout == "" and len(r.stderr.strip().splitlines()) == 1
    assert "--dim 1" in r.stderr and "Traceback" not in r.stderr


# ----------------------------------------------------------------------------- properties
_ATOMS = ["min(x, y)", "max(x, y)", "abs(x - y)", "x*y", "ind(x == y)", "1", "1/2", "exp(-abs(x - y))",
          "max(0, 1 - abs(x - y))"]
_MP = {"min": min, "max": max, "abs": abs, "exp": mpmath.exp, "ind": lambda c: 1 if c else 0, "mpf": mpmath.mpf}


@st.composite
def scalar_kernels(draw, depth=2):
    if depth == 0 or draw(st.booleans()):
        return draw(st.sampled_from(_ATOMS))
    op = draw(st.sampled_from(["+", "-", "*", "neg", "scale", "pow"]))
    a = draw(scalar_kernels(depth=depth - 1))
    if op in ("+", "-", "*"):
        return f"({a}) {op} ({draw(scalar_kernels(depth=depth - 1))})"
    if op == "neg":
        return f"-({a})"
    if op == "pow":
        return f"({a})**2"
    return f"{draw(st.sampled_from(['3', '1/3']))}*({a})"


def _scalar_ref(expr):
    def ref(a, b):
        return mpmath.mpf(eval(expr, {"__builtins__": {}, **_MP, "x": a[0], "y": b[0]}))  # noqa: S307 - test strings
    return ref


@settings(max_examples=25, deadline=None)
@given(scalar_kernels(), st.sampled_from(["real", "nonneg"]))
def test_property_scalar_verdicts_are_sound(expr, domain):
    v = check_kernel(expr, dim=1, domain=domain, budget=0.5)
    ref = _scalar_ref(expr.replace("1/2", "(mpf(1)/2)").replace("1/3", "(mpf(1)/3)"))
    if v.status == "illegal" and v.certificate.get("kind") != "asymmetric":
        _assert_certificate(ref, v.certificate)
    elif v.status == "legal":
        _assert_psd_on_samples(ref, 1, domain)
