"""Formula objects on concrete values: exact evaluation, and concrete instances for the solvers.

* :func:`evaluate` (``proofs.printers.exact``, re-exported here) computes a formula in exact rational
  arithmetic.  An erratum's counterexample is checked this way: every hypothesis true, the
  conclusion false.
* :func:`instance` turns formulas into plain real arithmetic: naturals that bound the per-step
  hypotheses get small values, bounded "for all" and finite sums with numeric bounds are
  unrolled (an unbounded "for all" over vectors stays one, over their coordinates), and every
  vector is written in coordinates of R^dim (``dot`` is the sum of the coordinate products).  A
  function of vectors, f(x), becomes a function of x's coordinates (one per coordinate of its
  value), so equal arguments give equal values with no side condition.  The theorem-level
  non-vacuity check asks the solvers for a model of such an instance (a real run of the learner
  in the plane, say), and a coordinate identity is re-checked on its instances in dimensions 1, 2, 3.
"""
from __future__ import annotations

from fractions import Fraction

from proofs.language.formula import BOOL, INT, NAT, REAL, VEC, And, Eq, Expr, FormulaError, Ite, Not, num, to_real
from proofs.printers.printer import Printer
from proofs.language.substitution import subst
from proofs.printers.exact import NotExact, _bounded, evaluate, index_range  # noqa: F401 - re-exported

__all__ = ["evaluate", "NotExact", "instance", "Instance", "index_range"]


# --------------------------------------------------------------------------- concrete instances
class Instance:
    """Formulas in plain real arithmetic, with the map from coordinates back to the original terms
    (to print a model as vectors and sequences)."""

    def __init__(self, dim: int):
        self.dim = dim
        self.names: dict[tuple, Expr] = {}     # (term, coordinate or None) -> fresh variable
        self._labelled: dict[str, tuple[Expr, int | None]] = {}   # fresh name -> (term, coordinate)
        self._labels: dict | None = None
        self.congruence: list[Expr] = []
        self.calls: dict[tuple[str, int | None], list[tuple[tuple, Expr]]] = {}

    def fresh(self, term: Expr, coord: int | None, sort: str) -> Expr:
        key = (term, coord)
        got = self.names.get(key)
        if got is None:
            n = f"c{len(self.names)}"
            got = self.names[key] = Expr("var", name=n, sort=INT if sort in (INT, NAT) else sort, tex=n, text=n)
            self._labelled[n] = (term, coord)
            self._labels = None
        return got

    @property
    def labels(self) -> dict[str, tuple[str, int | None]]:
        """Fresh name -> (the term's display, coordinate): printed when a model is shown, not before."""
        if self._labels is None:
            from proofs.printers.render import text
            self._labels = {n: (text(t), c) for n, (t, c) in self._labelled.items()}
        return self._labels


def instance(formulas, sizes: dict | None = None, dim: int = 2):
    """``formulas`` (a list of Expr) as real arithmetic: ``sizes`` maps natural-number variables
    to values (substituted first), every bounded quantifier and sum whose bounds then evaluate is
    unrolled, vectors become ``dim`` coordinates.  Returns (list of Expr, Instance)."""
    inst = Instance(dim)
    m = {v: num(val) for v, val in (sizes or {}).items()}
    out = [_scalar(subst(f, m), inst, {}) for f in formulas]
    return out + inst.congruence, inst


def _const_int(e: Expr, env) -> int | None:
    try:
        v = evaluate(e, env)
    except (NotExact, FormulaError, KeyError, TypeError, ValueError):
        return None
    if isinstance(v, Fraction) and v.denominator == 1:
        return int(v)
    return None


def _vec_two(x: Expr, y: Expr, inst: Instance, env) -> tuple[list, list]:
    """The coordinates of two vectors that must have as many (the zero vector takes the other's)."""
    if x.op == "vzero" and y.op != "vzero":
        ys = _vec(y, inst, env)
        return [num(0) for _ in ys], ys
    xs = _vec(x, inst, env)
    ys = [num(0) for _ in xs] if y.op == "vzero" else _vec(y, inst, env)
    if len(xs) != len(ys):
        raise FormulaError(f"vectors with {len(xs)} and {len(ys)} coordinates in one operation")
    return xs, ys


def _arg_coords(args, inst: Instance, env) -> tuple:
    """The arguments of a function of vectors, every vector spelled out in coordinates."""
    out = []
    for x in args:
        if x.sort == VEC:
            out.extend(to_real(c) for c in _vec(x, inst, env))
        else:
            out.append(_scalar(x, inst, env))
    return tuple(out)


class _Bound:
    """The coordinates of a vector (or the value of a real) bound by an unbounded 'for all'."""

    def __init__(self, coords):
        self.coords = list(coords)


