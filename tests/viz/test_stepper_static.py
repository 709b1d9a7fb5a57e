"""The stepper's still picture: ``image/png`` beside the widget, for viewers without widgets.

GitHub's preview and nbconvert's HTML of a notebook saved without widget state show the other
formats of a widget's output; the picture must be there, show the current step's marks and
panel, stay small, and be what nbconvert picks when the widget cannot be drawn.
"""

import base64
import io
import re
import sys

import nbformat
import pytest

import minigrad as mg
import viz
from viz import _render, _stepper_static

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
HAS_DOT = bool(_render.candidates())
needs_dot = pytest.mark.skipif(not HAS_DOT, reason="Graphviz `dot` is not installed")


def poly():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    x.name = "x"
    return (x**2 + 2 * x).sum()


def tied():
    mg.manual_seed(0)
    emb = mg.nn.Embedding(20, 4, sparse=True)
    emb.weight.name = "emb"
    out = mg.nn.Linear(4, 20, bias=False)
    out.weight = emb.weight
    return out(emb(mg.tensor([1, 3, 1, 5]))).sum()


def chain(n: int):
    x = mg.tensor([0.5], requires_grad=True)
    y = x
    for _ in range(n):
        y = y.tanh()
    return y.sum()


def _size(png: bytes) -> tuple:
    from PIL import Image

    return Image.open(io.BytesIO(png)).size


@needs_dot
def test_the_bundle_carries_a_small_png_of_the_current_step():
    s = viz.BackwardStepper(poly())
    s.step = 2
    bundle = s._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    png = base64.b64decode(bundle["image/png"])
    assert png.startswith(PNG_MAGIC)
    assert png == s.frame_png(2) != s.frame_png(3)  # the step shown is the current one
    assert len(bundle["image/png"]) < 30_000  # base64 characters stored in the notebook
    width, height = _size(png)
    assert 400 < width < 1200 and 300 < height < 1200


@needs_dot
def test_include_and_exclude_are_respected():
    s = viz.BackwardStepper(poly())
    assert "image/png" not in s._repr_mimebundle_(exclude={"image/png"})
    assert "image/png" not in s._repr_mimebundle_(include={"text/plain"})
    assert "image/png" in s._repr_mimebundle_(include={"image/png", "text/plain"})


def test_no_png_without_graphviz(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty directory: no dot anywhere,
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))  # nor beside the interpreter
    monkeypatch.delenv("MINIGRAD_DOT", raising=False)
    monkeypatch.setattr(_render, "_warned", True)
    s = viz.BackwardStepper(poly())
    assert s.text_only and s.frame_png() is None
    bundle = s._repr_mimebundle_()
    assert "image/png" not in bundle and bundle["text/plain"].startswith("<BackwardStepper")


def _dot_of(s, k: int) -> str:
    active, done, travel = s._marks(k)
    return _stepper_static.frame_dot(s._source, s.steps[k - 1], active, done, travel)


def test_the_dot_marks_the_active_node_the_done_ones_and_the_travelling_edges():
    s = viz.BackwardStepper(poly())
    dot = _dot_of(s, 2)  # n2 AddBackward0 runs; n1 ran; its gradient goes to n3 and n4
    assert f'n2 [fillcolor="{_stepper_static.ACTIVE_FILL}"' in dot
    assert f'n1 [color="{_stepper_static.DONE_COLOR}"' in dot
    assert re.search(r"n2 -> n3 \[.*penwidth=3\];", dot) and re.search(r"n2 -> n4 \[", dot)
    assert re.search(r"n1 -> n2 \[.*color=\"#9ca3af\"", dot)  # sent by a node that already ran
    assert "n2 -> n3;" not in dot and dot.count(" -> ") == s._source.count(" -> ")
    assert "<B>step 2/5: n2 AddBackward0</B>" in dot and "labelloc=t" in dot
    assert dot.rstrip().endswith("}") and dot.count("digraph") == 1


def test_the_panel_text_says_what_the_widget_panel_says():
    s = viz.BackwardStepper(tied())
    k = next(f.step for f in s.steps if f.events)
    lines = _stepper_static.panel_lines(s.steps[k - 1])
    banner = [text for text, red in lines if red]
    assert banner[0].startswith("! densified: dense_met_sparse")
    assert any("By size alone it would have stayed sparse" in t for t in banner)
    texts = [text for text, _ in lines]
    assert texts[0] == f"step {k}/{s.num_steps}: n{k} EmbeddingBackward0"
    assert any(t.startswith("sent to n5 AccumulateGrad: sparse_coo (20, 4) nnz=4") for t in texts)
    assert "96 B, 1 duplicate entry live" in " ".join(texts)
    leaf = _stepper_static.panel_lines(s.steps[-1])
    assert any(t.startswith("emb.grad: before None + contribution") for t, _ in leaf)
    dot = _dot_of(s, k)
    assert f'BGCOLOR="{_stepper_static.BANNER_FILL}"' in dot
    assert "&lt;" not in _stepper_static.panel_label(s.steps[0]).replace("<", "")  # escaped


def test_a_collapsed_graph_marks_its_summary_box():
    s = viz.BackwardStepper(chain(30), max_nodes=10)
    k = next(f.step for f in s.steps if s._box(f.node) == "more")
    dot = _dot_of(s, k)
    assert f'more [fillcolor="{_stepper_static.ACTIVE_FILL}"' in dot
    assert f"step {k}/{s.num_steps}: n{k} TanhBackward0" in dot


def _notebook(bundle: dict, state: dict | None):
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("stepper", execution_count=1)
    cell.outputs = [nbformat.v4.new_output("execute_result", data=bundle, execution_count=1)]
    nb.cells = [cell]
    if state is not None:
        nb.metadata["widgets"] = {
            "application/vnd.jupyter.widget-state+json": {
                "state": state,
                "version_major": 2,
                "version_minor": 0,
            }
        }
    return nb


@needs_dot
def test_nbconvert_shows_the_png_when_the_widget_state_is_missing():
    """nbconvert drops the widget view of an output whose model is not in the notebook's widget
    state, and falls back to the next format: our picture. With the state, the widget wins."""
    pytest.importorskip("nbconvert")
    from nbconvert import HTMLExporter

    s = viz.BackwardStepper(poly())
    bundle = s._repr_mimebundle_()
    model = bundle["application/vnd.jupyter.widget-view+json"]["model_id"]
    without, _ = HTMLExporter().from_notebook_node(_notebook(bundle, None))
    assert '<img alt="No description has been provided for this image"' in without
    assert f"data:image/png;base64,{bundle['image/png'][:40]}" in without
    state = {model: {"model_name": "AnyModel", "model_module": "anywidget"}}
    with_state, _ = HTMLExporter().from_notebook_node(_notebook(bundle, state))
    assert bundle["image/png"][:40] not in with_state
    assert f'"model_id": "{model}"' in with_state
