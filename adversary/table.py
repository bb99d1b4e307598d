"""The adversary table: every cell a certified sequence file, next to its bound.

perceptron: gamma in {1/2, 1/3, 1/5, 1/10, 1/20} x d in {2, 3, 5, ceil(1/gamma^2)};
winnow:     n in {16, 64, 256, 1024} x r in {1, 2, 4, 8}, halving and elimination;
unit:       Halving, Weighted Majority (deterministic and randomized), Passive-Aggressive,
            Freund-Schapire and the two lower bounds (``adversary.unit_worst``), then Hedge, SOA,
            the multiclass perceptron, disjunctions, the Hadamard rows and the second-order
            perceptron (``adversary.second_order_worst``).

``make_cell(cell, budget, seed, progress)`` builds one sequence (dispatching to the strategy
modules, and lazily to ``adversary.winnow_search`` for Winnow), ``certify`` replays it exactly, and
the row holds the certified figures, the time and the file name.

Every row says whether its search stopped on the time budget (``budget_exhausted``) and whether
it reached the cell's ``target`` (``target_met``: the plane DP's baseline count for d = 2, the
ratio to 1/gamma^2 for d >= 3, the greedy baseline or a proved optimum for Winnow).  A cell is
``ok`` when its sequence is certified and it either finished within its budget or met its target
anyway; a cell that stopped on its budget short of its target has ``status`` "budget" and is not
ok (a slower or busier machine gives a weaker sequence: rerun it with a larger ``--budget``).
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from fractions import Fraction

from adversary.certify import certify
from adversary.experts_worst import TIGHT_RATIO
from adversary.sequence import Sequence

__all__ = ["Cell", "grid", "make_cell", "run_cell", "run_table", "PERCEPTRON_GAMMAS", "WINNOW_NS", "WINNOW_RS",
           "WINNOW_BASELINE", "PLANE_BASELINE"]

PERCEPTRON_GAMMAS = [Fraction(1, 2), Fraction(1, 3), Fraction(1, 5), Fraction(1, 10), Fraction(1, 20)]
WINNOW_NS = [16, 64, 256, 1024]
WINNOW_RS = [1, 2, 4, 8]
WINNOW_VARIANTS = ["halve", "eliminate"]
# baselines: the mistake counts of a greedy search with exact dyadic weights
WINNOW_BASELINE = {
    ("halve", 64): [16, 32, 62, 125], ("halve", 256): [22, 44, 86, 175], ("halve", 1024): [28, 56, 111, 219],
    ("eliminate", 1024): [19, 31, 54, 92],
}
PLANE_BASELINE = {Fraction(1, 2): 2, Fraction(3, 10): 6, Fraction(1, 5): 13, Fraction(1, 10): 50,
                   Fraction(1, 20): 200,
                   Fraction(1, 3): 5}        # 1/3: the plane DP's own count at N = 1000 (no greedy figure)


@dataclass
class Cell:
    algorithm: str
    params: dict = field(default_factory=dict)

    @property
    def name(self) -> str:
        p = self.params
        if "name" in p:                   # the online-learning unit's rows (adversary.unit_worst)
            return p["name"]
        if self.algorithm == "perceptron":
            g = p["gamma"]
            return f"perceptron_g{g.numerator}-{g.denominator}_d{p['d']}"
        return f"winnow_{p['variant']}_n{p['n']}_r{p['r']}"

    def label(self) -> str:
        p = self.params
        if "label" in p:
            return p["label"]
        if self.algorithm == "perceptron":
            return f"perceptron gamma={p['gamma']} d={p['d']}"
        return f"winnow {p['variant']} n={p['n']} r={p['r']}"


def perceptron_dims(gamma: Fraction) -> list[int]:
    q = 1 / (gamma * gamma)
    return sorted({2, 3, 5, -((-q.numerator) // q.denominator)})


def grid(which: str = "all") -> list[Cell]:
    cells = []
    if which in ("all", "perceptron"):
        for g in PERCEPTRON_GAMMAS:
            for d in perceptron_dims(g):
                cells.append(Cell("perceptron", {"gamma": g, "d": d}))
    if which in ("all", "winnow"):
        for v in WINNOW_VARIANTS:
            for n in WINNOW_NS:
                for r in WINNOW_RS:
                    cells.append(Cell("winnow", {"n": n, "r": r, "variant": v}))
    if which in ("all", "unit"):
        from adversary.unit_worst import unit_cells
        cells += [Cell(alg, {"label": lab, "name": name, "build": build}) for alg, lab, name, build in unit_cells()]
        from adversary.hedge_worst import hedge_cells
        cells += [Cell(alg, {"label": lab, "name": name, "build": build}) for alg, lab, name, build in hedge_cells()]
        from adversary.littlestone_worst import littlestone_cells
        cells += [Cell(alg, {"label": lab, "name": name, "build": build})
                  for alg, lab, name, build in littlestone_cells()]
        from adversary.multiclass_worst import multiclass_cells
        cells += [Cell(alg, {"label": lab, "name": name, "build": build})
                  for alg, lab, name, build in multiclass_cells()]
        from adversary.disjunction_worst import disjunction_cells
        cells += [Cell(alg, {"label": lab, "name": name, "build": build})
                  for alg, lab, name, build in disjunction_cells()]
        from adversary.hadamard_worst import hadamard_cells
        cells += [Cell(alg, {"label": lab, "name": name, "build": build})
                  for alg, lab, name, build in hadamard_cells()]
        from adversary.second_order_worst import second_order_cells
        cells += [Cell(alg, {"label": lab, "name": name, "build": build})
                  for alg, lab, name, build in second_order_cells()]
    return cells


def make_cell(cell: Cell, budget: float = 30.0, seed: int = 0, progress=None) -> Sequence:
    p = cell.params
    if cell.algorithm == "perceptron":
        from adversary.perceptron_separable import separable
        return separable(p["gamma"], p["d"], budget=budget)
    from adversary import winnow_search      # imported lazily: only Winnow cells need it
    n, r, v = p["n"], p["r"], p["variant"]
    from adversary.winnow_stored import stored_sequence
    stored = stored_sequence(n, r, v)   # slow searches: a stored sequence, re-proved optimal
    if stored is not None:
        return stored
    t0 = time.process_time()
    if n <= 16:
        # the exact optimum when it comes within half the budget, else the search with the rest
        try:
            return winnow_search.exhaustive_winnow(n, r, v, budget=budget / 2)
        except (TimeoutError, RecursionError, MemoryError):
            pass
        except Exception as e:            # the exhaustive search's own timeout type
            if "timeout" not in type(e).__name__.lower():
                raise
    left = max(1.0, budget - (time.process_time() - t0))
    return winnow_search.search_winnow(n, r, v, budget=left, seed=seed, progress=progress)


def run_cell(cell: Cell, out_dir=None, budget: float = 30.0, seed: int = 0, progress=None) -> dict:
    if "build" in cell.params:
        from adversary.unit_worst import run_unit_cell
        return run_unit_cell(cell, out_dir)
    t0 = time.process_time()
    seq = make_cell(cell, budget=budget, seed=seed, progress=progress)
    t_search = time.process_time() - t0
    cert = certify(seq)
    seconds = time.process_time() - t0
    row = cell_row(cell, seq, cert)
    row["seconds_search"] = round(t_search, 3)
    row["seconds"] = round(seconds, 3)
    if out_dir is not None:
        path = os.path.join(out_dir, cell.name + ".json")
        seq.claims = {"mistakes": cert.mistakes}
        if cert.bound is not None:
            seq.claims["bound"] = cert.bound if isinstance(cert.bound, Fraction) else cert.figures.get("max_mistakes_allowed", cert.bound)
            seq.claims["ratio"] = cert.ratio if isinstance(cert.ratio, Fraction) else cert.figures.get("ratio_max_allowed")
            if seq.claims["ratio"] is None:
                del seq.claims["ratio"]
        seq.meta = dict(seq.meta, seconds=row["seconds"])
        seq.save(path)
        row["file"] = path
    row["_seq"] = seq
    row["_cert"] = cert
    return row


def cell_row(cell: Cell, seq: Sequence, cert) -> dict:
    p = cell.params
    f = cert.figures
    exhausted = bool(seq.meta.get("budget_exhausted", False))
    row = {"algorithm": cell.algorithm, "cell": cell.label(), "name": cell.name, "mistakes": cert.mistakes,
           "bound": cert.bound, "ratio": cert.ratio, "ok": cert.ok, "certified": cert.ok,
           "budget_exhausted": exhausted, "strategy": seq.meta.get("strategy")}
    if cell.algorithm == "perceptron":
        g = p["gamma"]
        nominal = 1 / (g * g)
        row.update(gamma=g, d=p["d"], nominal_bound=nominal, ratio_nominal=Fraction(cert.mistakes) / nominal,
                   gamma_sq_certified=f.get("gamma_sq"), r_sq=f.get("r_sq"))
        if p["d"] == 2:
            from adversary.perceptron_2d import max_mistakes_le1, max_mistakes_rational_le1
            row["target"] = PLANE_BASELINE.get(g)
            row["plane_bound"] = seq.meta.get("plane_bound")
            row["real_optimum_upper_bound"] = max_mistakes_le1(g)
            row["rational_optimum_upper_bound"], row["rational_bound_kind"] = max_mistakes_rational_le1(g)
            row["target_met"] = row["target"] is not None and cert.mistakes >= row["target"]
        else:
            full = p["d"] >= nominal
            row["target"] = "ratio 1" if full else "ratio >= 0.95"
            r_nom = row["ratio_nominal"]
            row["target_met"] = r_nom >= 1 if full else r_nom >= Fraction(95, 100)
    else:
        n, r, v = p["n"], p["r"], p["variant"]
        base = WINNOW_BASELINE.get((v, n))
        row.update(n=n, r=r, variant=v, sharper_bound=f.get("sharper_bound"), ratio_sharper=f.get("ratio_sharper"),
                   tight_bound=f.get("tight_bound"), ratio_tight=f.get("ratio_tight"),
                   optimal=bool(seq.meta.get("optimal")), baseline=base[WINNOW_RS.index(r)] if base else None)
        # the target: the proved tight bound r(3 lg n - 2) where it applies, else the greedy baseline
        tb = f.get("tight_bound")
        row["target"] = tb if tb is not None else row["baseline"]
        row["target_met"] = bool(row["optimal"]) or (row["target"] is not None and cert.mistakes >= row["target"])
    row["tightness"] = _tightness(cell, row, seq, cert)
    row["tight"] = row["tightness"] != "open"
    # a search stopped by its budget short of its target is not "ok": it depends on the machine
    row["ok"] = bool(cert.ok and (not exhausted or row["target_met"]))
    row["status"] = "rejected" if not cert.ok else ("budget" if not row["ok"] else "ok")
    return row


def _tightness(cell: Cell, row: dict, seq: Sequence, cert) -> str:
    """How the row is shown tight: "ratio" (certified ratio >= 99/100), "optimum (...)" (no sequence
    of this size can do better, and how that is proved), or "open"."""
    if not cert.ok:
        return "open"
    if isinstance(cert.ratio, Fraction) and cert.ratio >= TIGHT_RATIO:
        return "ratio"
    if cell.algorithm == "perceptron":
        ub = row.get("real_optimum_upper_bound")
        if ub is not None and cert.mistakes >= ub:
            return "optimum (interval bound, real x)"
        ubq = row.get("rational_optimum_upper_bound")
        if ubq is not None and cert.mistakes >= ubq:
            return "optimum (interval bound, rational x)"
        return "open"
    if row.get("optimal"):
        return f"optimum ({seq.meta.get('optimality_proof') or 'proved'})"
    if row.get("tight_bound") is not None and cert.mistakes == row["tight_bound"]:
        return f"optimum ({cert.figures.get('tight_theorem')})"
    return "open"


def run_table(out_dir, *, budget: float = 30.0, seed: int = 0, which: str = "all", on_start=None, on_done=None,
              progress_factory=None) -> dict:
    os.makedirs(out_dir, exist_ok=True)
    rows = []
    t0 = time.process_time()
    for cell in grid(which):
        if on_start:
            on_start(cell)
        prog = progress_factory(cell) if progress_factory else None
        row = run_cell(cell, out_dir, budget=budget, seed=seed, progress=prog)
        rows.append(row)
        if on_done:
            on_done(cell, row)
    total = time.process_time() - t0
    return {"rows": rows, "seconds_total": round(total, 3), "budget_per_cell": budget, "out_dir": out_dir}


def fmt(v, digits: int = 4) -> str:
    """A figure for the printed table: integers as they are, short fractions as p/q, anything longer
    (a rational with a long denominator, a float) as a decimal prefixed by ~ (the exact value is in
    --json and table.json)."""
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, Fraction):
        if v.denominator == 1:
            return str(v.numerator)
        if len(str(v)) <= 9:
            return f"{v.numerator}/{v.denominator}"
        return f"~{float(v):.{digits + 2}g}"
    if isinstance(v, float):
        return f"~{v:.{digits + 2}g}"
    return str(v)


def ratio_str(v) -> str:
    """A ratio as a decimal with four places (0.9949), "1" when it is exactly 1."""
    if v is None:
        return "-"
    if isinstance(v, (int, Fraction)) and v == 1:
        return "1"
    return f"{float(v):.4f}"


def tight_str(row) -> str:
    t = row.get("tightness", "open")
    return ">=0.99" if t == "ratio" else t


def table_lines(rows) -> list[str]:
    """The table as text: one block per family (perceptron, Winnow, the online-learning unit's rows);
    ratios as decimals, the tightness certificate of every row in the ``tight`` column."""
    out = []
    pr = [r for r in rows if r["algorithm"] == "perceptron"]
    wr = [r for r in rows if r["algorithm"] == "winnow"]
    if pr:
        out.append(f"{'gamma':>6} {'d':>4} {'strategy':<18} {'mistakes':>8} {'1/g^2':>6} {'cert. bound':>14} "
                   f"{'ratio':>7} {'target':>13} {'tight':<34} {'status':>8} {'cpu s':>6}")
        for r in pr:
            out.append(f"{fmt(r['gamma']):>6} {r['d']:>4} {str(r['strategy']):<18} {r['mistakes']:>8} "
                       f"{fmt(r['nominal_bound']):>6} {fmt(r['bound'], 8):>14} {ratio_str(r['ratio']):>7} "
                       f"{fmt(r.get('target')):>13} {tight_str(r):<34} {r['status']:>8} {r['seconds']:>6.2f}")
    if wr:
        if pr:
            out.append("")
        out.append(f"{'variant':<10} {'n':>5} {'r':>2} {'mistakes':>8} {'bound':>6} {'ratio':>7} {'sharper':>7} "
                   f"{'ratio':>7} {'tight':>6} {'ratio':>7} {'baseline':>8} {'target':>6} {'tightness':<36} "
                   f"{'status':>8} {'cpu s':>6}")
        for r in wr:
            out.append(f"{r['variant']:<10} {r['n']:>5} {r['r']:>2} {r['mistakes']:>8} {fmt(r['bound']):>6} "
                       f"{ratio_str(r['ratio']):>7} {fmt(r['sharper_bound']):>7} {ratio_str(r['ratio_sharper']):>7} "
                       f"{fmt(r.get('tight_bound')):>6} {ratio_str(r.get('ratio_tight')):>7} {fmt(r['baseline']):>8} "
                       f"{fmt(r.get('target')):>6} {tight_str(r):<36} {r['status']:>8} {r['seconds']:>6.2f}")
    ur = [r for r in rows if r["algorithm"] not in ("perceptron", "winnow")]
    if ur:
        if pr or wr:
            out.append("")
        out.append(f"{'cell':<32} {'mistakes':>9} {'bound':>9} {'ratio':>7} {'kind':>12} {'tight':<16} {'cpu s':>6}")
        for r in ur:
            out.append(f"{r['cell']:<32} {fmt(r['mistakes']):>9} {fmt(r['bound'], 6):>9} {ratio_str(r['ratio']):>7} "
                       f"{r['strategy']:>12} {tight_str(r):<16} {r['seconds']:>6.2f}")
    return out
