"""The public decompositions: ``torch.linalg``'s cholesky, cholesky_ex, eigh, eigvalsh, svd,
svdvals and qr, and the legacy ``torch.svd`` / ``torch.qr``, returning PyTorch's named
tuples (the nodes and their gradients: ``decompositions.py``)."""

from __future__ import annotations

import warnings

from .. import _dtype
from .._return_types import return_type
from ..errors import linalg as messages
from ..factory import zeros
from ..tensor import Tensor
from ._linalg_util import check_matrices, constant
from .cholesky import CholeskyEx, cholesky_info
from .decompositions import LinalgEigh, LinalgQr, LinalgSvd

linalg_cholesky_ex = return_type("linalg_cholesky_ex", ("L", "info"))
linalg_eigh = return_type("linalg_eigh", ("eigenvalues", "eigenvectors"))
linalg_svd = return_type("linalg_svd", ("U", "S", "Vh"))
linalg_qr = return_type("linalg_qr", ("Q", "R"))
svd_legacy = return_type("svd", ("U", "S", "V"))
qr_legacy = return_type("qr", ("Q", "R"))

_QR_MODES = ("reduced", "complete", "r")


def cholesky(A, *, upper: bool = False):  # noqa: N803  (PyTorch's names)
    """The Cholesky factor of a symmetric positive-definite matrix (batched):
    lower L with ``A = L @ L.mT``, or with ``upper=True`` upper U with ``A = U.mT @ U``
    (``torch.linalg.cholesky``). Only the triangle of A on that side is read. A matrix that
    is not positive definite raises :class:`LinAlgError` naming the leading minor that fails.

    Example:
        >>> import minigrad as mg
        >>> mg.linalg.cholesky(mg.tensor([[4.0, 2.0], [2.0, 5.0]]))
        tensor([[2., 0.],
                [1., 2.]])
    """
    check_matrices(A, "linalg.cholesky", square=True)
    return CholeskyEx.apply(A, upper=bool(upper), check=True, op="linalg.cholesky")


def cholesky_ex(A, *, upper: bool = False, check_errors: bool = False):  # noqa: N803
    """``(L, info)``: cholesky without the error (``torch.linalg.cholesky_ex``). ``info`` (int32,
    one per matrix) is 0 where the factorisation worked, else the order of the first leading
    minor that is not positive definite (L is then LAPACK's unfinished factor);
    ``check_errors=True`` raises instead."""
    op = "linalg.cholesky_ex"
    check_matrices(A, op, square=True)
    factor = CholeskyEx.apply(A, upper=bool(upper), check=bool(check_errors), op=op)
    return linalg_cholesky_ex(factor, constant(cholesky_info(factor._data)))


def _check_uplo(A, UPLO: str, op: str) -> None:  # noqa: N803
    if isinstance(A, Tensor) and not A.dtype.is_floating_point:  # PyTorch: no kernel
        raise NotImplementedError(messages.EIGH_DTYPE.format(dtype=_dtype.c_name(A.dtype)))
    check_matrices(A, op, square=True)
    if UPLO not in ("L", "U"):
        raise RuntimeError(messages.UPLO.format(uplo=UPLO))


def eigh(A, UPLO: str = "L"):  # noqa: N803
    """``(eigenvalues, eigenvectors)`` of a symmetric matrix (batched), ascending values, the
    vectors as columns: ``A = V @ diag(L) @ V.mT`` (``torch.linalg.eigh``). Only the ``UPLO``
    triangle ('L' or 'U') is read. Each vector's sign is LAPACK's choice: a loss that depends on
    it is not well defined (its gradient has no meaning).

    Example:
        >>> import minigrad as mg
        >>> mg.linalg.eigh(mg.tensor([[2.0, 0.0], [0.0, 1.0]])).eigenvalues
        tensor([1., 2.])
    """
    _check_uplo(A, UPLO, "linalg.eigh")
    return linalg_eigh(*LinalgEigh.apply(A, UPLO))


