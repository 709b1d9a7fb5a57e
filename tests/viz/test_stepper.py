"""viz.BackwardStepper: recording leaves the user's graph alone, navigation, frames, widget."""

import numpy as np
import pytest

import minigrad as mg
import viz
from minigrad import trace
from viz import _render


def poly():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    x.name = "x"
    return (x**2 + 2 * x).sum(), [x]


def mlp():
    mg.manual_seed(0)
    net = mg.nn.Sequential(mg.nn.Linear(3, 4), mg.nn.Tanh(), mg.nn.Linear(4, 1))
    X, y = mg.randn(5, 3), mg.randn(5, 1)
    return mg.nn.MSELoss()(net(X), y), list(net.parameters())


def embedding():
    mg.manual_seed(0)
    emb = mg.nn.Embedding(10, 4, sparse=True)
    emb.weight.name = "emb"
    return emb(mg.tensor([1, 3, 1, 5])).sum(), [emb.weight]


def gcn():
    mg.manual_seed(0)
    adj = mg.nn.gcn_norm(mg.tensor([[0, 1, 1, 2, 2, 3], [1, 0, 2, 1, 3, 2]]), 4)
    conv = mg.nn.GCNConv(3, 2)
    return conv(mg.randn(4, 3), adj).sum(), list(conv.parameters())


def tied():
    """Embedding(sparse=True) weight reused by a Linear: the sparse gradient is densified."""
    mg.manual_seed(0)
    emb = mg.nn.Embedding(10, 4, sparse=True)
    emb.weight.name = "emb"
    lin = mg.nn.Linear(4, 10)
    lin.weight = emb.weight
    return lin(emb(mg.tensor([1, 3, 1, 5]))).sum(), [emb.weight]


EXAMPLES = [poly, mlp, embedding, gcn, tied]


def _dense(g):
    return g.to_dense().numpy() if g.layout != "strided" else g.numpy()


@pytest.mark.parametrize("make", EXAMPLES, ids=lambda f: f.__name__)
def test_recording_leaves_graph_and_grads_untouched(make):
    loss, params = make()
    expected_loss, expected_params = make()
    expected_loss.backward()
    stepper = viz.BackwardStepper(loss)
    assert all(p.grad is None for p in params)
    loss.backward()  # the graph was retained by the recording, not freed
    for p, q in zip(params, expected_params):
        assert p.grad.layout == q.grad.layout
        np.testing.assert_allclose(_dense(p.grad), _dense(q.grad))
    assert stepper.num_steps == len(list(trace.backward_steps(make()[0])))


def test_navigation_clamps_and_step_setter():
    s = viz.BackwardStepper(poly()[0])
    assert (s.num_steps, s.step) == (5, 0)
    assert s.prev().index == 0 and s.step == 0
    assert s.next().index == 1
    assert s.last().index == 4
    assert s.next().index == 4
    s.step = 2
    assert s.current.node_name == "MulBackward"
    s.step = 99
    assert s.step == 4
    s.step = -3
    assert s.step == 0
    assert s.first() is s.steps[0]


def test_current_repr_for_leaf_accumulation():
    s = viz.BackwardStepper(poly()[0])
    r = repr(s.last())
    assert r == "<step 5/5: AccumulateGrad: x.grad = [4, 6] (before None + incoming [4, 6])>"
    before, incoming, after = s.current.accumulation
    assert before is None and incoming.short == after.short == "[4, 6]"
    assert s.steps[1].sent[0][0] == 3 and "AddBackward sent [1, 1] to n3" in repr(s.steps[1])


def test_current_repr_for_densification_step():
    s = viz.BackwardStepper(tied()[0])
    hits = [f for f in s.steps if f.events]
    assert len(hits) == 1
    frame = hits[0]
    assert frame.node_name == "EmbeddingBackward"
    r = repr(frame)
    assert "sent a sparse_coo gradient (nnz=4, 96 B)" in r
    assert r.endswith("densified: dense_met_sparse (96 B -> 160 B)>")


