"""``viz.BackwardStepper``: step through a backward pass, node by node.

The stepper records the whole pass once, with ``minigrad.trace.backward_steps`` (the same
generator ``backward()`` runs), retaining the graph and writing leaf gradients into its own
store, so the user's graph and ``.grad`` are untouched and ``loss.backward()`` still works.

Steps are numbered from 1, as people count ("step 3/5", the slider), and node ``n3`` in the
drawing is the node that runs at step 3. The widget is one anywidget: it keeps the graph's SVG
and the memory chart once and, per step, only the panel and which node and edges to mark; its
ES module (``_stepper.js``) draws the controls (first / previous / next / last, play / pause,
a slider, the arrow keys) and restyles the SVG in the browser, so its state grows linearly with
the steps and the controls work wherever anywidget runs (JupyterLab, VS Code, Colab, marimo)
and in a notebook exported with its widget state, without a kernel. The step is one synced
trait: ``stepper.step = k`` moves the view, and a click in the browser moves ``stepper.step``.
Its output also carries ``image/png`` of the current step (:meth:`BackwardStepper.frame_png`),
which viewers without widgets show instead (GitHub's preview, HTML saved without widget state).

Example:
    >>> import minigrad as mg, viz
    >>> x = mg.tensor([1.0, 2.0], requires_grad=True)
    >>> x.name = "x"
    >>> s = viz.BackwardStepper((x**2 + 2*x).sum())
    >>> s.num_steps
    5
    >>> s.last()
    <step 5/5: n5 AccumulateGrad: x.grad = [4, 6] (before None + incoming [4, 6])>
    >>> s.prev()
    <step 4/5: n4 PowBackward0 sent [2, 4] to n5 AccumulateGrad>
    >>> x.grad is None
    True
"""

from __future__ import annotations

import base64
import pathlib

from . import _errors as errors
from . import _render, _stepper_static
from . import _stepper_html as H
from ._source import param_names
from ._stepper_frames import StepFrame, record
from .graph import draw_built

__all__ = ["BackwardStepper", "StepFrame"]
PLAY_INTERVAL_MS = 1200  # one step per 1.2 s when playing: slow enough to narrate
MAX_STEPS = 2000  # frames recorded at most, unless max_steps says otherwise
MAX_NODES = 400  # boxes drawn at most; the middle of a larger graph is one summary box
_HERE = pathlib.Path(__file__).parent


