"""LaTeX for obligations: z3 formulas and sympy expressions printed as the steps they are.

Variable names follow one convention across the catalogue (Gram / inner-product encoding):
``ww`` = |w|^2, ``wu`` = w.w*, ``wx`` = w.x, ``xx`` = |x|^2, ``xu`` = x.w*, ``uu`` = |w*|^2, and a
trailing ``1`` marks the value after the update (``ww1`` = |w'|^2).
"""
from __future__ import annotations

NAMES = {
    "ww": r"\|w\|^2", "wu": r"w\cdot w^*", "wx": r"w\cdot x", "xx": r"\|x\|^2", "xu": r"x\cdot w^*",
    "uu": r"\|w^*\|^2", "ww1": r"\|w'\|^2", "wu1": r"w'\cdot w^*", "g": r"\gamma", "R2": "R^2",
    "R": "R", "U": r"\|w^*\|", "M": "M", "L": "L", "TD": r"\mathrm{TD}_\gamma", "y": "y", "k": "k",
    "c": "c", "s": r"\sqrt{M}", "q": r"\sqrt{c^2/4+L}", "ell": r"\ell", "lgn": r"\lg n", "n": "n",
    "r": "r", "P": "P", "D": "D", "W": "W", "W1": "W'", "S": "S", "A": "A", "B": "B", "C": "C",
    "b": "b", "bu": "b^*", "bb": "b", "b1": "b'", "h": r"\ell_t", "Lk": "L_k", "Lk1": "L_{k+1}",
    "TDk": r"\mathrm{TD}_k", "TDk1": r"\mathrm{TD}_{k+1}",
}

_OPS = {"<=": r"\le", ">=": r"\ge", "<": "<", ">": ">", "==": "="}


def name_latex(n: str, extra: dict | None = None) -> str:
    if extra and n in extra:
        return extra[n]
    if n in NAMES:
        return NAMES[n]
    if "_" in n:
        a, b = n.split("_", 1)
        return f"{a}_{{{b}}}"
    return n


def z3_latex(e, extra: dict | None = None, prec: int = 0) -> str:
    import z3
    if z3.is_rational_value(e):
        f = e.as_fraction()
        return str(f.numerator) if f.denominator == 1 else (
            rf"\frac{{{f.numerator}}}{{{f.denominator}}}" if f.numerator >= 0 else rf"-\frac{{{-f.numerator}}}{{{f.denominator}}}")
    if z3.is_int_value(e):
        return str(e.as_long())
    if z3.is_true(e):
        return r"\top"
    if z3.is_false(e):
        return r"\bot"
    if z3.is_const(e):
        return name_latex(e.decl().name(), extra)
    k = e.decl().kind()
    ch = e.children()
    L = lambda x, p=0: z3_latex(x, extra, p)  # noqa: E731
    if k == z3.Z3_OP_TO_REAL:
        return L(ch[0], prec)
    if k == z3.Z3_OP_ADD:
        s = L(ch[0], 1)
        for c in ch[1:]:
            t = L(c, 1)
            s += (" " + t) if t.startswith("-") else (" + " + t)
        return f"({s})" if prec > 1 else s
    if k == z3.Z3_OP_SUB:
        s = " - ".join(L(c, 2) for c in ch)
        return f"({s})" if prec > 1 else s
    if k == z3.Z3_OP_UMINUS:
        return "-" + L(ch[0], 3)
    if k == z3.Z3_OP_MUL:
        # equal consecutive factors become a power; inner products get parentheses in products
        grouped = []
        for c in ch:
            if grouped and grouped[-1][0].eq(c):
                grouped[-1][1] += 1
            else:
                grouped.append([c, 1])
        if any(m > 1 for _, m in grouped) or len(grouped) > 1:
            parts = []
            for c, m in grouped:
                if z3.is_rational_value(c) and c.as_fraction() == -1 and m == 1:
                    parts.append("-")
                    continue
                t = L(c, 2)
                if (r"\cdot" in t and not t.startswith("(")) and (m > 1 or len(grouped) > 1):
                    t = f"({t})"
                if m > 1 and (r"\sqrt" in t or " " in t) and not t.startswith("("):
                    t = f"({t})"
                parts.append(f"{t}^{{{m}}}" if m > 1 else t)
            return _join_factors(parts, prec)
        parts = []
        for c in ch:
            if z3.is_rational_value(c) and c.as_fraction() == -1:
                parts.append("-")
                continue
            parts.append(L(c, 2))
        return _join_factors(parts, prec)
    if k == z3.Z3_OP_DIV:
        return rf"\frac{{{L(ch[0])}}}{{{L(ch[1])}}}"
    if k == z3.Z3_OP_POWER:
        return f"{L(ch[0], 3)}^{{{L(ch[1])}}}"
    if k in (z3.Z3_OP_LE, z3.Z3_OP_GE, z3.Z3_OP_LT, z3.Z3_OP_GT, z3.Z3_OP_EQ):
        op = {z3.Z3_OP_LE: r"\le", z3.Z3_OP_GE: r"\ge", z3.Z3_OP_LT: "<", z3.Z3_OP_GT: ">", z3.Z3_OP_EQ: "="}[k]
        return f"{L(ch[0])} {op} {L(ch[1])}"
    if k == z3.Z3_OP_NOT:
        return rf"\neg({L(ch[0])})"
    if k == z3.Z3_OP_AND:
        return r" \wedge ".join(L(c, 4) for c in ch)
    if k == z3.Z3_OP_OR:
        s = r" \vee ".join(L(c, 4) for c in ch)
        return f"({s})" if prec else s
    if k == z3.Z3_OP_IMPLIES:
        return f"({L(ch[0], 4)} \\Rightarrow {L(ch[1], 4)})"
    if k == z3.Z3_OP_ITE:
        c, t, e = ch
        if (z3.is_app(c) and c.decl().kind() == z3.Z3_OP_GE and c.children()[0].eq(t)
                and z3.is_rational_value(c.children()[1]) and c.children()[1].as_fraction() == 0
                and z3.is_app(e) and e.decl().kind() == z3.Z3_OP_UMINUS and e.children()[0].eq(t)):
            return rf"\left|{L(t)}\right|"
        return rf"\mathrm{{ite}}({L(ch[0])}, {L(ch[1])}, {L(ch[2])})"
    return str(e)


def obligation_latex(spec: dict, engine: str) -> tuple[list[str], str]:
    """(hypotheses, goal) as LaTeX strings for a built obligation spec."""
    if engine == "sympy":
        import sympy as sp
        return [], f"{sp.latex(spec['lhs'])} = {sp.latex(spec['rhs'])}"
    extra = spec.get("latex")
    return ([f"{z3_latex(h, extra)}" for _, h in spec["hyps"]], z3_latex(spec["goal"], extra))


def _join_factors(parts, prec):
    """Factors side by side; a cdot before a number or a fraction; a lone "-" sticks to the next."""
    s = ""
    for p in parts:
        if s and s != "-":
            s += r" \cdot " if (p[:1].isdigit() or p.startswith(r"\frac")) else " "
        s += p
    return f"({s})" if prec > 2 else s
