"""The polynomial kernel (c + x.x')^k, c >= 0, has the feature map phi_k(x) = (sqrt(c), x)^{(x)k}.

With phi(x) = (sqrt(c), x) (the coordinate sqrt(c), then those of x), phi(x).phi(x') = c + x.x';
a tensor power multiplies inner products, (u (x) v).(u' (x) v') = (u.u')(v.v'), so by induction
on k, phi(x)^{(x)k}.phi(x')^{(x)k} = (c + x.x')^k for every natural k and every dimension d.  This
is Lin's example (1 + x.x')^2 = phi(x).phi(x') with phi(x) = (1, sqrt2 x1, sqrt2 x2, x1^2,
sqrt2 x1 x2, x2^2) in general: the tensor square has the coordinates 1, x1, x2 twice each (the
sqrt2 of the slide) and every x_i x_j; and it is the product rule of the closure theorem applied
k times.
"""
from __future__ import annotations

from proofs.catalogue.core import Source, Theorem
from proofs.catalogue.feature_maps import K_SPACE, c, x, xp
from proofs.language.formula import Eq, Nat, dot, num
from proofs.language.functions import npow, sqrt, tensor, tensor_pow, vcat, vec1
from proofs.kernel.kernel import induction_goals
from proofs.catalogue.sources import LIN_SLIDES

k = Nat("k")
m = Nat("m")


def lift(v):
    """(sqrt(c), v): the feature map of the kernel c + x.x'."""
    return vcat(vec1(sqrt(c)), v)


def _power_identity(t):
    """(c + x.x')^t = (sqrt(c), x)^{(x)t}.(sqrt(c), x')^{(x)t}."""
    return Eq(npow(c + dot(x, xp), t), dot(tensor_pow(lift(x), t), tensor_pow(lift(xp), t)))


def _proof(p):
    b = c + dot(x, xp)
    P = _power_identity(m)
    base_goal, step_goal = induction_goals(m, P, k)
    one = p.identity("unit_inner_product", dot(vec1(1), vec1(1)), num(1), title="(1).(1) = 1")
    base = p.solve("power_zero", [p.rule("natural_powers", "pow_zero", b),
                                  p.rule("natural_powers", "tensor_pow_zero", lift(x)),
                                  p.rule("natural_powers", "tensor_pow_zero", lift(xp)), one],
                   base_goal, title="k = 0: (c + x.x')^0 = 1 = (1).(1)")
    U, U2 = tensor_pow(lift(x), m), tensor_pow(lift(xp), m)
    ten = p.identity("tensor_inner_product", dot(tensor(U, lift(x)), tensor(U2, lift(xp))),
                     dot(U, U2) * dot(lift(x), lift(xp)),
                     title="(u (x) v).(u' (x) v') = (u.u')(v.v') for u = (sqrt(c), x)^{(x)m}, v = (sqrt(c), x)")
    lin = p.identity("lifted_inner_product", dot(lift(x), lift(xp)), sqrt(c) * sqrt(c) + dot(x, xp),
                     title="(sqrt(c), x).(sqrt(c), x') = sqrt(c)^2 + x.x'")
    step = p.solve("power_step", [p.rule("natural_powers", "pow_succ", b, m),
                                  p.rule("natural_powers", "tensor_pow_succ", lift(x), m),
                                  p.rule("natural_powers", "tensor_pow_succ", lift(xp), m),
                                  ten, lin, p.rule("sqrt_def", "sqrt_sq", c), p.hyp("c_nonneg")],
                   step_goal, title="from k to k + 1: one more tensor factor, one more factor c + x.x'")
    every = p.induction(m, P, base, step, k)
    return p.solve("power_k", [p.inst(every, k)], p.theorem.conclusion, title="at m = k")


THEOREMS = [
    Theorem(
        id="polynomial_kernel_feature_map",
        name="The polynomial kernel (c + x.x')^k, c >= 0, has the feature map (sqrt(c), x)^{(x)k}",
        source=Source(LIN_SLIDES, "Lin, slides 'Kernel functions' and 'Popular kernel functions' (also Blum "
                      "15-859(A) 01/30/06: K(x, y) = (1 + x.y)^d)",
                      "(1 + x.x')^2 = phi(x).phi(x') with phi(x) = (1, sqrt2 x1, sqrt2 x2, x1^2, sqrt2 x1 x2, x2^2); "
                      "the polynomial kernel (c + x.x')^k, k >= 1, c >= 0, is legal."),
        hypotheses=[("c_nonneg", c >= 0)],
        conclusion=_power_identity(k),
        proof=_proof, encoding=K_SPACE + "; (sqrt(c), x) has d + 1 coordinates, its k-th tensor power (d + 1)^k",
        notes="Every natural k, k = 0 included (the constant kernel 1); the notes ask k >= 1.",
    ),
]
