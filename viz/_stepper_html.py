"""HTML pieces of the stepper: the graph, the step panel and the memory chart.

The widget stores the graph (laid out once by ``dot``) and the memory chart once, and per step
only the panel and which node and edges to mark; its script restyles the one SVG in the browser
(``_stepper.js``). :func:`frame_html` builds the same picture of one step in Python, as static
HTML (the SVG text edited: fill, stroke, opacity of the ``<g class="node">``/``<g class="edge">``
groups whose ``<title>`` is ``n<k>``). Without Graphviz the graph is plain text with markers.
"""

from __future__ import annotations

import html
import re

from . import _render
from ._fit import FIT_PX, svg_width_px
from ._model import fmt, fmt_bytes, fmt_shape
from ._stepper_frames import GradInfo, event_headline, event_message, event_rules

ACTIVE_FILL, ACTIVE_STROKE = "#fde047", "#dc2626"
TRAVEL = "#dc2626"
DONE_OPACITY = "0.35"
_GROUP = re.compile(r'<g id="[^"]*" class="(node|edge)">\s*<title>(.*?)</title>(.*?)</g>', re.S)
_SHAPE = re.compile(r"<(ellipse|polygon|path)\b([^>]*)>")
_TEXT_KEY = re.compile(r"^(\s*)(\[[^\]]*\] )?(n\d+|more) ")


# --- graph -------------------------------------------------------------------------------------
def layout_svg(source: str, svg: str | None = None) -> str | None:
    """The SVG of ``source`` (or ``svg``, when it was already laid out) with its XML prologue
    stripped for inline HTML; None without Graphviz."""
    if svg is None:
        data = _render.run_dot(source, "svg")
        if data is None:
            return None
        svg = data.decode("utf-8", errors="replace")
    return svg[svg.index("<svg") :]


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
            f"<b>{icon} {esc(event_headline(e))}</b><br>{esc(event_message(e))}"
            + (f"<br><i>{esc(event_rules(e))}</i>" if event_rules(e) else "")
            + "</div>"
        )
    return "".join(parts)


def _node_title(frame) -> str:
    if frame.leaf_name is None:
        leaf = ""
    else:
        leaf = " (leaf)" if frame.leaf_name == frame.node else f" (leaf {esc(frame.leaf_name)})"
    return f"{frame.node} {esc(frame.node_name)}{leaf}"


def _contributions(frame) -> list:
    parts = []
    if frame.local:
        items = "".join(
            f"<li>w.r.t. input &#8594; {k}: {esc(text)}</li>" for k, text in frame.local
        )
        parts.append(
            "<div><b>local derivative</b> d(out)/d(in), multiplied elementwise by the "
            f"upstream gradient:<ul style='margin:2px 0'>{items}</ul></div>"
        )
    elif not frame.elementwise:
        parts.append(
            "<div><small>local derivative: not elementwise here, so each contribution "
            "is the upstream gradient times the op's Jacobian, which the op's backward "
            "computes without writing the Jacobian out</small></div>"
        )
    items = "".join(
        f"<li>&#8594; {k} {esc(name)}: {grad_html(g)}</li>" for k, name, g in frame.sent
    )
    parts.append(f"<div><b>contributions sent</b>:<ul style='margin:2px 0'>{items}</ul></div>")
    return parts


