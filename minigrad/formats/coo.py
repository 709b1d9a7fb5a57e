"""COO: coordinate format with any number of sparse dims and trailing dense dims."""

from __future__ import annotations

import math
import operator

import numpy as np

from ..errors import sparse as errors
from . import _kernels, _validate
from ._base import SparseFormat


class COO(SparseFormat):
    """A sparse array in coordinate format (PyTorch's ``torch.sparse_coo`` layout).

    Entry ``k`` sits at ``indices[:, k]`` in the first ``sparse_dim`` dims and holds
    ``values[k]``, itself an array of the trailing ``dense_dim`` dims. With one sparse
    dim and one dense dim this is a *row-sparse* matrix: the gradient of an embedding
    table, where only the looked-up rows are stored.

    Good at: building incrementally (concatenate indices and values, duplicates
    allowed), row-sparse gradients, fast conversion to CSR/CSC, any number of dims.
    Limits: no ``__array__`` (densify explicitly with :meth:`to_dense`, it can be huge);
    slicing and arithmetic live elsewhere; uncoalesced duplicates cost memory until
    :meth:`coalesce`.

    Canonical (coalesced) form: index columns sorted lexicographically (row-major),
    no duplicates; explicit zeros allowed and kept. ``is_coalesced`` is a flag, as in
    PyTorch: True after :meth:`coalesce`, :meth:`from_dense`, for ``nnz <= 1``, or when
    the constructor is told so (then verified with ``check=True``).

    Memory: ``nnz * (sparse_dim * 8 + itemsize * prod(dense_shape))`` bytes
    (:attr:`nbytes`), against ``prod(shape) * itemsize`` dense (:attr:`dense_nbytes`).

    Args:
        indices: integer array of shape ``(sparse_dim, nnz)``, stored as int64
            (smaller integer types are widened; floating-point or bool is a TypeError).
        values: array of shape ``(nnz, *dense_shape)``; its numpy dtype is kept.
        shape: sparse sizes followed by dense sizes.
        is_coalesced: promise that indices are already in canonical form.
        check: scan indices for negative or out-of-range values (``O(nnz)``); the
            cheap shape checks always run. Arrays are not copied.

    Example:
        >>> import numpy as np
        >>> a = COO(np.array([[0, 1, 0], [2, 1, 2]]), np.array([1.0, 3.0, 2.0]), (2, 3))
        >>> a
        COO(shape=(2, 3), nnz=3, density=50.0%, dtype=float64, 72 bytes (dense 48 bytes), uncoalesced)
        >>> a.coalesce().values
        array([3., 3.])
        >>> a.to_dense()
        array([[0., 0., 3.],
               [0., 3., 0.]])
    """

    layout = "sparse_coo"

    def __init__(self, indices, values, shape, *, is_coalesced: bool = False, check: bool = True):
        indices = _validate.as_index_array(indices, "indices")
        values = _validate.as_values(values)
        shape = _validate.as_shape(shape)
        _validate.check_coo_layout(indices, values, shape)
        if check:
            _validate.check_coo_indices(indices, shape)
            sizes = shape[: indices.shape[0]]
            if is_coalesced and not _kernels.is_lex_sorted_unique(indices, sizes):
                raise ValueError(errors.NOT_COALESCED)
        self.indices, self.values, self.shape = indices, values, shape
        self._coalesced = bool(is_coalesced) or values.shape[0] <= 1

    @classmethod
    def _new(cls, indices, values, shape, coalesced: bool) -> COO:
        """Wrap arrays known to be valid, without any check (internal)."""
        self = object.__new__(cls)
        self.indices, self.values, self.shape = indices, values, tuple(shape)
        self._coalesced = coalesced
        return self

    # --- properties -------------------------------------------------------------------
    @property
    def sparse_dim(self) -> int:
        """Number of leading sparse dims (``indices.shape[0]``)."""
        return self.indices.shape[0]

    @property
    def dense_dim(self) -> int:
        """Number of trailing dense dims (``values.ndim - 1``)."""
        return self.values.ndim - 1

    @property
    def is_coalesced(self) -> bool:
        """True when known to be in canonical form (sorted, no duplicates)."""
        return self._coalesced

    # --- methods ----------------------------------------------------------------------
    def coalesce(self) -> COO:
        """Sort indices lexicographically and sum duplicates; explicit zeros are kept.

        Returns ``self`` when already coalesced (as PyTorch), else a new COO.
        """
        if self._coalesced:
            return self
        sizes = self.shape[: self.sparse_dim]
        indices, values = _kernels.coalesce(self.indices, self.values, sizes)
        return COO._new(indices, values, self.shape, True)

    def to_dense(self) -> np.ndarray:
        """A new dense array; duplicates are summed."""
        out = np.zeros(self.shape, dtype=self.dtype)
        if self.nnz == 0:
            return out
        c = self.coalesce()
        if self.sparse_dim == 0:
            out[...] = c.values[0]
        else:
            out[tuple(c.indices)] = c.values
        return out

    def transpose(self, dim0: int, dim1: int) -> COO:
        """Swap two sparse dims (the indices' rows). As in PyTorch, the result is flagged
        uncoalesced (its order is no longer lexicographic) unless it is empty."""
        d0, d1 = (self._wrap_dim(d) for d in (dim0, dim1))
        if d0 >= self.sparse_dim or d1 >= self.sparse_dim:
            msg = errors.TRANSPOSE_DENSE.format(sparse_dim=self.sparse_dim, d0=d0, d1=d1)
            raise ValueError(msg)
        shape, order = list(self.shape), list(range(self.sparse_dim))
        shape[d0], shape[d1] = shape[d1], shape[d0]
        order[d0], order[d1] = order[d1], order[d0]
        coalesced = self.nnz == 0 or (d0 == d1 and self._coalesced)  # the flags torch sets
        return COO._new(self.indices[order], self.values, shape, coalesced)

    def with_values(self, values) -> COO:
        """Same indices (shared, not copied), new ``values`` of shape ``(nnz, *dense)``."""
        values = _validate.as_values(values)
        if values.ndim == 0:
            raise ValueError(errors.VALUES_0D)
        if values.shape[0] != self.nnz:
            raise ValueError(errors.NNZ_MISMATCH.format(idx=self.nnz, val=values.shape[0]))
        shape = self.shape[: self.sparse_dim] + values.shape[1:]
        return COO._new(self.indices, values, shape, self._coalesced)

    def to_csr(self):
        """CSR of a 2-D COO (sparse_dim 2, dense_dim 0), in canonical form."""
        from .compressed import CSR  # late: compressed.py imports COO; they convert both ways

        self._require_matrix("to_csr()")
        c = self.coalesce()
        ptr = _kernels.compress(c.indices[0], self.shape[0])
        return CSR._new(ptr, c.indices[1].copy(), c.values, self.shape, True)

    def to_csc(self):
        """CSC of a 2-D COO (sparse_dim 2, dense_dim 0), in canonical form."""
        self._require_matrix("to_csc()")
        return self.transpose(0, 1).to_csr().transpose()

    @classmethod
    def from_dense(cls, array, sparse_dim: int | None = None) -> COO:
        """The nonzeros of ``array`` as a coalesced COO.

        With ``sparse_dim < array.ndim`` the trailing dims stay dense and only the
        sparse positions whose dense slice is entirely zero are dropped (a row-sparse
        COO for ``sparse_dim=1``), as ``torch.Tensor.to_sparse(sparse_dim)``.
        """
        array = _validate.as_values(array)
        sd = array.ndim if sparse_dim is None else operator.index(sparse_dim)
        if not 0 <= sd <= array.ndim:
            raise ValueError(errors.SPARSE_DIM_RANGE.format(ndim=array.ndim, got=sparse_dim))
        sizes = array.shape[:sd]
        rows = array.reshape(sizes + (math.prod(array.shape[sd:]),))
        mask = np.any(rows != 0, axis=-1)  # a position is kept if any dense entry is nonzero
        if sd == 0:
            keep = int(mask)
            return cls._new(np.empty((0, keep), np.int64), array[None][:keep], array.shape, True)
        where = np.nonzero(mask)
        return cls._new(np.stack(where).astype(np.int64), array[where], array.shape, True)

    def to_scipy(self, matrix: bool = False):
        """``scipy.sparse.coo_array`` (``coo_matrix`` with ``matrix=True``), arrays copied,
        duplicates kept. Float16 values are a TypeError: scipy.sparse does not support them."""
        import scipy.sparse as sp  # heavy (~160 ms to import): only the scipy conversions need it

        self._require_matrix("to_scipy()")
        if self.dtype == np.float16:
            raise TypeError(errors.SCIPY_DTYPE.format(dtype=self.dtype))
        kind = sp.coo_matrix if matrix else sp.coo_array
        rows, cols = self.indices
        out = kind((self.values, (rows, cols)), shape=self.shape, copy=True)  # not shared
        out.has_canonical_format = self._coalesced
        return out

    @classmethod
    def from_scipy(cls, m) -> COO:
        """A COO from any scipy.sparse array or matrix (values copied, duplicates kept)."""
        import scipy.sparse as sp  # heavy (~160 ms to import): only the scipy conversions need it

        if not sp.issparse(m):
            raise TypeError(errors.NOT_SCIPY.format(cls=cls.__name__, got=type(m).__name__))
        coo = m.tocoo()
        coords = coo.coords if hasattr(coo, "coords") else (coo.row, coo.col)
        indices = np.stack(coords).astype(np.int64)
        values = _validate.as_values(coo.data).copy()
        out = cls(indices, values, coo.shape)
        out._coalesced = _kernels.is_lex_sorted_unique(indices, out.shape)
        return out

    # --- helpers ----------------------------------------------------------------------
    def _wrap_dim(self, dim: int) -> int:
        n = self.ndim
        if not -n <= dim < n:
            raise IndexError(errors.DIM_RANGE.format(lo=-n, hi=n - 1, dim=dim))
        return dim % n

    def _require_matrix(self, op: str) -> None:
        if self.sparse_dim != 2 or self.dense_dim != 0:
            msg = errors.NEEDS_MATRIX.format(
                op=op, shape=self.shape, sparse_dim=self.sparse_dim, dense_dim=self.dense_dim
            )
            raise ValueError(msg)

    def _index_arrays(self):
        return (self.indices,)

    def _sparse_ndim(self) -> int:
        return self.sparse_dim

    def _repr_extra(self) -> list[str]:
        return [f"sparse_dim={self.sparse_dim}"] if self.dense_dim else []

    def _repr_state(self) -> str:
        return "coalesced" if self._coalesced else "uncoalesced"
