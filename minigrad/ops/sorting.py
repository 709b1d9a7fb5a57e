"""Sorting and order statistics: ``sort``, ``topk``, ``unique`` and ``median`` (PyTorch names and
return types).

Both find an order with numpy and pick the values with an index (``GetItem``), so the
gradient needs no rule of its own: each value's gradient goes back to the place it was
taken from, and everything else gets 0. (PyTorch records ``SortBackward0``/``TopkBackward0``
nodes; here the graph shows the index they are made of.)
"""

from __future__ import annotations

import operator

import numpy as np

from .._return_types import return_type
from ..errors import tensor_ops as _errors
from ..recording.function import Op
from ..tensor import Tensor
from ._util import check_tensor, named, norm_dim, refuse_dtype
from .masked import dense_values
from .reduce import AMax, MaxDim, _extreme
from .select import GetItem

#: ``torch.return_types.sort`` and ``torch.return_types.topk``: (values, indices).
SortResult = return_type("sort", ("values", "indices"))
TopkResult = return_type("topk", ("values", "indices"))


def _along(a: Tensor, dim: int, order: np.ndarray) -> Tensor:
    """a's values at ``order`` along ``dim`` (the same position elsewhere), differentiable."""
    coords = list(np.indices(order.shape, sparse=True))
    coords[dim] = order
    return GetItem.apply(a, key=tuple(coords))


def _order(data: np.ndarray, dim: int, descending: bool) -> np.ndarray:
    """Indices that sort ``data`` along ``dim``: equal values keep their order (stable) and
    NaN counts as larger than every number, as in PyTorch."""
    if not descending:
        return np.argsort(data, axis=dim, kind="stable")
    if data.dtype.kind == "f":  # NaN first, then the numbers from the largest down
        nan = np.isnan(data)
        return np.lexsort((np.where(nan, 0, -data), ~nan), axis=dim)
    return np.argsort(~data, axis=dim, kind="stable")  # ~x = -x - 1: reverses ints and bools


def sort(
    input: Tensor, dim: int = -1, descending: bool = False, *, stable: bool = False
) -> SortResult:  # noqa: A002
    """The values along ``dim`` in order, and where each came from (``torch.sort``).

    Example:
        >>> import minigrad as mg
        >>> mg.sort(mg.tensor([3.0, 1.0, 2.0]))
        minigrad.return_types.sort(
        values=tensor([1., 2., 3.]),
        indices=tensor([1, 2, 0]))
    """
    check_tensor(input, "sort")
    if input.ndim == 0:
        return TopkResult(
            GetItem.apply(input, key=()), Tensor._make(np.zeros((), np.int64), False, None)
        )
    d = norm_dim(dim, input.ndim)
    order = _order(input._data, d, bool(descending))
    values = named(_along(input, d, order), "SortBackward0")
    return SortResult(values, Tensor._make(order.astype(np.int64), False, None))


def argsort(
    input: Tensor, dim: int = -1, descending: bool = False, *, stable: bool = False
) -> Tensor:  # noqa: A002
    """The indices that sort ``input`` along ``dim`` (``torch.argsort``)."""
    return sort(input, dim, descending, stable=stable).indices


def topk(
    input: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True
) -> TopkResult:  # noqa: A002
    """The ``k`` largest (or smallest) values along ``dim`` and their indices (``torch.topk``).

    Example:
        >>> import minigrad as mg
        >>> mg.topk(mg.tensor([1.0, 5.0, 3.0, 4.0]), 2)
        minigrad.return_types.topk(
        values=tensor([5., 4.]),
        indices=tensor([1, 3]))
    """
    check_tensor(input, "topk")
    if input._data.dtype == np.bool_:
        raise RuntimeError(_errors.TOPK_BOOL)
    if isinstance(k, bool) or not hasattr(k, "__index__"):
        raise TypeError(f"topk(): argument 'k' must be int, not {type(k).__name__}")
    k = operator.index(k)
    d = norm_dim(dim, max(input.ndim, 1))
    size = input.shape[d] if input.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError(f"selected index k out of range: k={k}, but dim {d} has size {size}")
    if input.ndim == 0:
        return TopkResult(
            GetItem.apply(input, key=()), Tensor._make(np.zeros((), np.int64), False, None)
        )
    order = _order(input._data, d, bool(largest))
    order = np.take(order, np.arange(k), axis=d)
    values = named(_along(input, d, order), "TopkBackward0")
    return TopkResult(values, Tensor._make(order.astype(np.int64), False, None))


class Unique(Op):
    """The distinct values :func:`unique` found, as a node PyTorch also records
    (``Unique2Backward0``, ``UniqueDimBackward0`` with ``dim``) but cannot differentiate:
    its backward raises PyTorch's NotImplementedError. The values come in as ``found``."""

    node_name = "Unique2Backward0"

    @staticmethod
    def forward(ctx, a, found):
        return found

    @staticmethod
    def backward(ctx, g):
        op = "unique_dim" if ctx.node_name == "UniqueDimBackward0" else "_unique2"
        raise NotImplementedError(_errors.UNIQUE_NO_DERIVATIVE.format(op=op))


