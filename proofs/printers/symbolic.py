"""Formula objects in sympy: the coordinate model of vectors, for identities.

A vector variable ``v`` is the indexed family ``v[i]``, i = 1..d with d a symbolic dimension; a
vector sequence ``w(k)`` is ``w[k, i]``; ``dot(a, b)`` is ``Sum(a[i] b[i], (i, 1, d))``; ``+``,
``-`` and scaling act coordinatewise.  An identity is decided by expanding both sides into
monomials under the sums and collecting them (linearity of finite sums: the trusted rule
``finite_sum_linearity``); z3 and cvc5 then re-check the same identity in dimensions 1, 2, 3
(``proofs.printers.concrete.instance``), which needs no trust.

Feature spaces (``vec1``, ``vcat``, ``tensor``, ``tpow``, ``VSum`` and functions of vectors such as
a feature map ``phi(x)``) use a block model (:func:`block_identity_holds`): a vector is a list of
blocks, each a family of coordinates over a tuple of symbolic dimensions -- ``x`` is one block over
d, ``phi(x)`` one block over N_phi (the feature map's own dimension), ``(u, v)`` u's blocks then
v's, ``u (x) v`` the products of a block of u and a block of v over both index tuples.  An inner
product sums block by block; the identity is decided by a normal form for sums over several
independent indices (finite sums are linear, and a sum over a box of indices may be taken in any
order: the trusted rule ``finite_sum_linearity``).  Formulas without these constructions take the
single-index path above, unchanged.
"""
from __future__ import annotations

from functools import lru_cache

from proofs.language.formula import VEC, Expr, FormulaError
from proofs.printers.printer import Printer

__all__ = ["to_sympy", "identity_holds", "has_symbolic_sum", "needs_coordinates"]


@lru_cache(maxsize=1)
def _sp():
    import sympy as sp
    return sp


def _dim():
    sp = _sp()
    return sp.Symbol("d", integer=True, positive=True)


class _Tr(Printer):
    """The single-index coordinate model: a vector read at a symbolic coordinate i."""
    name = "sympy printer"

    def __init__(self):
        self.sp, self.n, self.d = _sp(), 0, _dim()
        self.syms: dict[str, object] = {}

    def sym(self, name):
        if name not in self.syms:
            self.syms[name] = self.sp.Symbol(name, real=True)
        return self.syms[name]

    def lower(self, i: Expr, lo: Expr):
        """The first value of a sum's index: max(lo, 0) for a natural index, unless lo is a natural."""
        from proofs.language.formula import NAT
        s = self.scalar(lo)
        return self.sp.Max(s, 0) if i.sort == NAT and lo.sort != NAT else s

    def sum_of(self, inner, iv, i: Expr, lo: Expr, hi: Expr):
        """sum_{i=lo}^{hi} inner: numeric bounds with hi < lo are the empty sum (not Karr's
        convention); symbolic bounds are only used through linearity, true in either reading."""
        lo_s, hi_s = self.lower(i, lo), self.scalar(hi)
        if lo_s.is_number and hi_s.is_number and hi_s < lo_s:
            return self.sp.Integer(0)
        return self.sp.Sum(inner, (iv, lo_s, hi_s))

    def index(self):
        self.n += 1
        return self.sp.Symbol(f"i{self.n}", integer=True, positive=True)

    # ------------------------------------------------------------------ one method per operation
    # ``at`` is None for a number, a coordinate index for a vector read at that coordinate (and,
    # in the block model below, BLOCKS for a vector as its list of blocks)
    def scalar(self, e: Expr):
        return self.node(e, None)

    def vec(self, e: Expr, i):
        return self.node(e, i)

    def cannot(self, e: Expr, at):
        """The error for an operation this model does not read where it is met."""
        if at is None:
            return FormulaError(f"no sympy form for {e.op}")
        return FormulaError(f"no coordinates for {e.op}")

    def op_var(self, e, at):
        if at is None:
            return self.sym(e.name)
        return self.sp.IndexedBase(e.name)[at]

    def op_num(self, e, at):
        if at is not None:
            raise self.cannot(e, at)
        return self.sp.Rational(e.value.numerator, e.value.denominator)

    def op_call(self, e, at):
        sp, a = self.sp, e.args
        if at is None:
            if any(x.sort == VEC for x in a):
                raise FormulaError("a function of a vector has no coordinate form")
            return sp.Function(e.name)(*[self.scalar(x) for x in a])
        if len(a) != 1:
            raise FormulaError("only sequences of vectors have coordinates here")
        return sp.IndexedBase(e.name)[self.scalar(a[0]), at]

    def _arithmetic(self, e, at):
        if at is not None:
            raise self.cannot(e, at)
        sp, op, a, S = self.sp, e.op, e.args, self.scalar
        if op == "to_real":
            return S(a[0])
        if op == "add":
            return sp.Add(*[S(x) for x in a])
        if op == "mul":
            return sp.Mul(*[S(x) for x in a])
        if op == "sub":
            return S(a[0]) - S(a[1])
        if op == "neg":
            return -S(a[0])
        if op == "div":
            return S(a[0]) / S(a[1])
        return S(a[0]) ** int(a[1].value)          # pow: a constant natural exponent

    op_to_real = op_add = op_mul = op_sub = op_neg = op_div = op_pow = _arithmetic

    def op_dot(self, e, at):
        if at is not None:
            raise self.cannot(e, at)
        i = self.index()
        return self.sp.Sum(self.vec(e.args[0], i) * self.vec(e.args[1], i), (i, 1, self.d))

    def op_sum(self, e, at):
        if at is not None:
            raise self.cannot(e, at)
        v, lo, hi, body = e.args
        iv = self.sp.Symbol(v.name, integer=True)
        inner = self.scalar(body).subs(self.sym(v.name), iv)
        return self.sum_of(inner, iv, v, lo, hi)

    def _function(self, e, at):
        if at is not None:
            raise self.cannot(e, at)
        x = self.scalar(e.args[0])
        return self.sp.log(x, 2) if e.op == "lg" else getattr(self.sp, e.op)(x)

    op_exp = op_sqrt = op_lg = _function

    def op_vzero(self, e, at):
        if at is None:
            raise self.cannot(e, at)
        return self.sp.Integer(0)

    def _vector_sum(self, e, at):
        if at is None:
            raise self.cannot(e, at)
        x, y = self.vec(e.args[0], at), self.vec(e.args[1], at)
        return x + y if e.op == "vadd" else x - y

    op_vadd = op_vsub = _vector_sum

    def op_smul(self, e, at):
        if at is None:
            raise self.cannot(e, at)
        return self.scalar(e.args[0]) * self.vec(e.args[1], at)


