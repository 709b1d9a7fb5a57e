"""Building sparse tensors: ``sparse_coo_tensor``, ``sparse_csr_tensor``, ``sparse_csc_tensor``.

As in PyTorch, values may be a tensor that requires grad (learnable edge
weights): the result is then part of the graph, and each stored value (each
duplicate too) receives the gradient at its coordinate. Otherwise the result
is a leaf, which may itself require grad; its gradient is then sparse, with
the same pattern (``torch.sparse`` semantics).
"""

from __future__ import annotations

import numpy as np

from .. import _device, _dtype
from ..errors import sparse_grad as errors
from ..factory import _as_array
from ..formats import COO, CSC, CSR
from ..tensor import Tensor
from .ops_layout import SparseCooTensor, ToLayout
from .tensor import make_sparse


def _array(x, name, dtype=None):
    if isinstance(x, Tensor):
        return x._data if dtype is None else x._data.astype(_dtype.as_dtype(dtype).np)
    return _as_array(x, dtype)


def _infer_size(indices: np.ndarray, values: np.ndarray) -> tuple:
    sizes = (
        tuple(int(m) + 1 for m in indices.max(axis=1))
        if indices.shape[1]
        else ((0,) * indices.shape[0])
    )
    return sizes + tuple(values.shape[1:])


def sparse_coo_tensor(
    indices,
    values,
    size=None,
    *,
    dtype=None,
    device=None,
    requires_grad=False,
    is_coalesced=None,
    check_invariants=True,
):
    """A COO tensor: ``values[k]`` at ``indices[:, k]`` (``torch.sparse_coo_tensor``).

    Args:
        indices: integer array-like of shape (sparse_dim, nnz).
        values: array-like or Tensor of shape (nnz, *dense_shape); a Tensor that
            requires grad makes the result differentiable w.r.t. it.
        size: the full shape; inferred from the largest indices when omitted.
        device: must be the CPU (``"cpu"``) or None, as for every factory.
        requires_grad: make the result a leaf that requires grad (values must not
            require grad then).

    Example:
        >>> import minigrad as mg
        >>> s = mg.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], [3.0, 4.0, 5.0], (2, 3))
        >>> s.to_dense()
        tensor([[0., 0., 3.],
                [4., 0., 5.]])
    """
    _device.check(device, "sparse_coo_tensor()")
    idx = np.asarray(indices._data if isinstance(indices, Tensor) else indices)
    if idx.size == 0 and idx.dtype.kind == "f":
        idx = idx.astype(np.int64)
    vals = _array(values, "values", dtype)
    shape = tuple(size) if size is not None else _infer_size(idx, vals)
    coalesced = bool(is_coalesced)
    if isinstance(values, Tensor) and values.requires_grad:
        if dtype is not None and _dtype.as_dtype(dtype) is not values.dtype:
            values = values.to(dtype)
        return SparseCooTensor.apply(
            values, indices=idx, shape=shape, coalesced=coalesced, check=check_invariants
        )
    fmt = COO(idx, vals, shape, is_coalesced=coalesced, check=check_invariants)
    return _leaf(fmt, requires_grad)


def _leaf(fmt, requires_grad):
    t = make_sparse(fmt)
    if requires_grad:
        if fmt.values.dtype.kind != "f":
            raise RuntimeError(errors.SPARSE_VALUES_GRAD.format(dtype=fmt.values.dtype))
        t._requires_grad = True
    return t


def _compressed(layout, ptr, idx, values, size, dtype, requires_grad, check):
    ptr_a, idx_a = (np.asarray(x._data if isinstance(x, Tensor) else x) for x in (ptr, idx))
    vals = _array(values, "values", dtype)
    if size is None:
        n_major = len(ptr_a) - 1
        n_minor = int(idx_a.max()) + 1 if idx_a.size else 0
        size = (n_major, n_minor) if layout == "sparse_csr" else (n_minor, n_major)
    cls = CSR if layout == "sparse_csr" else CSC
    fmt = cls(ptr_a, idx_a, vals, tuple(size), check=check)
    if isinstance(values, Tensor) and values.requires_grad:
        coo = fmt.to_coo()  # to_coo() keeps the storage order, so values line up
        s = SparseCooTensor.apply(
            values, indices=coo.indices, shape=fmt.shape, coalesced=False, check=False
        )
        return ToLayout.apply(s, layout=layout)
    return _leaf(fmt, requires_grad)


def sparse_csr_tensor(
    crow_indices,
    col_indices,
    values,
    size=None,
    *,
    dtype=None,
    device=None,
    requires_grad=False,
    check_invariants=True,
):
    """A CSR tensor (``torch.sparse_csr_tensor``): rows compressed into ``crow_indices``."""
    _device.check(device, "sparse_csr_tensor()")
    return _compressed(
        "sparse_csr",
        crow_indices,
        col_indices,
        values,
        size,
        dtype,
        requires_grad,
        check_invariants,
    )


def sparse_csc_tensor(
    ccol_indices,
    row_indices,
    values,
    size=None,
    *,
    dtype=None,
    device=None,
    requires_grad=False,
    check_invariants=True,
):
    """A CSC tensor (``torch.sparse_csc_tensor``): columns compressed into ``ccol_indices``."""
    _device.check(device, "sparse_csc_tensor()")
    return _compressed(
        "sparse_csc",
        ccol_indices,
        row_indices,
        values,
        size,
        dtype,
        requires_grad,
        check_invariants,
    )
