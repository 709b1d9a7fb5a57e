"""PyTorch names built here from other ops (PyTorch composes several of them too):
``meshgrid broadcast_tensors atleast_1d atleast_2d atleast_3d column_stack dstack diff
take_along_dim masked_select repeat_interleave var_mean std_mean aminmax nansum nanmean dist
vdot kron cdist rot90 take logcumsumexp``, and without gradient ``bincount isin``.

Each is a few lines of ops whose gradients are known, so its gradient needs no rule of its
own; where PyTorch records one fused node (``VarMeanBackward0``, ``CdistBackward0``, ...) the
graph here shows the parts (docs/differences.md lists them).
"""

from __future__ import annotations

import warnings

import numpy as np

from .._return_types import return_type
from ..recording.function import Op
from ..tensor import Tensor
from ._util import (
    NoDerivative,
    broadcast_shapes,
    check_tensor,
    make,
    named,
    norm_dim,
    refuse_dtype,
)
from .linalg import dot
from .norm import vector_norm
from .reduce import amax, amin, mean, std, var
from .select import cat, where

#: ``torch.return_types.aminmax``: (min, max).
AminmaxResult = return_type("aminmax", ("min", "max"))


def _tensors(op: str, tensors) -> list:
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    tensors = list(tensors)
    for i, t in enumerate(tensors):
        check_tensor(t, op, "tensors", i + 1)
    return tensors


def broadcast_tensors(*tensors) -> tuple:
    """The tensors expanded to their common shape (``torch.broadcast_tensors``); one already of
    that shape is returned as it is, as PyTorch returns it."""
    tensors = _tensors("broadcast_tensors", tensors)
    shape = ()
    for t in tensors:
        shape = broadcast_shapes(shape, t.shape, "broadcast_tensors")
    return tuple(t if t.shape == shape else t.expand(*shape) for t in tensors)


def meshgrid(*tensors, indexing: str | None = None) -> tuple:
    """Coordinate grids of 1-D tensors (``torch.meshgrid``): with ``indexing='ij'`` output k
    varies along dim k; ``'xy'`` swaps the first two dims (NumPy's default). Without
    ``indexing``, 'ij' with PyTorch's warning."""
    tensors = _tensors("meshgrid", tensors)
    if indexing is None:
        warnings.warn(
            "torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
            "argument.",
            UserWarning,
            stacklevel=2,
        )
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(
            f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}'
        )
    for t in tensors:
        if t.ndim > 1:
            raise RuntimeError(
                f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {t.ndim}D"
            )
    swap = indexing == "xy" and len(tensors) >= 2
    order = [1, 0, *range(2, len(tensors))] if swap else list(range(len(tensors)))
    sizes = [tensors[k].numel() for k in order]
    out = []
    for k, t in enumerate(tensors):
        axis = order.index(k)
        shape = [1] * len(tensors)
        shape[axis] = -1
        out.append(t.reshape(*shape).expand(*sizes))
    return tuple(out)


def atleast_1d(*tensors):
    """Each tensor with at least 1 dim (a 0-d one becomes (1,)) (``torch.atleast_1d``)."""
    out = [t.reshape(1) if t.ndim == 0 else t for t in _tensors("atleast_1d", tensors)]
    return out[0] if len(out) == 1 and not isinstance(tensors[0], (list, tuple)) else tuple(out)


def atleast_2d(*tensors):
    """Each tensor with at least 2 dims: 0-d -> (1, 1), (n,) -> (1, n) (``torch.atleast_2d``)."""
    out = []
    for t in _tensors("atleast_2d", tensors):
        out.append(t.reshape(1, 1) if t.ndim == 0 else t.unsqueeze(0) if t.ndim == 1 else t)
    return out[0] if len(out) == 1 and not isinstance(tensors[0], (list, tuple)) else tuple(out)


def atleast_3d(*tensors):
    """Each tensor with at least 3 dims: (n,) -> (1, n, 1), (m, n) -> (m, n, 1)
    (``torch.atleast_3d``)."""
    out = []
    for t in _tensors("atleast_3d", tensors):
        if t.ndim == 0:
            t = t.reshape(1, 1, 1)
        elif t.ndim == 1:
            t = t.unsqueeze(0).unsqueeze(-1)
        elif t.ndim == 2:
            t = t.unsqueeze(-1)
        out.append(t)
    return out[0] if len(out) == 1 and not isinstance(tensors[0], (list, tuple)) else tuple(out)


