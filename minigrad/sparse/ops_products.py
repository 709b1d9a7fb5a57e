"""Sparse @ dense products: the masked ``SparseMm`` / ``SparseAddmm``, the full ``SparseDenseMm``.

Both compute ``C = S @ D`` with scipy.sparse's kernels (CSR, CSC and COO arrays
are handed to scipy without copying). They differ only in the gradient of S:

* **masked** (``torch.sparse.mm``, TF ``sparse_dense_matmul``): dS exists only at
  S's stored coordinates, ``dS[i, j] = sum_k dC[i, k] * D[j, k]``, one dot product
  per stored entry: an SDDMM (sampled dense-dense matrix product, PyTorch's
  ``torch.sparse.sampled_addmm``). It costs ``O(nnz * k)`` time and a few MB.
* **full** (``torch.mm`` / ``@`` with a sparse operand): dS = dC @ D^T, the dense
  n x m gradient, exactly what a dense S would get.

NB: PyTorch's COO backward for the masked case builds the dense dC @ D^T first and
then masks it; on a 20,000-node graph that is a 1.6 GB float32 temporary (see
shared/SPARSE_SEMANTICS.md). Here the dense product never exists.

dD = S^T @ dC in both cases: the transpose of a CSR is the CSC of the same
arrays, so no data moves. The gradient of an input that needs none is not
computed (a constant adjacency costs no SDDMM).
"""

from __future__ import annotations

import numpy as np

from ..ops.shape import sum_to
from ..tensor import Tensor
from .ops_layout import mask_to
from .ops_values import transpose
from .tensor import SparseOp, _needs, coalesced_pattern

_CHUNK_BYTES = 1 << 22  # SDDMM gathers rows in chunks of at most 4 MiB per operand


# --- kernels (numpy / scipy arrays in, arrays out) ----------------------------------------
def to_scipy_view(fmt):
    """The format as a scipy.sparse array sharing its arrays (no copy, no checks)."""
    import scipy.sparse as sp  # heavy (~160 ms): only sparse products need it, not import minigrad

    values = fmt.values
    if values.dtype == np.float16:  # scipy has no float16 kernels: compute in float32
        values = values.astype(np.float32)
    if fmt.layout == "sparse_csr":
        return sp.csr_array((values, fmt.col_indices, fmt.crow_indices), fmt.shape, copy=False)
    if fmt.layout == "sparse_csc":
        return sp.csc_array((values, fmt.row_indices, fmt.ccol_indices), fmt.shape, copy=False)
    rows, cols = fmt.indices
    return sp.coo_array((values, (rows, cols)), shape=fmt.shape, copy=False)


def spmm(fmt, dense: np.ndarray) -> np.ndarray:
    """``fmt @ dense`` for a 2-D format and a 2-D array (duplicates summed), in fmt's dtype."""
    if dense.dtype == np.float16:
        dense = dense.astype(np.float32)
    out = to_scipy_view(fmt) @ dense
    return np.asarray(out).astype(fmt.values.dtype, copy=False)


