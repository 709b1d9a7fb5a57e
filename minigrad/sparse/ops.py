"""Sparse-aware ops (``torch.sparse``): products, sums, products with scalars and dense tensors.

Two semantics for the gradient of a sparse operand, named as PyTorch names them
(shared/SPARSE_SEMANTICS.md):

* :func:`mm`, :func:`addmm`, :func:`sum` are **masked**: the gradient of S is sparse,
  with S's pattern (``torch.sparse.mm``, ``torch.sparse.addmm``, ``torch.sparse.sum``).
* ``minigrad.mm(S, D)``, ``minigrad.matmul(S, D)``, ``S @ D`` and ``S.sum()`` are
  **full**: S is differentiated as if it were dense (``torch.mm``, ``Tensor.sum``).

A graph shows which one an edge carries: the node names differ (``SparseMmBackward0``
against ``MmBackward0``) and every such node class has ``grad_semantics`` set to
``"masked"`` or ``"full"``.

Bad input raises errors that are both what minigrad's rules ask for (``ValueError`` /
``TypeError`` naming the argument) and what PyTorch raises (``RuntimeError``).
"""

from __future__ import annotations

import numpy as np

from .. import _dtype
from .. import errors as base_errors
from ..errors import sparse_grad as errors
from ..ops._util import is_scalar, norm_dim, norm_dims, to_tensor
from ..ops.linalg import mm as dense_mm
from ..tensor import Tensor
from .ops_products import SparseAddmm, SparseDenseMm, SparseMm
from .ops_values import (
    SparseDenseMul,
    SparseDivScalar,
    SparseNeg,
    SparsePermute,
    SparseScale,
    SparseSum,
    SparseSumFull,
    SparseT,
    transpose,
)

__all__ = [
    "mm",
    "addmm",
    "sum",
    "matmul",
    "full_mm",
    "mul",
    "div",
    "neg",
    "transpose",
    "t",
    "permute",
    "norm",
]


class SparseOpError(ValueError, RuntimeError):
    """Bad shapes, dims or layouts for a sparse op (a ValueError, and the RuntimeError
    PyTorch raises). NB: numpy's ``AxisError(ValueError, IndexError)`` does the same."""


class SparseDtypeError(TypeError, RuntimeError):
    """Mismatched or unsupported dtypes for a sparse op (a TypeError and a RuntimeError)."""


# --- checks ----------------------------------------------------------------------------------
def need_tensor(op: str, x, arg: str) -> None:
    """``x`` is a Tensor: the TypeError of the sparse ops (and sparse convolution) otherwise."""
    if not isinstance(x, Tensor):
        raise TypeError(errors.OP_NOT_TENSOR.format(op=op, arg=arg, got=type(x).__name__))


def _need_sparse(op: str, s, arg: str, hint: str = "") -> None:
    need_tensor(op, s, arg)
    if s.layout == "strided":
        raise SparseOpError(
            errors.OP_NEEDS_SPARSE.format(op=op, arg=arg, layout=s.layout, hint=hint)
        )


def _need_dense(op: str, d, arg: str) -> None:
    need_tensor(op, d, arg)
    if d.layout != "strided":
        raise SparseOpError(errors.OP_NEEDS_DENSE.format(op=op, arg=arg, layout=d.layout))


def _check_matrix(op: str, s: Tensor) -> None:
    """The sparse operand of a product: 2 sparse dims, no dense dims, a kernel dtype."""
    if s.sparse_dim() != 2 or s.dense_dim() != 0:
        raise SparseOpError(
            errors.MM_SPARSE_NDIM.format(
                op=op, layout=s.layout, shape=tuple(s.shape), sd=s.sparse_dim(), dd=s.dense_dim()
            )
        )
    if s._data.values.dtype.kind not in "fiu":
        raise SparseDtypeError(errors.OP_KERNEL_DTYPE.format(op=op, dtype=s.dtype.name))


def _check_same_dtype(op: str, a: Tensor, b: Tensor, na: str, nb: str) -> None:
    if a.dtype is not b.dtype:
        raise SparseDtypeError(
            errors.OP_DTYPE.format(op=op, a=na, da=a.dtype.name, b=nb, db=b.dtype.name)
        )


