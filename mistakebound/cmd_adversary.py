"""``mistakebound adversary ALGORITHM ...`` / ``mistakebound adversary table`` and
``mistakebound replay FILE...``: worst-case sequences, certified by exact replay."""
from __future__ import annotations

import os
import sys
import time
from fractions import Fraction

import click

from mistakebound.common import emit_json, fail, input_errors_exit_2

EXIT_REJECTED = 1


def _fmt(v, width: int = 24) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, Fraction):
        s = str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
        if len(s) <= width:
            return s
        n = round(v)
        if n != 0 and abs(v - n) < abs(n) * Fraction(1, 10 ** 6):
            d = v - n
            return f"{n} {'-' if d < 0 else '+'} {float(abs(d)):.3g} (exact p/q in --json)"
        return f"~{float(v):.15g}"
    if isinstance(v, float):
        return f"~{v:.10g}"
    return str(v)


def _stderr_console():
    from rich.console import Console
    return Console(stderr=True)


class _Spinner:
    """A rich progress bar on stderr for one search (time-based when a budget is known)."""

    def __init__(self, what: str, budget: float | None):
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
        con = _stderr_console()
        self.p = Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[info]}"),
                          TimeElapsedColumn(), console=con, transient=True, disable=not con.is_terminal)
        self.budget = budget
        self.t0 = time.monotonic()
        self.task = self.p.add_task(what, total=1.0, info="")

    def __enter__(self):
        self.p.__enter__()
        return self

    def __exit__(self, *exc):
        return self.p.__exit__(*exc)

    def __call__(self, *args):
        frac = None
        info = ""
        if len(args) == 2 and isinstance(args[0], float):       # winnow_search: (fraction, best)
            frac, info = args[0], f"best {args[1]}"
        elif len(args) == 2:                                     # (done, total)
            frac, info = args[0] / max(1, args[1]), f"{args[0]}/{args[1]}"
        elif len(args) == 1:
            info = f"step {args[0]}"
        if frac is None and self.budget:
            frac = min(1.0, (time.monotonic() - self.t0) / self.budget)
        self.p.update(self.task, completed=frac if frac is not None else 0, info=info)


def _optimality(seq, cert) -> dict | None:
    """Winnow: what the search recorded about optimality (``meta.optimal``, ``meta.optimality_proof``)
    and whether the exact replay meets the catalogue's tight bound (which proves optimality by
    itself: no sequence can have more mistakes)."""
    if seq.algorithm != "winnow":
        return None
    meta = seq.meta or {}
    f = cert.figures
    tb = f.get("tight_bound")
    meets = tb is not None and cert.mistakes == tb
    return {"optimal": meta.get("optimal"), "optimality_proof": meta.get("optimality_proof"),
            "meets_tight_bound": meets, "tight_theorem": f.get("tight_theorem") if tb is not None else None}


def _optimality_text(o: dict) -> str:
    if o["optimal"] is None:
        s = "not recorded by the search"
    elif o["optimal"]:
        s = "yes" + (f" ({o['optimality_proof']})" if o["optimality_proof"] else "")
    else:
        s = "no (best found within the budget)"
    if o["meets_tight_bound"]:
        s += f"; mistakes = r(3 lg n - 2), optimal by {o['tight_theorem']}"
    return s


