"""The product and the scans: prod, and cumsum, cumprod, cummax and cummin, the running sum,
product and extremes (the other reductions are in :mod:`.reduce`; the median, an order
statistic, in :mod:`.sorting`).

``prod``'s gradient is PyTorch's: ``out / a`` when the input holds no zero, else the product
of the *other* elements, computed without dividing by the input, so it is right when the input
holds zeros (one zero: only that element gets a gradient; two or more: none does).
"""

from __future__ import annotations

import numpy as np

from .. import _dtype
from .._return_types import return_type
from ..errors import tensor_ops as _errors
from ..recording.function import Op
from ..tensor import has_sparse_layout
from ._util import check_tensor, make, named, norm_dim
from .flip_split import flip
from .reduce import _DIM_KEEPDIM, GatherAlong, Sum, _dims, _kept_shape, _unreduce
from .select import where
from .shape import movedim


# --- prod -------------------------------------------------------------------------------------
class Prod(Op):
    """Product over one dim (or all): grad_i = g * d out / d a_i, as PyTorch's ``prod_backward``
    (see :func:`_slope`). A sparse COO ``g`` stays sparse where the reduced dim has size 1
    (``sparse/formulas.py``), as PyTorch's ``g * slope`` keeps it."""

    save_inputs = True
    # PyTorch's ProdBackward saves its result too: an in-place change of it is caught at backward
    save_output = True
    saved_names = ("self", "result")
    saved_values = _DIM_KEEPDIM

    @staticmethod
    def forward(ctx, a, dims, keepdim):
        ctx.info = (a.shape, dims, keepdim)
        if a.dtype.kind in "bui":
            return np.asarray(np.prod(a, axis=dims, keepdims=keepdim, dtype=np.int64))
        return np.asarray(np.prod(a, axis=dims, keepdims=keepdim))

    @staticmethod
    def backward(ctx, g):
        a, out = ctx.saved_tensors
        in_shape, dims, keepdim = ctx.info
        if a.ndim == 0:  # PyTorch's first rule: the gradient itself (it does not depend on a)
            return g
        if g.layout != "strided":  # the reduced dim has size 1: g only gains it back
            return g._view_dense_dims(_kept_shape(in_shape, dims)) * _slope(a, out, ctx.info)
        return _unreduce(g, *ctx.info) * _slope(a, out, ctx.info)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = sum of t_a * d out / d a."""
        if inputs[0].ndim == 0:  # as backward: the tangent itself
            return tangents[0]
        info = (inputs[0].shape, params["dims"], params["keepdim"])
        slope = _slope(inputs[0], out, info)
        return Sum.apply(tangents[0] * slope, dims=params["dims"], keepdim=params["keepdim"])


def _slope(a, out, info):
    """d out / d a_i, PyTorch's way: ``out / a_i`` when no element of the input is 0 (so an
    infinite or NaN a_i gives NaN, as in PyTorch), else the product of the other elements of
    its group, computed without division (:class:`ProdOthers`).

    PyTorch picks one formula by reading the input's values; here both are computed and a
    ``where`` picks one, so ``jit`` (which cannot read values) traces the same arithmetic as
    eager code. The divisor is 1 where ``a`` is 0, so the unused quotient is finite and its
    gradient (second order) is not NaN times 0."""
    zero = a == 0
    any_zero = zero.sum() > 0  # a 0-d bool tensor: the whole input, as PyTorch's check
    quotient = _unreduce(out, *info) / where(zero, 1.0, a)
    return where(any_zero, _others(a, info[1]), quotient)


def _others(a, dims):
    """For each element, the product of the others of its group (all, or along dims[0])."""
    if dims is None:
        return ProdOthers.apply(a.reshape(-1), dim=0).reshape(*a.shape)
    return ProdOthers.apply(a, dim=dims[0])


class ProdOthers(Op):
    """out_i = prod_{j != i} a_j along ``dim`` (exclusive products from both ends: no
    division). d out_i / d a_k = prod_{j != i, k} a_j for k != i, 0 for k = i: the
    backward builds that n x n matrix, so second derivatives cost O(n^2) per group."""

    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a, dim):
        ctx.dim = dim
        if not a.shape[dim]:
            return a.copy()
        ones = np.ones_like(np.take(a, [0], axis=dim))
        before = np.cumprod(np.concatenate([ones, a], axis=dim), axis=dim)
        after = np.flip(np.cumprod(np.flip(np.concatenate([a, ones], axis=dim), dim), dim), dim)
        n = a.shape[dim]
        take = (slice(None),) * dim
        return before[take + (slice(0, n),)] * after[take + (slice(1, n + 1),)]

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return _pairs_times(a, g, ctx.dim)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out_i = sum_{k != i} t_k prod_{j != i, k} a_j."""
        return _pairs_times(inputs[0], tangents[0], params["dim"])


