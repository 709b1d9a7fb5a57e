"""``viz.BackwardStepper``: step through a backward pass, node by node.

The stepper records the whole pass once, with ``minigrad.trace.backward_steps`` (the same
generator ``backward()`` runs), retaining the graph and writing leaf gradients into its own
store, so the user's graph and ``.grad`` are untouched and ``loss.backward()`` still works.
Every frame (graph, panel, memory timeline) is precomputed as HTML, so a notebook exported with
its widget state steps through the pass in the browser without a kernel.

Example:
    >>> import minigrad as mg, viz
    >>> x = mg.tensor([1.0, 2.0], requires_grad=True)
    >>> x.name = "x"
    >>> s = viz.BackwardStepper((x**2 + 2*x).sum())
    >>> s.num_steps
    5
    >>> s.last()
    <step 5/5: AccumulateGrad: x.grad = [4, 6] (before None + incoming [4, 6])>
    >>> s.prev()
    <step 4/5: PowBackward sent [2, 4] to n4 AccumulateGrad>
    >>> x.grad is None
    True
"""

from __future__ import annotations

from . import _render
from . import _stepper_html as H
from ._stepper_frames import StepFrame, record
from .graph import draw_graph

__all__ = ["BackwardStepper", "StepFrame"]
PLAY_INTERVAL_MS = 1200  # one step per 1.2 s when playing: slow enough to narrate


class BackwardStepper:
    """Step through the backward pass of ``root``: buttons, a slider and Play, or from code.

    Args:
        root: the output (usually the loss) whose backward pass is shown.
        gradient: the gradient of ``root`` when it is not a scalar (as in ``backward()``).

    Attributes:
        num_steps: number of steps (nodes run) in the pass.
        frames: the precomputed HTML of every step, in order.
        text_only: True when Graphviz was unavailable and the graph is drawn as text.

    ``step`` is 0-based (like the slider); the one-line reprs count from 1 ("step 1/5").
    """

    def __init__(self, root, gradient=None):
        self._graph, self._frames = record(root, gradient)
        view = draw_graph(root, show_grads=False, max_nodes=None)
        svg = H.layout_svg(view.source)
        self.text_only: bool = svg is None
        if self.text_only:
            _render.warn_missing()
        self.frames: tuple = tuple(self._frame_html(k, svg, view) for k in range(self.num_steps))
        self._step = 0
        self._widget = None
        self._slider = None

    # --- frames --------------------------------------------------------------------------------
    def _frame_html(self, k: int, svg, view) -> str:
        frame = self._frames[k]
        active = f"n{frame.node_id}"
        done = {f"n{f.node_id}" for f in self._frames[:k]}
        if svg is not None:
            travel = {(active, f"n{dst}") for dst, _, _ in frame.sent}
            graph_part = H.restyle_svg(svg, active, done, travel)
        else:
            text = H.restyle_text(view.to_text(), active, done)
            graph_part = f"<pre style='font-size:12px'>{H.esc(text)}</pre>"
        return H.frame_html(self._frames, k, graph_part)

    # --- programmatic API ----------------------------------------------------------------------
    @property
    def num_steps(self) -> int:
        return len(self._frames)

    @property
    def step(self) -> int:
        """The current step, 0-based; setting it clamps to ``0 .. num_steps - 1``."""
        return self._step

    @step.setter
    def step(self, value: int) -> None:
        self._step = min(max(int(value), 0), self.num_steps - 1)
        if self._slider is not None and self._slider.value != self._step:
            self._slider.value = self._step  # the observer moves the Stack (and Play)

    @property
    def current(self) -> StepFrame:
        """The record of the current step (its repr is a one-line summary)."""
        return self._frames[self._step]

    @property
    def steps(self) -> tuple:
        """All step records, in the order backward ran them."""
        return self._frames

    def first(self) -> StepFrame:
        self.step = 0
        return self.current

    def prev(self) -> StepFrame:
        self.step = self._step - 1
        return self.current

    def next(self) -> StepFrame:
        self.step = self._step + 1
        return self.current

    def last(self) -> StepFrame:
        self.step = self.num_steps - 1
        return self.current

    def __repr__(self) -> str:
        return f"<BackwardStepper: {self.num_steps} steps, at {self.current!r}>"

    # --- widget --------------------------------------------------------------------------------
    @property
    def widget(self):
        """The ipywidgets VBox (built on first use): buttons, Play, slider, one HTML per frame."""
        if self._widget is None:
            self._widget = self._build_widget()
        return self._widget

    def _build_widget(self):
        import ipywidgets as W

        last = self.num_steps - 1
        self._stack = W.Stack(
            children=[W.HTML(value=h) for h in self.frames], selected_index=self._step
        )
        self._slider = W.IntSlider(
            value=self._step, min=0, max=last, description="step", continuous_update=True
        )
        self._play = W.Play(value=self._step, min=0, max=last, interval=PLAY_INTERVAL_MS)
        # Client-side links: an exported notebook steps without a kernel.
        self.links = (
            W.jslink((self._play, "value"), (self._slider, "value")),
            W.jslink((self._slider, "value"), (self._stack, "selected_index")),
        )
        # Python-side: keep `step`, the Stack and Play in sync when a kernel is there.
        self._slider.observe(self._on_slider, names="value")
        self.buttons = {}
        for label, tip, go in (
            ("⏮", "first step", self.first),
            ("◀", "previous step", self.prev),
            ("▶", "next step", self.next),
            ("⏭", "last step", self.last),
        ):
            b = W.Button(description=label, tooltip=tip, layout=W.Layout(width="44px"))
            b.on_click(lambda _b, go=go: go())
            self.buttons[label] = b
        controls = W.HBox([*self.buttons.values(), self._play, self._slider])
        return W.VBox([controls, self._stack])

    def _on_slider(self, change) -> None:
        self._step = int(change["new"])
        if self._stack.selected_index != self._step:
            self._stack.selected_index = self._step
        if self._play.value != self._step:
            self._play.value = self._step

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = self.widget._repr_mimebundle_(include=include, exclude=exclude)
        bundle["text/plain"] = repr(self)
        return bundle
