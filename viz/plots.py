"""Matplotlib plots for sparse tensors and gradient memory.

* :func:`spy` draws where a tensor (dense or sparse) has entries, like
  ``matplotlib.pyplot.spy`` / MATLAB's ``spy``, with shape, nnz, density and layout.
* :func:`memory_timeline` draws the bytes of all live gradients at each backward
  step, with the densification events the engine recorded.
* :func:`bytes_comparison` draws what sparse gradients cost against their dense
  equivalent (what ``minigrad.sparse.memory_report`` prints, as a chart).

All take ``ax=`` (a matplotlib Axes to draw into; a new figure otherwise) and
return the Axes. matplotlib is imported inside the functions, so ``import viz``
stays light and works without a display.

Example:
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import minigrad as mg
    >>> from viz.plots import spy
    >>> a = mg.sparse_coo_tensor([[0, 2], [1, 3]], [1.0, 2.0], (4, 5))
    >>> spy(a).get_title()
    'sparse_coo (4, 5): nnz=2, density 10.00%'
"""

from __future__ import annotations

import math

import numpy as np

from minigrad import Tensor, trace

from . import _errors as errors
from ._model import fmt_bytes, tensor_nbytes


def _new_axes(ax):
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    return plt.figure().add_subplot()


# --- spy -------------------------------------------------------------------------------------
# A block of the spy image is at least this many pixels of the axes (as laid out when spy
# draws), so showing the image only ever enlarges it: shrinking an image (resampling several
# blocks into one pixel) does not keep its ink (matplotlib's filters inked a 0.16 %-dense
# matrix 0.07 % to 0.28 % depending on the filter), enlarging it does.
PX_PER_BLOCK = 2


def _pattern(t: Tensor):
    """(rows, cols, nrows, ncols, nnz, density) of a >=2-D tensor shown as a matrix.

    Trailing dims are flattened into columns. A sparse tensor shows its stored
    entries (explicit zeros included, duplicates drawn once), every element of a
    dense block of a row-sparse COO; a dense tensor shows its nonzeros.
    """
    shape = tuple(t.shape)
    nrows, ncols = shape[0], math.prod(shape[1:])
    if t.layout == "strided":
        flat = np.flatnonzero(np.asarray(t.detach()))
        nnz, density = flat.size, flat.size / max(t.numel(), 1)
    else:
        data = trace.storage(t)
        coo = data if t.layout == "sparse_coo" else data.to_coo()
        sparse_shape = shape[: coo.indices.shape[0]]
        block = math.prod(shape[len(sparse_shape) :])
        lead = np.ravel_multi_index(tuple(coo.indices), sparse_shape) if coo.nnz else coo.indices[0]
        flat = np.unique((lead[:, None] * block + np.arange(block)[None, :]).ravel())
        nnz, density = data.nnz, data.density
    return flat // ncols, flat % ncols, nrows, ncols, nnz, density


def _blocks(ax, nrows: int, ncols: int, max_points: int) -> tuple:
    """How many blocks of rows and of columns to draw: one per entry when the axes have at
    least ``PX_PER_BLOCK`` pixels for it, fewer otherwise, and at most ``max_points`` in all."""
    box = ax.get_window_extent()  # in the figure's pixels
    rb = min(nrows, max(1, int(box.height / PX_PER_BLOCK)))
    cb = min(ncols, max(1, int(box.width / PX_PER_BLOCK)))
    if rb * cb > max_points:
        scale = math.sqrt(max_points / (rb * cb))
        rb, cb = max(1, int(rb * scale)), max(1, int(cb * scale))
    return rb, cb


def _shares(rows, cols, nrows: int, ncols: int, blocks: tuple):
    """The pattern as an image of ``blocks`` (rows, columns) cells, each the share (0 to 1)
    of the matrix entries it covers that are stored: the image's mean is the density."""
    rb, cb = blocks
    row_block = np.arange(nrows) * rb // nrows
    col_block = np.arange(ncols) * cb // ncols
    counts = np.zeros((rb, cb))
    np.add.at(counts, (row_block[rows], col_block[cols]), 1.0)
    cells = np.outer(np.bincount(row_block, minlength=rb), np.bincount(col_block, minlength=cb))
    return _to_grey_levels(counts / np.maximum(cells, 1))


