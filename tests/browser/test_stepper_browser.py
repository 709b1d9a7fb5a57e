"""viz.BackwardStepper in a real browser: live in JupyterLab, and kernel-free in exported pages.

The stepper's controls live in its own front end (viz/_stepper.js): every test below works
them through the page (tests/browser/stepper_controls.py: each button, the keys, the slider,
Play and pause, checking the readout, the active node and the panel after each).

(a) JupyterLab (NOTEBOOK, outputs cleared) -> Run All Cells -> every control of the first
    stepper; a cell run afterwards prints the step the browser chose (browser -> Python), then
    sets ``stepper.step`` (Python -> browser). The icons show and the legend covers no node.
(b) An exported page without a kernel (the site of ``make html``, built from a notebook written
    here as nbconvert's execution stores it, with this checkout's widget), opened from a file
    with every request outside ``file://`` aborted: every control works, and the page asks for
    nothing outside its files, even with the widget manager's icon fonts gone.
(c) NOTEBOOK's page of the student site (the committed outputs and widget state): MathJax
    typesets the Markdown, the first stepper steps, the page is self-contained.
(d) One site page per kind of stepper: a dense graph, a sparse one with a densification
    banner, a graph collapsed into a summary box (``max_nodes``). Each kind is looked for in
    NOTEBOOK first, then in the other notebooks; a kind no notebook holds is tested on a
    notebook written here.

Set ``MINIGRAD_UPDATE_SCREENSHOT=1`` to refresh docs/stepper.png (the sparse stepper of (d) at
its densification step). Screenshots go to each test's tmp folder (``-s`` prints it).
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
from stepper_controls import (
    STEPPER,
    assert_icons_and_legend,
    button,
    drill,
    highlighted,
    shown_step,
    wait_step,
)

import minigrad as mg
import viz
from tools.course_site import build_site

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"

# The notebook with two steppers (`stepper`: x**2 + 2x, five steps; then an embedding lookup).
NOTEBOOK = "00_course_map.ipynb"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
KINDS = ("dense", "sparse-banner", "collapsed")
PROBE = 'print("python sees step", stepper.step)'  # the cell (a) adds to NOTEBOOK's copy


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


def test_every_control_steps_in_jupyterlab_and_python_follows(jupyterlab, page, tmp_path):
    base, root = jupyterlab
    _strip_outputs(root / NOTEBOOK)  # every widget seen below was made by this run's kernel
    nb = nbformat.read(root / NOTEBOOK, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(PROBE))
    nbformat.write(nb, root / NOTEBOOK)
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
    # the probe cell, by index (a run of the last cell adds a new one below it)
    probe = page.locator(".jp-CodeCell").nth(len(nb.cells) - 1 - _markdown_cells(nb))
    try:  # both steppers rendered and the last cell ran, or a cell failed
        probe.get_by_text("python sees step 1").or_(error.first).wait_for(timeout=60_000)
        steppers.nth(1).wait_for(state="visible", timeout=30_000)
    except Exception:
        page.screenshot(path=str(tmp_path / "failure.png"))
        print(f"screenshot: {tmp_path / 'failure.png'}")
        raise
    if error.count():
        pytest.fail(f"a cell raised in JupyterLab:\n{error.first.inner_text()}", pytrace=False)
    dense = steppers.nth(0)
    dense.scroll_into_view_if_needed()
    wait_step(page, dense, 1)  # step 1: SumBackward0, the root
    assert "step 1/5: n1 SumBackward0" in dense.locator(".mg-panel").text_content()
    assert_icons_and_legend(dense)
    drill(page, dense, [f"n{k}" for k in range(1, 6)], shots=tmp_path)
    print(f"screenshots: {tmp_path}")

    # Browser -> Python: the kernel's `stepper.step` is the step the controls left.
    button(dense, "next step").click()
    k = shown_step(dense)[0]
    assert k >= 2
    _run_cell(page, probe)
    probe.get_by_text(f"python sees step {k}").wait_for(timeout=15_000)
    # Python -> browser: setting `stepper.step` moves the view.
    target = 5 if k != 5 else 3
    _run_cell(page, probe, f"stepper.step = {target}")
    wait_step(page, dense, target)

    # The second stepper (the course map's embedding lookup): drawn, with its controls.
    second = steppers.nth(1)
    second.scroll_into_view_if_needed()
    assert_icons_and_legend(second)
    shot = tmp_path / "stepper.png"
    page.wait_for_timeout(300)  # let the scroll settle
    second.screenshot(path=str(shot), timeout=30_000)
    assert shot.stat().st_size > 20_000


def _markdown_cells(nb) -> int:
    return sum(cell.cell_type != "code" for cell in nb.cells)


def _run_cell(page, cell, source: str | None = None) -> None:
    """Run ``cell`` (Shift+Enter in its editor), after replacing its source when given."""
    editor = cell.locator(".jp-InputArea-editor .cm-content")
    editor.click()
    if source is not None:
        page.keyboard.press("Control+A")
        page.keyboard.type(source)
    page.keyboard.press("Shift+Enter")


# --- (b) an exported page, no kernel --------------------------------------------------------
def _widget_state(html: str) -> dict:
    m = re.search(
        r'<script type="application/vnd.jupyter.widget-state\+json">\s*(.*?)\s*</script>',
        html,
        re.S,
    )
    assert m, "no widget state in the exported HTML"
    return json.loads(m.group(1))["state"]


def _kernel_free_notebook(kind: str, path: Path) -> Path:
    """A notebook holding one stepper of ``kind``, written without a kernel: the stepper built
    here, its output and its widget state stored the way nbconvert's execution stores them."""
    mg.manual_seed(0)
    x = mg.tensor([0.5, -1.0], requires_grad=True)
    x.name = "x"
    if kind == "collapsed":
        y = x
        for _ in range(30):
            y = y.tanh()
        stepper = viz.BackwardStepper(y.sum(), max_nodes=10)
    elif kind == "sparse-banner":
        emb = mg.nn.Embedding(20, 4, sparse=True)
        emb.weight.name = "emb"
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
    state = dependency_state([stepper.widget], drop_defaults=False)
    nb.metadata["widgets"] = {
        WIDGET_STATE: {"state": state, "version_major": 2, "version_minor": 0}
    }
    nbformat.write(nb, path)
    return path


