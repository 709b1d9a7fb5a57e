"""Order statistics beyond sort and median: ``kthvalue mode quantile nanquantile msort
unique_consecutive`` (PyTorch names, return types and nodes).

Like ``sort`` (ops/sorting.py), each finds an order with numpy and picks the values with one
index (``GetItem``) renamed to PyTorch's node (``KthvalueBackward0``, ``ModeBackward0``), so
the gradient goes back to the place each value was taken from. ``quantile`` is, as in
PyTorch, a sort followed by a ``lerp`` between the two neighbouring order statistics.
"""

from __future__ import annotations

import operator

import numpy as np

from .._return_types import return_type
from ..errors import order_and_builders as _errors
from ..tensor import Tensor
from ._util import check_tensor, make, named, norm_dim
from .binary_math import lerp
from .select import GetItem
from .sorting import Unique, _order, sort

#: ``torch.return_types.kthvalue`` and ``torch.return_types.mode``: (values, indices).
KthvalueResult = return_type("kthvalue", ("values", "indices"))
ModeResult = return_type("mode", ("values", "indices"))


def _pick(a: Tensor, d: int, index: np.ndarray, keepdim: bool) -> Tensor:
    """a's values at ``index`` (a's shape with dim ``d`` of size 1) along ``d``; the dim kept
    or dropped. One GetItem: its gradient puts each value's gradient back at its index."""
    coords = list(np.indices(index.shape, sparse=True))
    coords[d] = index
    if not keepdim:
        coords = [c.squeeze(d) for c in coords]
        del coords[d : d + 1]
        coords.insert(d, index.squeeze(d))
    return GetItem.apply(a, key=tuple(coords))


def _index_result(cls, a: Tensor, d: int, index: np.ndarray, keepdim: bool, node: str):
    if a.ndim == 0:
        return cls(named(GetItem.apply(a, key=()), node), make(np.zeros((), np.int64), False, None))
    values = named(_pick(a, d, index, keepdim), node)
    idx = index if keepdim else index.squeeze(d)
    return cls(values, make(idx.astype(np.int64), False, None))


def kthvalue(input, k: int, dim: int = -1, keepdim: bool = False) -> KthvalueResult:  # noqa: A002
    """The ``k``-th smallest value along ``dim`` (k counts from 1) and its index
    (``torch.kthvalue``); NaN counts as larger than every number.

    Example:
        >>> import minigrad as mg
        >>> mg.kthvalue(mg.tensor([3.0, 1.0, 2.0]), 2)
        minigrad.return_types.kthvalue(
        values=tensor(2.),
        indices=tensor(2))
    """
    check_tensor(input, "kthvalue")
    if isinstance(k, bool) or not hasattr(k, "__index__"):
        raise TypeError(
            f"kthvalue(): argument 'k' (position 2) must be int, not {type(k).__name__}"
        )
    k = operator.index(k)
    d = norm_dim(dim, input.ndim)
    size = input.shape[d] if input.ndim else 1
    if not 1 <= k <= size:
        raise RuntimeError(_errors.KTHVALUE_RANGE.format(dim=d))
    if input.ndim == 0:
        return _index_result(KthvalueResult, input, 0, None, keepdim, "KthvalueBackward0")
    index = np.take(_order(input._data, d, False), [k - 1], axis=d)
    return _index_result(KthvalueResult, input, d, index, keepdim, "KthvalueBackward0")


def _insertion_order(row: np.ndarray) -> list:
    """The order C++'s ``std::sort`` leaves a short row in (up to 16 elements it is an
    insertion sort on ``<``): PyTorch's mode kernel sorts so, and a NaN, never ``<``
    anything, stays where that sort leaves it."""
    order = [0] if row.size else []
    for i in range(1, row.size):
        if row[i] < row[order[0]]:
            order.insert(0, i)
            continue
        j = len(order)
        while row[i] < row[order[j - 1]]:
            j -= 1
        order.insert(j, i)
    return order


def _mode_of_row(row: np.ndarray) -> int:
    """PyTorch's mode kernel on one row: sort, then the first longest run of equal values
    (NaN equals nothing) wins, with the index of the run's last element."""
    order = _insertion_order(row) if row.size <= 16 else list(np.argsort(row, kind="stable"))
    best, best_count, count = 0, 0, 0
    for pos, i in enumerate(order):
        count += 1
        if pos == len(order) - 1 or row[i] != row[order[pos + 1]]:
            if count > best_count:
                best, best_count = i, count
            count = 0
    return best


