"""viz.BackwardStepper: recording leaves the user's graph alone, navigation, frames, widget."""

import sys

import numpy as np
import pytest

import minigrad as mg
import viz
from minigrad import trace
from viz import _render
from viz import stepper as stepper_mod


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
    assert (s.num_steps, s.step) == (5, 1)
    assert s.prev().step == 1 and s.step == 1
    assert s.next().step == 2
    assert s.last().step == 5
    assert s.next().step == 5
    s.step = 3
    assert s.current.node_name == "MulBackward0"
    s.step = 99
    assert s.step == 5
    s.step = -3
    assert s.step == 1
    assert s.first() is s.steps[0]
    with pytest.raises(TypeError, match="steps are numbered from 1"):
        s.step = 2.5


@pytest.mark.parametrize("make", EXAMPLES, ids=lambda f: f.__name__)
def test_one_numbering_node_k_runs_at_step_k(make):
    """Steps count from 1; node n<k> is the one that runs at step k; every node the panel
    names (the running one, the ones it sends to) is a box of the drawing with that name."""
    s = viz.BackwardStepper(make()[0])
    drawing = viz.draw_graph(make()[0], show_grads=False).source
    for f in s.steps:
        assert f.node == f"n{f.step}"
        html = s.frame_html(f.step)
        assert f"step {f.step}/{s.num_steps}: n{f.step} {f.node_name}" in html
        for key in [f.node] + [k for k, _, _ in f.sent] + [k for k, _ in f.local]:
            assert f'  {key} [label="{key} ' in drawing
            assert s.text_only or f"<title>{key}</title>" in html


def test_current_repr_for_leaf_accumulation():
    s = viz.BackwardStepper(poly()[0])
    r = repr(s.last())
    assert r == "<step 5/5: n5 AccumulateGrad: x.grad = [4, 6] (before None + incoming [4, 6])>"
    before, incoming, after = s.current.accumulation
    assert before is None and incoming.short == after.short == "[4, 6]"
    assert s.steps[1].sent[0][0] == "n4"
    assert "n2 AddBackward0 sent [1, 1] to n4 PowBackward0" in repr(s.steps[1])
    assert "step 5/5: n5 AccumulateGrad (leaf x)" in s.frame_html(5)


def test_current_repr_for_densification_step():
    s = viz.BackwardStepper(tied()[0])
    hits = [f for f in s.steps if f.events]
    assert len(hits) == 1
    frame = hits[0]
    assert frame.node_name == "EmbeddingBackward0"
    r = repr(frame)
    assert "sent a sparse_coo gradient (nnz=4, 96 B)" in r
    assert r.endswith("densified: dense_met_sparse (96 B -> 160 B)>")


def test_sparse_panel_shows_indices_duplicates_nnz():
    s = viz.BackwardStepper(embedding()[0])
    html = s.frame_html(2)
    assert "EmbeddingBackward0" in html and "nnz=4" in html and "density=0.4" in html
    assert "1 duplicate entry" in html and "96 B" in html
    dup_rows = html.count("background:#fed7aa")
    assert dup_rows == 2  # index (1) stored twice: both rows flagged
    assert "⚠" not in html
    leaf = s.steps[2]
    assert leaf.accumulation[2].layout == "sparse_coo" and leaf.accumulation[2].nnz == 4
    assert "emb.grad" in s.frame_html(3) and "contribution" in s.frame_html(3)


def test_densify_frame_has_banner_with_event_message_and_both_rules():
    s = viz.BackwardStepper(tied()[0])
    k = next(f.step for f in s.steps if f.events)
    html = s.frame_html(k)
    assert "⚠ densified: dense_met_sparse" in html
    assert "a dense gradient met a sparse one" in html
    assert "caused by EmbeddingBackward0" in html
    # which rule fired, and what the sizes alone would have decided (96 B sparse < 160 B dense)
    assert "By size alone it would have stayed sparse (96 B sparse &lt; 160 B dense)" in html
    frames = [s.frame_html(j) for j in range(1, s.num_steps + 1)]
    assert sum("⚠" in h for h in frames) == 1
    # the memory chart marks the densification step, with a labelled marker, in every frame
    for h in frames:
        chart = h[h.index('<svg class="mg-timeline"') :]
        assert chart.count('class="mg-bar mg-densified"') == 1
        assert f"densified (step {k})" in chart and ">bytes</text>" in chart


