"""Worst-case sequences next to the bounds they approach, for the entries that have them.

Each family is built by a deterministic construction of ``adversary`` (no time budget, no random
seed: the same figures on every run) and replayed exactly by ``adversary.certify``; the bound is
the theorem's, evaluated exactly at the certified quantities of the sequence (for the perceptron
its certified margin, never the nominal one).  ``chart_svg`` draws certified mistakes against the
bound as a self-contained SVG (no script, no font from the network).
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from html import escape

__all__ = ["worst_cases", "chart_svg", "FAMILIES"]


def _orthonormal_rows():
    from adversary.certify import certify
    from adversary.perceptron_separable import orthonormal
    out = []
    for den in (2, 3, 4, 5, 6):
        g = Fraction(1, den)
        seq = orthonormal(g, den * den)
        c = certify(seq)
        f = c.figures
        out.append((f"gamma = {g}", seq, c, f["r_sq"] * f["target_norm_sq"] / f["min_margin"] ** 2))
    return out


def _plane_rows():
    from adversary.certify import certify
    from adversary.perceptron_2d import sequence_2d
    out = []
    for den in (2, 3, 4, 5, 6, 8):
        seq = sequence_2d(Fraction(1, den), unit=True)
        c = certify(seq)
        m = c.figures["min_margin"]            # unit examples, unit target: the certified margin
        out.append((f"gamma = 1/{den}", seq, c, 1 + 1 / (2 * m * m)))
    return out


def _winnow_rows(variant: str, bound):
    from adversary.certify import certify
    from adversary.winnow_search import exhaustive_winnow
    out = []
    for n in (2, 4, 8, 16):
        for r in (1, 2):
            seq = exhaustive_winnow(n, r, variant)         # the exact maximum (no budget)
            c = certify(seq)
            lg = n.bit_length() - 1
            out.append((f"n = {n}, r = {r}", seq, c, Fraction(bound(lg, r))))
    return out


# theorem id -> (construction, what the bound is, rows)
FAMILIES = {
    "block_novikoff_unit": ("orthonormal examples e_1..e_K, K = 1/gamma^2, labels against the learner's "
                            "prediction (adversary.perceptron_separable.orthonormal)", "1/gamma^2 = R^2 |w*|^2 / margin^2",
                            _orthonormal_rows),
    "block_novikoff_margin_one": ("orthonormal examples e_1..e_K, target sum e_i (margin 1) "
                                  "(adversary.perceptron_separable.orthonormal)", "R^2 |w*|^2", _orthonormal_rows),
    "perceptron_2d_half_bound": ("unit examples in the plane planned by dynamic programming "
                                 "(adversary.perceptron_2d.sequence_2d, unit length)",
                                 "1 + 1/(2 gamma^2) at the certified margin", _plane_rows),
    "winnow_halving_pow2_tight": ("the exact maximum over all sequences, by exhaustive search "
                                  "(adversary.winnow_search.exhaustive_winnow, halving)", "r(3 lg n - 2)",
                                  lambda: _winnow_rows("halve", lambda lg, r: r * (3 * lg - 2))),
    "winnow_halving_pow2": ("the exact maximum over all sequences (adversary.winnow_search.exhaustive_winnow, halving)",
                            "1 + r(3 lg n - 2)", lambda: _winnow_rows("halve", lambda lg, r: 1 + r * (3 * lg - 2))),
    "winnow_elimination_pow2": ("the exact maximum over all sequences (adversary.winnow_search.exhaustive_winnow, "
                                "elimination)", "r(2 lg n - 1)",
                                lambda: _winnow_rows("eliminate", lambda lg, r: r * (2 * lg - 1))),
}


def _scrub(meta):
    """A sequence's meta data without anything that depends on the machine (times)."""
    if isinstance(meta, dict):
        return {k: _scrub(v) for k, v in sorted(meta.items())
                if "second" not in k and "time" not in k and k not in ("states",)}
    if isinstance(meta, list):
        return [_scrub(v) for v in meta]
    return meta


