#!/usr/bin/env python
"""Benchmark: one row per learner, ours against a plain numpy implementation of the same
algorithm (and scikit-learn where it has the learner), all in one run (a script, not a test).

Every row times the public API as a user calls it (input checks included), the best of a few
repeats after a warm-up (compilation excluded).  The data are small integers (-3..3), so that
every float operation of the perceptrons is exact and the exact (rational) reference can run on
the same data: the "mistakes" column compares ours, the numpy loop and the exact reference
(for the Gaussian kernel, which has no rational form, every decision is certified instead: its
activation is farther from 0 than a bound on the rounding error).

Rows: Perceptron, AveragedPerceptron, VotedPerceptron (fit and decision_function),
KernelPerceptron (Gaussian: fit with peak memory, decision_function), Winnow (float and exact),
and the perceptron on scipy.sparse CSR data.  numpy's BLAS and ``OPENBLAS_CORETYPE`` are reported
(an old core type makes dgemm several times slower), and so is the load of the machine.

    python bench/bench_fast_learners.py            # the full run (~1-2 minutes)
    python bench/bench_fast_learners.py --quick    # smaller sizes, fewer repeats (~20 s)
"""
from __future__ import annotations

import argparse
import gc
import os
import platform
import sys
import time
import tracemalloc
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy_learners as NL  # noqa: E402  (the plain numpy implementations)
from results import Run  # noqa: E402


def best(fn, repeats):
    t_best, out = float("inf"), None
    for _ in range(repeats):
        gc.collect()
        t0 = time.perf_counter()
        out = fn()
        t_best = min(t_best, time.perf_counter() - t0)
    return t_best, out


def peak_mib(fn):
    gc.collect()
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 2 ** 20
    finally:
        tracemalloc.stop()


def int_data(rng, n, d, noise=0.3):
    X = rng.integers(-3, 4, size=(n, d)).astype(np.float64)
    m = X @ rng.standard_normal(d)
    y = np.where(m + noise * np.std(m) * rng.standard_normal(n) > 0, 1, -1)
    return X, y


_DATA = ("import numpy as np; X = np.random.default_rng(0).integers(-3, 4, size=({n}, {d})).astype(float); "
         "y = np.where(X[:, 0] > 0, 1, -1); ")
_SMALL, _LARGE = _DATA.format(n=200, d=5), _DATA.format(n=5000, d=50)
STARTUP = {
    "ours": "from learners import Perceptron; " + _SMALL + "Perceptron().fit(X, y)",
    "sklearn": "from sklearn.linear_model import Perceptron; " + _SMALL + "Perceptron(max_iter=1, tol=None).fit(X, y)",
    "ours_compiled": "from learners import Perceptron; " + _LARGE + "Perceptron().fit(X, y)",
    "sklearn_large": ("from sklearn.linear_model import Perceptron; " + _LARGE
                      + "Perceptron(max_iter=1, tol=None).fit(X, y)"),
    "kernel": "from learners import KernelPerceptron; " + _SMALL + "KernelPerceptron('gaussian:c=1/2').fit(X, y)",
}


def startup(code, repeats):
    """CPU seconds (user + system) of a fresh ``python -c code``, the best of ``repeats``: its
    imports and first call, not the machine's other jobs."""
    import resource
    import subprocess
    best_t = None
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-c", code], check=True, cwd=os.path.dirname(os.path.dirname(
            os.path.abspath(__file__))))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best_t = t if best_t is None else min(best_t, t)
    return best_t


def fmt_t(t):
    return f"{t * 1e3:8.1f} ms" if t < 10 else f"{t:8.2f} s "


