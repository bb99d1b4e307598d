"""The Coq learners against the suite's exact Python learners, on generated sequences.

Every case is a data set, a learner, its options and the Python path: the exact learners
(``learners.run_perceptron(..., exact=True)``, ``averaged_weights``, ``voted_weights``,
``run_kernel_perceptron(..., exact=True)``, ``run_winnow``, ``run_passive_aggressive`` -- PA, PA-I, PA-II, exact
only: their step l / |x|^2 is not dyadic), or the float paths a user runs by default
(the compiled float64 loops, ``exact=False``; and ``fast=True``, the dot products summed in any
order); Weighted Majority (``run_weighted_majority``, Halving at beta = 0) against
``LearnersExperts.v``; Hedge (``run_hedge(exact=True)``, losses k/m and beta = b^m, so that every
beta^loss = b^k is rational) against ``LearnersHedgeQ.v``, whose rational run is the real learner of
``LearnersHedge.v`` read through Q2R (``hq_loss_R``).  A float case uses dyadic inputs (k/2^j, small), on which float64 arithmetic is exact in
any order, so its trace, read back as rationals, must equal Coq's exactly.  Coq runs the same visited sequence
through the learners of ``Learners.v`` over the rationals (``vm_compute``), and the two traces --
every step's activation, prediction / mistake and state after the step -- must be identical.
"""
from __future__ import annotations

import random
import re
import subprocess
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

__all__ = ["Case", "generate", "coq_file", "python_trace", "run_coq", "compare", "KINDS"]

KINDS = ("perceptron", "averaged", "voted", "kernel", "winnow", "weighted_majority", "passive_aggressive", "halving",
         "hedge")
PATHS = ("exact", "float", "fast", "rounding")   # the Python path a case runs (fast: the perceptron only)
# "rounding": the float64 path on inputs that round (1/3, 1/10, ...), against the Coq learner run in
# binary64 (LearnersFloat.v); the perceptron and the voted perceptron (the others: the float path on
# dyadic inputs -- their float64 loops divide where the Coq learners multiply by an inverse, or sum a
# Gram matrix in another order, so a rounded run is not bitwise the Coq one)
ROUNDING = ("perceptron", "voted")


@dataclass
class Case:
    kind: str
    X: list
    y: list
    opts: dict = field(default_factory=dict)

    def describe(self) -> str:
        return f"{self.kind} {self.opts} X={[[str(v) for v in r] for r in self.X]} y={self.y}"


def _frac(rng, dyadic=False) -> Fraction:
    return Fraction(rng.randint(-4, 4), rng.choice((1, 1, 2, 4) if dyadic else (1, 1, 2, 3)))


