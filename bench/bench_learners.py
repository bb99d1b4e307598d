#!/usr/bin/env python
"""Benchmark of the perceptron learners (a script, not a test).

One epoch, examples per second, on n dense float64 rows (default n = 200,000) for d in
{10, 100, 1000}:

* ours, default float path  -- ``learners.Perceptron(epochs=1, bias=True).fit``: dot products
  summed in index order, bitwise equal to scikit-learn (checked here on every run);
* ours, fast float path     -- ``learners.Perceptron(fast=True)``: sums reordered (SIMD);
* scikit-learn              -- ``Perceptron(eta0=1.0, fit_intercept=True, shuffle=False,
  penalty=None, max_iter=1, tol=None, early_stopping=False)``;
* a plain per-example numpy loop (``w @ x`` per row; run on the first rows only, it is slow).

Each timing is the best of a few repeats after a warm-up run (compilation excluded); the fit
calls include input checking, as a user would call them.  The data: X standard normal, labels
from a noisy linear target (the mistake rate is printed: it decides how much work an update
costs).  The memory bandwidth is measured in the same run with a large numpy copy (STREAM's
"copy" convention: bytes read + bytes written per second -- the larger, stricter figure; the
bytes copied per second are half of it) and, for reference, a large numpy sum (a read-only
stream, like the learner's pass over X); at d the bandwidth-bound rate is bandwidth / (8 d)
rows per second (each row is read once).  The machine may be shared, so the bandwidth is
measured again next to the d = 1000 timings and the best measurement is used.

Then exact (rational) mode vs float mode on small-integer data (the same float64 array given to
both), and exact mode vs a naive ``fractions.Fraction`` loop (fewer rows for the naive loop;
rates are compared, and the final weights of the naive loop are checked against ours).

    python bench/bench_learners.py            # the full run (~1-2 minutes)
    python bench/bench_learners.py --quick    # smaller n, fewer repeats (~15 s)
    python bench/bench_learners.py --dims 100 --clock cpu --perceptron-only   # one ratio, CPU seconds

Last, the scikit-learn drop-ins side by side with scikit-learn (the multiclass perceptron, sample
weights, ``PassiveAggressiveClassifier``: time and bitwise equality) and the voted perceptron's
first prediction in a fresh process against numpy's blocked product.
"""
from __future__ import annotations

import argparse
import gc
import platform
import sys
import time
import warnings
from fractions import Fraction

import numpy as np

from results import Run


CLOCK = time.perf_counter          # --clock cpu: time.process_time (this process's CPU seconds)


def best_time(fn, repeats):
    best = float("inf")
    out = None
    for _ in range(repeats):
        gc.collect()
        t0 = CLOCK()
        out = fn()
        best = min(best, CLOCK() - t0)
    return best, out