def test_an_exported_page_stores_one_view_with_compact_frames(html_deps, tmp_path):
    """The page's widget state is the stepper's one view (no ipywidgets controls, no links):
    the graph once, per step only the node, the edges and the panel."""
    src = _kernel_free_notebook("dense", tmp_path / "dense.ipynb")
    html = build_site([src], tmp_path / "site", "student", html_deps)[0]
    state = _widget_state(html.read_text())
    models = sorted(m["model_name"] for m in state.values())
    assert models in (["AnyModel"], ["AnyModel", "LayoutModel"]), models
    view = next(m["state"] for m in state.values() if m["model_name"] == "AnyModel")
    n = len(view["frames"])
    assert n == 5 and view["markup"].count('<g id="node') >= n and view["step"] == 1
    assert [f["node"] for f in view["frames"]] == [f"n{k}" for k in range(1, n + 1)]
    assert not any("<svg" in f["panel"] for f in view["frames"])


def test_every_control_steps_in_an_exported_page(page, offline, html_deps, tmp_path):
    """No kernel, no network, and the widget manager's icon fonts deleted: the stepper's
    buttons still show their icons (inline SVG) and every control steps."""
    src = _kernel_free_notebook("dense", tmp_path / "dense.ipynb")
    html = build_site([src], tmp_path / "site", "student", html_deps)[0]
    fonts = sorted((html.parent / "_static" / "html-manager").glob("*.woff*"))
    assert fonts
    for font in fonts:
        font.unlink()
    page.goto(html.as_uri(), wait_until="load", timeout=30_000)
    stepper = page.locator(STEPPER).first
    stepper.wait_for(state="visible", timeout=30_000)
    wait_step(page, stepper, 1)
    assert_icons_and_legend(stepper)
    drill(page, stepper, [f"n{k}" for k in range(1, 6)], shots=tmp_path)
    print(f"screenshots: {tmp_path}")
    assert offline.outside == [], offline.outside
    assert all("html-manager" in f for f in offline.failed), offline.failed


def assert_self_contained(offline) -> None:
    """The page asked for nothing outside its files, and found every file it asked for."""
    assert offline.outside == [], f"requests outside the page's files: {offline.outside}"
    assert offline.failed == [], f"local files the page did not find: {offline.failed}"


