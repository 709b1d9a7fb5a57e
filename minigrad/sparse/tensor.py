"""Sparse tensors in autograd: ``SparseTensor``, and the helpers the sparse ops share.

A :class:`SparseTensor` is a :class:`~minigrad.Tensor` whose ``data`` is a
sparse format (:class:`COO`, :class:`CSR` or :class:`CSC`) instead of a numpy
array. It takes part in autograd like any tensor: it may require grad (its
gradient is sparse, with its own pattern: the *masked* semantics of
``torch.sparse``), it may be built from values that require grad (learnable
edge weights), and gradients flowing through the engine may be sparse
(row-sparse embedding gradients).

A sparse tensor has exactly the methods that have a sparse kernel: its own, and those
``minigrad._sparse_tensor_methods`` installs. Every other method of ``Tensor`` raises a
``NotImplementedError`` (PyTorch's class for a missing sparse kernel) that names the op
and the layout and says how to densify, instead of densifying silently; that set is
computed when the methods are installed, so a method added to ``Tensor`` later is refused
until it gets a sparse kernel. The differentiable ops between layouts are in
:mod:`minigrad.sparse.ops_layout`.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _dtype
from .._format import tensor_repr
from ..errors import sparse_grad as errors
from ..formats import COO, _kernels
from ..recording.function import Op
from ..tensor import Tensor

LAYOUTS = ("sparse_coo", "sparse_csr", "sparse_csc")


class SparseTensor(Tensor):
    """A tensor stored in a sparse layout (PyTorch: a ``torch.Tensor`` with a sparse layout).

    Build one with :func:`minigrad.sparse_coo_tensor`, :func:`minigrad.sparse_csr_tensor`,
    :func:`minigrad.sparse_csc_tensor` or ``dense.to_sparse()``.

    Its op methods (``@``, ``mm``, ``*``, ``/``, ``-``, ``t``, ``transpose``, ``sum``) hand
    over to :mod:`minigrad.sparse.ops`; they are installed by ``minigrad._tensor_methods``, as
    Tensor's are, so this module does not import the ops built on it.
    """

    # --- what it is -------------------------------------------------------------
    @property
    def is_sparse(self) -> bool:
        """True for COO tensors (as PyTorch); CSR/CSC answer False but have a sparse layout."""
        return self._data.layout == "sparse_coo"

    @property
    def layout(self) -> str:
        """``"sparse_coo"``, ``"sparse_csr"`` or ``"sparse_csc"``."""
        return self._data.layout

    @property
    def is_sparse_layout(self) -> bool:
        """True for every sparse layout."""
        return True

    def numel(self) -> int:
        return math.prod(self._data.shape)

    @property
    def nnz(self) -> int:
        """Number of stored entries (duplicates and explicit zeros included)."""
        return self._data.nnz

    def _nnz(self) -> int:
        """PyTorch's spelling of :attr:`nnz`."""
        return self._data.nnz

    def sparse_dim(self) -> int:
        """Number of sparse dims."""
        return self._data.sparse_dim if self._data.layout == "sparse_coo" else 2

    def dense_dim(self) -> int:
        """Number of trailing dense dims."""
        return self._data.dense_dim if self._data.layout == "sparse_coo" else 0

    def is_coalesced(self) -> bool:
        """Whether COO indices are sorted without duplicates."""
        self._need("is_coalesced", "sparse_coo")
        return self._data.is_coalesced

    # --- contents ---------------------------------------------------------------
    def indices(self) -> Tensor:
        """The (sparse_dim, nnz) int64 indices of a coalesced COO tensor."""
        self._need("indices", "sparse_coo")
        if not self._data.is_coalesced:
            raise RuntimeError(errors.UNCOALESCED.format(what="indices"))
        return Tensor._make(self._data.indices, False, None)

    def _indices(self) -> Tensor:
        """The raw indices, coalesced or not (PyTorch: ``_indices()``)."""
        self._need("_indices", "sparse_coo")
        return Tensor._make(self._data.indices, False, None)

    def crow_indices(self) -> Tensor:
        self._need("crow_indices", "sparse_csr")
        return Tensor._make(self._data.crow_indices, False, None)

    def col_indices(self) -> Tensor:
        self._need("col_indices", "sparse_csr")
        return Tensor._make(self._data.col_indices, False, None)

    def ccol_indices(self) -> Tensor:
        self._need("ccol_indices", "sparse_csc")
        return Tensor._make(self._data.ccol_indices, False, None)

    def row_indices(self) -> Tensor:
        self._need("row_indices", "sparse_csc")
        return Tensor._make(self._data.row_indices, False, None)

    def _need(self, method, *layouts):
        if self._data.layout not in layouts:
            raise RuntimeError(
                errors.LAYOUT_ONLY.format(
                    method=method, layouts=" or ".join(layouts), layout=self._data.layout
                )
            )

    # --- printing -----------------------------------------------------------------
    def __repr__(self) -> str:
        d = self._data
        if d.layout == "sparse_coo":
            parts = [f"indices={tensor_repr(Tensor._make(d.indices, False, None))}"]
        elif d.layout == "sparse_csr":
            parts = [
                f"crow_indices={tensor_repr(Tensor._make(d.crow_indices, False, None))}",
                f"col_indices={tensor_repr(Tensor._make(d.col_indices, False, None))}",
            ]
        else:
            parts = [
                f"ccol_indices={tensor_repr(Tensor._make(d.ccol_indices, False, None))}",
                f"row_indices={tensor_repr(Tensor._make(d.row_indices, False, None))}",
            ]
        parts.append(f"values={tensor_repr(Tensor._make(d.values, False, None))}")
        extra = f"size={tuple(d.shape)}, nnz={d.nnz}, layout=minigrad.{d.layout}"
        if self.dtype is not _dtype.defaults.float_dtype:
            extra += f", dtype={self.dtype!r}"
        if self.grad_fn is not None:
            extra += f", grad_fn=<{self.grad_fn.name()}>"
        elif self._requires_grad:
            extra += ", requires_grad=True"
        return "tensor(" + ",\n       ".join(parts + [extra]) + ")"

    def __init__(self, *args, **kwargs):
        raise TypeError(errors.SPARSE_CONSTRUCTOR)

    # --- what it cannot do ------------------------------------------------------------
    def _no_kernel(self, op: str) -> str:
        """The message of every method a sparse tensor has no kernel for (each raises it as a
        ``NotImplementedError``, installed by ``minigrad._sparse_tensor_methods``)."""
        d = self._data
        return errors.NO_SPARSE_KERNEL.format(
            op=op, layout=d.layout, shape=tuple(d.shape), nbytes=f"{d.dense_nbytes} bytes"
        )