def generate(n_cases: int, seed: int = 0) -> list[Case]:
    """``n_cases`` cases, spread over the learners (perceptron with and without bias, averaged,
    voted, kernel perceptron with the linear and polynomial kernels, Winnow's three variants)."""
    rng = random.Random(seed)
    out = []
    for i in range(n_cases):
        kind = KINDS[i % len(KINDS)]
        path = PATHS[(i // len(KINDS)) % len(PATHS)]
        if path == "fast" and kind not in ("perceptron", "averaged", "voted"):
            path = "float"
        if path == "rounding" and kind not in ROUNDING:
            path = "float"
        dy = path != "exact"
        epochs = rng.choice((1, 1, 2, 3))
        shuffle = rng.random() < 0.3
        base = {"epochs": epochs, "shuffle": shuffle, "seed": rng.randrange(1000) if shuffle else None, "path": path}
        if kind == "weighted_majority":
            # beta = 0 is Halving; a dyadic beta keeps the float path exact
            n = rng.randint(1, 5)
            T = rng.randint(1, 7)
            A = [[rng.choice((-1, 1)) for _ in range(n)] for _ in range(T)]
            y = [rng.choice((-1, 1)) for _ in range(T)]
            betas = (0, Fraction(1, 2), Fraction(1, 4)) if dy else (0, Fraction(1, 2), Fraction(1, 3), Fraction(2, 3))
            out.append(Case(kind, A, y, {"beta": rng.choice(betas), "path": path}))
            continue
        if kind == "halving":
            # learners.run_halving: the class as label lists, or as functions of the examples X
            n, T = rng.randint(1, 5), rng.randint(1, 7)
            A = [[rng.choice((-1, 1)) for _ in range(n)] for _ in range(T)]
            j = rng.randrange(n)
            y = [A[t][j] if rng.random() < 0.7 else rng.choice((-1, 1)) for t in range(T)]
            out.append(Case(kind, A, y, {"functions": rng.random() < 0.4, "path": path}))
            continue
        if kind == "hedge":
            # the exact path only (the step's loss divides by the total weight: not dyadic); losses
            # k/m, beta = b^m
            n, T, m = rng.randint(1, 4), rng.randint(1, 6), rng.choice((1, 1, 2, 3))
            b = rng.choice((Fraction(1, 2), Fraction(2, 3), Fraction(3, 4), Fraction(1, 3)))
            K = [[rng.randint(0, m) for _ in range(n)] for _ in range(T)]
            out.append(Case(kind, K, [0] * T, {"m": m, "b": b, "path": "exact"}))
            continue
        if kind == "passive_aggressive" and dy:
            # the float path on inputs where every step is dyadic: rows of +-1 entries (one or two of
            # them, |x|^2 = s for every row) and a dyadic C with s + 1/(2C) a power of two, so l / |x|^2,
            # min(C, l / |x|^2) and l / (|x|^2 + 1/(2C)) are exact in float64
            variant = rng.choice(("pa", "pa1", "pa2"))
            d, m, s_ = rng.randint(2, 3), rng.randint(1, 6), rng.choice((1, 2))
            X = []
            for _ in range(m):
                r = [Fraction(0)] * d
                for i in rng.sample(range(d), s_):
                    r[i] = Fraction(rng.choice((-1, 1)))
                X.append(r)
            y = [rng.choice((-1, 1)) for _ in range(m)]
            C = Fraction(1, 2 * s_) if variant == "pa2" else Fraction(rng.randint(1, 4), rng.choice((1, 2, 4)))
            out.append(Case(kind, X, y, {"variant": variant, "C": C, "epochs": epochs, "shuffle": False, "seed": None,
                                         "path": "float"}))
            continue
        if kind == "passive_aggressive":
            # the exact path: any rationals, the step l / |x|^2 computed exactly
            variant = rng.choice(("pa", "pa1", "pa2"))
            d, m = rng.randint(1, 3), rng.randint(1, 6)
            X = [[_frac(rng) for _ in range(d)] for _ in range(m)]
            if variant == "pa":            # PA's step is undefined at x = 0
                X = [r if any(r) else [Fraction(1)] + r[1:] for r in X]
            y = [rng.choice((-1, 1)) for _ in range(m)]
            C = Fraction(rng.randint(1, 6), rng.choice((1, 2, 3)))
            out.append(Case(kind, X, y, {"variant": variant, "C": C, "epochs": epochs, "shuffle": False, "seed": None,
                                         "path": "exact"}))
            continue
        if kind == "winnow":
            n = rng.randint(1, 6)
            m = rng.randint(1, 7)
            X = [[rng.randint(0, 1) for _ in range(n)] for _ in range(m)]
            target = [j for j in range(n) if rng.random() < 0.4]
            y = [int(any(r[j] for j in target)) if rng.random() < 0.9 else rng.randint(0, 1) for r in X]
            variant = rng.choice(("halve", "eliminate", "winnow2"))
            alphas = (2, 4) if dy else (2, 3, Fraction(3, 2))
            opts = dict(base, variant=variant, alpha=rng.choice(alphas) if variant == "winnow2" else 2)
            if rng.random() < 0.2:
                opts["theta"] = Fraction(rng.randint(1, 2 * n), rng.choice((1, 2)))
            out.append(Case(kind, X, y, opts))
            continue
        d = rng.randint(1, 3)
        m = rng.randint(1, 6)
        if path == "rounding":          # float64 values of non-dyadic rationals: every sum rounds
            X = [[Fraction(float(Fraction(rng.randint(-9, 9), rng.choice((3, 5, 7, 10, 1)))))
                  for _ in range(d)] for _ in range(m)]
        else:
            X = [[_frac(rng, dy) for _ in range(d)] for _ in range(m)]
        y = [rng.choice((-1, 1)) for _ in range(m)]
        if kind == "kernel":
            kern = rng.choice(("linear", "poly"))
            opts = dict(base, bias=rng.random() < 0.4, kernel=kern, blum_start=(rng.random() < 0.2 and 1 in y))
            if kern == "poly":
                opts["c"] = Fraction(rng.randint(0, 3), rng.choice((1, 2)))   # dyadic either way
                opts["k"] = rng.randint(1, 3)
            out.append(Case(kind, X, y, opts))
            continue
        opts = dict(base, bias=rng.random() < 0.5)
        if kind == "averaged":
            opts["include_initial"] = rng.random() < 0.5
        out.append(Case(kind, X, y, opts))
    for c in out:                   # the estimators' fit (learners.estimators): their kept state after fit
        both = len(set(c.y)) == 2
        if c.kind in ESTIMATED and c.opts["path"] in ("exact", "float", "fast") and both and rng.random() < 0.25:
            c.opts["estimator"] = True
            if c.kind == "winnow":          # learners.Winnow visits the examples in order
                c.opts.update(shuffle=False, seed=None)
    return out


ESTIMATED = ("perceptron", "kernel", "winnow", "passive_aggressive")


def _estimator_state(c: Case, X, exact: bool) -> list[int]:
    """coef_ (dual_coef_ for the kernel perceptron), intercept_ and mistakes_ after ``fit``."""
    from learners import KernelPerceptron, PassiveAggressive, Perceptron, Winnow
    o = c.opts
    if c.kind == "perceptron":
        est = Perceptron(epochs=o["epochs"], bias=o["bias"], exact=exact, shuffle=o["shuffle"], seed=o["seed"],
                         fast=o.get("path") == "fast").fit(X, c.y)
        vals, b = list(est.coef_[0]), [est.intercept_[0]]
    elif c.kind == "kernel":
        spec = "linear" if o["kernel"] == "linear" else f"poly:c={o['c'] if exact else float(o['c'])},k={o['k']}"
        est = KernelPerceptron(spec, epochs=o["epochs"], bias=o["bias"], exact=exact, blum_start=o["blum_start"],
                               shuffle=o["shuffle"], seed=o["seed"]).fit(X, c.y)
        vals, b = list(est.dual_coef_), [est.intercept_[0]]
    elif c.kind == "winnow":
        kw = {"theta": o["theta"] if exact else float(o["theta"])} if "theta" in o else {}
        est = Winnow(epochs=o["epochs"], variant=o["variant"], alpha=o["alpha"] if exact else float(o["alpha"]),
                     exact=exact, **kw).fit(X, c.y)
        vals, b = list(est.coef_[0]), []
    else:
        est = PassiveAggressive(variant=o["variant"], C=o["C"] if exact else float(o["C"]), epochs=o["epochs"],
                  exact=exact).fit(X, c.y)
        vals, b = list(est.coef_[0]), []
    out: list[int] = []
    for v in vals + b:
        out += _q(v)
    return out + [int(est.mistakes_)]


# --------------------------------------------------------------------------- Python side
def _q(v) -> tuple[int, int]:
    f = Fraction(v)
    return f.numerator, f.denominator


def _perceptron_steps(tr) -> list[int]:
    """A perceptron-style run (plain or kernel) step by step: activation, mistake, weights, bias."""
    out: list[int] = []
    for s in tr.steps:
        out += [*_q(s.activation), int(s.mistake)]
        for v in s.weights:
            out += _q(v)
        out += _q(s.bias if s.bias is not None else 0)
    return out


def python_trace(c: Case) -> list[int]:
    """The Python learners' trace, flattened the way LearnersTrace.v flattens Coq's."""
    from learners import run_kernel_perceptron, run_perceptron, run_winnow
    from learners.perceptron import averaged_weights, voted_weights
    o = c.opts
    exact = o.get("path", "exact") == "exact"
    fl = {} if exact else {"X": [[float(v) for v in r] for r in c.X]}
    X = fl.get("X", c.X)
    out: list[int] = []
    if o.get("estimator"):
        return _estimator_state(c, X, exact)
    if c.kind == "weighted_majority":
        from learners import run_weighted_majority
        tr = run_weighted_majority(c.X, c.y, beta=o["beta"] if exact else float(o["beta"]), exact=exact)
        for s in tr.steps:
            out += [*_q(s.activation), int(s.prediction), int(s.mistake)]
            for v in s.weights:
                out += _q(v)
        if o["beta"]:          # the randomized form's expected mistakes, exact (its weights are WM's)
            from learners import run_randomized_weighted_majority
            out += _q(run_randomized_weighted_majority(c.X, c.y, beta=Fraction(o["beta"])).extras["expected_mistakes"])
        return out
    if c.kind == "halving":
        from learners import run_halving
        n = len(c.X[0])
        if o["functions"]:
            H = [(lambda t, i=i: c.X[t][i]) for i in range(n)]
            tr = run_halving(H, c.y, list(range(len(c.X))), exact=exact)
        else:
            tr = run_halving([[r[i] for r in c.X] for i in range(n)], c.y, exact=exact)
        for s in tr.steps:
            out += [*_q(s.activation), int(s.prediction), int(s.mistake)]
            for v in s.weights:
                out += _q(v)
        return out
    if c.kind == "hedge":
        from learners import run_hedge
        m = o["m"]
        tr = run_hedge([[Fraction(k, m) for k in r] for r in c.X], beta=o["b"] ** m, exact=True)
        for s in tr.steps:
            out += [*_q(s.activation), int(s.prediction), int(s.mistake)]
            for v in s.weights:
                out += _q(v)
        return out
    if c.kind == "passive_aggressive":
        from learners import run_passive_aggressive
        tr = run_passive_aggressive(X, c.y, variant=o["variant"], C=o["C"] if exact else float(o["C"]),
                                    epochs=o["epochs"], exact=exact)
        for s, loss, tau in zip(tr.steps, tr.extras["losses"], tr.extras["steps"]):
            out += [*_q(s.activation), int(s.mistake), *_q(loss), *_q(tau)]
            for v in s.weights:
                out += _q(v)
        return out
    if c.kind == "winnow":
        kw = {"theta": o["theta"] if exact else float(o["theta"])} if "theta" in o else {}
        tr = run_winnow(X, c.y, variant=o["variant"], alpha=o["alpha"] if exact else float(o["alpha"]),
                        epochs=o["epochs"], shuffle=o["shuffle"], seed=o["seed"], exact=exact, **kw)
        for s in tr.steps:
            out += [*_q(s.activation), int(s.prediction), int(s.mistake)]
            for v in s.weights:
                out += _q(v)
        return out
    if c.kind == "kernel":
        spec = "linear" if o["kernel"] == "linear" else f"poly:c={o['c'] if exact else float(o['c'])},k={o['k']}"
        tr = run_kernel_perceptron(X, c.y, spec, epochs=o["epochs"], bias=o["bias"], exact=exact,
                                   blum_start=o["blum_start"], shuffle=o["shuffle"], seed=o["seed"])
        return _perceptron_steps(tr)
    tr = run_perceptron(X, c.y, epochs=o["epochs"], bias=o["bias"], exact=exact, shuffle=o["shuffle"], seed=o["seed"],
                        fast=o.get("path") == "fast")
    if c.kind == "perceptron":
        return _perceptron_steps(tr)
    if c.kind == "averaged":
        w, b = averaged_weights(tr, include_initial=o["include_initial"])
        if not exact:
            # the average divides an exact (dyadic) sum by the number of steps: the float path must
            # give the exact average rounded to float64, and the exact average is Coq's
            we, be = averaged_weights(run_perceptron(c.X, c.y, epochs=o["epochs"], bias=o["bias"], exact=True,
                                                     shuffle=o["shuffle"], seed=o["seed"]),
                                      include_initial=o["include_initial"])
            if [float(v) for v in we] != [float(v) for v in w] or float(be or 0) != float(b or 0):
                return [-1]                     # no Coq trace is [-1]: the case is reported
            w, b = we, be
        for v in w:
            out += _q(v)
        return out + list(_q(b if b is not None else 0))
    for w, b, cnt in voted_weights(tr):
        for v in w:
            out += _q(v)
        out += [*_q(b if b is not None else 0), int(cnt)]
    return out


def _visited(c: Case) -> list[int]:
    from learners.core import visiting_order
    o = c.opts
    if c.kind in ("weighted_majority", "halving", "hedge"):
        return list(range(len(c.X)))            # one pass over the advice (loss) table, in order
    return [int(i) for i in visiting_order(len(c.X), o["epochs"], o["shuffle"], o["seed"]).tolist()]


# --------------------------------------------------------------------------- Coq side
def _cq(v) -> str:
    f = Fraction(v)
    return f"({f.numerator} # {f.denominator})"


def _vec(row) -> str:
    return "(vecQ (" + " :: ".join(_cq(v) for v in row) + " :: nil))"


def _fl(v) -> str:
    """The binary64 value v (a Fraction equal to a float) as LearnersFloat.fl num k = num / 2^k."""
    f = Fraction(v)
    k = f.denominator.bit_length() - 1
    assert f.denominator == 1 << k and abs(f.numerator) < 1 << 53, v
    return f"(fl ({f.numerator}) {k})"


def _vecf(row) -> str:
    return "(vecF (" + " :: ".join(_fl(v) for v in row) + " :: nil))"


def _bvec(row) -> str:
    return "(vecB (" + " :: ".join("true" if v else "false" for v in row) + " :: nil))"


def _nat_list(xs) -> str:
    return "(" + " :: ".join(f"{i}%nat" for i in xs) + " :: nil)" if xs else "nil"


def coq_term(c: Case) -> str:
    o = c.opts
    if c.kind == "weighted_majority":
        ex = " :: ".join(f"({_zlist(c.X[t])}, {_zlit(c.y[t])})" for t in range(len(c.X))) + " :: nil"
        run = f"wm_trace {_cq(o['beta'])} (wm_start {len(c.X[0])}) ({ex})"
        if o["beta"]:
            return f"app ({run}) (qenc (rwm_expected {_cq(o['beta'])} (wm_start {len(c.X[0])}) ({ex})))"
        return run
    if c.kind == "halving":                     # Halving is Weighted Majority with the penalty 0
        ex = " :: ".join(f"({_zlist(c.X[t])}, {_zlit(c.y[t])})" for t in range(len(c.X))) + " :: nil"
        return f"wm_trace 0 (wm_start {len(c.X[0])}) ({ex})"
    if c.kind == "hedge":                       # losses k/m as the naturals k
        rows = " :: ".join(_nat_list(r) for r in c.X) + " :: nil"
        return f"hq_trace {_cq(o['b'])} {len(c.X[0])} {o['m']} (fun _ => 1%Q) ({rows})"
    order = _visited(c)
    if c.kind == "passive_aggressive":
        d = len(c.X[0])
        ex = " :: ".join(f"({_vec(c.X[i])}, {_cq(c.y[i])})" for i in order) + " :: nil"
        v = {"pa": "PA", "pa1": "PA1", "pa2": "PA2"}[o["variant"]]
        enc = "enc_final_pa" if o.get("estimator") else "enc_pa"
        return f"{enc} {d} (pa_run QRN {v} {_cq(o['C'])} {d} (fun _ => 0%Q) ({ex}))"
    if c.kind == "winnow":
        n = len(c.X[0])
        alpha = Fraction(o["alpha"])
        up, down = {"halve": (2, Fraction(1, 2)), "eliminate": (2, 0), "winnow2": (alpha, 1 / alpha)}[o["variant"]]
        theta = o.get("theta", n)
        ex = " :: ".join(f"({_bvec(c.X[i])}, {'true' if c.y[i] else 'false'})" for i in order) + " :: nil"
        enc = "enc_final_winnow" if o.get("estimator") else "enc_winnow"
        return f"{enc} {n} (winnow_run QN {n} {_cq(up)} {_cq(down)} {_cq(theta)} (fun _ => 1%Q) ({ex}))"
    d = len(c.X[0])
    bias = "true" if o["bias"] else "false"
    if c.kind == "kernel":
        n = len(c.X)
        xs = "(fun j => nth j (" + " :: ".join(_vec(r) for r in c.X) + " :: nil) (fun _ => 0%Q))"
        ys = "(fun j => nth j (" + " :: ".join(_cq(v) for v in c.y) + " :: nil) 0%Q)"
        K = f"(linear_kernel QN {d})" if o["kernel"] == "linear" else f"(poly_kernel QN {d} {_cq(o['c'])} {o['k']})"
        alpha0 = "(fun _ => 0%Q)"
        strict = "false"
        if o["blum_start"]:
            p = c.y.index(1)
            alpha0 = f"(fun j => if Nat.eqb j {p} then 1%Q else 0%Q)"
            strict = "true"
        enc = f"enc_final_kperceptron {n} {alpha0}" if o.get("estimator") else f"enc_kperceptron {n}"
        return (f"{enc} (kperceptron_run QN {n} {K} {xs} {ys} {bias} {strict} {alpha0} 0%Q "
                f"{_nat_list(order)})")
    if o.get("path") == "rounding":
        exf = " :: ".join(f"({_vecf(c.X[i])}, {_fl(c.y[i])})" for i in order) + " :: nil"
        run = f"(perceptron_run FN {d} {bias} (fun _ => {_fl(0)}) {_fl(0)} ({exf}))"
        if c.kind == "perceptron":
            return f"enc_perceptron_F {d} {run}"
        return f"enc_voted_F {d} (voted FN {d} {bias} (fun _ => {_fl(0)}) {_fl(0)} ({exf}))"
    ex = " :: ".join(f"({_vec(c.X[i])}, {_cq(c.y[i])})" for i in order) + " :: nil"
    if c.kind == "perceptron":
        enc = "enc_final_perceptron" if o.get("estimator") else "enc_perceptron"
        return f"{enc} {d} (perceptron_run QN {d} {bias} (fun _ => 0%Q) 0%Q ({ex}))"
    if c.kind == "averaged":
        inc = "true" if o["include_initial"] else "false"
        return f"enc_averaged {d} (averaged QN {d} {bias} {inc} (fun _ => 0%Q) 0%Q ({ex}))"
    return f"enc_voted {d} (voted QN {d} {bias} (fun _ => 0%Q) 0%Q ({ex}))"


_HEAD = ("Require Import Mistakebound.Axioms Mistakebound.Num Mistakebound.Learners Mistakebound.LearnersTrace.\n"
         "Require Import Mistakebound.LearnersPA Mistakebound.LearnersFloat.\n"
         "Require Mistakebound.LearnersExperts.\nImport Mistakebound.LearnersExperts.\n"
         "Require Mistakebound.LearnersHedgeQ.\nImport Mistakebound.LearnersHedgeQ.\n"
         "Open Scope Z_scope.\nSet Printing Depth 100000.\n")


def _zlit(v) -> str:
    return f"({v})" if v < 0 else str(v)


def _zlist(xs) -> str:
    return "(" + " :: ".join(_zlit(v) for v in xs) + " :: nil)" if xs else "nil"


def coq_file(cases, expected=None) -> str:
    """With ``expected`` (the Python traces): one Boolean per case, Coq's trace = Python's.
    Without: Coq prints every trace."""
    if expected is None:
        return _HEAD + "".join(f"Eval vm_compute in ({coq_term(c)}).\n" for c in cases)
    return _HEAD + "".join(f"Eval vm_compute in (list_Z_eqb ({coq_term(c)}) {_zlist(e)}).\n"
                           for c, e in zip(cases, expected))


def _coqc(text: str, build_dir: Path, coqc: str) -> str:
    name = "DifferentialRun.v"
    (Path(build_dir) / name).write_text(text)
    r = subprocess.run([coqc, "-q", "-R", ".", "Mistakebound", name], cwd=build_dir, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"coqc failed on the differential file: {r.stdout[-500:]} {r.stderr[-500:]}")
    return r.stdout


def run_coq(cases, build_dir: Path, coqc: str = "coqc") -> list[list[int]]:
    """Every case's Coq trace (the development must be built in ``build_dir``)."""
    out = _coqc(coq_file(cases), build_dir, coqc)
    blocks = out.split(": list Z")[:-1]
    if len(blocks) != len(cases):
        raise RuntimeError(f"expected {len(cases)} traces from Coq, got {len(blocks)}")
    return [[int(v) for v in re.findall(r"-?\d+", b.split("=", 1)[1])] for b in blocks]


def differential(cases, build_dir: Path, coqc: str = "coqc") -> list[str]:
    """Run every case in Python and in Coq; one line per case whose traces differ (empty: all
    identical).  Coq compares each trace with Python's itself; only differing cases are printed."""
    expected = [python_trace(c) for c in cases]
    out = _coqc(coq_file(cases, expected), build_dir, coqc)
    verdicts = re.findall(r"=\s*(true|false)\s*:\s*bool", out)
    if len(verdicts) != len(cases):
        raise RuntimeError(f"expected {len(cases)} verdicts from Coq, got {len(verdicts)}")
    bad_cases = [c for c, v in zip(cases, verdicts) if v != "true"]
    if not bad_cases:
        return []
    return compare(bad_cases, run_coq(bad_cases, build_dir, coqc))


def compare(cases, coq_traces) -> list[str]:
    """One line per case whose traces differ (empty: identical)."""
    bad = []
    for c, t in zip(cases, coq_traces):
        p = python_trace(c)
        if p != t:
            k = next((i for i, (a, b) in enumerate(zip(p, t)) if a != b), min(len(p), len(t)))
            bad.append(f"{c.describe()}: first difference at position {k} (python {p[k:k + 4]}, coq {t[k:k + 4]})")
    return bad


@dataclass
class Verdict:
    """The comparison's verdict, as ``verify --coq`` reports it."""
    cases: int
    differing: list
    seconds: float
    kinds: dict                         # kind -> number of cases
    paths: dict                         # Python path -> number of cases
    steps: int
    error: str = ""                     # the comparison could not run (Coq failed on its file)

    @property
    def ok(self) -> bool:
        return not self.error and not self.differing

    def line(self) -> str:
        kinds = ", ".join(f"{k} {v}" for k, v in self.kinds.items())
        paths = ", ".join(f"{k} {v}" for k, v in self.paths.items())
        if self.error:
            return f"differential FAILED: {self.error}"
        return (f"{self.cases - len(self.differing)}/{self.cases} sequences with identical traces ({kinds}; "
                f"Python paths: {paths}; {self.steps} steps); {self.seconds:.1f} s")

    def to_json(self) -> dict:
        return {"ok": self.ok, "cases": self.cases, "identical": self.cases - len(self.differing),
                "differing": self.differing, "seconds": round(self.seconds, 2), "kinds": self.kinds,
                "paths": self.paths, "steps": self.steps, "error": self.error}


def verdict(n: int, build_dir: Path, seed: int = 2026, coqc: str = "coqc") -> Verdict:
    """Run ``n`` generated cases (every learner, option and Python path) through Python and Coq."""
    import time
    t = time.monotonic()
    cases = generate(n, seed=seed)
    kinds = {k: sum(c.kind == k for c in cases) for k in KINDS}
    paths = {p: sum(c.opts.get("path") == p for c in cases) for p in PATHS}
    steps = sum(len(_visited(c)) for c in cases)
    try:
        bad = differential(cases, build_dir, coqc)
        err = ""
    except RuntimeError as e:
        bad, err = [], str(e)[:300]
    return Verdict(len(cases), bad, time.monotonic() - t, kinds, paths, steps, err)