def to_sympy(e: Expr):
    """The sympy expression of a numeric term (vectors in coordinates over a symbolic d)."""
    return _Tr().scalar(e)


def has_symbolic_sum(e: Expr) -> bool:
    """Does deciding ``e`` need linearity of finite sums (an inner product or a sum)?"""
    from proofs.language.substitution import walk
    return any(n.op in ("dot", "sum") for n in walk(e))


def needs_coordinates(e: Expr) -> bool:
    """Is ``e`` about vectors or sums (decided in coordinates, not by the solvers as it stands)?"""
    from proofs.language.substitution import walk
    return any(n.op in ("dot", "sum") or n.sort == VEC for n in walk(e))


def _sum_normal(expr) -> bool | None:
    """Linearity of finite sums as a normal form: expand every summand into monomials, pull the
    factors free of the summation index out, rename the index, collect.  True when every
    collected coefficient is 0; None when the form is outside what this handles."""
    sp = _sp()
    expr = sp.expand(expr)
    coeffs: dict = {}
    canon = sp.Symbol("i_", integer=True, positive=True)
    for term in sp.Add.make_args(expr):
        outer, sums = [], []
        for f in sp.Mul.make_args(term):
            (sums if isinstance(f, sp.Sum) else outer).append(f)
        if len(sums) > 1:
            return None
        if not sums:
            coeffs[None] = coeffs.get(None, 0) + term
            continue
        S = sums[0]
        if len(S.limits) != 1:
            return None
        var, lo, hi = S.limits[0]
        body = sp.expand(S.function.subs(var, canon))
        for t in sp.Add.make_args(body):
            dep = sp.Mul(*[f for f in sp.Mul.make_args(t) if f.has(canon)])
            ind = sp.Mul(*[f for f in sp.Mul.make_args(t) if not f.has(canon)])
            key = (dep, lo, hi)
            coeffs[key] = coeffs.get(key, 0) + ind * sp.Mul(*outer)
    return all(sp.expand(c) == 0 for c in coeffs.values())


