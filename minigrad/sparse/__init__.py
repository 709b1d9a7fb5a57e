"""Sparse arrays for minigrad: formats, sparse-aware ops and the densification policy.

The formats (:class:`COO`, :class:`CSR`, :class:`CSC`) are plain containers of numpy
arrays with no autograd; see :mod:`minigrad.sparse.formats`.
"""

from .formats import COO, CSC, CSR
