"""Linear algebra functions (``torch.linalg``): the vector and matrix norms, inv, det, slogdet,
solve, cross, multi_dot, matrix_power, vecdot, diagonal, cond; the decompositions cholesky
(cholesky_ex), eigh (eigvalsh), svd (svdvals) and qr; solve_triangular, lstsq, pinv,
matrix_rank, matrix_exp, inv_ex.

Example:
    >>> import minigrad as mg
    >>> mg.linalg.vector_norm(mg.tensor([3.0, 4.0]))
    tensor(5.)
    >>> mg.linalg.vector_norm(mg.tensor([[1.0, -2.0], [0.0, 3.0]]), ord=1, dim=-1)
    tensor([3., 3.])
"""

import math

from .factory import eye
from .ops.diagonal import diagonal as _diagonal
from .ops.factorizations import cholesky, cholesky_ex, eigh, eigvalsh, qr, svd, svdvals
from .ops.least_squares import lstsq, matrix_rank, pinv
from .ops.linalg import LinAlgError, det, inv, matmul, slogdet, solve
from .ops.matrix_exp import inv_ex, matrix_exp
from .ops.more_math import cross as _cross
from .ops.norm import vector_norm
from .ops.select import where
from .ops.triangular import solve_triangular


def cross(input, other, *, dim=-1):  # noqa: A002  (PyTorch's names)
    """The cross product of 3-vectors along ``dim`` (default the last) (``torch.linalg.cross``)."""
    return _cross(input, other, dim)


_SINGULAR = (2, -2, "nuc")  # norms from the singular values


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim: bool = False):  # noqa: N803, A002
    """A matrix norm over the two dims ``dim`` (``torch.linalg.matrix_norm``): ``'fro'`` (the
    2-norm of the entries), ``1`` / ``-1`` (the largest / smallest column sum of |A|),
    ``inf`` / ``-inf`` (the largest / smallest row sum), ``2`` / ``-2`` (the largest /
    smallest singular value) and ``'nuc'`` (their sum)."""
    if A.ndim < 2:
        raise RuntimeError(
            f"linalg.matrix_norm: The input tensor A must have at least 2 dimensions. (got {A.ndim})"
        )
    d0, d1 = (d % A.ndim for d in dim)
    if ord in _SINGULAR:
        return _singular_norm(A, ord, d0, d1, keepdim)
    if ord == "fro":
        return vector_norm(A, 2, (d0, d1), keepdim)
    if ord not in (1, -1, math.inf, -math.inf):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    summed, over = (d0, d1) if abs(ord) == 1 else (d1, d0)  # column sums, or row sums
    sums = A.abs().sum(summed, keepdim=True)
    out = sums.amax(over, keepdim=True) if ord > 0 else sums.amin(over, keepdim=True)
    return out if keepdim else out.squeeze(max(d0, d1)).squeeze(min(d0, d1))


def _singular_norm(A, ord, d0: int, d1: int, keepdim: bool):  # noqa: N803, A002
    """The 2, -2 and nuclear norms: the singular values of the (d0, d1) matrices reduced."""
    moved = (d0, d1) != (A.ndim - 2, A.ndim - 1)
    s = svdvals(A.movedim((d0, d1), (-2, -1)) if moved else A)
    out = s.amax(-1) if ord == 2 else s.amin(-1) if ord == -2 else s.sum(-1)
    if not keepdim:
        return out
    out = out.unsqueeze(-1).unsqueeze(-1)
    return out.movedim((-2, -1), (d0, d1))


