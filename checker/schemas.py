"""The fixed table of trusted rule schemas: the only rule instances a certificate may use unproved.

Each schema is (argument kinds, builder).  The checker re-instantiates every rule step of a
certificate from this table, at the step's recorded arguments, and compares the result with the
step's formula: a rule step can only ever state an instance of what is written here.  A rule id
or schema not in this table is an *assumption*: the checker reports "proved assuming <rule>",
never "proved".

Argument kinds: ``var`` an integer variable (a sum's index, bound by the schema), ``num`` any
number kept as it is, ``Real`` a real (integers cast), ``Int`` an integer, ``Vec`` a vector.  Only
the arguments listed in :data:`BODY_ARGS` (the terms of a sum) may mention an index; a bound or a
coefficient that does is refused, so no binder ever captures it.  Sums over a natural index
carry ``lo >= 0`` as a premise where the rule needs it and ``lo`` is not a natural-number term.

The schemas are those of the catalogue (docs/proof-kernel.md, "Trusted rules"): linearity of
finite sums, powers of two and lg, the laws of exp and its tangent, the square root, natural
powers, vector sums, and the power series of the Gaussian kernel.  Induction is a step kind of
its own (``checker.check``), its premises checked for shape.
"""
from __future__ import annotations

from checker.terms import (INT, NAT, NUMERIC, REAL, VEC, And, CheckError, Implies, ForAll, Sum, VSum, add, div, eq, fn, ge,
                    gt, is_int, le, lit, lt, mul, node, sub, subst, to_real)

VAR, NUM = "var", "num"


def _free_of(i, c):
    if i.name in c.free():
        raise CheckError(f"the coefficient depends on the summation index {i.name}")
    return c


def nat_lo(i, lo) -> list:
    return [ge(lo, 0)] if i.sort == NAT and lo.sort != NAT else []


def _within(i, lo, hi, f):
    return ForAll(i, Implies(And(le(lo, i), le(i, hi)), f))


def _gram(i, j, n, coef, kern):
    if j.name in coef.free() or {i.name, j.name} & n.free():
        raise CheckError(f"a Gram form's coefficient may depend on {i.name} only, its size on neither index")
    top = sub(n, 1)
    return Sum(i, 0, top, Sum(j, 0, top, mul(mul(coef, subst(coef, {i: j})), kern)))


def _exp_gram(i, j, n, b, p, s):
    if j.name in p.free():
        raise CheckError(f"the point may depend on {i.name} only")
    if {i.name, j.name} & s.free():
        raise CheckError("the scale s may depend on neither index")
    kern = fn("exp", mul(s, fn("dot", p, subst(p, {i: j}))))
    return Implies(ge(s, 0), ge(_gram(i, j, n, b, kern), 0))