def sddmm(rows: np.ndarray, cols: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``out[e] = a[rows[e]] . b[cols[e]]``: one dot product per stored entry (SDDMM).

    Rows of ``a`` and ``b`` are gathered in chunks, so the extra memory is bounded by
    ``2 * _CHUNK_BYTES`` whatever nnz is; the n x m product is never formed.
    """
    nnz, k = len(rows), a.shape[1]
    out = np.zeros(nnz, dtype=a.dtype)
    if nnz == 0 or k == 0:
        return out
    step = max(1, _CHUNK_BYTES // (k * a.itemsize))
    for lo in range(0, nnz, step):
        hi = lo + step
        np.einsum("ij,ij->i", a[rows[lo:hi]], b[cols[lo:hi]], out=out[lo:hi])
    return out


def rows_cols(fmt) -> tuple[np.ndarray, np.ndarray]:
    """Row and column index of every stored entry, in storage order."""
    if fmt.layout == "sparse_coo":
        return fmt.indices[0], fmt.indices[1]
    return fmt._rows_cols()


# --- ops ----------------------------------------------------------------------------------
class Sddmm(SparseOp):
    """Masked product: out = (A @ B^T) sampled at ``pattern``; grad_A = W @ B, grad_B = W^T @ A.

    ``W`` is the incoming gradient taken at the pattern. The output is a sparse tensor
    with ``pattern``'s indices (PyTorch: ``torch.sparse.sampled_addmm``). It is the
    masked gradient of :class:`SparseMm` w.r.t. its sparse operand.
    """

    save_inputs = True

    @staticmethod
    def forward(ctx, a, b, pattern):
        ctx.pattern = pattern
        rows, cols = rows_cols(pattern)
        return pattern.with_values(sddmm(rows, cols, a, b))

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        w = mask_to(g, ctx.pattern)  # g on the pattern, differentiable (ops_layout)
        return sddmm_grads(w, a, b, _needs(ctx, 0), _needs(ctx, 1))


def sddmm_grads(w: Tensor, a: Tensor, b: Tensor, need_a: bool, need_b: bool) -> tuple:
    """Gradients of ``out = (a @ b^T)`` sampled at a pattern, given ``w``, the gradient on
    that pattern (a sparse matrix): ``grad_a = w @ b``, ``grad_b = w^T @ a`` (None when not
    needed). Shared by :class:`Sddmm` and ``sparse.sampled_addmm``."""
    ga = SparseMm.apply(w, b) if need_a else None
    gb = SparseMm.apply(transpose(w, 0, 1), a) if need_b else None
    return ga, gb


class SparseMm(SparseOp):
    """Sparse @ dense, masked: C = S @ D; grad_S = SDDMM(dC, D) on S's pattern, grad_D = S^T @ dC.

    ``torch.sparse.mm``. grad_S is sparse, in S's layout, with one entry per stored
    coordinate (duplicates share it); explicit zeros get their gradient too.
    """

    node_name = "SparseMmBackward0"
    grad_semantics = "masked"
    save_inputs = True

    @staticmethod
    def forward(ctx, s, d):
        return spmm(s, d)

    @staticmethod
    def backward(ctx, g):
        s, d = ctx.saved_tensors
        cls = type(ctx)  # SparseMm or SparseDenseMm: they differ only in grad_S
        gs = cls.grad_sparse(s, g, d) if _needs(ctx, 0) else None
        gd = cls.apply(transpose(s, 0, 1), g) if _needs(ctx, 1) else None
        return gs, gd

    @staticmethod
    def grad_sparse(s, g, d):
        """Masked: one dot product per stored entry of S."""
        return masked_grad(s, g, d)


class SparseDenseMm(SparseMm):
    """Sparse @ dense, full: C = S @ D; grad_S = dC @ D^T (dense n x m), grad_D = S^T @ dC.

    ``torch.mm`` / ``@`` with a sparse first operand: S is differentiated as if it
    were dense, so its gradient is a dense matrix (memory n x m).
    """

    node_name = "MmBackward0"
    grad_semantics = "full"

    @staticmethod
    def grad_sparse(s, g, d):
        """Full: the dense gradient, as if S were dense."""
        return g @ d.t()


class SparseAddmm(SparseOp):
    """out = beta * input + alpha * (S @ D), masked: grad_input = beta * dC (summed to
    input's shape), grad_S = alpha * SDDMM(dC, D) on S's pattern, grad_D = alpha * S^T @ dC.

    ``torch.sparse.addmm``. With ``beta == 0`` the input is ignored (NaNs in it do not
    propagate), as in PyTorch.
    """

    node_name = "SparseAddmmBackward0"
    grad_semantics = "masked"
    save_inputs = True

    @staticmethod
    def forward(ctx, inp, s, d, beta, alpha):
        ctx.scales = (beta, alpha)
        out = spmm(s, d)
        if alpha != 1:
            out *= alpha
        if beta != 0:
            out += inp if beta == 1 else beta * inp
        return out

    @staticmethod
    def backward(ctx, g):
        inp, s, d = ctx.saved_tensors
        beta, alpha = ctx.scales
        gi = sum_to(g * beta, inp.shape) if _needs(ctx, 0) else None
        ga = g if alpha == 1 else g * alpha
        gs = masked_grad(s, ga, d) if _needs(ctx, 1) else None
        gd = SparseMm.apply(transpose(s, 0, 1), ga) if _needs(ctx, 2) else None
        return gi, gs, gd


def masked_grad(s: Tensor, g: Tensor, d: Tensor) -> Tensor:
    """grad_S of S @ D at S's coalesced pattern, in S's layout: SDDMM of dC and D."""
    return Sddmm.apply(g, d, pattern=coalesced_pattern(s._data))
