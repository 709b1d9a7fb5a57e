"""Drawings fit the notebook column: ``draw_graph``'s default direction and size (viz/_fit.py).

Widths are measured on the SVG that ``dot`` writes (its ``width`` attribute, pt -> px at
96/72), as JupyterLab shows it; the column is ``viz.graph.FIT_PX`` (1,100 px).
"""

import shutil
import struct
import warnings

import pytest

import minigrad as mg
import viz
from minigrad.func import make_jaxpr
from viz import GraphTooWideWarning, _fit, _render
from viz import _stepper_html as H
from viz.graph import FIT_PX

needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz dot not installed")


def svg_width(view) -> float:
    """The width in px of the SVG Jupyter would show for ``view``."""
    return _fit.svg_width_px(view._repr_mimebundle_()["image/svg+xml"])


def fan_out(branches: int = 12, deep: bool = False, backward: bool = True):
    """``cat`` of ``branches`` products, each of its own named leaf: wide in TB. ``deep``: each
    branch a ``tanh`` of a product, stacked (a View per branch): wide both ways."""
    leaves = [mg.tensor([1.0, 2.0, 3.0], requires_grad=True) for _ in range(branches)]
    for k, leaf in enumerate(leaves):
        leaf.name = f"weight_{k}"
    if deep:
        loss = mg.stack([(leaf * float(k + 1)).tanh() for k, leaf in enumerate(leaves)]).sum()
    else:
        loss = mg.cat([leaf * float(k + 1) for k, leaf in enumerate(leaves)]).sum()
    if backward:  # the drawing shows each leaf's gradient
        loss.backward()
    return loss


def chain(ops: int = 40):
    """``ops`` ops in a row on one leaf: tall in TB, very wide in LR."""
    y = mg.tensor([0.5, -0.5], requires_grad=True)
    for k in range(ops):
        y = y.tanh() if k % 2 else y * 1.5
    return y


def wide_program(inputs: int = 12):
    """A traced program concatenating ``inputs`` arguments: all on the top rank when drawn TB,
    a little too wide drawn LR too (its labelled edges)."""
    return make_jaxpr(lambda *xs: mg.cat(list(xs)).sum())(*[mg.ones(3)] * inputs)


def logistic_program():
    """The program of notebook 07: a logistic regression loss."""
    X, y = mg.ones(16, 3), mg.ones(16)

    def loss(w, b):
        return ((-(y * (X @ w + b))).exp() + 1.0).log().mean()

    return make_jaxpr(loss)(mg.ones(3), mg.tensor(0.0))


WIDE = {
    "12-branch fan-out": lambda: viz.draw_graph(fan_out()),
    "40-op chain": lambda: viz.draw_graph(chain()),
    "jaxpr, 12 inputs": lambda: viz.draw_graph(wide_program()),
    "jaxpr, notebook 07": lambda: viz.draw_graph(logistic_program()),
    "40-op chain, stepper": lambda: viz.BackwardStepper(chain().sum()),
    "12-branch fan-out, stepper": lambda: viz.BackwardStepper(fan_out(backward=False)),
}


@needs_dot
@pytest.mark.parametrize("name", list(WIDE))
def test_wide_graphs_fit_the_notebook_column(name):
    with warnings.catch_warnings():
        warnings.simplefilter("error", GraphTooWideWarning)
        view = WIDE[name]()
    if isinstance(view, viz.BackwardStepper):
        width = _fit.svg_width_px(view._graph_html)
        still = view.frame_png()  # the picture viewers without widgets show: panel + graph
        assert struct.unpack(">I", still[16:20])[0] <= FIT_PX
    else:
        width = svg_width(view)
        assert view.fits and view.width_px == pytest.approx(width)
        assert f"{width:,.0f} px wide" in repr(view)
    assert 100 < width <= FIT_PX


@needs_dot
def test_a_fan_out_too_wide_top_to_bottom_is_drawn_left_to_right():
    loss = fan_out()
    top_down = viz.draw_graph(loss, rankdir="TB")
    assert svg_width(top_down) > 1.5 * FIT_PX  # so the test means something
    chosen = viz.draw_graph(loss)
    assert chosen.rankdir == "LR" and "rankdir=LR" in chosen.source
    assert chosen.source == viz.draw_graph(loss, rankdir="LR").source  # full size, not shrunk


@needs_dot
def test_a_chain_stays_top_to_bottom_and_the_default_adds_nothing_to_the_source():
    y = chain()
    assert svg_width(viz.draw_graph(y, rankdir="LR")) > 3 * FIT_PX
    chosen = viz.draw_graph(y)
    assert chosen.rankdir == "TB" and chosen.source == viz.draw_graph(y, rankdir="TB").source


@needs_dot
def test_a_program_a_little_too_wide_either_way_is_shrunk_to_the_column():
    program = wide_program()
    widths = {r: svg_width(viz.draw_graph(program, rankdir=r)) for r in ("TB", "LR")}
    assert widths["TB"] > 1.5 * FIT_PX and FIT_PX < widths["LR"] < FIT_PX / _fit.MIN_SCALE
    view = viz.draw_graph(program)
    assert view.rankdir == "LR" and view.width_px == pytest.approx(FIT_PX, abs=1)
    assert "shrunk to" in repr(view) and 'size="11.458,1000"' in view.source