def test_sparse_panel_shows_indices_duplicates_nnz():
    s = viz.BackwardStepper(embedding()[0])
    html = s.frames[1]
    assert "EmbeddingBackward" in html and "nnz=4" in html and "density=0.4" in html
    assert "1 duplicate entry" in html and "96 B" in html
    dup_rows = html.count("background:#fed7aa")
    assert dup_rows == 2  # index (1) stored twice: both rows flagged
    assert "⚠" not in html
    leaf = s.steps[2]
    assert leaf.accumulation[2].layout == "sparse_coo" and leaf.accumulation[2].nnz == 4
    assert "emb.grad" in s.frames[2] and "contribution" in s.frames[2]


def test_densify_frame_has_banner_with_event_message():
    s = viz.BackwardStepper(tied()[0])
    k = next(f.index for f in s.steps if f.events)
    html = s.frames[k]
    assert "⚠ densified: dense_met_sparse" in html
    assert "a dense gradient met a sparse one" in html
    assert "caused by EmbeddingBackward" in html
    assert sum("⚠" in h for h in s.frames) == 1
    # the timeline marks the densification step in red in every frame
    assert all(h[h.rindex("<svg") :].count('fill="#dc2626"') == 1 for h in s.frames)


def test_graph_restyled_per_step():
    s = viz.BackwardStepper(poly()[0])
    if s.text_only:
        pytest.skip("Graphviz not available")
    f = s.frames[1]  # AddBackward (n1) sends to n2 and n3
    assert f.count('fill="#fde047"') == 1
    node = f[f.index("<title>n1</title>") :]
    assert node[: node.index("</g>")].count('stroke="#dc2626"') >= 1
    for edge in ("n1&#45;&gt;n2", "n1&#45;&gt;n3"):
        body = f[f.index(f"<title>{edge}</title>") :]
        assert 'stroke="#dc2626"' in body[: body.index("</g>")]
    assert f.count('class="node" opacity="0.35"') == 1  # n0 is done
    assert s.frames[0].count('opacity="0.35"') == 0


def test_frames_are_deterministic():
    a, b = viz.BackwardStepper(mlp()[0]), viz.BackwardStepper(mlp()[0])
    assert a.frames == b.frames and len(set(a.frames)) == a.num_steps
    assert [repr(f) for f in a.steps] == [repr(f) for f in b.steps]


@pytest.mark.parametrize("make", [poly, tied], ids=lambda f: f.__name__)
def test_live_bytes_timeline(make):
    s = viz.BackwardStepper(make()[0])
    oracle = viz.plots.live_gradient_bytes(list(trace.backward_steps(make()[0])))
    assert [(f.index, f.live_bytes) for f in s.steps] == oracle
    if make is poly:
        # float32 (2,): 8 bytes a gradient; two in flight from AddBackward until x accumulates
        assert [f.live_bytes for f in s.steps] == [8, 16, 16, 16, 8]
        assert "peak 16 B" in s.frames[0]


def test_widget_buttons_drive_slider_and_stack():
    ipywidgets = pytest.importorskip("ipywidgets")
    s = viz.BackwardStepper(poly()[0])
    w = s.widget
    assert isinstance(w, ipywidgets.VBox)
    controls, stack = w.children
    assert isinstance(stack, ipywidgets.Stack)
    assert [type(c) for c in stack.children] == [ipywidgets.HTML] * s.num_steps
    assert [c.value for c in stack.children] == list(s.frames)
    slider = next(c for c in controls.children if isinstance(c, ipywidgets.IntSlider))
    play = next(c for c in controls.children if isinstance(c, ipywidgets.Play))
    assert (slider.min, slider.max, play.max) == (0, 4, 4)
    s.buttons["▶"].click()
    s.buttons["▶"].click()
    assert (slider.value, stack.selected_index, play.value, s.step) == (2, 2, 2, 2)
    s.buttons["⏭"].click()
    s.buttons["▶"].click()
    assert (slider.value, stack.selected_index, s.step) == (4, 4, 4)
    s.buttons["◀"].click()
    assert (slider.value, stack.selected_index) == (3, 3)
    s.buttons["⏮"].click()
    assert (slider.value, stack.selected_index, s.step) == (0, 0, 0)
    slider.value = 3  # as if dragged in the browser
    assert (s.step, stack.selected_index, s.current.index) == (3, 3, 3)
    s.step = 1
    assert (slider.value, stack.selected_index) == (1, 1)


