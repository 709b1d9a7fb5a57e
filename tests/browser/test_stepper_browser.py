"""viz.BackwardStepper in a real browser: live in JupyterLab, and kernel-free in the static sites.

(a) JupyterLab (no outputs stored) -> Run All Cells -> the stepper renders -> click the "next
    step" button -> the highlighted (yellow) graph node changes: the kernel drove the widget.
    Every button shows its icon (a FontAwesome glyph with a non-empty box), and the legend
    overlaps no node of the graph.
(b) NOTEBOOK's page of the student site (``make html``: the committed outputs and widget state,
    nothing executed), opened from a file with every request outside ``file://`` aborted and
    recorded: the steppers render with their icons, MathJax renders the Markdown's math, moving
    the slider and pressing Play change the marked node and the panel (through the jslinks
    alone), and the page asked for nothing outside its own files, all of which it found.
(c) One site page per kind of stepper the committed notebooks hold: a dense graph, a sparse
    one with a densification banner, a graph collapsed into a summary box (``max_nodes``). Each
    kind is looked for in NOTEBOOK first, then in the other notebooks; a kind no notebook holds
    is tested on a notebook written here without a kernel (the stepper built in this process,
    its output and widget state stored as nbconvert stores them), so every kind is stepped,
    offline too. A page whose icon font is missing still asks for nothing outside its files.

Set ``MINIGRAD_UPDATE_SCREENSHOT=1`` to refresh docs/stepper.png (the sparse example at its
densification step, as JupyterLab shows it).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest
from ipywidgets.embed import dependency_state

import minigrad as mg
import viz
from tools.course_site import build_site

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"

# The notebook with the two steppers (the dense x**2 + 2x, then the tied-weights sparse one);
# when the course is merged this is "00_course_map.ipynb".
NOTEBOOK = "00_course_map.ipynb"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
KINDS = ("dense", "sparse-banner", "collapsed")
ACTIVE_FILL = "rgb(253, 224, 71)"  # #fde047 (viz/_stepper.css): the node running at this step
NEXT_BUTTON = 'button[title="next step"]'
STEPPER = ".widget-vbox:has(" + NEXT_BUTTON + ")"
BUTTON_TITLES = ("first step", "previous step", "next step", "last step")

# Titles (n1, n2, ...) of the visible graph nodes painted in the active colour, in a stepper.
HIGHLIGHTED_JS = """(root, fill) => {
  const out = [];
  for (const g of root.querySelectorAll("g.node")) {
    const shape = g.querySelector("ellipse, polygon, path");
    if (!shape || getComputedStyle(shape).fill !== fill) continue;
    const r = shape.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    out.push(g.querySelector("title").textContent);
  }
  return out;
}"""

# Each button's icon element: its box, and the glyph FontAwesome draws in it.
ICONS_JS = """(root) => [...root.querySelectorAll("button[title] i.fa")].map((i) => {
  const r = i.getBoundingClientRect();
  return {
    title: i.closest("button").title,
    width: r.width,
    height: r.height,
    glyph: getComputedStyle(i, "::before").content,
    font: getComputedStyle(i).fontFamily,
  };
})"""

# A FontAwesome face loaded: JupyterLab's own, or in an exported page the one from the CDN.
FA_LOADED_JS = """() => [...document.fonts].some(
  (f) => /^"?Font ?Awesome/.test(f.family) && f.status === "loaded")"""

# Boxes of the legend and of every other node of the drawing, and which of them meet.
LEGEND_OVERLAP_JS = """(root) => {
  const box = (g) => g.getBoundingClientRect();
  const nodes = [...root.querySelectorAll("g.node")];
  const legend = nodes.find((g) => g.querySelector("title").textContent === "legend");
  if (!legend) return { legend: false, overlaps: [] };
  const L = box(legend);
  const overlaps = nodes.filter((g) => g !== legend).filter((g) => {
    const r = box(g);
    return r.left < L.right && L.left < r.right && r.top < L.bottom && L.top < r.bottom;
  }).map((g) => g.querySelector("title").textContent);
  return { legend: L.width > 0 && L.height > 0, overlaps, count: nodes.length - 1 };
}"""


def highlighted(stepper) -> list[str]:
    return stepper.evaluate(HIGHLIGHTED_JS, ACTIVE_FILL)


def assert_icons_and_legend(page, stepper) -> None:
    """Every button shows a FontAwesome glyph in a non-empty box; the legend covers no node."""
    try:  # the glyphs' font, not a fallback box
        page.wait_for_function(FA_LOADED_JS, timeout=15_000)
    except Exception:
        fonts = page.evaluate("() => [...document.fonts].map((f) => `${f.family}: ${f.status}`)")
        raise AssertionError(f"no FontAwesome face loaded; the page's fonts: {fonts}") from None
    icons = {i["title"]: i for i in stepper.evaluate(ICONS_JS)}
    assert set(icons) == set(BUTTON_TITLES), icons
    for title, icon in icons.items():
        assert icon["width"] > 0 and icon["height"] > 0, (title, icon)
        assert icon["glyph"] not in ("none", "normal", '""'), (title, icon)
        assert "Font" in icon["font"] and "Awesome" in icon["font"], (title, icon)
    legend = stepper.evaluate(LEGEND_OVERLAP_JS)
    assert legend["legend"] and legend["count"] >= 2, legend
    assert legend["overlaps"] == [], legend


def wait_highlight_change(page, stepper, before: list[str], timeout_ms: int = 15_000) -> list[str]:
    """Poll (bounded) until the highlighted node differs from ``before``; return the new one."""
    waited = 0
    while waited < timeout_ms:
        now = highlighted(stepper)
        if len(now) == 1 and now != before:
            return now
        page.wait_for_timeout(200)
        waited += 200
    raise AssertionError(f"highlighted node stayed {before} for {timeout_ms} ms")


def _strip_outputs(path: Path) -> None:
    nb = json.loads(path.read_text())
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    nb["metadata"].pop("widgets", None)
    path.write_text(json.dumps(nb, indent=1))


def _wait_kernel_idle(base: str, timeout_s: float = 60) -> None:
    """Until the server has a kernel for the opened notebook that reports "idle"."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:  # the server answers 500 for a kernel that is still starting: ask again
            with urllib.request.urlopen(f"{base}/api/kernels", timeout=5) as r:
                if any(k.get("execution_state") == "idle" for k in json.loads(r.read())):
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise AssertionError(f"no idle kernel after {timeout_s} s")


def test_next_button_moves_highlight_in_jupyterlab(jupyterlab, page, tmp_path):
    base, root = jupyterlab
    _strip_outputs(root / NOTEBOOK)  # every widget seen below was made by this run's kernel
    page.goto(f"{base}/lab/tree/{NOTEBOOK}", wait_until="domcontentloaded", timeout=60_000)
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=60_000)
    _wait_kernel_idle(base)
    # Run All; if the kernel was not wired to the page yet nothing runs, so check and retry.
    first_prompt = page.locator(".jp-CodeCell .jp-InputPrompt").nth(1)
    for attempt in range(3):
        run_label = page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$"))
        page.locator("[role=menubar] li.lm-MenuBar-item", has=run_label).click()
        page.locator("li.lm-Menu-item:has(.lm-Menu-itemLabel:text-is('Run All Cells'))").click()
        try:
            page.wait_for_function(
                "el => /\\[[*0-9]+\\]/.test(el.textContent)",
                arg=first_prompt.element_handle(),
                timeout=15_000,
            )
            break
        except Exception:
            if attempt == 2:
                raise
    steppers = page.locator(STEPPER)
    error = page.locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.error"]')
    try:  # both steppers rendered, or a cell failed
        steppers.nth(1).or_(error.first).wait_for(state="visible", timeout=60_000)
    except Exception:
        page.screenshot(path=str(tmp_path / "failure.png"))
        print(f"screenshot: {tmp_path / 'failure.png'}")
        raise
    if error.count():
        pytest.fail(f"a cell raised in JupyterLab:\n{error.first.inner_text()}", pytrace=False)
    dense = steppers.nth(0)
    page.wait_for_function(
        "([el, js, fill]) => eval(js)(el, fill).length === 1",
        arg=[dense.element_handle(), HIGHLIGHTED_JS, ACTIVE_FILL],
        timeout=30_000,
    )
    before = highlighted(dense)
    assert before == ["n1"]  # step 1: SumBackward0, the root
    dense.locator(NEXT_BUTTON).click()
    after = wait_highlight_change(page, dense, before)
    assert after == ["n2"]  # step 2: AddBackward0, node n2
    assert dense.locator(".widget-readout").inner_text().strip() == "2"
    assert "step 2/5: n2 AddBackward0" in dense.locator(".mg-panel").inner_text()
    assert_icons_and_legend(page, dense)

    # The second stepper (the course map's embedding lookup): drawn, with its controls.
    tied = steppers.nth(1)
    tied.scroll_into_view_if_needed()
    assert_icons_and_legend(page, tied)
    shot = tmp_path / "stepper.png"
    page.wait_for_timeout(300)  # let the scroll settle
    tied.screenshot(path=str(shot), timeout=30_000)
    assert shot.stat().st_size > 20_000
    if os.environ.get("MINIGRAD_UPDATE_SCREENSHOT") == "1":
        (REPO / "docs").mkdir(exist_ok=True)
        shutil.copyfile(shot, REPO / "docs" / "stepper.png")


def _widget_state(html: str) -> dict:
    m = re.search(
        r'<script type="application/vnd.jupyter.widget-state\+json">\s*(.*?)\s*</script>',
        html,
        re.S,
    )
    assert m, "no widget state in the exported HTML"
    return json.loads(m.group(1))["state"]


def test_site_page_has_links_and_compact_frames(student_site):
    state = _widget_state((student_site / NOTEBOOK.replace(".ipynb", ".html")).read_text())
    models = [m["model_name"] for m in state.values()]
    views = [m["state"] for m in state.values() if m["model_name"] == "AnyModel"]
    assert views, "no stepper left on the student page"
    assert models.count("LinkModel") == 2 * len(views)  # Play->slider, slider->view, each
    for view in views:  # the graph once; per step only the node, the edges and the panel
        n = len(view["frames"])
        assert n >= 2 and view["markup"].count('<g id="node') >= n
        assert [f["node"] for f in view["frames"]] == [f"n{k}" for k in range(1, n + 1)]
        assert not any("<svg" in f["panel"] for f in view["frames"])


def assert_self_contained(offline) -> None:
    """The page asked for nothing outside its files, and found every file it asked for."""
    assert offline.outside == [], f"requests outside the page's files: {offline.outside}"
    assert offline.failed == [], f"local files the page did not find: {offline.failed}"


def test_student_site_steps_offline(student_site, page, offline, tmp_path):
    page.goto((student_site / NOTEBOOK.replace(".ipynb", ".html")).as_uri(), wait_until="load")
    steppers = page.locator(STEPPER)
    steppers.nth(0).wait_for(state="visible", timeout=30_000)
    dense = steppers.nth(0)  # the page's first stepper (a reveal cell's stepper is left out)
    page.wait_for_function(
        "([el, js, fill]) => eval(js)(el, fill).length === 1",
        arg=[dense.element_handle(), HIGHLIGHTED_JS, ACTIVE_FILL],
        timeout=30_000,
    )
    start = highlighted(dense)  # the step the stepper opens at (stored with the page)
    assert len(start) == 1
    assert_icons_and_legend(page, dense)  # waits until a FontAwesome face has loaded
    panel = dense.locator(".mg-panel")
    k = int(re.search(r"step (\d+)/(\d+): n\d+ \w+", panel.inner_text()).group(1))

    # MathJax (the site's copy) typeset the Markdown's formulas: no raw TeX is left.
    page.wait_for_selector("mjx-container", state="attached", timeout=30_000)
    markdown = page.locator(".jp-MarkdownOutput")
    raw = [t for t in markdown.all_inner_texts() if re.search(r"\$[^$\s][^$]*\$", t)]
    assert raw == [], raw[:1]
    assert page.locator(".jp-MarkdownOutput mjx-container").count() >= 3

    # The slider, from the keyboard: slider -> view through the jslink, no kernel.
    dense.scroll_into_view_if_needed()
    dense.locator(".noUi-handle").first.focus()
    page.keyboard.press("ArrowLeft" if k > 1 else "ArrowRight")
    moved = wait_highlight_change(page, dense, start)
    assert len(moved) == 1 and moved != start
    k = k - 1 if k > 1 else k + 1
    assert re.search(rf"step {k}/\d+: ", panel.inner_text())
    shot = tmp_path / "student-site-step2.png"
    page.screenshot(path=str(shot))
    print(f"screenshot: {shot}")

    # Play: Play -> slider -> view, one step every 1.2 s.
    dense.locator(".widget-play button").first.click()
    now = wait_highlight_change(page, dense, moved, timeout_ms=10_000)
    assert now != moved
    assert not re.search(rf"step {k}/\d+:", panel.inner_text())
    assert_self_contained(offline)


# --- (c) one site page per kind of stepper ----------------------------------------------
def kind_of(view: dict) -> str:
    """The kind of a stepper, from its view's stored state (the graph's SVG and the frames)."""
    if "<title>more</title>" in view.get("markup", ""):
        return "collapsed"
    if any("densified" in f["panel"] for f in view.get("frames", [])):
        return "sparse-banner"
    return "dense"


def steppers_of(nb) -> list:
    """The view state of each stepper output of ``nb``, in page order."""
    state = nb["metadata"].get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    views = []
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if WIDGET_VIEW not in data or not str(data.get("text/plain", "")).startswith(
                "<BackwardStepper"
            ):
                continue
            box = state.get(data[WIDGET_VIEW]["model_id"], {}).get("state", {})
            view_id = box.get("children", [""])[-1].replace("IPY_MODEL_", "")
            views.append(state.get(view_id, {}).get("state", {}))
    return views


def _kernel_free_notebook(kind: str, path: Path) -> Path:
    """A notebook holding one stepper of ``kind``, written without a kernel: the stepper built
    here, its output and its widget state stored the way nbconvert's execution stores them."""
    x = mg.tensor([0.5, -1.0], requires_grad=True)
    x.name = "x"
    if kind == "collapsed":
        y = x
        for _ in range(30):
            y = y.tanh()
        stepper = viz.BackwardStepper(y.sum(), max_nodes=10)
    elif kind == "sparse-banner":
        emb = mg.nn.Embedding(20, 4, sparse=True)
        out = mg.nn.Linear(4, 20, bias=False)
        out.weight = emb.weight
        stepper = viz.BackwardStepper(out(emb(mg.tensor([1, 3, 1, 5]))).sum())
    else:
        stepper = viz.BackwardStepper((x**2 + 2 * x).sum())
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("stepper", execution_count=1)
    cell.outputs = [
        nbformat.v4.new_output(
            "execute_result", data=stepper._repr_mimebundle_(), execution_count=1
        )
    ]
    nb.cells = [cell]
    state = dependency_state([stepper.widget, *stepper.links], drop_defaults=False)
    nb.metadata["widgets"] = {
        WIDGET_STATE: {"state": state, "version_major": 2, "version_minor": 0}
    }
    nbformat.write(nb, path)
    return path


