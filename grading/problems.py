"""What each assignment computes: the reference answer (from ``learners``), the request sent to
the sandbox, the comparison, the data generators and the buggy variants used to *name* a
student's mistake.

Test data are dyadic rationals (multiples of 1/4, small): every float operation a student's code
can do on them is exact, so the order of a sum cannot turn a tie into a non-tie and a float
answer can be compared with the exact (``Fraction``) reference without guessing a tolerance.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

from learners import run_kernel_perceptron, run_perceptron, run_winnow
from learners.kernels import parse_kernel

__all__ = ["Answer", "Problem", "make_problem"]

TOL = 1e-9


@dataclass
class Answer:
    w: list                     # weights (perceptron, Winnow) or dual alpha (kernel perceptron)
    b: object = None            # bias (perceptron with bias), else None
    mistakes: int | None = None
    trace: object = None


def _close(a, b, tol=TOL) -> bool:
    try:
        a = float(a)
    except (TypeError, ValueError):
        return False
    if not math.isfinite(a):
        return False
    return abs(a - float(b)) <= tol * max(1.0, abs(float(b)))


def fmt_num(v) -> str:
    if isinstance(v, Fraction):
        if v.denominator == 1:
            return str(v.numerator)
        f = float(v)
        return f"{f:g}" if Fraction(f) == v else f"{v.numerator}/{v.denominator}"
    if isinstance(v, float):
        return f"{v:g}" if v == v else "nan"
    return str(v)


def fmt_vec(w) -> str:
    if w is None:
        return "None"
    return "[" + ", ".join(fmt_num(v) for v in w) + "]"


class Problem:
    """Base: the perceptron family shares most of this."""
    algorithm = "perceptron"
    returns = "w_b"
    wname = "w"          # what the answer vector is called in feedback

    def __init__(self, spec):
        self.spec = spec

    # --- wire ---------------------------------------------------------------------------
    def student_labels(self, y):
        if self.spec.labels == "01" and self.algorithm != "winnow":
            return [1 if v == 1 else 0 for v in y]
        return list(y)

    def request(self, X, y, epochs) -> dict:
        return {"op": "call", "name": self.spec.entry, "args": [[list(map(float, r)) for r in X],
                self.student_labels(y)], "kwargs": {"epochs": int(epochs)}, "returns": self.returns}

    def got(self, ok: dict) -> Answer:
        return Answer(w=ok.get("w"), b=ok.get("b"))

    # --- reference ----------------------------------------------------------------------
    def expected(self, X, y, epochs) -> Answer:
        raise NotImplementedError

    def compare(self, exp: Answer, got: Answer) -> tuple[bool, str]:
        w = got.w
        if w is None or len(w) != len(exp.w):
            n = "nothing" if w is None else f"{len(w)} numbers"
            return False, f"expected {len(exp.w)} numbers in {self.wname}, got {n}"
        bad = [j for j, (a, b) in enumerate(zip(w, exp.w)) if not _close(a, b)]
        if bad:
            return False, f"{self.wname}[{bad[0]}] is {fmt_num(w[bad[0]])}, expected {fmt_num(exp.w[bad[0]])}"
        if exp.b is not None:
            if got.b is None:
                return False, "expected (w, b); got only w"
            if not _close(got.b, exp.b):
                return False, f"bias is {fmt_num(got.b)}, expected {fmt_num(exp.b)}"
        elif got.b is not None and not _close(got.b, 0):
            return False, f"this assignment has no bias, but b = {fmt_num(got.b)}"
        return True, ""

    def show(self, a: Answer) -> str:
        s = f"{self.wname} = {fmt_vec(a.w)}"
        if a.b is not None:
            s += f", b = {fmt_num(a.b)}"
        return s

    # --- data ---------------------------------------------------------------------------
    def edge_cases(self) -> dict:
        raise NotImplementedError

    def strategy(self, scale: int = 1):
        raise NotImplementedError

    def worst_cases(self) -> list:
        raise NotImplementedError

    def mutants(self) -> list:
        """(name, message, fn(X, y, epochs) -> Answer) for the common mistakes."""
        return []

    def probes(self) -> list:
        """Visible inputs on which the common mistakes give different answers."""
        return []


def _dyadic(k) -> float:
    return k / 4


def _pm1_data(spec, vals, max_d, scale):
    """(X, y, epochs) with entries drawn from ``vals`` and labels +1/-1.  The (row, label) pairs
    are one list, so the shrinker can delete examples one by one."""
    from hypothesis import strategies as st

    @st.composite
    def data(draw):
        d = draw(st.integers(1, max_d))
        pairs = draw(st.lists(st.tuples(st.lists(vals, min_size=d, max_size=d), st.sampled_from([1, -1])),
                              min_size=1, max_size=spec.max_n * scale))
        e = draw(st.integers(1, spec.max_epochs))
        return [p[0] for p in pairs], [p[1] for p in pairs], e
    return data()


# ----------------------------------------------------------------------------------------
class PerceptronProblem(Problem):
    algorithm = "perceptron"

    def _ref(self, X, y, epochs, **kw):
        s = self.spec
        exact = not s.normalize
        t = run_perceptron(X, y, epochs=epochs, bias=s.bias, normalize=s.normalize, exact=exact, record="all", **kw)
        return t

    def expected(self, X, y, epochs) -> Answer:
        t = self._ref(X, y, epochs)
        return Answer(w=list(t.weights), b=t.bias if self.spec.bias else None, mistakes=t.mistakes, trace=t)

    def _variant(self, X, y, epochs, *, strict=False, ignore_label=False, no_bias=False, lr=1):
        """A buggy perceptron, only to recognise a student's mistake (never a reference)."""
        s = self.spec
        rows = [[Fraction(v) for v in r] for r in X]
        if s.normalize:
            rows = [[Fraction(v / math.sqrt(sum(float(u) ** 2 for u in r))) for v in r]
                    if any(r) else r for r in rows]
        d = len(rows[0])
        w = [Fraction(0)] * d
        b = Fraction(0)
        for _ in range(epochs):
            for x, t in zip(rows, y):
                a = sum(wi * xi for wi, xi in zip(w, x)) + (b if s.bias else 0)
                m = t * a < 0 if strict else t * a <= 0
                if m:
                    sgn = 1 if ignore_label else t
                    w = [wi + lr * sgn * xi for wi, xi in zip(w, x)]
                    if s.bias and not no_bias:
                        b += lr * sgn
        return Answer(w=w, b=b if s.bias else None)

    def mutants(self):
        s = self.spec
        out = [
            ("ties not counted as mistakes",
             "your code does not update when y(w.x + b) = 0; a tie is a mistake (test y(w.x + b) <= 0, not < 0)",
             lambda X, y, e: self._variant(X, y, e, strict=True)),
            ("label ignored",
             "your update does not use the label: it must be w += y x (and b += y), not w += x",
             lambda X, y, e: self._variant(X, y, e, ignore_label=True)),
        ]
        if s.bias:
            out.append(("bias never updated",
                        "your bias stays at its start value: on a mistake update b += y as well as w += y x",
                        lambda X, y, e: self._variant(X, y, e, no_bias=True)))
        return out

    def edge_cases(self):
        q = _dyadic
        return {
            "one_example": ("one example", [[1.0, 2.0]], [1], 1),
            "one_feature": ("d = 1 (one feature)", [[1.0], [-2.0], [0.5], [3.0], [-1.0]], [1, -1, 1, -1, 1], 1),
            "ties": ("ties: w.x + b = 0 must count as a mistake",
                     [[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [0.0, 0.0]], [1, 1, -1, -1], 1),
            "zero_vector": ("zero vectors", [[0.0, 0.0, 0.0], [1.0, 0.0, 2.0], [0.0, 0.0, 0.0]], [-1, 1, 1], 2),
            "repeated_examples": ("repeated examples",
                                  [[1.0, -1.0], [1.0, -1.0], [1.0, -1.0], [-2.0, 1.0], [-2.0, 1.0]],
                                  [-1, -1, 1, 1, 1], 1),
            "several_epochs": ("several epochs (epochs = 3)",
                               [[1.0, 1.0], [-1.0, 0.5], [0.5, -1.0], [-0.5, -0.5], [1.0, -0.25]],
                               [1, -1, -1, 1, 1], 3),
            "negative_fractional": ("negative and non-integer values",
                                    [[q(-3), q(5)], [q(7), q(-2)], [q(-1), q(-9)], [q(2), q(1)], [q(-6), q(3)]],
                                    [1, -1, -1, 1, 1], 2),
        }

    def probes(self):
        return [([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0], [1.0, 1.0], [0.5, -2.0], [2.0, 0.25]],
                 [1, -1, 1, -1, 1, -1], 1),
                ([[1.0, 2.0], [-1.0, 0.5], [0.0, -1.0], [1.5, -0.5]], [1, -1, 1, -1], 2)]

    def strategy(self, scale: int = 1):
        from hypothesis import strategies as st
        return _pm1_data(self.spec, st.integers(-8, 8).map(_dyadic), self.spec.max_d, scale)

    def worst_cases(self):
        """Orthonormal examples (Block-Novikoff is tight: d unit examples, margin 1/sqrt(d), d
        mistakes) and the same with alternating labels; plus the adversary's sequence files."""
        out = []
        for d in (3, 6):
            E = [[1.0 if i == j else 0.0 for j in range(d)] for i in range(d)]
            out.append((f"orthonormal e_1..e_{d}, all positive", E, [1] * d, 1))
            out.append((f"orthonormal e_1..e_{d}, alternating labels", E, [(-1) ** i for i in range(d)], 2))
        out.extend(_adversary_sequences("perceptron", self.spec))
        return out

    def invariant_data(self):
        """A separable set with a known target (w*, b*), dyadic, for the Claims 1 and 2 checks
        (unit-length examples when the spec normalizes, so normalizing changes nothing)."""
        if self.spec.normalize:
            X = [[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0], [0.0, 1.0], [-1.0, 0.0]]
            wstar = [Fraction(1), Fraction(1)]
            return X, [1, 1, -1, -1, 1, -1], wstar, Fraction(0)
        X = [[1.0, 0.5], [-1.0, 0.25], [0.5, 1.0], [-0.5, -1.0], [0.75, -0.25], [-0.25, 0.75], [1.0, 1.0],
             [-1.0, -0.5]]
        wstar = [Fraction(1), Fraction(1, 2)]
        y = [1 if float(wstar[0]) * r[0] + float(wstar[1]) * r[1] > 0 else -1 for r in X]
        return X, y, wstar, Fraction(0)


