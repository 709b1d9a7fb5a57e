"""The graph drawings stored in the committed notebooks fit the notebook column.

Every ``image/svg+xml`` output (``viz.draw_graph``) and every stepper still (the ``image/png``
beside a widget) is at most ``viz.graph.FIT_PX`` (1,100 px) wide: SVG widths in pt are
converted at 96 px per 72 pt, as a browser draws them; PNG widths are pixels.

These are the stored outputs, so the test says what the notebooks showed when they were last
executed: after a change to viz's layout it passes once the notebooks are re-executed
(``make notebooks``). ``MINIGRAD_NOTEBOOKS=DIR`` checks the notebooks in DIR instead (e.g.
executed copies: ``jupyter nbconvert --to notebook --execute --output-dir DIR ...``).
"""

from __future__ import annotations

import base64
import os
import struct
from pathlib import Path

import nbformat
import pytest

from tools.course import NOTEBOOKS, notebooks
from viz._fit import svg_width_px
from viz.graph import FIT_PX

FOLDER = Path(os.environ.get("MINIGRAD_NOTEBOOKS", NOTEBOOKS))
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def png_width(data: str) -> int:
    """The width in pixels of a base64 PNG (from its IHDR chunk)."""
    return struct.unpack(">I", base64.b64decode(data)[16:20])[0]


def drawings(nb) -> list:
    """``(cell index, kind, width in px)`` of every graph drawing stored in ``nb``."""
    found = []
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if "image/svg+xml" in data:
                svg = data["image/svg+xml"]
                found.append((i, "svg", svg_width_px("".join(svg))))
            elif WIDGET_VIEW in data and "image/png" in data:
                found.append((i, "stepper still", png_width(data["image/png"])))
    return found


@pytest.mark.parametrize("path", notebooks(FOLDER), ids=lambda p: p.name[:2])
def test_stored_drawings_fit_the_notebook_column(path):
    found = drawings(nbformat.read(path, as_version=4))
    too_wide = [(i, kind, round(w)) for i, kind, w in found if w is None or w > FIT_PX + 0.5]
    assert too_wide == [], (
        f"{path.name}: drawings wider than {FIT_PX} px (cell, kind, px); if viz changed, "
        "re-execute the notebooks (make notebooks)"
    )


def test_the_width_reader_sees_a_drawing_too_wide(tmp_path):
    """The check above can fail: a notebook holding a 4,127 px drawing (nb11 before issue 24)."""
    nb = nbformat.v4.new_notebook()
    wide = '<svg width="3095pt" height="300pt" viewBox="0 0 3095 300"></svg>'
    data = {"image/svg+xml": wide, "text/plain": "n1 ..."}
    nb.cells.append(
        nbformat.v4.new_code_cell(outputs=[nbformat.v4.new_output("display_data", data)])
    )
    assert [(i, k, round(w)) for i, k, w in drawings(nb)] == [(0, "svg", 4127)]
