"""``sparse.sampled_addmm``, ``sparse.softmax`` and ``sparse.log_softmax``: the sparse pieces of
attention, with gradients restricted to the pattern (``torch.sparse``'s names).

Each checks its input here and runs one op of :mod:`.ops_attention`. Bad input raises
errors that are ValueErrors or TypeErrors naming the argument (minigrad's rule) and also
RuntimeErrors (what PyTorch raises).

What differs from PyTorch 2.13 on the CPU, on purpose: ``sampled_addmm`` accepts COO and
CSC inputs as well as CSR (PyTorch's CPU kernel takes CSR only) and keeps the input's
layout; ``softmax`` and ``log_softmax`` accept CSR and CSC as well as COO (PyTorch's take
COO only). Neither has a double backward here (PyTorch's softmax has none either).
"""

from __future__ import annotations

import numpy as np

from .. import _dtype
from ..errors import sparse_attention as errors
from ..ops._util import is_scalar, norm_dim
from ..tensor import Tensor
from .ops import SparseDtypeError, SparseOpError
from .ops_attention import SparseLogSoftmax, SparseSampledAddmm, SparseSoftmax
from .tensor import SparseTensor, coalesced_pattern, make_sparse

__all__ = ["sampled_addmm", "softmax", "log_softmax", "pattern_structure"]


# --- checks ------------------------------------------------------------------------------
def _need_tensor(op: str, x, arg: str) -> None:
    if not isinstance(x, Tensor):
        raise TypeError(errors.NOT_TENSOR.format(op=op, arg=arg, got=type(x).__name__))


def need_sparse_matrix(op: str, s, arg: str, hint: str = "") -> None:
    """``s`` is a sparse tensor with 2 sparse dims and no dense dims (any sparse layout)."""
    _need_tensor(op, s, arg)
    if s.layout == "strided":
        raise SparseOpError(errors.NEEDS_SPARSE.format(op=op, arg=arg, layout=s.layout, hint=hint))
    if s.sparse_dim() != 2 or s.dense_dim() != 0:
        raise SparseOpError(
            errors.NEEDS_MATRIX.format(
                op=op,
                arg=arg,
                layout=s.layout,
                shape=tuple(s.shape),
                sd=s.sparse_dim(),
                dd=s.dense_dim(),
            )
        )


def need_dense_matrix(op: str, d, arg: str) -> None:
    """``d`` is a dense (strided) 2-D tensor."""
    _need_tensor(op, d, arg)
    if d.layout != "strided":
        raise SparseOpError(errors.NEEDS_DENSE.format(op=op, arg=arg, layout=d.layout))
    if d.ndim != 2:
        raise SparseOpError(
            errors.NOT_MATRIX.format(op=op, arg=arg, ndim=d.ndim, shape=tuple(d.shape))
        )


def need_same_float_dtype(op: str, named: dict) -> None:
    """All tensors of ``named`` (name -> tensor) share one floating-point dtype."""
    (first, t0), *rest = named.items()
    for name, t in rest:
        if t.dtype is not t0.dtype:
            raise SparseDtypeError(
                errors.DTYPE.format(op=op, a=first, b=name, da=t0.dtype.name, db=t.dtype.name)
            )
    if not t0.dtype.is_floating_point:
        raise SparseDtypeError(errors.NOT_FLOAT.format(op=op, arg=first, dtype=t0.dtype.name))


def _need_number(op: str, x, arg: str) -> None:
    if not is_scalar(x):
        raise TypeError(errors.NOT_NUMBER.format(op=op, arg=arg, got=type(x).__name__))


# --- sampled_addmm -----------------------------------------------------------------------
def sampled_addmm(
    input: Tensor,  # noqa: A002  (PyTorch's name)
    mat1: Tensor,
    mat2: Tensor,
    *,
    beta: float = 1.0,
    alpha: float = 1.0,
) -> SparseTensor:
    """``beta * input + alpha * (mat1 @ mat2)`` at ``input``'s stored entries only (SDDMM).

    ``torch.sparse.sampled_addmm``: one dot product ``mat1[i] . mat2[:, j]`` per stored
    entry ``(i, j)``; the dense n x m product is never formed. The result has ``input``'s
    layout and pattern (duplicates of a COO input summed first). As in PyTorch, ``beta = 0``
    still multiplies ``input`` (a NaN stored there stays NaN).

    Gradients: ``mat1`` gets ``alpha * G @ mat2^T`` and ``mat2`` gets ``alpha * mat1^T @ G``,
    with ``G`` the gradient of the result (a sparse matrix on the pattern); ``input`` gets
    ``beta * G``, sparse on its pattern (the masked gradient).

    Args:
        input: a sparse (n, m) matrix: COO, CSR (as PyTorch's CPU kernel) or CSC.
        mat1: a dense (n, k) matrix.
        mat2: a dense (k, m) matrix; all three of one floating-point dtype.
        beta: the factor of ``input``.
        alpha: the factor of the product.

    Example:
        >>> import minigrad as mg
        >>> S = mg.sparse_csr_tensor([0, 2, 3], [0, 2, 1], [1.0, 1.0, 1.0], (2, 3))
        >>> a = mg.tensor([[1.0, 0.0], [0.0, 2.0]])
        >>> b = mg.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        >>> out = mg.sparse.sampled_addmm(S, a, b, beta=0.0)
        >>> out.layout, out.values()            # (a @ b) at (0, 0), (0, 2), (1, 1)
        ('sparse_csr', tensor([ 1.,  3., 10.]))
    """
    op = "sampled_addmm"
    need_sparse_matrix(op, input, "input")
    need_dense_matrix(op, mat1, "mat1")
    need_dense_matrix(op, mat2, "mat2")
    _need_number(op, beta, "beta")
    _need_number(op, alpha, "alpha")
    (n, k1), (k2, m) = mat1.shape, mat2.shape
    if k1 != k2:
        raise SparseOpError(
            errors.MM_SHAPE.format(op=op, sa=f"{n}x{k1}", sb=f"{k2}x{m}", ka=k1, kb=k2)
        )
    if tuple(input.shape) != (n, m):
        raise SparseOpError(errors.INPUT_SHAPE.format(op=op, shape=tuple(input.shape), out=(n, m)))
    need_same_float_dtype(op, {"mat1": mat1, "mat2": mat2, "input": input})
    return SparseSampledAddmm.apply(input, mat1, mat2, beta=beta, alpha=alpha)


