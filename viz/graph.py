"""``viz.draw_graph``: the autograd graph as DOT, text, SVG or PNG.

Example:
    >>> import minigrad as mg, viz
    >>> x = mg.tensor(3.0, requires_grad=True)
    >>> x.name = "x"
    >>> y = x**2 + 2*x
    >>> y.backward()
    >>> print(viz.draw_graph(y).to_text(), end="")
    n1 AddBackward0 | ()
      n3 PowBackward0 | ()
        n4 x | () float32 | grad = 8
      n2 MulBackward0 | ()
        -> see n4
"""

from __future__ import annotations

import pathlib
import warnings

from minigrad import func

from . import _errors as errors
from . import _fit, _jaxpr, _render
from ._dot import to_dot
from ._fit import FIT_PX
from ._model import build
from ._source import graph_of, param_names
from ._text import to_text

RANKDIRS = ("TB", "BT", "LR", "RL")


class GraphTooWideWarning(UserWarning):
    """A drawing is wider than the notebook column in every direction tried."""


class GraphView:
    """A drawing of an autograd graph: ``.source`` (DOT), ``.to_text()``, ``.render()``.

    Displays inline in Jupyter (SVG when Graphviz is available, text otherwise).

    Attributes:
        source: the DOT text.
        rankdir: the direction drawn ("TB", "BT", "LR" or "RL").
        width_px: the drawing's width in CSS px when ``dot`` laid it out (None otherwise).
        fits: whether it fits the notebook column (``viz.graph.FIT_PX``, about 1,100 px).
    """

    def __init__(self, vnodes: list, layout: _fit.Layout, text=None, hint: str = ""):
        self._vnodes = vnodes
        self._layout = layout
        self.source: str = layout.source
        self.rankdir: str = layout.rankdir
        self.width_px: float | None = layout.width_px
        self._text: str | None = text
        self._hint = hint  # how to make it fit, when it does not

    @property
    def fits(self) -> bool:
        return self._layout.fits

    def __len__(self) -> int:
        """Number of boxes drawn (a collapsed run counts as one)."""
        return len(self._vnodes)

    def __repr__(self) -> str:
        if self.width_px is None:
            return f"<GraphView: {len(self)} nodes, {self.rankdir}>"
        shrunk = f", shrunk to {self._layout.scale:.0%}" if self._layout.scale < 1 else ""
        head = (
            f"<GraphView: {len(self)} nodes, {self.rankdir}, {self.width_px:,.0f} px wide{shrunk}"
        )
        return head + (">" if self.fits else f": {self._hint}>")

    def to_text(self) -> str:
        """An indented plain-text rendering, root first; shared nodes are printed once."""
        if self._text is None:
            self._text = to_text(self._vnodes) if self._vnodes else "(empty graph)\n"
        return self._text

    def fallback_text(self) -> str:
        """What is shown without Graphviz: the text rendering, then the DOT source."""
        return self.to_text() + "\nDOT source (render with Graphviz `dot -Tsvg`):\n" + self.source

    def render(self, path, format: str | None = None) -> str:  # noqa: A002  (graphviz's name)
        """Write the drawing to ``path``; never raises for a missing or broken Graphviz.

        Args:
            path: the file to write; its extension (``.svg``, ``.png``, ``.pdf``) says the format.
            format: the format when ``path`` has no extension (or the same one it has).

        Returns:
            ``str(path)`` when it was rendered; otherwise (no working ``dot``) the fallback
            text, which is also written to ``path`` with ``.txt`` appended.

        Raises:
            ValueError: for an extension or format viz cannot write, or the two disagreeing.
        """
        path = pathlib.Path(path)
        fmt = _render.format_for(path, format)
        data = _render.run_dot(self.source, fmt)
        if data is None:
            _render.warn_missing()
            text = self.fallback_text()
            path.with_name(path.name + ".txt").write_text(text, encoding="utf-8")
            return text
        path.write_bytes(data)
        return str(path)

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        """Jupyter display: SVG if a renderer works, always ``text/plain``."""
        bundle = {}
        svg_wanted = (include is None or "image/svg+xml" in include) and "image/svg+xml" not in (
            exclude or ()
        )
        if svg_wanted:
            svg = self._layout.svg  # laid out when the direction was chosen
            if svg is None:
                data = _render.run_dot(self.source, "svg")
                svg = None if data is None else data.decode("utf-8", errors="replace")
            if svg is not None:
                bundle["image/svg+xml"] = svg
            else:
                _render.warn_missing()
        if "image/svg+xml" in bundle:
            bundle["text/plain"] = self.to_text()
        else:
            bundle["text/plain"] = self.fallback_text()
        return bundle


