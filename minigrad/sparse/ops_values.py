"""Ops that keep a sparse tensor's pattern and act on its values: transpose, negation,
scaling, the masked product with a dense tensor, and sums.

The linear ones (transpose, ``-S``, ``S * c``) send back the incoming gradient
transformed the same way and in the same layout: a sparse (masked) gradient stays
sparse, a dense (full) one stays dense, as in PyTorch.
"""

from __future__ import annotations

import numpy as np

from .. import _dtype
from ..formats import COO
from ..ops._util import norm_dim
from ..tensor import Tensor
from .ops_layout import Place, Sample, ToLayout, mask_to
from .tensor import SparseOp, _as_coo, _needs, coalesced_pattern


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

    node_name = "TransposeBackward0"

    @staticmethod
    def forward(ctx, s, dim0, dim1):
        ctx.info = (dim0, dim1, s.layout)
        return s.transpose(dim0, dim1) if s.layout == "sparse_coo" else s.transpose()

    @staticmethod
    def backward(ctx, g):
        dim0, dim1, layout = ctx.info
        return as_layout(transpose(g, dim0, dim1), layout)


class SparseT(SparseTranspose):
    """``S.t()``: :class:`SparseTranspose` of dims 0 and 1 (PyTorch's node: ``TBackward0``)."""

    node_name = "TBackward0"


def transpose(t: Tensor, dim0: int, dim1: int, node=SparseTranspose) -> Tensor:
    """Differentiable transpose of a sparse tensor (a dense one uses ``Tensor.transpose``)."""
    if t.layout == "strided":
        return t.transpose(dim0, dim1)
    d0, d1 = norm_dim(dim0, t.ndim), norm_dim(dim1, t.ndim)
    if d0 == d1:
        return t
    return node.apply(t, dim0=d0, dim1=d1)


class SparsePermute(SparseOp):
    """Reorder dims, sparse dims among sparse ones and dense among dense (PyTorch's rule);
    grad = g permuted back. A COO reorders its index rows and its values' dense axes."""

    node_name = "PermuteBackward0"

    @staticmethod
    def forward(ctx, s, dims):
        ctx.dims = dims
        sd = s.sparse_dim
        dense = tuple(1 + d - sd for d in dims[sd:])
        coalesced = s.nnz <= 1 or (dims[:sd] == tuple(range(sd)) and s.is_coalesced)
        shape = tuple(s.shape[d] for d in dims)
        return COO._new(s.indices[list(dims[:sd])], s.values.transpose(0, *dense), shape, coalesced)

    @staticmethod
    def backward(ctx, g):
        back = tuple(sorted(range(len(ctx.dims)), key=ctx.dims.__getitem__))
        return g.permute(*back)


class SparseDenseView(SparseOp):
    """A COO with its dense dims reshaped, sparse dims kept (the backward of a view that
    keeps them); grad = g reshaped back."""

    node_name = "ViewBackward0"

    @staticmethod
    def forward(ctx, s, shape):
        ctx.in_shape = s.shape
        values = s.values.reshape((s.nnz, *shape[s.sparse_dim :]))
        return COO._new(s.indices, values, shape, s.is_coalesced)

    @staticmethod
    def backward(ctx, g):
        return view_dense_dims(g, ctx.in_shape)


def view_dense_dims(t: Tensor, shape: tuple) -> Tensor:
    """``t`` (sparse or dense) reshaped to ``shape``; a sparse one must keep its sparse dims,
    or gain size-1 dims (the backward of a squeeze, as PyTorch's: :class:`SparseUnsqueeze`)."""
    shape = tuple(shape)
    if t.layout == "strided":
        return t.reshape(shape)
    if shape == tuple(t.shape):
        return t
    if unit_dims_inserted(t.shape, shape) is not None:
        return SparseUnsqueeze.apply(t, shape=shape)
    return SparseDenseView.apply(t, shape=shape)


def unit_dims_inserted(old: tuple, new: tuple) -> list[int] | None:
    """The positions in ``new`` of the size-1 dims that, inserted into ``old``, make ``new``
    (each of old's dims matched to the first place it fits); None if ``new`` is not so made."""
    inserted, k = [], 0
    for d, n in enumerate(new):
        if k < len(old) and old[k] == n:
            k += 1
        elif n == 1:
            inserted.append(d)
        else:
            return None
    return inserted if k == len(old) and inserted else None


