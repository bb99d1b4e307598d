"""Kernels: closure rules by explicit feature maps, the polynomial and Gaussian kernels, and the
kernel perceptron = the perceptron on phi(x).

A kernel here is K(x, x') = phi(x).phi(x') for a real feature map phi (trusted rule
feature_map_psd: then every Gram form sum_ij a_i a_j K(x_i, x_j) = |sum_i a_i phi(x_i)|^2 >= 0,
which is also checked below for 3 points in 3 feature dimensions).  Each closure rule is proved by
writing the new feature map down and checking the identity in sympy; sums run over a symbolic
feature dimension where sympy can simplify them (cK, fK, K1 + K2, K1 K2 factored in two steps).
"""
from __future__ import annotations

from ._common import reals
from .core import Obligation, Source, Theorem
from .sources import BLUM_859, LIN_SLIDES

SYMD = "feature coordinates in symbolic dimension m (sympy Sum)"


def _syms():
    import sympy as sp
    i = sp.Symbol("i", integer=True, positive=True)
    j = sp.Symbol("j", integer=True, positive=True)
    m1, m2 = sp.symbols("m1 m2", integer=True, positive=True)
    a, ap, b, bp = (sp.IndexedBase(n) for n in ("a", "ap", "b", "bp"))   # phi1(x), phi1(x'), phi2(x), phi2(x')
    return sp, i, j, m1, m2, a, ap, b, bp


def _inst(lhs, rhs, subs_list):
    def make():
        return [(lhs.subs(s).doit(), rhs.subs(s).doit()) for s in subs_list]
    return make


def _scale():
    sp, i, j, m1, m2, a, ap, b, bp = _syms()
    c = sp.Symbol("c", nonnegative=True)
    lhs = sp.Sum((sp.sqrt(c) * a[i]) * (sp.sqrt(c) * ap[i]), (i, 1, m1))
    rhs = c * sp.Sum(a[i] * ap[i], (i, 1, m1))
    return {"lhs": lhs, "rhs": rhs, "instances": _inst(lhs, rhs, [{m1: 1}, {m1: 2}, {m1: 3}])}


def _scale_needs_c_nonneg():
    q, c, s = reals("q c s")
    # the feature map sqrt(c) phi is real iff some real s has s^2 = c
    return {"hyps": [("c_nonneg", c >= 0), ("s_is_sqrt_c", (s >= 0) & (s * s == c)), ("K_psd", q >= 0)],
            "goal": c * q >= 0, "latex": {"q": r"\alpha^\top K_1 \alpha", "s": r"\sqrt{c}"}}


def _fK():
    sp, i, j, m1, m2, a, ap, b, bp = _syms()
    f, fp = sp.symbols("f fp", real=True)         # f(x), f(x')
    lhs = sp.Sum((f * a[i]) * (fp * ap[i]), (i, 1, m1))
    rhs = f * fp * sp.Sum(a[i] * ap[i], (i, 1, m1))
    return {"lhs": lhs, "rhs": rhs, "instances": _inst(lhs, rhs, [{m1: 1}, {m1: 2}, {m1: 3}])}


def _sum():
    sp, i, j, m1, m2, a, ap, b, bp = _syms()
    # phi = (phi1, phi2) concatenated: coordinates 1..m1 from phi1, m1+1..m1+m2 from phi2;
    # the second block is re-indexed (i -> i - m1) by sympy's Sum.change_index
    block2 = sp.Sum(b[i - m1] * bp[i - m1], (i, m1 + 1, m1 + m2)).change_index(i, i - m1)
    lhs = sp.Sum(a[i] * ap[i], (i, 1, m1)) + block2
    rhs = sp.Sum(a[i] * ap[i], (i, 1, m1)) + sp.Sum(b[i] * bp[i], (i, 1, m2))
    return {"lhs": lhs, "rhs": rhs, "instances": _inst(lhs, rhs, [{m1: 1, m2: 2}, {m1: 2, m2: 2}])}