def column_stack(tensors):
    """Tensors side by side as columns: 1-D (and 0-d) ones become (n, 1) (``torch.column_stack``)."""
    parts = [t.reshape(-1, 1) if t.ndim <= 1 else t for t in _tensors("column_stack", (tensors,))]
    return cat(parts, 1)


def dstack(tensors):
    """Tensors joined along dim 2 after :func:`atleast_3d` (``torch.dstack``)."""
    return cat(list(atleast_3d(list(_tensors("dstack", (tensors,))))), 2)


def diff(input, n: int = 1, dim: int = -1, prepend=None, append=None):  # noqa: A002
    """The n-th forward difference along ``dim``: out[i] = x[i + 1] - x[i], n times
    (``torch.diff``); ``prepend``/``append`` are joined to ``input`` first."""
    check_tensor(input, "diff")
    if input.ndim == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    d = norm_dim(dim, input.ndim)
    parts = [p for p in (prepend, input, append) if p is not None]
    x = cat(parts, d) if len(parts) > 1 else input
    for _ in range(n):
        m = x.shape[d]
        if m == 0:
            break
        x = x.narrow(d, 1, m - 1) - x.narrow(d, 0, m - 1)
    return x


def take_along_dim(input, indices, dim=None):  # noqa: A002
    """``input``'s values at ``indices`` along ``dim`` (both broadcast on the other dims), or
    at flat positions when ``dim`` is None (``torch.take_along_dim``)."""
    check_tensor(input, "take_along_dim")
    check_tensor(indices, "take_along_dim", "indices", 2)
    if indices._data.dtype.kind not in "iu":
        raise RuntimeError(
            f"torch.take_along_dim(): dtype of indices should be Long but got {indices.dtype}"
        )
    if dim is None:
        return input.reshape(-1).gather(0, indices.reshape(-1))
    d = norm_dim(dim, input.ndim)
    shape_in, shape_ix = list(input.shape), list(indices.shape)
    shape_in[d] = shape_ix[d] = 1
    common = list(broadcast_shapes(tuple(shape_in), tuple(shape_ix), "take_along_dim"))
    x = input.expand(*common[:d], input.shape[d], *common[d + 1 :])
    idx = np.broadcast_to(indices._data, (*common[:d], indices.shape[d], *common[d + 1 :]))
    return x.gather(d, make(np.ascontiguousarray(idx), False, None))


def masked_select(input, mask):  # noqa: A002
    """The elements where ``mask`` (broadcast with ``input``) is True, as a 1-D tensor
    (``torch.masked_select``)."""
    check_tensor(input, "masked_select")
    check_tensor(mask, "masked_select", "mask", 2)
    if mask._data.dtype != np.bool_:
        raise RuntimeError(f"masked_select: expected BoolTensor for mask, got {mask.dtype}")
    x, m = broadcast_tensors(input, mask)
    return x[m]


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):  # noqa: A002
    """Each element (each slice along ``dim``) repeated ``repeats`` times in place
    (``torch.repeat_interleave``); ``repeats`` an int or a 1-D tensor of counts; without
    ``dim`` the input is flattened first."""
    check_tensor(input, "repeat_interleave")
    if repeats is None:  # torch.repeat_interleave(counts): the indices repeated
        counts = input._data
        return make(np.repeat(np.arange(counts.size), counts).astype(np.int64), False, None)
    if isinstance(repeats, Tensor):
        if repeats.ndim > 1:
            raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
        repeats = repeats._data.astype(np.int64)
    x = input.reshape(-1) if dim is None else input
    d = 0 if dim is None else norm_dim(dim, x.ndim)
    index = np.repeat(np.arange(x.shape[d] if x.ndim else 1), repeats)
    return x.index_select(d, make(index.astype(np.int64), False, None))


def var_mean(input, dim=None, *, correction=1, keepdim: bool = False, unbiased=None):  # noqa: A002
    """``(var, mean)`` over ``dim`` (``torch.var_mean``)."""
    if unbiased is not None:
        correction = int(unbiased)
    v = var(input, dim, correction=correction, keepdim=keepdim)
    return v, mean(input, dim, keepdim=keepdim)


