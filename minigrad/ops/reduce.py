"""Reductions: sum mean max min var std logsumexp, and softmax / log_softmax.

A reduction's backward spreads the gradient back over the reduced dims; with
``keepdim=False`` it first puts the reduced dims back as size 1 (``_unreduce``).
Softmax-like ops subtract the maximum first, so they stay finite at +-1000.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _dtype, errors
from .._return_types import return_type
from ..recording.function import Op
from ..tensor import Tensor
from ._util import make, named, norm_dim, norm_dims
from .binary_math import maximum, minimum
from .select import where
from .shape import Expand, Reshape

RESULTS = {name: return_type(name, ("values", "indices")) for name in ("max", "min")}

# PyTorch's grad_fn._saved_<name> values of reductions (recording/saved.py); their ctx.info
# starts with (input shape, dims, keepdim), dims a sorted tuple or None for all
_DIM_KEEPDIM = {"dim": lambda ctx: ctx.info[1], "keepdim": lambda ctx: ctx.info[2]}
_SIZES_DIM_KEEPDIM = {"self_sym_sizes": lambda ctx: ctx.info[0], **_DIM_KEEPDIM}


def _kept_shape(shape: tuple, dims) -> tuple:
    if dims is None:
        return (1,) * len(shape)
    return tuple(1 if i in dims else n for i, n in enumerate(shape))


def _unreduce(g, in_shape, dims, keepdim):
    """Broadcast a reduction's gradient back over ``in_shape``. The 0-d gradient of a
    reduction over every dim expands as it is (broadcasting adds the leading dims)."""
    if not keepdim and dims is not None:
        g = Reshape.apply(g, shape=_kept_shape(in_shape, dims))
    return Expand.apply(g, shape=in_shape)


def _check_nonempty(a, dims, op):
    if a.size:
        return
    if dims is None:
        raise RuntimeError(errors.REDUCE_EMPTY_ALL.format(op=op, shape=tuple(a.shape)))
    for d in dims:
        if a.shape[d] == 0:
            raise IndexError(errors.REDUCE_EMPTY.format(op=op, dim=d, shape=tuple(a.shape)))


class Sum(Op):
    """Sum over dims: grad = g broadcast back over the summed dims."""

    saved_values = _SIZES_DIM_KEEPDIM

    @staticmethod
    def forward(ctx, a, dims, keepdim):
        ctx.info = (a.shape, dims, keepdim)
        if a.dtype.kind in "bui":
            return np.asarray(a.sum(axis=dims, keepdims=keepdim, dtype=np.int64))
        return np.asarray(a.sum(axis=dims, keepdims=keepdim))

    @staticmethod
    def backward(ctx, g):
        return _unreduce(g, *ctx.info)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = sum of t_a over the same dims."""
        return Sum.apply(tangents[0], **params)


