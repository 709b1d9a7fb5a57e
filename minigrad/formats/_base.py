"""What COO, CSR and CSC share: sizes, density, memory and the one-line repr."""

from __future__ import annotations

import math

import numpy as np

_UNITS = ("bytes", "KiB", "MiB", "GiB", "TiB")


def format_bytes(n: int) -> str:
    """``"100 bytes"``, ``"1.5 KiB"``, ``"64.0 MiB"``: deterministic, one decimal."""
    if n < 1024:
        return f"{n} bytes"
    k = min((n.bit_length() - 1) // 10, len(_UNITS) - 1)
    return f"{n / 1024**k:.1f} {_UNITS[k]}"


def format_density(d: float) -> str:
    """``"41.7%"``; two significant digits below 0.1 % (``"0.01%"``), never ``"0.0%"``."""
    percent = 100 * d
    if percent == 0 or percent >= 0.1:
        return f"{percent:.1f}%"
    return f"{percent:.2g}%"


class SparseFormat:
    """Base of the sparse containers. Subclasses set ``layout``, ``shape``, ``values``
    and define ``_index_arrays()`` (the arrays besides values), ``_sparse_ndim()``,
    ``_repr_state()`` (e.g. ``"coalesced"``) and, optionally, ``_repr_extra()``."""

    layout: str
    shape: tuple[int, ...]
    values: np.ndarray

    @property
    def ndim(self) -> int:
        """Number of dims, sparse and dense (``len(shape)``)."""
        return len(self.shape)

    @property
    def dtype(self) -> np.dtype:
        """The numpy dtype of the stored values."""
        return self.values.dtype

    @property
    def nnz(self) -> int:
        """Number of stored entries (duplicates and explicit zeros included), as PyTorch."""
        return self.values.shape[0]

    @property
    def density(self) -> float:
        """``nnz`` / number of sparse positions (0.0 when there are none).

        Counts stored entries, so an uncoalesced COO with duplicates can exceed 1.0.
        """
        positions = math.prod(self.shape[: self._sparse_ndim()])
        return self.nnz / positions if positions else 0.0

    @property
    def nbytes(self) -> int:
        """Bytes of the index arrays plus the values (what the format really costs)."""
        return sum(a.nbytes for a in self._index_arrays()) + self.values.nbytes

    @property
    def dense_nbytes(self) -> int:
        """Bytes the same data takes as a dense array: ``prod(shape) * itemsize``."""
        return math.prod(self.shape) * self.values.itemsize

    def __repr__(self) -> str:
        parts = [f"shape={self.shape}", *self._repr_extra()]
        parts += [f"nnz={self.nnz}", f"density={format_density(self.density)}"]
        parts += [f"dtype={self.dtype}"]
        parts += [f"{format_bytes(self.nbytes)} (dense {format_bytes(self.dense_nbytes)})"]
        parts += [self._repr_state()]
        return f"{type(self).__name__}({', '.join(parts)})"

    def _repr_extra(self) -> list[str]:
        return []
