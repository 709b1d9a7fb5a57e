"""Argument checks shared by the sparse formats (RELIABILITY.md, section Sparse).

Cheap checks (types, ranks, lengths, the first and last pointer) always run; the
``O(nnz)`` scans of index values run only with ``check=True``, as PyTorch's
``check_invariants=True``.
"""

from __future__ import annotations

import operator

import numpy as np

from .._dtype import ALL as _ALL_DTYPES
from ..errors import sparse as errors

SUPPORTED_DTYPES = tuple(d.np for d in _ALL_DTYPES)
_SUPPORTED_NAMES = ", ".join(d.name for d in _ALL_DTYPES)


def as_index_array(arr, name: str) -> np.ndarray:
    """``arr`` as an int64 array; integers are widened, anything else is a TypeError."""
    if not isinstance(arr, np.ndarray):
        arr = np.asarray(arr)
        if arr.size == 0 and arr.dtype.kind == "f":  # np.asarray([[], []]) is float64
            arr = arr.astype(np.int64)
    if arr.dtype.kind not in "iu":
        raise TypeError(errors.INDEX_DTYPE.format(name=name, dtype=arr.dtype))
    if not np.can_cast(arr.dtype, np.int64):
        raise TypeError(errors.INDEX_DTYPE_RANGE.format(name=name, dtype=arr.dtype))
    return arr.astype(np.int64, copy=False)


def as_values(values) -> np.ndarray:
    """``values`` as an array of a dtype minigrad supports (its dtype is kept)."""
    values = np.asarray(values)
    if values.dtype not in SUPPORTED_DTYPES:
        raise TypeError(errors.VALUES_DTYPE.format(dtype=values.dtype, supported=_SUPPORTED_NAMES))
    return values


def as_shape(shape) -> tuple[int, ...]:
    """``shape`` as a tuple of non-negative Python ints."""
    try:
        items = tuple(shape)
        dims = tuple(operator.index(s) for s in items)
    except TypeError:
        raise TypeError(errors.SHAPE_TYPE.format(got=shape)) from None
    if any(isinstance(s, (bool, np.bool_)) for s in items):
        raise TypeError(errors.SHAPE_TYPE.format(got=shape))
    if any(s < 0 for s in dims):
        raise ValueError(errors.SHAPE_NEGATIVE.format(shape=dims))
    return dims


def check_coo_layout(indices: np.ndarray, values: np.ndarray, shape: tuple) -> None:
    """Ranks and sizes of a COO's arrays agree with ``shape`` (cheap, always run)."""
    if indices.ndim != 2:
        raise ValueError(errors.INDICES_NDIM.format(got=list(indices.shape)))
    if values.ndim == 0:
        raise ValueError(errors.VALUES_0D)
    if indices.shape[1] != values.shape[0]:
        raise ValueError(errors.NNZ_MISMATCH.format(idx=indices.shape[1], val=values.shape[0]))
    sparse_dim, dense_dim = indices.shape[0], values.ndim - 1
    if len(shape) != sparse_dim + dense_dim:
        msg = errors.SHAPE_LEN.format(
            ndim=len(shape), sparse_dim=sparse_dim, dense_dim=dense_dim, shape=shape
        )
        raise ValueError(msg)
    if values.shape[1:] != shape[sparse_dim:]:
        want = [values.shape[0], *shape[sparse_dim:]]
        msg = errors.VALUES_SHAPE.format(
            want=want, got=list(values.shape), shape=shape, sparse_dim=sparse_dim
        )
        raise ValueError(msg)


def check_coo_indices(indices: np.ndarray, shape: tuple) -> None:
    """Every index lies in ``[0, size)`` of its dim (PyTorch's order: negatives first)."""
    if indices.shape[1] == 0:
        return
    lows, highs = indices.min(axis=1), indices.max(axis=1)
    for dim, size in enumerate(shape[: indices.shape[0]]):
        if lows[dim] < 0:
            pos = int(np.argmax(indices[dim] < 0))
            index = int(indices[dim, pos])
            raise ValueError(errors.INDEX_NEGATIVE.format(index=index, dim=dim, pos=pos))
        if highs[dim] >= size:
            pos = int(np.argmax(indices[dim] >= size))
            index = int(indices[dim, pos])
            msg = errors.INDEX_RANGE.format(dim=dim, size=size, index=index, pos=pos, shape=shape)
            raise ValueError(msg)


# --- CSR / CSC ---------------------------------------------------------------------------
# ``names`` is (pointer name, index name, major name, "nrows"/"ncols" of the index bound).
CSR_NAMES = ("crow_indices", "col_indices", "rows", "ncols")
CSC_NAMES = ("ccol_indices", "row_indices", "columns", "nrows")


def check_compressed_layout(ptr, idx, values, shape, layout: str, names) -> None:
    """Ranks, lengths and the first and last pointer of a CSR/CSC (cheap, always run)."""
    ptr_name, idx_name, major_name, _ = names
    for name, arr in ((ptr_name, ptr), (idx_name, idx), ("values", values)):
        if arr.ndim != 1:
            raise ValueError(errors.COMPRESSED_1D.format(name=name, shape=arr.shape, layout=layout))
    if len(shape) != 2:
        raise ValueError(
            errors.COMPRESSED_SHAPE.format(ndim=len(shape), layout=layout, shape=shape)
        )
    n_major = shape[0] if layout == "CSR" else shape[1]
    if len(ptr) != n_major + 1:
        msg = errors.PTR_LEN.format(
            ptr=ptr_name, major=major_name, want=n_major + 1, got=len(ptr), shape=shape
        )
        raise ValueError(msg)
    if len(idx) != len(values):
        raise ValueError(errors.IDX_LEN.format(idx=idx_name, nnz=len(values), got=len(idx)))
    if ptr[0] != 0:
        raise ValueError(errors.PTR_FIRST.format(ptr=ptr_name, got=int(ptr[0])))
    if ptr[-1] != len(values):
        raise ValueError(errors.PTR_LAST.format(ptr=ptr_name, got=int(ptr[-1]), nnz=len(values)))


def check_compressed_indices(ptr, idx, shape, layout: str, names) -> None:
    """Pointers never decrease; every minor index lies in ``[0, n)`` (``O(nnz)``)."""
    ptr_name, idx_name, _, bound = names
    steps = np.diff(ptr)
    if steps.size and steps.min() < 0:
        i = int(np.argmax(steps < 0)) + 1
        msg = errors.PTR_MONOTONE.format(
            ptr=ptr_name, i=i, got=int(ptr[i]), prev=i - 1, before=int(ptr[i - 1])
        )
        raise ValueError(msg)
    n = shape[1] if layout == "CSR" else shape[0]
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        pos = int(np.argmax((idx < 0) | (idx >= n)))
        msg = errors.IDX_RANGE.format(idx=idx_name, bound=bound, pos=pos, got=int(idx[pos]), n=n)
        raise ValueError(msg)