def _check_product(op: str, mat1: Tensor, mat2: Tensor, accepted: str = "2-D") -> None:
    """Checks of ``mat1 @ mat2``, one sparse matrix and one dense 2-D matrix."""
    s, d = (mat1, mat2) if mat1.layout != "strided" else (mat2, mat1)
    _check_matrix(op, s)
    if d.ndim != 2:
        raise SparseOpError(
            errors.MM_DENSE_NDIM.format(op=op, accepted=accepted, shape=tuple(d.shape), ndim=d.ndim)
        )
    if mat1.shape[1] != mat2.shape[0]:
        raise SparseOpError(
            errors.MM_SHAPE.format(
                op=op,
                sa="x".join(map(str, mat1.shape)),
                sb="x".join(map(str, mat2.shape)),
                ka=mat1.shape[1],
                kb=mat2.shape[0],
            )
        )
    _check_same_dtype(op, mat1, mat2, "mat1", "mat2")


def _pair(op: str, mat1, mat2) -> None:
    need_tensor(op, mat1, "mat1")
    need_tensor(op, mat2, "mat2")
    if mat1.layout != "strided" and mat2.layout != "strided":
        _need_dense(op, mat2, "mat2")


# --- products ----------------------------------------------------------------------------------
def mm(mat1: Tensor, mat2: Tensor) -> Tensor:
    """Sparse @ dense with the **masked** gradient (``torch.sparse.mm``).

    The gradient of the sparse operand is sparse with its pattern (one entry per
    stored coordinate; duplicates share it; explicit zeros get theirs), computed as
    an SDDMM, ``dS[i, j] = sum_k dC[i, k] * D[j, k]`` for stored (i, j) only: no
    dense n x m matrix is ever built. The dense operand gets ``S^T @ dC``. Compare
    :func:`minigrad.mm` / ``S @ D``, whose gradient for S is the dense ``dC @ D^T``.

    Args:
        mat1: a 2-D sparse tensor (COO, CSR or CSC) of shape (n, m), no dense dims.
        mat2: a dense (m, k) tensor of mat1's dtype. The roles may be swapped (dense
            @ sparse, computed as ``(mat2^T @ mat1^T)^T``); both dense is the ordinary
            :func:`minigrad.mm`, as ``torch.sparse.mm`` allows.

    Returns:
        A dense (n, k) tensor.

    Example:
        >>> import minigrad as mg
        >>> A = mg.sparse_coo_tensor([[0, 0, 1], [0, 2, 1]], [1.0, 2.0, 3.0], (2, 3),
        ...                          requires_grad=True)
        >>> B = mg.tensor([[0.0, 1.0], [2.0, 0.0], [0.0, 0.0]], requires_grad=True)
        >>> mg.sparse.mm(A, B).sum().backward()
        >>> A.grad.values()      # masked: only at A's stored entries
        tensor([1., 0., 2.])
        >>> B.grad
        tensor([[1., 1.],
                [3., 3.],
                [2., 2.]])
    """
    op = "sparse.mm"
    _pair(op, mat1, mat2)
    if mat1.layout == "strided" and mat2.layout == "strided":
        return dense_mm(mat1, mat2)
    _check_product(op, mat1, mat2)
    if mat2.layout != "strided":  # dense @ sparse = (sparse^T @ dense^T)^T
        return transpose(SparseMm.apply(transpose(mat2, 0, 1), mat1.t()), 0, 1)
    return SparseMm.apply(mat1, mat2)


def addmm(input: Tensor, mat1: Tensor, mat2: Tensor, *, beta=1, alpha=1) -> Tensor:  # noqa: A002
    """``beta * input + alpha * (mat1 @ mat2)`` with the masked gradient for the sparse
    ``mat1`` (``torch.sparse.addmm``). ``input`` is dense and broadcasts to the result."""
    op = "sparse.addmm"
    _need_sparse(op, mat1, "mat1")
    _need_dense(op, mat2, "mat2")
    _need_dense(op, input, "input")
    _check_product(op, mat1, mat2)
    out = (mat1.shape[0], mat2.shape[1])
    try:
        ok = np.broadcast_shapes(input.shape, out) == out
    except ValueError:
        ok = False
    if not ok:
        raise SparseOpError(errors.ADDMM_INPUT.format(op=op, shape=tuple(input.shape), out=out))
    _check_same_dtype(op, input, mat1, "input", "mat1")
    return SparseAddmm.apply(input, mat1, mat2, beta=beta, alpha=alpha)