class _Event:
    """A stand-in DensificationEvent with chosen sizes (the rule text reads only these)."""

    kind = "densified"

    def __init__(self, rule, before, after):
        self.rule, self.bytes_before, self.bytes_after = rule, before, after


@pytest.mark.parametrize(
    "rule, before, after, expected",
    [
        (
            "dense_met_sparse",
            96,
            160,
            "By size alone it would have stayed sparse (96 B sparse < 160 B",
        ),
        # at the break-even density exactly, COO takes the dense bytes: the size rule agrees
        ("dense_met_sparse", 160, 160, "By size alone it would have been densified too"),
        ("outgrew_dense", 200, 160, "no dense gradient met it, but its sparse form (200 B)"),
        ("always", 10, 160, "Rule always fired"),
    ],
)
def test_event_rules_say_which_rule_fired_and_why_not_the_other(rule, before, after, expected):
    from viz._stepper_frames import event_rules

    text = event_rules(_Event(rule, before, after))
    assert text.startswith(f"Rule {rule} fired") and expected in text
    assert event_rules(object()) == ""


def test_graph_restyled_per_step():
    s = viz.BackwardStepper(poly()[0])
    if s.text_only:
        pytest.skip("Graphviz not available")
    f = s.frame_html(2)  # AddBackward0 (n2) sends to n3 and n4
    assert f.count('fill="#fde047"') == 1
    node = f[f.index("<title>n2</title>") :]
    assert node[: node.index("</g>")].count('stroke="#dc2626"') >= 1
    for edge in ("n2&#45;&gt;n3", "n2&#45;&gt;n4"):
        body = f[f.index(f"<title>{edge}</title>") :]
        assert 'stroke="#dc2626"' in body[: body.index("</g>")]
    assert f.count('class="node" opacity="0.35"') == 1  # n1 is done
    assert s.frame_html(1).count('opacity="0.35"') == 0
    # the widget gets the same marks as data: node, travelling edges, panel
    data = s._frame_data()[1]
    assert data["node"] == "n2" and data["travel"] == [("n2", "n3"), ("n2", "n4")]
    assert "step 2/5: n2 AddBackward0" in data["panel"]


def test_frames_are_deterministic():
    a, b = viz.BackwardStepper(mlp()[0]), viz.BackwardStepper(mlp()[0])
    assert a._frame_data() == b._frame_data() and a._graph_html == b._graph_html
    assert len({d["panel"] for d in a._frame_data()}) == a.num_steps
    assert [repr(f) for f in a.steps] == [repr(f) for f in b.steps]


@pytest.mark.parametrize("make", [poly, tied], ids=lambda f: f.__name__)
def test_live_bytes_timeline(make):
    s = viz.BackwardStepper(make()[0])
    oracle = viz.plots.live_gradient_bytes(list(trace.backward_steps(make()[0])))
    assert [(f.step, f.live_bytes) for f in s.steps] == oracle
    if make is poly:
        # float32 (2,): 8 bytes a gradient; two in flight from AddBackward0 until x accumulates
        assert [f.live_bytes for f in s.steps] == [8, 16, 16, 16, 8]
        assert "peak 16 B" in s.frame_html(1)


def test_the_widget_is_one_anywidget_whose_step_is_the_steppers():
    """No ipywidgets controls: the buttons, slider and Play are drawn by the ES module, and
    the one synced trait ``step`` is the stepper's step, both ways."""
    anywidget = pytest.importorskip("anywidget")
    s = viz.BackwardStepper(poly()[0])
    w = s.widget
    assert isinstance(w, anywidget.AnyWidget) and w is s.widget  # built once
    assert (w.step, len(w.frames), w.interval) == (1, s.num_steps, stepper_mod.PLAY_INTERVAL_MS)
    s.next()
    s.next()
    assert (w.step, s.step) == (3, 3)
    s.last()
    s.next()  # clamped
    assert (w.step, s.step) == (5, 5)
    s.step = 2
    assert w.step == 2
    w.step = 4  # as a click in the browser sets it (the front end saves `step`)
    assert (s.step, s.current.step) == (4, 4)
    w.step = 99  # a step out of range from the front end: clamped, and the view put back
    assert (s.step, w.step) == (5, 5)
    w.step = 0
    assert (s.step, w.step) == (1, 1)


def test_a_stepper_shown_after_stepping_opens_at_its_step():
    pytest.importorskip("anywidget")
    s = viz.BackwardStepper(poly()[0])
    s.step = 3
    assert s.widget.step == 3