class Mean(Op):
    """Mean over dims: grad = g / n broadcast back (n = elements averaged)."""

    saved_values = {"self_sym_numel": lambda ctx: math.prod(ctx.info[0]), **_SIZES_DIM_KEEPDIM}

    @staticmethod
    def forward(ctx, a, dims, keepdim):
        ctx.info = (a.shape, dims, keepdim)
        n = a.size if dims is None else int(np.prod([a.shape[d] for d in dims]))
        ctx.n = n
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.asarray(a.sum(axis=dims, keepdims=keepdim) / a.dtype.type(n or np.nan))

    @staticmethod
    def backward(ctx, g):
        return _unreduce(g / float(ctx.n or np.nan), *ctx.info)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = mean of t_a over the same dims."""
        return Mean.apply(tangents[0], **params)


class AMax(Op):
    """Max over dims (values only); ties share the gradient evenly (PyTorch's amax/max())."""

    node_name = "MaxBackward1"  # PyTorch's max() of all elements; amax names its own

    save_inputs = True
    save_output = True
    saved_names = ("self", "result")
    saved_values = _DIM_KEEPDIM
    reducer = staticmethod(np.max)

    @classmethod
    def forward(cls, ctx, a, dims, keepdim):
        ctx.info = (a.shape, dims, keepdim)
        return np.asarray(cls.reducer(a, axis=dims, keepdims=keepdim))

    evenly = False  # True: PyTorch's evenly_distribute_backward (max(), min(), median())

    @staticmethod
    def backward(ctx, g):
        a, out = ctx.saved_tensors
        in_shape, dims, keepdim = ctx.info
        g = _unreduce(g, in_shape, dims, keepdim)
        if ctx.evenly:  # g / count where picked, a masked +0.0 elsewhere (not g * 0)
            hit = _picked(a, out)
            return where(hit, g / Sum.apply(hit.to(a.dtype), dims=None, keepdim=False), 0.0)
        return g * _share(a, out, dims, keepdim)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = sum of t_a * share (ties share evenly, as in backward)."""
        a, dims, keepdim = inputs[0], params["dims"], params["keepdim"]
        return Sum.apply(tangents[0] * _share(a, out, dims, keepdim), dims=dims, keepdim=keepdim)


class AMin(AMax):
    """Min over dims (values only); ties share the gradient evenly."""

    node_name = "MinBackward1"

    reducer = staticmethod(np.min)


class MaxAll(AMax):
    """``max()`` of all elements: PyTorch's ``evenly_distribute_backward``, whose NaN maximum
    is picked by the NaNs (they share the gradient; ``amax``'s ``==`` picks nothing and
    gives NaN), with a +0.0 elsewhere."""

    evenly = True


class MinAll(AMin):
    """``min()`` of all elements: the gradient rule of :class:`MaxAll`."""

    evenly = True


def _picked(a, out):
    """Where ``a`` is the 0-d extreme ``out``: equal to it, or NaN when it is NaN (ops, so
    ``make_jaxpr(grad(f))`` can trace it)."""
    return (a == out) | (a.isnan() & out.isnan())


def _share(a, out, dims, keepdim):
    """Each element's share of the extreme ``out`` of ``a``: 1/count where it is tied for it,
    else 0. Made of ops (a comparison, a sum), so ``make_jaxpr(grad(f))`` can trace it."""
    hit = (a == _unreduce(out, a.shape, dims, keepdim)).to(a.dtype)
    return hit / Sum.apply(hit, dims=dims, keepdim=True)


class MaxDim(Op):
    """Max along one dim with its index (``torch.max(x, dim)``); grad goes to that index."""

    node_name = "MaxBackward0"

    reducer = staticmethod(np.argmax)
    saved_values = {"indices": lambda ctx: _indices(*ctx.info[1:]), **_SIZES_DIM_KEEPDIM}

    @classmethod
    def forward(cls, ctx, a, dim, keepdim):
        idx = cls.reducer(a, axis=dim, keepdims=True)
        ctx.info = (a.shape, dim, keepdim, idx)
        vals = np.take_along_axis(a, idx, axis=dim)
        return vals if keepdim else vals.squeeze(dim)

    @staticmethod
    def backward(ctx, g):
        in_shape, dim, keepdim, idx = ctx.info
        if not keepdim:
            g = g.unsqueeze(dim)
        return ScatterAlong.apply(g, shape=in_shape, dim=dim, idx=idx)

    @classmethod
    def jvp(cls, params, inputs, tangents, out):
        """Forward rule: t_out = t_a at the arg-extreme index along ``dim``."""
        dim, keepdim = params["dim"], params["keepdim"]
        idx = cls.reducer(inputs[0]._data, axis=dim, keepdims=True)
        t = GatherAlong.apply(tangents[0], dim=dim, idx=idx)
        return t if keepdim else t.squeeze(dim)


def _indices(dim, keepdim, idx):
    """The indices MaxDim/MinDim keep (with the reduced dim), as ``torch.max(x, dim)`` gives."""
    return make(idx if keepdim else idx.squeeze(dim), False, None)


class MinDim(MaxDim):
    """Min along one dim with its index (``torch.min(x, dim)``)."""

    node_name = "MinBackward0"

    reducer = staticmethod(np.argmin)


class ScatterAlong(Op):
    """Put ``g`` at ``idx`` along ``dim`` in zeros of ``shape``; backward gathers it back."""

    @staticmethod
    def forward(ctx, g, shape, dim, idx):
        ctx.info = (dim, idx)
        out = np.zeros(shape, dtype=g.dtype)
        np.put_along_axis(out, idx, g, axis=dim)
        return out

    @staticmethod
    def backward(ctx, gg):
        dim, idx = ctx.info
        return GatherAlong.apply(gg, dim=dim, idx=idx)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule (linear op): t_out = ScatterAlong(t_g)."""
        return ScatterAlong.apply(tangents[0], **params)


class GatherAlong(Op):
    """Take the entries at ``idx`` along ``dim``; backward scatters into zeros."""

    @staticmethod
    def forward(ctx, a, dim, idx):
        ctx.info = (a.shape, dim, idx)
        return np.take_along_axis(a, idx, axis=dim)

    @staticmethod
    def backward(ctx, g):
        shape, dim, idx = ctx.info
        return ScatterAlong.apply(g, shape=shape, dim=dim, idx=idx)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule (linear op): t_out = GatherAlong(t_a)."""
        return GatherAlong.apply(tangents[0], **params)


def _variance(a, dims, keepdim, correction, sqrt):
    """The variance (or its square root) of ``a``'s values, as PyTorch's CPU kernel computes
    it: in float64 for every float dtype, rounded once to ``a``'s dtype at the end. numpy's
    float32 ``var`` sums in float32 and differs from PyTorch's in the last bit in about two
    cases of three (a lecture's running ``std`` printed 16.001511 against PyTorch's 16.001513)."""
    wide = a.astype(np.float64, copy=False)
    with np.errstate(invalid="ignore", divide="ignore"):
        v = wide.var(axis=dims, keepdims=keepdim, ddof=correction)
        if sqrt:
            v = np.sqrt(v)
    return np.asarray(v, dtype=a.dtype)


class Var(Op):
    """Variance with Bessel's correction c: grad = g * 2 (a - mean) / (n - c)."""

    save_inputs = True
    saved_names = ("self",)
    saved_values = {"correction": lambda ctx: ctx.correction, **_DIM_KEEPDIM}

    @staticmethod
    def forward(ctx, a, dims, keepdim, correction):
        ctx.info = (a.shape, dims, keepdim)
        ctx.correction = correction
        n = a.size if dims is None else int(np.prod([a.shape[d] for d in dims]))
        ctx.denom = n - correction if n > correction else 0  # (max() is ours here)
        return _variance(a, dims, keepdim, correction, sqrt=False)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        in_shape, dims, _ = ctx.info
        if not ctx.denom and (dims is None or a.ndim == 0):
            # PyTorch's rule for a full reduction with n <= c: (2 / 0) * (a - mean) is NaN
            # where a equals the mean and inf elsewhere, a constant (outside any graph)
            data = a._data
            slope = np.where(data == data.mean(), np.nan, np.inf).astype(data.dtype)
            return _unreduce(g, *ctx.info) * make(slope, False, None)
        centred = a - a.mean(dim=dims, keepdim=True)
        scale = 2.0 / ctx.denom if ctx.denom else float("nan")
        return _unreduce(g, *ctx.info) * centred * scale

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = sum(2 (a - mean) t_a) / (n - c)."""
        a, dims, keepdim = inputs[0], params["dims"], params["keepdim"]
        n = a._data.size if dims is None else int(np.prod([a.shape[d] for d in dims]))
        denom = n - params["correction"] if n > params["correction"] else 0
        centred = a - a.mean(dim=dims, keepdim=True)
        scale = 2.0 / denom if denom else float("nan")
        return Sum.apply(centred * tangents[0], dims=dims, keepdim=keepdim) * scale


class LogSumExp(Op):
    """log(sum(exp(a))) over dims, computed as m + log(sum(exp(a - m))); grad = g * softmax(a)."""

    node_name = "LogsumexpBackward0"

    save_inputs = True
    save_output = True
    saved_names = ("self", "result")
    saved_values = _DIM_KEEPDIM

    @staticmethod
    def forward(ctx, a, dims, keepdim):
        ctx.info = (a.shape, dims, keepdim)
        if a.size:
            m = np.max(a, axis=dims, keepdims=True)
            m = np.where(np.isfinite(m), m, 0).astype(a.dtype)
        else:
            m = np.zeros(_kept_shape(a.shape, dims), a.dtype)
        with np.errstate(divide="ignore"):
            out = np.log(np.sum(np.exp(a - m), axis=dims, keepdims=True)) + m
        return out if keepdim else out.reshape(_drop(out.shape, dims))

    @staticmethod
    def backward(ctx, g):
        a, out = ctx.saved_tensors
        in_shape, dims, keepdim = ctx.info
        return _unreduce(g, *ctx.info) * (a - _unreduce(out, in_shape, dims, keepdim)).exp()

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = sum of t_a * softmax(a) over the dims."""
        a, dims, keepdim = inputs[0], params["dims"], params["keepdim"]
        soft = (a - _unreduce(out, a.shape, dims, keepdim)).exp()
        return Sum.apply(tangents[0] * soft, dims=dims, keepdim=keepdim)


def _drop(shape, dims):
    if dims is None:
        return ()
    return tuple(n for i, n in enumerate(shape) if i not in dims)


class Softmax(Op):
    """softmax along dim: y = exp(a - m) / sum; grad = y * (g - sum(g * y))."""

    save_output = True
    saved_names = ("result",)
    saved_values = {"dim": lambda ctx: ctx.dim}

    @staticmethod
    def forward(ctx, a, dim):
        ctx.dim = dim
        e = np.exp(a - np.max(a, axis=dim, keepdims=True)) if a.size else a.copy()
        return e / e.sum(axis=dim, keepdims=True)

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return y * (g - (g * y).sum(dim=ctx.dim, keepdim=True))

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = out * (t_a - sum(t_a * out))."""
        ta = tangents[0]
        return out * (ta - (ta * out).sum(dim=params["dim"], keepdim=True))


class LogSoftmax(Op):
    """log_softmax along dim: y = a - logsumexp(a); grad = g - exp(y) * sum(g)."""

    save_output = True
    saved_names = ("result",)
    saved_values = {"dim": lambda ctx: ctx.dim}

    @staticmethod
    def forward(ctx, a, dim):
        ctx.dim = dim
        if not a.size:
            return a.copy()
        shifted = a - np.max(a, axis=dim, keepdims=True)
        return shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True))

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g - y.exp() * g.sum(dim=ctx.dim, keepdim=True)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a - sum(t_a * exp(out))."""
        ta = tangents[0]
        return ta - (ta * out.exp()).sum(dim=params["dim"], keepdim=True)


# --- the functions the Tensor methods call ------------------------------------------
def _dims(dim, ndim: int) -> tuple | None:
    """Reduction dims as a sorted tuple, or None for "all".

    As in PyTorch, ``dim=()`` (or ``[]``) means all dims, and a 0-d tensor accepts
    dim 0 or -1 (there is nothing to reduce: the result is the value itself)."""
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        return None
    dims = norm_dims(dim, ndim)
    return None if ndim == 0 else dims


def _cast_first(a, dtype):
    """``a`` in ``dtype``: PyTorch's ``dtype=`` of sum, mean and softmax casts the input
    before the op (the gradient is cast back by the conversion's node)."""
    return a if dtype is None else a.to(dtype)


def sum(a, dim=None, keepdim: bool = False, *, dtype=None):  # noqa: A001
    """Sum of all elements, or over ``dim`` (an int or a tuple) (``torch.sum``)."""
    a = _cast_first(a, dtype)
    out = Sum.apply(a, dims=_dims(dim, a.ndim), keepdim=keepdim)
    return out if dim is None else named(out, "SumBackward1")  # PyTorch's sum.dim_IntList


def mean(a, dim=None, keepdim: bool = False, *, dtype=None):
    """Mean of all elements, or over ``dim`` (``torch.mean``); floating tensors only."""
    a = _cast_first(a, dtype)
    if a._data.dtype.kind != "f":
        raise RuntimeError(
            f"mean(): could not infer output dtype. Input dtype must be either a floating point "
            f"or complex dtype. Got: {_dtype.c_name(a.dtype)}"
        )
    out = Mean.apply(a, dims=_dims(dim, a.ndim), keepdim=keepdim)
    return out if dim is None else named(out, "MeanBackward1")


def _extreme(a, dim, keepdim, full_op, dim_op, name):
    if dim is None:
        _check_nonempty(a._data, None, name)
        return full_op.apply(a, dims=None, keepdim=False)
    if isinstance(dim, (tuple, list)):
        raise TypeError(f"{name}(): dim must be an int (use amax/amin for several dims)")
    (d,) = norm_dims(dim, a.ndim)
    if a.ndim == 0:  # PyTorch: the value itself, at index 0
        values = named(full_op.apply(a, dims=None, keepdim=False), dim_op.node_name)
        return _result(name, values, _index(0))
    _check_nonempty(a._data, (d,), name)
    values = dim_op.apply(a, dim=d, keepdim=keepdim)
    indices = ArgReduce.apply(a, fn=dim_op.reducer, dim=d, keepdim=keepdim)
    return _result(name, values, indices)


def _result(name, values, indices):
    """``(values, indices)`` as PyTorch's ``return_types.max`` (``min``); median wraps its own."""
    cls = RESULTS.get(name)
    return (values, indices) if cls is None else cls(values, indices)


def _index(idx) -> object:
    return make(np.asarray(idx, dtype=np.int64), False, None)


class ArgReduce(Op):
    """Index of the extreme element (``fn``: np.argmax or np.argmin), flattened when ``dim``
    is None; int64, no gradient. An op (not a numpy call on the array) so it can be traced."""

    differentiable = False

    @staticmethod
    def forward(ctx, a, fn, dim, keepdim):
        if dim is None:
            return np.asarray(fn(a), dtype=np.int64)
        data = a if a.ndim else a.reshape(1)
        return np.asarray(fn(data, axis=dim, keepdims=keepdim and a.ndim > 0), dtype=np.int64)


def max(a, dim=None, keepdim: bool = False, *, other=None):  # noqa: A001
    """Largest element, or ``(values, indices)`` along ``dim`` (``torch.max``); with a tensor
    in place of ``dim`` (``torch.max(a, b)``), the elementwise ``maximum``, as PyTorch's."""
    if isinstance(dim, Tensor) or other is not None:
        return _pairwise(a, dim if other is None else other, keepdim, "max", maximum)
    return _extreme(a, dim, keepdim, MaxAll, MaxDim, "max")


def min(a, dim=None, keepdim: bool = False, *, other=None):  # noqa: A001
    """Smallest element, or ``(values, indices)`` along ``dim`` (``torch.min``); with a
    tensor in place of ``dim`` (``torch.min(a, b)``), the elementwise ``minimum``."""
    if isinstance(dim, Tensor) or other is not None:
        return _pairwise(a, dim if other is None else other, keepdim, "min", minimum)
    return _extreme(a, dim, keepdim, MinAll, MinDim, "min")


def _pairwise(a, other, keepdim, name, fn):
    if keepdim:
        raise TypeError(errors.PAIRWISE_KEEPDIM.format(op=name))
    return fn(a, other)


def amax(a, dim=(), keepdim: bool = False):
    """Max over dims (all when ``dim=()``), ties sharing the gradient (``torch.amax``)."""
    dims = _dims(dim, a.ndim)
    _check_nonempty(a._data, dims, "amax")
    return named(AMax.apply(a, dims=dims, keepdim=keepdim), "AmaxBackward0")


def amin(a, dim=(), keepdim: bool = False):
    """Min over dims (all when ``dim=()``), ties sharing the gradient (``torch.amin``)."""
    dims = _dims(dim, a.ndim)
    _check_nonempty(a._data, dims, "amin")
    return named(AMin.apply(a, dims=dims, keepdim=keepdim), "AminBackward0")


def var(a, dim=None, unbiased=None, keepdim: bool = False, *, correction=None):
    """Variance (``torch.var``): ``correction=1`` (unbiased) by default."""
    if unbiased is not None and correction is not None:
        raise TypeError("var(): pass either unbiased or correction, not both")
    c = correction if correction is not None else (0 if unbiased is False else 1)
    if a._data.dtype.kind != "f":
        raise RuntimeError(errors.VAR_DTYPE.format(got=a.dtype))
    return Var.apply(a, dims=_dims(dim, a.ndim), keepdim=keepdim, correction=c)


def _count(shape, dims) -> int:
    return int(np.prod(shape)) if dims is None else int(np.prod([shape[d] for d in dims]))


class Std(Op):
    """Standard deviation s = sqrt(var) with Bessel's correction c:
    grad = g * (a - mean) / ((n - c) * s), and 0 where s = 0 (PyTorch's convention)."""

    save_inputs = True
    save_output = True
    saved_names = ("self", "result")
    saved_values = {"correction": lambda ctx: ctx.correction, **_DIM_KEEPDIM}

    @staticmethod
    def forward(ctx, a, dims, keepdim, correction):
        ctx.info = (a.shape, dims, keepdim)
        ctx.correction = correction
        return _variance(a, dims, keepdim, correction, sqrt=True)

    @staticmethod
    def backward(ctx, g):
        a, out = ctx.saved_tensors
        return _std_rule(a, out, g, *ctx.info, ctx.correction, reverse=True)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = sum((a - mean) t_a) / ((n - c) s), 0 where s = 0."""
        a, info = inputs[0], (inputs[0].shape, params["dims"], params["keepdim"])
        return _std_rule(a, out, tangents[0], *info, params["correction"], reverse=False)


def _std_rule(a, out, t, in_shape, dims, keepdim, correction, reverse):
    """Backward (``t`` the output's gradient) or forward rule (``t`` the input's tangent)."""
    n = _count(in_shape, dims)
    denom = n - correction if n > correction else 0  # (0: nan, as var's)
    zero = out == 0
    safe = where(zero, 1.0, out) * (float(denom) if denom else float("nan"))
    centred = a - a.mean(dim=dims, keepdim=True)
    if reverse:
        return _unreduce(where(zero, 0.0, t / safe), in_shape, dims, keepdim) * centred
    s = Sum.apply(centred * t, dims=dims, keepdim=keepdim)
    return where(zero, 0.0, s / safe)


def std(a, dim=None, unbiased=None, keepdim: bool = False, *, correction=None):
    """Standard deviation (``torch.std``): ``correction=1`` (unbiased) by default.

    Arguments as :func:`~minigrad.ops.reduce.var`'s; the gradient is 0 where the
    standard deviation is 0 (there sqrt has no derivative), as in PyTorch.

    Example:
        >>> import minigrad as mg
        >>> mg.tensor([[1.0, 3.0], [2.0, 2.0]]).std(dim=1)
        tensor([1.4142, 0.0000])
    """
    if unbiased is not None and correction is not None:
        raise TypeError("std(): pass either unbiased or correction, not both")
    c = correction if correction is not None else (0 if unbiased is False else 1)
    if a._data.dtype.kind != "f":
        raise RuntimeError(errors.VAR_DTYPE.format(got=a.dtype))
    return Std.apply(a, dims=_dims(dim, a.ndim), keepdim=keepdim, correction=c)


def logsumexp(a, dim, keepdim: bool = False):
    """log(sum(exp(a))) over ``dim``, stable for large values (``torch.logsumexp``);
    integer and bool tensors are converted to the default float dtype first, as PyTorch's."""
    if a._data.dtype.kind != "f":
        a = a.to(_dtype.get_default_dtype())
    return LogSumExp.apply(a, dims=_dims(dim, a.ndim), keepdim=keepdim)


def softmax(a, dim: int, dtype=None):
    """exp(a) / sum(exp(a)) along ``dim``, stable for large values (``torch.softmax``)."""
    a = _floating(_cast_first(a, dtype), "softmax")
    return Softmax.apply(a, dim=_one_dim(dim, a.ndim))


def log_softmax(a, dim: int, dtype=None):
    """log(softmax(a)) along ``dim``, computed stably (``torch.log_softmax``)."""
    a = _floating(_cast_first(a, dtype), "log_softmax")
    return LogSoftmax.apply(a, dim=_one_dim(dim, a.ndim))


def _floating(a, op: str):
    """``a``, if it is a floating tensor (PyTorch has no integer or bool softmax kernel)."""
    if a._data.dtype.kind != "f":
        raise NotImplementedError(errors.SOFTMAX_DTYPE.format(op=op, got=a.dtype))
    return a


def _one_dim(dim, ndim: int) -> int | None:
    """The softmax dim, checked; None for a 0-d tensor (normalize over the one value)."""
    d = norm_dim(dim, ndim)
    return d if ndim else None