def panel_html(frame) -> str:
    """Node, upstream gradient, local derivative, contributions sent, and for a leaf
    ``before + incoming = after``."""
    parts = [
        f"<h4 style='margin:4px 0'>step {frame.step}/{frame.num_steps}: {_node_title(frame)}</h4>",
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
        parts.extend(_contributions(frame))
    else:
        parts.append("<div>no gradient sent</div>")
    parts.append(f"<div><small>live gradient memory: {fmt_bytes(frame.live_bytes)}</small></div>")
    return "".join(parts)


# --- memory timeline ---------------------------------------------------------------------------
CHART_W, CHART_H = 480, 140
_LEFT, _BOTTOM, _TOP = 64, 32, 26  # margins for the byte axis, the step axis and the title


def _bar(f, x: float, bar: float, h: float, current: int, peak_y: float) -> str:
    densified = any(getattr(e, "kind", "densified") == "densified" for e in f.events)
    cls = "mg-bar mg-densified" if densified else "mg-bar"
    color = "#dc2626" if densified else ("#2563eb" if f.step == current else "#93c5fd")
    outline = ' stroke="#111827" stroke-width="2"' if f.step == current else ""
    tip = f"step {f.step}: {f.node} {f.node_name}, {fmt_bytes(f.live_bytes)}"
    if f.events:
        tip += "; " + "; ".join(event_headline(e) for e in f.events)
    out = (
        f'<rect class="{cls}" data-step="{f.step}" x="{x:.1f}" y="{CHART_H - _BOTTOM - h:.1f}" '
        f'width="{max(bar - 1, 1):.1f}" height="{h:.1f}" fill="{color}"{outline}>'
        f"<title>{esc(tip)}</title></rect>"
    )
    if densified:  # a marker above the bar, so the step stands out at any width
        cx = x + max(bar - 1, 1) / 2
        anchor = "end" if cx > CHART_W - 60 else ("start" if cx < _LEFT + 60 else "middle")
        out += (
            f'<path d="M{cx - 5:.1f},{peak_y - 9:.1f} h10 l-5,7 z" fill="#dc2626"/>'
            f'<text x="{cx:.1f}" y="{peak_y - 11:.1f}" font-size="11" fill="#dc2626" '
            f'text-anchor="{anchor}">densified (step {f.step})</text>'
        )
    return out


def _axes(n: int, peak: int) -> str:
    x0, y0, y1 = _LEFT, CHART_H - _BOTTOM, _TOP + 10
    ticks = "".join(
        f'<line x1="{x0 - 4}" y1="{y:.1f}" x2="{x0}" y2="{y:.1f}" stroke="#6b7280"/>'
        f'<text x="{x0 - 6}" y="{y + 3:.1f}" font-size="11" text-anchor="end">{esc(label)}</text>'
        for y, label in ((y0, "0 B"), (y1, fmt_bytes(peak)))
    )
    return (
        f'<line x1="{x0}" y1="{y1 - 4}" x2="{x0}" y2="{y0}" stroke="#6b7280"/>'
        f'<line x1="{x0}" y1="{y0}" x2="{CHART_W}" y2="{y0}" stroke="#6b7280"/>{ticks}'
        f'<text x="{x0 + 2}" y="{y0 + 13}" font-size="11">1</text>'
        f'<text x="{CHART_W - 2}" y="{y0 + 13}" font-size="11" text-anchor="end">{n}</text>'
        f'<text x="{(x0 + CHART_W) / 2:.0f}" y="{CHART_H - 4}" font-size="11" '
        f'text-anchor="middle">backward step</text>'
        f'<text x="12" y="{(y0 + y1) / 2:.0f}" font-size="11" text-anchor="middle" '
        f'transform="rotate(-90 12 {(y0 + y1) / 2:.0f})">bytes</text>'
    )


def timeline_svg(frames, current: int = 0) -> str:
    """Live gradient bytes after each step, as bars on a labelled byte axis; densification
    steps in red with a marker; the ``current`` step (1-based; 0 for none) outlined."""
    n = len(frames)
    peak = max((f.live_bytes for f in frames), default=0)
    bar = (CHART_W - _LEFT) / max(n, 1)
    top = _TOP + 10
    span = CHART_H - _BOTTOM - top
    shapes = "".join(
        _bar(
            f,
            _LEFT + (f.step - 1) * bar,
            bar,
            max(1.0, span * f.live_bytes / (peak or 1)),
            current,
            top,
        )
        for f in frames
    )
    title = f"live gradient memory per backward step (peak {fmt_bytes(peak)})"
    return (
        f'<svg class="mg-timeline" xmlns="http://www.w3.org/2000/svg" width="{CHART_W}" '
        f'height="{CHART_H}" viewBox="0 0 {CHART_W} {CHART_H}" font-family="Helvetica,sans-serif">'
        f'<text x="0" y="13" font-size="12">{esc(title)}</text>{_axes(n, peak)}{shapes}</svg>'
    )


# --- the whole picture -------------------------------------------------------------------------
def layout_html(graph_part: str, panel: str, timeline: str) -> str:
    """Graph left, panel and memory chart right; below it when the graph leaves them no room
    (the graph's box starts at the drawing's own width, so a wide drawing gets the row)."""
    width = svg_width_px(graph_part) if graph_part.lstrip().startswith("<svg") else None
    basis = f"{min(width, FIT_PX):.0f}px" if width else "420px"
    return (
        '<div class="mg-stepper" style="display:flex;flex-wrap:wrap;gap:12px;'
        'align-items:flex-start;font-family:Helvetica,sans-serif">'
        f'<div class="mg-graph" style="flex:1 1 {basis};max-width:100%;overflow:auto">{graph_part}</div>'
        f'<div style="flex:1 1 380px;max-width:100%"><div class="mg-panel">{panel}</div>'
        f'<div class="mg-chart" style="margin-top:6px">{timeline}</div></div></div>'
    )


def text_graph_html(text: str) -> str:
    """The plain-text graph as ``<pre>``, each line a span the script can mark by node."""
    lines = []
    for line in text.splitlines():
        m = _TEXT_KEY.match(line)
        key = f' data-node="{m.group(3)}"' if m else ""
        lines.append(f"<span{key}>{esc(line)}</span>")
    return "<pre class='mg-text-graph' style='font-size:12px'>" + "\n".join(lines) + "</pre>"


def frame_html(frames, k: int, graph_part: str) -> str:
    """Step ``k`` (1-based) as one static HTML picture."""
    return layout_html(graph_part, panel_html(frames[k - 1]), timeline_svg(frames, k))
