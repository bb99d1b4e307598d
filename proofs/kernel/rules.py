"""Trusted rules: the steps no engine in the suite checks, each with a fixed *schema*.

A proof uses a rule through the kernel (``Proof.rule(rule_id, schema, *terms)``): the kernel
builds the formula from the schema and the terms the proof chose, so a rule can only ever state
an instance of what is written here (never a formula typed at the call site).  Every report lists
the rules a theorem used, and those of every lemma it builds on; the list is computed from the
proof, not declared.

``induction`` is applied by :meth:`proofs.kernel.kernel.Proof.induction`, which checks the shape of its
premises; ``finite_sum_linearity`` is recorded by every identity that sympy decides over a sum
of symbolic length (its normal form is linearity of finite sums).

Hygiene: a schema with an index (a ``VAR`` argument) binds it -- in a sum, and in the "for all"
of its premises.  Only the arguments listed in :data:`BODY_ARGS` (the terms of the sum) may
mention an index; every other argument (a bound, a coefficient, a position) is refused when it
does, so no bound or side term is ever captured by the binder.

Sums over a natural-number index run over the naturals between the bounds (``Sum`` in
``proofs.language.formula``): a rule that is true only from a bound >= 0 on (the number of terms, one
term's position, the successor case) carries ``lo >= 0`` as a premise whenever the index is a
natural and ``lo`` is not a natural-number term (a term of sort ``Nat`` is >= 0 by its sort).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from proofs.language.formula import INT, REAL, VEC, And, Eq, Expr, ForAll, Implies, Int, Real, Sum, Vec, dot, is_nat, num, sort_of, to_real, vzero
from proofs.language.substitution import free_vars, subst
from proofs.language.functions import VSum, exp, lg, npow, pow2, sqrt, tensor, tensor_pow, vec1

__all__ = ["TrustedRule", "RULES", "rule", "schema_formula", "schema_instance", "gram_form"]


@dataclass(frozen=True)
class TrustedRule:
    id: str
    summary: str                                  # the rule in one line of prose
    why: str                                      # why no engine here checks it
    schemas: dict[str, tuple[tuple[str, ...], Callable[..., Expr]]] = field(default_factory=dict)
    shown_on: dict[str, Callable[[], tuple]] = field(default_factory=dict)   # schema -> arguments to print it on

    def statements(self) -> list[str]:
        """Every schema printed on generic arguments (``t``, ``a``, ``b``..., or those ``shown_on`` gives)."""
        from proofs.printers.render import text
        out = []
        for name, (sorts, build) in self.schemas.items():
            args = self.shown_on[name]() if name in self.shown_on else [_generic(s, i) for i, s in enumerate(sorts)]
            out.append(f"{name}: {text(build(*args))}")
        return out


VAR = "var"          # a schema argument that is an integer variable (the index of a sum)
NUM = "num"          # a schema argument that is a number of any sort, kept as it is (an integer sum stays one)


def _generic(sort: str, i: int) -> Expr:
    n = "tabcdefgh"[i]
    if sort == VAR:
        return Int("i")
    return {REAL: Real, NUM: Real, INT: Int, VEC: Vec}[sort](n)


def _check_sorts(rule_id, name, sorts, args):
    if len(args) != len(sorts):
        raise TypeError(f"rule {rule_id}.{name} takes {len(sorts)} term(s)")
    out = []
    for a, s in zip(args, sorts):
        a = num(a) if not isinstance(a, Expr) else a
        sort_of(a)          # its sort computed from its structure (a node claiming another is refused)
        if s == VAR:
            if a.op != "var" or a.sort not in (INT, "Nat"):
                raise TypeError(f"rule {rule_id}.{name}: the index must be an integer variable")
            out.append(a)
            continue
        if s == NUM:
            if a.sort not in (INT, "Nat", REAL):
                raise TypeError(f"rule {rule_id}.{name}: a {a.sort} where a number is expected")
            out.append(a)
            continue
        if s == REAL and a.sort in (INT, "Nat"):
            a = to_real(a)
        if s == INT and a.sort == "Nat":
            pass
        elif a.sort != s and not (s == REAL and a.sort == REAL):
            raise TypeError(f"rule {rule_id}.{name}: a {a.sort} where a {s} is expected")
        out.append(a)
    return out


def _free_of(i: Expr, c: Expr) -> Expr:
    """``c``, refused when it depends on the summation index ``i`` (a coefficient of the sum)."""
    if i in free_vars(c):
        raise TypeError(f"the coefficient {c!r} depends on the summation index {i.name}")
    return c


# schema -> the positions of the arguments that may mention the schema's indices: the terms of a
# sum, and a term placed only outside every binder (the position j of sum_term_le, where an i is
# the free i); every other argument (bounds, coefficients) must be free of them
BODY_ARGS: dict[str, tuple[int, ...]] = {
    "sum_empty": (2,), "sum_succ": (3,), "sum_nonneg": (3,), "sum_linear": (4, 6), "sum_scale": (4,),
    "sum_mono": (3, 4), "sum_const": (), "sum_term_le": (3, 4), "sum_split": (4,),
    "vsum_empty": (2,), "vsum_succ": (3,), "gram_nonneg": (3, 4),
}


def _hygienic(rule_id: str, name: str, sorts, args):
    """Refuse an instance whose binder could capture: distinct indices, and no index free in an
    argument other than a term of the sum (by name: every printer knows a variable by its name)."""
    idx = [a for a, s in zip(args, sorts) if s == VAR]
    if not idx:
        return
    names = [v.name for v in idx]
    if len(set(names)) != len(names):
        raise TypeError(f"rule {rule_id}.{name}: its indices must be distinct variables")
    if name not in BODY_ARGS:
        raise TypeError(f"rule {rule_id}.{name}: a schema with an index must list its sum's terms in BODY_ARGS")
    body = BODY_ARGS[name]
    for k, (a, s) in enumerate(zip(args, sorts)):
        if s == VAR or k in body:
            continue
        hit = sorted({v.name for v in free_vars(a)} & set(names))
        if hit:
            raise TypeError(f"rule {rule_id}.{name}: argument {k + 1} mentions the index {', '.join(hit)}, "
                            f"which the rule binds")


def nat_lo(i: Expr, lo: Expr) -> list[Expr]:
    """``[lo >= 0]`` when a sum over the natural-number index ``i`` starts at a term not known
    to be natural (the premise the rules below need there), else ``[]``."""
    return [lo >= 0] if sort_of(i) == "Nat" and not is_nat(lo) else []


def schema_formula(rule_id: str, name: str, args) -> Expr:
    return schema_instance(rule_id, name, args)[0]


def schema_instance(rule_id: str, name: str, args) -> tuple[Expr, tuple[Expr, ...]]:
    """The schema's formula at ``args``, and the arguments as the schema read them (checked sorts,
    integers cast to reals where it takes a real): the schema at those is the formula again."""
    r = RULES[rule_id]
    if name not in r.schemas:
        raise KeyError(f"rule {rule_id} has no schema {name!r} (it has: {', '.join(r.schemas)})")
    sorts, build = r.schemas[name]
    checked = _check_sorts(rule_id, name, sorts, args)
    _hygienic(rule_id, name, sorts, checked)
    return build(*checked), tuple(checked)


_RULES = [
    TrustedRule(
        "induction",
        "Induction on the natural numbers: from P(0) and, for every k with 0 <= k < n, P(k) => P(k+1), "
        "infer P(j) for every 0 <= j <= n.",
        "a rule of inference over all of N; the solvers check the base case and the step, and the kernel "
        "checks that they have exactly the shape the rule needs"),
    TrustedRule(
        "finite_sum_linearity",
        "Finite sums are linear and monotone: sum_i (c a_i + e b_i) = c sum_i a_i + e sum_i b_i (and "
        "sum_i c a_i = c sum_i a_i), a termwise "
        "inequality sums to an inequality, a sum of squares is >= 0, k equal terms sum to k times the term, a "
        "term of a sum of nonnegative terms is at most the sum, and a sum splits into two consecutive ranges.  "
        "Inner products are such sums: u.v = sum_{i<=d} u_i v_i in R^d.",
        "a statement about sums of unboundedly many terms; sympy decides identities over a sum of symbolic "
        "length with this normal form, and z3 and cvc5 re-check each one in dimensions 1, 2 and 3",
        {"dot_nonneg": ((VEC,), lambda v: dot(v, v) >= 0),
         "sum_empty": ((VAR, INT, NUM), lambda i, lo, body: Eq(Sum(i, lo, lo - 1, body), 0)),
         "sum_succ": ((VAR, INT, INT, NUM), lambda i, lo, hi, body: Implies(
             And(*nat_lo(i, lo), hi >= lo - 1), Eq(Sum(i, lo, hi + 1, body), Sum(i, lo, hi, body) + subst(body, {i: hi + 1})))),
         "sum_nonneg": ((VAR, INT, INT, NUM), lambda i, lo, hi, body: Implies(
             ForAll(i, Implies(And(lo <= i, i <= hi), body >= 0)), Sum(i, lo, hi, body) >= 0)),
         # sum_{i=lo}^{hi} (c a_i + e b_i) = c sum a_i + e sum b_i, for c, e that do not depend on i
         "sum_linear": ((VAR, INT, INT, NUM, NUM, NUM, NUM), lambda i, lo, hi, c, a, e, b: Eq(
             Sum(i, lo, hi, _free_of(i, c) * a + _free_of(i, e) * b),
             c * Sum(i, lo, hi, a) + e * Sum(i, lo, hi, b))),
         # sum_{i=lo}^{hi} c a_i = c sum a_i, for c that does not depend on i
         "sum_scale": ((VAR, INT, INT, NUM, NUM), lambda i, lo, hi, c, a: Eq(
             Sum(i, lo, hi, _free_of(i, c) * a), c * Sum(i, lo, hi, a))),
         # a termwise inequality sums to an inequality
         "sum_mono": ((VAR, INT, INT, NUM, NUM), lambda i, lo, hi, a, b: Implies(
             ForAll(i, Implies(And(lo <= i, i <= hi), a <= b)), Sum(i, lo, hi, a) <= Sum(i, lo, hi, b))),
         # hi - lo + 1 >= 0 equal terms c (not depending on i) sum to (hi - lo + 1) c
         "sum_const": ((VAR, INT, INT, NUM), lambda i, lo, hi, c: Implies(
             And(*nat_lo(i, lo), hi >= lo - 1), Eq(Sum(i, lo, hi, _free_of(i, c)), (hi - lo + 1) * c))),
         # one term of a sum of nonnegative terms is at most the sum
         "sum_term_le": ((VAR, INT, INT, NUM, INT), lambda i, lo, hi, body, j: Implies(
             And(*nat_lo(i, lo), ForAll(i, Implies(And(lo <= i, i <= hi), body >= 0)), lo <= j, j <= hi),
             subst(body, {i: j}) <= Sum(i, lo, hi, body))),
         # a sum splits at any m with lo - 1 <= m <= hi
         "sum_split": ((VAR, INT, INT, INT, NUM), lambda i, lo, m, hi, body: Implies(
             And(lo - 1 <= m, m <= hi), Eq(Sum(i, lo, hi, body), Sum(i, lo, m, body) + Sum(i, m + 1, hi, body))))}),
    TrustedRule(
        "pow2_log2",
        "Powers of two and lg = log2: 2^0 = 1, 2^(t+1) = 2 * 2^t, 2^t > 0, lg(2^t) = t, lg is strictly "
        "increasing on the positive reals, and 2^t is increasing.",
        "z3 and cvc5 have no exponential with a variable exponent; the facts enter a proof as instances",
        {"pow2_zero": ((), lambda: Eq(pow2(num(0)), 1)),
         "pow2_succ": ((INT,), lambda t: Eq(pow2(t + 1), 2 * pow2(t))),
         "pow2_pos": ((INT,), lambda t: pow2(t) > 0),
         "lg_pow2": ((INT,), lambda t: Eq(lg(pow2(t)), t)),
         "lg_strictly_increasing": ((REAL, REAL), lambda a, b: Implies(And(0 < a, a < b), lg(a) < lg(b))),
         "pow2_increasing": ((INT, INT), lambda a, b: Implies(a <= b, pow2(a) <= pow2(b)))}),
    TrustedRule(
        "exp_laws",
        "The exponential function: exp(a + b) = exp(a) exp(b), exp(a) > 0, exp(0) = 1.",
        "exp is transcendental; neither solver decides it, so its two defining laws enter as instances",
        {"exp_add": ((REAL, REAL), lambda a, b: Eq(exp(a + b), exp(a) * exp(b))),
         "exp_pos": ((REAL,), lambda a: exp(a) > 0),
         "exp_zero": ((), lambda: Eq(exp(num(0)), 1))}),
    TrustedRule(
        "sqrt_def",
        "The square root of a >= 0 is the b >= 0 with b^2 = a.",
        "the definition of sqrt, which the solvers do not know",
        {"sqrt_sq": ((REAL,), lambda a: Implies(a >= 0, And(sqrt(a) >= 0, Eq(sqrt(a) * sqrt(a), a))))}),
]


# --------------------------------------------------------------------------- kernels
def gram_form(i: Expr, j: Expr, n, coef: Expr, kern: Expr) -> Expr:
    """The Gram form sum_{i=0}^{n-1} sum_{j=0}^{n-1} b_i b_j K_ij of a kernel at n points:
    ``coef`` is b_i (a term in i), ``kern`` is K_ij (a term in i and j)."""
    if j in free_vars(coef) or any(v in free_vars(num(n)) for v in (i, j)):
        raise TypeError(f"a Gram form's coefficient may depend on {i.name} only, its size on neither index")
    return Sum(i, 0, num(n) - 1, Sum(j, 0, num(n) - 1, coef * subst(coef, {i: j}) * kern))


def _shown(name: str, sort: str) -> Expr:
    """F(i): a term in the index i, to print a schema on."""
    from proofs.language.formula import Seq
    return Seq(name, sort)(Int("i"))


def _exp_gram(i, j, n, b, p, s):
    if j in free_vars(p):
        raise TypeError(f"the point may depend on {i.name} only")
    if {i, j} & free_vars(s):
        raise TypeError("the scale s may depend on neither index")
    return Implies(s >= 0, gram_form(i, j, n, b, exp(s * dot(p, subst(p, {i: j})))) >= 0)


_RULES += [
    TrustedRule(
        "natural_powers",
        "Powers with a natural exponent k, by recursion on k: b^0 = 1 and b^(k+1) = b^k b; the tensor power "
        "v^{(x)0} = (1) and v^{(x)(k+1)} = v^{(x)k} (x) v.",
        "the definitions of b^k and v^{(x)k} for a symbolic k; the solvers see both as uninterpreted functions",
        {"pow_zero": ((REAL,), lambda b: Eq(npow(b, 0), 1)),
         "pow_succ": ((REAL, INT), lambda b, k: Implies(k >= 0, Eq(npow(b, k + 1), npow(b, k) * b))),
         "tensor_pow_zero": ((VEC,), lambda v: Eq(tensor_pow(v, 0), vec1(1))),
         "tensor_pow_succ": ((VEC, INT), lambda v, k: Implies(k >= 0, Eq(tensor_pow(v, k + 1),
                                                                          tensor(tensor_pow(v, k), v))))},
        {"pow_zero": lambda: (Real("b"),), "pow_succ": lambda: (Real("b"), Int("k")),
         "tensor_pow_zero": lambda: (Vec("v"),), "tensor_pow_succ": lambda: (Vec("v"), Int("k"))}),
    TrustedRule(
        "vector_sums",
        "A finite sum of vectors, by recursion on its upper bound: the empty sum is 0, and "
        "sum_{i=lo}^{hi+1} F_i = sum_{i=lo}^{hi} F_i + F_{hi+1}.",
        "a sum of unboundedly many vectors; the solvers see it as an uninterpreted function of its bounds",
        {"vsum_empty": ((VAR, INT, VEC), lambda i, lo, body: Eq(VSum(i, lo, lo - 1, body), vzero())),
         "vsum_succ": ((VAR, INT, INT, VEC), lambda i, lo, hi, body: Implies(
             And(*nat_lo(i, lo), hi >= lo - 1), Eq(VSum(i, lo, hi + 1, body), VSum(i, lo, hi, body) + subst(body, {i: hi + 1}))))},
        {"vsum_empty": lambda: (Int("i"), Int("a"), _shown("F", VEC)),
         "vsum_succ": lambda: (Int("i"), Int("a"), Int("b"), _shown("F", VEC))}),
    TrustedRule(
        "exp_power_series",
        "For s >= 0, exp(s x.x') is a kernel: every Gram form sum_{i,j<n} b_i b_j exp(s x_i.x_j) is >= 0.  "
        "exp(s t) = sum_k (s^k/k!) t^k; each partial sum is a nonnegative combination of the kernels "
        "(x.x')^k, so its Gram forms are >= 0, and they converge to those of exp(s x.x').",
        "a limit of a power series (Gram forms >= 0 are closed under pointwise limits); no engine here has "
        "limits, so the one consequence used enters as instances of this schema",
        {"gram_nonneg": ((VAR, VAR, INT, REAL, VEC, REAL), _exp_gram)},
        {"gram_nonneg": lambda: (Int("i"), Int("j"), Int("n"), _shown("b", REAL), _shown("x", VEC), Real("s"))}),
]

RULES: dict[str, TrustedRule] = {r.id: r for r in _RULES}


def rule(rule_id: str) -> TrustedRule:
    return RULES[rule_id]


def register(r: TrustedRule) -> TrustedRule:
    """Add a rule (theorem families with their own vocabulary, e.g. kernels, declare theirs)."""
    if r.id in RULES and RULES[r.id] is not r:
        raise ValueError(f"trusted rule {r.id} declared twice")
    RULES[r.id] = r
    return r