def find_kind(kind: str, tmp_path: Path) -> tuple:
    """``(notebook, index of the stepper on its page, its view state)`` for a stepper of
    ``kind``: NOTEBOOK first, then every other notebook, else a kernel-free one made here."""
    others = sorted(p for p in NOTEBOOKS.glob("*.ipynb") if p.name != NOTEBOOK)
    for path in [NOTEBOOKS / NOTEBOOK, *others]:
        for index, view in enumerate(steppers_of(nbformat.read(path, as_version=4))):
            if kind_of(view) == kind:
                return path, index, view
    path = _kernel_free_notebook(kind, tmp_path / f"{kind}.ipynb")
    print(f"no committed notebook holds a {kind} stepper: testing {path}")
    return path, 0, steppers_of(nbformat.read(path, as_version=4))[0]


def slide_to(page, stepper, target: int) -> None:
    """Move the slider with the keyboard until it reads ``target`` (the jslinks do the rest)."""
    handle = stepper.locator(".noUi-handle").first
    handle.focus()
    readout = stepper.locator(".widget-readout")
    for _ in range(200):
        now = int(readout.inner_text().strip())
        if now == target:
            return
        page.keyboard.press("ArrowRight" if now < target else "ArrowLeft")
    raise AssertionError(f"the slider did not reach step {target}")


