"""DOT text for the drawing model (``viz.draw_graph(...).source``).

Edges point the way the gradient travels in backward: from the root (the loss) to the leaves,
like PyTorch's ``grad_fn.next_functions``. Each box starts with its name, ``n<k>`` (the node
backward runs at step k, 1-based), which is also its DOT id, so the text is deterministic and the
stepper's panel ("step 3/5: n3 MulBackward0") names what the drawing shows.
"""

from __future__ import annotations

STYLE = {
    "leaf": 'shape=box, style="rounded,filled", fillcolor="#dbeafe"',
    "op": 'shape=ellipse, style=filled, fillcolor="#f3f4f6"',
    "summary": 'shape=box, style="dashed,filled", fillcolor="#fefce8"',
}
SPARSE = 'color="#ea580c", penwidth=2'
SPARSE_FILL = '"#ffedd5"'
EDGE = {"masked": 'color="#ea580c", style=dashed', "full": 'color="#2563eb", penwidth=2'}
# The edge from each op to its deepest child pulls harder than its other edges, so the longest
# chain of the graph is drawn as a straight spine with the rest hanging off it; left to dot's
# default weights, a chain with a leaf at every step drifts sideways by a box per step (a
# 12-box MLP came out 1,492 px wide, 815 px with the spine).
SPINE = "weight=8"
NOTE = "shape=note, fontsize=9"


def quote(text: str) -> str:
    """A DOT double-quoted string (lines joined with ``\\n``)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _style(kind: str, sparse: bool) -> str:
    """Node attributes: shape by kind; sparse tensors get an orange border and fill."""
    if not sparse:
        return STYLE[kind]
    return STYLE[kind].rsplit("fillcolor=", 1)[0] + f"fillcolor={SPARSE_FILL}, {SPARSE}"


def _node_line(v) -> str:
    attrs = _style(v.kind, v.sparse)
    if v.root:
        attrs += ", peripheries=2"
    lines = v.lines if v.kind == "summary" else [f"{v.key} {v.lines[0]}", *v.lines[1:]]
    return f"  {v.key} [label={quote(chr(10).join(lines))}, {attrs}];"


def spine_edges(vnodes) -> set:
    """``(parent, child)`` for each node's child with the longest path below it (the first
    such child on a tie). ``vnodes`` are in topological order (parents first)."""
    height, spine = {}, set()
    for v in reversed(vnodes):
        below = [(height.get(child, 0), -k, child) for k, (child, _) in enumerate(v.children)]
        if below:
            tallest, _, child = max(below)
            height[v.key] = tallest + 1
            spine.add((v.key, child))
    return spine


def _edge_line(src: str, dst: str, label, spine: bool = False) -> str:
    """One edge: its label and style (masked/full), and ``SPINE`` weight on the spine."""
    attrs = [f"label={quote(label)}", EDGE.get(label, "")] if label is not None else []
    attrs = [a for a in attrs if a] + ([SPINE] if spine else [])
    return f"  {src} -> {dst} [{', '.join(attrs)}];" if attrs else f"  {src} -> {dst};"


def _swatch(text: str, kind: str, sparse: bool = False) -> str:
    """One legend cell, filled and bordered like the boxes it explains."""
    fill = SPARSE_FILL if sparse else STYLE[kind].split("fillcolor=")[1].split(",")[0]
    border = ' COLOR="#ea580c"' if sparse else ""
    return f"<TD BGCOLOR={fill}{border}>{text}</TD>"


def legend(vnodes, rankdir: str = "TB") -> list:
    """A key listing only what the drawing uses: one row below the graph (TB/BT), one column
    beside it (LR/RL), so it adds little to the drawing's width.

    It is a single node on the last rank (``rank=sink``), so it can never sit on top of a box
    of the graph, whatever the layout.
    """
    kinds = {v.kind for v in vnodes}
    labels = {label for v in vnodes for _, label in v.children}
    cells = [_swatch("leaf tensor", "leaf"), _swatch("grad_fn (op)", "op")]
    if any(v.sparse for v in vnodes):
        cells.append(_swatch("sparse", "leaf", sparse=True))
    if "summary" in kinds:
        cells.append(_swatch("collapsed nodes", "summary"))
    if "masked" in labels:
        cells.append(
            '<TD BORDER="0"><FONT COLOR="#ea580c">- - - &#8594; masked gradient</FONT></TD>'
        )
    if "full" in labels:
        cells.append(
            '<TD BORDER="0"><FONT COLOR="#2563eb">&#8212;&#8212; &#8594; full gradient</FONT></TD>'
        )
    return legend_node(cells, "edges: the way gradients travel", rankdir, deepest(vnodes))


def deepest(nodes) -> list:
    """Keys of the nodes farthest from the roots (longest path), in order: the ones dot puts
    on the last rank but the legend's. ``nodes`` are in topological order (parents first)."""
    depth = {}
    for v in nodes:
        d = depth.setdefault(v.key, 0)
        for child, _ in v.children:
            depth[child] = max(depth.get(child, 0), d + 1)
    most = max(depth.values(), default=0)
    return [v.key for v in nodes if depth[v.key] == most]