def test_jslinks_exist_for_kernel_free_stepping():
    ipywidgets = pytest.importorskip("ipywidgets")
    s = viz.BackwardStepper(poly()[0])
    controls, stack = s.widget.children
    pairs = {(l.source[0], l.source[1], l.target[0], l.target[1]) for l in s.links}
    play = next(c for c in controls.children if isinstance(c, ipywidgets.Play))
    slider = next(c for c in controls.children if isinstance(c, ipywidgets.IntSlider))
    from ipywidgets.widgets.widget_link import Link

    assert all(isinstance(l, Link) for l in s.links)
    assert pairs == {(play, "value", slider, "value"), (slider, "value", stack, "selected_index")}
    bundle = s._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/plain"].startswith("<BackwardStepper: 5 steps")


@pytest.fixture
def no_dot(monkeypatch, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.delenv("MINIGRAD_DOT", raising=False)
    monkeypatch.setattr(_render, "_warned", True)  # the warning itself is tested elsewhere


def _pre(frame: str) -> list:
    """The lines of the plain-text graph in a frame."""
    return frame.split("<pre", 1)[1].split(">", 1)[1].split("</pre>", 1)[0].splitlines()


def test_text_fallback_without_dot(no_dot):
    s = viz.BackwardStepper(poly()[0])
    assert s.text_only and s.num_steps == 5
    assert all("<svg" in f and "<pre" in f for f in s.frames)  # timeline svg stays
    assert not any("<title>n0</title>" in f for f in s.frames)
    marked = {line.split()[0]: line.split()[1] for line in _pre(s.frames[1]) if line[:1] in "▶✓"}
    assert marked == {"✓": "n0", "▶": "n1"}
    assert [line.split()[1] for line in _pre(s.frames[4]) if line.startswith("▶")] == ["n4"]


def test_no_graph_is_a_clear_error():
    with pytest.raises(ValueError, match="no grad_fn"):
        viz.BackwardStepper(mg.tensor([1.0, 2.0]))


def test_panel_shows_the_local_derivative_of_elementwise_ops():
    x = mg.tensor(3.0, requires_grad=True)
    stepper = viz.BackwardStepper(x**2 + 2 * x)
    pow_frame = next(f for f in stepper.steps if f.node_name == "PowBackward")
    assert pow_frame.elementwise and [text for _, text in pow_frame.local] == ["6"]  # 2x at 3
    html = stepper.frames[pow_frame.index]
    assert "local derivative" in html and "upstream gradient" in html


def test_panel_says_when_the_local_derivative_is_a_jacobian():
    a = mg.randn(2, 3, requires_grad=True)
    stepper = viz.BackwardStepper((a @ a.T).sum())
    mm = next(f for f in stepper.steps if f.node_name not in ("SumBackward", "AccumulateGrad"))
    assert not mm.elementwise and "vector-Jacobian product" in stepper.frames[mm.index]


def test_a_coalesced_gradient_gets_a_marked_frame():
    emb = mg.nn.Embedding(100, 2, sparse=True)
    with mg.sparse.config(coalesce="eager"):
        stepper = viz.BackwardStepper(emb(mg.tensor([1, 2, 1])).sum())
    marked = [f for f in stepper.steps if f.events]
    assert len(marked) == 1 and "coalesced: nnz 3 -> 2" in repr(marked[0])
    assert "3 stored entries became 2" in stepper.frames[marked[0].index]
