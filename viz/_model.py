"""The drawing model: what each box of the graph says, built from ``minigrad.trace``.

``viz.draw_graph`` turns a :class:`minigrad.trace.Graph` into a list of :class:`VNode` (a label,
a kind and children), then prints that list as DOT (``_dot``) or as indented text (``_text``).
Every number goes through :func:`fmt` (4 significant digits) so the output is deterministic.

One numbering for people, everywhere in viz: node ``n<k>`` is the one backward runs at step ``k``
(1-based, as the stepper's "step k/N"); :func:`node_key` turns a trace id (0-based) into it.
Every byte count is the tensor's own ``nbytes`` (:func:`tensor_nbytes`), the number
``minigrad.sparse.memory_report`` gives, printed by :func:`fmt_bytes` in the same units.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from minigrad import trace

SMALL = 6  # a gradient with at most this many elements is shown in full


@dataclass
class VNode:
    """One box of the drawing: ``key`` is its DOT id and the name people see (``n3``, ``more``)."""

    key: str  # "n<k>", 1-based (see node_key); "more" for a summary
    kind: str  # "leaf", "op" or "summary"
    lines: list
    sparse: bool = False
    root: bool = False
    children: list = field(default_factory=list)  # (key, edge label or None)
    notes: list = field(default_factory=list)  # saved tensors, one line each


def fmt(x) -> str:
    """A number with 4 significant digits (``-0`` printed as ``0``)."""
    s = f"{float(x):.4g}"
    return "0" if s == "-0" else s


def fmt_shape(shape) -> str:
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def node_key(trace_id: int) -> str:
    """The name viz gives a node: ``n1`` for the root (trace id 0), ``n<k>`` for the k-th step."""
    return f"n{trace_id + 1}"


def tensor_nbytes(t) -> int:
    """Bytes a tensor really holds: its array's ``nbytes`` (float32: 4 per element), or for a
    sparse tensor its format's indices + values, as ``minigrad.sparse.memory_report`` counts."""
    return int(trace.storage(t).nbytes)


def fmt_bytes(n: float) -> str:
    """``96 B``, ``1.1 KB``, ``256.0 MB``: decimal units, as ``minigrad.sparse.memory_report``."""
    for unit in ("B", "KB", "MB", "GB"):
        if abs(n) < 1000 or unit == "GB":
            return f"{n:.0f} B" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return str(n)  # pragma: no cover


def fmt_count(n: int) -> str:
    return f"{n:,}"


def _sparse_badge(layout, nnz, shape, data=None, nbytes=None, density=None) -> str:
    """``sparse_coo nnz=3 density=0.3333 60 B`` (bytes and density from the format or the trace)."""
    density = getattr(data, "density", density)
    if density is None:
        rows = int(np.prod(shape[:2])) if shape else 1
        density = nnz / rows if rows else 0.0
    badge = f"{layout} nnz={nnz} density={fmt(density)}"
    nbytes = getattr(data, "nbytes", nbytes)
    return badge + (f" {fmt_bytes(int(nbytes))}" if nbytes is not None else "")


def _grad_lines(leaf) -> list:
    """What a leaf's ``.grad`` looks like: values when small, a summary otherwise."""
    g = leaf.grad
    if g is None:
        return []
    if g.layout != "strided":
        lines = ["grad " + _sparse_badge(g.layout, g.nnz, tuple(g.shape), trace.storage(g))]
    else:
        a = np.asarray(g.numpy(), dtype=np.float64)
        if a.size <= SMALL:
            vals = ", ".join(fmt(v) for v in a.ravel())
            lines = [f"grad = {vals}" if a.ndim == 0 else f"grad = [{vals}]"]
        else:
            lines = [
                f"grad {fmt_shape(a.shape)} min={fmt(a.min())} max={fmt(a.max())}",
                f"mean={fmt(a.mean())} norm={fmt(np.linalg.norm(a))} {fmt_bytes(tensor_nbytes(g))}",
            ]
    if leaf.layout != "strided" and g.layout == "strided":
        lines.append("grad densified (leaf is sparse)")
    elif leaf.layout == "strided" and g.layout != "strided":
        lines.append("grad is sparse (leaf is dense)")
    return lines


def leaf_name(info, names: dict | None):
    """A leaf's name: from ``params=`` (``names``, by tensor), else its own ``.name``."""
    return (names or {}).get(id(info.tensor)) or info.leaf_name


