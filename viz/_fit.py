"""Choosing a drawing's direction and size so it fits the notebook column.

JupyterLab's notebook column is about 1,100 px wide at the default zoom; a wider drawing
scrolls sideways, and the box a sentence points to can sit two screens to the right. So when
``viz.draw_graph`` is not told a direction it lays the graph out with ``dot``, top to bottom
first, and keeps the first layout that fits :data:`FIT_PX`:

1. top to bottom (``TB``), the way the course draws graphs;
2. left to right (``LR``), which turns a wide fan-out (many leaves side by side) into a tall one;
3. the narrower of the two, shrunk to fit when that takes at most a factor :data:`MIN_SCALE`
   (Graphviz's ``size`` attribute scales the whole drawing, text included);
4. otherwise the narrower one at full size, and the caller says how to collapse it.

Widths come from the SVG ``dot`` writes: its ``width`` attribute is in points, and a browser
draws 96 px per 72 pt. Without a working ``dot`` nothing is laid out and the choice is ``TB``
(the drawing is shown as text then anyway).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from . import _render

FIT_PX = 1100  # the notebook column of JupyterLab at the default zoom, in CSS px
PX_PER_PT = 96 / 72  # CSS px per point: SVG widths are in pt
MIN_SCALE = 0.8  # shrink at most to 80 %: 11 pt labels stay at least 8.8 pt
CHOOSE_LIMIT = 500  # boxes: a bigger graph is drawn TB, not laid out (dot takes seconds on it)
ORDER = ("TB", "LR")  # the directions tried, in order of preference
_SVG_WIDTH = re.compile(r'<svg\b[^>]*?\bwidth="([0-9.]+)(pt|px)?"')


@dataclass(frozen=True)
class Layout:
    """A laid-out drawing: its DOT source, direction and, when ``dot`` ran, SVG and width."""

    rankdir: str
    source: str
    svg: str | None = None
    width_px: float | None = None
    scale: float = 1.0  # < 1 when the drawing was shrunk to fit

    @property
    def fits(self) -> bool:
        """True when the drawing is at most :data:`FIT_PX` wide (or was never laid out)."""
        return self.width_px is None or self.width_px <= FIT_PX + 0.5


def svg_width_px(svg: str) -> float | None:
    """The ``width`` of the ``<svg>`` element in CSS px (``pt`` converted), None if absent."""
    m = _SVG_WIDTH.search(svg)
    if m is None:
        return None
    return float(m.group(1)) * (PX_PER_PT if m.group(2) in (None, "pt") else 1.0)


def size_attr(width_px: float) -> str:
    """Graphviz's ``size`` (inches) that shrinks a drawing wider than ``width_px`` to it."""
    return f"{width_px / PX_PER_PT / 72:.3f},1000"


def lay_out(make_source: Callable, rankdir: str, size: str | None = None) -> Layout:
    """``make_source(rankdir, size)`` rendered once by ``dot``; width None without ``dot``."""
    source = make_source(rankdir, size)
    data = _render.run_dot(source, "svg")
    if data is None:
        return Layout(rankdir, source)
    svg = data.decode("utf-8", errors="replace")
    return Layout(rankdir, source, svg, svg_width_px(svg))


def choose(make_source: Callable, boxes: int) -> tuple:
    """The layout to draw, and every full-size layout tried: ``(chosen, tried)``.

    Args:
        make_source: ``(rankdir, size) -> DOT text``; ``size`` is None or Graphviz's ``size``.
        boxes: how many boxes the drawing has; beyond :data:`CHOOSE_LIMIT` the drawing is
            ``TB`` and not laid out here (``dot`` runs when it is shown, if ever).
    """
    if boxes > CHOOSE_LIMIT:
        return Layout("TB", make_source("TB", None)), ()
    tried = []
    for rankdir in ORDER:
        layout = lay_out(make_source, rankdir)
        tried.append(layout)
        if layout.fits:
            return layout, tuple(tried)
    return _shrunk(make_source, min(tried, key=lambda t: t.width_px)), tuple(tried)


def _shrunk(make_source: Callable, narrower: Layout) -> Layout:
    """``narrower`` scaled down to :data:`FIT_PX` when that takes at most :data:`MIN_SCALE`;
    otherwise ``narrower`` itself (too wide, at full size)."""
    if narrower.width_px * MIN_SCALE > FIT_PX:
        return narrower
    shrunk = lay_out(make_source, narrower.rankdir, size_attr(FIT_PX))
    if not shrunk.fits:
        return narrower
    scale = shrunk.width_px / narrower.width_px
    return Layout(shrunk.rankdir, shrunk.source, shrunk.svg, shrunk.width_px, scale)
