"""mistakebound kernel / refutation.check_kernel: legal, illegal (certified), unknown."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from learners.errors import InputError
from refutation import check_kernel
from refutation.kernel_parse import parse_kernel
from refutation.signs import certified_sign

# ----------------------------------------------------------------------------- independent oracle
mpmath.mp.dps = 60


def _vec_eval(expr: str, a, b):
    """K(a, b) computed straight from the text, on mpmath vectors (independent of the
    |x|^2, x.y, |y|^2 translation of refutation.kernel_parse).  Test-only: the strings come from
    this file or from the certificate under test."""
    A = [mpmath.mpf(Fraction(v).numerator) / Fraction(v).denominator for v in a]
    B = [mpmath.mpf(Fraction(v).numerator) / Fraction(v).denominator for v in b]

    class V(list):
        def __add__(self, o):
            return V(p + q for p, q in zip(self, o))

        def __sub__(self, o):
            return V(p - q for p, q in zip(self, o))

        def __mul__(self, c):
            return V(p * c for p in self)
        __rmul__ = __mul__

        def __truediv__(self, c):
            return V(p / c for p in self)

        def __neg__(self):
            return V(-p for p in self)

    ns = {"x": V(A), "y": V(B), "dot": lambda u, v: mpmath.fsum(p * q for p, q in zip(u, v)),
          "norm": lambda u: mpmath.sqrt(mpmath.fsum(p * p for p in u)),
          "exp": mpmath.exp, "tanh": mpmath.tanh, "sqrt": mpmath.sqrt, "cos": mpmath.cos,
          "sin": mpmath.sin, "cosh": mpmath.cosh, "sinh": mpmath.sinh, "log": mpmath.log,
          "abs": abs, "Abs": abs, "pi": mpmath.pi, "E": mpmath.e, "__builtins__": {}}
    ns["M"] = mpmath.mpf
    text = re.sub(r"(?<![\w.])(\d+(?:\.\d+)?)(?![\w.])", r"M('\1')", expr.replace("^", "**"))
    text = text.replace("**M('", "**int('")      # integer exponents stay integers
    ns["int"] = int
    return eval(text, ns)  # noqa: S307 - test oracle on known strings


def _recheck_certificate(expr, cert):
    pts = [[Fraction(c) for c in p] for p in cert["points"]]
    if cert.get("kind") == "asymmetric":
        a, b = pts
        assert abs(_vec_eval(expr, a, b) - _vec_eval(expr, b, a)) > mpmath.mpf(10) ** -40
        return
    v = [Fraction(c) for c in cert["vector"]]
    G = [[_vec_eval(expr, p, q) for q in pts] for p in pts]
    q = mpmath.fsum(mpmath.mpf(v[i].numerator) / v[i].denominator * (mpmath.mpf(v[j].numerator) / v[j].denominator) * G[i][j]
                    for i in range(len(v)) for j in range(len(v)))
    assert q < -mpmath.mpf(10) ** -40, (expr, cert, q)
    # and the exact value printed in the certificate is that number
    if cert["method"].startswith("exact"):
        assert mpmath.almosteq(q, mpmath.mpf(Fraction(cert["quadratic_form"]).numerator) / Fraction(cert["quadratic_form"]).denominator,
                               rel_eps=mpmath.mpf(10) ** -40)


# ----------------------------------------------------------------------------- required examples
@pytest.mark.parametrize("expr", ["(1 + dot(x, y))**2", "exp(-norm(x - y)**2)", "dot(x,y)**3",
                                  "exp(-norm(x - y)**2/2)*(dot(x, y) + 2)**3", "norm(x)*norm(y)",
                                  "dot(x, y)/(norm(x)*norm(y))", "cosh(dot(x, y)) + 3*sinh(2*dot(x, y))",
                                  "exp(1 - 0.5*norm(x - y)**2)", "dot(2*x, y) + dot(x, x)*dot(y, y)"])
def test_legal_kernels_have_derivations(expr):
    v = check_kernel(expr)
    assert v.status == "legal" and v.exit_code == 0
    assert v.derivation and v.derivation[-1]["from"] is not None
    # the last step is the whole kernel
    assert parse_kernel(v.derivation[-1]["kernel"]) - parse_kernel(expr) == 0 or \
        (parse_kernel(v.derivation[-1]["kernel"]) - parse_kernel(expr)).simplify() == 0
    uses_exp = any(s["rule"] in ("exp", "sinh", "cosh") for s in v.derivation)
    assert bool(v.trusted) == uses_exp        # the trusted rule is named exactly when it is used
    if uses_exp:
        assert "power-series-limit" in v.trusted[0]


def test_gaussian_derivation_names_the_factorisation():
    v = check_kernel("exp(-norm(x - y)**2)")
    rules = [s["rule"] for s in v.derivation]
    assert rules == ["linear", "scale", "exp", "exp-split"]
    assert "Gaussian" in v.derivation[-1]["note"] and "exp(-dot(x, x))" in v.derivation[-1]["note"]


def test_polynomial_kernel_derivation_order():
    v = check_kernel("(1 + dot(x, y))**2")
    assert [s["rule"] for s in v.derivation] == ["linear", "polynomial", "power"]
    assert v.derivation[2]["from"] == [2] and v.derivation[1]["from"] == [1]
    assert v.trusted == []


@pytest.mark.parametrize("expr,npts", [("-dot(x, y)", 1), ("dot(x, y) - 1", 1), ("norm(x - y)**2", 2),
                                       ("(dot(x,y) - 1)**2", 2), ("tanh(dot(x,y))", 2),
                                       ("norm(x - y)", 2), ("dot(x,y)**2 - dot(x,y)", 1), ("norm(x)", 2)])
def test_illegal_kernels_have_exact_certificates(expr, npts):
    v = check_kernel(expr)
    assert v.status == "illegal" and v.exit_code == 1
    c = v.certificate
    assert len(c["points"]) == npts
    _recheck_certificate(expr, c)


def test_exact_certificate_for_squared_distance():
    c = check_kernel("norm(x - y)**2").certificate
    assert c["gram"] == [["0", "1"], ["1", "0"]] and c["quadratic_form"] == "-2"
    assert c["method"] == "exact rational arithmetic" and c["determinant"] == "-1"


def test_sigmoid_certificate_uses_intervals_and_names_them():
    c = check_kernel("tanh(dot(x, y))").certificate
    assert c["method"].startswith("interval arithmetic")
    assert c["trusted"] and "outward rounding" in c["trusted"][0]
    assert float(c["quadratic_form_upper_bound"]) < 0


@pytest.mark.parametrize("expr", ["exp(-norm(x - y))", "1/(1 + norm(x - y)**2)", "exp(dot(x, y)) - 1"])
@pytest.mark.slow
def test_legal_but_underivable_kernels_are_unknown_never_illegal(expr):
    v = check_kernel(expr, budget=1.0)
    assert v.status == "unknown" and v.exit_code == 3
    assert any("derivation" in t for t in v.tried) and any("random point sets" in t for t in v.tried)


@pytest.mark.parametrize("bad,pos", [("dot(x,", 4), ("exp(x)", 5), ("foo(x)", 1), ("x + 1", 1),
                                     ("dot(x, z)", 8), ("__import__('os')", 1), ("dot(x,y) +", 11),
                                     ("x.y", 1), ("dot(x,y)**1000", 1), ("", None), ("x", 1)])
def test_bad_input_names_the_position(bad, pos):
    with pytest.raises(InputError) as ei:
        check_kernel(bad)
    msg = str(ei.value)
    assert "\n" not in msg
    if pos is not None:
        assert f"(at position {pos})" in msg


def test_dim_validated():
    with pytest.raises(InputError):
        check_kernel("dot(x, y)", dim=0)


def test_certified_sign_never_guesses():
    import sympy as sp
    assert certified_sign(sp.tanh(1) * sp.tanh(4) - sp.tanh(2) ** 2) == -1
    assert certified_sign(sp.sqrt(2) ** 2 - 2) == 0
    assert certified_sign((1 + sp.sqrt(2)) ** 2 - 3 - 2 * sp.sqrt(2)) == 0
    assert certified_sign(sp.E - sp.Rational(27182818284590452353602874, 10 ** 25)) == 1


# ----------------------------------------------------------------------------- CLI
def _cli(*args):
    return subprocess.run([sys.executable, "-m", "mistakebound", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_cli_exit_codes_and_json():
    r = _cli("kernel", "(1 + dot(x, y))**2")
    assert r.returncode == 0 and "LEGAL" in r.stdout
    r = _cli("kernel", "norm(x - y)**2", "--json")
    assert r.returncode == 1
    d = json.loads(r.stdout)
    assert d["status"] == "illegal" and d["certificate"]["quadratic_form"] == "-2"
    r = _cli("kernel", "exp(-norm(x - y))", "--budget", "1")
    assert r.returncode == 3 and "UNKNOWN" in r.stdout
    r = _cli("kernel", "-dot(x, y)")          # an EXPR starting with '-' is not an option
    assert r.returncode == 1 and "ILLEGAL" in r.stdout
    r = _cli("kernel", "dot(x,")
    assert r.returncode == 2 and r.stdout == "" and len(r.stderr.strip().splitlines()) == 1
    assert "position 4" in r.stderr and "Traceback" not in r.stderr


# ----------------------------------------------------------------------------- properties
_ATOMS = ["dot(x, y)", "dot(x, x)", "dot(y, y)", "norm(x - y)**2", "norm(x)*norm(y)", "1", "2", "1/2"]


@st.composite
def kernel_exprs(draw, depth=2):
    if depth == 0 or draw(st.booleans()):
        return draw(st.sampled_from(_ATOMS))
    op = draw(st.sampled_from(["+", "-", "*", "pow", "exp", "tanh", "neg", "scale"]))
    a = draw(kernel_exprs(depth=depth - 1))
    if op in ("+", "-", "*"):
        b = draw(kernel_exprs(depth=depth - 1))
        return f"({a}) {op} ({b})"
    if op == "pow":
        return f"({a})**{draw(st.integers(1, 3))}"
    if op == "neg":
        return f"-({a})"
    if op == "scale":
        return f"{draw(st.sampled_from(['3', '1/3', '-2']))}*({a})"
    return f"{op}(({a})/4)"


@settings(max_examples=40)
@given(kernel_exprs())
def test_property_verdicts_are_sound(expr):
    v = check_kernel(expr, dim=2, budget=0.6)
    if v.status == "illegal":
        _recheck_certificate(expr, v.certificate)
    elif v.status == "legal":
        rng = np.random.default_rng(0)
        for _ in range(5):
            P = [[Fraction(int(c), 4) for c in rng.integers(-4, 5, size=2)] for _ in range(4)]
            G = np.array([[float(_vec_eval(expr, p, q)) for q in P] for p in P])
            if not np.all(np.isfinite(G)) or np.abs(G).max() > 1e12:
                continue
            assert np.allclose(G, G.T, atol=1e-9 * max(1, np.abs(G).max()))
            assert np.linalg.eigvalsh(G).min() >= -1e-7 * max(1.0, np.abs(G).max()), expr
