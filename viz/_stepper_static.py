"""A still picture of one stepper frame, for viewers that run no widget JavaScript.

GitHub's notebook preview and nbconvert's HTML of a notebook saved without widget state show
none of the widget; they show the other formats of the same output. So the stepper's output also
carries ``image/png``: the graph drawn by ``dot`` with the step's marks (the running node yellow
with a red border, the nodes that already ran grey, the edges its gradient travels along red)
and the panel's text above it, as the graph's label. PNG rather than SVG because GitHub's
preview shows PNG outputs reliably and has dropped SVG ones more than once.

The marks are edits of the DOT text of ``viz.draw_graph`` (a node statement repeated with new
attributes overrides them; an edge line gets attributes appended), so the picture has exactly
the layout of the live widget's graph.
"""

from __future__ import annotations

import html
import io
import re
import textwrap

from . import _render
from ._model import fmt_bytes, fmt_shape
from ._stepper_frames import GradInfo, event_headline, event_message, event_rules
from ._stepper_html import ACTIVE_FILL, ACTIVE_STROKE, TRAVEL

DONE_COLOR = "#9ca3af"  # nodes that already ran, and the edges they sent along
BANNER_FILL = "#fee2e2"
WRAP = 88  # characters per panel line
PALETTE = 32  # colours kept: a 720 x 740 frame goes from 86 kB (RGB) to 20 kB, still legible
_EDGE_LINE = re.compile(r"^  (\S+) -> (\S+)( \[.*\])?;$")


def _esc(text: str) -> str:
    return html.escape(str(text), quote=True)


def grad_text(g: GradInfo | None) -> str:
    """A gradient as one line of text: its value (dense) or its sparse summary, and its bytes."""
    if g is None:
        return "None"
    if not g.sparse:
        return f"{g.short} {fmt_shape(g.shape)}, {fmt_bytes(g.nbytes)}"
    word = "entry" if g.duplicates == 1 else "entries"
    dup = f", {g.duplicates} duplicate {word}" if g.duplicates else ""
    return f"{g.short}, {fmt_bytes(g.nbytes)}{dup}"


def panel_lines(frame) -> list:
    """``(text, banner?)`` lines: what the widget's panel says at ``frame``, as plain text."""
    leaf = ""
    if frame.leaf_name is not None and frame.leaf_name != frame.node:
        leaf = f" (leaf {frame.leaf_name})"
    lines = [(f"step {frame.step}/{frame.num_steps}: {frame.node} {frame.node_name}{leaf}", False)]
    for e in frame.events:
        lines += [(f"! {event_headline(e)}", True), (event_message(e), True)]
        if event_rules(e):
            lines.append((event_rules(e), True))
    lines.append(("upstream gradient: " + ", ".join(grad_text(g) for g in frame.arrived), False))
    if frame.accumulation is not None:
        before, incoming, after = frame.accumulation
        lines.append(
            (
                f"{frame.leaf_name}.grad: before {grad_text(before)} + contribution "
                f"{grad_text(incoming)} = after {grad_text(after)}",
                False,
            )
        )
    else:
        lines += [(f"local derivative w.r.t. {k}: {text}", False) for k, text in frame.local]
        lines += [(f"sent to {k} {name}: {grad_text(g)}", False) for k, name, g in frame.sent]
        if not frame.sent:
            lines.append(("no gradient sent", False))
    lines.append((f"live gradient memory: {fmt_bytes(frame.live_bytes)}", False))
    return lines


def panel_label(frame) -> str:
    """The panel as a Graphviz HTML-like label: a left-aligned table, the banner in red."""
    rows = []
    for k, (text, banner) in enumerate(panel_lines(frame)):
        wrapped = '<BR ALIGN="LEFT"/>'.join(_esc(t) for t in textwrap.wrap(text, WRAP) or [""])
        if k == 0:
            wrapped = f"<B>{wrapped}</B>"
        fill = f' BGCOLOR="{BANNER_FILL}"' if banner else ""
        rows.append(f'<TR><TD ALIGN="LEFT" BALIGN="LEFT"{fill}>{wrapped}</TD></TR>')
    note = (
        f"a still picture of step {frame.step}: run the notebook, or open its HTML export, "
        "to step through the pass"
    )
    rows.append(f'<TR><TD ALIGN="LEFT"><FONT COLOR="#6b7280">{_esc(note)}</FONT></TD></TR>')
    table = (
        f'<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="2">{"".join(rows)}</TABLE>'
    )
    return f"<{table}>"


def _mark_edges(lines: list, done: set, travel: set) -> list:
    out = []
    for line in lines:
        m = _EDGE_LINE.match(line)
        if m is None:
            out.append(line)
            continue
        src, dst, attrs = m.group(1), m.group(2), m.group(3) or ""
        extra = None
        if (src, dst) in travel:
            extra = f'color="{TRAVEL}", penwidth=3'
        elif src in done:
            extra = f'color="{DONE_COLOR}", fontcolor="{DONE_COLOR}"'
        if extra is None:
            out.append(line)
        elif attrs:
            out.append(f"  {src} -> {dst} {attrs[1:-1]}, {extra}];")
        else:
            out.append(f"  {src} -> {dst} [{extra}];")
    return out


def frame_dot(source: str, frame, active: str, done: set, travel: set) -> str:
    """``source`` (DOT of the stepper's graph) with step ``frame``'s marks and panel."""
    lines = _mark_edges(source.rstrip().splitlines()[:-1], done, travel)  # drop the closing "}"
    lines += [f'  {key} [color="{DONE_COLOR}", fontcolor="{DONE_COLOR}"];' for key in sorted(done)]
    lines.append(f'  {active} [fillcolor="{ACTIVE_FILL}", color="{ACTIVE_STROKE}", penwidth=3];')
    lines.append(f"  graph [labelloc=t, labeljust=l, fontsize=11, label={panel_label(frame)}];")
    return "\n".join(lines) + "\n}\n"


def small_png(data: bytes) -> bytes:
    """``data`` with its colours reduced to a palette of PALETTE: a notebook stores it, and a
    drawing has few colours. Unchanged when Pillow (matplotlib's dependency) is missing."""
    try:  # optional, like every heavy import of viz: only needed when a frame is stored
        from PIL import Image
    except ImportError:
        return data
    image = Image.open(io.BytesIO(data)).convert("RGB")
    out = io.BytesIO()
    image.quantize(colors=PALETTE, method=Image.Quantize.FASTOCTREE).save(out, "PNG", optimize=True)
    return out.getvalue()


def frame_png(source: str, frame, active: str, done: set, travel: set) -> bytes | None:
    """The marked graph and panel as PNG bytes, or None when no Graphviz renderer works."""
    data = _render.run_dot(frame_dot(source, frame, active, done, travel), "png")
    return None if data is None else small_png(data)
