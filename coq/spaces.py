"""The space every vector of a statement lives in, and its dimension as a Coq term.

A formula's vectors need not all live in one R^d: a feature map phi sends x in R^d to phi(x) in
a space of phi's own dimension, (u, v) lives in the sum of the two spaces, u (x) v in their
product, v^{(x)k} in a power.  The printer infers the spaces by unification: every vector
variable and every vector-valued symbol has an unknown space, an argument of a function symbol
lives in that symbol's argument space, and an inner product, a sum or an equation joins the
spaces of its two sides.  Every space left unknown becomes a dimension variable of the statement
(``dim`` for the first, ``dim_<symbol>`` for the others), so an inner product is ``dot D a b``
with the right D, and a vector equation ``veq D a b`` means equality in R^D, as in the formula.
"""
from __future__ import annotations

from proofs.language.formula import VEC, Expr
from coq.intterms import ExportError, coq_ident

__all__ = ["Spaces"]


class Spaces:
    def __init__(self, formulas, nat_printer):
        self._parent: dict = {}
        self._struct: dict = {}          # root -> ("cat", a, b) | ("ten", a, b) | ("pow", a, k) | ("one",)
        self._node: dict = {}            # id(node) -> space key, for the nodes the printer asks about
        self._nat = nat_printer
        self._fresh = 0
        self._keep = []                  # the nodes whose ids are keys of _node stay alive
        for f in formulas:
            self._walk(f)
        self._names = self._name_classes()

    # ------------------------------------------------------------------ union-find
    def _find(self, k):
        self._parent.setdefault(k, k)
        while self._parent[k] != k:
            self._parent[k] = self._parent[self._parent[k]]
            k = self._parent[k]
        return k

    def _new(self, tag):
        self._fresh += 1
        return ("tmp", tag, self._fresh)

    def _structure(self, shape) -> tuple:
        k = self._new(shape[0])
        self._struct[self._find(k)] = shape
        return k

    def _unify(self, a, b):
        ra, rb = self._find(a), self._find(b)
        if ra == rb:
            return
        sa, sb = self._struct.get(ra), self._struct.get(rb)
        if sa is not None and sb is not None:
            if sa[0] != sb[0] or (sa[0] == "pow" and sa[2] != sb[2]):
                # two constructions of one space, e.g. v^{(x)0} = (1) or v^{(x)m+1} = v^{(x)m} (x) v:
                # joined when their dimensions are equal for every dimension (checked symbolically);
                # the class is then printed with the first one's dimension term
                if not self._same_dimension(ra, rb):
                    raise ExportError("an inner product, sum or equation joins vectors of two different spaces")
                self._parent[rb] = ra
                return
            for x, y in zip(sa[1:], sb[1:]):
                if sa[0] == "pow" and x is sa[2]:
                    continue
                if isinstance(x, tuple) and isinstance(y, tuple):
                    self._unify(x, y)
        self._parent[rb] = ra
        if sa is None and sb is not None:
            self._struct[ra] = sb

    def _dimension_expr(self, k):
        """The dimension of a space as a sympy expression over one symbol per unknown space."""
        import sympy
        from proofs.printers.symbolic import to_sympy
        r = self._find(k)
        st = self._struct.get(r)
        if st is None:
            return sympy.Symbol(f"D_{abs(hash(r))}", positive=True, integer=True)
        if st[0] == "one":
            return sympy.Integer(1)
        if st[0] == "cat":
            return self._dimension_expr(st[1]) + self._dimension_expr(st[2])
        if st[0] == "ten":
            return self._dimension_expr(st[1]) * self._dimension_expr(st[2])
        return self._dimension_expr(st[1]) ** to_sympy(st[2])

    def _same_dimension(self, a, b) -> bool:
        import sympy
        try:
            diff = sympy.powsimp(sympy.expand(self._dimension_expr(a) - self._dimension_expr(b)), force=True)
            return sympy.simplify(diff) == 0
        except Exception:                      # a term sympy cannot read: not joined
            return False

    # ------------------------------------------------------------------ inference
    def _walk(self, e: Expr):
        op = e.op
        if e.sort == VEC:
            return self._space(e)
        if op == "call":
            for i, a in enumerate(e.args):
                if a.sort == VEC:
                    self._unify(self._space(a), ("arg", e.name, i))
                else:
                    self._walk(a)
            return None
        if op == "dot" or (op in ("eq", "ne") and e.args and e.args[0].sort == VEC):
            sa, sb = self._space(e.args[0]), self._space(e.args[1])
            self._unify(sa, sb)
            self._node[id(e)] = sa
            self._keep.append(e)
            return None
        for a in e.args:
            if isinstance(a, Expr):
                self._walk(a)
        return None

    def _space(self, e: Expr):
        op, a = e.op, e.args
        if op == "var":
            s = ("var", e.name)
        elif op == "call":
            for i, x in enumerate(a):
                if x.sort == VEC:
                    self._unify(self._space(x), ("arg", e.name, i))
                else:
                    self._walk(x)
            s = ("out", e.name)
        elif op == "vzero":
            s = self._new("zero")
        elif op in ("vadd", "vsub"):
            s = self._space(a[0])
            self._unify(s, self._space(a[1]))
        elif op == "smul":
            self._walk(a[0])
            s = self._space(a[1])
        elif op == "ite":
            self._walk(a[0])
            s = self._space(a[1])
            self._unify(s, self._space(a[2]))
        elif op == "vcat":
            s = self._structure(("cat", self._space(a[0]), self._space(a[1])))
        elif op == "tensor":
            s = self._structure(("ten", self._space(a[0]), self._space(a[1])))
        elif op == "tpow":
            s = self._structure(("pow", self._space(a[0]), a[1]))
        elif op == "vec1":
            self._walk(a[0])
            s = self._structure(("one",))
        elif op == "vsum":
            self._walk(a[1])
            self._walk(a[2])
            s = self._space(a[3])
        else:
            raise ExportError(f"no space for the vector operation {op!r}")
        self._node[id(e)] = s
        self._keep.append(e)
        return s

    # ------------------------------------------------------------------ names and dimensions
    def _name_classes(self) -> dict:
        roots = {}
        for k in list(self._parent):
            r = self._find(k)
            if r in self._struct:
                continue
            roots.setdefault(r, []).append(k)
        names = {}
        # a space no symbol determines (only constants such as 0 live there) is the first space:
        # the solvers see one constant 0 and one sort of vectors
        anonymous = [r for r, members in roots.items() if all(k[0] == "tmp" for k in members)]
        roots = {r: m for r, m in roots.items() if r not in anonymous}
        order = sorted(roots.items(), key=lambda kv: (0 if any(k[0] == "var" for k in kv[1]) else 1,
                                                      min(str(k[1]) for k in kv[1])))
        for n, (r, members) in enumerate(order):
            if n == 0:
                names[r] = "dim"
            else:
                syms = sorted(str(k[1]) for k in members if k[0] in ("out", "var", "arg"))
                names[r] = "dim_" + coq_ident(syms[0] if syms else f"s{n}").rstrip("_")
        used = set()
        for r, nm in names.items():
            base, i = nm, 1
            while nm in used:
                i += 1
                nm = f"{base}{i}"
            names[r] = nm
            used.add(nm)
        for r in anonymous:
            names[r] = "dim"
        return names

    def dims(self) -> list[str]:
        """The dimension variables of the statement, ``dim`` first."""
        return sorted(set(self._names.values()), key=lambda n: (n != "dim", n))

    def dim_of_key(self, k) -> str:
        r = self._find(k)
        st = self._struct.get(r)
        if st is None:
            if r not in self._names:
                raise ExportError("a vector whose space is not determined")
            return self._names[r]
        if st[0] == "one":
            return "1"
        if st[0] == "cat":
            return f"({self.dim_of_key(st[1])} + {self.dim_of_key(st[2])})"
        if st[0] == "ten":
            return f"({self.dim_of_key(st[1])} * {self.dim_of_key(st[2])})"
        return f"({self.dim_of_key(st[1])} ^ {self._nat(st[2])})"

    def dim(self, e: Expr) -> str:
        """The dimension (a nat term) of a vector node, or of the two sides of a dot / equation."""
        k = self._node.get(id(e))
        if k is None:
            raise ExportError(f"no space recorded for a {e.op} node")
        d = self.dim_of_key(k)
        return d if d.isidentifier() or d.isdigit() else f"({d})%nat"
