"""CSR and CSC: compressed sparse rows / columns of a 2-D matrix."""

from __future__ import annotations

import numpy as np

from ..errors import sparse as errors
from . import _kernels, _validate
from ._base import SparseFormat
from .coo import COO


class _Compressed(SparseFormat):
    """What CSR and CSC share. The *major* axis is the compressed one (rows for CSR):
    ``_ptr`` has one entry per major index plus one, ``_idx`` holds the minor index of
    every stored entry. The CSC of a matrix has exactly the arrays of the CSR of its
    transpose, which is why :meth:`transpose` moves no data."""

    _names: tuple[str, str, str, str]  # pointer, index, major axis, bound (_validate)
    _short: str  # "CSR" or "CSC"
    # and a classmethod ``_from_coo(coo)``: the conversion that builds the subclass

    def __init__(self, ptr, idx, values, shape, *, check: bool = True):
        ptr_name, idx_name = self._names[:2]
        ptr = _validate.as_index_array(ptr, ptr_name)
        idx = _validate.as_index_array(idx, idx_name)
        values = _validate.as_values(values)
        shape = _validate.as_shape(shape)
        _validate.check_compressed_layout(ptr, idx, values, shape, self._short, self._names)
        if check:
            _validate.check_compressed_indices(ptr, idx, shape, self._short, self._names)
        self._ptr, self._idx, self.values, self.shape = ptr, idx, values, shape
        self._canonical: bool | None = None  # computed on first use

    @classmethod
    def _new(cls, ptr, idx, values, shape, canonical: bool | None):
        """Wrap arrays known to be valid, without any check (internal)."""
        self = object.__new__(cls)
        self._ptr, self._idx, self.values, self.shape = ptr, idx, values, tuple(shape)
        self._canonical = canonical
        return self

    @property
    def has_canonical_format(self) -> bool:
        """True when indices are sorted within each row (column) with no duplicates."""
        if self._canonical is None:
            self._canonical = _kernels.compressed_sorted_unique(self._ptr, self._idx)
        return self._canonical

    def _rows_cols(self) -> tuple[np.ndarray, np.ndarray]:
        major = _kernels.expand(self._ptr)
        return (major, self._idx) if self._short == "CSR" else (self._idx, major)

    def to_coo(self) -> COO:
        """COO with the same entries in storage order (nothing summed).

        Flagged coalesced for a canonical CSR (its order is row-major), as PyTorch; for
        a CSC (column-major order) only when ``nnz <= 1``.
        """
        indices = np.stack(self._rows_cols())
        coalesced = self.nnz <= 1 or (self._short == "CSR" and self.has_canonical_format)
        return COO._new(indices, self.values, self.shape, coalesced)

    def to_dense(self) -> np.ndarray:
        """A new dense array; duplicates are summed."""
        return self.to_coo().to_dense()

    def sort_indices(self):
        """A new matrix with indices sorted within each row (column); duplicates kept.

        Unlike scipy's method of the same name, this returns a new object.
        """
        if self.has_canonical_format:
            return self
        major = _kernels.expand(self._ptr)
        sizes = self.shape if self._short == "CSR" else self.shape[::-1]  # (major, minor)
        order = _kernels.sort_order(np.stack([major, self._idx]), sizes)
        return type(self)._new(self._ptr, self._idx[order], self.values[order], self.shape, None)

    def sum_duplicates(self):
        """A new matrix in canonical form: sorted indices, duplicates summed, zeros kept.

        Unlike scipy's method of the same name, this returns a new object.
        """
        if self.has_canonical_format:
            return self
        return self._from_coo(self.to_coo())

    @classmethod
    def from_dense(cls, array):
        """The nonzeros of a 2-D ``array``, in canonical form."""
        array = _validate.as_values(array)
        if array.ndim != 2:
            raise ValueError(
                errors.NEEDS_2D.format(op=f"{cls.__name__}.from_dense()", shape=array.shape)
            )
        return cls._from_coo(COO.from_dense(array))

    def to_scipy(self, matrix: bool = False):
        """``scipy.sparse.csr_array`` / ``csc_array`` (``*_matrix`` with ``matrix=True``),
        arrays copied. Float16 values are a TypeError: scipy.sparse does not support them."""
        import scipy.sparse as sp  # heavy (~160 ms to import): only the scipy conversions need it

        if self.dtype == np.float16:
            raise TypeError(errors.SCIPY_DTYPE.format(dtype=self.dtype))
        name = f"{self._short.lower()}_{'matrix' if matrix else 'array'}"
        # copy=True: scipy's in-place methods (sum_duplicates, ...) must not reach our arrays
        arrays = (self.values, self._idx, self._ptr)
        out = getattr(sp, name)(arrays, shape=self.shape, copy=True)
        out.has_canonical_format = self.has_canonical_format
        return out

    @classmethod
    def from_scipy(cls, m):
        """From any 2-D scipy.sparse array or matrix (arrays copied; a COO input has its
        duplicates summed by scipy)."""
        import scipy.sparse as sp  # heavy (~160 ms to import): only the scipy conversions need it

        if not sp.issparse(m):
            raise TypeError(errors.NOT_SCIPY.format(cls=cls.__name__, got=type(m).__name__))
        if len(m.shape) != 2:
            raise ValueError(
                errors.NEEDS_2D.format(op=f"{cls.__name__}.from_scipy()", shape=m.shape)
            )
        m = m.tocsr() if cls._short == "CSR" else m.tocsc()
        values = _validate.as_values(m.data).copy()
        ptr, idx = m.indptr.astype(np.int64), m.indices.astype(np.int64)
        return cls(ptr, idx, values, m.shape)

    def with_values(self, values):
        """Same indices (shared, not copied), new 1-D ``values`` of length ``nnz``."""
        values = _validate.as_values(values)
        _validate.check_compressed_layout(
            self._ptr, self._idx, values, self.shape, self._short, self._names
        )
        return type(self)._new(self._ptr, self._idx, values, self.shape, self._canonical)

    # --- helpers ----------------------------------------------------------------------
    def _index_arrays(self):
        return (self._ptr, self._idx)

    def _sparse_ndim(self) -> int:
        return 2

    def _repr_state(self) -> str:
        return "canonical" if self.has_canonical_format else "non-canonical"