def identity_holds(lhs: Expr, rhs: Expr) -> tuple[bool, str]:
    """(True, how) when sympy shows lhs - rhs = 0 in the coordinate model; (False, why) otherwise."""
    if needs_blocks(lhs) or needs_blocks(rhs):
        return block_identity_holds(lhs, rhs)
    sp = _sp()
    tr = _Tr()
    if lhs.sort == VEC:              # equal in every coordinate i (a symbolic index)
        i = tr.index()
        diff = tr.vec(lhs, i) - tr.vec(rhs, i)
    else:
        diff = tr.scalar(lhs) - tr.scalar(rhs)
    if sp.expand(diff) == 0:
        return True, "expand(lhs - rhs) = 0"
    if diff.has(sp.Sum):
        r = _sum_normal(diff)
        if r is True:
            return True, "lhs - rhs = 0 by linearity of finite sums"
        return False, "the sums do not cancel" if r is False else "sum form outside the normal form"
    return False, "expand(lhs - rhs) is not 0"


# --------------------------------------------------------------------------- feature spaces: blocks
_FEATURE_OPS = ("vec1", "vcat", "tensor", "tpow", "npow", "vsum")


def needs_blocks(e: Expr) -> bool:
    """Does ``e`` use a feature-space construction or a function of a vector?"""
    from proofs.language.substitution import walk
    return any(n.op in _FEATURE_OPS or (n.op == "call" and any(x.sort == VEC for x in n.args)) for n in walk(e))


_ZERO = None        # the zero vector: a list of blocks of whatever shape the other operand has
BLOCKS = object()   # ``at`` for a vector read as its list of blocks