def std_mean(input, dim=None, *, correction=1, keepdim: bool = False, unbiased=None):  # noqa: A002
    """``(std, mean)`` over ``dim`` (``torch.std_mean``)."""
    if unbiased is not None:
        correction = int(unbiased)
    s = std(input, dim, correction=correction, keepdim=keepdim)
    return s, mean(input, dim, keepdim=keepdim)


def aminmax(input, *, dim=None, keepdim: bool = False):  # noqa: A002
    """``(min, max)`` of all elements or along ``dim`` (``torch.aminmax``)."""
    check_tensor(input, "aminmax")
    return AminmaxResult(amin(input, dim, keepdim), amax(input, dim, keepdim))


def nansum(input, dim=None, keepdim: bool = False, *, dtype=None):  # noqa: A002
    """The sum with NaNs counted as 0 (``torch.nansum``); their gradient is 0."""
    check_tensor(input, "nansum")
    x = where(input != input, 0.0, input) if input.dtype.is_floating_point else input
    return x.sum(dim, keepdim=keepdim, dtype=dtype) if dim is not None else x.sum(dtype=dtype)


def nanmean(input, dim=None, keepdim: bool = False, *, dtype=None):  # noqa: A002
    """The mean of the elements that are not NaN (``torch.nanmean``; NaN where all are)."""
    check_tensor(input, "nanmean")
    if not input.dtype.is_floating_point:
        raise RuntimeError(
            f"nanmean(): expected input to have floating point or complex dtype but got {input.dtype}"
        )
    count = (
        (input == input).sum(dim, keepdim=keepdim) if dim is not None else (input == input).sum()
    )
    return nansum(input, dim, keepdim, dtype=dtype) / count


def dist(input, other, p=2):  # noqa: A002
    """The p-norm of ``input - other`` (``torch.dist``)."""
    check_tensor(input, "dist")
    check_tensor(other, "dist", "other", 2)
    return vector_norm(input - other, p)


def vdot(input, other):  # noqa: A002
    """The dot product of two 1-D tensors (``torch.vdot``; real tensors: ``dot``)."""
    return named(dot(input, other), "VdotBackward0")


def kron(input, other):  # noqa: A002
    """The Kronecker product (``torch.kron``): block (i, j) is input[i, j] * other."""
    check_tensor(input, "kron")
    check_tensor(other, "kron", "other", 2)
    n = max(input.ndim, other.ndim)
    if n == 0:
        return input * other
    sa = (1,) * (n - input.ndim) + tuple(input.shape)
    sb = (1,) * (n - other.ndim) + tuple(other.shape)
    a = input.reshape(*[s for k in sa for s in (k, 1)])  # (a0, 1, a1, 1, ...)
    b = other.reshape(*[s for k in sb for s in (1, k)])  # (1, b0, 1, b1, ...)
    return (a * b).reshape(*[x * y for x, y in zip(sa, sb)])


def cdist(x1, x2, p: float = 2.0, compute_mode=None):
    """Distances between each row of ``x1`` (..., P, M) and each row of ``x2`` (..., R, M):
    (..., P, R) (``torch.cdist``); the gradient of a zero distance is 0, as PyTorch's."""
    check_tensor(x1, "cdist", "x1", 1)
    check_tensor(x2, "cdist", "x2", 2)
    if x1.ndim < 2 or x2.ndim < 2:
        raise RuntimeError(
            f"cdist only supports at least 2D tensors, X1 got: {x1.ndim}D, X2 got: {x2.ndim}D"
        )
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(
            f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}"
        )
    diff_ = x1.unsqueeze(-2) - x2.unsqueeze(-3)
    return vector_norm(diff_, p, -1)


def rot90(input, k: int = 1, dims=(0, 1)):  # noqa: A002
    """Rotated by 90 degrees ``k`` times in the plane of ``dims``, from the first dim towards
    the second (``torch.rot90``): a flip and a transpose."""
    check_tensor(input, "rot90")
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    d0, d1 = (norm_dim(d, input.ndim) for d in dims)
    if d0 == d1:
        raise RuntimeError(
            f"expected rotation dims to be different, but got dim0 = {d0} and dim1 = {d1}"
        )
    k %= 4
    if k == 1:
        return input.flip(d1).transpose(d0, d1)
    if k == 2:
        return input.flip(d0, d1)
    if k == 3:
        return input.flip(d0).transpose(d0, d1)
    return input.clone()


