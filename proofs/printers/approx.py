"""60-digit values of formula objects (mpmath), for the transcendental parts the exact evaluator
(``proofs.printers.exact.evaluate``) cannot give as rationals: exp, sqrt, lg.  Relations compare with a
tolerance of 1e-40 (relative); a sum or a bounded "for all" runs over the same index range as the
exact evaluator (``proofs.printers.exact.index_range``)."""
from __future__ import annotations

from fractions import Fraction

from proofs.printers.exact import _bounded, index_range
from proofs.printers.printer import Printer

__all__ = ["approx", "close", "mpf", "TOL", "DIGITS", "Approx"]

DIGITS = 60


class _Mpmath:
    """mpmath, imported at its first use (a run that evaluates nothing here -- a warm ``verify``,
    which only fingerprints this module -- does not load it); then the module itself."""

    def __getattr__(self, name):
        global mp
        import mpmath
        mp = mpmath
        return getattr(mpmath, name)


mp = _Mpmath()
_TOL: list = []


def _tol():
    if not _TOL:
        _TOL.append(mp.mpf(10) ** -40)
    return _TOL[0]


def __getattr__(name):          # TOL, made with mpmath when first asked for
    if name == "TOL":
        return _tol()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def mpf(v):
    v = Fraction(v)
    return mp.mpf(v.numerator) / v.denominator


def _value(v, sort):
    return tuple(mpf(c) for c in v) if sort == "Vec" else mpf(v)


def approx(e, env, strict: bool = False):
    """The value of ``e`` at ``env`` in 60-digit arithmetic.  ``strict`` False: a strict relation
    within the tolerance counts as true (a rule is not refuted by rounding); True: as false (an
    edit that makes a rule strict is refuted where both sides are equal)."""
    with mp.workdps(DIGITS):
        return _APPROX.node(e, env, strict)


class Approx(Printer):
    """60-digit values, one method per operation: each takes the node, the environment and
    ``strict``.  The operations left out are those the trusted rules checked this way never use."""
    name = "60-digit evaluator"
    error = ValueError

    def op_num(self, e, env, strict):
        return mpf(e.value)

    def op_var(self, e, env, strict):
        return _value(env[e.name], e.sort)

    def op_call(self, e, env, strict):
        args = [self.node(x, env, strict) for x in e.args]
        f = env[e.name]
        v = f(*args) if callable(f) else f[int(args[0])] if len(args) == 1 else f[tuple(int(t) for t in args)]
        return _value(v, e.sort)

    def op_to_real(self, e, env, strict):
        return self.node(e.args[0], env, strict)

    def op_add(self, e, env, strict):
        return mp.fsum(self.node(x, env, strict) for x in e.args)

    def op_mul(self, e, env, strict):
        out = mp.mpf(1)
        for x in e.args:
            out *= self.node(x, env, strict)
        return out

    def op_sub(self, e, env, strict):
        return self.node(e.args[0], env, strict) - self.node(e.args[1], env, strict)

    def op_neg(self, e, env, strict):
        return -self.node(e.args[0], env, strict)

    def op_div(self, e, env, strict):
        return self.node(e.args[0], env, strict) / self.node(e.args[1], env, strict)

    def op_pow(self, e, env, strict):
        return self.node(e.args[0], env, strict) ** int(e.args[1].value)

    def op_exp(self, e, env, strict):
        return mp.exp(self.node(e.args[0], env, strict))

    def op_sqrt(self, e, env, strict):
        return mp.sqrt(self.node(e.args[0], env, strict))

    def op_lg(self, e, env, strict):
        return mp.log(self.node(e.args[0], env, strict), 2)

    def op_pow2(self, e, env, strict):
        return mp.mpf(2) ** self.node(e.args[0], env, strict)

    def op_max(self, e, env, strict):
        return max(self.node(e.args[0], env, strict), self.node(e.args[1], env, strict))

    def op_min(self, e, env, strict):
        return min(self.node(e.args[0], env, strict), self.node(e.args[1], env, strict))

    def op_abs(self, e, env, strict):
        return abs(self.node(e.args[0], env, strict))

    def op_dot(self, e, env, strict):
        return mp.fsum(p * q for p, q in zip(self.node(e.args[0], env, strict), self.node(e.args[1], env, strict)))

    def op_sum(self, e, env, strict):
        i, lo, hi, body = e.args
        rng = index_range(i, int(self.node(lo, env, strict)), int(self.node(hi, env, strict)))
        return mp.fsum(self.node(body, {**env, i.name: t}, strict) for t in rng)

    def _relation(self, e, env, strict):
        x, y = self.node(e.args[0], env, strict), self.node(e.args[1], env, strict)
        tol = _tol() * (1 + abs(x) + abs(y))
        st = -tol if strict else tol
        return {"le": x <= y + tol, "lt": x < y + st, "ge": x + tol >= y, "gt": x + st > y,
                "eq": abs(x - y) <= tol, "ne": abs(x - y) > tol}[e.op]

    op_le = op_lt = op_ge = op_gt = op_eq = op_ne = _relation

    def op_and(self, e, env, strict):
        return all(self.node(x, env, strict) for x in e.args)

    def op_or(self, e, env, strict):
        return any(self.node(x, env, strict) for x in e.args)

    def op_not(self, e, env, strict):
        return not self.node(e.args[0], env, strict)

    def op_implies(self, e, env, strict):
        return (not self.node(e.args[0], env, strict)) or self.node(e.args[1], env, strict)

    def op_forall(self, e, env, strict):
        b = _bounded(e)
        if b is None:
            raise ValueError("an unbounded 'for all'")
        k, lo, hi, inclusive, body = b
        top = int(self.node(hi, env, strict)) - (0 if inclusive else 1)
        return all(self.node(body, {**env, k.name: t}, strict)
                   for t in index_range(k, int(self.node(lo, env, strict)), top))


_APPROX = Approx()


def close(x, y) -> bool:
    with mp.workdps(DIGITS):
        return abs(x - y) <= _tol() * (1 + abs(x) + abs(y))