def _report(seq, cert, path, seconds, as_json: bool, extra=None):
    opt = _optimality(seq, cert)
    if as_json:
        obj = {"file": path, "seconds": round(seconds, 3), "meta": seq.meta, "certificate": cert.to_json(),
               "budget_exhausted": bool(seq.meta.get("budget_exhausted", False))}
        if opt is not None:
            obj.update(opt)
        if extra:
            obj.update(extra)
        emit_json(obj)
        return
    f = cert.figures
    head = f"{seq.algorithm}"
    if seq.meta.get("strategy"):
        head += f" [{seq.meta['strategy']}]"
    click.echo(f"{head}: {len(seq.examples)} examples x {seq.epochs} epoch(s), d = {seq.dim}")
    click.echo(f"  mistakes   {cert.mistakes}  (exact replay" + ("; one draw of the coins, seed 0: the bound is on "
                                                       "expected_mistakes)" if "expected_mistakes" in f else ")"))
    click.echo(f"  bound      {_fmt(cert.bound)}   {f.get('bound_form', '')}")
    click.echo(f"  ratio      {_fmt(cert.ratio)}" + (f"   (= {float(cert.ratio):.6f})" if cert.ratio is not None else ""))
    for k in ("gamma_sq", "r_sq", "w_norm_sq", "hinge_loss", "exact_form", "ratio_exact_form", "sharper_bound",
              "ratio_sharper", "tight_bound", "ratio_tight", "max_mistakes_allowed", "bound_interval",
              "ratio_interval", "expected_mistakes", "m", "bound_241", "ratio_241_interval", "reaches_99_percent",
              "reaches_99_percent_241"):
        if k in f and f[k] is not None:
            v = f[k]
            shown = "[" + ", ".join(_fmt(x) for x in v) + "]" if isinstance(v, tuple) else _fmt(v)
            if k == "sharper_bound" and f.get("sharper_theorem"):
                shown += f"   ({f['sharper_theorem']})"
            if k == "tight_bound" and f.get("tight_theorem"):
                shown += f"   r(3 lg n - 2) ({f['tight_theorem']})"
            click.echo(f"  {k:<10} {shown}")
    if opt is not None:
        click.echo(f"  optimal    {_optimality_text(opt)}")
    if "budget_exhausted" in seq.meta:
        b = seq.meta.get("budget")
        click.echo("  budget     " + (f"ran out ({b:g} s): the best found so far; a larger --budget may find more"
                                      if seq.meta["budget_exhausted"] and b is not None else
                                      "ran out: the best found so far" if seq.meta["budget_exhausted"] else
                                      "not exhausted (the search finished)"))
    if seq.meta.get("dp_resolution"):
        click.echo(f"  DP resolution: {seq.meta['dp_resolution']}")
    if path:
        click.echo(f"  wrote {path}  ({seconds:.2f} s)")
    if not cert.ok:
        for r in cert.reasons:
            click.echo(f"  REJECTED: {r}")


def _check_out(out):
    if out and os.path.isdir(out):
        fail(f"--out {out} is a directory; give a file name")


def _finish(seq, out, as_json, t0, plot=None, extra=None):
    from adversary.certify import certify
    cert = certify(seq, record="all" if plot else "none")
    seq.claims = {"mistakes": cert.mistakes}
    if isinstance(cert.bound, Fraction):
        seq.claims["bound"] = cert.bound
        seq.claims["ratio"] = cert.ratio
    seq.meta = dict(seq.meta, seconds=round(time.monotonic() - t0, 3))
    try:
        seq.save(out)
    except OSError as e:
        fail(f"cannot write {out}: {e.strerror or e}")
    if plot:
        from adversary.plots import plot_plane
        if seq.dim != 2:
            fail("--plot draws the plane: it needs --dim 2")
        plot_plane(seq, plot, cert.trace)
    _report(seq, cert, out, time.monotonic() - t0, as_json, extra)
    return 0 if cert.ok else EXIT_REJECTED


_common_opts = [
    click.option("--out", "out", required=True, type=click.Path(dir_okay=False), help="Sequence file to write (JSON)."),
    click.option("--budget", type=float, default=30.0, show_default=True, help="Search budget in CPU seconds of this process (best so far at the end)."),
    click.option("--seed", type=int, default=0, show_default=True, help="Random seed of the search."),
    click.option("--json", "as_json", is_flag=True, help="Print the certificate as JSON."),
]