class CSR(_Compressed):
    """A 2-D sparse matrix in compressed sparse row format (PyTorch's ``torch.sparse_csr``).

    Row ``i`` stores ``values[crow_indices[i]:crow_indices[i + 1]]`` at the columns
    ``col_indices[crow_indices[i]:crow_indices[i + 1]]``.

    Good at: row slicing and matrix-vector / matrix-matrix products (one pass over the
    rows; scipy's kernels accept these arrays as they are), compact row pointers.
    Limits: 2-D only, no dense dims (use COO for row-sparse); changing the sparsity
    pattern means rebuilding the arrays; column access is slow (use CSC).

    Canonical form (as scipy): column indices sorted within each row, no duplicates;
    explicit zeros allowed. Every conversion *to* CSR produces it. Unlike PyTorch, which
    rejects anything else, the constructor also accepts unsorted or duplicated columns
    (as scipy does); see :attr:`has_canonical_format`, :meth:`sort_indices` and
    :meth:`sum_duplicates`.

    Memory: ``(nrows + 1) * 8 + nnz * (8 + itemsize)`` bytes (:attr:`nbytes`), against
    ``nrows * ncols * itemsize`` dense.

    Args:
        crow_indices: integer array of length ``nrows + 1``: non-decreasing, starting at
            0, ending at ``nnz``. Stored as int64.
        col_indices: integer array of length ``nnz``, each in ``[0, ncols)``.
        values: 1-D array of length ``nnz``; its numpy dtype is kept.
        shape: ``(nrows, ncols)``.
        check: scan the pointers and indices (``O(nnz)``); the cheap checks (ranks,
            lengths, first and last pointer) always run. Arrays are not copied.

    Example:
        >>> import numpy as np
        >>> a = CSR(np.array([0, 2, 3]), np.array([0, 2, 1]), np.array([1.0, 2.0, 3.0]), (2, 3))
        >>> a
        CSR(shape=(2, 3), nnz=3, density=50.0%, dtype=float64, 72 bytes (dense 48 bytes), canonical)
        >>> a.to_dense()
        array([[1., 0., 2.],
               [0., 3., 0.]])
        >>> a.transpose().ccol_indices   # the same array, now read as column pointers
        array([0, 2, 3])
    """

    layout = "sparse_csr"
    _names = _validate.CSR_NAMES
    _short = "CSR"

    def __init__(self, crow_indices, col_indices, values, shape, *, check: bool = True):
        super().__init__(crow_indices, col_indices, values, shape, check=check)

    @property
    def crow_indices(self) -> np.ndarray:
        """Row pointers, length ``nrows + 1``."""
        return self._ptr

    @property
    def col_indices(self) -> np.ndarray:
        """Column index of each stored entry."""
        return self._idx

    def transpose(self) -> CSC:
        """The transpose as a CSC of shape ``(ncols, nrows)`` sharing these arrays."""
        return CSC._new(self._ptr, self._idx, self.values, self.shape[::-1], self._canonical)

    def to_csr(self) -> CSR:
        """``self`` in canonical form (``self`` when already canonical)."""
        return self.sum_duplicates()

    def to_csc(self) -> CSC:
        """The same matrix as a canonical CSC (duplicates summed)."""
        return self.to_coo().to_csc()

    @classmethod
    def _from_coo(cls, coo: COO) -> CSR:
        return coo.to_csr()