class BackwardStepper:
    """Step through the backward pass of ``root``: buttons, a slider, Play and the arrow keys,
    or from code.

    Args:
        root: the output (usually the loss) whose backward pass is shown.
        gradient: the gradient of ``root`` when it is not a scalar (as in ``backward()``).
        max_steps: refuse a pass with more steps than this (ValueError saying how to narrow
            it); None records every step.
        max_nodes: draw at most this many boxes; the middle of a larger graph is collapsed
            into one box, as ``viz.draw_graph`` does, which is highlighted while one of its
            nodes runs. None draws every node.
        rankdir: the drawing's direction ("TB", "BT", "LR", "RL"); None (the default)
            chooses one that fits the notebook column, as ``viz.draw_graph`` does.
        params: names for the leaves, as in ``viz.draw_graph``: a dict ``name -> tensor`` or
            a module (``params=model``).

    ``root`` may be a PyTorch tensor: then torch's own backward runs, in its order, with
    hooks on its nodes (the user's ``.grad`` and graph are left as they were), and where
    torch summed a sparse and a dense gradient into a dense one, the step says so.
    Build the stepper before ``loss.backward()`` (or call ``backward(retain_graph=True)``):
    backward frees the tensors the graph saved, and then it cannot be run again.

    Attributes:
        num_steps: number of steps (nodes run) in the pass.
        steps: the :class:`StepFrame` of every step, in order (``steps[k - 1]`` is step k).
        text_only: True when Graphviz was unavailable and the graph is drawn as text.

    ``step`` counts from 1, like the slider and the reprs ("step 1/5").
    """

    def __init__(
        self,
        root,
        gradient=None,
        *,
        max_steps=MAX_STEPS,
        max_nodes=MAX_NODES,
        rankdir=None,
        params=None,
    ):
        names = param_names(params, "BackwardStepper")
        self._graph, self._frames = record(root, gradient, max_steps, names)
        view = draw_built(
            self._graph, names, show_grads=False, max_nodes=max_nodes, rankdir=rankdir
        )
        self._drawn = {v.key for v in view._vnodes}
        self._source = view.source  # DOT, for the still picture (frame_png)
        svg = H.layout_svg(view.source, view._layout.svg)
        self.text_only: bool = svg is None
        if self.text_only:
            _render.warn_missing()
            self._graph_html = H.text_graph_html(view.to_text())
            self._text = view.to_text()
        else:
            self._graph_html = svg
        self._step = 1
        self._widget = None

    # --- what each step marks -------------------------------------------------------------------
    def _box(self, key: str) -> str:
        """The box that shows node ``key``: itself, or the summary box it was collapsed into."""
        return key if key in self._drawn else "more"

    def _travel(self, frame) -> set:
        """The drawn edges ``frame``'s gradients travel along (none inside the summary box)."""
        active = self._box(frame.node)
        return {(active, self._box(dst)) for dst, _, _ in frame.sent} - {("more", "more")}

    def _marks(self, k: int) -> tuple:
        """``(active box, done boxes, travelling edges)`` at step ``k``."""
        frame = self._frames[k - 1]
        active = self._box(frame.node)
        done = {self._box(f.node) for f in self._frames[: k - 1]} - {active}
        return active, done, self._travel(frame)

    def frame_html(self, step: int | None = None) -> str:
        """Step ``step`` (default: the current one) as static HTML: graph, panel, memory chart."""
        k = self._checked(self._step if step is None else step)
        active, done, travel = self._marks(k)
        if self.text_only:
            text = H.restyle_text(self._text, active, done)
            graph_part = f"<pre style='font-size:12px'>{H.esc(text)}</pre>"
        else:
            graph_part = H.restyle_svg(self._graph_html, active, done, travel)
        return H.frame_html(self._frames, k, graph_part)

    def frame_png(self, step: int | None = None) -> bytes | None:
        """Step ``step`` (default: the current one) as a PNG: the marked graph, the panel above.

        This is the picture a viewer without widgets shows (GitHub's preview, an HTML export of
        a notebook saved without widget state). None when Graphviz is not available.
        """
        k = self._checked(self._step if step is None else step)
        if self.text_only:
            return None
        active, done, travel = self._marks(k)
        return _stepper_static.frame_png(self._source, self._frames[k - 1], active, done, travel)

    def _frame_data(self) -> list:
        """What the browser needs per step: the node to mark, the edges, the panel."""
        return [
            {"node": self._box(f.node), "travel": sorted(self._travel(f)), "panel": H.panel_html(f)}
            for f in self._frames
        ]  # the browser derives the done nodes from the order (viz/_stepper.js)

    # --- programmatic API ----------------------------------------------------------------------
    @property
    def num_steps(self) -> int:
        return len(self._frames)

    def _checked(self, value) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(errors.BAD_STEP.format(n=self.num_steps, got=value))
        return min(max(value, 1), self.num_steps)

    @property
    def step(self) -> int:
        """The current step, from 1 to ``num_steps``; setting it clamps to that range."""
        return self._step

    @step.setter
    def step(self, value: int) -> None:
        self._step = self._checked(value)
        if self._widget is not None and self._widget.step != self._step:
            self._widget.step = self._step  # synced: every view of it moves

    @property
    def current(self) -> StepFrame:
        """The record of the current step (its repr is a one-line summary)."""
        return self._frames[self._step - 1]

    @property
    def steps(self) -> tuple:
        """All step records, in the order backward ran them."""
        return self._frames

    def first(self) -> StepFrame:
        self.step = 1
        return self.current

    def prev(self) -> StepFrame:
        self.step = self._step - 1
        return self.current

    def next(self) -> StepFrame:
        self.step = self._step + 1
        return self.current

    def last(self) -> StepFrame:
        self.step = self.num_steps
        return self.current

    def __repr__(self) -> str:
        return f"<BackwardStepper: {self.num_steps} steps, at {self.current!r}>"

    # --- widget --------------------------------------------------------------------------------
    @property
    def widget(self):
        """The anywidget (built on first use): the controls, the graph, the panel, the chart.

        Its ``step`` trait is this stepper's step, both ways: a click in the browser sets it
        here, and setting :attr:`step` here moves every view of it.
        """
        if self._widget is None:
            self._widget = _view_class()(
                markup=H.layout_html(self._graph_html, "", H.timeline_svg(self._frames)),
                frames=self._frame_data(),
                step=self._step,
                interval=PLAY_INTERVAL_MS,
            )
            self._widget.observe(self._on_view_step, names="step")
        return self._widget

    def _on_view_step(self, change) -> None:
        """The browser moved the view (a button, the slider, Play, a key)."""
        step = self._checked(int(change["new"]))
        self._step = step
        if change["new"] != step:  # out of range: put the view back in it
            self._widget.step = step

    def _repr_mimebundle_(self, include=None, exclude=None):
        """The widget, plus ``image/png`` of the current step for viewers without widgets.

        anywidget returns ``(data, metadata)``; the metadata is kept (in Colab it names the
        widget manager to load), and the data alone is returned when it is empty.
        """
        got = self.widget._repr_mimebundle_(include=include, exclude=exclude)
        data, metadata = got if isinstance(got, tuple) else (got, {})
        bundle = dict(data)
        wanted = (include is None or "image/png" in include) and "image/png" not in (exclude or ())
        png = self.frame_png() if wanted else None
        if png is not None:
            bundle["image/png"] = base64.b64encode(png).decode("ascii")
        bundle["text/plain"] = repr(self)
        return (bundle, metadata) if metadata else bundle

    def _display_(self):
        """marimo shows the widget itself (it renders anywidgets, and no widget-view bundle)."""
        return self.widget


_VIEW = None


def _view_class():
    """The widget class (made on first use, so ``import viz`` needs no anywidget)."""
    global _VIEW
    if _VIEW is None:
        import anywidget
        import traitlets

        class StepperView(anywidget.AnyWidget):
            """Controls, graph, panel and memory chart; ``step`` (1-based) is the step shown."""

            _esm = (_HERE / "_stepper.js").read_text(encoding="utf-8")
            _css = (_HERE / "_stepper.css").read_text(encoding="utf-8")
            markup = traitlets.Unicode().tag(sync=True)  # graph SVG + chart, sent once
            frames = traitlets.List().tag(sync=True)  # per step: node, travel, panel
            step = traitlets.Int(1).tag(sync=True)  # set by the controls and by Python
            interval = traitlets.Int(PLAY_INTERVAL_MS).tag(sync=True)  # ms per step in Play

        _VIEW = StepperView
    return _VIEW