def draw_graph(
    root,
    *,
    show_grads: bool = True,
    show_saved: bool = False,
    rankdir: str | None = None,
    max_nodes: int | None = 200,
    params=None,
) -> GraphView:
    """Draw the backward graph behind ``root`` (a Tensor or a tuple of Tensors, of minigrad
    or of PyTorch), or a traced program (a ``ClosedJaxpr`` from ``minigrad.func.make_jaxpr``).

    A PyTorch graph is read from torch's own records (``grad_fn``, ``next_functions``, the
    saved tensors, ``AccumulateGrad.variable``) and drawn by the same rules as minigrad's
    (viz itself never imports torch).

    A program is drawn the way its values flow: inputs and constants at the top, one box per
    equation (``e1``, ``e2``, ... in the order they run), the outputs at the bottom, each edge
    labelled with its variable (``c:f32[3]``); its text rendering is the listing itself.

    By default the drawing fits the notebook column (about 1,100 px, ``viz.graph.FIT_PX``)
    whenever the graph allows: it is laid out top to bottom, or left to right when only that
    fits (a wide fan-out), or the narrower of the two shrunk to at most 80 %. A graph too wide
    for all of these is drawn the narrower way at full size, with a ``GraphTooWideWarning``
    (and its repr) saying how to collapse it (``max_nodes=``) or force a direction
    (``rankdir=``).

    Args:
        root: the output(s) whose ``grad_fn`` graph is drawn, or a ``ClosedJaxpr``.
        show_grads: show each leaf's ``.grad`` (after backward): values when small, else a summary.
        show_saved: add a note per tensor an op saved for backward (shape, dtype, or "freed").
        rankdir: Graphviz layout direction, one of "TB", "BT", "LR", "RL"; None (the
            default) chooses TB or LR to fit the column, as above. Choosing runs ``dot``;
            without it, or beyond 500 boxes, the default is TB.
        max_nodes: beyond this many nodes the middle of the graph (in backward order) is
            collapsed into one summary node, and only the nodes drawn are described, so even
            a 200,000-node graph draws in well under a second; None draws everything. For a
            program: beyond this many equations, the middle ones are one box.
        params: names for the leaves: a dict ``name -> tensor`` or a module (``params=model``
            uses its ``named_parameters()``); a leaf not named is drawn as ``leaf`` (a minigrad
            leaf with a ``.name`` keeps it).

    Returns:
        A :class:`GraphView`.
    """
    if rankdir is not None and rankdir not in RANKDIRS:
        raise ValueError(errors.BAD_RANKDIR.format(rankdirs=RANKDIRS, got=rankdir))
    if max_nodes is not None and max_nodes < 3:
        raise ValueError(errors.BAD_MAX_NODES.format(got=max_nodes))
    text = None
    if isinstance(root, func.ClosedJaxpr):
        vnodes = _jaxpr.vnodes(root, max_nodes)
        to_source, text = _jaxpr.to_dot, str(root) + "\n"
    else:
        names = param_names(params, "draw_graph")
        g = graph_of(root, "draw_graph", names)
        vnodes = build(
            g, show_grads=show_grads, show_saved=show_saved, max_nodes=max_nodes, names=names
        )
        to_source = to_dot
    return _view(vnodes, to_source, text, rankdir)


def draw_built(graph, names: dict, *, show_grads, max_nodes, rankdir) -> GraphView:
    """:func:`draw_graph` of a graph already read (the stepper numbers the nodes as the pass
    it recorded ran them, and draws that same graph)."""
    if rankdir is not None and rankdir not in RANKDIRS:
        raise ValueError(errors.BAD_RANKDIR.format(rankdirs=RANKDIRS, got=rankdir))
    if max_nodes is not None and max_nodes < 3:
        raise ValueError(errors.BAD_MAX_NODES.format(got=max_nodes))
    vnodes = build(graph, show_grads=show_grads, max_nodes=max_nodes, names=names)
    return _view(vnodes, to_dot, None, rankdir)


def _view(vnodes: list, to_source, text, rankdir) -> GraphView:
    """The drawing laid out in ``rankdir``, or in the direction that fits (see draw_graph)."""

    def make_source(direction: str, size: str | None = None) -> str:
        return to_source(vnodes, rankdir=direction, size=size)

    if rankdir is not None:
        return GraphView(vnodes, _fit.Layout(rankdir, make_source(rankdir)), text)
    layout, tried = _fit.choose(make_source, len(vnodes))
    hint = "" if layout.fits else _too_wide(tried, len(vnodes))
    if hint:
        warnings.warn(hint, GraphTooWideWarning, stacklevel=3)
    return GraphView(vnodes, layout, text, hint)


def _too_wide(tried: tuple, boxes: int) -> str:
    """What a too-wide drawing's warning says: the widths tried and how to make it fit."""
    widths = " and ".join(f"{t.width_px:,.0f} px {t.rankdir}" for t in tried)
    return errors.TOO_WIDE.format(widths=widths, fit=FIT_PX, boxes=boxes, fewer=max(3, boxes // 2))
