"""The course's notebooks as a teacher ships them: student handouts and a static HTML site.

``make handouts`` and ``make html`` call this script; the tests call the same functions.

* ``handouts OUT``: a copy of every notebook without the cells tagged ``solution`` (nbconvert's
  ``TagRemovePreprocessor``), with outputs, execution counts and widget state cleared: a
  worksheet the student runs from the top. The ``exercise`` and ``check`` cells stay.
* ``html OUT``: every notebook exported to ``OUT/NAME.html`` from its committed outputs and
  widget state (no kernel runs), so the steppers still step in the browser; ``OUT/index.html``
  links them with each notebook's title, time and prerequisites.

Usage: ``python tools/course.py {handouts,html} [--out DIR] [NOTEBOOK ...]`` (default: every
``notebooks/[0-9][0-9]_*.ipynb``).
"""

from __future__ import annotations

import argparse
import html
import re
import sys
from pathlib import Path

import nbformat
from nbconvert import HTMLExporter
from nbconvert.preprocessors import ClearOutputPreprocessor, TagRemovePreprocessor

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"
# The course (issue 14): these exact names, in this order.
COURSE = (
    "00_course_map.ipynb",
    "01_three_ways_to_differentiate.ipynb",
    "02_graphs_and_the_chain_rule.ipynb",
    "03_beyond_scalars.ipynb",
    "04_read_the_engine.ipynb",
    "05_custom_gradients_and_higher_order.ipynb",
    "06_forward_vs_reverse.ipynb",
    "07_three_styles.ipynb",
    "08_debugging_and_training_tricks.ipynb",
    "09_sparse_storage.ipynb",
    "10_sparse_gradients_and_densification.ipynb",
    "11_sparse_applications.ipynb",
    "12_gradients_across_processes.ipynb",
)
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
_TITLE = re.compile(r"^# (.+)$", re.M)
_TIME = re.compile(r"\*\*Time:\*\*\s*([^·\n]+)")
_ASSUMES = re.compile(r"\*\*Assumes:\*\*\s*(.+?)(?:\s*·\s*\*\*|\n\n|$)", re.S)


def notebooks(folder: Path = NOTEBOOKS) -> list:
    """Every numbered notebook of ``folder`` (``NN_name.ipynb``), in course order."""
    return sorted(folder.glob("[0-9][0-9]_*.ipynb"))


def tags(cell) -> list:
    return list(cell.get("metadata", {}).get("tags", []))


def handout(nb):
    """A student copy of ``nb``: no ``solution`` cells; outputs and widget state cleared."""
    nb = nbformat.from_dict(nb)  # a copy: the caller's notebook stays as it was
    resources: dict = {}
    nb, _ = TagRemovePreprocessor(remove_cell_tags={"solution"}, enabled=True).preprocess(
        nb, resources
    )
    nb, _ = ClearOutputPreprocessor().preprocess(nb, resources)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)  # run timestamps of the teacher's run
    nb.metadata.pop("widgets", None)
    return nb


def write_handouts(sources, out: Path) -> list:
    """Write ``handout(nb)`` of each source notebook to ``out``; return the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for src in sources:
        dst = out / Path(src).name
        nbformat.write(handout(nbformat.read(src, as_version=4)), dst)
        written.append(dst)
    return written


def summary(nb) -> dict:
    """Title, time and prerequisites from a notebook's first (markdown) cell, where it says."""
    first = nb.cells[0].source if nb.cells and nb.cells[0].cell_type == "markdown" else ""
    found = {"title": _TITLE, "time": _TIME, "assumes": _ASSUMES}
    out = {}
    for key, pattern in found.items():
        m = pattern.search(first)
        out[key] = " ".join(m.group(1).split()).rstrip(" ·") if m else ""
    return out


def has_widget_state(nb) -> bool:
    return bool(nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state"))


def export_html(sources, out: Path) -> list:
    """Export each notebook to ``out/NAME.html`` (its stored outputs and widget state, no
    kernel), then ``out/index.html`` linking them; return the notebook pages written."""
    out.mkdir(parents=True, exist_ok=True)
    exporter = HTMLExporter()
    rows, written = [], []
    for src in sources:
        src = Path(src)
        nb = nbformat.read(src, as_version=4)
        body, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": src.stem}})
        page = out / f"{src.stem}.html"
        page.write_text(body, encoding="utf-8")
        written.append(page)
        rows.append((page.name, summary(nb)))
    (out / "index.html").write_text(index_html(rows), encoding="utf-8")
    return written


def index_html(rows) -> str:
    """The index page: one line per notebook, its title linked, then time and prerequisites."""
    items = []
    for href, info in rows:
        title = html.escape(info["title"] or href)
        about = " · ".join(
            f"{label}: {html.escape(info[key])}"
            for label, key in (("time", "time"), ("assumes", "assumes"))
            if info[key]
        )
        items.append(
            f'<li><a href="{html.escape(href)}">{title}</a><br><small>{about}</small></li>'
        )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        "<title>minigrad-sparse: the course</title>"
        "<style>body{font-family:Helvetica,sans-serif;max-width:48em;margin:2em auto}"
        "li{margin:0.6em 0}</style></head><body>\n"
        "<h1>minigrad-sparse: the course</h1>\n"
        "<p>Each page is a notebook with its stored outputs; the backward steppers step "
        "(slider and Play) without a kernel. To run the code, open the notebooks in JupyterLab "
        "(<code>make lab</code>).</p>\n<ul>\n" + "\n".join(items) + "\n</ul>\n</body></html>\n"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("handouts", "html"))
    parser.add_argument("--out", type=Path, help="output folder (handouts/ or build/html/)")
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: notebooks/NN_*.ipynb")
    args = parser.parse_intermixed_args(argv)  # `handouts --out DIR a.ipynb b.ipynb`
    sources = args.notebooks or notebooks()
    if not sources:
        print(f"no notebooks/NN_*.ipynb in {NOTEBOOKS}", file=sys.stderr)
        return 1
    if args.what == "handouts":
        written = write_handouts(sources, args.out or REPO / "handouts")
    else:
        written = export_html(sources, args.out or REPO / "build" / "html")
    for path in written:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
