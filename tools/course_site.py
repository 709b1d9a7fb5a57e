"""The course as two static HTML sites that work offline: ``make html`` builds them.

``build_sites(sources, out, deps)`` writes

* ``out/student/``: every notebook without its ``solution`` and ``grading`` cells and without
  the stored outputs of its ``check`` and ``reveal`` cells (their code stays), for students;
* ``out/teacher/``: every notebook as committed, each solution and grading cell under a visible
  "Solution" / "Grading test" label;
* ``out/index.html``: which site is which.

Each site is one folder that works anywhere (a web server, an LMS upload, a laptop offline):
its pages come from the stored outputs and widget state (nothing executes), and every script,
style and font they load (require.js, the ipywidgets HTML manager with its icon font,
anywidget's front end, MathJax) is copied into the site's ``_static/`` from ``deps``, the npm
packages ``make html-deps`` unpacks, and referenced by a relative URL. The template
(``nbconvert_templates/course_site``) also shows each widget's stored still picture until the
widget renders, so a page read with JavaScript off shows the stepper's picture.
"""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import nbformat
from nbconvert import HTMLExporter
from nbconvert.filters import markdown2html
from nbconvert.preprocessors import TagRemovePreprocessor

TEMPLATES = Path(__file__).resolve().parent / "nbconvert_templates"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
STATIC = "_static/"  # the sites' assets folder, relative to every page

# What a student's copy leaves out (the tags of docs/COURSE_CONVENTIONS.md, issue 23).
STUDENT_REMOVED_CELLS = frozenset({"solution", "grading"})
STUDENT_REMOVED_OUTPUTS = frozenset({"check", "reveal"})
TEACHER_LABELS = {"solution": "Solution", "grading": "Grading test"}

# Files copied from the npm packages (under ``deps``) into ``_static/``: (glob, folder).
# MathJax finds its fonts beside its script; the widget manager finds FontAwesome (the
# stepper's button icons) in the folder the page names in __jupyter_widgets_assets_path__.
STATIC_FILES = (
    ("requirejs/require.js", ""),
    ("html-manager/dist/embed-amd.js", "html-manager"),
    ("html-manager/dist/*.woff2", "html-manager"),
    ("html-manager/dist/*.woff", "html-manager"),
    ("anywidget/dist/index.js", "anywidget"),
    ("mathjax/es5/tex-chtml-full.js", "mathjax"),
    ("mathjax/es5/output/chtml/fonts/woff-v2/*.woff", "mathjax/output/chtml/fonts/woff-v2"),
)

# MathJax 3 with the delimiters JupyterLab uses ($...$, $$...$$, \(...\), \[...\]).
MATHJAX_CONFIG = {
    "tex": {
        "inlineMath": [["$", "$"], ["\\(", "\\)"]],
        "displayMath": [["$$", "$$"], ["\\[", "\\]"]],
        "processEscapes": True,
        "processEnvironments": True,
        "tags": "ams",
    },
    "options": {"ignoreHtmlClass": "tex2jax_ignore", "processHtmlClass": "tex2jax_process"},
}

SITE_CSS = """\
.mg-widget-or-still:has(.widget-subarea > *) > .mg-still { display: none; }
.mg-cell-label {
  display: inline-block; margin: 0.8em 0 0.1em 64px; padding: 0.1em 0.6em;
  font: bold 0.8em var(--jp-ui-font-family, sans-serif); border-radius: 3px;
  color: #fff; background: #15803d;
}
.mg-cell-label-grading { background: #1d4ed8; }
"""

SITES = {
    "student": "for students: no solutions, no grading tests, no answers in outputs",
    "teacher": "for teachers: everything, solutions and grading tests labelled",
}


class MissingAssetError(FileNotFoundError):
    """A file the site must carry is not in the html-deps folder."""


def student_copy(nb):
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
    return set(re.findall(r"IPY_MODEL_([0-9a-f]+)", json.dumps(value)))


def drop_unshown_widgets(nb) -> None:
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


def mathjax_head(static_url: str = STATIC) -> str:
    """The ``<script>`` tags that configure and load the site's MathJax."""
    return (
        f"<script>window.MathJax = {json.dumps(MATHJAX_CONFIG)};</script>\n"
        f'<script defer src="{static_url}mathjax/tex-chtml-full.js"></script>'
    )


