"""``torch.linalg.matrix_exp``, the exponential of square matrices, and ``linalg.inv_ex``
(the inverse with LAPACK's error code instead of the error)."""

from __future__ import annotations

import numpy as np

from .._return_types import return_type
from ..factory import zeros
from ..recording.function import Op
from ._linalg_util import check_matrices, constant
from .linalg import Inv, LinAlgError
from .select import cat

linalg_inv_ex = return_type("linalg_inv_ex", ("inverse", "info"))


class MatrixExp(Op):
    """E = exp(A) = sum A^k / k!; grad_A = the top-right block of exp([[A^T, G], [0, A^T]])
    (the derivative of exp at A^T applied to G: Mathias' block-matrix identity)."""

    node_name = "LinalgMatrixExpBackward0"
    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        from scipy.linalg import expm  # heavy (~160 ms): only matrix_exp needs it

        return np.asarray(expm(a), dtype=a.dtype) if a.size else a.copy()

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return _exp_derivative(a.mT, g)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_E = the top-right block of exp([[A, t_A], [0, A]])."""
        return _exp_derivative(inputs[0], tangents[0])


def _exp_derivative(a, direction):
    """The derivative of exp at ``a`` in ``direction``: exp([[a, d], [0, a]])'s top-right block."""
    n = a.shape[-1]
    a = a.expand(*direction.shape)
    top = cat([a, direction], -1)
    bottom = cat([zeros(*direction.shape, dtype=direction.dtype), a], -1)
    return MatrixExp.apply(cat([top, bottom], -2))[..., :n, n:]


def matrix_exp(A):  # noqa: N803  (PyTorch's names)
    """The matrix exponential of a square matrix (batched) (``torch.linalg.matrix_exp``).

    Example:
        >>> import minigrad as mg
        >>> mg.linalg.matrix_exp(mg.tensor([[0.0, 1.0], [0.0, 0.0]]))
        tensor([[1., 1.],
                [0., 1.]])
    """
    check_matrices(A, "linalg.matrix_exp", square=True)
    return MatrixExp.apply(A)


def _lu_info(a: np.ndarray) -> np.ndarray:
    """LAPACK getrf's ``info`` per matrix: 1 + the first zero pivot, 0 if invertible."""
    from scipy.linalg.lapack import get_lapack_funcs  # heavy: only inv_ex needs it

    if a.size == 0:  # no matrices, or 0 x 0 ones: nothing singular
        return np.zeros(a.shape[:-2], np.int32)
    flat = a.reshape((-1,) + a.shape[-2:])
    getrf = get_lapack_funcs("getrf", (flat[0],))
    return np.array([getrf(m)[2] for m in flat], np.int32).reshape(a.shape[:-2])


def inv_ex(A, *, check_errors: bool = False):  # noqa: N803
    """``(inverse, info)`` (``torch.linalg.inv_ex``): ``info`` (int32 per matrix) is 0, or for a
    singular matrix 1 + the index of the first zero pivot of its LU factorisation; then
    its inverse holds no meaningful numbers (nan / inf; minigrad's are all nan) and, unlike
    PyTorch's, the result then carries no gradient. With ``check_errors=True`` a singular
    matrix raises :class:`LinAlgError`."""
    op = "linalg.inv_ex"
    check_matrices(A, op, square=True)
    info = _lu_info(A._data)
    if not info.any():
        return linalg_inv_ex(Inv.apply(A), constant(info))
    first = int(np.flatnonzero(info)[0])
    if check_errors:
        prefix = f"(Batch element {first}): " if A.ndim > 2 else ""
        raise LinAlgError(
            f"{op}: {prefix}The diagonal element {int(info.flat[first])} is zero, the inversion "
            "could not be completed because the input matrix is singular."
        )
    inverse = np.full(A.shape, np.nan, A._data.dtype)  # the invertible ones inverted
    good = info == 0
    inverse[good] = np.linalg.inv(A._data[good])
    return linalg_inv_ex(constant(inverse), constant(info))
