"""Ops between layouts and on a pattern: to_dense, to_sparse, layout conversions, values,
coalesce, a COO built from values, the sum of two sparse gradients; and the two linear maps
every masked gradient is made of.

* :class:`Sample` reads a tensor (dense or sparse) at a pattern's stored coordinates: one
  value per stored entry (PyTorch: ``t.sparse_mask(pattern)._values()``).
* :class:`Place` puts values on a pattern: a sparse tensor (PyTorch:
  ``torch.sparse_coo_tensor(indices, values)``).

Each is the other's backward, so a gradient built from them, such as the masked gradient
:func:`mask_to` (Place of Sample), can itself be differentiated, and again: second
derivatives through sparse gradients (``create_graph=True``) keep every path.
"""

from __future__ import annotations

import numpy as np

from ..formats import COO
from .tensor import (
    SparseOp,
    _as_coo,
    _convert,
    _needs,
    coalesced_pattern,
    gather_data,
)


# --- the two linear maps of masked gradients ----------------------------------------------------
class Sample(SparseOp):
    """Values of ``g`` at ``fmt``'s stored coordinates, in storage order: (nnz, *dense);
    grad_g = Place(gg, fmt), a sparse gradient on fmt's pattern (duplicates summed)."""

    @staticmethod
    def forward(ctx, g, fmt):
        ctx.fmt = fmt
        return gather_data(g, _as_coo(fmt))

    @staticmethod
    def backward(ctx, gg):
        return Place.apply(gg, fmt=ctx.fmt)


class Place(SparseOp):
    """A sparse tensor with ``fmt``'s pattern (its index arrays, shared) and ``values``;
    grad_values = Sample(g, fmt): the gradient at each stored entry's coordinate."""

    @staticmethod
    def forward(ctx, values, fmt):
        ctx.fmt = fmt
        return fmt.with_values(np.ascontiguousarray(values))

    @staticmethod
    def backward(ctx, g):
        return Sample.apply(g, fmt=ctx.fmt)


def mask_to(g, fmt):
    """The masked gradient of a sparse tensor stored as ``fmt``: ``g`` (dense or sparse) read
    at fmt's coalesced pattern, a sparse tensor of fmt's layout (differentiable).

    A gradient already on that very pattern (same index arrays) is returned as it is.
    """
    pattern = coalesced_pattern(fmt)
    if g.layout == pattern.layout:
        mine, theirs = pattern._index_arrays(), g._data._index_arrays()
        if all(a is b for a, b in zip(mine, theirs)):
            return g
    return Place.apply(Sample.apply(g, fmt=pattern), fmt=pattern)


# --- layouts ---------------------------------------------------------------------------------------
class ToDense(SparseOp):
    """Sparse -> dense; grad masked to the stored pattern (default) or passed in full."""

    node_name = "ToDenseBackward0"

    @staticmethod
    def forward(ctx, s, masked):
        ctx.info = (s, masked)
        return s.to_dense()

    @staticmethod
    def backward(ctx, g):
        s, masked = ctx.info
        return mask_to(g, s) if masked else g


class ToSparse(SparseOp):
    """Dense -> sparse (zeros dropped); grad = the incoming gradient, made dense by the
    engine first (the gradient of a dense tensor: PyTorch's ``to_dense`` of it)."""

    @staticmethod
    def forward(ctx, a, layout, sparse_dim):
        coo = COO.from_dense(a, sparse_dim)
        return _convert(coo, layout)

    @staticmethod
    def backward(ctx, g):
        return g


class ToLayout(SparseOp):
    """Convert between COO, CSR and CSC; the gradient converts back."""

    @staticmethod
    def forward(ctx, s, layout):
        ctx.src = s.layout
        return _convert(s, layout)

    @staticmethod
    def backward(ctx, g):
        if g.layout == "strided" or g.layout == ctx.src:
            return g
        return ToLayout.apply(g, layout=ctx.src)


# --- values and patterns ------------------------------------------------------------------------
class Values(SparseOp):
    """The stored values of a sparse tensor; grad = Place(g): a sparse tensor with those values."""

    @staticmethod
    def forward(ctx, s):
        ctx.fmt = s
        return s.values

    @staticmethod
    def backward(ctx, g):
        return Place.apply(g, fmt=ctx.fmt)


class Coalesce(SparseOp):
    """Sum duplicates; the gradient is the incoming one at each stored coordinate."""

    @staticmethod
    def forward(ctx, s):
        ctx.fmt = s
        return s.coalesce()

    @staticmethod
    def backward(ctx, g):
        # A sparse gradient means its coalesced value at each coordinate, so the
        # gradient of the uncoalesced input is the same pattern-masked gradient;
        # whoever built the duplicates (SparseCooTensor) hands it to each of them.
        return mask_to(g, ctx.fmt)


class SparseCooTensor(SparseOp):
    """Build a COO tensor from values; each value (duplicates too) gets the grad at its index."""

    node_name = "SparseCooTensorWithDimsAndTensorsBackward0"

    @staticmethod
    def forward(ctx, values, indices, shape, coalesced, check):
        coo = COO(indices, values, shape, is_coalesced=coalesced, check=check)
        ctx.fmt = coo
        return coo

    @staticmethod
    def backward(ctx, g):
        return Sample.apply(g, fmt=ctx.fmt)


class SparseAdd(SparseOp):
    """Sum of two sparse gradients, as PyTorch adds them: indices and values concatenated (a
    COO, uncoalesced); grad_a, grad_b = g masked to a's and to b's pattern."""

    node_name = "AddBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.fmts = (a, b)
        x, y = _as_coo(a), _as_coo(b)
        if x.nnz == 0 or y.nnz == 0:
            return y if x.nnz == 0 else x
        indices = np.concatenate([x.indices, y.indices], axis=1)
        return COO._new(indices, np.concatenate([x.values, y.values], axis=0), x.shape, False)

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.fmts
        return (
            mask_to(g, a) if _needs(ctx, 0) else None,
            mask_to(g, b) if _needs(ctx, 1) else None,
        )