def _mode_index(data: np.ndarray, d: int) -> np.ndarray:
    """The index of each slice's mode along ``d`` (:func:`_mode_of_row`), ``d`` kept as 1."""
    moved = np.moveaxis(data, d, -1)
    flat = moved.reshape(-1, moved.shape[-1])
    out = np.array([_mode_of_row(row) for row in flat], dtype=np.int64)
    return np.moveaxis(out.reshape(moved.shape[:-1] + (1,)), -1, d)


def mode(input, dim: int = -1, keepdim: bool = False) -> ModeResult:  # noqa: A002
    """The most frequent value along ``dim`` (the smallest one on a tie) and the index of its
    last occurrence (``torch.mode``). Past 16 elements a slice is sorted stably here, where
    PyTorch's ``std::sort`` may leave equal values in another order: the value is the same,
    the index may be another occurrence of it.

    Example:
        >>> import minigrad as mg
        >>> mg.mode(mg.tensor([2, 1, 2, 1, 3]))
        minigrad.return_types.mode(
        values=tensor(1),
        indices=tensor(3))
    """
    check_tensor(input, "mode")
    d = norm_dim(dim, input.ndim)
    if input.ndim == 0:
        return _index_result(ModeResult, input, 0, None, keepdim, "ModeBackward0")
    if input.shape[d] == 0:
        raise IndexError(_errors.MODE_EMPTY.format(dim=d))
    index = _mode_index(input._data, d)
    return _index_result(ModeResult, input, d, index, keepdim, "ModeBackward0")


def msort(input) -> Tensor:  # noqa: A002
    """``input`` sorted along its first dim (``torch.msort``: ``sort(input, 0).values``)."""
    check_tensor(input, "msort")
    return sort(input, 0).values


# --- quantile: a lerp between the two order statistics around rank q (n - 1) ------------------
_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _check_q(q, input, op: str) -> tuple[np.ndarray, bool]:
    """q as a float64 array and whether the result has a q dim (q a 1-D tensor)."""
    if isinstance(q, Tensor):
        if q.ndim > 1:
            raise RuntimeError(_errors.QUANTILE_Q_DIM)
        if q.dtype is not input.dtype:
            raise RuntimeError(_errors.QUANTILE_Q_DTYPE)
        qs, has_dim = q._data.astype(np.float64), q.ndim == 1
    elif isinstance(q, (int, float)) and not isinstance(q, bool):
        qs, has_dim = np.asarray(float(q)), False
    else:
        raise TypeError(f"{op}(): argument 'q' must be float or Tensor, not {type(q).__name__}")
    bad = qs[(qs < 0) | (qs > 1)]
    if bad.size:
        raise RuntimeError(_errors.QUANTILE_Q_RANGE.format(got=float(bad.flat[0])))
    return qs.reshape(-1), has_dim


def _quantile(input, q, dim, keepdim, interpolation, op: str, ignore_nan: bool):
    check_tensor(input, op)
    if not input.dtype.is_floating_point:
        raise RuntimeError(_errors.QUANTILE_DTYPE)
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError(_errors.QUANTILE_INTERPOLATION.format(got=interpolation))
    qs, has_dim = _check_q(q, input, op)
    if input.numel() == 0:
        raise RuntimeError(_errors.QUANTILE_EMPTY)
    x = input.reshape(-1) if dim is None else input
    d = 0 if dim is None else norm_dim(dim, x.ndim)
    if x.ndim == 0:
        x, keepdim = x.reshape(1), False
    srt = sort(x.movedim(d, -1), -1).values  # (..., n), NaN last
    n = srt.shape[-1]
    nan = np.isnan(srt._data)
    count = (n - nan.sum(-1, keepdims=True)) if ignore_nan else np.full(nan.shape[:-1] + (1,), n)
    dt = input._data.dtype  # the ranks in the input's dtype, as PyTorch computes them
    rank = qs.astype(dt) * (count - 1).astype(dt)  # (..., len(q))
    if not ignore_nan:  # a row with a NaN: its last element, the NaN
        rank = np.where(nan.any(-1, keepdims=True), n - 1, rank)
    rank = np.maximum(rank, 0)  # nanquantile of all-NaN: the first NaN
    if interpolation == "nearest":
        rank = np.round(rank)  # half to even, as PyTorch's round
    lo = (
        np.floor(rank).astype(np.int64)
        if interpolation != "higher"
        else np.ceil(rank).astype(np.int64)
    )
    hi = np.ceil(rank).astype(np.int64) if interpolation in ("linear", "midpoint") else lo
    below, above = srt.gather(-1, make(lo, False, None)), srt.gather(-1, make(hi, False, None))
    if interpolation in ("linear", "midpoint"):
        weight = rank - lo if interpolation == "linear" else np.full(rank.shape, 0.5)
        out = lerp(below, above, make(weight.astype(input._data.dtype), False, None))
    else:
        out = below
    out = out.movedim(-1, 0)  # (len(q), ...)
    if keepdim:
        out = out.unsqueeze(1 + d) if dim is not None else out.reshape(len(qs), *[1] * input.ndim)
    return out if has_dim else out.squeeze(0)