def _pairs_times(a, v, dim):
    """sum_k M_ik v_k along ``dim``, M_ik = prod_{j != i, k} a_j (0 on the diagonal);
    M is symmetric, so this is both the backward and the forward rule of ProdOthers."""
    n = a.shape[dim]
    a_last, v_last = a.movedim(dim, -1), v.movedim(dim, -1)
    eye = make(np.eye(n, dtype=bool), False, None)
    rows = where(eye, 1.0, a_last.unsqueeze(-2).expand(*a_last.shape[:-1], n, n))
    m = where(eye, 0.0, ProdOthers.apply(rows, dim=rows.ndim - 1))  # row i: a with a_i = 1
    return (m * v_last.unsqueeze(-2)).sum(-1).movedim(-1, dim)


def prod(a, dim=None, keepdim: bool = False, *, dtype=None):
    """Product of all elements, or along the int ``dim`` (``torch.prod``); integer and bool
    tensors give int64. The gradient is right with zeros in the input.

    Example:
        >>> import minigrad as mg
        >>> x = mg.tensor([2.0, 0.0, 4.0], requires_grad=True)
        >>> x.prod().backward()
        >>> x.grad
        tensor([0., 8., 0.])
    """
    if dim is not None and (not isinstance(dim, (int, np.integer)) or isinstance(dim, bool)):
        raise TypeError(_errors.PROD_DIM_TYPE.format(got=type(dim).__name__))
    if dim is None and keepdim:
        raise TypeError(_errors.PROD_KEEPDIM)
    if dtype is not None:
        a = a.to(_dtype.as_dtype(dtype))
    out = Prod.apply(a, dims=_dims(dim, a.ndim), keepdim=keepdim)
    return out if dim is None else named(out, "ProdBackward1")  # PyTorch's prod.dim_int


# --- cumsum -----------------------------------------------------------------------------------
class Cumsum(Op):
    """Running sum along dim: out_i = sum_{j <= i} a_j; grad = reversed running sum of g."""

    saved_values = {"dim": lambda ctx: ctx.dim}

    @staticmethod
    def forward(ctx, a, dim):
        ctx.dim = dim
        kind = np.int64 if a.dtype.kind in "bui" else a.dtype
        if a.ndim == 0:
            return np.asarray(a, dtype=kind).copy()
        out = np.cumsum(a, axis=dim, dtype=kind)
        # PyTorch's running sum starts at +0.0 (0 + -0.0 is +0.0); numpy's at the first element
        return out + 0 if out.dtype.kind == "f" else out

    @staticmethod
    def backward(ctx, g):
        if g.ndim == 0:
            return g
        return flip(Cumsum.apply(flip(g, (ctx.dim,)), dim=ctx.dim), (ctx.dim,))

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule (linear op): t_out = cumsum(t_a)."""
        return Cumsum.apply(tangents[0], **params)


def cumsum(a, dim: int, *, dtype=None):
    """Running sum along ``dim`` (``torch.cumsum``); integer and bool tensors give int64,
    ``dtype`` casts the input first."""
    d = norm_dim(dim, a.ndim)
    if dtype is not None:
        a = a.to(_dtype.as_dtype(dtype))
    return Cumsum.apply(a, dim=d)


class Cumprod(Op):
    """Running product along dim: out_k = prod_{j <= k} a_j.

    d out_k / d a_i = prod_{j <= k, j != i} a_j for i <= k (0 for i > k). Dividing out_k by
    a_i would fail at zeros, so these products are built directly (:func:`_partial_products`,
    an n x n table per slice: the readable, exact way; PyTorch has a cleverer O(n) kernel).
    backward sums g_k over k, jvp sums t_i over i, both through the same table."""

    save_inputs = True
    saved_names = ("self",)
    saved_values = {"dim": lambda ctx: ctx.dim}

    @staticmethod
    def forward(ctx, a, dim):
        ctx.dim = dim
        if a.ndim == 0:
            return a.copy()
        return np.cumprod(a, axis=dim)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        if a.ndim == 0:
            return g
        table = _partial_products(movedim(a, ctx.dim, -1))  # [..., i, k]
        grad = (table * movedim(g, ctx.dim, -1).unsqueeze(-2)).sum(-1)
        return movedim(grad, -1, ctx.dim)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out_k = sum over i <= k of t_i * prod_{j <= k, j != i} a_j."""
        a, t, dim = inputs[0], tangents[0], params["dim"]
        if a.ndim == 0:
            return t
        table = _partial_products(movedim(a, dim, -1))
        return movedim((table * movedim(t, dim, -1).unsqueeze(-1)).sum(-2), -1, dim)


