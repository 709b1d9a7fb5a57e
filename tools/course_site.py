"""The course as two static HTML sites that work offline: ``make html`` builds them.

``build_sites(sources, out, deps)`` writes

* ``out/student/``: every notebook without its ``solution`` and ``grading`` cells and without
  the stored outputs of its ``check`` and ``reveal`` cells (their code stays), for students;
* ``out/teacher/``: every notebook as committed, each solution and grading cell under a visible
  "Solution" / "Grading test" label;
* ``out/index.html``: which site is which (the pages that are not notebooks:
  tools/site_pages.py).

Each site is one folder that works anywhere (a web server, an LMS upload, a laptop offline):
its pages come from the stored outputs and widget state (nothing executes), and every script,
style and font they load (require.js, the ipywidgets HTML manager with its icon font,
anywidget's front end, MathJax) is copied into the site's ``_static/`` from ``deps``, the npm
packages ``make html-deps`` unpacks, and referenced by a relative URL. The template
(``nbconvert_templates/course_site``) also shows each widget's stored still picture until the
widget renders, so a page read with JavaScript off shows the stepper's picture.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterable
from pathlib import Path

import nbformat
from nbconvert import HTMLExporter
from nbconvert.preprocessors import TagRemovePreprocessor

from tools.alt_text import add_alt_texts
from tools.site_pages import (
    SITES,
    STATIC,
    index_html,
    landing_html,
    localize_links,
    mathjax_head,
    summary,
)

TEMPLATES = Path(__file__).resolve().parent / "nbconvert_templates"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

# What a student's copy leaves out (the course's cell tags, issue 23).
STUDENT_REMOVED_CELLS = frozenset({"solution", "grading"})
STUDENT_REMOVED_OUTPUTS = frozenset({"check", "reveal"})
TEACHER_LABELS = {"solution": "Solution", "grading": "Grading test"}

# Files copied from the npm packages (under ``deps``) into ``_static/``: (glob, folder).
# MathJax finds its fonts beside its script; the widget manager finds its icon font
# (FontAwesome, for ipywidgets' controls; the stepper's buttons are inline SVG) beside its own
# script (the page's require.js paths).
STATIC_FILES = (
    ("requirejs/require.js", ""),
    ("html-manager/dist/embed-amd.js", "html-manager"),
    ("html-manager/dist/*.woff2", "html-manager"),
    ("html-manager/dist/*.woff", "html-manager"),
    ("anywidget/dist/index.js", "anywidget"),
    ("mathjax/es5/tex-chtml-full.js", "mathjax"),
    ("mathjax/es5/output/chtml/fonts/woff-v2/*.woff", "mathjax/output/chtml/fonts/woff-v2"),
)

SITE_CSS = """\
.mg-widget-or-still:has(.widget-subarea > *) > .mg-still { display: none; }
.mg-cell-label {
  display: inline-block; padding: 0.1em 0.6em;
  margin: 0.8em 0 0.1em calc(var(--jp-cell-prompt-width, 64px) + 17px);  /* above the code */
  font: bold 0.8em var(--jp-ui-font-family, sans-serif); border-radius: 3px;
  color: #fff; background: #15803d;
}
.mg-cell-label-grading { background: #1d4ed8; }
"""


class MissingAssetError(FileNotFoundError):
    """A file the site must carry is not in the html-deps folder."""


def student_copy(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """``nb`` as students see it: no ``solution``/``grading`` cells, no stored output of a
    ``check``/``reveal`` cell, and no widget state that only those outputs showed."""
    nb = nbformat.from_dict(nb)  # a copy: the caller's notebook stays as it was
    remover = TagRemovePreprocessor(
        remove_cell_tags=set(STUDENT_REMOVED_CELLS),
        remove_all_outputs_tags=set(STUDENT_REMOVED_OUTPUTS),
        enabled=True,
    )
    nb, _ = remover.preprocess(nb, {})
    drop_unshown_widgets(nb)
    return nb


def _refs(value) -> set:
    """Model ids referenced (``"IPY_MODEL_<id>"``) anywhere inside a widget's state."""
    return set(re.findall(r"IPY_MODEL_(\w+)", json.dumps(value)))


def drop_unshown_widgets(nb: nbformat.NotebookNode) -> None:
    """Keep only the widget models an output still shows, the models they use, and those
    that link them (jslinks); a removed output's widgets (its answers) leave the page too."""
    store = nb.metadata.get("widgets", {}).get(WIDGET_STATE)
    if not store:
        return
    state = store.get("state", {})
    keep = {
        out["data"][WIDGET_VIEW]["model_id"]
        for cell in nb.cells
        for out in cell.get("outputs", [])
        if WIDGET_VIEW in out.get("data", {})
    }
    while True:  # close under "uses" (children, layout) and "links" (jslink between two kept)
        grown = set(keep)
        for mid in keep & state.keys():
            grown |= _refs(state[mid])
        for mid, model in state.items():
            refs = _refs(model)
            if refs and refs <= grown:
                grown.add(mid)
        if grown == keep:
            break
        keep = grown
    store["state"] = {mid: model for mid, model in state.items() if mid in keep}
    if not store["state"]:
        del nb.metadata["widgets"]


def copy_static(deps: Path, site: Path) -> list:
    """Copy ``STATIC_FILES`` from ``deps`` to ``site/_static``; return the files written."""
    written = []
    for pattern, folder in STATIC_FILES:
        found = sorted(deps.glob(pattern))
        if not found:
            raise MissingAssetError(
                f"{deps / pattern} not found: the site needs it in {site / STATIC / folder}. "
                "`make html-deps` fetches the npm packages (it needs npm), or pass --deps DIR."
            )
        dest = site / STATIC / folder
        dest.mkdir(parents=True, exist_ok=True)
        for src in found:
            written.append(Path(shutil.copyfile(src, dest / src.name)))
    return written


def exporter() -> HTMLExporter:
    """nbconvert's HTML exporter with the course's template, which writes every script tag
    itself; the URL options are set to the site's copies too, for any block it inherits."""
    return HTMLExporter(
        extra_template_basedirs=[str(TEMPLATES)],
        template_name="course_site",
        require_js_url=f"{STATIC}require.js",
        mathjax_url=f"{STATIC}mathjax/tex-chtml-full.js",
        widget_renderer_url=f"{STATIC}html-manager/embed-amd.js",
        jupyter_widgets_base_url=STATIC,
    )


def export_page(exp: HTMLExporter, nb: nbformat.NotebookNode, name: str, labels: dict) -> str:
    """One notebook as a page of a site (``labels``: cell tag -> label shown above the cell);
    every picture gets its alternative text (tools/alt_text.py)."""
    add_alt_texts(nb)
    resources = {
        "metadata": {"name": name},
        "static_url": STATIC,
        "mathjax_head": mathjax_head(),
        "site_css": SITE_CSS,
        "cell_labels": labels,
    }
    body, _ = exp.from_notebook_node(nb, resources=resources)
    return body


def build_site(sources: Iterable[str | Path], site: Path, audience: str, deps: Path) -> list:
    """One site (``audience``: ``"student"`` or ``"teacher"``) in ``site``: its assets, a page
    per notebook and ``index.html``; return the notebook pages written."""
    if audience not in SITES:
        raise ValueError(f"audience must be one of {sorted(SITES)}, got {audience!r}")
    site.mkdir(parents=True, exist_ok=True)
    copy_static(deps, site)
    exp = exporter()
    labels = TEACHER_LABELS if audience == "teacher" else {}
    rows, written = [], []
    for src in map(Path, sources):
        nb = nbformat.read(src, as_version=4)
        if audience == "student":
            nb = student_copy(nb)
        page = site / f"{src.stem}.html"
        body = localize_links(export_page(exp, nb, src.stem, labels), src, site)
        page.write_text(body, encoding="utf-8")
        written.append(page)
        rows.append((page.name, summary(nb)))
    (site / "index.html").write_text(index_html(rows, audience), encoding="utf-8")
    return written


def build_sites(sources: Iterable[str | Path], out: Path, deps: Path) -> dict:
    """Both sites under ``out`` and the landing page ``out/index.html``; return
    ``{audience: [notebook pages]}``."""
    pages = {audience: build_site(sources, out / audience, audience, deps) for audience in SITES}
    (out / "index.html").write_text(landing_html(), encoding="utf-8")
    return pages