@pytest.mark.parametrize("rankdir", ["TB", "BT", "LR", "RL"])
def test_a_given_direction_is_kept_even_when_too_wide(rankdir):
    with warnings.catch_warnings():
        warnings.simplefilter("error", GraphTooWideWarning)  # no warning: it was asked for
        view = viz.draw_graph(fan_out(), rankdir=rankdir)
    assert view.rankdir == rankdir and f"rankdir={rankdir}," in view.source
    assert view.width_px is None  # nothing laid out: the direction was given


@needs_dot
def test_too_wide_either_way_is_drawn_the_narrower_way_and_says_how_to_collapse():
    loss = fan_out(deep=True)
    with pytest.warns(GraphTooWideWarning) as caught:
        view = viz.draw_graph(loss)
    message = str(caught[0].message)
    assert "max_nodes=" in message and "rankdir=" in message and "1,100 px" in message
    widths = {r: svg_width(viz.draw_graph(loss, rankdir=r)) for r in ("TB", "LR")}
    assert min(widths.values()) > FIT_PX / _fit.MIN_SCALE  # too wide to shrink
    assert view.rankdir == min(widths, key=widths.get) and not view.fits
    assert f"{widths['TB']:,.0f} px TB and {widths['LR']:,.0f} px LR" in message
    assert message in repr(view)  # the repr says it too


def _square(side_px: float):
    """A DOT source of one square box ``side_px`` wide, in the direction and size asked."""

    def make_source(rankdir, size=None):
        side_in = side_px / 96
        scaled = f', size="{size}"' if size else ""
        return (
            f"digraph g {{ graph [rankdir={rankdir}{scaled}, pad=0, margin=0];"
            f" a [shape=box, fixedsize=true, width={side_in}, height={side_in}, label=a]; }}"
        )

    return make_source


@needs_dot
def test_a_little_too_wide_both_ways_is_shrunk_to_fit():
    chosen, tried = _fit.choose(_square(1200), boxes=1)
    assert [t.rankdir for t in tried] == ["TB", "LR"] and not any(t.fits for t in tried)
    assert chosen.fits and chosen.width_px == pytest.approx(FIT_PX, abs=1)
    assert chosen.scale == pytest.approx(FIT_PX / 1200, abs=0.01)
    assert 'size="11.458,1000"' in chosen.source


@needs_dot
def test_much_too_wide_both_ways_is_not_shrunk_past_min_scale():
    chosen, _ = _fit.choose(_square(2000), boxes=1)
    assert chosen.scale == 1.0 and chosen.width_px == pytest.approx(2000, abs=1)
    assert not chosen.fits and ", size=" not in chosen.source


@needs_dot
def test_beyond_the_choose_limit_nothing_is_laid_out(monkeypatch):
    """dot takes tens of seconds on 10^4 boxes: a big drawing is TB, laid out when shown."""
    calls = []
    monkeypatch.setattr(_render, "run_dot", lambda source, fmt: calls.append(fmt))
    chosen, tried = _fit.choose(_square(2000), boxes=_fit.CHOOSE_LIMIT + 1)
    assert calls == [] and tried == ()
    assert chosen.rankdir == "TB" and chosen.svg is None and chosen.fits
    _fit.choose(_square(2000), boxes=_fit.CHOOSE_LIMIT)
    assert calls  # at the limit it is still laid out


def test_without_dot_the_default_is_top_to_bottom_and_nothing_warns(monkeypatch):
    monkeypatch.setattr(_render, "run_dot", lambda source, fmt: None)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        view = viz.draw_graph(fan_out())
    assert view.rankdir == "TB" and view.width_px is None and view.fits
    assert repr(view) == "<GraphView: 26 nodes, TB>"


@pytest.mark.parametrize(
    "svg, px",
    [
        ('<svg width="825pt" height="10pt">', 1100.0),
        ('<svg xmlns="x" width="300px" height="10px">', 300.0),
        ('<svg width="12" height="10">', 16.0),
        ("<svg>fake</svg>", None),
    ],
)
def test_svg_width_reads_points_and_pixels(svg, px):
    assert _fit.svg_width_px(svg) == (pytest.approx(px) if px else None)


def test_the_stepper_gives_a_drawing_its_width_so_a_wide_one_gets_the_row():
    """The graph's box starts at the drawing's width (at most the column), so a drawing wider
    than what is left beside the panel (flex-basis 380 px) wraps the panel below it."""
    wide = H.layout_html('<svg width="600pt" height="10pt"></svg>', "", "")
    assert "flex:1 1 800px" in wide
    huge = H.layout_html('<svg width="3000pt" height="10pt"></svg>', "", "")
    assert f"flex:1 1 {FIT_PX}px" in huge
    assert "flex:1 1 420px" in H.layout_html("<pre class='mg-text-graph'>n1</pre>", "", "")
