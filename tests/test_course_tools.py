"""tools/course.py, the code of ``make handouts`` and ``make html``, on the committed notebooks.

``make html`` must export every notebook from what is stored (no kernel), keep the widget state
of those that have one (so the steppers step), and write an index linking each page with its
title; the command line writes where it is told and says what it wrote.
"""

from __future__ import annotations

import re

import nbformat
import pytest

from tools.course import (
    COURSE,
    export_html,
    has_widget_state,
    index_html,
    main,
    notebooks,
    summary,
)

STATE_TAG = '<script type="application/vnd.jupyter.widget-state+json">'


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("html")
    return out, export_html(notebooks(), out)


def test_every_notebook_gets_a_page_and_an_index_entry(site):
    out, pages = site
    assert [p.name for p in pages] == [nb.with_suffix(".html").name for nb in notebooks()]
    index = (out / "index.html").read_text(encoding="utf-8")
    assert re.findall(r'<a href="([^"]+)">', index) == [p.name for p in pages]
    for nb_path in notebooks():
        title = summary(nbformat.read(nb_path, as_version=4))["title"]
        assert title and f">{title}</a>" in index


def test_pages_keep_the_stored_outputs_and_widget_state(site):
    _, pages = site
    for nb_path, page in zip(notebooks(), pages):
        nb = nbformat.read(nb_path, as_version=4)
        body = page.read_text(encoding="utf-8")
        assert (STATE_TAG in body) == has_widget_state(nb), page.name
        counts = [c.execution_count for c in nb.cells if c.cell_type == "code"]
        if counts and counts[-1]:  # the stored prompt numbers: nothing was re-executed
            assert f"[{counts[-1]}]:" in body


def test_summary_reads_the_course_first_cell():
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell(
            "# 02 · Graphs and the chain rule\n\n**Time:** about 30 minutes · **Assumes:** "
            "notebook 01; the chain rule\n· **Under `import torch`:** all but viz.\n\n## Goals"
        )
    ]
    assert summary(nb) == {
        "title": "02 · Graphs and the chain rule",
        "time": "about 30 minutes",
        "assumes": "notebook 01; the chain rule",
    }
    page = index_html([("02_graphs_and_the_chain_rule.html", summary(nb))])
    assert "time: about 30 minutes · assumes: notebook 01; the chain rule" in page
    empty = summary(nbformat.v4.new_notebook())
    assert empty == {"title": "", "time": "", "assumes": ""}
    assert '<a href="x.html">x.html</a>' in index_html([("x.html", empty)])


def test_the_command_line_writes_handouts_where_told(tmp_path, capsys):
    first = notebooks()[0]
    assert main(["handouts", "--out", str(tmp_path / "h"), str(first)]) == 0
    assert (tmp_path / "h" / first.name).is_file()
    assert f"wrote {tmp_path / 'h' / first.name}" in capsys.readouterr().out
    assert len(COURSE) == 13


def test_the_command_line_refuses_an_unknown_target(capsys):
    with pytest.raises(SystemExit):
        main(["slides"])
    assert "invalid choice: 'slides'" in capsys.readouterr().err