def _partial_products(a):
    """table[..., i, k] = prod_{j <= k, j != i} a[..., j] for k >= i, else 0: row i is the
    running product of ``a`` with its i-th entry replaced by 1, kept from k = i on."""
    n = a.shape[-1]
    eye = make(np.eye(n, dtype=bool), False, None)
    rows = where(eye, 1.0, a.unsqueeze(-2).expand(*a.shape[:-1], n, n))
    return Cumprod.apply(rows, dim=rows.ndim - 1).triu()


def cumprod(input, dim: int, *, dtype=None):  # noqa: A002  (PyTorch's names)
    """Running product along ``dim`` (``torch.cumprod``); integer and bool tensors give int64,
    ``dtype`` casts the input first. The gradient is exact where the input holds zeros.

    Example:
        >>> import minigrad as mg
        >>> mg.tensor([1.0, 2.0, 3.0, 4.0]).cumprod(0)
        tensor([ 1.,  2.,  6., 24.])
    """
    d = norm_dim(dim, input.ndim)
    if dtype is not None:
        input = input.to(_dtype.as_dtype(dtype))
    elif input._data.dtype.kind in "bui":
        input = input.to(_dtype.int64)
    return Cumprod.apply(input, dim=d)


# --- cummax and cummin: the running extreme and where it was found ---------------------------
#: ``torch.return_types.cummax`` / ``cummin``: (values, indices).
CummaxResult = return_type("cummax", ("values", "indices"))
CumminResult = return_type("cummin", ("values", "indices"))


def _running_extreme(a: np.ndarray, dim: int, larger: bool) -> tuple:
    """(values, indices) of PyTorch's running max (``larger``) or min along ``dim``.

    PyTorch's kernel walks the slice and takes x_j as the new extreme when x_j is NaN or
    x_j >= the extreme so far (<= for min) while that is not NaN: a tie moves the index to
    the later element, and once a NaN is met the values stay NaN and the index follows each
    later NaN. Vectorised: x_j takes over exactly where it equals the running extreme at j
    (or is NaN), and the index at i is the last such j <= i."""
    if a.ndim == 0:
        return a.copy(), np.zeros((), np.int64)
    values = (np.maximum if larger else np.minimum).accumulate(a, axis=dim)
    takes_over = a == values
    if a.dtype.kind == "f":
        takes_over |= np.isnan(a)
    shape = [1] * a.ndim
    shape[dim] = a.shape[dim]
    positions = np.arange(a.shape[dim], dtype=np.int64).reshape(shape)
    indices = np.maximum.accumulate(np.where(takes_over, positions, 0), axis=dim)
    return values, indices.astype(np.int64, copy=False)


