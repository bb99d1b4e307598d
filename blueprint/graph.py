"""A proof as a graph of steps, drawn as a self-contained SVG (layered, top to bottom: what a step
uses above it, the conclusion at the bottom), in the manner of the Lean blueprints' dependency
graphs.  The layout is computed here (longest-path layers, barycentre ordering), deterministic and
without Graphviz; every node links to its step, hypothesis, rule or lemma page.
"""
from __future__ import annotations

from html import escape

__all__ = ["proof_graph", "graph_svg", "layout_svg", "node_id"]

CHAR_W, FONT, BOX_H, GAP_X, GAP_Y, PAD, MAX_W = 7.0, 11.5, 24, 14, 40, 8, 1000


def node_id(kind: str, name: str) -> str:
    return f"{kind}:{name}"


def proof_graph(entry) -> tuple[list, list]:
    """(nodes, edges) of an entry's proof: nodes ``(key, kind, name)``, in proof order; edges
    ``(from key, to key)``: a step (or the conclusion) uses what points into it."""
    nodes, edges, seen = [], [], set()

    def add(kind, name):
        k = node_id(kind, name)
        if k not in seen:
            seen.add(k)
            nodes.append((k, kind, name))
        return k

    for s in entry.steps:
        for f in s.facts:
            for kind, name in f.origins:
                add(kind, name)
        me = add("step", s.id)
        for f in s.facts:
            for kind, name in f.origins:
                e = (node_id(kind, name), me)
                if e not in edges:
                    edges.append(e)
    if entry.conclusion_from:
        for kind, name in entry.conclusion_from:
            add(kind, name)
        c = add("concl", "conclusion")
        for kind, name in entry.conclusion_from:
            edges.append((node_id(kind, name), c))
    return nodes, edges


def _layers(nodes, edges) -> dict:
    """Longest-path layers (a node below everything it uses); a node that uses nothing sits just
    above its first user."""
    preds: dict = {k: [] for k, _, _ in nodes}
    succs: dict = {k: [] for k, _, _ in nodes}
    for a, b in edges:
        preds[b].append(a)
        succs[a].append(b)
    layer: dict = {}
    todo = [k for k, _, _ in nodes]
    while todo:
        rest = []
        for k in todo:
            if all(p in layer for p in preds[k]):
                layer[k] = 1 + max([layer[p] for p in preds[k]] or [-1])
            else:
                rest.append(k)
        if len(rest) == len(todo):           # a cycle cannot come from the kernel; place the rest last
            top = max(layer.values(), default=-1) + 1
            layer.update({k: top for k in rest})
            break
        todo = rest
    for k, _, _ in nodes:
        if not preds[k] and succs[k]:
            layer[k] = max(0, min(layer[s] for s in succs[k]) - 1)
    return layer


def _label(kind, name) -> str:
    return {"hyp": f"hyp {name}", "lemma": f"lemma {name}", "rule": f"rule {name}", "concl": "conclusion"}.get(kind, name)


def graph_svg(entry, href, status_of) -> str:
    """The SVG of an entry's proof.  ``href(kind, name)`` gives a node's link; ``status_of(kind, name)``
    its CSS class."""
    nodes, edges = proof_graph(entry)
    return layout_svg(nodes, edges, href, status_of, f"proof graph of {entry.id}")


def layout_svg(nodes, edges, href, status_of, aria: str, label=None) -> str:
    """Any small DAG ``(key, kind, name)`` / ``(from, to)`` laid out in layers, as an SVG."""
    label = label or _label
    if not nodes:
        return ""
    layer = _layers(nodes, edges)
    depth = max(layer.values()) + 1
    rows: list = [[] for _ in range(depth)]
    for k, _, _ in nodes:
        rows[layer[k]].append(k)
    info = {k: (kind, name) for k, kind, name in nodes}
    width = {k: max(60, len(label(*info[k])) * CHAR_W + 2 * PAD) for k in info}
    preds: dict = {k: [] for k in info}
    succs: dict = {k: [] for k in info}
    for a, b in edges:
        preds[b].append(a)
        succs[a].append(b)
    pos: dict = {}

    def place():
        for row in rows:
            x = 0.0
            for k in row:
                pos[k] = x + width[k] / 2
                x += width[k] + GAP_X

    place()
    for sweep in range(6):                         # barycentre ordering, down then up
        order = range(1, depth) if sweep % 2 == 0 else range(depth - 2, -1, -1)
        for i in order:
            nb = preds if sweep % 2 == 0 else succs
            idx = {k: j for j, k in enumerate(rows[i])}
            rows[i].sort(key=lambda k: (sum(pos[p] for p in nb[k]) / len(nb[k]) if nb[k] else pos[k], idx[k]))
            place()
    vis: list = []                                 # a wide layer wraps onto several rows
    for row in rows:
        cur, w = [], 0.0
        for k in row:
            if cur and w + width[k] > MAX_W:
                vis.append(cur)
                cur, w = [], 0.0
            cur.append(k)
            w += width[k] + GAP_X
        vis.append(cur)
    rows = vis
    vrow = {k: i for i, row in enumerate(rows) for k in row}
    depth = len(rows)
    place()
    row_w = [sum(width[k] for k in row) + GAP_X * (len(row) - 1) for row in rows]
    total = max(row_w)
    for i, row in enumerate(rows):                 # centre every row
        off = (total - row_w[i]) / 2
        for k in row:
            pos[k] += off
    M = 10
    W, H = total + 2 * M, depth * BOX_H + (depth - 1) * GAP_Y + 2 * M
    y = lambda k: M + vrow[k] * (BOX_H + GAP_Y)  # noqa: E731
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" class="graph" viewBox="0 0 {W:.0f} {H:.0f}" '
         f'width="{W:.0f}" height="{H:.0f}" role="img" aria-label="{escape(aria, quote=True)}">',
         '<defs><marker id="arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" '
         'orient="auto-start-reverse"><path d="M0,0 L8,4 L0,8 z" fill="#8a8fa3"/></marker></defs>']
    for a, b in edges:
        x1, y1 = pos[a] + M, y(a) + BOX_H
        x2, y2 = pos[b] + M, y(b)
        cy = (y2 - y1) / 2
        o.append(f'<path d="M{x1:.1f},{y1:.1f} C{x1:.1f},{y1 + cy:.1f} {x2:.1f},{y2 - cy:.1f} {x2:.1f},{y2 - 1:.1f}" '
                 f'class="edge" marker-end="url(#arrow)"/>')
    for k, kind, name in nodes:
        x0, y0, w = pos[k] + M - width[k] / 2, y(k), width[k]
        lab = label(kind, name)
        o.append(f'<a href="{escape(href(kind, name), quote=True)}" class="node {status_of(kind, name)}">'
                 f'<title>{escape(lab)}</title>'
                 f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{w:.1f}" height="{BOX_H}" rx="{4 if kind == "step" else 11}"/>'
                 f'<text x="{x0 + w / 2:.1f}" y="{y0 + BOX_H / 2 + FONT / 3:.1f}" text-anchor="middle">'
                 f'{escape(lab)}</text></a>')
    o.append("</svg>")
    return "".join(o)
