"""Which backward formulas take a sparse gradient: the one declaration the engine reads.

A gradient flowing through backward may be sparse (``Embedding(sparse=True)``,
``sparse.mm``'s masked gradient, ...). Most backward formulas are written for dense
arrays; when one of those receives a sparse gradient, the engine densifies it first,
through the policy, as a :class:`~minigrad.accumulation.accumulate.DensificationEvent` with
rule ``no_sparse_formula`` (see :func:`minigrad.accumulation.accumulate.densify_for_formula`).

The nodes below handle a sparse gradient themselves and keep it sparse, as PyTorch does.
Each maps to a test ``(node, g) -> bool``: does its formula apply to this sparse ``g``?

* a copy, a dtype cast, ``x + c``, ``-x``: the gradient passes through (negated for ``-x``);
* ``a + b`` and ``a - b`` of one shape: it passes through (negated for ``b``);
* ``a * b`` (COO): ``g * b`` on g's pattern, sparse for an operand of the output's shape;
* ``prod`` over a dim of size 1 (COO): ``g * (d out / d a)``, on g's pattern;
* ``cat`` and ``stack`` along a dense dim (COO): each input's cut of the values;
* a piece of ``split``/``chunk`` that is the whole tensor: the gradient passes through;
* a permute, transpose or ``t()`` that moves sparse dims among sparse dims only (a
  2-D transpose of a COO matrix, CSR <-> CSC); a view that keeps the sparse dims and
  reshapes only the dense ones (PyTorch refuses the others; minigrad densifies them);
* the ops of ``minigrad.sparse`` whose output is sparse: their gradient is naturally
  sparse, on the output's pattern (the *masked* semantics of ``torch.sparse``).

A custom :class:`~minigrad.autograd.Function`'s backward is the user's own: it gets the
gradient as it arrived, sparse or not, as in PyTorch.
"""

from __future__ import annotations

import numpy as np

from ..ops.arith import Add, AddScalar, Mul, Neg, Sub
from ..ops.convert import Clone, Contiguous, To
from ..ops.flip_split import SplitSlice, SplitWithSizesSlice
from ..ops.prod_and_scans import Prod
from ..ops.select import Cat
from ..ops.shape import Permute, Reshape, View
from ..ops.unary import StepFunction
from ..recording.function import BackwardCFunction
from ..tensor import Tensor
from . import embedding, ops_attention, ops_conv, ops_layout, ops_products, ops_values
from .tensor import make_sparse


def _always(node, g) -> bool:
    return True


def _one_shape(node, g) -> bool:
    """``a + b`` / ``a - b``: no broadcast and no dtype promotion to undo."""
    return node.sa == node.sb == g.shape and node.da is node.db is g.dtype


def _whole_piece(node, g) -> bool:
    """A piece of ``split``/``chunk`` that is the whole tensor: g passes through as it is."""
    return tuple(node.info[0]) == tuple(g.shape)


def _coo(node, g) -> bool:
    """``a * b``: a COO gradient times the other operand, masked (ops/arith.py)."""
    return g.layout == "sparse_coo"


def _sparse_dims_stay(node, g) -> bool:
    """A permute whose inverse keeps g's sparse dims in front (and so its dense dims behind)."""
    sd = g.sparse_dim()
    back = sorted(range(len(node.dims)), key=node.dims.__getitem__)  # the inverse permutation
    return all(d < sd for d in back[:sd])


def _dense_dims_reshaped(node, g) -> bool:
    """A reshape back to a shape that starts with g's sparse dims (COO; CSR/CSC: same shape),
    or to g's shape with size-1 dims inserted (a squeeze's backward, PyTorch's unsqueeze)."""
    sd = g.sparse_dim()
    if g.layout != "sparse_coo":
        return tuple(node.in_shape) == tuple(g.shape)
    return tuple(node.in_shape[:sd]) == tuple(g.shape[:sd]) or (
        ops_values.unit_dims_inserted(tuple(g.shape), tuple(node.in_shape)) is not None
    )


def _unit_dim_reduced(node, g) -> bool:
    """``prod`` over a dim of size 1: g * (d out / d a) of the input's shape, on g's pattern
    (PyTorch's too; over a longer dim it densifies, where PyTorch has no sparse kernel)."""
    in_shape, dims, _ = node.info
    return g.layout == "sparse_coo" and dims is not None and in_shape[dims[0]] == 1