def exporter() -> HTMLExporter:
    """nbconvert's HTML exporter with the course's template; every URL it writes is local."""
    return HTMLExporter(
        extra_template_basedirs=[str(TEMPLATES)],
        template_name="course_site",
        require_js_url=f"{STATIC}require.js",
        mathjax_url=f"{STATIC}mathjax/tex-chtml-full.js",
        widget_renderer_url=f"{STATIC}html-manager/embed-amd.js",
        jupyter_widgets_base_url=STATIC,
    )


def export_page(exp: HTMLExporter, nb, name: str, labels: dict) -> str:
    """One notebook as a page of a site (``labels``: cell tag -> label shown above the cell)."""
    resources = {
        "metadata": {"name": name},
        "static_url": STATIC,
        "mathjax_head": mathjax_head(),
        "site_css": SITE_CSS,
        "cell_labels": labels,
    }
    body, _ = exp.from_notebook_node(nb, resources=resources)
    return body


def build_site(sources, site: Path, audience: str, deps: Path) -> list:
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
        page.write_text(export_page(exp, nb, src.stem, labels), encoding="utf-8")
        written.append(page)
        rows.append((page.name, summary(nb)))
    (site / "index.html").write_text(index_html(rows, audience), encoding="utf-8")
    return written


def build_sites(sources, out: Path, deps: Path) -> dict:
    """Both sites under ``out`` and the landing page ``out/index.html``; return
    ``{audience: [notebook pages]}``."""
    pages = {audience: build_site(sources, out / audience, audience, deps) for audience in SITES}
    (out / "index.html").write_text(landing_html(), encoding="utf-8")
    return pages


# --- index pages ------------------------------------------------------------------------------
_TITLE = re.compile(r"^# (.+)$", re.M)
_TIME = re.compile(r"\*\*Time:\*\*\s*([^·\n]+)")
_ASSUMES = re.compile(r"\*\*Assumes:\*\*\s*(.+?)(?:\s*·\s*\*\*|\n\n|$)", re.S)


def summary(nb) -> dict:
    """Title, time and prerequisites (Markdown) from a notebook's first markdown cell."""
    first = nb.cells[0].source if nb.cells and nb.cells[0].cell_type == "markdown" else ""
    found = {"title": _TITLE, "time": _TIME, "assumes": _ASSUMES}
    out = {}
    for key, pattern in found.items():
        m = pattern.search(first)
        out[key] = " ".join(m.group(1).split()).rstrip(" ·") if m else ""
    return out


def inline_markdown(text: str) -> str:
    """One line of Markdown as inline HTML: `code` becomes <code>, math stays for MathJax."""
    rendered = markdown2html(text).strip()
    if rendered.startswith("<p>") and rendered.endswith("</p>") and rendered.count("<p>") == 1:
        rendered = rendered[3:-4]
    return rendered


def index_html(rows, audience: str) -> str:
    """A site's index: one line per notebook, its title linked, then time and prerequisites."""
    items = []
    for href, info in rows:
        title = inline_markdown(info["title"]) if info["title"] else html.escape(href)
        about = " · ".join(
            f"{label}: {inline_markdown(info[key])}"
            for label, key in (("time", "time"), ("assumes", "assumes"))
            if info[key]
        )
        items.append(
            f'<li><a href="{html.escape(href)}">{title}</a><br><small>{about}</small></li>'
        )
    return _page(
        f"minigrad-sparse: the course ({audience}s)",
        f"<p>This copy is {html.escape(SITES[audience])}. Each page is a notebook with its "
        "stored outputs; the backward steppers step (slider and Play) without a kernel, and "
        "the pages need no network. To run the code, open the notebooks in JupyterLab.</p>\n"
        "<ul>\n" + "\n".join(items) + "\n</ul>",
        head=mathjax_head(),
    )


def landing_html() -> str:
    """``out/index.html``: one line per site saying who it is for."""
    lines = "\n".join(
        f'<li><a href="{name}/index.html">{name}/</a>: {html.escape(about)}</li>'
        for name, about in SITES.items()
    )
    return _page("minigrad-sparse: the course, two sites", f"<ul>\n{lines}\n</ul>")


def _page(title: str, body: str, head: str = "") -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title>\n{head}\n"
        "<style>body{font-family:Helvetica,sans-serif;max-width:48em;margin:2em auto}"
        "li{margin:0.6em 0}</style></head><body>\n"
        f"<h1>{html.escape(title)}</h1>\n{body}\n</body></html>\n"
    )