def _forall_coords(e: Expr, inst: Instance, env) -> Expr:
    """``for all u, v: body`` over vectors and reals stays a 'for all', over their coordinates
    (the solver's quantifier); over integers it has no concrete instance."""
    vs, body = e.args[:-1], e.args[-1]
    if any(v.sort not in (VEC, REAL) for v in vs):
        raise FormulaError("an unbounded 'for all' over integers has no concrete instance")
    inner, bound = dict(env), []
    for v in vs:
        n = len(inst.names) + len(bound)
        cs = [Expr("var", name=f"mb_q{n}_{j}", sort=REAL, tex=f"q{n}_{j}", text=f"q{n}_{j}")
              for j in range(inst.dim if v.sort == VEC else 1)]
        bound.extend(cs)
        inner[v.name] = _Bound(cs)
    from proofs.language.formula import ForAll
    return ForAll(bound, _scalar(body, inst, inner))


def _ground(e: Expr, inst: Instance, env) -> Expr:
    """A variable or call with its bound-variable arguments replaced by their unrolled values."""
    if e.op == "var":
        if e.name in env:
            return num(env[e.name])
        return e
    args = []
    for x in e.args:
        if x.sort in (INT, NAT):
            c = _const_int(x, env)
            args.append(num(c) if c is not None else _scalar(x, inst, env))
        else:
            args.append(_scalar(x, inst, env) if x.sort != VEC else x)
    return Expr("call", tuple(args), e.name, e.sort, None, e.tex, e.text)