def _to_grey_levels(shares: np.ndarray, levels: int = 255) -> np.ndarray:
    """``shares`` rounded to the 256 greys a PNG pixel has, each row keeping its total ink.

    Rounding each block on its own whitens every block under half a grey level: a 0.16 %-dense
    ratings matrix in blocks of 740 entries (1/740 < 1/510) came out 0.04 % ink. Rounding the
    running sum along each row instead (error diffusion) carries the remainder to the next
    block, so a row's ink is kept to within half a level, and stays near where it was.
    """
    running = np.floor(np.cumsum(shares * levels, axis=1) + 0.5)
    return np.diff(running, axis=1, prepend=0.0) / levels


def _ink_colormap():
    """White to black, the grey's darkness equal to the value (matplotlib's "Greys" is not
    linear: a cell 20 % stored would be drawn 15 % dark)."""
    from matplotlib.colors import LinearSegmentedColormap

    return LinearSegmentedColormap.from_list("minigrad_ink", ["white", "black"])


def spy(
    tensor_or_grad: Tensor,
    *,
    ax=None,
    markersize: float | None = None,
    max_points: int = 200_000,
):
    """Draw the sparsity pattern of a dense or sparse tensor (rows down, columns across).

    By default the pattern is an image whose ink is the matrix's density: a stored entry is a
    black cell of the matrix's grid, so a matrix 0.6 % dense is about 0.6 % ink, however large
    (the usual spy plot, a marker a few points wide per entry, inks a large sparse matrix tens
    of times its density). When the axes have fewer than ``PX_PER_BLOCK`` pixels per row or
    column, the matrix is drawn in blocks, each grey by the share of its entries that are
    stored (the title says how big the blocks are). Pass ``markersize`` for markers instead.

    Args:
        tensor_or_grad: a tensor with at least 2 dims, e.g. ``emb.weight.grad``. A
            row-sparse COO (sparse rows, dense columns) shows rows x columns; for more
            than 2 dims the trailing dims are flattened into columns.
        ax: the matplotlib Axes to draw into (a new figure if None). Lay it out (size,
            subplots) before calling spy: the blocks are chosen for its size in pixels.
        markersize: draw a square marker of this size (points) per entry instead of the
            image (at most ``max_points`` of them; more are drawn as the image). Its ink no
            longer follows the density: markers larger than a cell overstate it.
        max_points: the image has at most this many cells, whatever the axes' size.

    Returns:
        The Axes, with the image (``ax.images[0]``: the shares, 0 to 1) or the markers
        (``ax.lines[0]``: columns as x, rows as y).

    Raises:
        ValueError: for None, non-tensors and tensors with fewer than 2 dims.
    """
    if tensor_or_grad is None:
        raise ValueError(errors.NO_GRAD.format(fn="spy"))
    tensor_or_grad = _from_torch(tensor_or_grad)
    if not isinstance(tensor_or_grad, Tensor) or len(tensor_or_grad.shape) < 2:
        got = (
            f"a tensor of shape {tuple(tensor_or_grad.shape)}"
            if isinstance(tensor_or_grad, Tensor)
            else f"a {type(tensor_or_grad).__name__} (wrap arrays with mg.tensor(array))"
        )
        raise ValueError(errors.SPY_NEEDS.format(got=got))
    rows, cols, nrows, ncols, nnz, density = _pattern(tensor_or_grad)
    ax = _new_axes(ax)
    title = (
        f"{tensor_or_grad.layout} {tuple(tensor_or_grad.shape)}: nnz={nnz}, density {density:.2%}"
    )
    if markersize is not None and rows.size <= max_points:
        ax.plot(
            cols,
            rows,
            linestyle="none",
            marker="s",
            markersize=markersize,
            markeredgewidth=0,
            color="black",
        )
    else:
        blocks = _blocks(ax, nrows, ncols, max_points)
        image = _shares(rows, cols, nrows, ncols, blocks)
        ax.imshow(
            image,
            cmap=_ink_colormap(),
            vmin=0,
            vmax=1,
            interpolation="nearest",  # blocks of >= PX_PER_BLOCK px: only ever enlarged
            aspect="auto",
            extent=(-0.5, ncols - 0.5, nrows - 0.5, -0.5),
        )
        if blocks != (nrows, ncols):
            bh, bw = nrows / blocks[0], ncols / blocks[1]
            title += f"\n(grey: share stored in blocks of {bh:.2g} x {bw:.2g})"
    ax.set_xlim(-0.5, ncols - 0.5)
    ax.set_ylim(nrows - 0.5, -0.5)  # row 0 at the top, as a matrix is written
    ax.set_xlabel(f"column ({ncols})")
    ax.set_ylabel(f"row ({nrows})")
    ax.set_title(title)
    return ax


