"""The Gaussian kernel exp(-c |x - x'|^2), c >= 0, is legal: every Gram form is >= 0.

Lin's argument: |x - x'|^2 = |x|^2 - 2 x.x' + |x'|^2, so by exp(a + b) = exp(a) exp(b)
exp(-c |x - x'|^2) = f(x) f(x') exp(2c x.x') with f(x) = exp(-c |x|^2).  A Gram form of the
Gaussian with coefficients a_i is therefore, term by term, the Gram form of exp(2c x.x') with
coefficients a_i f(x_i) (two sums of equal terms, equal by induction on the number of terms), and
that one is >= 0 because exp(2c x.x') is a kernel for 2c >= 0 -- a power series with nonnegative
coefficients in the kernel x.x' (the trusted rule exp_power_series).  No finite feature map
exists, so "legal" here is the Gram-form sense.
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.catalogue.feature_maps import c, sums_equal, x, xp
from proofs.language.formula import REAL, VEC, Eq, Nat, Seq, dot
from proofs.language.functions import exp
from proofs.kernel.rules import gram_form
from proofs.catalogue.sources import LIN_SLIDES

n = Nat("n")
i, j = Nat("i"), Nat("j")
a = Seq("a", REAL)
pt = Seq("xs", VEC, tex="x", text="x")          # the points x(0), ..., x(n-1)


def gauss(p, q):
    return exp(-c * dot(p - q, p - q))


def f(p):
    return exp(-c * dot(p, p))


def lin_form(p, q):
    return exp(2 * c * dot(p, q))


GAUSS_GRAM = gram_form(i, j, n, a(i), gauss(pt(i), pt(j)))
COEF = a(i) * f(pt(i))                           # the coefficients of the Gram form of exp(2c x.x')
E_GRAM = gram_form(i, j, n, COEF, lin_form(pt(i), pt(j)))


def _terms(g):
    """The inner sums' terms: the Gaussian's and exp(2c x.x')'s, at row i (the bodies of the two
    Gram forms)."""
    return g.args[3].args[3]


def _proof(p):
    u, v, w = -c * dot(x, x), -c * dot(xp, xp), 2 * c * dot(x, xp)
    expo = p.identity("gaussian_exponent", -c * dot(x - xp, x - xp), u + (v + w),
                      title="|x - x'|^2 = |x|^2 - 2 x.x' + |x'|^2, times -c")
    e1 = p.rule("exp_laws", "exp_add", u, v + w)
    e2 = p.rule("exp_laws", "exp_add", v, w)
    fac = p.solve("gaussian_factorization", [expo, e1, e2], Eq(gauss(x, xp), f(x) * f(xp) * lin_form(x, xp)),
                  title="exp(-c|x - x'|^2) = f(x) f(x') exp(2c x.x') with f(x) = exp(-c|x|^2)")
    A, B = _terms(GAUSS_GRAM), _terms(E_GRAM)              # terms in i and j
    terms = p.solve("gram_terms_equal", [p.specialize(fac, {x: pt(i), xp: pt(j)})], Eq(A, B),
                    title="a_i a_j exp(-c|x_i - x_j|^2) = (a_i f(x_i))(a_j f(x_j)) exp(2c x_i.x_j)")
    row = sums_equal(p, "row", j, n, A, B, lambda t: [p.specialize(terms, {j: t})],
                     title="one more term j, equal on both sides")
    RA, RB = GAUSS_GRAM.args[3], E_GRAM.args[3]            # the rows: inner sums, terms in i
    grams = sums_equal(p, "rows", i, n, RA, RB, lambda t: [p.specialize(row, {i: t})],
                       title="one more row i: the same sum over j")
    legal = p.rule("exp_power_series", "gram_nonneg", i, j, n, COEF, pt(i), 2 * c)
    return p.solve("gaussian_gram_nonneg", [grams, legal, p.hyp("c_nonneg")], p.theorem.conclusion,
                   title="the Gaussian's Gram form is one of exp(2c x.x'), which is >= 0 as 2c >= 0")


THEOREMS = [
    Theorem(
        id="gaussian_kernel_legal",
        name="The Gaussian kernel exp(-c |x - x'|^2), c >= 0, is legal (every Gram form is >= 0)",
        source=Source(LIN_SLIDES, "Lin, slides 'Popular kernel functions' (Gaussian / RBF), 'Why are they legal?'",
                      "Gaussian: f(x) f(x') e^{2c x.x'} for f(x) = e^{-c|x|^2}."),
        hypotheses=[("c_nonneg", c >= 0)],
        conclusion=GAUSS_GRAM >= 0,
        proof=_proof, encoding="n points x(i) in R^d, real coefficients a(i); exp as a function with its laws",
        notes="The step 'exp(2c x.x') is a kernel' is the trusted rule exp_power_series: its partial sums are "
              "nonnegative combinations of the kernels (x.x')^k (products of the linear kernel, see "
              "kernel_closure_rules), and Gram forms >= 0 are closed under pointwise limits.",
    ),
]
