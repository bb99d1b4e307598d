"""Pictures (matplotlib, Agg backend): mistakes against the bound for a table, and in the plane
the sequence with the weight vector's path."""
from __future__ import annotations

import os
from fractions import Fraction

__all__ = ["plot_mistakes_vs_bound", "plot_plane", "family", "family_styles", "FAMILY_STYLES"]


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _save(fig, path):
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    tmp = os.path.join(d, ".tmp-" + os.path.basename(path))
    fig.savefig(tmp, dpi=110, format="png")
    os.replace(tmp, path)


# one (marker, colour) per family; families not listed take the next unused pair of FALLBACK
FAMILY_STYLES = {
    "perceptron": ("o", "tab:blue"), "halve": ("s", "tab:orange"), "eliminate": ("^", "tab:green"),
    "halving": ("D", "tab:red"), "weighted_majority": ("v", "tab:purple"),
    "randomized_weighted_majority": ("<", "tab:brown"), "passive_aggressive": ("P", "tab:pink"),
    "freund_schapire": ("X", "tab:olive"), "lower_bound": ("*", "tab:cyan"),
}
FALLBACK = [(">", "tab:gray"), ("p", "darkblue"), ("h", "darkred"), ("8", "darkgreen"), ("d", "gold"),
            ("H", "teal"), ("1", "indigo"), ("2", "sienna"), ("3", "crimson"), ("4", "navy")]


def family(row) -> str:
    """The family a row is drawn as: the algorithm, or for Winnow its variant."""
    return row.get("variant", "winnow") if row["algorithm"] == "winnow" else row["algorithm"]


def family_styles(rows) -> dict:
    """family -> (marker, colour), distinct for every family present (known ones keep theirs)."""
    out, used = {}, set()
    fams = []
    for r in rows:
        f = family(r)
        if f not in fams:
            fams.append(f)
    for f in fams:
        if f in FAMILY_STYLES:
            out[f] = FAMILY_STYLES[f]
            used.add(FAMILY_STYLES[f])
    spare = [s for s in list(FAMILY_STYLES.values()) + FALLBACK if s not in used]
    for f in fams:
        if f not in out:
            out[f] = spare.pop(0) if spare else ("x", "k")
    return out


def plot_mistakes_vs_bound(rows, path) -> str:
    """Log-log scatter of certified mistakes against the certified bound, one marker and colour per
    family, with a legend."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8, 6))
    styles = family_styles(rows)
    pts = {}
    lo, hi = 1.0, 1.0
    for r in rows:
        if r.get("bound") is None:
            continue
        b = float(r["bound"])
        M = max(float(r["mistakes"]), 0.8)
        pts.setdefault(family(r), []).append((b, M))
        lo, hi = min(lo, b, M), max(hi, b, M)
    for fam, xy in pts.items():
        m, c = styles[fam]
        ax.scatter([p[0] for p in xy], [p[1] for p in xy], marker=m, color=c, label=fam.replace("_", " "),
                   alpha=0.85, s=46)
    ax.plot([lo, hi], [lo, hi], "k--", lw=1, label="mistakes = bound")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("certified bound (R^2|w*|^2; Winnow: 2+3r(1+lg n) / 1+2r(1+lg n); the unit's theorems)")
    ax.set_ylabel("certified mistakes (exact replay; RWM: expected)")
    ax.set_title("Worst-case sequences: mistakes against the bound")
    ax.legend(loc="upper left", fontsize=8)
    ax.grid(True, which="both", alpha=0.3)
    _save(fig, path)
    plt.close(fig)
    return path


def plot_plane(seq, path, trace=None) -> str:
    """2-D: the examples y*x (all on the positive side of w*), the weight path w_0, w_1, ..."""
    plt = _plt()
    if seq.dim != 2:
        raise ValueError("plot_plane needs a 2-D sequence")
    if trace is None or not trace.steps:
        from learners import run_perceptron
        trace = run_perceptron(seq.examples, seq.labels, epochs=seq.epochs, bias=seq.bias, exact=True, record="all")
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 5.5))
    xs = [[float(v) for v in x] for x in seq.examples]
    pos = [x for x, y in zip(xs, seq.labels) if y > 0]
    neg = [x for x, y in zip(xs, seq.labels) if y < 0]
    if pos:
        ax1.scatter(*zip(*pos), c="tab:blue", s=14, label="+1")
    if neg:
        ax1.scatter(*zip(*neg), c="tab:red", s=14, label="-1")
    for k, x in enumerate(xs[:40]):
        ax1.annotate(str(k), x, fontsize=6, alpha=0.6)
    import numpy as np
    th = np.linspace(0, 2 * np.pi, 200)
    ax1.plot(np.cos(th), np.sin(th), color="0.8", lw=0.8)
    if seq.target is not None:
        t = np.array([float(v) for v in seq.target])
        t = t / np.linalg.norm(t)
        ax1.arrow(0, 0, t[0], t[1], color="k", width=0.005, length_includes_head=True)
        ax1.plot([-t[1] * 1.1, t[1] * 1.1], [t[0] * 1.1, -t[0] * 1.1], "k:", lw=0.8, label="w*-perp")
    ax1.set_aspect("equal")
    ax1.set_title(f"examples ({len(xs)}), w* = arrow")
    ax1.legend(fontsize=8)
    W = [tuple(float(v) for v in trace.initial_weights)] + [tuple(float(v) for v in s.weights) for s in trace.steps]
    W = np.array(W)
    ax2.plot(W[:, 0], W[:, 1], "-o", ms=2, lw=0.8, color="tab:purple")
    ax2.scatter([0], [0], c="k", s=10)
    ax2.set_title(f"weight path w_t ({trace.mistakes} mistakes)")
    ax2.set_xlabel("w . w*-direction" if seq.target is not None else "w_1")
    ax2.grid(True, alpha=0.3)
    _save(fig, path)
    plt.close(fig)
    return path