class _Unroll(Printer):
    """A formula in plain real arithmetic, one method per operation.  Each method takes the node,
    the :class:`Instance`, the values of the unrolled variables and ``coords``: False for a number
    or a formula (the result is a formula object), True for a vector (the list of its coordinates).
    An operation with nothing to unroll is rebuilt from its unrolled arguments."""
    name = "concrete-instance printer"

    def _rebuild(self, e, inst, env, coords):
        if coords:
            raise FormulaError(f"cannot write {e.op} in coordinates")
        return Expr(e.op, tuple([_scalar(x, inst, env) for x in e.args]), e.name, e.sort, e.value, e.tex, e.text)

    op_and = op_or = op_not = op_implies = op_iff = op_le = op_lt = op_ge = op_gt = _rebuild
    op_add = op_mul = op_sub = op_div = op_neg = op_abs = op_max = op_min = op_pow = op_to_real = _rebuild
    op_exp = op_sqrt = op_lg = op_pow2 = _rebuild
    op_npow = _rebuild                  # a power with an integer exponent term: a number, never coordinates

    def _leaf(self, e, inst, env, coords):
        return self._rebuild(e, inst, env, coords) if coords else e

    op_num = op_true = op_false = _leaf

    def op_var(self, e, inst, env, coords):
        bound = env.get(e.name)
        if coords:
            if isinstance(bound, _Bound):
                return list(bound.coords)
            return [inst.fresh(_ground(e, inst, env), j, REAL) for j in range(inst.dim)]
        if isinstance(bound, _Bound):
            return bound.coords[0]
        if e.name in env:
            return num(env[e.name])
        if e.sort == VEC:
            raise FormulaError("a vector where a number is expected")
        return inst.fresh(e, None, e.sort) if e.sort != BOOL else e

    def op_call(self, e, inst, env, coords):
        vector_args = any(x.sort == VEC for x in e.args)
        if coords:
            if vector_args:
                args = _arg_coords(e.args, inst, env)
                return [Expr("call", args, f"mb_{e.name}_{j}", REAL) for j in range(inst.dim)]
            key = _ground(e, inst, env)
            return [inst.fresh(key, j, REAL) for j in range(inst.dim)]
        if vector_args:
            return Expr("call", _arg_coords(e.args, inst, env), f"mb_{e.name}", e.sort)
        return inst.fresh(_ground(e, inst, env), None, e.sort)

    def op_dot(self, e, inst, env, coords):
        if coords:
            return self._rebuild(e, inst, env, coords)
        x, y = _vec_two(e.args[0], e.args[1], inst, env)
        return _total([to_real(p) * q for p, q in zip(x, y)])

    def op_sum(self, e, inst, env, coords):
        if coords:
            return self._rebuild(e, inst, env, coords)
        i, lo, hi, body = e.args
        lo_v, hi_v = _const_int(lo, env), _const_int(hi, env)
        if lo_v is None or hi_v is None:
            raise FormulaError("a sum with symbolic bounds has no concrete instance")
        terms = [_scalar(body, inst, {**env, i.name: t}) for t in index_range(i, lo_v, hi_v)]
        if not terms:
            return num(0) if e.sort != REAL else to_real(0)
        return _total(terms)

    def op_forall(self, e, inst, env, coords):
        if coords:
            return self._rebuild(e, inst, env, coords)
        b = _bounded(e)
        if b is None:
            return _forall_coords(e, inst, env)
        k, lo, hi, inclusive, body = b
        lo_v, hi_v = _const_int(lo, env), _const_int(hi, env)
        if lo_v is None or hi_v is None:
            raise FormulaError("a 'for all' with symbolic bounds has no concrete instance")
        top = hi_v if inclusive else hi_v - 1
        return And(*[_scalar(body, inst, {**env, k.name: t}) for t in index_range(k, lo_v, top)])

    def _equation(self, e, inst, env, coords):
        if coords or e.args[0].sort != VEC:
            return self._rebuild(e, inst, env, coords)
        xs, ys = _vec_two(e.args[0], e.args[1], inst, env)
        eqs = [Eq(p, q) for p, q in zip(xs, ys)]
        return And(*eqs) if e.op == "eq" else Not(And(*eqs))

    op_eq = op_ne = _equation

    # ------------------------------------------------------------------ vectors
    def op_vzero(self, e, inst, env, coords):
        if not coords:
            return self._rebuild(e, inst, env, coords)
        return [num(0) for _ in range(inst.dim)]

    def _vector_sum(self, e, inst, env, coords):
        if not coords:
            return self._rebuild(e, inst, env, coords)
        xs, ys = _vec_two(e.args[0], e.args[1], inst, env)
        return [to_real(p) + q for p, q in zip(xs, ys)] if e.op == "vadd" else \
            [to_real(p) - q for p, q in zip(xs, ys)]

    op_vadd = op_vsub = _vector_sum

    def op_smul(self, e, inst, env, coords):
        if not coords:
            return self._rebuild(e, inst, env, coords)
        c = _scalar(e.args[0], inst, env)
        return [c * q for q in _vec(e.args[1], inst, env)]

    def op_ite(self, e, inst, env, coords):
        if not coords:
            return self._rebuild(e, inst, env, coords)
        a = e.args
        c = _scalar(a[0], inst, env)
        return [Ite(c, p, q) for p, q in zip(*_vec_two(a[1], a[2], inst, env))]

    # the feature-space constructions; a tensor power with an exponent that is not a number is a
    # vector of ``inst.dim`` fresh coordinates (equal exponents and equal bases give equal coordinates)
    def op_vec1(self, e, inst, env, coords):
        if not coords:
            return self._rebuild(e, inst, env, coords)
        return [to_real(_scalar(e.args[0], inst, env))]

    def op_vcat(self, e, inst, env, coords):
        if not coords:
            return self._rebuild(e, inst, env, coords)
        return _vec(e.args[0], inst, env) + _vec(e.args[1], inst, env)

    def op_tensor(self, e, inst, env, coords):
        if not coords:
            return self._rebuild(e, inst, env, coords)
        return [to_real(p) * q for p in _vec(e.args[0], inst, env) for q in _vec(e.args[1], inst, env)]

    def op_tpow(self, e, inst, env, coords):
        if not coords:
            return self._rebuild(e, inst, env, coords)
        a = e.args
        k = _const_int(a[1], env)
        if k is not None and k >= 0:
            out = [to_real(num(1))]
            base = _vec(a[0], inst, env)
            for _ in range(k):
                out = [to_real(p) * q for p in out for q in base]
            return out
        args = _arg_coords(a, inst, env)
        return [Expr("call", args, f"mb_tpow_{j}", REAL) for j in range(inst.dim)]

    def op_vsum(self, e, inst, env, coords):
        if not coords:
            return self._rebuild(e, inst, env, coords)
        i, lo, hi, body = e.args
        lo_v, hi_v = _const_int(lo, env), _const_int(hi, env)
        if lo_v is None or hi_v is None:
            raise FormulaError("a sum of vectors with symbolic bounds has no concrete instance")
        terms = [_vec(body, inst, {**env, i.name: t}) for t in index_range(i, lo_v, hi_v)]
        if not terms:
            raise FormulaError("an empty sum of vectors has no dimension by itself")
        out = []
        for cs in zip(*terms):
            acc = to_real(cs[0])
            for c in cs[1:]:
                acc = acc + c
            out.append(acc)
        return out


def _total(terms):
    out = terms[0]
    for t in terms[1:]:
        out = out + t
    return out


_UNROLL = _Unroll()


def _scalar(e: Expr, inst: Instance, env) -> Expr:
    """A number or a formula in plain real arithmetic."""
    return _UNROLL.node(e, inst, env, False)


def _vec(e: Expr, inst: Instance, env) -> list[Expr]:
    """A vector term as its list of coordinate terms."""
    return _UNROLL.node(e, inst, env, True)
