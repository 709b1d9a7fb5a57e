"""Every picture on the exported pages has alternative text (tools/alt_text.py, make html).

The rules are tested on a notebook written here (a cell's own ``alt``, a list of them, a graph
drawing's text, a widget's still picture, and a matplotlib figure with nothing to say, which
keeps nbconvert's placeholder so the checks below can fail); the committed course is checked
twice: every picture has a text (``missing_alt``) and the teacher's site, which holds every
output, has no ``<img>`` without ``alt`` and none with nbconvert's placeholder.
"""

from __future__ import annotations

import re

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook, new_output

from tests.test_course_html import PNG, fake_deps
from tools.alt_text import GRAPH_PREFIX, add_alt_texts, alt_text, missing_alt
from tools.course import notebooks
from tools.course_site import build_site

PLACEHOLDER = "No description has been provided for this image"
SVG = '<svg width="10pt" height="10pt"></svg>'
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def _picture(text: str = "<Figure size 640x480 with 1 Axes>", svg: bool = False) -> dict:
    data = {"image/svg+xml": SVG} if svg else {"image/png": PNG}
    return new_output("display_data", data=data | {"text/plain": text})


def _notebook():
    widget = {WIDGET_VIEW: {"model_id": "aa01", "version_major": 2, "version_minor": 0}}
    still = new_output(
        "display_data", data=widget | {"image/png": PNG, "text/plain": "<BackwardStepper: 5 steps>"}
    )
    return new_notebook(
        cells=[
            new_code_cell("plot()", metadata={"alt": "A line falling."}, outputs=[_picture()]),
            new_code_cell(
                "two()",
                metadata={"alt": ["First: dots.", "Second: bars."]},
                outputs=[_picture(), _picture()],
            ),
            new_code_cell("both()", metadata={"alt": "Two panels."}, outputs=[_picture()] * 2),
            new_code_cell("draw()", outputs=[_picture("n1 SumBackward0 | ()", svg=True)]),
            new_code_cell("stepper()", outputs=[still]),
            new_code_cell("undescribed()", outputs=[_picture()]),
        ]
    )


def _alts(html: str) -> list:
    """The ``alt`` of every ``<img>`` of a page, in order (None where it has none)."""
    found = []
    for tag in re.findall(r"<img\b[^>]*>", html):
        m = re.search(r'\balt="([^"]*)"', tag)
        found.append(None if m is None else m.group(1))
    return found


def test_each_rule_gives_its_text():
    nb = _notebook()
    assert alt_text(nb.cells[0], 0) == "A line falling."
    assert [alt_text(nb.cells[1], k) for k in (0, 1)] == ["First: dots.", "Second: bars."]
    assert [alt_text(nb.cells[2], k) for k in (0, 1)] == [
        "Two panels. (picture 1 of 2)",
        "Two panels. (picture 2 of 2)",
    ]
    assert alt_text(nb.cells[3], 0) == GRAPH_PREFIX + "n1 SumBackward0 | ()"
    assert alt_text(nb.cells[4], 0) == "<BackwardStepper: 5 steps>"
    assert alt_text(nb.cells[5], 0) is None  # a figure's repr says nothing of it
    assert missing_alt(nb) == [(5, 0)]


def test_exported_pictures_carry_their_text_and_only_undescribed_ones_the_placeholder(tmp_path):
    path = tmp_path / "05_pictures.ipynb"
    nbformat.write(_notebook(), path)
    (page,) = build_site([path], tmp_path / "site", "teacher", fake_deps(tmp_path / "deps"))
    assert _alts(page.read_text(encoding="utf-8")) == [
        "A line falling.",
        "First: dots.",
        "Second: bars.",
        "Two panels. (picture 1 of 2)",
        "Two panels. (picture 2 of 2)",
        GRAPH_PREFIX + "n1 SumBackward0 | ()",
        "&lt;BackwardStepper: 5 steps&gt;",
        PLACEHOLDER,  # what the checks of the committed course catch
    ]


def test_add_alt_texts_writes_the_output_metadata_the_template_reads():
    nb = _notebook()
    add_alt_texts(nb)
    assert nb.cells[0].outputs[0].metadata["alt"] == "A line falling."
    assert "alt" not in nb.cells[5].outputs[0].get("metadata", {})


@pytest.mark.parametrize("path", notebooks(), ids=lambda p: p.name[:2])
def test_every_picture_of_the_course_has_a_text(path):
    nb = nbformat.read(path, as_version=4)
    assert missing_alt(nb) == [], f"{path.name}: add metadata 'alt' to these (cell, picture)"


@pytest.fixture(scope="module")
def teacher_pages(tmp_path_factory):
    """The teacher's site of the committed course (every output is on it)."""
    out = tmp_path_factory.mktemp("alt")
    return build_site(notebooks(), out / "teacher", "teacher", fake_deps(out / "deps"))


def test_no_exported_picture_lacks_alt_text_or_says_no_description(teacher_pages):
    total = 0
    for page in teacher_pages:
        alts = _alts(page.read_text(encoding="utf-8"))
        total += len(alts)
        assert all(alt and alt.strip() for alt in alts), page.name
        assert not any(PLACEHOLDER in alt for alt in alts), page.name
    assert total >= 50  # the course's pictures are all there