def _node(info, show_grads: bool, show_saved: bool, names=None) -> VNode:
    if info.kind == "leaf":
        t = info.tensor
        lines = [leaf_name(info, names) or "leaf", f"{fmt_shape(info.shape)} {info.dtype}"]
        sparse = info.layout != "strided"
        if sparse:
            lines.append(_sparse_badge(info.layout, info.nnz, info.shape, trace.storage(t)))
        if show_grads:
            lines += _grad_lines(t)
            if info.densified:  # the engine's own record of why
                e = info.densified[-1]
                cause = f", caused by {e.caused_by}" if e.caused_by else ""
                lines.append(f"densified: {e.rule}{cause}")
        return VNode(node_key(info.id), "leaf", lines, sparse)
    lines = [info.name]
    if info.shape is not None:
        lines.append(fmt_shape(info.shape))
    sparse = info.layout != "strided" and info.nnz is not None
    if sparse:
        badge = _sparse_badge(info.layout, info.nnz, info.shape, None, info.nbytes, info.density)
        lines.append(badge)
    node = VNode(node_key(info.id), "op", lines, sparse)
    if show_saved:
        for s in info.saved:
            what = "freed" if s.freed else f"{fmt_shape(s.shape)} {s.dtype}"
            node.notes.append(f"saved {s.index}: {what}")
    return node


def _edge_labels(graph, info) -> dict:
    """Masked/full labels on the edges of an op with a sparse operand, to that operand only:
    the label says what the sparse operand's gradient is (its stored entries, or dense).
    When the sparse operand does not require grad (a GCN's constant adjacency) no edge is
    labelled: the dense operand's gradient is an ordinary dense one, neither masked nor full."""
    if info.grad_semantics is None:
        return {}
    return {d: info.grad_semantics for d in info.inputs if graph.nodes[d].layout != "strided"}


def _summary(graph, lo: int, hi: int) -> VNode:
    """One box for nodes ``lo .. hi - 1``: how many, and of which ops."""
    counts = Counter(graph.name_of(i) for i in range(lo, hi))
    parts = ", ".join(
        f"{name} x{fmt_count(c)}"
        for name, c in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    )
    return VNode("more", "summary", [f"… {fmt_count(hi - lo)} more nodes ({parts})"])


def _add_children(owner: VNode, pairs) -> None:
    """Add ``(key, label)`` edges to ``owner``, one per edge of the graph: ``x * x`` sends
    its gradient to ``x`` twice, so it gets two arrows (as ``next_functions`` has two pairs).
    Into the box of collapsed nodes an owner draws one arrow, however many edges it has there."""
    for child in pairs:
        if child[0] == owner.key or (child[0] == "more" and child in owner.children):
            continue
        owner.children.append(child)


def build(graph, *, show_grads=True, show_saved=False, max_nodes=200, names=None) -> list:
    """The drawing model of ``graph``: kept nodes in id order, the middle collapsed if too many.

    Only the kept nodes are described (``graph.nodes[i]``); the collapsed ones are counted by
    name and followed only for their edges into the kept tail, so a huge graph draws fast.
    ``names`` (``id(leaf) -> name``, from ``params=``) names the leaves.
    """
    n = len(graph)
    lo, hi = n, n  # trace ids in [lo, hi) are collapsed into one summary node
    if max_nodes is not None and n > max_nodes:
        lo = max(1, max_nodes // 2)
        hi = n - max(1, max_nodes - lo - 1)

    def key(i: int) -> str:
        return "more" if lo <= i < hi else node_key(i)

    def kept(i: int) -> VNode:
        info = graph.nodes[i]
        v = _node(info, show_grads, show_saved, names)
        labels = _edge_labels(graph, info)
        _add_children(v, ((key(d), labels.get(d)) for d in info.inputs))
        return v

    out = [kept(i) for i in range(lo)]
    if lo < hi:  # inputs always have larger ids, so the middle only feeds itself and the tail
        summary = _summary(graph, lo, hi)
        out.append(summary)
        tail = sorted({d for i in range(lo, hi) for d in graph.inputs_of(i) if d >= hi})
        _add_children(summary, ((key(d), None) for d in tail))
    out += [kept(i) for i in range(hi, n)]
    parents = {k for v in out for k, _ in v.children}
    for v in out:
        v.root = v.key not in parents
    return out
