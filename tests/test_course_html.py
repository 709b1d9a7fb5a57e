"""The two static sites of ``make html`` (tools/course_site.py), built without a browser.

* The student site has no ``solution`` or ``grading`` cell and no stored output of a ``check`` or
  ``reveal`` cell (nor the widget state only those outputs showed); everything else is kept.
  The teacher site has everything, each solution and grading cell under a visible label.
* No page loads anything from the network: no ``http(s)://`` in the ``src``/``href`` of a script,
  stylesheet, image or font, nor in a stylesheet's ``url()``; every local file a page names is
  in the site.
* A widget output carries its still picture; the index renders each notebook's Markdown.

The tag rules are tested on a notebook written here (each tag on its own cell, with marker
strings), so they hold whatever the committed notebooks carry today; the committed notebooks
are built too, for the network and asset rules. The npm packages the sites carry are stand-in
files here (the same names, tiny contents): tests/browser loads the real ones.
"""

from __future__ import annotations

import functools
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from tools.course import notebooks
from tools.course_site import (
    SITES,
    STATIC_FILES,
    WIDGET_STATE,
    WIDGET_VIEW,
    MissingAssetError,
    build_site,
    build_sites,
    student_copy,
)
from tools.site_pages import localize_links, summary

PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
# Widget models: a stepper shown by a plain cell, and one shown only by a ``reveal`` cell.
SHOWN = {"box": "aa01", "slider": "aa02", "view": "aa03", "layout": "aa04", "link": "aa05"}
REVEALED = {"box": "bb01", "view": "bb02", "link": "bb03"}


def fake_deps(root: Path) -> Path:
    """A stand-in for ``make html-deps``: one small file per pattern of ``STATIC_FILES``."""
    for pattern, _ in STATIC_FILES:
        path = root / pattern.replace("*", "stand-in")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"/* stand-in for {pattern} */\n")
    return root


def _ref(model_id: str) -> str:
    return f"IPY_MODEL_{model_id}"


def _widget_output(box: str, text: str) -> dict:
    data = {WIDGET_VIEW: {"model_id": box, "version_major": 2, "version_minor": 0}}
    data |= {"image/png": PNG, "text/plain": text}
    return new_output("execute_result", data=data, execution_count=7)


def _models() -> dict:
    def model(name: str, **state) -> dict:
        return {
            "model_name": name,
            "model_module": "m",
            "model_module_version": "1",
            "state": state,
        }

    s, r = SHOWN, REVEALED
    return {
        s["box"]: model(
            "VBoxModel", children=[_ref(s["slider"]), _ref(s["view"])], layout=_ref(s["layout"])
        ),
        s["slider"]: model("IntSliderModel", value=1),
        s["view"]: model("AnyModel", step=1, frames=["SHOWN-FRAME"]),
        s["layout"]: model("LayoutModel"),
        s["link"]: model(
            "LinkModel", source=[_ref(s["slider"]), "value"], target=[_ref(s["view"]), "step"]
        ),
        r["box"]: model("VBoxModel", children=[_ref(r["view"])]),
        r["view"]: model("AnyModel", step=1, frames=["REVEALED-FRAME"]),
        r["link"]: model(
            "LinkModel", source=[_ref(r["view"]), "step"], target=[_ref(r["box"]), "x"]
        ),
    }


def tagged_notebook() -> nbformat.NotebookNode:
    """Every tag of the course's conventions on a cell of its own, each with a marker string."""
    nb = new_notebook()
    title = new_markdown_cell(
        "# 03 · Beyond `scalars`\n\n**Time:** about 45 minutes · **Assumes:** a Jacobian "
        "$J_{ij} = \\partial y_i / \\partial x_j$; `grad_fn`\n\n## Goals"
    )
    exercise = new_code_cell("answer_1 = ...  # EXERCISE-SOURCE", execution_count=1)
    solution = new_code_cell("# Solution\nanswer_1 = 'SOLUTION-SOURCE'", execution_count=2)
    solution.outputs = [new_output("stream", text="SOLUTION-OUTPUT\n")]
    check = new_code_cell("print(check(answer_1))  # CHECK-SOURCE", execution_count=3)
    check.outputs = [new_output("stream", text="Correct: CHECK-OUTPUT\n")]
    reveal = new_code_cell("stepper_2  # REVEAL-SOURCE", execution_count=4)
    reveal.outputs = [_widget_output(REVEALED["box"], "REVEAL-OUTPUT")]
    grading = new_code_cell("assert answer_1 == 'GRADING-SOURCE'", execution_count=5)
    plain = new_code_cell("stepper  # PLAIN-SOURCE", execution_count=6)
    plain.outputs = [_widget_output(SHOWN["box"], "<BackwardStepper: 5 steps>")]
    for cell, tag in [
        (exercise, "exercise"),
        (solution, "solution"),
        (check, "check"),
        (reveal, "reveal"),
        (grading, "grading"),
    ]:
        cell.metadata["tags"] = [tag]
    math = new_markdown_cell("whose gradient is $\\partial y / \\partial x_i = 2x_i + 2$.")
    nb.cells = [title, exercise, solution, check, reveal, grading, plain, math]
    nb.metadata["widgets"] = {
        WIDGET_STATE: {"state": _models(), "version_major": 2, "version_minor": 0}
    }
    return nb


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    """Both sites built from ``tagged_notebook()``: ``(out, {audience: page text})``."""
    tmp = tmp_path_factory.mktemp("tagged")
    src = tmp / "03_tagged.ipynb"
    nbformat.write(tagged_notebook(), src)
    out = tmp / "html"
    pages = build_sites([src], out, fake_deps(tmp / "deps"))
    return out, {name: found[0].read_text(encoding="utf-8") for name, found in pages.items()}