class SparseUnsqueeze(SparseOp):
    """A COO with size-1 dims inserted (the backward of a squeeze; PyTorch's ``unsqueeze``
    of a sparse tensor): one inserted at ``d <= sparse_dim`` becomes a sparse dim (an index
    row of zeros), one further right a dense dim of the values. grad = g with them removed."""

    node_name = "UnsqueezeBackward"

    @staticmethod
    def forward(ctx, s, shape):
        sd = s.sparse_dim
        for d in unit_dims_inserted(s.shape, shape):  # PyTorch unsqueezes in this order
            sd += d <= sd
        ctx.info = (s.shape, s.sparse_dim)
        return _with_unit_dims(s, shape, sd)

    @staticmethod
    def backward(ctx, g):
        shape, sd = ctx.info
        if g.layout == "strided":
            return g.reshape(shape)
        return SparseSqueeze.apply(g, shape=shape, sparse_dim=sd)


class SparseSqueeze(SparseOp):
    """The inverse of :class:`SparseUnsqueeze` (its backward): the size-1 dims removed."""

    node_name = "SqueezeBackward"

    @staticmethod
    def forward(ctx, s, shape, sparse_dim):
        ctx.shape = s.shape
        return _with_unit_dims(s, shape, sparse_dim)

    @staticmethod
    def backward(ctx, g):
        return view_dense_dims(g, ctx.shape)


def _with_unit_dims(s, shape: tuple, sd: int) -> COO:
    """COO ``s`` reshaped to ``shape`` (size-1 dims added or removed) with ``sd`` sparse dims:
    the index rows of dims longer than 1 are kept in order, a size-1 dim's row is zeros."""
    rows = iter([s.indices[d] for d in range(s.sparse_dim) if s.shape[d] != 1])
    zeros = np.zeros(s.nnz, s.indices.dtype)
    indices = np.stack([zeros if n == 1 else next(rows) for n in shape[:sd]]).reshape(sd, s.nnz)
    values = s.values.reshape((s.nnz, *shape[sd:]))
    return COO._new(indices, values, tuple(shape), s.is_coalesced)


class SparseNarrowDense(SparseOp):
    """A COO cut to ``start:stop`` along a dense dim: the values cut, the pattern kept (the
    backward of ``cat``/``stack`` along a dense dim; PyTorch's ``select`` of a sparse
    gradient along a dense dim keeps it sparse so). grad = g padded back with zeros."""

    node_name = "SliceBackward0"

    @staticmethod
    def forward(ctx, s, dim, start, stop):
        ctx.info = (s.shape[dim], dim, start, stop)
        axis = (slice(None),) * (dim - s.sparse_dim + 1) + (slice(start, stop),)
        shape = s.shape[:dim] + (stop - start,) + s.shape[dim + 1 :]
        return COO._new(s.indices, s.values[axis], shape, s.is_coalesced)

    @staticmethod
    def backward(ctx, g):
        return pad_dense_dim(g, *ctx.info)


class SparsePadDense(SparseOp):
    """The inverse of :class:`SparseNarrowDense` (its backward): the values placed at
    ``start:stop`` of a dense dim of size ``n``, zeros around them."""

    node_name = "SliceBackwardBackward0"

    @staticmethod
    def forward(ctx, s, n, dim, start, stop):
        ctx.info = (dim, start, stop)
        axis = dim - s.sparse_dim + 1
        values = np.zeros(s.values.shape[:axis] + (n,) + s.values.shape[axis + 1 :], s.dtype)
        values[(slice(None),) * axis + (slice(start, stop),)] = s.values
        return COO._new(
            s.indices, values, s.shape[:dim] + (n,) + s.shape[dim + 1 :], s.is_coalesced
        )

    @staticmethod
    def backward(ctx, g):
        dim, start, stop = ctx.info
        if g.layout == "strided":
            return g.narrow(dim, start, stop - start)
        return SparseNarrowDense.apply(g, dim=dim, start=start, stop=stop)


def pad_dense_dim(g: Tensor, n: int, dim: int, start: int, stop: int) -> Tensor:
    """``g`` (sparse or dense) placed at ``start:stop`` of a dim of size ``n``, zeros around."""
    if g.layout != "strided":
        return SparsePadDense.apply(g, n=n, dim=dim, start=start, stop=stop)
    from ..ops.select import cat  # (the dense case: a concatenation with zeros)

    def zeros(k):
        return Tensor._make(
            np.zeros(g.shape[:dim] + (k,) + g.shape[dim + 1 :], g._data.dtype), False, None
        )

    return cat([zeros(start), g, zeros(n - stop)], dim=dim)


class SparseClone(SparseOp):
    """A copy of a sparse tensor (its own values array, same pattern); grad = g."""

    node_name = "CloneBackward0"

    @staticmethod
    def forward(ctx, s):
        return s.with_values(s.values.copy())

    @staticmethod
    def backward(ctx, g):
        return g


# --- negation and scaling ---------------------------------------------------------------
class SparseNeg(SparseOp):
    """-S: values negated, pattern kept; grad = -g."""

    node_name = "NegBackward0"

    @staticmethod
    def forward(ctx, s):
        return s.with_values(np.negative(s.values))

    @staticmethod
    def backward(ctx, g):
        return SparseNeg.apply(g) if g.layout != "strided" else -g


