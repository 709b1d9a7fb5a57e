"""Writing into places an index names: ``scatter`` ``scatter_add`` (``index`` gives, for each
element of ``src``, its position along ``dim``) and ``index_add`` ``index_fill`` (``index``
lists whole slices along ``dim``), with PyTorch's nodes (``ScatterBackward0``,
``ScatterAddBackward0``, ``IndexAddBackward0``, ``IndexFillBackward0``) and gradients:

- scatter: grad_self = g, 0 where written; grad_src = g gathered from where it was written;
- scatter_add: grad_self = g; grad_src = g gathered;
- index_add: grad_self = g; grad_source = alpha * g at the listed slices (``index_select``);
- index_fill: grad_self = g, 0 in the filled slices.

The index is a constant (numpy) for the op; out-of-range indices raise PyTorch's error.
"""

from __future__ import annotations

import warnings

import numpy as np

from ..recording.function import Op
from ..tensor import Tensor
from ._util import NoDerivative, check_tensor, make, norm_dim
from .select import GetItem, where


def _index_array(index, op: str) -> np.ndarray:
    check_tensor(index, op, "index", 2)
    if index._data.dtype not in (np.int64, np.int32):
        raise RuntimeError(f"{op}(): Expected dtype int32/int64 for index, got {index.dtype}")
    return index._data.astype(np.int64)


def _coords(idx: np.ndarray, dim: int, size: int) -> tuple:
    """Where each element of ``idx`` writes: its own position, with ``idx`` along ``dim``."""
    if idx.size and (idx.min() < -size or idx.max() >= size):
        bad = idx[(idx < -size) | (idx >= size)].flat[0]
        raise RuntimeError(f"index {bad} is out of bounds for dimension {dim} with size {size}")
    coords = list(np.indices(idx.shape, sparse=True))
    coords[dim] = idx % size if size else idx
    return tuple(coords)


def _written(shape, coords) -> Tensor:
    mask = np.zeros(shape, dtype=bool)
    mask[coords] = True
    return make(mask, False, None)


class Scatter(Op):
    """out = self with src written at ``coords`` (the last write wins where they repeat)."""

    @staticmethod
    def forward(ctx, a, src, dim, idx, coords):
        ctx.coords, ctx.written = coords, _written(a.shape, coords)
        out = a.copy()
        out[coords] = src
        return out

    @staticmethod
    def backward(ctx, g):
        return where(ctx.written, 0.0, g), GetItem.apply(g, key=ctx.coords)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule (linear in both): the same scatter of the tangents."""
        return Scatter.apply(*_tangents_or_zeros(inputs, tangents), **params)


def _tangents_or_zeros(inputs, tangents) -> tuple:
    """Each input's tangent, zeros where it has none."""
    return tuple(
        t if t is not None else make(np.zeros(x.shape, x._data.dtype), False, None)
        for x, t in zip(inputs, tangents)
    )


class ScatterValue(Op):
    """out = self with a number written at ``coords`` (PyTorch's ``ScatterBackward1``)."""

    node_name = "ScatterBackward1"

    @staticmethod
    def forward(ctx, a, value, dim, idx, coords):
        ctx.written = _written(a.shape, coords)
        out = a.copy()
        out[coords] = value
        return out

    @staticmethod
    def backward(ctx, g):
        return where(ctx.written, 0.0, g)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: the tangent with the written places set to 0."""
        return ScatterValue.apply(tangents[0], **{**params, "value": 0.0})


class ScatterAdd(Op):
    """out = self, plus src added at ``coords`` (repeats add up)."""

    @staticmethod
    def forward(ctx, a, src, dim, idx, coords):
        ctx.coords = coords
        out = a.copy()
        np.add.at(out, coords, src)
        return out

    @staticmethod
    def backward(ctx, g):
        return g, GetItem.apply(g, key=ctx.coords)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule (linear in both): the same scatter-add of the tangents."""
        return ScatterAdd.apply(*_tangents_or_zeros(inputs, tangents), **params)


def _src_like_index(src: Tensor, idx: np.ndarray) -> Tensor:
    """``src`` cut to the index's shape: PyTorch reads only that corner of it."""
    for d, n in enumerate(idx.shape):
        if src.shape[d] != n:
            src = src.narrow(d, 0, n)
    return src


def _scatter_args(input, dim, index, op):  # noqa: A002
    check_tensor(input, op)
    d = norm_dim(dim, input.ndim)
    idx = _index_array(index, op)
    if idx.ndim != input.ndim:
        raise RuntimeError(
            f"Index tensor must have the same number of dimensions as self tensor ({op}: "
            f"index {list(idx.shape)}, self {list(input.shape)})"
        )
    for k, (n, m) in enumerate(zip(idx.shape, input.shape)):
        if k != d and n > m:
            raise RuntimeError(
                f"Size does not match at dimension {k} expected index {list(idx.shape)} to be "
                f"smaller than self {list(input.shape)} apart from dimension {d}"
            )
    return d, idx, _coords(idx, d, input.shape[d])