class _Blocks(_Tr):
    """Vectors as lists of blocks ``(shape, coordinate function)``: ``shape`` is a tuple of sympy
    dimensions, the function maps a tuple of index symbols (one per dimension) to a coordinate."""

    def __init__(self):
        super().__init__()
        self.opaque: dict[Expr, str] = {}

    # ------------------------------------------------------------------ keys of vector arguments
    def vkey(self, e: Expr):
        """A sympy term standing for the vector ``e`` as the argument of a function: equal terms
        give equal keys, and a key depends on the scalar variables of the term (so phi(x(j)) is a
        function of the summation index j)."""
        sp = self.sp
        if e.op == "var":
            return sp.Symbol(f"mb_vec_{e.name}")
        from proofs.language.substitution import free_vars
        if e not in self.opaque:
            self.opaque[e] = f"mb_t{len(self.opaque)}"
        deps = sorted((v for v in free_vars(e) if v.sort != VEC), key=lambda v: v.name)
        return sp.Function(self.opaque[e])(*[self.sym(v.name) for v in deps]) if deps else \
            sp.Symbol(self.opaque[e])

    def fun_dim(self, name: str):
        return self.sp.Symbol(f"N_{name}", integer=True, positive=True)

    def size(self, blocks):
        sp = self.sp
        return sp.Add(*[sp.Mul(*shape) for shape, _ in blocks])

    # ------------------------------------------------------------------ vectors as blocks
    def blocks(self, e: Expr):
        return self.node(e, BLOCKS)

    def cannot(self, e: Expr, at):
        if at is None and e.op in ("vec1", "vcat", "tensor", "tpow", "vsum"):
            return FormulaError(f"a vector ({e.op}) where a number is expected")
        return super().cannot(e, at)

    def op_var(self, e, at):
        if at is not BLOCKS:
            return super().op_var(e, at)
        base = self.sp.IndexedBase(e.name)
        return [((self.d,), lambda I, b=base: b[I[0]])]

    def op_call(self, e, at):
        sp, a = self.sp, e.args
        if at is None:
            keys = [self.vkey(x) if x.sort == VEC else self.scalar(x) for x in a]
            return sp.Function(e.name)(*keys)
        if at is not BLOCKS:
            return super().op_call(e, at)
        if all(x.sort != VEC for x in a):             # a sequence of vectors, w(k): in R^d
            if len(a) != 1:
                raise FormulaError("only sequences of vectors have coordinates here")
            base, k = sp.IndexedBase(e.name), self.scalar(a[0])
            return [((self.d,), lambda I, b=base, k=k: b[k, I[0]])]
        keys = [self.vkey(x) if x.sort == VEC else self.scalar(x) for x in a]
        f = sp.Function(e.name)
        return [((self.fun_dim(e.name),), lambda I, f=f, keys=keys: f(*keys, I[0]))]

    def op_vzero(self, e, at):
        if at is not BLOCKS:
            return super().op_vzero(e, at)
        return _ZERO

    def _vector_sum(self, e, at):
        if at is not BLOCKS:
            return super()._vector_sum(e, at)
        op, a = e.op, e.args
        u, v = self.blocks(a[0]), self.blocks(a[1])
        if u is _ZERO:
            return v if op == "vadd" or v is _ZERO else [(s, lambda I, g=g: -g(I)) for s, g in v]
        if v is _ZERO:
            return u
        self.same_shapes(u, v)
        sign = 1 if op == "vadd" else -1
        return [(s, lambda I, f=f, g=g: f(I) + sign * g(I)) for (s, f), (_, g) in zip(u, v)]

    op_vadd = op_vsub = _vector_sum

    def op_smul(self, e, at):
        if at is not BLOCKS:
            return super().op_smul(e, at)
        c, v = self.scalar(e.args[0]), self.blocks(e.args[1])
        return _ZERO if v is _ZERO else [(s, lambda I, g=g: c * g(I)) for s, g in v]

    def op_vec1(self, e, at):
        if at is not BLOCKS:
            raise self.cannot(e, at)
        t = self.scalar(e.args[0])
        return [((), lambda I, t=t: t)]

    def op_vcat(self, e, at):
        if at is not BLOCKS:
            raise self.cannot(e, at)
        u, v = self.blocks(e.args[0]), self.blocks(e.args[1])
        if u is _ZERO or v is _ZERO:
            raise FormulaError("the zero vector in a concatenation has no dimension")
        return u + v

    def op_tensor(self, e, at):
        if at is not BLOCKS:
            raise self.cannot(e, at)
        u, v = self.blocks(e.args[0]), self.blocks(e.args[1])
        if u is _ZERO or v is _ZERO:
            raise FormulaError("the zero vector in a tensor product has no dimension")
        return [(su + sv, lambda I, f=f, g=g, n=len(su): f(I[:n]) * g(I[n:])) for su, f in u for sv, g in v]

    def op_tpow(self, e, at):
        if at is not BLOCKS:
            raise self.cannot(e, at)
        sp = self.sp
        v, k = e.args
        if k.op == "num":
            out = [((), lambda I: sp.Integer(1))]
            for _ in range(int(k.value)):
                out = [(su + sv, lambda I, f=f, g=g, n=len(su): f(I[:n]) * g(I[n:]))
                       for su, f in out for sv, g in self.blocks(v)]
            return out
        base = self.blocks(v)
        if base is _ZERO:
            raise FormulaError("the zero vector in a tensor power has no dimension")
        key, kk = self.vkey(v), self.scalar(k)
        f = sp.Function("mb_tpow")
        return [((self.size(base) ** kk,), lambda I, f=f, key=key, kk=kk: f(key, kk, I[0]))]

    def op_vsum(self, e, at):
        if at is not BLOCKS:
            raise self.cannot(e, at)
        sp = self.sp
        i, lo, hi, body = e.args
        iv = sp.Symbol(i.name, integer=True)
        inner = self.blocks(body)
        if inner is _ZERO:
            return _ZERO
        lo_s, hi_s = self.lower(i, lo), self.scalar(hi)
        out = []
        for shape, g in inner:
            if any(sp.sympify(n).has(self.sym(i.name)) for n in shape):
                raise FormulaError("a sum of vectors whose dimension depends on the index")
            out.append((shape, lambda I, g=g: sp.Sum(g(I).subs(self.sym(i.name), iv), (iv, lo_s, hi_s))))
        return out

    def same_shapes(self, u, v):
        sp = self.sp
        if len(u) != len(v) or any(len(s) != len(t) or any(sp.expand(p - q) != 0 for p, q in zip(s, t))
                                   for (s, _), (t, _) in zip(u, v)):
            raise FormulaError("vectors of different shapes in one operation")

    def fresh_indices(self, shape):
        return tuple(self.index() for _ in shape)

    # ------------------------------------------------------------------ scalars
    def op_dot(self, e, at):
        if at is not None:
            raise self.cannot(e, at)
        sp = self.sp
        u, v = self.blocks(e.args[0]), self.blocks(e.args[1])
        if u is _ZERO or v is _ZERO:
            return sp.Integer(0)
        self.same_shapes(u, v)
        out = sp.Integer(0)
        for (shape, f), (_, g) in zip(u, v):
            idx = self.fresh_indices(shape)
            term = f(idx) * g(idx)
            out += sp.Sum(term, *[(i, 1, n) for i, n in zip(idx, shape)]) if idx else term
        return out

    def op_npow(self, e, at):         # uninterpreted, as for the solvers: its laws are trusted rules
        if at is not None:
            raise self.cannot(e, at)
        return self.sp.Function("mb_npow")(self.scalar(e.args[0]), self.scalar(e.args[1]))


