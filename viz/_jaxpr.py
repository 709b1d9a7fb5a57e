"""Drawing a traced program (``minigrad.func.make_jaxpr(f)(x)``): equations as boxes, the
variables that flow between them as edges.

Edges point the way values flow, from the inputs (blue) and constants (yellow) through the
equations (grey, named ``e1``, ``e2``, ... in the order they run) to the outputs; each edge
is labelled with its variable and type (``c:f32[3]``), as the listing names it. A literal
operand (``2.0:f32[]``) is written in its equation's box. Everything comes from the
program's public fields (``jaxpr.invars``, ``eqns``, ``outvars``, ``debug_info``), so the DOT
text is as deterministic as the listing.
"""

from __future__ import annotations

from minigrad import func

from ._dot import deepest, header, legend_node, quote
from ._model import VNode

STYLE = {
    "leaf": 'shape=box, style="rounded,filled", fillcolor="#dbeafe"',
    "const": 'shape=box, style="rounded,filled", fillcolor="#fef9c3"',
    "op": 'shape=box, style=filled, fillcolor="#f3f4f6"',
    "out": 'shape=box, style="rounded,filled", fillcolor="#dcfce7", peripheries=2',
    "summary": 'shape=box, style="dashed,filled", fillcolor="#fefce8"',
}
LEGEND = (("input", "leaf"), ("constant", "const"), ("equation", "op"), ("output", "out"))


def vnodes(closed, max_nodes: int | None) -> list:
    """The boxes of the drawing: inputs, constants, equations (the middle ones collapsed into
    one box past ``max_nodes``), outputs; each with its outgoing edges."""
    jaxpr = closed.jaxpr
    names = jaxpr.debug_info.arg_names if jaxpr.debug_info else ()
    nodes, where = [], {}  # where: id(var) -> key of the box that defines it
    for k, v in enumerate(jaxpr.invars):
        label = [f"{v}:{v.aval.str_short()}", f"argument {names[k]}" if k < len(names) else "input"]
        nodes.append(VNode(v.name, "leaf", label))
        where[id(v)] = v.name
    for v in jaxpr.constvars:
        nodes.append(VNode(v.name, "const", [f"{v}:{v.aval.str_short()}", "constant"]))
        where[id(v)] = v.name
    eqns = list(enumerate(jaxpr.eqns, start=1))
    hidden = _collapsed(len(eqns), max_nodes)
    summary = None
    for k, eqn in eqns:
        if k in hidden:
            if summary is None:
                summary = VNode("more", "summary", [f"... {len(hidden)} equations ...", ""])
                nodes.append(summary)
            key = summary.key
        else:
            key = f"e{k}"
            nodes.append(VNode(key, "op", _eqn_label(eqn)))
        for o in eqn.outvars:
            where[id(o)] = key
    by_key = {n.key: n for n in nodes}
    for eqn_k, eqn in eqns:
        dst = "more" if eqn_k in hidden else f"e{eqn_k}"
        for v in eqn.invars:
            if isinstance(v, func.Var):
                _edge(by_key[where[id(v)]], dst, v)
    for k, v in enumerate(jaxpr.outvars):
        out = VNode(f"out{k}", "out", [f"output {k}", _atom(v)], root=True)
        nodes.append(out)
        if isinstance(v, func.Var):
            _edge(by_key[where[id(v)]], out.key, v)
    if summary is not None:
        summary.lines[1] = "(max_nodes: pass None to draw them all)"
    return nodes


def _collapsed(n: int, max_nodes: int | None) -> set:
    """The equations drawn as one box: the middle ones, when there are more than max_nodes."""
    if max_nodes is None or n <= max_nodes:
        return set()
    head = (max_nodes - 1) // 2
    tail = max_nodes - 1 - head
    return set(range(head + 1, n - tail + 1))


def _edge(src: VNode, dst: str, var) -> None:
    label = f"{var}:{var.aval.str_short()}"
    if src.key == dst == "more" or (dst, label) in src.children:
        return
    src.children.append((dst, label))


def _atom(v) -> str:
    return repr(v) if isinstance(v, func.Literal) else f"{v}:{v.aval.str_short()}"


def _eqn_label(eqn) -> list:
    """``mul_scalar[value=2.0]`` (the equation without its variables), then its literal
    operands if it has some."""
    literals = [repr(a) for a in eqn.invars if isinstance(a, func.Literal)]
    return [eqn.head()] + ([f"with {', '.join(literals)}"] if literals else [])


def to_dot(nodes: list, *, rankdir: str = "TB", size: str | None = None) -> str:
    """The DOT text of the drawing, with a legend on the last rank."""
    out = header("jaxpr", rankdir, size)
    for v in nodes:
        lines = [f"{v.key}: {v.lines[0]}" if v.kind == "op" else v.lines[0], *v.lines[1:]]
        out.append(f"  {v.key} [label={quote(chr(10).join(lines))}, {STYLE[v.kind]}];")
    for v in nodes:
        out.extend(f"  {v.key} -> {dst} [label={quote(label)}];" for dst, label in v.children)
    out.extend(_legend({v.kind for v in nodes}, rankdir, deepest(nodes)))
    out.append("}")
    return "\n".join(out) + "\n"


def _legend(kinds: set, rankdir: str, anchors: list) -> list:
    cells = []
    for text, kind in LEGEND + (("collapsed equations", "summary"),):
        if kind in kinds:
            fill = STYLE[kind].split("fillcolor=")[1].split(",")[0]
            cells.append(f"<TD BGCOLOR={fill}>{text}</TD>")
    return legend_node(cells, "edges: variables, as values flow", rankdir, anchors)
