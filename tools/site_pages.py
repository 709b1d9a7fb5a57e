"""The pages of the course's static sites that are not notebooks (tools/course_site.py).

* each site's ``index.html``: one line per notebook, its title, time and prerequisites from
  the notebook's first cell, their Markdown rendered (`code`, and math for the site's MathJax);
* the landing page above the two sites, saying which is which;
* a readable copy of each repository file a notebook links to (``_source/<path>.html``:
  notebook 04 cites the engine's sources), so no link of a site leads out of it.
"""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path
from urllib.parse import quote, unquote

import nbformat
from nbconvert.filters import markdown2html
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import TextLexer, get_lexer_for_filename
from pygments.util import ClassNotFound

REPO = Path(__file__).resolve().parents[1]
STATIC = "_static/"  # the sites' assets folder, relative to every page
SOURCE = "_source/"  # copies of the repository files the notebooks link to

SITES = {
    "student": "for students: no solutions, no grading tests, no answers in outputs",
    "teacher": "for teachers: everything, solutions and grading tests labelled",
}


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


def mathjax_head(static_url: str = STATIC) -> str:
    """The ``<script>`` tags that configure and load the site's MathJax."""
    return (
        f"<script>window.MathJax = {json.dumps(MATHJAX_CONFIG)};</script>\n"
        f'<script defer src="{static_url}mathjax/tex-chtml-full.js"></script>'
    )


# --- links to other files of the repository -------------------------------------------------
_LINK = re.compile(r'(<a\b[^>]*?\shref=")([^"]+)(")')


def localize_links(body: str, src: Path, site: Path, root: Path = REPO) -> str:
    """Point a page's relative links at files the site has: a linked notebook at its page, any
    other file of the repository (notebook 04 cites the engine's sources) at a readable copy,
    ``_source/<path>.html`` (files under ``root`` only). Links elsewhere (other sites,
    anchors) stay as they are."""

    def fix(m: re.Match) -> str:
        url = html.unescape(m.group(2))
        if re.match(r"([a-z][a-z0-9+.-]*:|#|/)", url, re.I):
            return m.group(0)
        path, hash_, anchor = url.partition("#")
        target = (src.parent / unquote(path)).resolve()
        if target.suffix == ".ipynb" and target.parent == src.parent.resolve():
            new = f"{target.stem}.html"
        elif target.is_file() and target.is_relative_to(root.resolve()):
            new = source_page(target, site, root.resolve())
        else:
            return m.group(0)
        return m.group(1) + html.escape(new + hash_ + anchor) + m.group(3)

    return _LINK.sub(fix, body)


def source_page(path: Path, site: Path, root: Path = REPO) -> str:
    """Write ``site/_source/<path under root>.html``, the file as a page (Markdown rendered,
    code highlighted), or copy the file itself there if it is not text; return its URL from
    the site's top folder."""
    rel = path.relative_to(root).as_posix()
    dest = site / SOURCE / rel
    dest.parent.mkdir(parents=True, exist_ok=True)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:  # a picture, say: the browser shows it as it is
        shutil.copyfile(path, dest)
        return f"{SOURCE}{quote(rel)}"
    if path.suffix == ".md":
        body = markdown2html(text)
    else:
        try:
            lexer = get_lexer_for_filename(path.name)
        except ClassNotFound:
            lexer = TextLexer()
        body = highlight(text, lexer, HtmlFormatter(noclasses=True))
    dest.with_name(dest.name + ".html").write_text(page_html(rel, body), encoding="utf-8")
    return f"{SOURCE}{quote(rel)}.html"


# --- index pages ------------------------------------------------------------------------------
_TITLE = re.compile(r"^# (.+)$", re.M)
_TIME = re.compile(r"\*\*Time:\*\*\s*([^·\n]+)")
_ASSUMES = re.compile(r"\*\*Assumes:\*\*\s*(.+?)(?:\s*·\s*\*\*|\n\n|$)", re.S)


def summary(nb: nbformat.NotebookNode) -> dict:
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


def index_html(rows: list[tuple[str, dict]], audience: str) -> str:
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
    return page_html(
        f"minigrad-sparse: the course, {audience} site",
        f"<p>This copy is {html.escape(SITES[audience])}. Each page is a notebook with its "
        "stored outputs; the backward steppers step (buttons, slider, Play, arrow keys) "
        "without a kernel, and the pages need no network. To run the code, open the notebooks in JupyterLab.</p>\n"
        "<ul>\n" + "\n".join(items) + "\n</ul>",
        head=mathjax_head(),
    )


def landing_html() -> str:
    """``out/index.html``: one line per site saying who it is for."""
    lines = "\n".join(
        f'<li><a href="{name}/index.html">{name}/</a>: {html.escape(about)}</li>'
        for name, about in SITES.items()
    )
    return page_html("minigrad-sparse: the course, two sites", f"<ul>\n{lines}\n</ul>")


def page_html(title: str, body: str, head: str = "") -> str:
    """A plain page: ``title`` as its heading, then ``body`` (HTML)."""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title>\n{head}\n"
        "<style>body{font-family:Helvetica,sans-serif;max-width:48em;margin:2em auto}"
        "li{margin:0.6em 0} pre{overflow:auto}</style></head><body>\n"
        f"<h1>{html.escape(title)}</h1>\n{body}\n</body></html>\n"
    )