@lru_cache(maxsize=None)
def worst_cases(theorem_id: str) -> dict | None:
    """The worst-case figures for an entry, or None when it has none."""
    fam = FAMILIES.get(theorem_id)
    if fam is None:
        return None
    how, bound_text, rows_fn = fam
    rows = rows_fn()
    out_rows = []
    for label, seq, cert, bound in rows:
        out_rows.append({"instance": label, "mistakes": cert.mistakes, "bound": bound, "ok": bool(cert.ok),
                         "within": Fraction(cert.mistakes) <= bound,
                         "ratio": Fraction(cert.mistakes) / bound if bound else None})
    label, seq, cert, bound = max(rows, key=lambda t: (Fraction(t[2].mistakes) / t[3] if t[3] else 0, t[2].mistakes))
    d = seq.to_dict()
    d["meta"] = _scrub(d.get("meta", {}))
    d["claims"] = {"mistakes": cert.mistakes}
    return {"construction": how, "bound": bound_text, "rows": out_rows, "best": label,
            "sequence": d, "examples": [[float(v) for v in x] for x in seq.examples][:24],
            "labels": list(seq.labels)[:24], "n_examples": len(seq.examples)}


# --------------------------------------------------------------------------- the chart
def _ticks(hi: float) -> list:
    step = 1
    for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500):
        step = s
        if hi / s <= 8:
            break
    return [k * step for k in range(int(hi // step) + 1)]


def chart_svg(w: dict, title: str) -> str:
    """Certified mistakes (points) against the bound (the diagonal: a point on it attains the bound)."""
    W, H, L, B, T, R = 460, 320, 52, 44, 26, 16
    rows = w["rows"]
    hi = float(max(max(float(r["bound"]), r["mistakes"]) for r in rows)) * 1.08 + 0.5
    sx = lambda v: L + (W - L - R) * float(v) / hi  # noqa: E731
    sy = lambda v: H - B - (H - B - T) * float(v) / hi  # noqa: E731
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {W} {H}" width="{W}" height="{H}" '
         f'role="img" aria-label="{escape(title, quote=True)}">',
         f'<rect x="{L}" y="{T}" width="{W - L - R}" height="{H - B - T}" fill="#fbfbfd" stroke="#c9ccd6"/>']
    for t in _ticks(hi):
        o.append(f'<line x1="{sx(t):.1f}" y1="{H - B}" x2="{sx(t):.1f}" y2="{T}" stroke="#eceef3"/>')
        o.append(f'<line x1="{L}" y1="{sy(t):.1f}" x2="{W - R}" y2="{sy(t):.1f}" stroke="#eceef3"/>')
        o.append(f'<text x="{sx(t):.1f}" y="{H - B + 15}" text-anchor="middle" class="tick">{t}</text>')
        o.append(f'<text x="{L - 6}" y="{sy(t) + 4:.1f}" text-anchor="end" class="tick">{t}</text>')
    o.append(f'<line x1="{sx(0):.1f}" y1="{sy(0):.1f}" x2="{sx(hi):.1f}" y2="{sy(hi):.1f}" stroke="#555" '
             f'stroke-dasharray="5 4"/>')
    o.append(f'<text x="{sx(hi * 0.62):.1f}" y="{sy(hi * 0.62) - 8:.1f}" class="note" '
             f'transform="rotate(-{_angle(W - L - R, H - B - T):.1f} {sx(hi * 0.62):.1f} {sy(hi * 0.62) - 8:.1f})">'
             f'mistakes = bound</text>')
    for r in rows:
        x, y = sx(r["bound"]), sy(r["mistakes"])
        tip = escape(f'{r["instance"]}: {r["mistakes"]} mistakes, bound {_num(r["bound"])}', quote=True)
        o.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4.5" class="pt"><title>{tip}</title></circle>')
    o.append(f'<text x="{(L + W - R) / 2:.1f}" y="{H - 8}" text-anchor="middle" class="axis">bound '
             f'{escape(w["bound"])}</text>')
    o.append(f'<text x="14" y="{(T + H - B) / 2:.1f}" text-anchor="middle" class="axis" '
             f'transform="rotate(-90 14 {(T + H - B) / 2:.1f})">certified mistakes (exact replay)</text>')
    o.append("</svg>")
    return "".join(o)


def _angle(w, h) -> float:
    import math
    return math.degrees(math.atan2(h, w))


def _num(v) -> str:
    if isinstance(v, Fraction):
        if v.denominator == 1:
            return str(v.numerator)
        if len(str(v)) <= 9:
            return str(v)
        return f"{float(v):.6g}"
    return str(v)