def test_the_es_module_draws_every_control_with_its_accessible_label():
    """The controls live in viz/_stepper.js: the four step buttons and Play with aria-labels,
    the slider, and the keys; it saves `step` so a kernel hears about it."""
    pytest.importorskip("anywidget")
    s = viz.BackwardStepper(poly()[0])
    esm = s.widget._esm
    for label in ("first step", "previous step", "next step", "last step", "play", "pause"):
        assert f'"{label}"' in esm
    assert 'setAttribute("aria-label"' in esm and 'type: "range"' in esm
    for key in ("ArrowLeft", "ArrowRight", "Home", "End"):
        assert f"{key}:" in esm
    assert 'model.set("step"' in esm and "model.save_changes()" in esm
    assert 'model.on("change:step"' in esm
    assert "import " not in esm.split("export default")[0]  # loads nothing: works offline


def test_the_bundle_is_the_widget_with_its_still_picture():
    pytest.importorskip("anywidget")
    s = viz.BackwardStepper(poly()[0])
    bundle = s._repr_mimebundle_()
    view = bundle["application/vnd.jupyter.widget-view+json"]
    assert view["model_id"] == s.widget.model_id
    assert bundle["text/plain"].startswith("<BackwardStepper: 5 steps")
    assert s._display_() is s.widget  # marimo shows the anywidget itself
    # anywidget's display metadata (in Colab: the widget manager's URL) is passed on
    meta = {"application/vnd.jupyter.widget-view+json": {"colab": {"custom_widget_manager": {}}}}
    s.widget._repr_mimebundle_ = lambda **kw: ({"text/plain": "w"}, meta)
    data, got = s._repr_mimebundle_()
    assert got == meta and data["text/plain"].startswith("<BackwardStepper")


def test_viz_never_imports_ipywidgets_itself():
    """marimo runs anywidgets without ipywidgets' front end: nothing in viz builds an
    ipywidgets control (anywidget's own base class is its business)."""
    import pathlib

    for path in pathlib.Path(viz.__file__).parent.glob("*.py"):
        assert "import ipywidgets" not in path.read_text(), path.name


def test_widget_state_holds_the_graph_once():
    """The SVG goes to the browser once; per step only the node, the edges and the panel."""
    pytest.importorskip("anywidget")
    s = viz.BackwardStepper(mlp()[0])
    assert s.widget is not None  # builds it
    if s.text_only:
        pytest.skip("Graphviz not available")
    assert s.widget.markup.count("<svg") == 2  # the graph and the memory chart
    assert set(s.widget.frames[0]) == {"node", "travel", "panel"}
    assert not any("<svg" in f["panel"] for f in s.widget.frames)


def _state_bytes(stepper) -> int:
    import json

    from ipywidgets.embed import dependency_state

    return len(json.dumps(dependency_state([stepper.widget])))


def _chain_mlp(layers):
    mg.manual_seed(0)
    mods = []
    for _ in range(layers):
        mods += [mg.nn.Linear(8, 8), mg.nn.Tanh()]
    x, y = mg.randn(4, 8), mg.randn(4, 8)
    return ((mg.nn.Sequential(*mods)(x) - y) ** 2).mean()


def test_widget_state_grows_linearly_with_the_steps():
    """Doubling the layers doubles the state (was quadratic: every frame held the whole SVG)."""
    pytest.importorskip("anywidget")
    sizes = {}
    for layers in (10, 20, 40):
        s = viz.BackwardStepper(_chain_mlp(layers))
        sizes[layers] = (s.num_steps, _state_bytes(s))
    (n1, b1), (n2, b2), (n3, b3) = sizes.values()
    per_step = (b3 - b2) / (n3 - n2)
    assert per_step == pytest.approx((b2 - b1) / (n2 - n1), rel=0.15)  # a straight line
    assert per_step < 4_000  # a panel and a few names, not a drawing
    assert b3 < 1_000_000


def test_a_pass_too_long_to_step_is_refused_with_how_to_narrow_it():
    loss = _chain_mlp(4)  # 23 steps
    with pytest.raises(ValueError, match=r"has 23 steps, more than max_steps=20") as info:
        viz.BackwardStepper(loss, max_steps=20)
    assert "draw_graph" in str(info.value) and "max_steps=None" in str(info.value)
    assert viz.BackwardStepper(loss, max_steps=None).num_steps == 23