def legend_node(cells: list, edges: str, rankdir: str = "TB", anchors=()) -> list:
    """The DOT lines of a legend: "legend", the ``cells`` (HTML table cells), a grey note on
    what the edges mean. A single node that never sits on top of a box, placed where it adds
    least to the drawing's width:

    * TB/BT: one row, alone on the last rank (``rank=sink``), below the graph; invisible edges
      from the ``anchors`` (the deepest nodes) pull it under them rather than to one side;
    * LR/RL: one column, on the last rank (``rank=max``) after the deepest nodes (invisible
      edges of length 0 from them order it after them), so it adds height, not width.
    """
    note = f'<TD BORDER="0"><FONT COLOR="#6b7280">{edges}</FONT></TD>'
    cells = ['<TD BORDER="0"><B>legend</B></TD>', *cells, note]
    across = rankdir in ("TB", "BT")
    rows = [cells] if across else [[c] for c in cells]
    table = (
        '<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="6" CELLPADDING="3">'
        + "".join(f"<TR>{''.join(row)}</TR>" for row in rows)
        + "</TABLE>"
    )
    invisible = "style=invis" if across else "style=invis, minlen=0"
    return [
        f"  legend [shape=plaintext, fontsize=9, label=<{table}>];",
        *(f"  {key} -> legend [{invisible}];" for key in anchors),
        "  { rank=sink; legend; }" if across else "  { rank=max; legend; }",
    ]


def header(name: str, rankdir: str, size: str | None = None) -> list:
    """The opening lines of a drawing: the graph's name, its direction (and the ``size`` it is
    shrunk to, in inches, when given) and the fonts."""
    scaled = f', size="{size}"' if size else ""
    return [
        f"digraph {name} {{",
        f"  graph [rankdir={rankdir}{scaled}, fontname=Helvetica];",
        "  node [fontname=Helvetica, fontsize=11];",
        "  edge [fontname=Helvetica, fontsize=9];",
    ]


def to_dot(vnodes, *, rankdir: str = "TB", size: str | None = None) -> str:
    """The whole DOT graph: settings, nodes in id order (each op with a note of what it saved,
    when asked), edges, legend."""
    out = header("minigrad", rankdir, size)
    for v in vnodes:
        out.append(_node_line(v))
        if v.notes:  # one note per op, a line per saved tensor: narrower than a note each
            out.append(f"  {v.key}_saved [label={quote(chr(10).join(v.notes))}, {NOTE}];")
            out.append(f"  {v.key} -> {v.key}_saved [style=dotted, arrowhead=none];")
    spine = spine_edges(vnodes)
    for v in vnodes:
        out.extend(_edge_line(v.key, d, label, (v.key, d) in spine) for d, label in v.children)
    out.extend(legend(vnodes, rankdir))
    out.append("}")
    return "\n".join(out) + "\n"