def pattern_structure(pattern: Tensor, dtype) -> SparseTensor:
    """The stored positions of ``pattern`` (duplicates merged) with zero values of ``dtype``,
    in its layout and outside the graph: what says *where* attention looks, not how much."""
    zeros = np.zeros(pattern._data.nnz, dtype=_dtype.as_dtype(dtype).np)
    return make_sparse(coalesced_pattern(pattern._data.with_values(zeros)))


# --- softmax -----------------------------------------------------------------------------
def _softmax(op: str, node, input: Tensor, dim: int, dtype) -> SparseTensor:  # noqa: A002
    _need_tensor(op, input, "input")
    if input.layout == "strided":
        hint = f" (use minigrad.{op.split('.')[1]} for dense tensors)"
        raise SparseOpError(
            errors.NEEDS_SPARSE.format(op=op, arg="input", layout=input.layout, hint=hint)
        )
    if input.dense_dim() != 0:
        raise SparseOpError(
            errors.SOFTMAX_HYBRID.format(op=op, dd=input.dense_dim(), shape=tuple(input.shape))
        )
    d = norm_dim(dim, input.ndim)
    if dtype is not None:
        input = input.to(dtype)
    if not input.dtype.is_floating_point:
        raise SparseDtypeError(errors.NOT_FLOAT.format(op=op, arg="input", dtype=input.dtype.name))
    return node.apply(input, dim=d)


def softmax(input: Tensor, dim: int, *, dtype=None) -> SparseTensor:  # noqa: A002
    """Softmax over the stored entries along ``dim`` (``torch.sparse.softmax``).

    Unstored entries count as -inf: they stay unstored, and a row (for ``dim=1``) without
    stored entries stays empty. Each row's maximum is subtracted first, so scores of
    +-1000 give finite results. Duplicates of a COO input are summed first (as PyTorch
    coalesces); the result has the input's layout and that pattern. The gradient is
    sparse on the same pattern: ``y * (g - sum(g * y))`` per row.

    Args:
        input: a sparse tensor without dense dims: COO (any number of sparse dims), CSR or
            CSC (2-D); floating point.
        dim: the dim along which the stored entries sum to 1.
        dtype: cast the input to this dtype first.

    Example:
        >>> import minigrad as mg
        >>> S = mg.sparse_coo_tensor([[0, 0, 2], [0, 1, 2]], [1.0, 1.0, 5.0], (3, 3))
        >>> W = mg.sparse.softmax(S, dim=1)
        >>> W.to_dense()                      # row 1 has no stored entries: it stays empty
        tensor([[0.5000, 0.5000, 0.0000],
                [0.0000, 0.0000, 0.0000],
                [0.0000, 0.0000, 1.0000]])
    """
    return _softmax("sparse.softmax", SparseSoftmax, input, dim, dtype)


def log_softmax(input: Tensor, dim: int, *, dtype=None) -> SparseTensor:  # noqa: A002
    """Log-softmax over the stored entries along ``dim`` (``torch.sparse.log_softmax``):
    ``x - max - log(sum(exp(x - max)))`` per row, stable at +-1000; otherwise as
    :func:`softmax` (unstored entries stay unstored, gradient on the pattern:
    ``g - softmax(x) * sum(g)``).

    Example:
        >>> import minigrad as mg
        >>> S = mg.sparse_coo_tensor([[0, 1]], [1000.0, -1000.0], (2,))
        >>> mg.sparse.log_softmax(S, dim=0).values()
        tensor([    0., -2000.])
    """
    return _softmax("sparse.log_softmax", SparseLogSoftmax, input, dim, dtype)