def scatter(input, dim, index, src=None, *, value=None, reduce=None):  # noqa: A002
    """``input`` with ``src``'s elements (or a number ``value``) written at ``index`` along
    ``dim`` (``torch.scatter``): out[i][index[i][j]] = src[i][j] for dim 1. ``reduce='add'``
    adds instead (:func:`scatter_add`)."""
    d, idx, coords = _scatter_args(input, dim, index, "scatter")
    if value is None and not isinstance(src, Tensor):
        value, src = src, None
    if src is not None:
        src = _src_like_index(src, idx).to(input.dtype)
    if reduce is not None:
        return _scatter_reduce(input, src, value, coords, reduce)
    if src is None:
        return ScatterValue.apply(input, value=value, dim=d, idx=idx, coords=coords)
    return Scatter.apply(input, src, dim=d, idx=idx, coords=coords)


def _scatter_reduce(input, src, value, coords, reduce):  # noqa: A002
    """``scatter(..., reduce='add' | 'multiply')``: PyTorch's deprecated form, which has no
    derivative (its node is ``NotImplemented``, whose backward raises), as here."""
    ufunc = {"add": np.add, "multiply": np.multiply}.get(reduce)
    if ufunc is None:
        raise RuntimeError(f"reduce argument must be either add or multiply. Got {reduce}")
    if src is not None:
        warnings.warn(
            "The reduce argument of torch.scatter with Tensor src is deprecated and will be "
            "removed in a future PyTorch release. Use torch.scatter_reduce instead for more "
            "reduction options.",
            UserWarning,
            stacklevel=3,
        )

    def kernel(a, *rest):
        out = a.copy()
        ufunc.at(out, coords, rest[0] if rest else np.asarray(value, a.dtype))
        return out

    inputs = (input,) if src is None else (input, src.to(input.dtype))
    return NoDerivative.apply(*inputs, kernel=kernel, op="scatter")


def scatter_add(input, dim, index, src):  # noqa: A002
    """``input`` with ``src``'s elements added at ``index`` along ``dim`` (repeats add up)
    (``torch.scatter_add``)."""
    d, idx, coords = _scatter_args(input, dim, index, "scatter_add")
    check_tensor(src, "scatter_add", "src", 4)
    src = _src_like_index(src, idx).to(input.dtype)
    return ScatterAdd.apply(input, src, dim=d, idx=idx, coords=coords)


class IndexAdd(Op):
    """out = self, plus alpha * source[i] added to slice index[i] along ``dim``."""

    @staticmethod
    def forward(ctx, a, source, dim, idx, alpha):
        ctx.dim, ctx.idx, ctx.alpha = dim, idx, alpha
        out = a.copy()
        where_ = (slice(None),) * dim + (idx,)
        np.add.at(out, where_, source * alpha if alpha != 1 else source)
        return out

    @staticmethod
    def backward(ctx, g):
        picked = g.index_select(ctx.dim, make(ctx.idx, False, None))
        return g, picked * ctx.alpha if ctx.alpha != 1 else picked

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule (linear in both): the same index_add of the tangents."""
        return IndexAdd.apply(*_tangents_or_zeros(inputs, tangents), **params)


class IndexFill(Op):
    """out = self with the slices ``idx`` along ``dim`` set to a number."""

    @staticmethod
    def forward(ctx, a, dim, idx, value):
        ctx.dim, ctx.idx, ctx.shape = dim, idx, a.shape
        out = a.copy()
        out[(slice(None),) * dim + (idx,)] = value
        return out

    @staticmethod
    def backward(ctx, g):
        mask = np.zeros(ctx.shape, dtype=bool)
        mask[(slice(None),) * ctx.dim + (ctx.idx,)] = True
        return where(make(mask, False, None), 0.0, g)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: the tangent with the filled slices set to 0."""
        return IndexFill.apply(tangents[0], **{**params, "value": 0.0})


def _slice_index(input, dim, index, op):  # noqa: A002
    check_tensor(input, op)
    d = norm_dim(dim, input.ndim)
    idx = _index_array(index, op).reshape(-1)
    n = input.shape[d] if input.ndim else 1
    if idx.size and (idx.min() < -n or idx.max() >= n):
        bad = idx[(idx < -n) | (idx >= n)][0]
        raise IndexError(f"index out of range in self: {bad} for dimension {d} of size {n}")
    return d, idx % max(n, 1)


def index_add(input, dim, index, source, *, alpha=1):  # noqa: A002
    """``input`` with ``alpha * source[i]`` added to its slice ``index[i]`` along ``dim``
    (``torch.index_add``; repeated indices add up)."""
    d, idx = _slice_index(input, dim, index, "index_add")
    check_tensor(source, "index_add", "source", 4)
    want = input.shape[:d] + (len(idx),) + input.shape[d + 1 :]
    if tuple(source.shape) != tuple(want):
        raise RuntimeError(
            f"index_add(): source {list(source.shape)} must have the shape of self "
            f"{list(input.shape)} with dim {d} of the index's length {len(idx)}"
        )
    return IndexAdd.apply(input, source.to(input.dtype), dim=d, idx=idx, alpha=alpha)


def index_fill(input, dim, index, value):  # noqa: A002
    """``input`` with the slices ``index`` along ``dim`` set to ``value`` (``torch.index_fill``)."""
    d, idx = _slice_index(input, dim, index, "index_fill")
    if isinstance(value, Tensor):
        value = value.item()
    return IndexFill.apply(input, dim=d, idx=idx, value=value)