def _product_inner():
    sp, i, j, m1, m2, a, ap, b, bp = _syms()
    # phi(x) = (phi1_i(x) phi2_j(x))_{i,j}: for fixed i, the inner sum over j factors
    lhs = sp.Sum((a[i] * b[j]) * (ap[i] * bp[j]), (j, 1, m2))
    rhs = a[i] * ap[i] * sp.Sum(b[j] * bp[j], (j, 1, m2))
    return {"lhs": lhs, "rhs": rhs, "instances": _inst(lhs, rhs, [{m2: 1}, {m2: 2}, {m2: 3}])}


def _product_outer():
    sp, i, j, m1, m2, a, ap, b, bp = _syms()
    K2 = sp.Symbol("K2")                            # = sum_j b_j b'_j, independent of i
    lhs = sp.Sum(a[i] * ap[i] * K2, (i, 1, m1))
    rhs = sp.Sum(a[i] * ap[i], (i, 1, m1)) * K2
    return {"lhs": lhs, "rhs": rhs, "instances": _inst(lhs, rhs, [{m1: 1}, {m1: 2}, {m1: 3}])}


def _gram_is_square():
    import sympy as sp
    n, m = 3, 3
    al = sp.symbols(f"alpha1:{n + 1}")
    phi = [[sp.Symbol(f"p{i}_{k}") for k in range(m)] for i in range(n)]
    K = lambda i, j: sum(phi[i][k] * phi[j][k] for k in range(m))  # noqa: E731
    lhs = sum(al[i] * al[j] * K(i, j) for i in range(n) for j in range(n))
    rhs = sum(sum(al[i] * phi[i][k] for i in range(n)) ** 2 for k in range(m))
    return {"lhs": lhs, "rhs": rhs}


def _psd_from_squares():
    Q, s1, s2, s3 = reals("Q s1 s2 s3")
    return {"hyps": [("gram_form_is_squared_norm", Q == s1 * s1 + s2 * s2 + s3 * s3)], "goal": Q >= 0,
            "latex": {"Q": r"\alpha^\top K \alpha", "s1": "v_1", "s2": "v_2", "s3": "v_3"}}


def _multi_indices(d, k):
    if d == 0:
        yield (k,)
        return
    for j in range(k + 1):
        for rest in _multi_indices(d - 1, k - j):
            yield (j,) + rest


def _poly_feature(d, k):
    def build():
        import sympy as sp
        c = sp.Symbol("c", positive=True)
        x = sp.symbols(f"x1:{d + 1}")
        xp = sp.symbols(f"z1:{d + 1}")
        lhs = (c + sum(a * b for a, b in zip(x, xp))) ** k

        def phi(v):
            out = []
            for J in _multi_indices(d, k):          # J = (j_0, j_1..j_d), |J| = k
                coef = sp.factorial(k) / sp.prod([sp.factorial(t) for t in J]) * c ** J[0]
                out.append(sp.sqrt(coef) * sp.prod([vi ** t for vi, t in zip(v, J[1:])]))
            return out
        rhs = sum(p * q for p, q in zip(phi(x), phi(xp)))
        return {"lhs": sp.expand(lhs), "rhs": sp.expand(rhs)}
    return build


def _poly_coeffs_nonneg():
    import z3
    c, mult = reals("c mult")
    j = z3.Int("j")
    return {"hyps": [("c_nonneg", c >= 0), ("multinomial_pos", mult >= 1), ("power", (j >= 0) & (j <= 3))],
            "goal": z3.And([z3.Implies(j == t, mult * (c ** t if t else 1) >= 0) for t in range(4)]),
            "latex": {"mult": r"\binom{k}{j_0,\dots,j_d}"}}


def _gauss_distance():
    sp, i, j, m1, m2, a, ap, b, bp = _syms()
    d = m1
    lhs = sp.Sum((a[i] - ap[i]) ** 2, (i, 1, d))
    rhs = sp.Sum(a[i] ** 2, (i, 1, d)) - 2 * sp.Sum(a[i] * ap[i], (i, 1, d)) + sp.Sum(ap[i] ** 2, (i, 1, d))
    return {"lhs": lhs, "rhs": rhs, "instances": _inst(lhs, rhs, [{m1: 1}, {m1: 2}, {m1: 3}])}