def common_options(fn):
    for opt in reversed(_common_opts):
        fn = opt(fn)
    return fn


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def adversary():
    """Search worst-case sequences and certify them exactly.

    \b
    mistakebound adversary perceptron --gamma 0.2 --dim 3 --out seq.json
    mistakebound adversary winnow --n 64 --r 2 --variant halve --out w.json
    mistakebound adversary kernel --kernel gaussian:c=1/2 --n 20 --out k.json
    mistakebound adversary table --out adversary_table

    Every sequence is replayed by the exact learner; mistakes, bound and ratio are exact
    rationals.  Files are in the format mistakebound.sequence/1 (docs/adversary.md).
    """


@adversary.command("perceptron")
@click.option("--gamma", "gamma", default=None, help="Target normalized margin, read exactly ('0.2' is 1/5).")
@click.option("--dim", "dim", type=int, default=None, help="Dimension d.")
@click.option("--strategy", type=click.Choice(["auto", "orthonormal", "orthogonal", "plane", "plane-unit", "alternating",
                                               "noisy", "factor-two"]), default="auto", show_default=True,
              help="auto: orthonormal if d >= 1/gamma^2, else the Ex. 9.4 ties (d >= 3), else the plane DP. "
                   "alternating: {+-1}^d by x1 AND (x2 OR ...). noisy/factor-two: inseparable.")
@click.option("--noise", default="1/4", show_default=True, help="noisy: fraction of mistakes followed by a label flip (random, --seed).")
@click.option("--flips", type=int, default=None, help="noisy: exactly this many flips, evenly spaced (instead of --noise).")
@click.option("--lambda", "lam", default="9/10", show_default=True, help="factor-two: w* = lambda sum e_i.")
@click.option("--resolution", type=int, default=1000, show_default=True, help="plane DP: grid points N.")
@click.option("--plot", type=click.Path(dir_okay=False), default=None, help="2-D: write a PNG of the sequence and the weight path.")
@common_options
@input_errors_exit_2
def perceptron_cmd(gamma, dim, strategy, noise, flips, lam, resolution, out, budget, seed, as_json, plot):
    """Perceptron worst cases (separable and inseparable)."""
    from adversary import perceptron_separable as ps
    t0 = time.monotonic()
    _check_out(out)
    if dim is not None and dim < 1:
        fail(f"--dim must be >= 1, got {dim}")
    if budget <= 0:
        fail("--budget must be > 0")
    if strategy in ("alternating", "factor-two"):
        if dim is None:
            fail(f"--strategy {strategy} needs --dim")
    elif gamma is None or dim is None:
        fail("perceptron needs --gamma and --dim")
    g = ps.parse_gamma(gamma) if gamma is not None else None
    if strategy in ("plane", "plane-unit") and dim != 2:
        fail("--strategy plane needs --dim 2")
    if plot and dim != 2:
        fail("--plot draws the plane: it needs --dim 2")
    with _Spinner(f"perceptron {strategy}", budget) as sp:
        if strategy == "auto":
            seq = ps.separable(g, dim, budget=budget, progress=sp)
        elif strategy == "orthonormal":
            seq = ps.orthonormal(g, dim)
        elif strategy == "orthogonal":
            seq = ps.orthogonal_margin(g, dim, progress=sp)
        elif strategy in ("plane", "plane-unit"):
            if dim != 2:
                fail("--strategy plane needs --dim 2")
            from adversary.perceptron_2d import sequence_2d
            seq = sequence_2d(g, unit=strategy == "plane-unit", N=resolution, budget=budget, progress=sp)
        elif strategy == "alternating":
            from adversary.perceptron_fibonacci import fibonacci_family
            seq = fibonacci_family(dim, progress=sp)
        elif strategy == "noisy":
            from adversary.perceptron_inseparable import noisy
            seq = noisy(g, dim, noise, seed, flips=flips)
        else:
            from adversary.perceptron_inseparable import factor_two
            seq = factor_two(dim, lam)
    return _finish(seq, out, as_json, t0, plot)


