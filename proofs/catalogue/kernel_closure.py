"""Lin's closure rules for kernels: if K1 and K2 are kernels (K_i(x, x') = phi_i(x).phi_i(x')),
then so are c K1 for c >= 0, f(x) f(x') K1 for any real function f, K1 + K2 and K1 K2.

Each rule is proved by exhibiting the new feature map and checking its inner product in
coordinates (sympy over symbolic dimensions, z3 and cvc5 on instances):
sqrt(c) phi1 (a real map only when c >= 0: sqrt(c) sqrt(c) = c is the rule sqrt_def at c >= 0),
f(x) phi1(x), the concatenation (phi1, phi2) and the tensor product phi1 (x) phi2.
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.catalogue.feature_maps import K_SPACE, c, feature_map, x, xp
from proofs.language.formula import REAL, VEC, And, Eq, Fun, dot
from proofs.language.functions import sqrt, tensor, vcat
from proofs.catalogue.sources import LIN_SLIDES

phi1 = Fun("phi1", (VEC,), VEC, tex=r"\phi_1")
phi2 = Fun("phi2", (VEC,), VEC, tex=r"\phi_2")
K1 = Fun("K1", (VEC, VEC), REAL, tex="K_1")
K2 = Fun("K2", (VEC, VEC), REAL, tex="K_2")
f = Fun("f", (VEC,), REAL)

# the four new kernels, each with its feature map
SCALED = Eq(c * K1(x, xp), dot(sqrt(c) * phi1(x), sqrt(c) * phi1(xp)))
RESCALED = Eq(f(x) * f(xp) * K1(x, xp), dot(f(x) * phi1(x), f(xp) * phi1(xp)))
SUM = Eq(K1(x, xp) + K2(x, xp), dot(vcat(phi1(x), phi2(x)), vcat(phi1(xp), phi2(xp))))
PRODUCT = Eq(K1(x, xp) * K2(x, xp), dot(tensor(phi1(x), phi2(x)), tensor(phi1(xp), phi2(xp))))


def _proof(p):
    k1 = p.inst(p.hyp("K1_feature_map"), x, xp)
    k2 = p.inst(p.hyp("K2_feature_map"), x, xp)
    A, B = dot(phi1(x), phi1(xp)), dot(phi2(x), phi2(xp))
    s = sqrt(c)
    e1 = p.identity("scaled_feature_map", dot(s * phi1(x), s * phi1(xp)), s * s * A,
                    title="(sqrt(c) phi1(x)).(sqrt(c) phi1(x')) = sqrt(c)^2 phi1(x).phi1(x')")
    root = p.rule("sqrt_def", "sqrt_sq", c)
    scaled = p.solve("scale_rule", [k1, e1, root, p.hyp("c_nonneg")], SCALED,
                     title="c K1 has the feature map sqrt(c) phi1 (sqrt(c)^2 = c as c >= 0)")
    e2 = p.identity("rescaled_feature_map", dot(f(x) * phi1(x), f(xp) * phi1(xp)), f(x) * f(xp) * A,
                    title="(f(x) phi1(x)).(f(x') phi1(x')) = f(x) f(x') phi1(x).phi1(x')")
    rescaled = p.solve("rescale_rule", [k1, e2], RESCALED, title="f(x) f(x') K1 has the feature map f phi1")
    e3 = p.identity("concatenated_feature_map", dot(vcat(phi1(x), phi2(x)), vcat(phi1(xp), phi2(xp))), A + B,
                    title="(phi1, phi2)(x).(phi1, phi2)(x') = phi1(x).phi1(x') + phi2(x).phi2(x')")
    summed = p.solve("sum_rule", [k1, k2, e3], SUM, title="K1 + K2 has the feature map (phi1, phi2)")
    e4 = p.identity("tensor_feature_map", dot(tensor(phi1(x), phi2(x)), tensor(phi1(xp), phi2(xp))), A * B,
                    title="(phi1 (x) phi2)(x).(phi1 (x) phi2)(x') = (phi1(x).phi1(x')) (phi2(x).phi2(x'))")
    product = p.solve("product_rule", [k1, k2, e4], PRODUCT, title="K1 K2 has the feature map phi1 (x) phi2")
    return p.solve("closure_rules", [scaled, rescaled, summed, product], p.theorem.conclusion,
                   title="the four rules together")


THEOREMS = [
    Theorem(
        id="kernel_closure_rules",
        name="Kernel closure: c K1 (c >= 0), f(x) f(x') K1, K1 + K2 and K1 K2 are kernels",
        source=Source(LIN_SLIDES, "Lin, slides 'Theorem (Kernel functions' legality)'",
                      "Suppose K1 and K2 are kernel functions.  Then c K1 for any constant c >= 0, "
                      "f(x) f(x') K1(x, x') for any scalar function f, the sum K1 + K2 and the product K1 K2 "
                      "are legal kernels."),
        hypotheses=[feature_map(K1, phi1, "K1_feature_map"), feature_map(K2, phi2, "K2_feature_map"),
                    ("c_nonneg", c >= 0)],
        conclusion=And(SCALED, RESCALED, SUM, PRODUCT),
        proof=_proof, encoding=K_SPACE,
        notes="A kernel here is Lin's: K(x, x') = phi(x).phi(x') for a feature map phi.  Each conclusion "
              "exhibits the new kernel's feature map; (u, v) is the concatenation and u (x) v the tensor "
              "product (coordinates u_i v_j).",
    ),
]