class CSC(_Compressed):
    """A 2-D sparse matrix in compressed sparse column format (``torch.sparse_csc``).

    Column ``j`` stores ``values[ccol_indices[j]:ccol_indices[j + 1]]`` at the rows
    ``row_indices[ccol_indices[j]:ccol_indices[j + 1]]``. The CSC of ``A`` holds
    exactly the arrays of the CSR of ``A.T``.

    Good at: column slicing, products with the transpose (``A.T @ x`` reads a CSC as
    a CSR). Limits: 2-D only, no dense dims; row access is slow (use CSR).

    Canonical form (as scipy): row indices sorted within each column, no duplicates;
    explicit zeros allowed. Every conversion *to* CSC produces it; the constructor also
    accepts non-canonical arrays (see :class:`CSR`).

    Memory: ``(ncols + 1) * 8 + nnz * (8 + itemsize)`` bytes (:attr:`nbytes`).

    Args:
        ccol_indices: integer array of length ``ncols + 1``: non-decreasing, starting at
            0, ending at ``nnz``. Stored as int64.
        row_indices: integer array of length ``nnz``, each in ``[0, nrows)``.
        values: 1-D array of length ``nnz``; its numpy dtype is kept.
        shape: ``(nrows, ncols)``.
        check: scan the pointers and indices (``O(nnz)``). Arrays are not copied.

    Example:
        >>> import numpy as np
        >>> a = CSC.from_dense(np.array([[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]]))
        >>> a.ccol_indices, a.row_indices, a.values
        (array([0, 1, 2, 3]), array([0, 1, 0]), array([1., 3., 2.]))
        >>> a.to_coo().to_csr().col_indices
        array([0, 2, 1])
    """

    layout = "sparse_csc"
    _names = _validate.CSC_NAMES
    _short = "CSC"

    def __init__(self, ccol_indices, row_indices, values, shape, *, check: bool = True):
        super().__init__(ccol_indices, row_indices, values, shape, check=check)

    @property
    def ccol_indices(self) -> np.ndarray:
        """Column pointers, length ``ncols + 1``."""
        return self._ptr

    @property
    def row_indices(self) -> np.ndarray:
        """Row index of each stored entry."""
        return self._idx

    def transpose(self) -> CSR:
        """The transpose as a CSR of shape ``(ncols, nrows)`` sharing these arrays."""
        return CSR._new(self._ptr, self._idx, self.values, self.shape[::-1], self._canonical)

    def to_csr(self) -> CSR:
        """The same matrix as a canonical CSR (duplicates summed)."""
        return self.to_coo().to_csr()

    def to_csc(self) -> CSC:
        """``self`` in canonical form (``self`` when already canonical)."""
        return self.sum_duplicates()

    @classmethod
    def _from_coo(cls, coo: COO) -> CSC:
        return coo.to_csc()
