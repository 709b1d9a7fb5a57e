"""Sparse formats: plain containers of numpy arrays, no autograd.

- :class:`COO`: coordinates, any number of sparse dims plus trailing dense dims
  (``indices`` of shape ``(sparse_dim, nnz)``, ``values`` of shape ``(nnz, *dense)``).
- :class:`CSR` / :class:`CSC`: compressed rows / columns of a 2-D matrix.

Every format validates on construction, converts to every other and to dense, reports
its memory (``nbytes`` against ``dense_nbytes``) and converts to and from scipy.sparse.
NB: the PyTorch layouts are ``torch.sparse_coo``, ``torch.sparse_csr``, ``torch.sparse_csc``.
"""

from .compressed import CSC, CSR
from .coo import COO

__all__ = ["COO", "CSR", "CSC"]