def full_mm(a: Tensor, b: Tensor) -> Tensor:
    """``minigrad.mm`` with a sparse operand: 2-D @ 2-D only, the **full** gradient
    (see :func:`matmul`)."""
    _pair("mm", a, b)
    _check_product("mm", a, b)
    return matmul(a, b)


def matmul(a, b) -> Tensor:
    """Sparse @ dense (or dense @ sparse) with the **full** gradient (``torch.matmul``, ``@``).

    S's gradient is the dense ``dC @ D^T``, what a dense S would get; this is
    ``torch.mm`` / ``@`` semantics. For the sparse (masked) gradient use
    :func:`minigrad.sparse.mm`. A 1-D dense operand is a vector, as in ``torch.matmul``.

    Example:
        >>> import minigrad as mg
        >>> A = mg.sparse_coo_tensor([[0, 0, 1], [0, 2, 1]], [1.0, 2.0, 3.0], (2, 3),
        ...                          requires_grad=True)
        >>> B = mg.tensor([[0.0, 1.0], [2.0, 0.0], [0.0, 0.0]])
        >>> (A @ B).sum().backward()
        >>> A.grad          # full: dense, zeros of A included
        tensor([[1., 2., 0.],
                [1., 2., 0.]])
    """
    op = "matmul"
    a = a if isinstance(a, Tensor) else to_tensor(a, b, op)
    b = b if isinstance(b, Tensor) else to_tensor(b, a, op)
    _pair(op, a, b)
    vector = (b if a.layout != "strided" else a).ndim == 1
    a2 = a.unsqueeze(0) if vector and a.layout == "strided" else a
    b2 = b.unsqueeze(1) if vector and a.layout != "strided" else b
    _check_product(op, a2, b2, accepted="1-D or 2-D")
    if a.layout != "strided":
        out = SparseDenseMm.apply(a2, b2)
        return out.squeeze(1) if vector else out
    out = SparseDenseMm.apply(transpose(b2, 0, 1), a2.t()).t()  # D @ S = (S^T @ D^T)^T
    return out.squeeze(0) if vector else out


# --- sums ------------------------------------------------------------------------------------
def _sum_dims(s: Tensor, dim) -> tuple:
    dims = norm_dims(dim, s.ndim)
    return tuple(range(s.ndim)) if dims is None else dims


def sum(input: Tensor, dim=None, dtype=None) -> Tensor:  # noqa: A001, A002
    """Sum of a sparse tensor, masked gradient (``torch.sparse.sum``).

    With ``dim=None`` (every dim) the result is a dense 0-d tensor. Summing some dims
    gives a sparse (coalesced COO) result while sparse dims remain, else a dense one.
    The gradient of ``input`` is sparse with its pattern.

    Example:
        >>> import minigrad as mg
        >>> S = mg.sparse_coo_tensor([[0, 0, 1], [0, 2, 1]], [1.0, 2.0, 3.0], (2, 3))
        >>> mg.sparse.sum(S)
        tensor(6.)
        >>> mg.sparse.sum(S, 1).to_dense()
        tensor([3., 3.])
    """
    _need_sparse("sparse.sum", input, "input", " (use minigrad.sum for dense tensors)")
    return _sum(SparseSum, input, dim, dtype)


def sum_full(input: Tensor, dim=None, keepdim: bool = False, dtype=None) -> Tensor:  # noqa: A002
    """``S.sum()``: the forward of :func:`sum`, the full (dense) gradient of ``Tensor.sum``."""
    if keepdim:
        raise SparseOpError(errors.SUM_KEEPDIM)
    return _sum(SparseSumFull, input, dim, dtype)


def _sum(node, s, dim, dtype):
    np_dtype = s._data.values.dtype if dtype is None else _dtype.as_dtype(dtype).np
    return node.apply(s, dims=_sum_dims(s, dim), dtype=np_dtype)