def take(input, index):  # noqa: A002
    """The elements of the flattened ``input`` at ``index``, in ``index``'s shape
    (``torch.take``)."""
    check_tensor(input, "take")
    check_tensor(index, "take", "index", 2)
    n = input.numel()
    idx = index._data.astype(np.int64)
    if idx.size and (idx.min() < -n or idx.max() >= n):
        bad = idx[(idx < -n) | (idx >= n)].flat[0]
        raise IndexError(f"out of range: tried to access index {bad} on a tensor of {n} elements.")
    return input.reshape(-1)[make(idx % max(n, 1), False, None)]


class Logcumsumexp(Op):
    """out_k = log sum_{i <= k} exp(x_i) along ``dim`` (numpy's stable accumulate);
    d out_k / d x_i = exp(x_i - out_k) for i <= k: backward and jvp go through that n x n
    table (:func:`_lcse_table`), as cumprod's do."""

    save_inputs = True
    save_output = True
    saved_names = ("self", "result")
    saved_values = {"dim": lambda ctx: ctx.dim}

    @staticmethod
    def forward(ctx, a, dim):
        ctx.dim = dim
        if a.ndim == 0:
            return a.copy()
        return np.asarray(np.logaddexp.accumulate(a, axis=dim))

    @staticmethod
    def backward(ctx, g):
        x, out = ctx.saved_tensors
        if x.ndim == 0:
            return g
        table = _lcse_table(x.movedim(ctx.dim, -1), out.movedim(ctx.dim, -1))  # [.., i, k]
        return (table * g.movedim(ctx.dim, -1).unsqueeze(-2)).sum(-1).movedim(-1, ctx.dim)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out_k = sum over i <= k of exp(x_i - out_k) t_i."""
        x, t, d = inputs[0], tangents[0], params["dim"]
        if x.ndim == 0:
            return t
        table = _lcse_table(x.movedim(d, -1), out.movedim(d, -1))
        return (table * t.movedim(d, -1).unsqueeze(-1)).sum(-2).movedim(-1, d)


def _lcse_table(x, out):
    """table[..., i, k] = exp(x_i - out_k) for i <= k, else 0."""
    n = x.shape[-1]
    upper = make(np.triu(np.ones((n, n), dtype=bool)), False, None)
    diff_ = x.unsqueeze(-1) - out.unsqueeze(-2)
    return where(upper, where(upper, diff_, 0.0).exp(), 0.0)


def logcumsumexp(input, dim: int):  # noqa: A002
    """log(cumsum(exp(x))) along ``dim``, computed stably (``torch.logcumsumexp``)."""
    check_tensor(input, "logcumsumexp")
    refuse_dtype(input._data, "logcumsumexp", "biu", "floating point")
    return Logcumsumexp.apply(input, dim=norm_dim(dim, input.ndim))


def bincount(input, weights=None, minlength: int = 0):  # noqa: A002
    """How often each non-negative integer occurs in the 1-D ``input`` (or the sum of its
    ``weights``) (``torch.bincount``); no gradient (weights that require grad give PyTorch's
    ``NotImplemented`` node)."""
    check_tensor(input, "bincount")
    refuse_dtype(input._data, "bincount", "bf", "integer")
    if input.ndim != 1 or input._data.dtype.kind not in "iu":
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    data = input._data
    if data.size and data.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None:
        return make(np.bincount(data, minlength=minlength).astype(np.int64), False, None)
    out_dtype = np.float64 if weights._data.dtype == np.float64 else np.float32
    if weights._data.dtype.kind == "f" and weights._data.dtype != np.float64:
        out_dtype = weights._data.dtype

    def kernel(w):
        return np.bincount(data, weights=w, minlength=minlength).astype(out_dtype)

    if weights.requires_grad:
        return NoDerivative.apply(weights, kernel=kernel, op="bincount")
    return make(kernel(weights._data), False, None)


def isin(elements, test_elements, *, assume_unique: bool = False, invert: bool = False):
    """True where an element of ``elements`` is in ``test_elements`` (``torch.isin``)."""
    a = elements._data if isinstance(elements, Tensor) else np.asarray(elements)
    b = test_elements._data if isinstance(test_elements, Tensor) else np.asarray(test_elements)
    return make(np.isin(a, b, invert=invert), False, None)
