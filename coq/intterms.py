"""Integer-valued terms in canonical linear form: ``k - 1 + 1`` and ``(k + 1) - 1`` are both ``k``.

Printing the canonical form changes no value; it makes arithmetically equal indices and bounds
print alike (as the solvers, which do integer arithmetic on them, see them alike), and tells
whether a term is a natural number (printed as ``nat``) or needs ``Z``."""
from __future__ import annotations

from fractions import Fraction

from proofs.language.formula import INT, NAT, Expr

__all__ = ["ExportError", "coq_ident", "linear", "nat_safe", "is_nat_form", "print_nat_form", "print_z_form", "is_int"]


def is_int(sort: str) -> bool:
    return sort in (INT, NAT)


# names a variable may not take in Coq (keywords, the Prelude's vocabulary, the standard library's)
_RESERVED = {
    "as", "at", "cofix", "else", "end", "exists", "exists2", "fix", "for", "forall", "fun", "if", "IF", "in",
    "let", "match", "mod", "Prop", "return", "Set", "then", "Type", "using", "where", "with", "is",
    "R", "Z", "Q", "nat", "bool", "true", "false", "True", "False", "S", "O", "Vec", "dot", "vzero", "vadd",
    "vsub", "smul", "sum_lt", "sum_incl", "sum_inclZ", "zsum_lt", "zsum_incl", "veq", "vsum_incl", "vsum_lt",
    "concat", "tensor", "tpow", "vec1", "trunc", "lg", "pow2", "pow2Z", "exp", "sqrt", "ln", "ite",
    "Rle_b", "Rlt_b", "Req_b", "INR", "IZR", "Rabs", "Rmax", "Rmin", "fact", "pow", "C", "sum", "list",
    "map", "seq", "length", "In", "not", "and", "or", "iff", "eq", "le", "lt", "ge", "gt", "dim", "pi", "PI",
    "sin", "cos", "tan", "Rsqr", "sqr", "max", "min", "abs", "id", "fst", "snd", "pred", "plus", "mult", "minus",
}


class ExportError(ValueError):
    """A formula the Coq printer cannot translate faithfully."""


def coq_ident(name: str) -> str:
    """The Coq name of a formula variable: the same name unless it clashes (then a trailing _)."""
    if not name.isidentifier() or not name.isascii():
        raise ExportError(f"variable name {name!r} is not a Coq identifier")
    return name + "_" if name in _RESERVED or name.endswith("_") else name


def linear(e: Expr):
    """An integer-valued term as (coefficients by variable, constant), or None when it is not a
    linear combination of integer variables.  Printing the canonical form (``k - 1 + 1`` is ``k``)
    changes no value: it makes arithmetically equal indices and bounds print alike, as the
    solvers, which do integer arithmetic on them, see them."""
    if e.op == "num":
        return {}, e.value
    if e.op == "var" and is_int(e.sort):
        return {e: Fraction(1)}, Fraction(0)
    if e.op in ("add", "sub", "neg", "mul"):
        parts = [linear(c) for c in e.args]
        if any(p is None for p in parts):
            return None
        if e.op == "neg":
            (t, c), = parts
            return {v: -k for v, k in t.items()}, -c
        if e.op == "mul":
            if sum(1 for t, _ in parts if t) > 1:
                return None
            coef, out = Fraction(1), {}
            for t, c in parts:
                if t:
                    out = t
                    base = c
                else:
                    coef *= c
            if not out:
                return {}, coef
            return {v: k * coef for v, k in out.items()}, base * coef
        sign = [1] + ([-1] if e.op == "sub" else [1]) * (len(parts) - 1)
        out, const = {}, Fraction(0)
        for sg, (t, c) in zip(sign, parts):
            const += sg * c
            for v, k in t.items():
                out[v] = out.get(v, Fraction(0)) + sg * k
        return {v: k for v, k in out.items() if k != 0}, const
    return None


def nat_safe(e: Expr) -> bool:
    """Can the integer-valued term be printed as a nat?  (After a substitution a node's recorded sort
    can be stale: ``k + 1`` with an integer term put for k; the whole tree decides.)"""
    lin = linear(e)
    if lin is not None:
        return is_nat_form(lin)
    if e.sort != NAT or e.op in ("sub", "neg"):
        return False
    return all(nat_safe(c) for c in e.args if is_int(c.sort)) and all(
        c.sort in (NAT, INT) or e.op in ("call", "ite") for c in e.args)


def is_nat_form(lin) -> bool:
    t, c = lin
    return c >= 0 and c.denominator == 1 and all(k > 0 and k.denominator == 1 and v.sort == NAT for v, k in t.items())


def print_nat_form(lin) -> str:
    t, c = lin
    parts = [coq_ident(v.name) if k == 1 else f"{k.numerator} * {coq_ident(v.name)}"
             for v, k in sorted(t.items(), key=lambda vk: vk[0].name)]
    if c or not parts:
        parts.append(str(c.numerator))
    return parts[0] if len(parts) == 1 else "(" + " + ".join(parts) + ")"


def print_z_form(lin) -> str:
    t, c = lin
    if c.denominator != 1 or any(k.denominator != 1 for k in t.values()):
        raise ExportError("a non-integer coefficient in an integer term")
    out = ""
    for v, k in sorted(t.items(), key=lambda vk: vk[0].name):
        atom = f"(Z.of_nat {coq_ident(v.name)})" if v.sort == NAT else coq_ident(v.name)
        term = atom if abs(k) == 1 else f"{abs(k.numerator)} * {atom}"
        out = (("- " if k < 0 else "") + term) if not out else out + (" - " if k < 0 else " + ") + term
    if c or not out:
        cs = str(abs(c.numerator))
        out = (str(c.numerator) if c >= 0 else f"- {cs}") if not out else out + (" - " if c < 0 else " + ") + cs
    return f"({out})"
