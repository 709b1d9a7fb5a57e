"""DOT text for the drawing model (``viz.draw_graph(...).source``).

Edges point the way the gradient travels in backward: from the root (the loss) to the leaves,
like PyTorch's ``grad_fn.next_functions``. Ids are ``n<trace id>``, so the text is deterministic.
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
    return f"  {v.key} [label={quote(chr(10).join(v.lines))}, {attrs}];"


def _edge_line(src: str, dst: str, label) -> str:
    if label is None:
        return f"  {src} -> {dst};"
    return f"  {src} -> {dst} [label={quote(label)}, {EDGE.get(label, '')}];".replace(", ]", "]")


def legend() -> list:
    """A small boxed key: leaf, op, sparse, masked vs full gradient edges."""
    return [
        "  subgraph cluster_legend {",
        '    label="legend"; fontsize=10; style=dashed; color="#9ca3af";',
        f'    legend_leaf [label="leaf tensor", {STYLE["leaf"]}];',
        f'    legend_op [label="grad_fn (op)", {STYLE["op"]}];',
        f'    legend_sparse [label="sparse", {_style("leaf", True)}];',
        '    legend_a [label="", shape=point]; legend_b [label="", shape=point];',
        '    legend_c [label="", shape=point]; legend_d [label="", shape=point];',
        f'    legend_a -> legend_b [label="masked", {EDGE["masked"]}];',
        f'    legend_c -> legend_d [label="full", {EDGE["full"]}];',
        "  }",
    ]


def to_dot(vnodes, *, rankdir: str = "TB") -> str:
    """The whole DOT graph: settings, nodes in id order, saved-tensor notes, edges, legend."""
    out = [
        "digraph minigrad {",
        f"  graph [rankdir={rankdir}, fontname=Helvetica];",
        "  node [fontname=Helvetica, fontsize=11];",
        "  edge [fontname=Helvetica, fontsize=9];",
    ]
    for v in vnodes:
        out.append(_node_line(v))
        for k, note in enumerate(v.notes):
            out.append(f"  {v.key}_s{k} [label={quote(note)}, shape=note, fontsize=9];")
            out.append(f"  {v.key} -> {v.key}_s{k} [style=dotted, arrowhead=none];")
    for v in vnodes:
        out.extend(_edge_line(v.key, dst, label) for dst, label in v.children)
    out.extend(legend())
    out.append("}")
    return "\n".join(out) + "\n"
