"""Ops that keep a sparse tensor's pattern and act on its values: transpose, negation,
scaling, the masked product with a dense tensor, and sums.

The linear ones (transpose, ``-S``, ``S * c``) send back the incoming gradient
transformed the same way and in the same layout: a sparse (masked) gradient stays
sparse, a dense (full) one stays dense, as in PyTorch.
"""

from __future__ import annotations

import numpy as np

from .. import _dtype
from ..ops._util import norm_dim
from ..tensor import Tensor
from .formats import COO
from .tensor import (
    SparseOp,
    ToLayout,
    _as_coo,
    _convert,
    _needs,
    coalesced_pattern,
    gather_at,
    make_sparse,
)


def as_layout(g: Tensor, layout: str) -> Tensor:
    """A sparse gradient converted to ``layout`` (dense gradients pass unchanged)."""
    if g.layout != "strided" and g._data.layout != layout:
        return ToLayout.apply(g, layout=layout)
    return g


# --- transpose ------------------------------------------------------------------------------
class SparseTranspose(SparseOp):
    """Swap dims 0 and 1 (or two sparse dims of a COO); grad = the gradient transposed back.

    COO swaps its index rows (the result is flagged uncoalesced, as PyTorch); the
    transpose of a CSR is the CSC of the same arrays (and vice versa): no data moves.
    """

    node_name = "TransposeBackward"

    @staticmethod
    def forward(ctx, s, dim0, dim1):
        ctx.info = (dim0, dim1, s.layout)
        return s.transpose(dim0, dim1) if s.layout == "sparse_coo" else s.transpose()

    @staticmethod
    def backward(ctx, g):
        dim0, dim1, layout = ctx.info
        return as_layout(transpose(g, dim0, dim1), layout)


class SparseT(SparseTranspose):
    """``S.t()``: :class:`SparseTranspose` of dims 0 and 1 (PyTorch's node: ``TBackward``)."""

    node_name = "TBackward"


def transpose(t: Tensor, dim0: int, dim1: int, node=SparseTranspose) -> Tensor:
    """Differentiable transpose of a sparse tensor (a dense one uses ``Tensor.transpose``)."""
    if t.layout == "strided":
        return t.transpose(dim0, dim1)
    d0, d1 = norm_dim(dim0, t.ndim), norm_dim(dim1, t.ndim)
    if d0 == d1:
        return t
    return node.apply(t, dim0=d0, dim1=d1)


# --- negation and scaling ---------------------------------------------------------------
class SparseNeg(SparseOp):
    """-S: values negated, pattern kept; grad = -g."""

    node_name = "NegBackward"

    @staticmethod
    def forward(ctx, s):
        return s.with_values(np.negative(s.values))

    @staticmethod
    def backward(ctx, g):
        return SparseNeg.apply(g) if g.layout != "strided" else -g


class SparseTo(SparseOp):
    """A sparse tensor's values cast to another dtype, pattern kept; grad = g cast back."""

    node_name = "ToCopyBackward"

    @staticmethod
    def forward(ctx, s, dtype):
        ctx.src = _dtype._FROM_NP[s.values.dtype]
        return s.with_values(s.values.astype(dtype.np))

    @staticmethod
    def backward(ctx, g):
        return g.to(ctx.src) if ctx.src.is_floating_point else None


class SparseScale(SparseOp):
    """S * c: values scaled, pattern kept (explicit zeros too); grad = g * c."""

    node_name = "MulBackward"

    @staticmethod
    def forward(ctx, s, value, dtype):
        ctx.value = value
        return s.with_values(s.values.astype(dtype, copy=False) * value)

    @staticmethod
    def backward(ctx, g):
        if g.layout != "strided":
            return SparseScale.apply(g, value=ctx.value, dtype=g._data.values.dtype)
        return g * ctx.value


class SparseDivScalar(SparseOp):
    """S / c: values divided, pattern kept; grad = g / c."""

    node_name = "DivBackward"

    @staticmethod
    def forward(ctx, s, value, dtype):
        ctx.value = value
        return s.with_values(s.values.astype(dtype, copy=False) / value)

    @staticmethod
    def backward(ctx, g):
        if g.layout != "strided":
            return SparseDivScalar.apply(g, value=ctx.value, dtype=g._data.values.dtype)
        return g / ctx.value


# --- sparse * dense -------------------------------------------------------------------------
def entries_of(d: np.ndarray, fmt) -> np.ndarray:
    """``d`` broadcast to fmt's shape, read at every stored coordinate: (nnz, *dense)."""
    coords = fmt.indices if fmt.layout == "sparse_coo" else fmt._rows_cols()
    return np.broadcast_to(d, fmt.shape)[tuple(coords)]