class Table:
    def __init__(self):
        self.rows = []
        head = (f"{'learner, work':<46} | {'ours':>11} | {'numpy':>11} | {'sklearn':>11} | {'vs numpy':>8} | "
                f"{'vs sk':>6} | mistakes: ours / numpy / exact")
        print(head)
        print("-" * len(head))

    def row(self, name, t_ours, t_np=None, t_sk=None, mistakes=""):
        r_np = f"{t_np / t_ours:7.2f}x" if t_np else "      - "
        r_sk = f"{t_sk / t_ours:5.2f}x" if t_sk else "    - "
        print(f"{name:<46} | {fmt_t(t_ours):>11} | {fmt_t(t_np) if t_np else '-':>11} | "
              f"{fmt_t(t_sk) if t_sk else '-':>11} | {r_np:>8} | {r_sk:>6} | {mistakes}", flush=True)
        self.rows.append((name, t_ours, t_np, t_sk, mistakes))
        return (t_np / t_ours if t_np else None), (t_sk / t_ours if t_sk else None)


def same(*counts):
    vals = [c for c in counts if c is not None]
    tag = "same" if len(set(vals)) == 1 else "DIFFERENT"
    return " / ".join("-" if c is None else str(c) for c in counts) + f"  ({tag})"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller sizes, fewer repeats")
    ap.add_argument("--repeats", type=int, default=None)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    q = args.quick
    R = args.repeats or (2 if q else 3)
    rng = np.random.default_rng(args.seed)

    import numba
    import scipy.sparse as sp
    import sklearn
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron as SkPerceptron, SGDClassifier
    warnings.simplefilter("ignore", ConvergenceWarning)

    import learners
    from learners import (AveragedPerceptron, KernelPerceptron, Perceptron, VotedPerceptron, Winnow,
                          run_perceptron)
    from learners._blas import blas_info
    from learners.kernel_fast import default_threads, fit_blocked
    from learners.kernels import parse_kernel

    info = blas_info()
    run = Run("bench_fast_learners.py")
    print(f"mistakebound learners, one row per learner (best of {R}; quick={q})")
    print(f"python {platform.python_version()}, numpy {np.__version__}, scikit-learn {sklearn.__version__}, "
          f"numba {numba.__version__}, {platform.machine()}, {os.cpu_count()} cores")
    print(f"BLAS: {info['library']}; core {info['core']}; threads {info['threads']} (our blocked loops use 1); "
          f"OPENBLAS_CORETYPE={info['OPENBLAS_CORETYPE'] or '(unset)'}")
    print(f"load average at start: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    print()

    # warm-up: compile every loop once (cached on disk afterwards)
    Xw, yw = int_data(rng, 300, 5)
    for est in (Perceptron(), AveragedPerceptron(), VotedPerceptron(), KernelPerceptron("gaussian:c=0.1")):
        est.fit(Xw, yw).decision_function(Xw)
    Perceptron().fit(sp.csr_matrix(Xw), yw)
    Winnow(exact=False).fit((Xw > 0).astype(np.int64), yw)
    Winnow().fit((Xw > 0).astype(np.int64), yw)
    run_perceptron(Xw, yw, exact=True, record="none")

    tab = Table()
    # -- perceptron family -----------------------------------------------------------------------
    n, d = (20_000, 100) if q else (200_000, 100)
    X, y = int_data(rng, n, d)
    t_o, ours = best(lambda: Perceptron(bias=True).fit(X, y), R)
    t_n, (_, _, m_np) = best(lambda: NL.perceptron(X, y), 1)
    sk = lambda: SkPerceptron(eta0=1.0, fit_intercept=True, shuffle=False, penalty=None, max_iter=1, tol=None,
                              early_stopping=False)
    t_s, _ = best(lambda: sk().fit(X, y), R)
    m_ex = run_perceptron(X, y, bias=True, exact=True, record="none").mistakes
    _, r_perc_sk = tab.row(f"Perceptron fit, {n:,} x {d}", t_o, t_n, t_s, same(ours.mistakes_, m_np, m_ex))

    t_o, ours = best(lambda: AveragedPerceptron(bias=True).fit(X, y), R)
    t_n, (w_np, _, m_np) = best(lambda: NL.averaged_perceptron(X, y), 1)
    sgd = lambda: SGDClassifier(loss="perceptron", eta0=1.0, learning_rate="constant", penalty=None, average=True,
                                shuffle=False, max_iter=1, tol=None, fit_intercept=True)
    t_s, _ = best(lambda: sgd().fit(X, y), R)
    assert np.allclose(ours.coef_[0], w_np, rtol=1e-9, atol=1e-9), "averaged weights differ from the numpy loop"
    tab.row(f"AveragedPerceptron fit, {n:,} x {d}", t_o, t_n, t_s, same(ours.mistakes_, m_np, m_ex))
    Xt = X[: n // 4]
    t_o, f_o = best(lambda: ours.decision_function(Xt), R)
    t_n, f_n = best(lambda: Xt @ ours.coef_[0] + ours.intercept_[0], R)
    tab.row(f"AveragedPerceptron decision_function, {len(Xt):,} pts", t_o, t_n, None,
            f"max |diff| {float(np.max(np.abs(f_o - f_n))):.1e}; "
            + ("same signs" if np.array_equal(f_o > 0, f_n > 0) else "DIFFERENT signs"))

    nv = n // 10
    t_o, voted = best(lambda: VotedPerceptron(bias=True).fit(X[:nv], y[:nv]), R)
    t_n, (W, bb, cc, m_np) = best(lambda: NL.voted_perceptron(X[:nv], y[:nv]), 1)
    m_ex = run_perceptron(X[:nv], y[:nv], bias=True, exact=True, record="none").mistakes
    tab.row(f"VotedPerceptron fit, {nv:,} x {d}", t_o, t_n, None, same(voted.mistakes_, m_np, m_ex))
    Xv = X[:500]
    K = len(voted._vc)
    t_o, f_o = best(lambda: voted.decision_function(Xv), R)
    t_n, f_n = best(lambda: NL.voted_decision(W, bb, cc, Xv), R)
    r_voted, _ = tab.row(f"VotedPerceptron decision_function, {len(Xv)} pts x {K:,} votes", t_o, t_n, None,
            "equal" if np.array_equal(f_o, f_n) else "DIFFERENT")

    # -- kernel perceptron (Gaussian) --------------------------------------------------------------
    nk, dk = (3_000, 100) if q else (10_000, 100)
    Xk, yk = int_data(rng, nk, dk)
    c = 2.0 ** -9                     # ~1/(5 d), a power of two: c |x - s|^2 is exact on integer data
    spec = "gaussian:c=1/512"
    kthreads = default_threads()
    t_o, kp = best(lambda: KernelPerceptron(spec).fit(Xk, yk), R)
    t_n, (a_np, m_np) = best(lambda: NL.kernel_perceptron(Xk, yk, c), 1)
    t_n2, (_, m_np2) = best(lambda: NL.kernel_perceptron_dot(Xk, yk, c), R)    # the ratio goal: best of R too
    run = fit_blocked(Xk, yk, np.arange(nk), parse_kernel(spec), bias=False, strict=False)
    cert = NL.certified_gaussian_steps(run["act"], run["mis"])
    r_kfit, _ = tab.row(f"KernelPerceptron fit (Gaussian), n = {nk:,}, d = {dk}", t_o, t_n, None,
            same(kp.mistakes_, m_np, m_np2) + f"; certified {cert:,}/{nk:,} steps")
    t_1t, run1 = best(lambda: fit_blocked(Xk, yk, np.arange(nk), parse_kernel(spec), bias=False, strict=False,
                                          threads=1), R)
    t_2t, run2 = best(lambda: fit_blocked(Xk, yk, np.arange(nk), parse_kernel(spec), bias=False, strict=False,
                                          threads=2), R)
    same_bits = all(run1[k].tobytes() == run2[k].tobytes() for k in ("act", "sval", "alpha", "mis", "sv"))
    print(f"{'':<46}   one thread {fmt_t(t_1t).strip()} ({t_n2 / t_1t:.2f}x the dot-product form), two threads "
          f"{fmt_t(t_2t).strip()} ({t_n2 / t_2t:.2f}x); the two runs {'bitwise equal' if same_bits else 'DIFFERENT'}; "
          f"the fit above used {kthreads} (load {os.getloadavg()[0]:.2f})")
    peak = peak_mib(lambda: KernelPerceptron(spec).fit(Xk, yk))
    peak_np = peak_mib(lambda: NL.kernel_perceptron(Xk, yk, c))
    gram = nk * nk * 8 / 2 ** 20
    r_kdot = t_n2 / t_o
    print(f"{'':<46}   numpy loop in the dot-product form: {fmt_t(t_n2).strip()} ({r_kdot:.2f}x); "
          f"peak memory: ours {peak:.1f} MiB = {peak / gram:.1%} of the {gram:.0f} MiB Gram matrix "
          f"(numpy loop {peak_np:.1f} MiB)")
    Xq = Xk[:1000]
    t_o, f_o = best(lambda: kp.decision_function(Xq), R)
    sv = kp.support_
    t_n, f_n = best(lambda: NL.kernel_decision(Xk[sv], kp.dual_coef_[sv], Xq, c), R)
    err = float(np.max(np.abs(f_o - f_n)))
    r_kdec, _ = tab.row(f"KernelPerceptron decision_function, {len(Xq):,} pts x {len(sv):,} SV", t_o, t_n, None,
            f"max |diff| {err:.1e}; " + ("same signs" if np.array_equal(f_o > 0, f_n > 0) else "DIFFERENT signs"))

    # -- Winnow --------------------------------------------------------------------------------
    nw, dw = (20_000, 1_000) if q else (100_000, 1_000)
    Xw = (rng.random((nw, dw)) < 0.02).astype(np.int64)
    rel = rng.choice(dw, 8, replace=False)
    yw = (Xw[:, rel].sum(axis=1) > 0).astype(np.int64)
    t_f, wf = best(lambda: Winnow(exact=False).fit(Xw, yw), R)
    t_n, (_, m_np) = best(lambda: NL.winnow(Xw, yw), 1)
    t_d, (_, m_d) = best(lambda: NL.winnow_dot(Xw, yw), 1)
    t_e, we = best(lambda: Winnow().fit(Xw, yw), R)
    t_read, _ = best(lambda: Xw.sum(), R)
    eng = we.trace_.params
    r_wf, _ = tab.row(f"Winnow fit (float), {nw:,} x {dw:,} binary int64", t_f, t_n, None,
                      same(wf.mistakes_, m_np, we.mistakes_))
    print(f"{'':<46}   numpy loop with w @ x: {fmt_t(t_d).strip()} ({t_d / t_f:.2f}x; {m_d} mistakes); "
          f"one read of the {Xw.nbytes / 2 ** 20:.0f} MiB (numpy sum): {fmt_t(t_read).strip()}, "
          f"so at most {t_d / t_read:.1f}x against that loop")
    tab.row("Winnow fit (exact: integer exponents)", t_e, t_n, None,
            f"{we.mistakes_}; exact/float time {t_e / t_f:.2f}x; {eng.get('exact_decisions', 0)} rational decisions")
    Xu = Xw.astype(np.uint8)
    t_u, wu = best(lambda: Winnow(exact=False).fit(Xu, yw), R)
    t_nu, (_, m_nu) = best(lambda: NL.winnow_dot(Xu, yw), 1)
    tab.row("Winnow fit (float), the same data as uint8", t_u, t_nu, None,
            same(wu.mistakes_, m_nu, we.mistakes_) + " (numpy: w @ x)")

    # -- sparse --------------------------------------------------------------------------------
    ns, ds = (20_000, 20_000) if q else (100_000, 50_000)
    per_row = 40
    rows_ = np.repeat(np.arange(ns), per_row)
    Xs = sp.coo_matrix((rng.integers(1, 4, size=ns * per_row).astype(np.float64),
                        (rows_, rng.integers(0, ds, size=ns * per_row))), shape=(ns, ds)).tocsr()
    ys = np.where(Xs @ rng.standard_normal(ds) > 0, 1, -1)
    sk0 = lambda: SkPerceptron(eta0=1.0, fit_intercept=False, shuffle=False, penalty=None, max_iter=1, tol=None,
                               early_stopping=False)
    t_o, ps = best(lambda: Perceptron(bias=False).fit(Xs, ys), R)
    t_s, sks = best(lambda: sk0().fit(Xs, ys), R)
    m_ex = run_perceptron(Xs, ys, exact=True, record="none").mistakes
    bit = ps.coef_.tobytes() == sks.coef_.tobytes()
    tab.row(f"Perceptron fit (no bias), CSR {ns:,} x {ds:,}, {Xs.nnz:,} nnz", t_o, None, t_s,
            same(ps.mistakes_, None, m_ex) + f"; bitwise sklearn: {'yes' if bit else 'NO'}")
    print()
    # -- a fresh process: import + the first fit (the compiled loops come from numba's disk cache) ---
    st = {k: startup(code, 1 if q else 3) for k, code in STARTUP.items()}
    print(f"fresh process, import + first fit of 200 x 5 (CPU seconds of the process, best of {1 if q else 3}): "
          f"Perceptron {st['ours']:.2f} s, scikit-learn's Perceptron {st['sklearn']:.2f} s "
          f"({st['sklearn'] / st['ours']:.2f}x); KernelPerceptron (Gaussian) {st['kernel']:.2f} s")
    print(f"fresh process, import + first fit of 5,000 x 50 (the compiled loop, numba's disk cache): "
          f"Perceptron {st['ours_compiled']:.2f} s, scikit-learn's Perceptron {st['sklearn_large']:.2f} s "
          f"({st['sklearn_large'] / st['ours_compiled']:.2f}x)")
    print()
    different = [r[0] for r in tab.rows if "DIFFERENT" in r[4]]
    print("goals: " + "; ".join([
        f"kernel fit {r_kfit:.1f}x numpy, {r_kdot:.1f}x its dot-product form (>= 4x), peak {peak / gram:.1%} of "
        "the Gram matrix (<= 25%)",
        f"a fresh process's import + first Perceptron fit {st['sklearn'] / st['ours']:.1f}x faster than "
        f"scikit-learn's (> 1x; {st['sklearn_large'] / st['ours_compiled']:.1f}x on the compiled loop)",
        f"kernel decision {r_kdec:.1f}x, voted decision {r_voted:.1f}x numpy's blocked product (>= 1x)",
        f"Winnow float {r_wf:.1f}x the numpy loop (>= 4x; {t_d / t_f:.1f}x the w @ x loop), "
        f"exact {t_e / t_f:.2f}x float (<= 3x)",
        f"perceptron {r_perc_sk:.2f}x scikit-learn",
        "mistakes identical in every row" if not different else f"mistakes DIFFER in: {', '.join(different)}"]))
    print(f"load average at end: {' '.join(f'{v:.2f}' for v in os.getloadavg())}  (a shared machine: "
          "ratios from one run; absolute times move with the load)")
    run.add("KernelPerceptron fit (Gaussian) / numpy loop; peak memory / Gram matrix", f"{r_kfit:.1f}x; {peak / gram:.1%}",
            ">= 4x; <= 25%")
    run.add("decision_function / numpy's blocked product: kernel, voted", f"{r_kdec:.1f}x, {r_voted:.1f}x", ">= 1x")
    run.add("Winnow float / numpy loop; exact / float time", f"{r_wf:.1f}x; {t_e / t_f:.2f}x", ">= 4x; <= 3x")
    run.add("fresh process, import + first Perceptron fit: scikit-learn / ours (CPU)",
            f"{st['sklearn'] / st['ours']:.1f}x", "> 1x")
    run.add("mistakes identical in every row", "yes" if not different else "NO: " + ", ".join(different))
    run.write()
    del learners
    return 0


if __name__ == "__main__":
    sys.exit(main())