def memory_bandwidth(nbytes, repeats):
    """(copy rate, read rate) in bytes/s: a large numpy copy (bytes copied per second; the memory
    traffic is twice that, read + write) and a large numpy sum (a read-only stream, like the
    learner's pass over X)."""
    src = np.ones(nbytes // 8)
    dst = np.empty_like(src)
    np.copyto(dst, src)                    # touch the pages
    t_copy, _ = best_time(lambda: np.copyto(dst, src), repeats)
    t_read, _ = best_time(lambda: src.sum(), repeats)
    del src, dst
    return nbytes / t_copy, nbytes / t_read


def numpy_loop(X, y):
    n, d = X.shape
    w = np.zeros(d)
    b = 0.0
    for i in range(n):
        x = X[i]
        yi = y[i]
        if yi * (w @ x + b) <= 0.0:
            w += yi * x
            b += yi
    return w, b


def naive_fraction_loop(rows, y):
    d = len(rows[0])
    w = [Fraction(0)] * d
    b = Fraction(0)
    mistakes = 0
    for x, yi in zip(rows, y):
        a = sum((wj * xj for wj, xj in zip(w, x)), Fraction(0)) + b
        if yi * a <= 0:
            w = [wj + yi * xj for wj, xj in zip(w, x)]
            b += yi
            mistakes += 1
    return w, b, mistakes


def make_data(rng, n, d, noise=0.3):
    X = rng.standard_normal((n, d))
    w_true = rng.standard_normal(d)
    m = X @ w_true
    y = np.where(m + noise * np.std(m) * rng.standard_normal(n) > 0, 1, -1)
    return X, y


def fmt_rate(r):
    if r >= 1e6:
        return f"{r / 1e6:7.2f} M/s"
    return f"{r / 1e3:7.1f} k/s"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="n = 20,000, fewer repeats (a smoke run)")
    ap.add_argument("--n", type=int, default=None, help="rows (default 200,000; 20,000 with --quick)")
    ap.add_argument("--repeats", type=int, default=None, help="repeats per timing (default 3; 2 with --quick)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dims", type=int, nargs="+", default=[10, 100, 1000], help="the values of d (default 10 100 1000)")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="time the fits by the wall clock (default) or by this process's CPU seconds (a loaded "
                         "machine slows both learners' CPU time alike, not their wall time)")
    ap.add_argument("--perceptron-only", action="store_true",
                    help="only the perceptron table (no exact mode, no drop-ins)")
    args = ap.parse_args(argv)
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter

    import sklearn
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron as SkPerceptron

    import learners
    from learners import Perceptron, run_perceptron

    n = args.n or (20_000 if args.quick else 200_000)
    R = args.repeats or (2 if args.quick else 3)
    n_np = min(n, 5_000 if args.quick else 20_000)
    dims = tuple(args.dims)
    rng = np.random.default_rng(args.seed)
    warnings.simplefilter("ignore", ConvergenceWarning)

    run = Run("bench_learners.py")
    print(f"mistakebound learners benchmark: n = {n:,} rows, one epoch, best of {R} "
          f"(numpy loop: first {n_np:,} rows, 1 run)")
    print(f"python {platform.python_version()}, numpy {np.__version__}, scikit-learn {sklearn.__version__}, "
          f"numba {__import__('numba').__version__}, {platform.machine()}")
    import os
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    bw_bytes = (1 << 30) if not args.quick else (1 << 28)
    bw, bw_read = memory_bandwidth(bw_bytes, R + 1) if not args.perceptron_only else (0.0, 0.0)
    print()

    def sk():
        return SkPerceptron(eta0=1.0, fit_intercept=True, shuffle=False, penalty=None, max_iter=1, tol=None,
                            early_stopping=False)

    # warm-up: compile the loops (cached on disk after the first run)
    Xw, yw = make_data(rng, 64, 3)
    Perceptron().fit(Xw, yw)
    Perceptron(fast=True).fit(Xw, yw)
    run_perceptron(np.rint(Xw), yw, exact=True, record="none")

    head = (f"{'d':>5} | {'ours default':>12} | {'ours fast':>12} | {'sklearn':>12} | {'numpy loop':>12} | "
            f"{'default/sk':>10} | {'fast/sk':>7} | {'bitwise':>7} | {'mistakes':>8}")
    print(head)
    print("-" * len(head))
    fast_1000 = None
    for d in dims:
        X, y = make_data(rng, n, d)
        Perceptron().fit(X[:256], y[:256])
        t_def, ours = best_time(lambda: Perceptron(epochs=1, bias=True).fit(X, y), R)
        t_fast, _ = best_time(lambda: Perceptron(epochs=1, bias=True, fast=True).fit(X, y), R)
        if d == 1000 and not args.perceptron_only:
            # the machine may be shared: measure the bandwidth again next to these timings (the
            # best of all measurements is kept -- the stricter bound)
            for _ in range(R):
                t_fast = min(t_fast, best_time(lambda: Perceptron(epochs=1, bias=True, fast=True).fit(X, y), 1)[0])
                c, r = memory_bandwidth(bw_bytes, 1)
                bw, bw_read = max(bw, c), max(bw_read, r)
        t_sk, theirs = best_time(lambda: sk().fit(X, y), R)
        t0 = CLOCK()
        numpy_loop(X[:n_np], y[:n_np])
        t_np = CLOCK() - t0
        bitwise = (ours.coef_.tobytes() == theirs.coef_.tobytes()
                   and np.asarray(ours.intercept_, dtype=float).tobytes() == theirs.intercept_.tobytes())
        r_def, r_fast, r_sk, r_np = n / t_def, n / t_fast, n / t_sk, n_np / t_np
        if d == 1000 and not args.perceptron_only:
            fast_1000 = r_fast
        print(f"{d:>5} | {fmt_rate(r_def):>12} | {fmt_rate(r_fast):>12} | {fmt_rate(r_sk):>12} | "
              f"{fmt_rate(r_np):>12} | {r_def / r_sk:>9.2f}x | {r_fast / r_sk:>6.2f}x | "
              f"{'yes' if bitwise else 'NO':>7} | {ours.mistakes_ / n:>7.1%}")
        what = "CPU seconds" if args.clock == "cpu" else "examples per second"
        run.add(f"Perceptron fit, one epoch, {n:,} x {d}: ours / scikit-learn ({what})",
                f"{r_def / r_sk:.2f}x (fast path {r_fast / r_sk:.2f}x); bitwise {'yes' if bitwise else 'NO'}", ">= 2x")
        del X, y, ours, theirs
        gc.collect()
    traffic = 2 * bw
    bound = traffic / (8 * 1000)
    print()
    if args.perceptron_only:
        run.write()
        return 0
    if fast_1000 is not None:
        print(f"memory bandwidth (same run, best of {2 * R + 1} measurements): numpy copy of {bw_bytes >> 20} MiB moves "
              f"{traffic / 1e9:.2f} GB/s (read + write; {bw / 1e9:.2f} GB/s copied); numpy sum (read-only) "
              f"{bw_read / 1e9:.2f} GB/s")
        print(f"bandwidth-bound rate at d = 1000: {fmt_rate(bound).strip()} (= {traffic / 1e9:.2f} GB/s / 8000 bytes "
              f"per row); fast path {fmt_rate(fast_1000).strip()} = {fast_1000 / bound:.0%} of it "
              f"({fast_1000 / (bw_read / 8000):.0%} of the read-only rate {fmt_rate(bw_read / 8000).strip()})")
        print()

    # exact vs float on small-integer data -----------------------------------------------------
    print("exact (rational) mode vs float mode, small-integer data (entries in -3..3, the same float64 array):")
    head2 = f"{'d':>5} | {'float':>12} | {'exact':>12} | {'exact/float time':>16} | {'engine':>13} | same run"
    print(head2)
    print("-" * len(head2))
    for d in (10, 100):
        Xi = rng.integers(-3, 4, size=(n, d)).astype(np.float64)
        yi = rng.choice([-1, 1], size=n)
        t_f, trf = best_time(lambda: run_perceptron(Xi, yi, bias=True, record="none"), R)
        t_e, tre = best_time(lambda: run_perceptron(Xi, yi, bias=True, exact=True, record="none"), R)
        same = (tre.mistake_flags == trf.mistake_flags
                and [float(v) for v in tre.weights] == list(trf.weights) and float(tre.bias) == trf.bias)
        print(f"{d:>5} | {fmt_rate(n / t_f):>12} | {fmt_rate(n / t_e):>12} | {t_e / t_f:>15.2f}x | "
              f"{tre.params['exact_engine']:>13} | {'yes' if same else 'NO'}")
    print()

    # exact vs a naive Fraction loop -----------------------------------------------------------
    print("exact mode vs a naive fractions.Fraction loop (int64 data; pre-converted to Fraction for the naive loop):")
    head3 = f"{'d':>5} | {'exact':>12} | {'naive Fraction':>14} | {'speed-up':>9} | {'engine':>7} | same weights"
    print(head3)
    print("-" * len(head3))
    for d in (10, 100):
        Xi = rng.integers(-3, 4, size=(n, d))
        yi = rng.choice([-1, 1], size=n)
        n_naive = min(n, (2_000 if args.quick else 10_000) // (d // 10))
        t_e, tre = best_time(lambda: run_perceptron(Xi, yi, bias=True, exact=True, record="none"), R)
        rows = [[Fraction(int(v)) for v in r] for r in Xi[:n_naive].tolist()]
        ys = yi[:n_naive].tolist()
        t0 = time.perf_counter()
        w_nv, b_nv, _ = naive_fraction_loop(rows, ys)
        t_nv = time.perf_counter() - t0
        sub = run_perceptron(Xi[:n_naive], yi[:n_naive], bias=True, exact=True, record="none")
        same = list(sub.weights) == w_nv and sub.bias == b_nv
        r_e, r_nv = n / t_e, n_naive / t_nv
        print(f"{d:>5} | {fmt_rate(r_e):>12} | {fmt_rate(r_nv):>14} | {r_e / r_nv:>8.0f}x | "
              f"{tre.params['exact_engine']:>7} | {'yes' if same else 'NO'} ({n_naive:,} rows)")
    print()
    dropins(rng, n, R)
    run.write()
    return 0


FIRST_CALL = r"""
import pickle, sys, time
t0 = time.process_time()
import numpy as np
model, X = pickle.load(open(sys.argv[1], "rb"))
if sys.argv[2] == "ours":
    out = model.decision_function(X)
else:
    W, B, C = model._W, model._vb, model._vc.astype(float)
    out = np.empty(len(X))
    for s in range(0, len(X), 4096):
        S = X[s:s + 4096] @ W.T + B
        out[s:s + 4096] = np.where(S > 0, 1.0, -1.0) @ C
print(time.process_time() - t0)
"""


def first_call(model, X, which, repeats):
    """CPU seconds of a fresh process that unpickles a fitted model and makes one prediction
    (imports included: no compilation may hide in a first call)."""
    import os
    import pickle
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "m.pkl")
        with open(path, "wb") as fh:
            pickle.dump((model, X), fh)
        best = float("inf")
        for _ in range(repeats):
            r = subprocess.run([sys.executable, "-c", FIRST_CALL, path, which], capture_output=True, text=True,
                               check=True)
            best = min(best, float(r.stdout.strip().splitlines()[-1]))
    return best