def quantile(input, q, dim=None, keepdim: bool = False, *, interpolation: str = "linear"):  # noqa: A002
    """The ``q``-quantiles of ``input`` (over all elements, or along ``dim``) (``torch.quantile``):
    the sorted values at rank q (n - 1), between two ranks ``interpolation`` decides
    (``linear``, ``lower``, ``higher``, ``midpoint``, ``nearest``). ``q`` a number, or a 1-D
    tensor whose values become the result's first dim. A NaN in a slice gives NaN.

    Example:
        >>> import minigrad as mg
        >>> mg.quantile(mg.tensor([1.0, 2.0, 4.0, 8.0]), 0.5)
        tensor(3.)
    """
    return _quantile(input, q, dim, keepdim, interpolation, "quantile", False)


def nanquantile(input, q, dim=None, keepdim: bool = False, *, interpolation: str = "linear"):  # noqa: A002
    """:func:`quantile` of the values that are not NaN (``torch.nanquantile``); NaN for a slice
    of NaNs only."""
    return _quantile(input, q, dim, keepdim, interpolation, "nanquantile", True)


# --- unique_consecutive: runs of equal values ----------------------------------------------------
class UniqueConsecutive(Unique):
    """The run values :func:`unique_consecutive` found, as PyTorch's node, which it cannot
    differentiate either: backward raises PyTorch's NotImplementedError."""

    node_name = "UniqueConsecutiveBackward0"

    @staticmethod
    def backward(ctx, g):
        raise NotImplementedError(_errors.NO_DERIVATIVE.format(op="unique_consecutive"))


def unique_consecutive(input, return_inverse: bool = False, return_counts: bool = False, dim=None):  # noqa: A002
    """One value (or slice along ``dim``) per run of equal consecutive ones
    (``torch.unique_consecutive``); ``return_inverse`` adds each element's run number,
    ``return_counts`` each run's length. Not differentiable (PyTorch's node, whose backward
    raises).

    Example:
        >>> import minigrad as mg
        >>> mg.unique_consecutive(mg.tensor([1, 1, 2, 2, 3, 1]), return_counts=True)
        (tensor([1, 2, 3, 1]), tensor([2, 2, 1, 1]))
    """
    check_tensor(input, "unique_consecutive")
    data = input._data
    if dim is None:
        flat = data.reshape(-1)
        new_run = np.r_[True, flat[1:] != flat[:-1]] if flat.size else np.zeros(0, bool)
        found, shape = flat[new_run], data.shape
    else:
        d = norm_dim(dim, input.ndim)
        moved = np.moveaxis(data, d, 0).reshape(data.shape[d], -1)
        new_run = (
            np.r_[True, np.any(moved[1:] != moved[:-1], axis=1)]
            if len(moved)
            else np.zeros(0, bool)
        )
        found, shape = np.compress(new_run, data, axis=d), (data.shape[d],)
    inverse = (np.cumsum(new_run) - 1).reshape(shape)
    counts = np.diff(np.r_[np.flatnonzero(new_run), new_run.size])
    values = UniqueConsecutive.apply(input, found=found)
    extras = [(return_inverse, inverse), (return_counts, counts)]
    extras = [make(a.astype(np.int64), False, None) for wanted, a in extras if wanted]
    return (values, *extras) if extras else values