def _dense_dim_cut(node, g) -> bool:
    """``cat``/``stack`` along a dense dim of a COO gradient: each input gets its cut of the
    values, on g's pattern (PyTorch's ``select`` keeps it so for ``stack``; along a sparse
    dim it densifies, as minigrad does here)."""
    return g.layout == "sparse_coo" and node.dim >= g.sparse_dim()


def _scatter_dims(node, g) -> bool:
    """ScatterAdd reads g at its listed coordinates: g's sparse dims must be those."""
    return g.sparse_dim() == node.info[1].shape[0]


def _sparse_output(node, g) -> bool:
    """``sparse.sum``: its output is sparse while sparse dims remain, and so its gradient."""
    return node._out_sparse is not None


SPARSE_FORMULAS = {
    Clone: _always,
    Contiguous: _always,
    To: _always,
    AddScalar: _always,
    Neg: _always,
    Add: _one_shape,
    Sub: _one_shape,
    Mul: _coo,
    Prod: _unit_dim_reduced,
    Cat: _dense_dim_cut,
    SplitSlice: _whole_piece,
    SplitWithSizesSlice: _whole_piece,
    Permute: _sparse_dims_stay,
    Reshape: _dense_dims_reshaped,
    View: _dense_dims_reshaped,
    embedding.ScatterAdd: _scatter_dims,
    ops_values.SparseSum: _sparse_output,
    **dict.fromkeys(
        (
            ops_layout.ToDense,
            ops_layout.Coalesce,
            ops_layout.ToLayout,
            ops_layout.SparseCooTensor,
            ops_layout.SparseAdd,
            ops_layout.Place,
            ops_values.SparseTranspose,
            ops_values.SparseT,
            ops_values.SparsePermute,
            ops_values.SparseDenseView,
            ops_values.SparseUnsqueeze,
            ops_values.SparseSqueeze,
            ops_values.SparseNarrowDense,
            ops_values.SparsePadDense,
            ops_values.SparseClone,
            ops_values.SparseNeg,
            ops_values.SparseTo,
            ops_values.SparseScale,
            ops_values.SparseDivScalar,
            ops_values.SparseDenseMul,
            ops_products.Sddmm,
            ops_attention.SparseSampledAddmm,
            ops_attention.SparseSoftmax,
            ops_attention.SparseLogSoftmax,
            ops_attention.NotTwiceDifferentiable,
            ops_conv.SubMConv,
            ops_conv.SubMConvTranspose,
        ),
        _always,
    ),
}


def elementwise_backward(node, grads) -> tuple | None:
    """A sparse COO gradient through an elementwise op of one tensor (``x.sin()``, ``x * 2.0``,
    ``x.clamp(0, 1)``): ``g * f'(x)`` on g's pattern, so it stays sparse, as PyTorch's formulas
    ``grad * f'(x)`` keep it (where PyTorch has no sparse kernel for its formula, tanh's for
    one, minigrad runs what it does not: docs/differences.md). The op's backward is linear in
    g, so f'(x) is its backward of a gradient of ones (differentiable: double backward works).
    None for any other node: the engine densifies for it (:func:`densify_for_formula`)."""
    g = grads[0] if len(grads) == 1 else None
    if (
        g is None
        or g.layout != "sparse_coo"
        or not getattr(type(node), "elementwise", False)
        or len(node.next_functions) - getattr(node, "number_edges", 0) != 1  # x * 2: 2 edges
        or type(node) in SPARSE_FORMULAS
    ):
        return None
    if isinstance(node, StepFunction):  # PyTorch's zeros_like(grad): g's pattern, no graph
        return (make_sparse(g._data.with_values(np.zeros_like(g._data.values))),)
    ones = Tensor._make(np.ones(g.shape, g._data.dtype), False, None)
    slope, *number = node.run_backward([ones])  # x * 2 also sends None to the number
    if slope is None:
        return (None, *number)
    return ((g * slope.to(g.dtype)).to(slope.dtype), *number)


def takes_sparse(node, g) -> bool:
    """Whether ``node``'s backward formula has a sparse form for the sparse gradient ``g``."""
    test = SPARSE_FORMULAS.get(type(node))
    if test is None:
        return isinstance(node, BackwardCFunction)
    return test(node, g)