@adversary.command("winnow")
@click.option("--n", "n", type=int, required=True, help="Number of variables n.")
@click.option("--r", "r", type=int, required=True, help="Number of relevant variables r.")
@click.option("--variant", type=click.Choice(["halve", "eliminate", "winnow2"]), default="halve", show_default=True)
@click.option("--alpha", default="2", show_default=True, help="winnow2: promotion/demotion factor.")
@click.option("--exhaustive", is_flag=True, help="Exact maximum by exhaustive search (small n).")
@common_options
@input_errors_exit_2
def winnow_cmd(n, r, variant, alpha, exhaustive, out, budget, seed, as_json):
    """Winnow worst cases (search by adversary.winnow_search)."""
    from learners.numbers import to_fraction
    t0 = time.monotonic()
    _check_out(out)
    if n < 1 or r < 1 or r > n:
        fail(f"need 1 <= r <= n, got n = {n}, r = {r}")
    if budget <= 0:
        fail("--budget must be > 0")
    a = to_fraction(alpha, what="alpha")
    from adversary import winnow_search
    with _Spinner(f"winnow {variant} n={n} r={r}", budget) as sp:
        if exhaustive:
            try:
                seq = winnow_search.exhaustive_winnow(n, r, variant, alpha=a, budget=budget)
            except Exception as e:
                if isinstance(e, TimeoutError) or "timeout" in type(e).__name__.lower():
                    fail(f"exhaustive search did not finish within --budget {budget} s")
                raise
        else:
            seq = winnow_search.search_winnow(n, r, variant, budget=budget, seed=seed, progress=sp, alpha=a)
    return _finish(seq, out, as_json, t0)


@adversary.command("kernel")
@click.option("--kernel", "kernel", required=True, help="Kernel spec: poly:c=1,k=2, gaussian:c=1/2, linear.")
@click.option("--n", "n", type=int, default=20, show_default=True, help="Number of examples.")
@click.option("--spacing", default="5", show_default=True, help="Gaussian: distance between points in units of sigma.")
@common_options
@input_errors_exit_2
def kernel_cmd(kernel, n, spacing, out, budget, seed, as_json):
    """Kernel perceptron worst cases against the feature-space bound."""
    from adversary.kernel_worst import kernel_worst
    t0 = time.monotonic()
    _check_out(out)
    if n < 1:
        fail(f"--n must be >= 1, got {n}")
    seq = kernel_worst(kernel, n, spacing)
    return _finish(seq, out, as_json, t0)


adversary.add_command(kernel_cmd, "kernel_perceptron")


@adversary.command("table")
@click.option("--out", "out", default="adversary_table", show_default=True, type=click.Path(file_okay=False),
              help="Directory for the cell files, table.json and the plots.")