class SparseOp(Op):
    """An op of the sparse package: its forward may return a sparse format (COO, CSR, CSC),
    which becomes a :class:`SparseTensor`; a numpy array becomes a dense Tensor."""

    @staticmethod
    def _wrap(data, requires_grad: bool, node):
        if isinstance(data, np.ndarray | np.generic):
            return Op._wrap(data, requires_grad, node)
        return SparseTensor._make(data, requires_grad, node)


SparseTensor.__hash__ = Tensor.__hash__


def make_sparse(fmt, requires_grad=False, grad_fn=None) -> SparseTensor:
    """Wrap a format container as a SparseTensor (internal)."""
    return SparseTensor._make(fmt, requires_grad, grad_fn)


def _as_coo(fmt) -> COO:
    return fmt if fmt.layout == "sparse_coo" else fmt.to_coo()


def coalesced_pattern(fmt):
    """One stored entry per coordinate, in fmt's layout (a COO is coalesced, CSR/CSC
    brought to canonical form): the pattern a masked gradient lives on."""
    return fmt.coalesce() if fmt.layout == "sparse_coo" else fmt.sum_duplicates()


def _needs(ctx, i: int) -> bool:
    """Whether input ``i`` of the node has an edge (requires grad).

    NB: PyTorch exposes this as ``ctx.needs_input_grad``.
    """
    edges = ctx.next_functions
    return i < len(edges) and edges[i][0] is not None


def gather_at(g: Tensor, coo: COO) -> np.ndarray:
    """The entries of gradient ``g`` (dense or sparse) at ``coo``'s coordinates: (nnz, *dense)."""
    return gather_data(g._data, coo)


def gather_data(data, coo: COO) -> np.ndarray:
    """:func:`gather_at` on a tensor's data: a numpy array or a sparse format (read at its
    coalesced values, so duplicates count summed)."""
    if isinstance(data, np.ndarray):
        return data[tuple(coo.indices)]
    gc = _as_coo(data).coalesce()
    sizes = coo.shape[: coo.sparse_dim]
    keys = _kernels.linear_keys(coo.indices, sizes)
    gkeys = _kernels.linear_keys(gc.indices, sizes)
    out = np.zeros((coo.nnz, *gc.values.shape[1:]), dtype=gc.values.dtype)
    if gc.nnz == 0 or coo.nnz == 0:
        return out
    pos = np.clip(np.searchsorted(gkeys, keys), 0, gc.nnz - 1)
    hit = gkeys[pos] == keys
    out[hit] = gc.values[pos[hit]]
    return out


def _convert(fmt, layout):
    if fmt.layout == layout:
        return fmt
    if layout == "sparse_coo":
        return fmt.to_coo()
    return fmt.to_csr() if layout == "sparse_csr" else fmt.to_csc()


def _from_coo(coo: COO, layout: str) -> SparseTensor:
    return make_sparse(_convert(coo, layout))