@pytest.fixture(scope="module")
def course_sites(tmp_path_factory):
    """Both sites built from the committed notebooks."""
    tmp = tmp_path_factory.mktemp("course")
    out = tmp / "html"
    return out, build_sites(notebooks(), out, fake_deps(tmp / "deps"))


# --- what each site holds -----------------------------------------------------------------------
def test_student_site_has_no_solution_grading_or_answer_output(sites):
    page = sites[1]["student"]
    for hidden in ("SOLUTION-SOURCE", "SOLUTION-OUTPUT", "GRADING-SOURCE"):
        assert hidden not in page
    for hidden in ("CHECK-OUTPUT", "REVEAL-OUTPUT", "REVEALED-FRAME"):
        assert hidden not in page
    # Kept: the exercise, the check's and the reveal's code, the other outputs.
    for kept in ("EXERCISE-SOURCE", "CHECK-SOURCE", "REVEAL-SOURCE", "PLAIN-SOURCE"):
        assert kept in page
    assert "SHOWN-FRAME" in page and "&lt;BackwardStepper: 5 steps&gt;" in page
    assert "mg-cell-label" not in page.split("</style>")[-1]  # no label outside the CSS


def test_teacher_site_has_everything_and_labels_solutions_and_grading(sites):
    page = sites[1]["teacher"]
    for marker in ("SOLUTION-SOURCE", "SOLUTION-OUTPUT", "GRADING-SOURCE", "CHECK-OUTPUT"):
        assert marker in page
    assert "REVEAL-OUTPUT" in page and "REVEALED-FRAME" in page
    labels = re.findall(r'<div class="mg-cell-label mg-cell-label-(\w+)">([^<]+)</div>', page)
    assert labels == [("solution", "Solution"), ("grading", "Grading test")]
    # Each label sits right above its cell.
    assert page.index(">Solution</div>") < page.index("SOLUTION-SOURCE")
    assert page.index("CHECK-SOURCE") < page.index(">Grading test</div>")
    assert page.index(">Grading test</div>") < page.index("GRADING-SOURCE")


def test_student_copy_keeps_only_the_widgets_an_output_still_shows():
    nb = tagged_notebook()
    copy = student_copy(nb)
    assert set(copy.metadata.widgets[WIDGET_STATE]["state"]) == set(SHOWN.values())
    assert [c.metadata.get("tags", []) for c in copy.cells] == [
        [],
        ["exercise"],
        ["check"],
        ["reveal"],
        [],
        [],
    ]
    check, reveal = copy.cells[2], copy.cells[3]
    assert check.outputs == [] and reveal.outputs == []
    assert copy.cells[1].execution_count == 1 and copy.cells[4].execution_count == 6
    assert len(nb.cells) == 8 and nb.cells[2].outputs  # the caller's notebook is unchanged


def test_a_student_copy_whose_widgets_are_all_hidden_has_no_widget_state():
    nb = tagged_notebook()
    nb.cells[6].metadata["tags"] = ["reveal"]  # the last shown stepper: now a reveal
    assert "widgets" not in student_copy(nb).metadata


def stills(page: str) -> list:
    """``(png, alt)`` of each still picture, for the outputs that hold both it and a widget."""
    found = []
    for block in page.split('<div class="mg-widget-or-still">')[1:]:
        still, widget = block.split('<div class="jupyter-widgets', 1)
        assert f'<script type="{WIDGET_VIEW}">' in widget.split("</div>")[0]
        img = re.search(r"<img [^>]+>", still).group(0)
        png = re.search(r'src="data:image/png;base64,([^"]+)"', img).group(1)
        found.append((png, re.search(r'alt="([^"]*)"', img).group(1)))
    return found