def _gauss_factor():
    import sympy as sp
    c = sp.Symbol("c", positive=True)
    xx, xz, zz = sp.symbols("xx xz zz", real=True)       # |x|^2, x.x', |x'|^2
    lhs = sp.exp(-c * (xx - 2 * xz + zz))
    rhs = sp.exp(-c * xx) * sp.exp(-c * zz) * sp.exp(2 * c * xz)
    return {"lhs": lhs, "rhs": rhs}


def _exp_partial_sums():
    import sympy as sp
    t = sp.Symbol("t")
    N = 6
    # Taylor's formula: the k-th coefficient is exp^(k)(0)/k!, with the derivatives taken by sympy
    taylor = sum(sp.diff(sp.exp(t), t, k).subs(t, 0) * t**k / sp.factorial(k) for k in range(N + 1))
    return {"lhs": taylor, "rhs": sum(t**k / sp.factorial(k) for k in range(N + 1))}


def _exp_coeffs_nonneg():
    import z3
    c = z3.Real("c")
    coeffs = [(2 * c) ** k / z3.RealVal(__import__("math").factorial(k)) if k else z3.RealVal(1) for k in range(6)]
    return {"hyps": [("c_nonneg", c >= 0)], "goal": z3.And([a >= 0 for a in coeffs])}


def _gauss_compose():
    Q, qE = reals("Q qE")
    return {"hyps": [("E_psd_on_beta", qE >= 0), ("fK_rule", Q == qE)], "goal": Q >= 0,
            "latex": {"Q": r"\alpha^\top K_{\mathrm{Gauss}} \alpha", "qE": r"\beta^\top E \beta"}}


def _dual_activation():
    import sympy as sp
    d, T = 2, 3
    X = [sp.symbols(f"x{t}_1:{d + 1}") for t in range(T)]
    z = sp.symbols(f"z1:{d + 1}")
    al = sp.symbols(f"alpha1:{T + 1}")
    K = lambda u, v: (1 + sum(p * q for p, q in zip(u, v))) ** 2  # noqa: E731

    def phi(v):
        s2 = sp.sqrt(2)
        return [1, s2 * v[0], s2 * v[1], v[0] ** 2, s2 * v[0] * v[1], v[1] ** 2]
    w = [sum(al[t] * phi(X[t])[k] for t in range(T)) for k in range(6)]
    lhs = sum(al[t] * K(X[t], z) for t in range(T))
    rhs = sum(wk * pk for wk, pk in zip(w, phi(z)))
    return {"lhs": sp.expand(lhs), "rhs": sp.expand(rhs)}


def _dual_update():
    import sympy as sp
    T, m = 3, 3
    al = sp.symbols(f"alpha1:{T + 1}")
    y = sp.Symbol("y")
    phi = [[sp.Symbol(f"p{t}_{k}") for k in range(m)] for t in range(T)]
    cfun = sp.symbols(f"c1:{m + 1}")
    s = 1                                            # the example updated on (index 1 of 0..2)
    w = [sum(al[t] * phi[t][k] for t in range(T)) for k in range(m)]
    al1 = [al[t] + (y if t == s else 0) for t in range(T)]
    w_primal = [w[k] + y * phi[s][k] for k in range(m)]
    w_dual = [sum(al1[t] * phi[t][k] for t in range(T)) for k in range(m)]
    return {"lhs": sum(ci * a for ci, a in zip(cfun, w_primal)), "rhs": sum(ci * b for ci, b in zip(cfun, w_dual))}


def _same_decisions():
    import z3
    ak, ap_, y = reals("ak ap y")
    mk, mp = z3.Bools("mistake_kernel mistake_primal")
    return {"hyps": [("same_activation", ak == ap_), ("kernel_rule", mk == (y * ak <= 0)),
                     ("primal_rule", mp == (y * ap_ <= 0))], "goal": mk == mp,
            "latex": {"ak": r"\sum_j \alpha_j K(x_j, x)", "ap": r"w\cdot\phi(x)"}}


_GRAM_PSD = [
    Obligation("gram_form_is_squared_norm", "sympy", "sum_ij a_i a_j phi(x_i).phi(x_j) = |sum_i a_i phi(x_i)|^2",
               "3 points, 3 feature coordinates", _gram_is_square),
    Obligation("psd_from_squared_norm", "z3", "a squared norm is >= 0: the Gram form is PSD", "scalars",
               _psd_from_squares, role="composition", uses=("gram_form_is_squared_norm",)),
]

