"""Writing values at indices, and sliding windows: ``index_put put masked_scatter unfold``
(PyTorch names and nodes; their in-place forms are Tensor methods in
``_tensor_method_table.py``).

``IndexPut`` is the one op that writes: ``put`` is it on the flattened tensor and
``masked_scatter`` on a bool mask. ``Unfold`` is a view, as PyTorch's: the windows overlap in
memory, and the gradient of each element is the sum over the windows that hold it.
"""

from __future__ import annotations

import numpy as np

from .. import _dtype
from ..errors import order_and_builders as _errors
from ..recording.function import Op
from ..tensor import Tensor
from ._util import check_tensor, named, norm_dim
from .select import GetItem
from .shape import sum_to


class IndexPut(Op):
    """out = a with ``v`` written at ``key`` (added there with ``accumulate``, repeated
    indices summing); grad_a = g, 0 at ``key`` unless accumulating; grad_v = g[key] summed
    to v's shape."""

    node_name = "IndexPutBackward0"
    saved_values = {"accumulate": lambda ctx: ctx.accumulate}

    @staticmethod
    def forward(ctx, a, v, key, accumulate):
        ctx.key, ctx.accumulate = key, accumulate
        ctx.sv, ctx.dv = v.shape, _dtype._FROM_NP[v.dtype]
        out = a.copy()
        if accumulate:
            np.add.at(out, key, v)
        else:
            out[key] = v
        return out

    @staticmethod
    def backward(ctx, g):
        ga = (
            g
            if ctx.accumulate
            else IndexPut.apply(g, g.new_zeros(()), key=ctx.key, accumulate=False)
        )
        return ga, sum_to(GetItem.apply(g, key=ctx.key), ctx.sv, ctx.dv)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule (linear in a and v): the same write of the tangents."""
        ta, tv = tangents
        ta = inputs[0].new_zeros(inputs[0].shape) if ta is None else ta
        tv = inputs[1].new_zeros(inputs[1].shape) if tv is None else tv
        return IndexPut.apply(ta, tv, **params)


def _key(indices, shape: tuple) -> tuple:
    """The index tensors as a numpy key, with PyTorch's checks (dtype, range)."""
    if not isinstance(indices, (tuple, list)):
        raise TypeError(_errors.INDICES_TYPE.format(got=type(indices).__name__))
    key, dim = [], 0
    for index in indices:
        if not isinstance(index, Tensor):
            raise TypeError(_errors.INDICES_TYPE.format(got=type(index).__name__))
        data = index._data
        if data.dtype.kind == "b" or data.dtype == np.uint8:
            key.append(data.astype(bool))
            dim += max(data.ndim, 1)
            continue
        if data.dtype.kind not in "iu":
            raise IndexError(_errors.INDEX_DTYPE)
        size = shape[dim] if dim < len(shape) else 0
        bad = data[(data >= size) | (data < -size)]
        if bad.size:
            raise IndexError(_errors.INDEX_RANGE.format(index=int(bad.flat[0]), dim=dim, size=size))
        key.append(data.astype(np.int64))
        dim += 1
    return tuple(key)


def _broadcasts_to(shape: tuple, target: tuple) -> bool:
    if len(shape) > len(target):
        return False
    return all(s in (1, t) for s, t in zip(shape[::-1], target[::-1]))


def index_put(input, indices, values, accumulate: bool = False) -> Tensor:  # noqa: A002
    """A copy of ``input`` with ``values`` (broadcast) written at ``indices``, a tuple of
    index tensors as in ``input[indices] = values`` (``torch.index_put``); with
    ``accumulate`` added instead, repeated indices summing.

    Example:
        >>> import minigrad as mg
        >>> mg.zeros(4).index_put((mg.tensor([0, 0, 2]),), mg.tensor([1.0, 2.0, 3.0]), accumulate=True)
        tensor([3., 0., 3., 0.])
    """
    check_tensor(input, "index_put")
    check_tensor(values, "index_put", "values", 3)
    key = _key(indices, input.shape)
    if values.dtype is not input.dtype:
        raise RuntimeError(
            _errors.INDEX_PUT_DTYPE.format(
                a=_dtype.c_name(input.dtype), v=_dtype.c_name(values.dtype)
            )
        )
    target = np.empty(input.shape, dtype=bool)[key].shape
    if not _broadcasts_to(values.shape, target):
        raise RuntimeError(_errors.INDEX_PUT_SHAPE.format(v=list(values.shape), t=list(target)))
    return IndexPut.apply(input, values, key=key, accumulate=bool(accumulate))