def cond(A, p=None):  # noqa: N803
    """The condition number of square matrices in the norm ``p`` (``torch.linalg.cond``):
    ``None`` / ``2`` the ratio of the largest to the smallest singular value (``-2`` its
    inverse; any matrix shape), else ``|A| |A^-1|`` in that matrix norm ('fro', 'nuc', 1, -1,
    inf, -inf), inf for a singular matrix."""
    if p in (None, 2, -2):
        s = svdvals(A)
        big, small = s.narrow(-1, 0, 1), s.narrow(-1, s.shape[-1] - 1, 1)
        return (small / big if p == -2 else big / small).squeeze(-1)
    if A.ndim >= 2 and A.shape[-1] != A.shape[-2]:
        raise RuntimeError(
            f"linalg.cond(ord={p}): A must be batches of square matrices, but they are "
            f"{A.shape[-2]} by {A.shape[-1]} matrices"
        )
    singular = inv_ex(A).info > 0
    if singular.any():  # the identity in their place, then inf
        A = where(singular.unsqueeze(-1).unsqueeze(-1), eye(A.shape[-1], dtype=A.dtype), A)
    product = matrix_norm(A, p) * matrix_norm(inv(A), p)
    return where(singular, math.inf, product) if singular.any() else product


def norm(A, ord=None, dim=None, keepdim: bool = False):  # noqa: N803, A002
    """``torch.linalg.norm``: a vector norm (1-D input, or an int ``dim``) or a matrix norm
    (2-D input, or two dims); with neither ``ord`` nor ``dim``, the 2-norm of all entries."""
    if isinstance(dim, int):
        dim = (dim,)
    if ord is None:
        if dim is not None and len(dim) == 2:
            return matrix_norm(A, "fro", dim, keepdim)
        return vector_norm(A, 2, dim, keepdim)
    if isinstance(ord, str) or (dim is not None and len(dim) == 2) or (dim is None and A.ndim == 2):
        return matrix_norm(A, ord, dim if dim is not None else (-2, -1), keepdim)
    if dim is None and A.ndim != 1:
        raise RuntimeError(
            f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. "
            f"Got {A.ndim}D."
        )
    return vector_norm(A, ord, dim, keepdim)


def multi_dot(tensors):
    """The product of a chain of matrices, the first and last may be vectors
    (``torch.linalg.multi_dot``); multiplied left to right."""
    tensors = list(tensors)
    if len(tensors) < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {len(tensors)}")
    out = tensors[0]
    for t in tensors[1:]:
        out = matmul(out, t)
    return out


def matrix_power(A, n: int):  # noqa: N803
    """A multiplied by itself ``n`` times (``torch.linalg.matrix_power``); n = 0 gives the
    identity, a negative n powers the inverse."""
    if A.ndim < 2 or A.shape[-1] != A.shape[-2]:
        raise RuntimeError(
            "linalg.matrix_power: A must be batches of square matrices, but they are "
            f"{A.shape[-2] if A.ndim > 1 else 1} by {A.shape[-1] if A.ndim else 1} matrices"
        )
    if n == 0:  # the identity, still in A's graph (with a zero gradient), as PyTorch's
        identity = eye(A.shape[-1], dtype=A.dtype).expand(*A.shape)
        return where(identity == identity, identity, A)
    base = inv(A) if n < 0 else A
    out = base
    for _ in range(abs(n) - 1):
        out = matmul(out, base)
    return out


def vecdot(x, y, *, dim: int = -1):
    """The dot product of vectors along ``dim`` (``torch.linalg.vecdot``)."""
    return (x * y).sum(dim)


def diagonal(A, *, offset: int = 0, dim1: int = -2, dim2: int = -1):  # noqa: N803
    """The diagonals of the matrices of ``A``, over its last two dims by default
    (``torch.linalg.diagonal``)."""
    return _diagonal(A, offset, dim1, dim2)


__all__ = [
    "LinAlgError",
    "cholesky",
    "cholesky_ex",
    "cond",
    "cross",
    "det",
    "diagonal",
    "eigh",
    "eigvalsh",
    "inv",
    "inv_ex",
    "lstsq",
    "matrix_exp",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "multi_dot",
    "norm",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "solve_triangular",
    "svd",
    "svdvals",
    "vecdot",
    "vector_norm",
]