def _target(kind: str, frames: list, start: int) -> int:
    """The step to show: the densification, a step inside the summary box, or the next one."""
    if kind == "sparse-banner":
        return next(k for k, f in enumerate(frames, 1) if "densified" in f["panel"])
    if kind == "collapsed":
        return next(k for k, f in enumerate(frames, 1) if f["node"] == "more")
    return start % len(frames) + 1


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_of_stepper_steps_in_its_site_page(kind, page, offline, html_deps, tmp_path):
    src, index, view = find_kind(kind, tmp_path)
    assert kind_of(view) == kind
    # The teacher's site: every output kept, so the stepper's index on the page is its index
    # among the notebook's outputs.
    html = build_site([src], tmp_path / "site", "teacher", html_deps)[0]
    page.goto(html.as_uri(), wait_until="load", timeout=30_000)
    stepper = page.locator(STEPPER).nth(index)
    stepper.wait_for(state="visible", timeout=30_000)
    page.wait_for_function(
        "([el, js, fill]) => eval(js)(el, fill).length === 1",
        arg=[stepper.element_handle(), HIGHLIGHTED_JS, ACTIVE_FILL],
        timeout=30_000,
    )
    frames, start = view["frames"], view["step"]
    assert highlighted(stepper) == [frames[start - 1]["node"]]  # the stored step is shown
    away = start % len(frames) + 1  # move off it once, so the page has to restyle the graph
    slide_to(page, stepper, away)
    wait_highlight_change(page, stepper, [frames[start - 1]["node"]])
    target = _target(kind, frames, start)
    slide_to(page, stepper, target)
    panel = stepper.locator(".mg-panel")
    page.wait_for_function(
        "([el, text]) => el.textContent.includes(text)",
        arg=[panel.element_handle(), f"step {target}/{len(frames)}:"],
        timeout=10_000,
    )
    assert highlighted(stepper) == [frames[target - 1]["node"]]
    if kind == "sparse-banner":
        assert stepper.get_by_text("⚠ densified:").first.is_visible()
    if kind == "collapsed":
        assert highlighted(stepper) == ["more"]
        assert stepper.locator("g.node title", has_text=re.compile("^more$")).count() == 1
    shot = tmp_path / f"{kind}.png"
    stepper.screenshot(path=str(shot), timeout=30_000)
    print(f"screenshot: {shot}")
    assert shot.stat().st_size > 10_000
    assert_self_contained(offline)