SCHEMAS = {
    "finite_sum_linearity": {
        "dot_nonneg": ((VEC,), lambda v: ge(fn("dot", v, v), 0)),
        "sum_empty": ((VAR, INT, NUM), lambda i, lo, body: eq(Sum(i, lo, sub(lo, 1), body), 0)),
        "sum_succ": ((VAR, INT, INT, NUM), lambda i, lo, hi, body: Implies(
            And(*nat_lo(i, lo), ge(hi, sub(lo, 1))),
            eq(Sum(i, lo, add(hi, 1), body), add(Sum(i, lo, hi, body), subst(body, {i: add(hi, 1)}))))),
        "sum_nonneg": ((VAR, INT, INT, NUM), lambda i, lo, hi, body: Implies(
            _within(i, lo, hi, ge(body, 0)), ge(Sum(i, lo, hi, body), 0))),
        "sum_linear": ((VAR, INT, INT, NUM, NUM, NUM, NUM), lambda i, lo, hi, c, a, e, b: eq(
            Sum(i, lo, hi, add(mul(_free_of(i, c), a), mul(_free_of(i, e), b))),
            add(mul(c, Sum(i, lo, hi, a)), mul(e, Sum(i, lo, hi, b))))),
        "sum_scale": ((VAR, INT, INT, NUM, NUM), lambda i, lo, hi, c, a: eq(
            Sum(i, lo, hi, mul(_free_of(i, c), a)), mul(c, Sum(i, lo, hi, a)))),
        "sum_mono": ((VAR, INT, INT, NUM, NUM), lambda i, lo, hi, a, b: Implies(
            _within(i, lo, hi, le(a, b)), le(Sum(i, lo, hi, a), Sum(i, lo, hi, b)))),
        "sum_const": ((VAR, INT, INT, NUM), lambda i, lo, hi, c: Implies(
            And(*nat_lo(i, lo), ge(hi, sub(lo, 1))),
            eq(Sum(i, lo, hi, _free_of(i, c)), mul(add(sub(hi, lo), 1), c)))),
        "sum_term_le": ((VAR, INT, INT, NUM, INT), lambda i, lo, hi, body, j: Implies(
            And(*nat_lo(i, lo), _within(i, lo, hi, ge(body, 0)), le(lo, j), le(j, hi)),
            le(subst(body, {i: j}), Sum(i, lo, hi, body)))),
        "sum_split": ((VAR, INT, INT, INT, NUM), lambda i, lo, m, hi, body: Implies(
            And(le(sub(lo, 1), m), le(m, hi)),
            eq(Sum(i, lo, hi, body), add(Sum(i, lo, m, body), Sum(i, add(m, 1), hi, body))))),
    },
    "pow2_log2": {
        "pow2_zero": ((), lambda: eq(fn("pow2", lit(0)), 1)),
        "pow2_succ": ((INT,), lambda t: eq(fn("pow2", add(t, 1)), mul(2, fn("pow2", t)))),
        "pow2_pos": ((INT,), lambda t: gt(fn("pow2", t), 0)),
        "lg_pow2": ((INT,), lambda t: eq(fn("lg", fn("pow2", t)), t)),
        "lg_strictly_increasing": ((REAL, REAL), lambda a, b: Implies(
            And(gt(a, 0), lt(a, b)), lt(fn("lg", a), fn("lg", b)))),
        "pow2_increasing": ((INT, INT), lambda a, b: Implies(le(a, b), le(fn("pow2", a), fn("pow2", b)))),
    },
    "exp_laws": {
        "exp_add": ((REAL, REAL), lambda a, b: eq(fn("exp", add(a, b)), mul(fn("exp", a), fn("exp", b)))),
        "exp_pos": ((REAL,), lambda a: gt(fn("exp", a), 0)),
        "exp_zero": ((), lambda: eq(fn("exp", lit(0)), 1)),
    },
    "exp_tangent": {
        "exp_ge_tangent": ((REAL,), lambda a: le(add(1, a), fn("exp", a))),
    },
    # Hedge's tuned regret (proofs/catalogue/hedge_regret_bound.py): below 0, exp under its second-order Taylor polynomial
    "exp_quadratic": {
        "exp_neg_le_quadratic": ((REAL,), lambda a: Implies(ge(a, 0), le(fn("exp", node("neg", (a,))),
                                                                        add(sub(1, a), div(mul(a, a), 2))))),
    },
    "sqrt_def": {
        "sqrt_sq": ((REAL,), lambda a: Implies(ge(a, 0), And(ge(fn("sqrt", a), 0),
                                                              eq(mul(fn("sqrt", a), fn("sqrt", a)), a)))),
    },
    "natural_powers": {
        "pow_zero": ((REAL,), lambda b: eq(fn("npow", b, lit(0)), 1)),
        "pow_succ": ((REAL, INT), lambda b, k: Implies(ge(k, 0), eq(fn("npow", b, add(k, 1)),
                                                                    mul(fn("npow", b, k), b)))),
        "tensor_pow_zero": ((VEC,), lambda v: eq(fn("tpow", v, lit(0)), fn("vec1", 1))),
        "tensor_pow_succ": ((VEC, INT), lambda v, k: Implies(ge(k, 0), eq(
            fn("tpow", v, add(k, 1)), fn("tensor", fn("tpow", v, k), v)))),
    },
    "vector_sums": {
        "vsum_empty": ((VAR, INT, VEC), lambda i, lo, body: eq(VSum(i, lo, sub(lo, 1), body), node("vzero"))),
        "vsum_succ": ((VAR, INT, INT, VEC), lambda i, lo, hi, body: Implies(
            And(*nat_lo(i, lo), ge(hi, sub(lo, 1))),
            eq(VSum(i, lo, add(hi, 1), body), add(VSum(i, lo, hi, body), subst(body, {i: add(hi, 1)}))))),
    },
    "exp_power_series": {
        "gram_nonneg": ((VAR, VAR, INT, REAL, VEC, REAL), _exp_gram),
    },
}

# schema -> the positions of the arguments that may mention its indices (the terms of its sums)
BODY_ARGS = {
    "sum_empty": (2,), "sum_succ": (3,), "sum_nonneg": (3,), "sum_linear": (4, 6), "sum_scale": (4,),
    "sum_mono": (3, 4), "sum_const": (), "sum_term_le": (3, 4), "sum_split": (4,),
    "vsum_empty": (2,), "vsum_succ": (3,), "gram_nonneg": (3, 4),
}


def known(rule: str, schema: str) -> bool:
    return rule in SCHEMAS and schema in SCHEMAS[rule]


def instance(rule: str, schema: str, args) -> object:
    """The schema's formula at ``args`` (terms), after checking their kinds and hygiene."""
    kinds, build = SCHEMAS[rule][schema]
    if len(args) != len(kinds):
        raise CheckError(f"{rule}.{schema} takes {len(kinds)} argument(s), got {len(args)}")
    read = []
    for k, (a, kind) in enumerate(zip(args, kinds)):
        if kind == VAR:
            ok = a.op == "var" and is_int(a.sort)
        elif kind == NUM:
            ok = a.sort in NUMERIC
        elif kind == REAL:
            ok = a.sort in NUMERIC
            a = to_real(a) if ok else a
        elif kind == INT:
            ok = is_int(a.sort)
        else:
            ok = a.sort == kind
        if not ok:
            raise CheckError(f"{rule}.{schema}: argument {k + 1} is a {a.sort}, the schema takes a {kind}")
        read.append(a)
    idx = [a.name for a, kind in zip(read, kinds) if kind == VAR]
    if len(set(idx)) != len(idx):
        raise CheckError(f"{rule}.{schema}: its indices must be distinct variables")
    for k, (a, kind) in enumerate(zip(read, kinds)):
        if idx and kind != VAR and k not in BODY_ARGS.get(schema, ()) and set(idx) & a.free():
            raise CheckError(f"{rule}.{schema}: argument {k + 1} mentions the index "
                             f"{', '.join(sorted(set(idx) & a.free()))}, which the rule binds")
    return build(*read)