# --- memory timeline ---------------------------------------------------------------------------
def _steps_of(steps_or_tensor, gradient) -> list:
    from ._torch_graph import is_torch_tensor

    if is_torch_tensor(steps_or_tensor):  # torch's own pass, recorded with hooks
        from ._torch_steps import backward_steps

        return list(backward_steps((steps_or_tensor,), gradient)[1])
    if isinstance(steps_or_tensor, Tensor):
        # Own accumulators and a retained graph: the user's .grad and graph stay as they were.
        return list(trace.backward_steps(steps_or_tensor, gradient, retain_graph=True, store={}))
    steps = list(steps_or_tensor) if isinstance(steps_or_tensor, (list, tuple)) else None
    if not steps or not all(isinstance(s, trace.Step) for s in steps):
        raise TypeError(errors.NOT_STEPS.format(got=_describe_input(steps_or_tensor)))
    return steps


def _describe_input(x) -> str:
    if isinstance(x, (list, tuple)):
        kinds = sorted({type(v).__name__ for v in x})
        return f"a {type(x).__name__} of {len(x)} items ({', '.join(kinds) or 'empty'})"
    return f"a {type(x).__name__}"


def live_gradient_bytes(steps) -> list:
    """``(step number, bytes)`` after each step (numbered from 1, as the stepper shows them):
    leaf gradients plus gradients in flight.

    In flight: sent by a node and not yet consumed by the node they were sent to
    (the measure ``minigrad.sparse.memory_report`` takes its peak of). Leaf
    gradients are the accumulations' ``after`` tensors, so this works on a list of
    steps recorded earlier (or into a ``store``).
    """
    inflight: dict = {}
    leaves: dict = {}
    series = []
    for step in steps:
        inflight.pop(step.node, None)
        for (nxt, _), g in zip(step.node.next_functions, step.grad_inputs):
            if nxt is not None and g is not None:
                inflight[nxt] = inflight.get(nxt, 0) + tensor_nbytes(g)
        acc = step.accumulation
        if acc is not None and acc.after is not None:
            leaves[id(acc.tensor)] = tensor_nbytes(acc.after)
        series.append((step.index + 1, sum(leaves.values()) + sum(inflight.values())))
    return series


def _event_label(event) -> str:
    return f"densified ({event.rule})\n{fmt_bytes(event.bytes_before)} → {fmt_bytes(event.bytes_after)}"


def memory_timeline(steps_or_tensor, *, ax=None, gradient=None):
    """Bytes of all live gradients after each backward step, densifications marked.

    Args:
        steps_or_tensor: a list of :class:`minigrad.trace.Step` records, e.g.
            ``list(mg.trace.backward_steps(loss))``, or a loss tensor: then the pass
            runs here with the graph retained and into private accumulators, so the
            leaves' ``.grad`` stay as they were and ``loss.backward()`` still works.
        ax: the matplotlib Axes to draw into (a new figure if None).
        gradient: the gradient of the loss, when a non-scalar tensor is given.

    Returns:
        The Axes, with ``ax.minigrad_series`` (``[(step number, bytes), ...]``, numbered from 1
        as in the stepper) and ``ax.minigrad_events`` (``[(step number, DensificationEvent)]``).
    """
    steps = _steps_of(steps_or_tensor, gradient)
    series = live_gradient_bytes(steps)
    events = [(s.index + 1, e) for s in steps for e in s.events if hasattr(e, "rule")]
    ax = _new_axes(ax)
    xs, ys = zip(*series)
    ax.plot(xs, ys, drawstyle="steps-post", marker="o", color="tab:blue", label="live gradients")
    for index, event in events:
        ax.axvline(index, color="tab:red", linestyle="--", linewidth=1.5)
        ax.annotate(
            _event_label(event),
            xy=(index, 1.0),
            xycoords=("data", "axes fraction"),
            xytext=(3, -3),
            textcoords="offset points",
            va="top",
            fontsize="small",
            color="tab:red",
        )
    if len(steps) <= 30:  # few enough steps to name the node of each
        ax.set_xticks(list(xs), [s.node.name() for s in steps], rotation=60, ha="right")
    _bytes_axis(ax.yaxis)
    ax.set_ylim(bottom=0)
    ax.set_xlabel("backward step (1 = the root)")
    ax.set_ylabel("live gradient memory")
    ax.set_title(f"gradient memory per backward step (peak {fmt_bytes(max(ys))})")
    ax.minigrad_series = series
    ax.minigrad_events = events
    return ax


