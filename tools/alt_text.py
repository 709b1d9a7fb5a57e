"""The alternative text of every picture on the course's exported pages (``make html``).

nbconvert writes an output's picture as an ``<img>`` with no ``alt``, then gives every such
image the same placeholder, "No description has been provided for this image", which tells a
screen reader nothing. Before a notebook is exported, :func:`add_alt_texts` writes what each
picture shows into its output's metadata (``output.metadata["alt"]``), where the course's
template (``nbconvert_templates/course_site``) puts it on the ``<img>``. The text comes from:

1. the cell's ``metadata["alt"]``, written by the author with the picture: a string (for the
   cell's picture, or each of them), or a list with one string per picture, in output order;
2. for a drawing of ``viz.draw_graph`` (an SVG whose ``text/plain`` is the graph as text): the
   graph as text, which lists every box the drawing shows;
3. for the still picture stored beside a widget (the backward stepper): the widget's repr,
   which says what it steps through and the step shown (``<BackwardStepper: 5 steps, at
   <step 1/5: n1 AddBackward0 sent ...>>``).

A picture none of these describes (a matplotlib figure's ``text/plain`` is only
``<Figure size 700x350 with 1 Axes>``) gets no text: :func:`missing_alt` lists such pictures,
and the tests require that there are none.
"""

from __future__ import annotations

import re

import nbformat

IMAGE_TYPES = ("image/svg+xml", "image/png", "image/jpeg")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
KEY = "alt"  # in a cell's metadata (written by the author) and in an output's (for the template)
GENERIC_REPR = re.compile(r"^<(Figure|matplotlib\.|IPython\.)[^>]*>$")  # says nothing of content
GRAPH_PREFIX = "Drawing of the autograd graph; as text: "


def pictures(cell) -> list:
    """The outputs of ``cell`` that show a picture, in order."""
    return [
        out
        for out in cell.get("outputs", [])
        if any(kind in out.get("data", {}) for kind in IMAGE_TYPES)
    ]


def _authored(cell, k: int, n: int) -> str | None:
    """The author's text for picture ``k`` of ``n`` of ``cell`` (its ``metadata["alt"]``)."""
    given = cell.get("metadata", {}).get(KEY)
    if isinstance(given, str) and given.strip():
        return given.strip() if n == 1 else f"{given.strip()} (picture {k + 1} of {n})"
    if isinstance(given, list) and k < len(given) and str(given[k]).strip():
        return str(given[k]).strip()
    return None


def _from_output(out) -> str | None:
    """A description the output carries itself: a graph's text, a widget's repr."""
    text = out.get("data", {}).get("text/plain", "")
    text = ("".join(text) if isinstance(text, list) else text).strip()
    if not text or GENERIC_REPR.match(text):
        return None
    if WIDGET_VIEW in out["data"]:
        return text
    if "image/svg+xml" in out["data"]:
        return GRAPH_PREFIX + text
    return None


def alt_text(cell, k: int) -> str | None:
    """The alternative text of picture ``k`` (0-based, in output order) of ``cell``, or None."""
    shown = pictures(cell)
    return _authored(cell, k, len(shown)) or _from_output(shown[k])


def add_alt_texts(nb: nbformat.NotebookNode) -> None:
    """Write each picture's alternative text into its output's metadata (``"alt"``), for the
    template; a picture without one is left as it is."""
    for cell in nb.cells:
        for k, out in enumerate(pictures(cell)):
            text = alt_text(cell, k)
            if text is not None:
                out.setdefault("metadata", {})[KEY] = text


def missing_alt(nb: nbformat.NotebookNode) -> list:
    """``(cell index, picture index)`` of every picture that has no alternative text."""
    return [
        (i, k)
        for i, cell in enumerate(nb.cells)
        for k in range(len(pictures(cell)))
        if alt_text(cell, k) is None
    ]