def test_a_widget_output_carries_its_still_picture(sites):
    stepper = (PNG, "&lt;BackwardStepper: 5 steps&gt;")
    expected = {"student": [stepper], "teacher": [(PNG, "REVEAL-OUTPUT"), stepper]}
    for audience, page in sites[1].items():
        assert stills(page) == expected[audience]
        # The picture hides once the widget has rendered into the output (site CSS).
        assert ".mg-widget-or-still:has(.widget-subarea > *) > .mg-still { display: none; }" in page


# --- nothing from the network; every local file there ------------------------------------------
class _Refs(HTMLParser):
    """Every URL a page loads (scripts, stylesheets, images, fonts in CSS) and every link."""

    LOADS = {"script": "src", "link": "href", "img": "src", "source": "src", "iframe": "src"}
    CSS_URL = re.compile(r"""url\(\s*['"]?([^'")\s]+)|@import\s+['"]([^'"]+)""")

    def __init__(self):
        super().__init__()
        self.loads: list[tuple[str, str]] = []
        self.links: list[str] = []
        self.static: list[str] = []  # "_static/..." named in inline scripts and data- attributes
        self._in: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in self.LOADS and attrs.get(self.LOADS[tag]):
            self.loads.append((tag, attrs[self.LOADS[tag]]))
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        for value in attrs.values():
            self.static += re.findall(r"^_static/\S*$", value or "")
        for m in self.CSS_URL.finditer(attrs.get("style") or ""):
            self.loads.append(("style attribute", m.group(1) or m.group(2)))
        executable = attrs.get("type") in (None, "text/javascript", "module")
        self._in = tag if tag == "style" or (tag == "script" and executable) else None

    def handle_endtag(self, tag):
        self._in = None

    def handle_data(self, data):
        if self._in == "style":
            self.loads += [("style", m.group(1) or m.group(2)) for m in self.CSS_URL.finditer(data)]
        elif self._in == "script":
            self.static += re.findall(r"""["'](_static/[^"']*)["']""", data)
            self.loads += [("inline script", u) for u in re.findall(r"https?://[^\s'\"]+", data)]


@functools.cache
def refs(page: Path) -> _Refs:
    """What ``page`` loads and links to (parsed once per page: the pages are large)."""
    parser = _Refs()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser


def _html_files(out: Path) -> list:
    files = sorted(out.rglob("*.html"))
    assert len(files) >= 5
    return files


@pytest.mark.parametrize("which", ["sites", "course_sites"])
def test_no_page_loads_anything_from_the_network(which, request):
    out = request.getfixturevalue(which)[0]
    for page in _html_files(out):
        remote = [(k, u) for k, u in refs(page).loads if re.match(r"(https?:)?//", u)]
        assert remote == [], page


@pytest.mark.parametrize("which", ["sites", "course_sites"])
def test_every_local_file_a_page_names_is_in_the_site(which, request):
    out = request.getfixturevalue(which)[0]
    for page in _html_files(out):
        found = refs(page)
        local = [u for _, u in found.loads if not u.startswith("data:")]
        local += [u for u in found.links if not re.match(r"(#|[a-z]+:)", u)]
        for url in local:
            target = page.parent / url.split("#")[0].split("?")[0]
            assert target.is_file(), (page, url)
        for name in found.static:  # require.js paths name modules without ".js"
            target = page.parent / name
            assert target.exists() or target.with_name(target.name + ".js").is_file(), (page, name)
    student = refs(out / "student" / "index.html")
    assert any(u.endswith("mathjax/tex-chtml-full.js") for _, u in student.loads)


def test_pages_load_the_sites_own_scripts(sites):
    out, pages = sites
    for audience in SITES:
        loads = [u for _, u in refs(out / audience / "03_tagged.html").loads]
        for script in ("require.js", "html-manager/embed-amd.js", "mathjax/tex-chtml-full.js"):
            assert f"_static/{script}" in loads
        static = refs(out / audience / "03_tagged.html").static
        assert "_static/anywidget/index" in static  # where require.js finds anywidget
        assert "_static/" in static  # the widget manager's "CDN" for any other module


# --- the committed course ------------------------------------------------------------------------
def test_every_notebook_gets_a_page_and_an_index_entry_in_both_sites(course_sites):
    out, pages = course_sites
    for audience in SITES:
        assert [p.name for p in pages[audience]] == [
            nb.with_suffix(".html").name for nb in notebooks()
        ]
        index = (out / audience / "index.html").read_text(encoding="utf-8")
        assert re.findall(r'<a href="([^"]+)">', index) == [p.name for p in pages[audience]]


