"""HTML for one stepper frame: the restyled graph, the step panel and the memory timeline.

The graph is laid out once by ``dot``; each frame edits the SVG text (fill, stroke, opacity of
the ``<g class="node">``/``<g class="edge">`` groups whose ``<title>`` is ``n<id>``), so frames
differ only in colours. Without Graphviz the frame shows the plain-text graph with markers.
"""

from __future__ import annotations

import html
import re

from . import _render
from ._model import fmt, fmt_bytes, fmt_shape
from ._stepper_frames import GradInfo, event_headline, event_message

ACTIVE_FILL, ACTIVE_STROKE = "#fde047", "#dc2626"
TRAVEL = "#dc2626"
DONE_OPACITY = "0.35"
_GROUP = re.compile(r'<g id="[^"]*" class="(node|edge)">\s*<title>(.*?)</title>(.*?)</g>', re.S)
_SHAPE = re.compile(r"<(ellipse|polygon|path)\b([^>]*)>")
_TEXT_KEY = re.compile(r"^(\s*)(\[[^\]]*\] )?(n\d+) ")


# --- graph -------------------------------------------------------------------------------------
def layout_svg(source: str) -> str | None:
    """The SVG of ``source`` (XML prologue stripped for inline HTML), or None without Graphviz."""
    data = _render.run_dot(source, "svg")
    if data is None:
        return None
    text = data.decode("utf-8", errors="replace")
    return text[text.index("<svg") :]


def _set(attrs: str, name: str, value: str) -> str:
    if re.search(rf'\b{name}="', attrs):
        return re.sub(rf'\b{name}="[^"]*"', f'{name}="{value}"', attrs)
    return attrs + f' {name}="{value}"'


def _paint(body: str, fill: str | None, stroke: str, width: str) -> str:
    def one(m):
        attrs = m.group(2)
        closing = "/" if attrs.endswith("/") else ""
        attrs = attrs[:-1] if closing else attrs
        if fill is not None and 'fill="none"' not in attrs:
            attrs = _set(attrs, "fill", fill)
        attrs = _set(_set(attrs, "stroke", stroke), "stroke-width", width)
        return f"<{m.group(1)}{attrs}{closing}>"

    return _SHAPE.sub(one, body)


def _edge_ends(title: str):
    src, _, dst = html.unescape(title).partition("->")
    return src, dst


def restyle_svg(svg: str, active: str, done: set, travel: set) -> str:
    """``svg`` with node ``active`` highlighted, ``done`` nodes muted, ``travel`` edges marked."""

    def one(m):
        kind, title, body = m.groups()
        opacity = ""
        if kind == "node":
            if title == active:
                body = _paint(body, ACTIVE_FILL, ACTIVE_STROKE, "3")
            elif title in done:
                opacity = f' opacity="{DONE_OPACITY}"'
        else:
            ends = _edge_ends(title)
            if ends in travel:
                body = _paint(body, None, TRAVEL, "3")
                body = body.replace('<polygon fill="black"', f'<polygon fill="{TRAVEL}"')
            elif ends[0] in done:
                opacity = f' opacity="{DONE_OPACITY}"'
        head = m.group(0)[: m.group(0).index(">")]
        return f"{head}{opacity}>\n<title>{title}</title>{body}</g>"

    return _GROUP.sub(one, svg)


def restyle_text(text: str, active: str, done: set) -> str:
    """The plain-text graph with a marker column: ``▶`` the active node, ``✓`` done ones."""
    out = []
    for line in text.splitlines():
        m = _TEXT_KEY.match(line)
        key = m.group(3) if m else None
        mark = "▶ " if key == active else ("✓ " if key in done else "  ")
        out.append(mark + line)
    return "\n".join(out) + "\n"


# --- panel -------------------------------------------------------------------------------------
def esc(s) -> str:
    return html.escape(str(s), quote=False)


def grad_html(g: GradInfo | None) -> str:
    """A gradient: its value (dense) or layout, nnz, density, bytes and entries (sparse)."""
    if g is None:
        return "<code>None</code>"
    if not g.sparse:
        return f"<code>{esc(g.short)}</code> <small>{fmt_shape(g.shape)}, {fmt_bytes(g.nbytes)}</small>"
    dup = ""
    if g.duplicates:
        word = "entry" if g.duplicates == 1 else "entries"
        dup = f", <b>{g.duplicates} duplicate {word}</b> (an index stored twice; coalesce() sums them)"
    head = (
        f"<b>{g.layout}</b> {fmt_shape(g.shape)}: nnz={g.nnz}, density={fmt(g.density)}, "
        f"{fmt_bytes(g.nbytes)}{dup}"
    )
    rows = "".join(
        f"<tr{' style=background:#fed7aa' if d else ''}><td><code>{esc(i)}</code></td>"
        f"<td><code>{esc(v)}</code></td></tr>"
        for i, v, d in g.entries
    )
    more = (
        f"<div><small>… {g.nnz - len(g.entries)} more entries</small></div>"
        if g.nnz and g.nnz > len(g.entries)
        else ""
    )
    table = (
        f'<table style="border-collapse:collapse;font-size:90%"><tr><th>index</th><th>values</th></tr>{rows}</table>'
        if rows
        else ""
    )
    return f"<div>{head}</div>{table}{more}"