class Cummax(Op):
    """The running max along ``dim``: out_i = max_{j <= i} a_j. Each out_i is a copy of the
    element it came from, so grad_a_j = sum of g_i over the i whose index is j (PyTorch's
    ``cummaxmin_backward``: a scatter-add of g at the indices)."""

    larger = True
    save_inputs = True
    saved_names = ("self",)
    saved_values = {"dim": lambda ctx: ctx.dim}

    @classmethod
    def forward(cls, ctx, a, dim):
        ctx.dim = dim
        return _running_extreme(a, dim, cls.larger)[0]

    @classmethod
    def backward(cls, ctx, g):
        if g.ndim == 0:
            return g
        (a,) = ctx.saved_tensors
        # the indices again, by an op (so jit can trace the backward: they come from values)
        idx = RunningArgExtreme.apply(a, dim=ctx.dim, larger=cls.larger)._data
        return ScatterAddAlong.apply(g, shape=a.shape, dim=ctx.dim, idx=idx)

    @classmethod
    def jvp(cls, params, inputs, tangents, out):
        """Forward rule: each output's tangent is the tangent of the element it copies."""
        t = tangents[0]
        if t.ndim == 0:
            return t
        idx = RunningArgExtreme.apply(inputs[0], dim=params["dim"], larger=cls.larger)._data
        return GatherAlong.apply(t, dim=params["dim"], idx=idx)


class Cummin(Cummax):
    """The running min along ``dim`` (see :class:`Cummax`)."""

    larger = False


class RunningArgExtreme(Op):
    """The indices of :func:`cummax`/:func:`cummin`: int64, no gradient (an op, so ``jit``
    traces it)."""

    differentiable = False

    @staticmethod
    def forward(ctx, a, dim, larger):
        return _running_extreme(a, dim, larger)[1]


class ScatterAddAlong(Op):
    """Zeros of ``shape`` with ``g`` added at ``idx`` along ``dim`` (repeated indices add up);
    backward gathers the gradient back from the same places."""

    @staticmethod
    def forward(ctx, g, shape, dim, idx):
        ctx.dim, ctx.idx = dim, idx
        out = np.zeros(shape, dtype=g.dtype)
        where_ = list(np.indices(idx.shape, sparse=True))
        where_[dim] = idx
        np.add.at(out, tuple(where_), g)
        return out

    @staticmethod
    def backward(ctx, gg):
        return GatherAlong.apply(gg, dim=ctx.dim, idx=ctx.idx)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule (linear op): the same scatter-add of the tangent."""
        return ScatterAddAlong.apply(tangents[0], **params)


def _cum_extreme(input, dim, op, result, name):  # noqa: A002
    check_tensor(input, name)
    if has_sparse_layout(input):
        raise NotImplementedError(input._no_kernel(name))
    if not isinstance(dim, (int, np.integer)) or isinstance(dim, bool):
        raise TypeError(_errors.CUM_EXTREME_DIM.format(op=name, got=type(dim).__name__))
    if input.ndim == 0 and dim not in (-1, 0):
        raise IndexError(_errors.CUM_EXTREME_SCALAR_DIM.format(op=name, got=dim))
    d = norm_dim(dim, input.ndim)
    values = op.apply(input, dim=d)
    return result(values, RunningArgExtreme.apply(input, dim=d, larger=op.larger))


def cummax(input, dim: int):  # noqa: A002  (PyTorch's names)
    """The running maximum along ``dim`` and the index each value was found at
    (``torch.cummax``); a tie moves the index to the later element, and NaN propagates.

    Example:
        >>> import minigrad as mg
        >>> mg.cummax(mg.tensor([1.0, 3.0, 2.0, 3.0]), 0)
        minigrad.return_types.cummax(
        values=tensor([1., 3., 3., 3.]),
        indices=tensor([0, 1, 1, 3]))
    """
    return _cum_extreme(input, dim, Cummax, CummaxResult, "cummax")


def cummin(input, dim: int):  # noqa: A002
    """The running minimum along ``dim`` and the index each value was found at
    (``torch.cummin``), as :func:`cummax`."""
    return _cum_extreme(input, dim, Cummin, CumminResult, "cummin")