def test_pages_keep_the_stored_prompts_and_widget_state(course_sites):
    _, pages = course_sites
    for nb_path, page in zip(notebooks(), pages["teacher"]):
        nb = nbformat.read(nb_path, as_version=4)
        body = page.read_text(encoding="utf-8")
        has_state = bool(nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state"))
        assert (f'<script type="{WIDGET_STATE}">' in body) == has_state, page.name
        counts = [c.execution_count for c in nb.cells if c.cell_type == "code"]
        if counts and counts[-1]:  # the stored prompt numbers: nothing was re-executed
            assert f"[{counts[-1]}]:" in body


# --- index pages ---------------------------------------------------------------------------------
def test_index_renders_the_markdown_of_titles_and_prerequisites(sites):
    out, _ = sites
    index = (out / "student" / "index.html").read_text(encoding="utf-8")
    assert '<a href="03_tagged.html">03 · Beyond <code>scalars</code></a>' in index
    assert "assumes: a Jacobian $J_{ij} = \\partial y_i / \\partial x_j$; <code>grad_fn</code>" in (
        index
    )
    assert "`" not in index  # every backtick became <code>
    assert '<script defer src="_static/mathjax/tex-chtml-full.js"></script>' in index
    assert "for students" in index


def test_summary_reads_the_course_first_cell():
    nb = new_notebook()
    nb.cells = [
        new_markdown_cell(
            "# 02 · Graphs and the chain rule\n\n**Time:** about 30 minutes · **Assumes:** "
            "notebook 01; the chain rule\n· **Under `import torch`:** all but viz.\n\n## Goals"
        )
    ]
    assert summary(nb) == {
        "title": "02 · Graphs and the chain rule",
        "time": "about 30 minutes",
        "assumes": "notebook 01; the chain rule",
    }
    assert summary(new_notebook()) == {"title": "", "time": "", "assumes": ""}


def test_landing_page_says_which_site_is_which(sites):
    out, _ = sites
    landing = (out / "index.html").read_text(encoding="utf-8")
    lines = re.findall(r'<li><a href="(\w+)/index.html">\1/</a>: ([^<]+)</li>', landing)
    assert [name for name, _ in lines] == ["student", "teacher"]
    assert "no solutions" in lines[0][1] and "solutions and grading tests" in lines[1][1]


def test_links_to_repository_files_lead_to_copies_in_the_site(tmp_path):
    root = tmp_path / "repo"
    (root / "notebooks").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "docs" / "engine notes.md").write_text("# Notes\n\nThe `engine`.\n")
    (root / "pkg.py").write_text("def f(x):\n    return x  # SOURCE-LINE\n")
    (root / "docs" / "figure.png").write_bytes(bytes.fromhex("89504e470d0a1a0a") + b"\xff" * 8)
    src = root / "notebooks" / "04_x.ipynb"
    body = (
        '<a href="../docs/engine%20notes.md#top">notes</a> <a href="../pkg.py">code</a> '
        '<a href="05_y.ipynb#part-2">next</a> <a href="https://example.org/a">docs</a> '
        '<a href="#here">here</a> <a href="../missing.py">gone</a> '
        '<a href="../docs/figure.png">figure</a>'
    )
    site = tmp_path / "site"
    out = localize_links(body, src, site, root)
    assert re.findall(r'href="([^"]+)"', out) == [
        "_source/docs/engine%20notes.md.html#top",
        "_source/pkg.py.html",
        "05_y.html#part-2",
        "https://example.org/a",
        "#here",
        "../missing.py",  # not a file: left for the asset test to report
        "_source/docs/figure.png",  # not text: copied as it is
    ]
    assert (site / "_source" / "docs" / "figure.png").read_bytes()[:4] == b"\x89PNG"
    notes = (site / "_source" / "docs" / "engine notes.md.html").read_text()
    assert "<h1>docs/engine notes.md</h1>" in notes and "<code>engine</code>" in notes
    code = (site / "_source" / "pkg.py.html").read_text()
    assert "SOURCE-LINE" in code and "<h1>pkg.py</h1>" in code


# --- bad input -----------------------------------------------------------------------------------
def test_an_unknown_audience_is_refused(tmp_path):
    with pytest.raises(ValueError, match=r"audience must be one of \['student', 'teacher'\]"):
        build_site([], tmp_path, "parents", tmp_path)


def test_a_missing_asset_names_the_file_and_how_to_get_it(tmp_path):
    deps = fake_deps(tmp_path / "deps")
    (deps / "anywidget" / "dist" / "index.js").unlink()
    with pytest.raises(MissingAssetError) as info:
        build_site([], tmp_path / "site", "student", deps)
    message = str(info.value)
    assert f"{deps}/anywidget/dist/index.js not found" in message
    assert "_static/anywidget" in message and "`make html-deps`" in message


def test_widget_state_json_is_what_the_page_stores(sites):
    """The student page's widget state is the pruned one (what the widget manager reads)."""
    page = sites[1]["student"]
    m = re.search(rf'<script type="{re.escape(WIDGET_STATE)}">\s*(.*?)\s*</script>', page, re.S)
    assert m and set(json.loads(m.group(1))["state"]) == set(SHOWN.values())
