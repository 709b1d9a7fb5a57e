"""DOT text for the drawing model (``viz.draw_graph(...).source``).

Edges point the way the gradient travels in backward: from the root (the loss) to the leaves,
like PyTorch's ``grad_fn.next_functions``. Each box starts with its name, ``n<k>`` (the node
backward runs at step k, 1-based), which is also its DOT id, so the text is deterministic and the
stepper's panel ("step 3/5: n3 MulBackward") names what the drawing shows.
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


def _edge_line(src: str, dst: str, label) -> str:
    if label is None:
        return f"  {src} -> {dst};"
    return f"  {src} -> {dst} [label={quote(label)}, {EDGE.get(label, '')}];".replace(", ]", "]")


def _swatch(text: str, kind: str, sparse: bool = False) -> str:
    """One legend cell, filled and bordered like the boxes it explains."""
    fill = SPARSE_FILL if sparse else STYLE[kind].split("fillcolor=")[1].split(",")[0]
    border = ' COLOR="#ea580c"' if sparse else ""
    return f"<TD BGCOLOR={fill}{border}>{text}</TD>"


def legend(vnodes) -> list:
    """A one-row key below the graph (beside it for LR/RL), listing only what the drawing uses.

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
    return legend_node(cells, "edges: the way gradients travel")


def legend_node(cells: list, edges: str) -> list:
    """The DOT lines of a one-row legend: "legend", the ``cells`` (HTML table cells), a grey
    note on what the edges mean; a single node on the last rank (``rank=sink``), so it never
    sits on top of a box of the graph."""
    note = f'<TD BORDER="0"><FONT COLOR="#6b7280">{edges}</FONT></TD>'
    table = (
        '<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="6" CELLPADDING="3">'
        f'<TR><TD BORDER="0"><B>legend</B></TD>{"".join(cells)}{note}</TR></TABLE>'
    )
    return [
        f"  legend [shape=plaintext, fontsize=9, label=<{table}>];",
        "  { rank=sink; legend; }",
    ]


def header(name: str, rankdir: str) -> list:
    """The opening lines of a drawing: the graph's name, its direction and the fonts."""
    return [
        f"digraph {name} {{",
        f"  graph [rankdir={rankdir}, fontname=Helvetica];",
        "  node [fontname=Helvetica, fontsize=11];",
        "  edge [fontname=Helvetica, fontsize=9];",
    ]


def to_dot(vnodes, *, rankdir: str = "TB") -> str:
    """The whole DOT graph: settings, nodes in id order, saved-tensor notes, edges, legend."""
    out = header("minigrad", rankdir)
    for v in vnodes:
        out.append(_node_line(v))
        for k, note in enumerate(v.notes):
            out.append(f"  {v.key}_s{k} [label={quote(note)}, shape=note, fontsize=9];")
            out.append(f"  {v.key} -> {v.key}_s{k} [style=dotted, arrowhead=none];")
    for v in vnodes:
        out.extend(_edge_line(v.key, dst, label) for dst, label in v.children)
    out.extend(legend(vnodes))
    out.append("}")
    return "\n".join(out) + "\n"