def eigvalsh(A, UPLO: str = "L"):  # noqa: N803
    """The eigenvalues of a symmetric matrix, ascending (``torch.linalg.eigvalsh``); the node
    is eigh's (its gradient ``V diag(g) V^T`` needs the vectors)."""
    _check_uplo(A, UPLO, "linalg.eigh")  # PyTorch's messages name eigh
    return LinalgEigh.apply(A, UPLO)[0]


def _no_driver(driver, op: str) -> None:
    if driver is not None:
        raise RuntimeError(
            f"torch.{op}: keyword argument `driver=` is only supported on CUDA inputs with "
            "cuSOLVER backend."
        )


def svd(A, full_matrices: bool = True, *, driver=None):  # noqa: N803
    """``(U, S, Vh)`` with ``A = U @ diag(S) @ Vh``, S descending (``torch.linalg.svd``);
    ``full_matrices=False`` keeps k = min(m, n) columns of U and rows of Vh. The singular
    vectors' signs are LAPACK's choice (only sign-free quantities such as ``U @ Vh`` or
    ``|U|`` are well defined; the extra columns of a full U get no gradient).

    Example:
        >>> import minigrad as mg
        >>> mg.linalg.svd(mg.tensor([[3.0, 0.0], [0.0, -4.0]])).S
        tensor([4., 3.])
    """
    check_matrices(A, "linalg.svd")
    _no_driver(driver, "linalg.svd")
    return linalg_svd(*LinalgSvd.apply(A, bool(full_matrices)))


def svdvals(A, *, driver=None):  # noqa: N803
    """The singular values, descending (``torch.linalg.svdvals``); the node is the SVD's, whose
    gradient for S alone is ``U @ diag(g) @ Vh``."""
    check_matrices(A, "linalg.svd")  # PyTorch's messages name svd
    _no_driver(driver, "linalg.svd")
    return LinalgSvd.apply(A, False)[1]


def qr(A, mode: str = "reduced"):  # noqa: N803
    """``(Q, R)`` with ``A = Q @ R``, Q with orthonormal columns, R upper triangular
    (``torch.linalg.qr``): ``mode='reduced'`` (k = min(m, n) columns), ``'complete'`` (square
    Q) or ``'r'`` (R only, Q empty; nothing to differentiate through). Householder's signs,
    as LAPACK's (and PyTorch's).

    Example:
        >>> import minigrad as mg
        >>> mg.linalg.qr(mg.tensor([[3.0], [4.0]])).R
        tensor([[-5.]])
    """
    check_matrices(A, "linalg.qr")
    if mode not in _QR_MODES:
        raise RuntimeError(messages.QR_MODE.format(mode=mode))
    return linalg_qr(*LinalgQr.apply(A, mode))


def svd_some(input, some: bool = True, compute_uv: bool = True):  # noqa: A002
    """PyTorch's older ``torch.svd``: ``(U, S, V)`` with V, not Vh (``A = U diag(S) V^T``),
    ``some=False`` for square U and V; ``compute_uv=False`` gives zero U and V."""
    check_matrices(input, "linalg.svd")
    if compute_uv:
        u, s, vh = LinalgSvd.apply(input, not some)
        return svd_legacy(u, s, vh.mT)
    m, n = input.shape[-2:]
    batch, dtype = tuple(input.shape[:-2]), input.dtype
    s = LinalgSvd.apply(input, False)[1]
    return svd_legacy(zeros(*batch, m, m, dtype=dtype), s, zeros(*batch, n, n, dtype=dtype))


def qr_some(input, some: bool = True):  # noqa: A002
    """PyTorch's older ``torch.qr``: ``linalg.qr(A, 'reduced' if some else 'complete')``."""
    warnings.warn(
        "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future "
        "PyTorch release.",
        UserWarning,
        stacklevel=2,
    )
    check_matrices(input, "linalg.qr")
    return qr_legacy(*LinalgQr.apply(input, "reduced" if some else "complete"))