def _adversary_sequences(algorithm, spec):
    """Worst-case sequence files shipped by adversary/ (if any), for this algorithm."""
    out = []
    try:
        import glob
        import os
        from adversary.sequence import Sequence
        base = os.path.join(os.path.dirname(os.path.abspath(__import__("adversary").__file__)), "sequences")
        for path in sorted(glob.glob(os.path.join(base, "*.json")))[:4]:
            try:
                seq = Sequence.load(path)
            except Exception:
                continue
            if seq.algorithm != algorithm or len(seq.examples) > 64:
                continue
            if algorithm == "perceptron" and bool(getattr(seq, "bias", False)) != spec.bias:
                continue
            X = [[float(v) for v in r] for r in seq.examples]
            if any(Fraction(v) != u for r, ru in zip(X, seq.examples) for v, u in zip(r, ru)):
                continue  # not exactly representable in floats
            out.append((f"adversary sequence {os.path.basename(path)}", X, list(seq.labels), 1))
    except Exception:
        pass
    return out


# ----------------------------------------------------------------------------------------
class WinnowProblem(Problem):
    algorithm = "winnow"
    returns = "vector"

    def expected(self, X, y, epochs) -> Answer:
        t = run_winnow(X, y, epochs=epochs, variant="halve", exact=True, record="all")
        return Answer(w=list(t.weights), mistakes=t.mistakes, trace=t)

    def got(self, ok):
        return Answer(w=ok.get("w"))

    def request(self, X, y, epochs):
        return {"op": "call", "name": self.spec.entry, "args": [[[int(v) for v in r] for r in X], list(y)],
                "kwargs": {"epochs": int(epochs)}, "returns": "vector"}

    def _variant(self, X, y, epochs, *, strict=False, ignore_label=False, factor=2):
        m = len(X[0])
        w = [Fraction(1)] * m
        for _ in range(epochs):
            for x, t in zip(X, y):
                s = sum(wi for wi, xi in zip(w, x) if xi)
                pred = 1 if (s > m if strict else s >= m) else 0
                if pred != t:
                    up = True if ignore_label else t == 1
                    w = [(wi * factor if up else wi / factor) if xi else wi for wi, xi in zip(w, x)]
        return Answer(w=w)

    def mutants(self):
        return [
            ("ties not counted as mistakes",
             "you predict 1 only when w.x > m; the rule is w.x >= m (a tie predicts 1)",
             lambda X, y, e: self._variant(X, y, e, strict=True)),
            ("label ignored", "your update does not depend on the label: double on a missed 1, halve on a false 1",
             lambda X, y, e: self._variant(X, y, e, ignore_label=True)),
            ("elimination instead of halving", "on a false positive you set the weights to 0; this assignment halves them",
             lambda X, y, e: Answer(w=list(run_winnow(X, y, epochs=e, variant="eliminate").weights))),
        ]

    def edge_cases(self):
        return {
            "one_example": ("one example", [[1, 0, 1]], [0], 1),
            "one_feature": ("one feature (m = 1)", [[1], [0], [1], [1]], [0, 1, 1, 0], 1),
            "ties": ("ties: w.x = m predicts 1", [[1, 1, 0, 0], [1, 1, 1, 1], [0, 0, 1, 1]], [0, 0, 1], 1),
            "zero_vector": ("all-zero examples", [[0, 0, 0], [1, 0, 0], [0, 0, 0]], [1, 1, 0], 2),
            "repeated_examples": ("repeated examples", [[1, 0, 0, 0]] * 4 + [[0, 1, 1, 1]] * 2, [1] * 4 + [0] * 2, 1),
            "several_epochs": ("several epochs (epochs = 3)",
                               [[1, 0, 1, 0], [0, 1, 0, 0], [1, 1, 1, 1], [0, 0, 0, 1]], [1, 1, 0, 0], 3),
        }

    def probes(self):
        return [([[1, 0, 0, 0], [1, 1, 1, 1], [0, 1, 0, 0], [1, 1, 0, 0], [0, 0, 1, 1]], [1, 0, 1, 0, 1], 1),
                ([[1, 1, 0], [0, 1, 1], [1, 0, 0]], [0, 1, 1], 2)]

    def strategy(self, scale: int = 1):
        from hypothesis import strategies as st
        s = self.spec

        @st.composite
        def data(draw):
            m = draw(st.integers(1, max(2, s.max_d + 2)))
            rel = draw(st.lists(st.integers(0, m - 1), min_size=1, max_size=min(2, m), unique=True))
            noisy = draw(st.booleans())
            pairs = draw(st.lists(st.tuples(st.lists(st.integers(0, 1), min_size=m, max_size=m),
                                            st.integers(0, 1)), min_size=1, max_size=s.max_n * scale))
            X = [p[0] for p in pairs]
            if noisy:
                y = [p[1] for p in pairs]
            else:
                y = [1 if any(r[j] for j in rel) else 0 for r in X]
            e = draw(st.integers(1, s.max_epochs))
            return X, y, e
        return data()

    def worst_cases(self):
        out = []
        for m in (4, 8):
            X = [[1 if j == i else 0 for j in range(m)] for i in range(m)]
            X.append([1] * m)
            out.append((f"single variables then all ones (m = {m}), target x_1", X,
                        [1] + [0] * (m - 1) + [1], 2))
        out.extend(_adversary_sequences("winnow", self.spec))
        return out

    def invariant_data(self):
        m = 8
        X = [[(i >> j) & 1 for j in range(m)] for i in (0b10000000, 0b01100000, 0b00011100, 0b00000011,
                                                        0b10101010, 0b01010101, 0b00000001, 0b11111111,
                                                        0b00001000, 0b00100000)]
        rel = [0, 5]
        y = [1 if any(r[j] for j in rel) else 0 for r in X]
        return X, y, rel, None