def test_a_large_graph_is_collapsed_and_its_box_highlighted():
    """Beyond max_nodes the middle is one box, as in draw_graph; it is marked while its
    nodes run, and the panel still names the real node."""
    s = viz.BackwardStepper(_chain_mlp(6), max_nodes=10)  # 33 steps
    assert s.num_steps == 33
    data = s._frame_data()
    assert [d["node"] for d in data[:5]] == ["n1", "n2", "n3", "n4", "n5"]
    assert data[10]["node"] == "more" and "step 11/33: n11" in data[10]["panel"]
    assert data[-1]["node"] == "n33"
    if not s.text_only:
        assert "… 24 more nodes" in s.frame_html(11) and s.frame_html(11).count("#fde047") == 1


@pytest.fixture
def no_dot(monkeypatch, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.setattr(sys, "executable", str(empty / "python"))  # nothing beside it either
    monkeypatch.delenv("MINIGRAD_DOT", raising=False)
    monkeypatch.setattr(_render, "_warned", True)  # the warning itself is tested elsewhere


def _pre(frame: str) -> list:
    """The lines of the plain-text graph in a frame."""
    return frame.split("<pre", 1)[1].split(">", 1)[1].split("</pre>", 1)[0].splitlines()


def test_text_fallback_without_dot(no_dot):
    s = viz.BackwardStepper(poly()[0])
    assert s.text_only and s.num_steps == 5
    frames = [s.frame_html(k) for k in range(1, 6)]
    assert all("<svg" in f and "<pre" in f for f in frames)  # the memory chart stays
    assert not any("<title>n1</title>" in f for f in frames)
    marked = {line.split()[0]: line.split()[1] for line in _pre(frames[1]) if line[:1] in "▶✓"}
    assert marked == {"✓": "n1", "▶": "n2"}
    assert [line.split()[1] for line in _pre(frames[4]) if line.startswith("▶")] == ["n5"]
    # the widget's text drawing: one span per line, tagged with its node for the script
    assert '<span data-node="n2">' in s._graph_html and "<pre" in s._graph_html


def test_no_graph_is_a_clear_error():
    with pytest.raises(ValueError, match="no grad_fn"):
        viz.BackwardStepper(mg.tensor([1.0, 2.0]))
    with pytest.raises(TypeError, match="expects a minigrad Tensor"):
        viz.BackwardStepper(3.0)


def test_panel_shows_the_local_derivative_of_elementwise_ops():
    x = mg.tensor(3.0, requires_grad=True)
    stepper = viz.BackwardStepper(x**2 + 2 * x)
    pow_frame = next(f for f in stepper.steps if f.node_name == "PowBackward0")
    assert pow_frame.elementwise and [text for _, text in pow_frame.local] == ["6"]  # 2x at 3
    html = stepper.frame_html(pow_frame.step)
    assert "local derivative" in html and "upstream gradient" in html


def test_panel_says_when_the_local_derivative_is_a_jacobian():
    a = mg.randn(2, 3, requires_grad=True)
    stepper = viz.BackwardStepper((a @ a.T).sum())
    mm = next(f for f in stepper.steps if f.node_name not in ("SumBackward0", "AccumulateGrad"))
    html = stepper.frame_html(mm.step)
    assert not mm.elementwise and "upstream gradient times the op's Jacobian" in html
    # notebook 00's tour shows this panel before notebook 03 defines a "vector-Jacobian product"
    assert "vector-Jacobian" not in html


def test_a_coalesced_gradient_gets_a_marked_frame():
    emb = mg.nn.Embedding(100, 2, sparse=True)
    with mg.sparse.config(coalesce="eager"):
        stepper = viz.BackwardStepper(emb(mg.tensor([1, 2, 1])).sum())
    marked = [f for f in stepper.steps if f.events]
    assert len(marked) == 1 and "coalesced: nnz 3 -> 2" in repr(marked[0])
    assert "3 stored entries became 2" in stepper.frame_html(marked[0].step)


def test_an_unnamed_leaf_is_called_by_its_node():
    s = viz.BackwardStepper(mlp()[0])
    leaf = next(f for f in s.steps if f.accumulation is not None)
    assert leaf.leaf_name == leaf.node
    html = s.frame_html(leaf.step)
    assert f"{leaf.node} AccumulateGrad (leaf)</h4>" in html and f"{leaf.node}.grad</b>" in html
    assert "leaf leaf" not in html