_BANNER_STYLE = {  # densified: red warning; coalesced: a blue note
    "densified": ("#fee2e2", "#dc2626", "⚠"),
    "coalesced": ("#dbeafe", "#2563eb", "ℹ"),
}


def _banner(events) -> str:
    parts = []
    for e in events:
        fill, border, icon = _BANNER_STYLE.get(getattr(e, "kind", ""), _BANNER_STYLE["densified"])
        parts.append(
            f'<div style="background:{fill};border:2px solid {border};padding:6px;margin:4px 0">'
            f"<b>{icon} {esc(event_headline(e))}</b><br>{esc(event_message(e))}</div>"
        )
    return "".join(parts)


def panel_html(frame) -> str:
    """Node, upstream gradient, local derivative, contributions sent, and for a leaf
    ``before + incoming = after``."""
    parts = [
        f"<h4 style='margin:4px 0'>step {frame.index + 1}/{frame.num_steps}: "
        f"{esc(frame.node_name)} <small>(n{frame.node_id})</small></h4>",
        _banner(frame.events),
        "<div><b>upstream gradient</b>: "
        + ", ".join(grad_html(g) for g in frame.arrived)
        + "</div>",
    ]
    if frame.accumulation is not None:
        before, incoming, after = frame.accumulation
        parts.append(
            f"<div><b>{esc(frame.leaf_name)}.grad</b>: before {grad_html(before)} "
            f"<b>+</b> contribution {grad_html(incoming)} <b>=</b> after {grad_html(after)}</div>"
        )
    elif frame.sent:
        if frame.local:
            items = "".join(f"<li>w.r.t. input → n{i}: {esc(text)}</li>" for i, text in frame.local)
            parts.append(
                "<div><b>local derivative</b> d(out)/d(in), multiplied elementwise by the "
                f"upstream gradient:<ul style='margin:2px 0'>{items}</ul></div>"
            )
        elif not frame.elementwise:
            parts.append(
                "<div><small>local derivative: not elementwise here, so each contribution "
                "is the upstream gradient times the op's Jacobian (a vector-Jacobian "
                "product)</small></div>"
            )
        items = "".join(f"<li>→ n{i} {esc(name)}: {grad_html(g)}</li>" for i, name, g in frame.sent)
        parts.append(f"<div><b>contributions sent</b>:<ul style='margin:2px 0'>{items}</ul></div>")
    else:
        parts.append("<div>no gradient sent</div>")
    parts.append(f"<div><small>live gradient memory: {fmt_bytes(frame.live_bytes)}</small></div>")
    return "".join(parts)


# --- memory timeline ---------------------------------------------------------------------------
def timeline_svg(frames, current: int, width: int = 480, height: int = 70) -> str:
    """Bars of live gradient bytes per step; densifications in red; the current step outlined."""
    n = len(frames)
    peak = max((f.live_bytes for f in frames), default=0) or 1
    bar = width / n
    shapes = []
    for f in frames:
        h = max(1.0, (height - 14) * f.live_bytes / peak)
        x, y = f.index * bar, height - h
        densified = any(getattr(e, "kind", "densified") == "densified" for e in f.events)
        color = "#dc2626" if densified else ("#2563eb" if f.index == current else "#93c5fd")
        outline = ' stroke="#111827" stroke-width="2"' if f.index == current else ""
        tip = f"step {f.index + 1}: {f.node_name}, {fmt_bytes(f.live_bytes)}"
        if f.events:
            tip += "; " + "; ".join(event_headline(e) for e in f.events)
        shapes.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{max(bar - 1, 1):.1f}" height="{h:.1f}" '
            f'fill="{color}"{outline}><title>{esc(tip)}</title></rect>'
        )
    label = f"live gradient memory (peak {fmt_bytes(peak)}); red: densified"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}"><text x="0" y="10" font-size="10" '
        f'font-family="Helvetica">{esc(label)}</text>{"".join(shapes)}</svg>'
    )


def frame_html(frames, k: int, graph_part: str) -> str:
    """The whole frame ``k``: graph left, panel and timeline right (below, on narrow screens)."""
    return (
        '<div style="display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start;'
        'font-family:Helvetica,sans-serif">'
        f'<div style="flex:1 1 420px;max-width:100%;overflow:auto">{graph_part}</div>'
        f'<div style="flex:1 1 380px;max-width:100%">{panel_html(frames[k])}'
        f'<div style="margin-top:6px">{timeline_svg(frames, k)}</div></div></div>'
    )