def unique(
    input: Tensor,  # noqa: A002
    sorted: bool = True,  # noqa: A002
    return_inverse: bool = False,
    return_counts: bool = False,
    dim: int | None = None,
):
    """The distinct values of ``input`` in ascending order (``torch.unique``).

    Without ``dim`` the input is flattened: a 1-D result; every NaN counts as distinct, as
    in PyTorch. With ``dim``, the distinct slices along it, in lexicographic order.
    ``return_inverse`` adds, for each element (each slice), the position of its value in
    the result; ``return_counts`` adds how often each value occurs. The result is the
    values alone, or a tuple of the values and the extras asked for, in that order. The
    values are always sorted (``sorted=False`` is accepted, as PyTorch's CPU kernel sorts
    too).

    Example:
        >>> import minigrad as mg
        >>> mg.unique(mg.tensor([3, 1, 3, 2]), return_counts=True)
        (tensor([1, 2, 3]), tensor([1, 1, 2]))
    """
    data = dense_values(input, "unique")
    if dim is None:
        found, inverse, counts = np.unique(
            data.ravel(), return_inverse=True, return_counts=True, equal_nan=False
        )
        inverse = inverse.reshape(data.shape)
    else:
        d = norm_dim(dim, input.ndim)
        if data.size == 0 and data.shape.count(0) > 1:
            raise RuntimeError(_errors.UNIQUE_ZERO_DIMS)
        if data.size == 0 and data.shape[d] != 0:
            raise RuntimeError(_errors.UNIQUE_ZERO_NOT_SELECTED)
        found, inverse, counts = np.unique(data, return_inverse=True, return_counts=True, axis=d)
        inverse = inverse.reshape(-1)
    values = Unique.apply(input, found=found)
    if dim is not None:
        named(values, "UniqueDimBackward0")
    extras = [(return_inverse, inverse), (return_counts, counts)]
    extras = [Tensor._make(a.astype(np.int64), False, None) for wanted, a in extras if wanted]
    return (values, *extras) if extras else values


# --- median: the lower of the two middle values, as PyTorch ------------------------------------
def _median_value(a, axis=None, keepdims=False):
    """The lower median of all of ``a`` (NaN if any element is NaN, or if ``a`` is empty)."""
    flat = np.sort(a, axis=None)  # NaNs sort last: the last element says whether there is one
    if flat.size == 0 or (flat.dtype.kind == "f" and np.isnan(flat[-1])):
        return np.asarray(np.nan, dtype=a.dtype if a.dtype.kind == "f" else np.float64)
    return flat[(flat.size - 1) // 2]


def _median_index(a, axis, keepdims=False):
    """Index of the lower median along ``axis``; where a NaN is in the slice, the index of the
    first NaN (PyTorch propagates NaN, with its index)."""
    order = np.argsort(a, axis=axis, kind="stable")
    idx = np.take(order, [(a.shape[axis] - 1) // 2], axis=axis)
    if a.dtype.kind == "f":
        nan = np.isnan(a)
        idx = np.where(
            nan.any(axis=axis, keepdims=True), np.argmax(nan, axis=axis, keepdims=True), idx
        )
    return idx if keepdims else idx.squeeze(axis)


class Median(AMax):
    """The lower median of all elements; ties for it share the gradient evenly (PyTorch's
    ``evenly_distribute_backward``, the rule of max() too: a NaN median goes to the NaNs)."""

    node_name = "MedianBackward0"
    reducer = staticmethod(_median_value)
    evenly = True


class MedianDim(MaxDim):
    """The lower median along one dim with its index; the gradient goes to that index."""

    node_name = "MedianBackward1"
    reducer = staticmethod(_median_index)


def median(input, dim=None, keepdim: bool = False):  # noqa: A002  (PyTorch's names)
    """The lower median (for an even count, the smaller of the two middle values), of all
    elements or, with ``dim``, ``(values, indices)`` along it (``torch.median``); NaN
    propagates.

    Example:
        >>> import minigrad as mg
        >>> mg.median(mg.tensor([3.0, 1.0, 2.0, 5.0]))
        tensor(2.)
        >>> mg.tensor([[3.0, 1.0, 2.0], [0.0, 4.0, 6.0]]).median(1)
        minigrad.return_types.median(
        values=tensor([2., 4.]),
        indices=tensor([2, 1]))
    """
    refuse_dtype(input._data, "median", "b", "number")
    if dim is None:
        return Median.apply(input, dims=None, keepdim=False)
    values, indices = _extreme(input, dim, keepdim, Median, MedianDim, "median")
    return _MedianResult(values, indices)


class _MedianResult(tuple):
    """``(values, indices)``, readable by name, printed as PyTorch's ``return_types.median``."""

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])

    def __new__(cls, values, indices):
        return super().__new__(cls, (values, indices))

    def __repr__(self):
        return f"minigrad.return_types.median(\nvalues={self[0]!r},\nindices={self[1]!r})"