def put(input, index, source, accumulate: bool = False) -> Tensor:  # noqa: A002
    """A copy of ``input`` with ``source``'s elements written at the flat positions ``index``
    (``torch.put``; ``accumulate`` adds them)."""
    check_tensor(input, "put")
    check_tensor(index, "put", "index", 2)
    check_tensor(source, "put", "source", 3)
    if source.numel() != index.numel():
        raise IndexError(_errors.PUT_NUMEL.format(s=source.numel(), i=index.numel()))
    n, flat = input.numel(), index._data.reshape(-1).astype(np.int64)
    bad = flat[(flat >= n) | (flat < -n)]
    if bad.size:
        raise IndexError(_errors.PUT_RANGE.format(index=int(bad[0]), n=n))
    key = np.unravel_index(flat % max(n, 1), input.shape) if input.ndim else ()
    values = source.reshape(-1) if input.ndim else source.reshape(())
    out = IndexPut.apply(input, values, key=key, accumulate=bool(accumulate))
    return named(out, "PutBackward0")


def masked_scatter(input, mask, source) -> Tensor:  # noqa: A002
    """A copy of ``input`` with the first elements of ``source``, in order, written where
    ``mask`` (broadcast to input's shape) is True (``torch.masked_scatter``).

    Example:
        >>> import minigrad as mg
        >>> mg.zeros(2, 2).masked_scatter(mg.tensor([[True, False], [True, True]]), mg.arange(1.0, 5.0))
        tensor([[1., 0.],
                [2., 3.]])
    """
    check_tensor(input, "masked_scatter")
    check_tensor(mask, "masked_scatter", "mask", 2)
    check_tensor(source, "masked_scatter", "source", 3)
    if mask._data.dtype != np.bool_:
        raise RuntimeError(_errors.MASKED_SCATTER_DTYPE.format(got=_dtype.c_name(mask.dtype)))
    where = np.broadcast_to(mask._data, input.shape)
    count = int(where.sum())
    if source.numel() < count:
        raise RuntimeError(_errors.MASKED_SCATTER_SOURCE)
    values = source.reshape(-1)[:count]
    out = IndexPut.apply(input, values, key=(where,), accumulate=False)
    return named(out, "MaskedScatterBackward0")


# --- unfold: the windows of ``size`` every ``step`` along a dim ---------------------------------
def _windows(a: np.ndarray, dim: int, size: int, step: int) -> np.ndarray:
    view = np.lib.stride_tricks.sliding_window_view(a, size, axis=dim, writeable=a.flags.writeable)
    return view[(slice(None),) * dim + (slice(None, None, step),)]


class Unfold(Op):
    """The windows of ``size`` elements every ``step`` along ``dim``, as a view whose new last
    dim runs along each window; grad: each window's gradient added back where it came from
    (:class:`UnfoldGrad`)."""

    view = True
    saved_values = {"dimension": lambda ctx: ctx.where[0], "size": lambda ctx: ctx.where[1],
                    "step": lambda ctx: ctx.where[2]}  # fmt: skip

    @staticmethod
    def forward(ctx, a, dim, size, step):
        ctx.shape, ctx.where = a.shape, (dim, size, step)
        if a.ndim == 0:
            return a.reshape(1)
        return _windows(a, dim, size, step)

    @staticmethod
    def backward(ctx, g):
        dim, size, step = ctx.where
        return UnfoldGrad.apply(g, shape=ctx.shape, dim=dim, size=size, step=step)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule (linear op): the same windows of the tangent."""
        return Unfold.apply(tangents[0], **params)


class UnfoldGrad(Op):
    """Unfold's backward: zeros of the input's shape, each window's gradient added at its
    place; its own backward takes the windows again."""

    node_name = "UnfoldBackwardBackward0"

    @staticmethod
    def forward(ctx, g, shape, dim, size, step):
        ctx.where = (dim, size, step)
        if len(shape) == 0:
            return g.reshape(())
        out = np.zeros(shape, g.dtype)
        for k in range(g.shape[dim]):
            part = np.moveaxis(np.take(g, k, axis=dim), -1, dim)
            place = (slice(None),) * dim + (slice(k * step, k * step + size),)
            out[place] += part
        return out

    @staticmethod
    def backward(ctx, gg):
        dim, size, step = ctx.where
        return Unfold.apply(gg, dim=dim, size=size, step=step)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule (linear op): the same sum of the tangent's windows."""
        return UnfoldGrad.apply(tangents[0], **params)


def unfold(input, dimension: int, size: int, step: int) -> Tensor:  # noqa: A002
    """``Tensor.unfold``: the slices of ``size`` elements every ``step`` along ``dimension``,
    as a view with one more dim (the window's).

    Example:
        >>> import minigrad as mg
        >>> mg.arange(5.0).unfold(0, 2, 2)
        tensor([[0., 1.],
                [2., 3.]])
    """
    d = norm_dim(dimension, input.ndim)
    n = input.shape[d] if input.ndim else 1
    if size < 0:
        raise RuntimeError(_errors.UNFOLD_SIZE.format(size=size))
    if size > n:
        raise RuntimeError(_errors.UNFOLD_TOO_BIG.format(dim=d, n=n, size=size))
    if step <= 0:
        raise RuntimeError(_errors.UNFOLD_STEP.format(step=step))
    return Unfold.apply(input, dim=d, size=int(size), step=int(step))