@click.option("--budget", type=float, default=25.0, show_default=True, help="Search budget per cell in CPU seconds (the replay and the exhaustive proofs of stored sequences come on top).")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed of the Winnow search.")
@click.option("--only", type=click.Choice(["all", "perceptron", "winnow", "unit"]), default="all", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON.")
@input_errors_exit_2
def table_cmd(out, budget, seed, only, as_json):
    """Fill the grid (perceptron gamma x d, Winnow n x r x variant), certify every cell, write
    its sequence file, table.json, mistakes_vs_bound.png and the plane pictures."""
    from adversary.table import fmt, grid, run_cell, table_lines
    from adversary.plots import plot_mistakes_vs_bound, plot_plane
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    if budget <= 0:
        fail("--budget must be > 0")
    if os.path.exists(out) and not os.path.isdir(out):
        fail(f"--out {out} exists and is not a directory")
    os.makedirs(out, exist_ok=True)
    cells = grid(only)
    rows = []
    t0 = time.monotonic()
    c0 = time.process_time()
    con = _stderr_console()
    lines = not con.is_terminal          # in a log: one line per cell on stderr instead of a bar
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=con, transient=True, disable=lines) as prog:
        task = prog.add_task("adversary table", total=len(cells))
        for k, cell in enumerate(cells, 1):
            prog.update(task, description=f"{cell.label()}")
            row = run_cell(cell, out, budget=budget, seed=seed)
            if cell.algorithm == "perceptron" and cell.params["d"] == 2:
                row["plot"] = plot_plane(row["_seq"], os.path.join(out, cell.name + ".png"))
            rows.append(row)
            prog.advance(task)
            if lines:
                click.echo(f"adversary table [{k}/{len(cells)}] {cell.label()}: {fmt(row['mistakes'])} mistakes, "
                           f"{_status_text(row)} ({row['seconds']:.1f} s)", err=True)
    total = time.monotonic() - t0
    cpu = time.process_time() - c0
    png = plot_mistakes_vs_bound(rows, os.path.join(out, "mistakes_vs_bound.png"))
    public = [{k: _wire(v) for k, v in r.items() if not k.startswith("_")} for r in rows]
    short = [r["name"] for r in rows if r["status"] == "budget"]
    doc = {"rows": public, "seconds_total": round(total, 3), "cpu_seconds_total": round(cpu, 3),
           "budget_per_cell": budget, "seed": seed, "tight": all(r.get("tight") for r in rows),
           "open": [r["name"] for r in rows if not r.get("tight")],
           "ok": all(r["ok"] for r in rows), "budget_exhausted": short, "plot": png}
    emit_json(doc, os.path.join(out, "table.json"))
    if as_json:
        emit_json(doc)
    else:
        click.echo("\n".join(table_lines(rows)))
        click.echo(f"\n{len(rows)} cells in {cpu:.1f} CPU s ({total:.1f} s wall; max cell "
                   f"{max(r['seconds'] for r in rows):.1f} CPU s); files, table.json and mistakes_vs_bound.png in {out}")
        nt = sum(1 for r in rows if r.get("tight"))
        click.echo(f"tight: {nt} of {len(rows)} rows (ratio >= 0.99, a proved optimum, or a lower bound met)"
                   + (f"; open: {', '.join(doc['open'])}" if doc["open"] else ""))
        if short:
            click.echo(f"{len(short)} cell(s) stopped on the {budget:g} s budget short of their target (status "
                       f"'budget'): {', '.join(short)}; rerun with a larger --budget")
    return 0 if all(r["ok"] for r in rows) else EXIT_REJECTED


def _status_text(row) -> str:
    if row["status"] == "rejected":
        return "REJECTED"
    if row["status"] == "budget":
        return "budget ran out short of the target"
    return "ok" + (" (budget ran out, target met)" if row.get("budget_exhausted") else "")


def _wire(v):
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    if isinstance(v, (list, tuple)):
        return [_wire(x) for x in v]
    return v


@click.command("replay", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("files", nargs=-1, required=True, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print the certificates as JSON.")
def replay(files, as_json):
    """Re-check sequence files exactly and print their figures.

    Every file is replayed by the exact learner and every figure is recomputed; a file whose
    claims (mistakes, bound, ratio, ...) do not replay is rejected with the reason (exit 1); a
    malformed file is reported on stderr (exit 2).
    """
    from adversary.certify import certify
    from adversary.sequence import Sequence
    from learners.errors import InputError
    results, bad, rejected = [], 0, 0
    for path in files:
        try:
            seq = Sequence.load(path)
            cert = certify(seq)
        except InputError as e:
            bad += 1
            msg = str(e).splitlines()[0] if str(e) else "bad input"
            if not msg.startswith(str(path)):
                msg = f"{path}: {msg}"
            click.echo(f"mistakebound: error: {msg}", err=True)
            results.append({"file": path, "ok": False, "error": msg})
            continue
        if not cert.ok:
            rejected += 1
        if as_json:
            results.append({"file": path, **cert.to_json(), **({"meta": seq.meta, **opt}
                                                                 if (opt := _optimality(seq, cert)) else {})})
        else:
            status = "OK" if cert.ok else "REJECTED"
            click.echo(f"{path}: {status}")
            _report(seq, cert, None, 0.0, False)
    if as_json:
        emit_json({"files": results, "ok": not bad and not rejected})
    if bad:
        return 2
    return EXIT_REJECTED if rejected else 0