# --- elementwise -----------------------------------------------------------------------------
def mul(input: Tensor, other) -> Tensor:  # noqa: A002
    """``S * c`` (values scaled) or ``S * D`` (masked: S's pattern, values S * D there).

    ``D`` is dense and broadcasts to S's shape; the result is sparse with S's pattern.
    Gradients follow PyTorch: S gets ``g * D`` at its pattern when the incoming gradient
    is sparse (the masked ops make it so) and the dense ``g * D`` when it is dense (a
    full gradient stays full); D gets ``g * S``, sparse with S's pattern.
    """
    op = "mul"
    if is_scalar(other):
        dt = _dtype.promote_with_scalar(input.dtype, other).np
        return SparseScale.apply(input, value=other, dtype=dt)
    if not isinstance(other, Tensor):
        raise TypeError(errors.MUL_OPERAND.format(op=op, got=type(other).__name__))
    _need_dense(op, other, "other")
    try:
        ok = np.broadcast_shapes(other.shape, input.shape) == input.shape
    except ValueError:
        ok = False
    if not ok:
        raise SparseOpError(
            errors.MUL_SHAPE.format(op=op, dshape=tuple(other.shape), sshape=tuple(input.shape))
        )
    _check_same_dtype(op, input, other, "input", "other")
    return SparseDenseMul.apply(input, other)


def div(input: Tensor, other) -> Tensor:  # noqa: A002
    """``S / c`` for a number ``c``: values divided, pattern kept (``torch.div``)."""
    if not is_scalar(other):
        raise TypeError(errors.MUL_OPERAND.format(op="div", got=type(other).__name__))
    dt = _dtype.promote_with_scalar(input.dtype, 1.0).np
    return SparseDivScalar.apply(input, value=other, dtype=dt)


def neg(input: Tensor) -> Tensor:  # noqa: A002
    """``-S``: values negated, pattern kept."""
    return SparseNeg.apply(input)


def t(input: Tensor) -> Tensor:  # noqa: A002
    """Transpose of a sparse matrix (``Tensor.t``); a 1-D COO is returned as it is."""
    if input.sparse_dim() > 2 or input.dense_dim() != 0:
        raise SparseOpError(
            errors.T_DIMS.format(
                sd=input.sparse_dim(), dd=input.dense_dim(), shape=tuple(input.shape)
            )
        )
    return input if input.ndim < 2 else transpose(input, 0, 1, node=SparseT)


def permute(input: Tensor, dims: tuple) -> Tensor:  # noqa: A002
    """``S.permute(*dims)``: sparse dims stay in front and dense dims behind, each group in
    any order (PyTorch's rule); CSR and CSC have the 2-D transpose, which swaps the layouts."""
    n = input.ndim
    norm = tuple(norm_dim(d, n) for d in dims)
    if sorted(norm) != list(range(n)):
        raise SparseOpError(base_errors.PERMUTE.format(dims=list(dims), n=n - 1))
    if norm == tuple(range(n)):
        return input
    sd = input.sparse_dim()
    if any(d >= sd for d in norm[:sd]):
        raise SparseOpError(errors.PERMUTE_MIXED.format(layout=input.layout, dims=list(dims)))
    if input.layout != "sparse_coo":  # a 2-D CSR or CSC: dims (1, 0)
        return transpose(input, 0, 1)
    return SparsePermute.apply(input, dims=norm)


def norm(input: Tensor, p="fro", dim=None, keepdim: bool = False) -> Tensor:  # noqa: A002
    """``S.norm(p)``: the norm of every entry, duplicates summed first (``Tensor.norm`` of a
    sparse tensor; PyTorch's too reduces over all dims only). The gradient is sparse, on the
    stored (coalesced) pattern: it flows through ``values()``."""
    n = input.ndim
    if dim is not None and sorted(norm_dims(dim, n) or range(n)) != list(range(n)):
        raise SparseOpError(errors.SPARSE_NORM_DIM.format(ndim=n, dim=dim))
    coo = input if input.layout == "sparse_coo" else input.to_sparse("sparse_coo")
    result = coo.coalesce().values().norm(p)
    return result.reshape(*(1,) * n) if keepdim else result