# ----------------------------------------------------------------------------------------
class KernelProblem(Problem):
    algorithm = "kernel_perceptron"
    returns = "vector"
    wname = "alpha"

    def __init__(self, spec):
        super().__init__(spec)
        self.kernel = parse_kernel(spec.kernel)
        self.exact = self.kernel.exact_capable

    def request(self, X, y, epochs):
        return {"op": "call", "name": self.spec.entry, "args": [[list(map(float, r)) for r in X],
                self.student_labels(y)], "kwargs": {"epochs": int(epochs)}, "returns": "vector",
                "kernel": self.kernel.spec(), "kernel_pos": 2}

    def got(self, ok):
        return Answer(w=ok.get("w"))

    def expected(self, X, y, epochs):
        t = run_kernel_perceptron(X, y, self.spec.kernel, epochs=epochs, exact=self.exact, record="all")
        return Answer(w=list(t.weights), mistakes=t.mistakes, trace=t)

    def _variant(self, X, y, epochs, *, strict=False, ignore_label=False):
        K = self.kernel
        rows = [[Fraction(v) for v in r] if self.exact else [float(v) for v in r] for r in X]
        n = len(rows)
        G = [[K(rows[j], rows[i]) for i in range(n)] for j in range(n)]
        a = [0] * n
        for _ in range(epochs):
            for i in range(n):
                f = sum(a[j] * G[j][i] for j in range(n))
                if (y[i] * f < 0) if strict else (y[i] * f <= 0):
                    a[i] += 1 if ignore_label else y[i]
        return Answer(w=a)

    def mutants(self):
        return [("ties not counted as mistakes", "a tie y f(x) = 0 is a mistake: test y f(x) <= 0, not < 0",
                 lambda X, y, e: self._variant(X, y, e, strict=True)),
                ("label ignored", "on a mistake alpha_i += y_i, not += 1",
                 lambda X, y, e: self._variant(X, y, e, ignore_label=True))]

    def edge_cases(self):
        q = _dyadic
        return {
            "one_example": ("one example", [[1.0, 2.0]], [1], 1),
            "one_feature": ("d = 1", [[1.0], [-1.0], [0.5], [2.0]], [1, -1, -1, 1], 1),
            "ties": ("ties: y f(x) = 0 is a mistake", [[1.0, 0.0], [0.0, 1.0], [0.0, -1.0]], [1, 1, -1], 1),
            "zero_vector": ("zero vectors", [[0.0, 0.0], [1.0, 1.0], [0.0, 0.0]], [1, -1, -1], 2),
            "repeated_examples": ("repeated examples", [[1.0, -1.0]] * 3 + [[-1.0, 2.0]] * 2, [1, 1, -1, -1, 1], 1),
            "several_epochs": ("several epochs (epochs = 3)", [[1.0, 1.0], [-1.0, 1.0], [1.0, -1.0], [-1.0, -1.0]],
                               [1, -1, -1, 1], 3),
            "negative_fractional": ("negative and non-integer values",
                                    [[q(-3), q(5)], [q(7), q(-2)], [q(-1), q(-9)], [q(2), q(1)]], [1, -1, -1, 1], 2),
        }

    def probes(self):
        return [([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0], [1.0, 1.0], [0.5, -2.0]], [1, -1, 1, -1, 1], 2)]

    def strategy(self, scale: int = 1):
        from hypothesis import strategies as st
        return _pm1_data(self.spec, st.integers(-4, 4).map(lambda k: k / 2), min(3, self.spec.max_d), scale)

    def worst_cases(self):
        X = [[1.0, 1.0], [-1.0, 1.0], [1.0, -1.0], [-1.0, -1.0]]
        out = [("XOR (separable only in feature space)", X, [1, -1, -1, 1], 3)]
        E = [[1.0 if i == j else 0.0 for j in range(4)] for i in range(4)]
        out.append(("orthonormal e_1..e_4", E, [1, -1, 1, -1], 2))
        out.extend(_adversary_sequences("kernel_perceptron", self.spec))
        return out

    def invariant_data(self):
        X = [[1.0, 1.0], [-1.0, 1.0], [1.0, -1.0], [-1.0, -1.0], [0.5, 1.0], [1.0, 0.5], [-0.5, -1.0]]
        y = [1, -1, -1, 1, 1, 1, 1]
        return X, y, None, None


def make_problem(spec) -> Problem:
    return {"perceptron": PerceptronProblem, "winnow": WinnowProblem,
            "kernel_perceptron": KernelProblem}[spec.algorithm](spec)


def permutations_small(n, limit=120):
    return list(itertools.islice(itertools.permutations(range(n)), limit))