def _flatten(expr, fresh):
    """``expr`` as a list of (limits, body): expr = sum over the list of Sum(body, *limits), with
    no Sum left in any body (products of sums become one sum over all their indices, with every
    index renamed apart).  None when a sum's range depends on another summation index."""
    sp = _sp()
    if not expr.has(sp.Sum):
        return [((), expr)]
    if isinstance(expr, sp.Add):
        out = []
        for t in expr.args:
            r = _flatten(t, fresh)
            if r is None:
                return None
            out.extend(r)
        return out
    if isinstance(expr, sp.Mul) or (isinstance(expr, sp.Pow) and expr.exp.is_Integer and expr.exp > 0):
        factors = list(expr.args) if isinstance(expr, sp.Mul) else [expr.base] * int(expr.exp)
        acc = [((), sp.Integer(1))]
        for f in factors:
            r = _flatten(f, fresh)
            if r is None:
                return None
            acc = [(l1 + l2, b1 * b2) for l1, b1 in acc for l2, b2 in r]
        return acc
    if isinstance(expr, sp.Sum):
        body, limits = expr.function, []
        for var, lo, hi in expr.limits:
            nv = fresh()
            body = body.subs(var, nv)
            limits.append((nv, lo, hi))
        inner = _flatten(body, fresh)
        if inner is None:
            return None
        out = [(tuple(limits) + l, b) for l, b in inner]
        for lims, _ in out:
            vs = {v for v, _, _ in lims}
            if any(lo.free_symbols & vs or hi.free_symbols & vs for _, lo, hi in lims):
                return None
        return out
    return [((), expr)]       # a sum inside a function: an atom


def multi_sum_normal(expr) -> bool | None:
    """Finite sums over several independent indices as a normal form: every term becomes one sum
    over a box of indices of a monomial; the indices are renamed in the order that gives the
    smallest key (sums over a box may be taken in any order), index-free factors are collected
    as coefficients.  True when every coefficient is 0; None when a range depends on an index."""
    sp = _sp()
    from itertools import permutations
    n = [0]

    def fresh():
        n[0] += 1
        return sp.Symbol(f"j_{n[0]}", integer=True)
    terms = _flatten(sp.expand(expr), fresh)
    if terms is None:
        return None
    canon = [sp.Symbol(f"k_{t}", integer=True) for t in range(8)]
    coeffs: dict = {}
    for limits, body in terms:
        vs = {v for v, _, _ in limits}
        if len(limits) > len(canon):
            return None
        for mono in sp.Add.make_args(sp.expand(body)):
            dep = sp.Mul(*[f for f in sp.Mul.make_args(mono) if f.free_symbols & vs])
            ind = sp.Mul(*[f for f in sp.Mul.make_args(mono) if not f.free_symbols & vs])
            best = None
            for perm in permutations(range(len(limits))):
                ren = {limits[p][0]: canon[t] for t, p in enumerate(perm)}
                key = (tuple((sp.srepr(limits[p][1]), sp.srepr(limits[p][2])) for p in perm),
                       sp.srepr(dep.xreplace(ren)))
                best = key if best is None or key < best else best
            coeffs[best] = coeffs.get(best, 0) + ind
    return all(sp.expand(c) == 0 for c in coeffs.values())


def block_identity_holds(lhs: Expr, rhs: Expr) -> tuple[bool, str]:
    """:func:`identity_holds` for formulas with feature-space constructions (the block model)."""
    sp = _sp()
    tr = _Blocks()
    if lhs.sort == VEC:
        u, v = tr.blocks(lhs), tr.blocks(rhs)
        if u is _ZERO and v is _ZERO:
            return True, "0 = 0"
        if u is _ZERO or v is _ZERO:
            w = v if u is _ZERO else u
            diffs = [g(tr.fresh_indices(s)) for s, g in w]
        else:
            tr.same_shapes(u, v)
            diffs = []
            for (s, f), (_, g) in zip(u, v):
                idx = tr.fresh_indices(s)
                diffs.append(f(idx) - g(idx))
    else:
        diffs = [tr.scalar(lhs) - tr.scalar(rhs)]
    for diff in diffs:
        if sp.expand(diff) == 0:
            continue
        r = multi_sum_normal(diff) if diff.has(sp.Sum) else False
        if r is not True:
            return False, ("the sums do not cancel" if r is False and diff.has(sp.Sum) else
                           "sum form outside the normal form" if r is None else "expand(lhs - rhs) is not 0")
    return True, "lhs - rhs = 0 in every block of coordinates, by linearity of finite sums"
