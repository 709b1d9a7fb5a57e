"""``torch.linalg.cholesky``'s node: the factor L of ``A = L L^T`` (or U of ``A = U^T U``),
from LAPACK through numpy; where a leading minor is not positive definite, LAPACK's ``info``
and its unfinished factor (what ``cholesky_ex`` returns)."""

from __future__ import annotations

import numpy as np

from .._traced import TracedArray
from ..errors import linalg as messages
from ..recording.function import Op
from ._linalg_util import diag_embed
from .linalg import LinAlgError
from .triangular import SolveTriangular


def _partial_cholesky(a: np.ndarray) -> np.ndarray:
    """LAPACK's unblocked Cholesky (lower) of one matrix, stopped where a pivot is not
    positive: the factor so far, the failing pivot on the diagonal, the rest as in ``a``."""
    out = np.tril(a).copy()
    for j in range(a.shape[-1]):
        pivot = out[j, j] - out[j, :j] @ out[j, :j]
        if not pivot > 0:
            out[j, j] = pivot
            return out
        out[j, j] = np.sqrt(pivot)
        out[j + 1 :, j] = (out[j + 1 :, j] - out[j + 1 :, :j] @ out[j, :j]) / out[j, j]
    return out


def cholesky_info(factor: np.ndarray) -> np.ndarray:
    """LAPACK's ``info`` per matrix: the order of the first leading minor that is not positive
    definite (its pivot is on the factor's diagonal), 0 where the factorisation worked."""
    diag = np.diagonal(factor, axis1=-2, axis2=-1)
    bad = ~(diag > 0)
    return np.where(bad.any(-1), bad.argmax(-1) + 1, 0).astype(np.int32)


def _cholesky_lower(a: np.ndarray, op: str, check: bool) -> np.ndarray:
    try:
        return np.linalg.cholesky(a)  # reads a's lower triangle only
    except np.linalg.LinAlgError:
        if isinstance(a, TracedArray):  # jit's zeros stand for values: only the shape counts
            return np.zeros_like(a)
    flat = a.reshape((-1,) + a.shape[-2:])
    out = np.stack([_partial_cholesky(m) for m in flat]).reshape(a.shape)
    info = cholesky_info(out).reshape(-1)
    if check:
        first = int(np.flatnonzero(info)[0])
        prefix = messages.BATCH_ELEMENT.format(op=op, i=first) if a.ndim > 2 else f"{op}: "
        body = messages.NOT_POSITIVE_DEFINITE.format(op=op, order=info[first])
        raise LinAlgError(prefix + body.removeprefix(f"{op}: "))
    return out


class CholeskyEx(Op):
    """L with L L^T = A (``upper``: U = L^T); grad_A = L^-T Phi(L^T G) L^-1, where Phi keeps
    the lower triangle with its diagonal halved and mirrors it (a symmetric gradient)."""

    node_name = "LinalgCholeskyExBackward0"
    save_output = True
    saved_names = ("L",)
    saved_values = {"upper": lambda ctx: ctx.upper}

    @staticmethod
    def forward(ctx, a, upper, check, op):
        ctx.upper = upper
        if not upper:
            return _cholesky_lower(a, op, check)
        return np.swapaxes(_cholesky_lower(np.swapaxes(a, -1, -2), op, check), -1, -2)

    @staticmethod
    def backward(ctx, g):
        (factor,) = ctx.saved_tensors
        lower, g = (factor.mT, g.mT) if ctx.upper else (factor, g)
        phi = (lower.mT @ g).tril()
        phi = 0.5 * (phi + phi.tril(-1).mT)
        ga = SolveTriangular.apply(lower.mT, phi, upper=True, left=True, unit=False)
        return SolveTriangular.apply(lower, ga, upper=False, left=False, unit=False)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_L = L Phi'(L^-1 t_A L^-T), Phi' the lower triangle, diagonal halved."""
        lower = out.mT if params["upper"] else out
        d = SolveTriangular.apply(lower, tangents[0], upper=False, left=True, unit=False)
        d = SolveTriangular.apply(lower.mT, d, upper=True, left=False, unit=False)
        d = d.tril() - 0.5 * diag_embed(d.diagonal(0, -2, -1))
        t_lower = lower @ d
        return t_lower.mT if params["upper"] else t_lower
