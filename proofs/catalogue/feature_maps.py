"""Kernels and feature maps: the vocabulary the kernel theorems share.

Lin's definition of a (legal) kernel: K(x, x') = phi(x).phi(x') for a feature map phi from R^d
into some R^N.  A feature map is a function symbol from vectors to vectors (``Fun``); its values
live in a space of their own (dimension N_phi in the coordinate model, ``proofs.printers.symbolic``), so
nothing here assumes N = d.  "K has the feature map phi" is the hypothesis
``for all x, x': K(x, x') = phi(x).phi(x')``; a rule that makes a new kernel is proved by writing
its feature map down and checking the inner product in coordinates.

A kernel without a finite feature map (the Gaussian) is legal in the sense of its Gram forms:
sum_{i,j<n} b_i b_j K(x_i, x_j) >= 0 for every n, every real b and every points x_i.

Finite sums whose terms are equal are equal: :func:`sums_equal` proves it by induction on the
number of terms (the solvers see a sum only as a function of its bounds).
"""
from __future__ import annotations

from proofs.language.formula import Eq, Fun, ForAll, Nat, Real, Sum, Vec, dot, num
from proofs.kernel.kernel import induction_goals

__all__ = ["x", "xp", "c", "z", "feature_map", "sums_equal", "K_SPACE"]

x = Vec("x")
xp = Vec("xp", tex="x'", text="x'")
z = Vec("z")
c = Real("c")

K_SPACE = "x, x' in R^d; each feature map into a space of its own dimension"


def feature_map(K: Fun, phi: Fun, name: str, u=x, v=xp) -> tuple[str, object]:
    """The hypothesis ``for all u, v: K(u, v) = phi(u).phi(v)`` (K has the feature map phi)."""
    return name, ForAll([u, v], Eq(K(u, v), dot(phi(u), phi(v))))


def sums_equal(p, tag: str, j, hi, a, b, term_eq, title: str = ""):
    """sum_{j=0}^{hi-1} a = sum_{j=0}^{hi-1} b, by induction on the number of terms m <= hi.

    ``a`` and ``b`` are the terms (in the index ``j``); ``term_eq(t)`` returns facts that give
    a[j := t] = b[j := t] for the index term t, which is spelled (m - 1) + 1 as in the rule
    ``sum_succ`` (a sum is a function of its bounds and of its body as written: a term inside a
    body is matched as written).  Returns the fact
    ``0 <= hi and hi <= hi ==> sum a = sum b`` (the induction's conclusion at hi)."""
    m = Nat(f"m_{tag}", text="m", tex="m")
    P = Eq(Sum(j, 0, m - 1, a), Sum(j, 0, m - 1, b))
    base_goal, step_goal = induction_goals(m, P, hi)
    empty = [p.rule("finite_sum_linearity", "sum_empty", j, num(0), t) for t in (a, b)]
    base = p.solve(f"{tag}_empty", empty, base_goal, title="two empty sums")
    succ = [p.rule("finite_sum_linearity", "sum_succ", j, num(0), m - 1, t) for t in (a, b)]
    step = p.solve(f"{tag}_next_term", succ + list(term_eq((m - 1) + 1)), step_goal,
                   title=title or "one more term, equal on both sides")
    return p.inst(p.induction(m, P, base, step, hi), hi)

