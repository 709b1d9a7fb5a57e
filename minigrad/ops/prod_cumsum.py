"""Products and scans: prod, cumsum (the other reductions are in :mod:`.reduce`).

``prod``'s gradient is the product of the *other* elements, computed without dividing by
the input, so it is right when the input holds zeros (one zero: only that element gets a
gradient; two or more: none does), as PyTorch's is.
"""

from __future__ import annotations

import numpy as np

from .. import _dtype
from ..errors import tensor_ops as _errors
from ..recording.function import Op
from ._util import make, named, norm_dim
from .flip_split import flip
from .reduce import _DIM_KEEPDIM, Sum, _dims, _unreduce
from .select import where


# --- prod -------------------------------------------------------------------------------------
class Prod(Op):
    """Product over one dim (or all): grad_i = g * prod of the other elements (no division,
    so zeros in the input are handled: see :class:`ProdOthers`)."""

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
        a, _ = ctx.saved_tensors  # (the result is not needed: no division by it)
        return _unreduce(g, *ctx.info) * _others(a, ctx.info[1])

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = sum of t_a * (product of the other elements)."""
        others = _others(inputs[0], params["dims"])
        return Sum.apply(tangents[0] * others, dims=params["dims"], keepdim=params["keepdim"])


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
        return np.cumsum(a, axis=dim, dtype=kind)

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