class SparseTo(SparseOp):
    """A sparse tensor's values cast to another dtype, pattern kept; grad = g cast back."""

    node_name = "ToCopyBackward0"

    @staticmethod
    def forward(ctx, s, dtype):
        ctx.src = _dtype._FROM_NP[s.values.dtype]
        return s.with_values(s.values.astype(dtype.np))

    @staticmethod
    def backward(ctx, g):
        return g.to(ctx.src) if ctx.src.is_floating_point else None


class SparseScale(SparseOp):
    """S * c: values scaled, pattern kept (explicit zeros too); grad = g * c."""

    node_name = "MulBackward0"

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

    node_name = "DivBackward0"

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

    node_name = "MulBackward0"
    save_inputs = True

    @staticmethod
    def forward(ctx, s, d):
        return s.with_values(s.values * entries_of(d, s))

    @staticmethod
    def backward(ctx, g):
        s, d = ctx.saved_tensors
        pattern = coalesced_pattern(s._data)
        gs = gd = None
        if _needs(ctx, 0):  # masked for a sparse g, full (dense) for a dense one
            gs = SparseDenseMul.apply(mask_to(g, pattern), d) if g.layout != "strided" else g * d
        if _needs(ctx, 1):  # g * S at S's pattern: sparse, or summed to D's broadcast shape
            coo = _as_coo(pattern)
            vals = Sample.apply(g, fmt=coo) * Sample.apply(s, fmt=coo)
            if d.shape == s.shape:
                gd = Place.apply(vals, fmt=coo)
            else:
                gd = ReduceTo.apply(vals, coo=coo, shape=d.shape)
        return gs, gd


class ReduceTo(SparseOp):
    """Values of a pattern's entries summed into a dense tensor of ``shape`` (the gradient
    of a broadcast D in S * D); grad = g broadcast to the pattern's shape, at each entry."""

    @staticmethod
    def forward(ctx, vals, coo, shape):
        ctx.coo = coo
        return _reduce_to(vals, coo, shape)

    @staticmethod
    def backward(ctx, g):
        return Sample.apply(g.expand(*ctx.coo.shape), fmt=ctx.coo)


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


class SparseSum(SparseOp):
    """``torch.sparse.sum``: sum over dims, masked; grad = g at each stored entry's
    reduced coordinate, sparse with S's (coalesced) pattern, in S's layout."""

    node_name = "SparseSumBackward0"
    grad_semantics = "masked"
    keeps_indices = True  # PyTorch's node saves S's indices: after backward frees it, a second
    # backward is refused (Tensor.sum's SumBackward0 below keeps only sizes, and runs again)

    @staticmethod
    def forward(ctx, s, dims, dtype):
        coo = _as_coo(s).coalesce()
        ctx.info = (coo, s.layout, dims)
        if getattr(ctx, "keeps_indices", False):
            ctx.indices = coo.indices  # (an array on ctx: recording/node.py's _keeps_arrays)
        return reduce_coo(coo, dims, dtype)

    @staticmethod
    def backward(ctx, g):
        coo, layout, dims = ctx.info
        sp_dims, de_dims = _split_dims(dims, coo.sparse_dim)
        kept = [d for d in range(coo.sparse_dim) if d not in sp_dims]
        if kept:  # the sum is sparse: g at each entry's coordinate in the kept sparse dims
            zeros = np.zeros(coo.nnz, coo.values.dtype)
            key = COO._new(coo.indices[kept], zeros, [coo.shape[d] for d in kept], False)
            vals = Sample.apply(g, fmt=key)
        else:  # the sum is dense: the same gradient for every entry
            vals = g.unsqueeze(0).expand(coo.nnz, *g.shape)
        for d in sorted(de_dims):
            vals = vals.unsqueeze(1 + d)
        vals = vals.expand(*coo.values.shape).to(_dtype_of(coo))
        return as_layout(Place.apply(vals, fmt=coo), layout)


class SparseSumFull(SparseSum):
    """``Tensor.sum`` of a sparse tensor: as :class:`SparseSum` forward, but the full
    (dense) gradient: g broadcast over the summed dims, as PyTorch's ``SumBackward0``."""

    node_name = "SumBackward0"
    grad_semantics = "full"
    keeps_indices = False

    @staticmethod
    def backward(ctx, g):
        coo, _, dims = ctx.info
        kept_shape = [1 if d in dims else n for d, n in enumerate(coo.shape)]
        return g.reshape(*kept_shape).expand(*coo.shape).to(_dtype_of(coo))


def _dtype_of(coo):
    return _dtype._FROM_NP[coo.values.dtype]