def dropins(rng, n, R):
    import os
    """The scikit-learn drop-ins, side by side with scikit-learn: time and bitwise equality."""
    from sklearn.linear_model import Perceptron as SkPerceptron
    from sklearn.linear_model import PassiveAggressiveClassifier as SkPA

    from learners import PassiveAggressiveClassifier, Perceptron, VotedPerceptron
    print("scikit-learn drop-ins (best of {}; same data, same settings; bitwise = coef_ and intercept_ "
          "byte for byte):".format(R))
    head = f"{'what':<58} | {'ours':>9} | {'sklearn':>9} | {'ratio':>6} | bitwise"
    print(head)
    print("-" * len(head))

    def row(name, make_ours, make_sk, X, y, **kw):
        make_ours().fit(X[:200], y[:200], **{k: v[:200] for k, v in kw.items()})
        t_o, a = best_time(lambda: make_ours().fit(X, y, **kw), R)
        t_s, b = best_time(lambda: make_sk().fit(X, y, **kw), R)
        same = a.coef_.tobytes() == b.coef_.tobytes() and np.asarray(a.intercept_, float).tobytes() == \
            b.intercept_.tobytes()
        print(f"{name:<58} | {t_o * 1e3:>6.1f} ms | {t_s * 1e3:>6.1f} ms | {t_s / t_o:>5.2f}x | "
              f"{'yes' if same else 'NO'}")

    m = min(n, 50_000)
    X, y = make_data(rng, m, 100)
    y3 = np.where(X[:, 0] > 0.5, 2, np.where(X[:, 1] > 0, 1, 0))
    sw = rng.choice([0.5, 1.0, 2.0], size=m)
    sk = lambda: SkPerceptron(eta0=1.0, shuffle=False, penalty=None, max_iter=1, tol=None)  # noqa: E731
    row(f"Perceptron, 3 classes (one vs rest), {m:,} x 100", lambda: Perceptron(), sk, X, y3)
    row(f"Perceptron with sample_weight, {m:,} x 100", lambda: Perceptron(), sk, X, y, sample_weight=sw)
    warnings.simplefilter("ignore", FutureWarning)          # scikit-learn's deprecation of its class
    for loss in ("hinge", "squared_hinge"):
        p = dict(loss=loss, max_iter=20, random_state=0, average=loss == "squared_hinge")
        what = "PA-I, 3 classes" if loss == "hinge" else "PA-II, averaged"
        row(f"PassiveAggressiveClassifier ({what}, <= 20 epochs), {m:,} x 100",
            lambda: PassiveAggressiveClassifier(**p), lambda: SkPA(**p), X, y3 if loss == "hinge" else y)

    # the voted perceptron's first prediction in a fresh process, against numpy's blocked product
    nv = min(n, 20_000)
    Xv, yv = make_data(rng, nv, 100, noise=1.0)
    v = VotedPerceptron().fit(Xv, yv)
    Xq = rng.standard_normal((500, 100))
    reps = 1 if R < 3 else 3
    t_o, t_n = first_call(v, Xq, "ours", reps), first_call(v, Xq, "numpy", reps)
    print(f"{'VotedPerceptron 1st decision_function, fresh process':<58} | {t_o:>7.2f} s | {t_n:>7.2f} s | "
          f"{t_n / t_o:>5.2f}x | -")
    print(f"  (the last row's baseline is numpy's blocked product of the voting vectors, not scikit-learn; "
          f"500 points x {len(v._vc):,} votes; CPU seconds of the process, imports included)")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (a shared machine: wall times "
          "move with the load)")


if __name__ == "__main__":
    sys.exit(main())