def test_a_page_missing_its_icon_font_still_asks_nothing_outside(
    page, offline, html_deps, tmp_path
):
    """viz/_stepper.js mends the icon font from a CDN only for a page whose widget manager came
    from another origin (a plain nbconvert export); a site page carries its own manager, so even
    with the manager's fonts gone it asks for nothing outside its files (the icons are boxes)."""
    src = _kernel_free_notebook("dense", tmp_path / "dense.ipynb")  # this checkout's ESM
    html = build_site([src], tmp_path / "site", "student", html_deps)[0]
    fonts = sorted((html.parent / "_static" / "html-manager").glob("*.woff*"))
    assert fonts
    for font in fonts:
        font.unlink()
    page.goto(html.as_uri(), wait_until="load", timeout=30_000)
    stepper = page.locator(STEPPER).first
    stepper.wait_for(state="visible", timeout=30_000)
    page.wait_for_function(  # the face was tried, and failed: the mend's condition
        """() => [...document.fonts].some(
             (f) => f.family.replace(/"/g, "") === "Font Awesome 5 Free" && f.weight === "900"
               && f.status === "error")""",
        timeout=15_000,
    )
    page.wait_for_timeout(1_000)  # time for a mend to ask, were it going to
    assert offline.outside == []
    assert len(offline.failed) >= 1 and all("html-manager" in f for f in offline.failed)