THEOREMS = [
    Theorem(
        id="kernel_closure_rules",
        title="Kernel closure: cK (c >= 0), f(x)f(x')K, K1 + K2, K1 K2 are kernels",
        statement="K1, K2 kernels, c >= 0, f real  ==>  cK1, f(x)f(x')K1(x,x'), K1 + K2, K1 K2 are kernels",
        latex=r"cK_1\ (c\ge 0),\quad f(x)f(x')K_1(x,x'),\quad K_1 + K_2,\quad K_1K_2 \text{ are kernels}",
        hypotheses=[r"K_1 = \phi_1\cdot\phi_1,\ K_2 = \phi_2\cdot\phi_2", r"c \ge 0", r"f: X \to \mathbb{R}"],
        source=Source(LIN_SLIDES, "Lin, slides 'Theorem (Kernel functions' legality)'",
                      "If K1, K2 are kernels then cK1 (c >= 0), f(x)f(x')K1, K1 + K2 and K1 K2 are kernels."),
        obligations=[
            Obligation("scale_feature_map", "sympy", "(sqrt(c) phi1).(sqrt(c) phi1) = c K1", SYMD, _scale),
            Obligation("scale_needs_c_nonneg", "z3", "c >= 0: sqrt(c) is real and c a^T K a >= 0", "scalars",
                       _scale_needs_c_nonneg),
            Obligation("fK_feature_map", "sympy", "(f(x) phi1(x)).(f(x') phi1(x')) = f(x) f(x') K1", SYMD, _fK),
            Obligation("sum_feature_map", "sympy", "(phi1, phi2).(phi1', phi2') = K1 + K2 (concatenation)", SYMD, _sum),
            Obligation("product_feature_map_inner", "sympy", "sum_j (a_i b_j)(a'_i b'_j) = a_i a'_i K2", SYMD,
                       _product_inner),
            Obligation("product_feature_map_outer", "sympy", "sum_i a_i a'_i K2 = K1 K2", SYMD, _product_outer,
                       uses=("product_feature_map_inner",)),
        ] + _GRAM_PSD,
        trusted=("feature_map_psd", "finite_sum_linearity"),
    ),
    Theorem(
        id="polynomial_kernel_feature_map",
        title="Polynomial kernel (c + x.x')^k, c >= 0, has an explicit feature map",
        statement="(c + x.x')^k = phi(x).phi(x'),  phi_J(x) = sqrt(k!/(j0! ... jd!) c^j0) x1^j1 ... xd^jd",
        latex=r"(c + x\cdot x')^k = \phi(x)\cdot\phi(x'),\quad \phi_J(x) = \sqrt{\tbinom{k}{j_0,\dots,j_d} c^{j_0}}\ \prod_i x_i^{j_i}",
        hypotheses=[r"c \ge 0", r"k \ge 1"],
        source=Source(LIN_SLIDES, "Lin, slides 'Kernel functions' and 'Popular kernel functions'",
                      "(1 + x.x')^2 = phi(x).phi(x') with phi(x) = (1, sqrt2 x1, sqrt2 x2, x1^2, sqrt2 x1 x2, x2^2); "
                      "(c + x.x')^k is a kernel for c >= 0 (also Blum 15-859(A): (1 + x.y)^d)."),
        obligations=[
            Obligation(f"poly_feature_map_d{d}_k{k}", "sympy", f"identity for d = {d}, k = {k}",
                       f"coordinates in dimension {d}", _poly_feature(d, k)) for d, k in ((2, 2), (2, 3), (3, 2))
        ] + [Obligation("poly_coefficients_nonneg", "z3", "the multinomial coefficients times c^j0 are >= 0",
                        "scalars", _poly_coeffs_nonneg)] + _GRAM_PSD,
        trusted=("multinomial_theorem", "feature_map_psd"),
        notes="The general (d, k) identity is the multinomial theorem (trusted); instances are checked.",
    ),
    Theorem(
        id="gaussian_kernel_legal",
        title="Gaussian kernel exp(-c|x - x'|^2), c >= 0, is a kernel",
        statement="exp(-c|x-x'|^2) = f(x) f(x') exp(2c x.x'), f(x) = exp(-c|x|^2); exp(2c x.x') = lim of "
                  "nonnegative combinations of (x.x')^k",
        latex=r"e^{-c\|x-x'\|^2} = f(x)\,f(x')\,e^{2c\,x\cdot x'},\ f(x) = e^{-c\|x\|^2},\ "
              r"e^{2c\,x\cdot x'} = \lim_N \sum_{k\le N} \tfrac{(2c)^k}{k!}(x\cdot x')^k",
        hypotheses=[r"c \ge 0"],
        source=Source(LIN_SLIDES, "Lin, slides 'Popular kernel functions' (Gaussian / RBF)",
                      "exp(-c|x - x'|^2) is legal because it equals f(x) f(x') exp(2c x.x') and exp is a limit of "
                      "polynomials with nonnegative coefficients."),
        obligations=[
            Obligation("squared_distance_expand", "sympy", "|x - x'|^2 = |x|^2 - 2 x.x' + |x'|^2",
                       "coordinates in symbolic dimension d", _gauss_distance),
            Obligation("gaussian_factorization", "sympy", "exp(-c(|x|^2 - 2x.x' + |x'|^2)) = f(x) f(x') exp(2c x.x')",
                       "inner products (scalars)", _gauss_factor),
            Obligation("exp_partial_sums", "sympy", "the Taylor polynomial of exp of degree 6 is sum t^k/k!",
                       "one scalar", _exp_partial_sums),
            Obligation("exp_coefficients_nonneg", "z3", "(2c)^k/k! >= 0 for c >= 0 (k <= 5)", "scalars",
                       _exp_coeffs_nonneg),
            Obligation("gaussian_gram_form", "z3", "a^T K a = b^T E b with b_i = a_i f(x_i), and E is PSD", "scalars",
                       _gauss_compose, role="composition",
                       uses=("kernel_closure_rules", "polynomial_kernel_feature_map", "exp_coefficients_nonneg")),
        ],
        lemmas=("kernel_closure_rules", "polynomial_kernel_feature_map"),
        trusted=("exp_power_series", "psd_closed_under_limits", "feature_map_psd"),
        notes="Trusted step: E(x, x') = exp(2c x.x') is a kernel because each partial sum is a nonnegative "
              "combination of the kernels (x.x')^k and the PSD cone is closed under pointwise limits.",
    ),
    Theorem(
        id="kernel_perceptron_is_feature_perceptron",
        title="The kernel perceptron run equals the perceptron run on phi(x) (polynomial kernel)",
        statement="w = sum_j alpha_j phi(x_j)  ==>  w.phi(x) = sum_j alpha_j K(x_j, x), and the updates correspond",
        latex=r"w = \sum_j \alpha_j \phi(x_j) \;\Longrightarrow\; w\cdot\phi(x) = \sum_j \alpha_j K(x_j, x),\ "
              r"w + y\phi(x_s) \leftrightarrow \alpha_s + y",
        hypotheses=[r"K(x, x') = (1 + x\cdot x')^2,\ d = 2", r"w_0 = 0,\ \alpha = 0"],
        source=Source(BLUM_859, "Blum, 15-859(A) 01/30/06, 'How to kernelize?'",
                      "w is a signed sum of past examples, so phi(w).phi(x) = sum of +-K(x_j, x) over them."),
        obligations=[
            Obligation("dual_activation_identity", "sympy", "sum_j alpha_j K(x_j, z) = w.phi(z) (3 stored examples)",
                       "coordinates in dimension 2, feature dimension 6", _dual_activation),
            Obligation("dual_update_matches_primal", "sympy", "w + y phi(x_s) = sum_j alpha'_j phi(x_j)",
                       "3 examples, 3 feature coordinates", _dual_update),
            Obligation("same_mistakes", "z3", "equal activations give equal mistake decisions", "scalars",
                       _same_decisions, role="composition", uses=("dual_activation_identity", "dual_update_matches_primal")),
        ],
        trusted=("induction",),
        notes="Blum's variant (start from the first positive example, strict tests) is a different learner "
              "and is not what this theorem is about.",
    ),
]
