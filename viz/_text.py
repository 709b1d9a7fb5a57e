"""Plain-text rendering of the drawing model (``viz.draw_graph(...).to_text()``).

The root comes first, its inputs indented below it; a node reached a second time is printed
as ``-> see n3``. The walk uses an explicit stack (no recursion), so a 10,000-node chain is fine.
"""

from __future__ import annotations

MAX_INDENT = 40  # deeper levels are not indented further; the depth is printed instead


def _prefix(depth: int) -> str:
    if depth <= MAX_INDENT:
        return "  " * depth
    return "  " * MAX_INDENT + f"[depth {depth}] "


def to_text(vnodes) -> str:
    """An indented tree: ``n0 AddBackward0 | ()``, children two spaces in, edge labels in brackets."""
    by_key = {v.key: v for v in vnodes}
    printed: set = set()
    lines = []
    for root in (v for v in vnodes if v.root):
        stack = [(root.key, 0, None)]
        while stack:
            key, depth, label = stack.pop()
            tag = f"[{label}] " if label else ""
            if key in printed:
                lines.append(f"{_prefix(depth)}{tag}-> see {key}")
                continue
            printed.add(key)
            v = by_key[key]
            lines.append(f"{_prefix(depth)}{tag}{key} " + " | ".join(v.lines))
            for note in v.notes:
                lines.append(f"{_prefix(depth + 1)}({note})")
            stack.extend((k, depth + 1, lab) for k, lab in reversed(v.children))
    return "\n".join(lines) + "\n"