# --- (c) the committed notebook's page ---------------------------------------------------------
def test_student_site_steps_offline(student_site, page, offline, tmp_path):
    page_file = student_site / NOTEBOOK.replace(".ipynb", ".html")
    models = {m["model_name"] for m in _widget_state(page_file.read_text()).values()}
    if models & {"ButtonModel", "PlayModel", "LinkModel"}:
        pytest.fail(
            f"notebooks/{NOTEBOOK} stores the stepper of before viz's controls moved into its "
            "front end (ipywidgets buttons and jslinks): re-execute it (make notebooks)",
            pytrace=False,
        )
    page.goto(page_file.as_uri(), wait_until="load")
    stepper = page.locator(STEPPER).first  # the page's first stepper (a reveal cell's is left out)
    stepper.wait_for(state="visible", timeout=30_000)
    page.wait_for_function(
        "el => el.querySelector('.mg-readout') && el.querySelector('.mg-readout').textContent",
        arg=stepper.element_handle(),
        timeout=30_000,
    )
    k, n = shown_step(stepper)  # the step it was stored at
    assert len(highlighted(stepper)) == 1
    assert_icons_and_legend(stepper)

    # MathJax (the site's copy) typeset the Markdown's formulas: no raw TeX is left.
    page.wait_for_selector("mjx-container", state="attached", timeout=30_000)
    markdown = page.locator(".jp-MarkdownOutput")
    raw = [t for t in markdown.all_inner_texts() if re.search(r"\$[^$\s][^$]*\$", t)]
    assert raw == [], raw[:1]
    assert page.locator(".jp-MarkdownOutput mjx-container").count() >= 3

    stepper.scroll_into_view_if_needed()
    button(stepper, "previous step" if k > 1 else "next step").click()
    k = k - 1 if k > 1 else k + 1
    page.wait_for_function(
        "([el, k]) => el.querySelector('.mg-panel h4').textContent.startsWith(`step ${k}/`)",
        arg=[stepper.element_handle(), k],
        timeout=10_000,
    )
    assert shown_step(stepper) == (k, n) and len(highlighted(stepper)) == 1
    shot = tmp_path / "student-site.png"
    page.screenshot(path=str(shot))
    print(f"screenshot: {shot}")
    assert_self_contained(offline)


# --- (d) one site page per kind of stepper -----------------------------------------------------
def kind_of(view: dict) -> str:
    """The kind of a stepper, from its view's stored state (the graph's SVG and the frames)."""
    if "<title>more</title>" in view.get("markup", ""):
        return "collapsed"
    if any("densified" in f["panel"] for f in view.get("frames", [])):
        return "sparse-banner"
    return "dense"


def steppers_of(nb) -> list:
    """The view state of each stepper output of ``nb`` stored as one anywidget view (a stepper
    stored before its controls moved into its front end is left out), in page order."""
    state = nb["metadata"].get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    views = []
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if WIDGET_VIEW not in data or not str(data.get("text/plain", "")).startswith(
                "<BackwardStepper"
            ):
                continue
            model = state.get(data[WIDGET_VIEW]["model_id"], {})
            if model.get("model_name") == "AnyModel" and "frames" in model.get("state", {}):
                views.append(model["state"])
    return views


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
    frames, start = view["frames"], view["step"]
    nodes = [f["node"] for f in frames]
    wait_step(page, stepper, start, nodes[start - 1])  # the stored step is shown
    target = _target(kind, frames, start)
    stepper.scroll_into_view_if_needed()
    stepper.locator(".mg-panel").click()  # the focus on the view: the keys step
    page.keyboard.press("Home")
    wait_step(page, stepper, 1, nodes[0])
    for _ in range(target - 1):
        page.keyboard.press("ArrowRight")
    wait_step(page, stepper, target, nodes[target - 1])
    if kind == "sparse-banner":
        assert stepper.get_by_text("⚠ densified:").first.is_visible()
    if kind == "collapsed":
        assert highlighted(stepper) == ["more"]
        assert stepper.locator("g.node title", has_text=re.compile("^more$")).count() == 1
    shot = tmp_path / f"{kind}.png"
    stepper.screenshot(path=str(shot), timeout=30_000)
    print(f"screenshot: {shot}")
    assert shot.stat().st_size > 10_000
    if kind == "sparse-banner" and os.environ.get("MINIGRAD_UPDATE_SCREENSHOT") == "1":
        shutil.copyfile(shot, REPO / "docs" / "stepper.png")  # the README's picture
    assert_self_contained(offline)