class SparseDenseMul(SparseOp):
    """S * D, masked: out = S's pattern with values S[e] * D[coordinate of e].

    grad_S: g * D at S's pattern (sparse) when g is sparse, the dense g * D when g is
    dense (a full gradient stays full, as in PyTorch). grad_D: g * S, sparse with S's
    pattern (PyTorch's too); reduced to a dense array of D's shape when D was broadcast.
    """

    node_name = "MulBackward"
    save_inputs = True

    @staticmethod
    def forward(ctx, s, d):
        return s.with_values(s.values * entries_of(d, s))

    @staticmethod
    def backward(ctx, g):
        s, d = ctx.saved_tensors
        pattern = coalesced_pattern(s._data)
        coo = _as_coo(pattern)
        g_at = gather_at(g, coo)  # (nnz, *dense)
        gs = gd = None
        if _needs(ctx, 0):
            if g.layout != "strided":
                gs = make_sparse(pattern.with_values(g_at * entries_of(d._data, pattern)))
            else:
                gs = g * d
        if _needs(ctx, 1):
            vals = g_at * coo.values
            if d.shape == s.shape:
                gd = make_sparse(COO._new(coo.indices, vals, s.shape, coo.is_coalesced))
            else:
                gd = Tensor._make(_reduce_to(vals, coo, d.shape), False, None)
        return gs, gd


def _reduce_to(vals: np.ndarray, coo: COO, dshape: tuple) -> np.ndarray:
    """Sum per-entry values into an array of ``dshape`` (broadcast to coo's shape)."""
    full, sd = coo.shape, coo.sparse_dim
    pad = (1,) * (len(full) - len(dshape)) + tuple(dshape)
    axes = tuple(1 + i for i in range(len(full) - sd) if pad[sd + i] == 1)
    if axes:
        vals = vals.sum(axis=axes, keepdims=True)
    zero = np.zeros(coo.nnz, dtype=np.int64)
    where = tuple(coo.indices[i] if pad[i] != 1 else zero for i in range(sd))
    out = np.zeros(pad, dtype=vals.dtype)
    np.add.at(out, where, vals)
    return out.reshape(dshape)


# --- sums ---------------------------------------------------------------------------------
def _split_dims(dims, sparse_dim):
    return [d for d in dims if d < sparse_dim], [d - sparse_dim for d in dims if d >= sparse_dim]


def reduce_coo(coo: COO, dims: tuple, dtype) -> np.ndarray | COO:
    """Sum a coalesced COO over ``dims``: a COO while sparse dims remain, else an array."""
    sp_dims, de_dims = _split_dims(dims, coo.sparse_dim)
    vals = coo.values.astype(dtype, copy=False)
    if de_dims:
        vals = vals.sum(axis=tuple(1 + d for d in de_dims))
    kept = [d for d in range(coo.sparse_dim) if d not in sp_dims]
    if not kept:
        return np.asarray(vals.sum(axis=0))
    shape = [coo.shape[d] for d in kept] + list(vals.shape[1:])
    return COO._new(coo.indices[kept], vals, shape, not sp_dims).coalesce()


def _grad_at_entries(g: Tensor, coo: COO, dims: tuple) -> np.ndarray:
    """The gradient of each stored entry of ``coo`` for a sum over ``dims``."""
    sp_dims, de_dims = _split_dims(dims, coo.sparse_dim)
    kept = [d for d in range(coo.sparse_dim) if d not in sp_dims]
    if kept:
        rows = np.broadcast_to(np.zeros(1, coo.values.dtype), (coo.nnz,))
        key = COO._new(coo.indices[kept], rows, [coo.shape[d] for d in kept], False)
        vals = gather_at(g, key)
    else:
        gd = g._data.to_dense() if g.layout != "strided" else g._data
        vals = np.broadcast_to(gd, (coo.nnz,) + gd.shape)
    for d in sorted(de_dims):
        vals = np.expand_dims(vals, 1 + d)
    return np.ascontiguousarray(np.broadcast_to(vals, coo.values.shape))


class SparseSum(SparseOp):
    """``torch.sparse.sum``: sum over dims, masked; grad = g at each stored entry's
    reduced coordinate, sparse with S's (coalesced) pattern, in S's layout."""

    node_name = "SparseSumBackward"
    grad_semantics = "masked"

    @staticmethod
    def forward(ctx, s, dims, dtype):
        coo = _as_coo(s).coalesce()
        ctx.info = (coo, s.layout, dims)
        return reduce_coo(coo, dims, dtype)

    @staticmethod
    def backward(ctx, g):
        coo, layout, dims = ctx.info
        vals = _grad_at_entries(g, coo, dims).astype(coo.values.dtype, copy=False)
        return make_sparse(_convert(coo.with_values(vals), layout))


class SparseSumFull(SparseSum):
    """``Tensor.sum`` of a sparse tensor: as :class:`SparseSum` forward, but the full
    (dense) gradient: g broadcast over the summed dims, as PyTorch's ``SumBackward``."""

    node_name = "SumBackward"
    grad_semantics = "full"

    @staticmethod
    def backward(ctx, g):
        coo, _, dims = ctx.info
        if g.layout != "strided":
            g = g.to_dense(masked_grad=False)
        kept_shape = [1 if d in dims else n for d, n in enumerate(coo.shape)]
        return g.reshape(*kept_shape).expand(*coo.shape).to(_dtype_of(coo))


def _dtype_of(coo):
    return _dtype._FROM_NP[coo.values.dtype]