def _bytes_axis(axis) -> None:
    from matplotlib.ticker import FuncFormatter

    axis.set_major_formatter(FuncFormatter(lambda v, _: fmt_bytes(v)))


# --- sparse vs dense bytes -----------------------------------------------------------------------
def _byte_rows(tensors_or_report) -> list:
    """``(label, layout, stored bytes, dense bytes)`` per gradient to compare."""
    if hasattr(tensors_or_report, "leaf_grads"):
        rows = [
            (desc, layout, b, d)
            for desc, layout, _, b, d in tensors_or_report.leaf_grads
            if layout != "strided"
        ]
        if not rows:
            raise ValueError(errors.NOTHING_SPARSE)
        return rows
    if isinstance(tensors_or_report, dict):
        items = list(tensors_or_report.items())
    elif isinstance(tensors_or_report, (list, tuple)):
        items = [(f"[{i}] {list(t.shape)}", t) for i, t in enumerate(tensors_or_report)]
    else:
        items = []
    items = [(k, _from_torch(t)) for k, t in items]
    if not items or not all(isinstance(t, Tensor) for _, t in items):
        raise TypeError(errors.NOT_BYTES_INPUT.format(got=_describe_input(tensors_or_report)))
    return [(str(k), t.layout, tensor_nbytes(t), _dense_nbytes(t)) for k, t in items]


def _from_torch(t):
    """A torch tensor copied into minigrad's (same layout, indices and values as stored), so
    spy and the byte counts read it as they read minigrad's; anything else as it is."""
    from ._torch_graph import is_torch_tensor, to_minigrad

    return to_minigrad(t) if is_torch_tensor(t) else t


def _dense_nbytes(t: Tensor) -> int:
    if t.layout == "strided":
        return tensor_nbytes(t)
    return trace.storage(t).dense_nbytes


def bytes_comparison(tensors_or_report, *, ax=None):
    """Bar chart: bytes of each gradient as stored against dense, each bar labelled.

    The axis is linear, so bars compare as the bytes do: a sparse gradient 1/250 of its dense
    equivalent is a bar 1/250 as tall (a log axis would draw it about half as tall). The
    numbers on the bars and the saving above each pair say what a thin bar cannot.

    Args:
        tensors_or_report: a list of tensors (e.g. ``[emb.weight.grad]``), a dict
            ``{label: tensor}``, or a ``minigrad.sparse.MemoryReport`` (its sparse
            ``leaf_grads``). A dense tensor in a list is drawn too, saving 0%: useful
            to show a gradient that was densified.
        ax: the matplotlib Axes to draw into (a new figure if None).

    Returns:
        The Axes; its ``containers`` are the "as stored" bars, then the "dense" bars.
    """
    rows = _byte_rows(tensors_or_report)
    ax = _new_axes(ax)
    x = np.arange(len(rows))
    stored = [b for _, _, b, _ in rows]
    dense = [d for _, _, _, d in rows]
    bars = (
        ax.bar(x - 0.2, stored, width=0.4, color="tab:green", label="as stored"),
        ax.bar(x + 0.2, dense, width=0.4, color="tab:gray", label="dense equivalent"),
    )
    top = max(stored + dense)
    for i, (_, layout, b, d) in enumerate(rows):
        saving = 1 - b / d if d else 0.0
        ax.annotate(
            f"{layout}\nsaves {saving:.1%}",
            xy=(i, max(b, d)),
            xytext=(0, 14),
            textcoords="offset points",
            ha="center",
            va="bottom",
            fontsize="small",
        )
    for container, values in zip(bars, (stored, dense)):
        ax.bar_label(container, [fmt_bytes(v) for v in values], padding=2, fontsize="x-small")
    ax.set_xticks(x, [label for label, _, _, _ in rows])
    _bytes_axis(ax.yaxis)
    ax.set_ylim(0, top * 1.3)  # room above the tallest bar for its labels
    ax.set_ylabel("gradient bytes")
    sparse = [(b, d) for _, layout, b, d in rows if layout != "strided"]
    total = sum(d for _, d in sparse)
    rate = 1 - sum(b for b, _ in sparse) / total if total else 0.0
    ax.set_title(f"sparse gradients vs dense: saving {rate:.1%}")
    # the key sits outside the frame, on the right, where it can cover no bar and no label
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", frameon=False)
    return ax
