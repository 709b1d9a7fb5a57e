"""The matrix decompositions of ``torch.linalg`` and their gradients, the lecture classics:
Cholesky (``A = L L^T``), the symmetric eigendecomposition (``A = V diag(L) V^T``), the SVD
(``A = U diag(S) Vh``) and QR (``A = Q R``), on real matrices (batched).

The factors come from LAPACK through numpy, as PyTorch's do. The decompositions with
several differentiable outputs are one node each, with PyTorch's name (``LinalgSvdBackward0``
for U, S and Vh alike), written as a :class:`~minigrad.recording.function.Function` whose
backward is PyTorch's formula in recorded ops, so ``create_graph=True`` differentiates it
again. A factor the loss does not read arrives in backward as None, and the formulas use
that, as PyTorch's: the singular values alone have a gradient even when two are equal.
"""

from __future__ import annotations

import numpy as np

from .._traced import TracedArray
from ..errors import linalg as messages
from ..factory import eye
from ..recording.function import Function, Op
from ..tensor import Tensor
from .linalg import LinAlgError
from .select import cat
from .triangular import SolveTriangular


def pytorch_node(name: str):
    """Give a Function's node PyTorch's name (a Function's own would be ``<Class>Backward``)."""

    def rename(cls):
        cls._backward_cls.__name__ = cls._backward_cls.__qualname__ = name
        return cls

    return rename


def _tensor(array: np.ndarray) -> Tensor:
    return Tensor._make(np.array(array, order="C"), False, None)


def diag_embed(v: Tensor) -> Tensor:
    """Matrices with the vectors ``v`` (last dim) on their diagonals, differentiably."""
    return v.unsqueeze(-1) * eye(v.shape[-1], dtype=v.dtype)


def _skew(x: Tensor) -> Tensor:
    return x - x.mT


# --- Cholesky ----------------------------------------------------------------------------------
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


# --- eigh --------------------------------------------------------------------------------------
@pytorch_node("LinalgEighBackward0")
class LinalgEigh(Function):
    """A = V diag(L) V^T for symmetric A (ascending L); with E_ij = L_j - L_i,
    grad_A = V (diag(gL) + skew(V^T gV) / 2E) V^T (no division when V has no gradient)."""

    @staticmethod
    def forward(ctx, a, uplo):
        values, vectors = np.linalg.eigh(a._data, UPLO=uplo)
        values, vectors = _tensor(values), _tensor(vectors)
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(values, vectors)
        return values, vectors

    @staticmethod
    def backward(ctx, g_values, g_vectors):
        values, vectors = ctx.saved_tensors
        if g_vectors is None:
            inner = diag_embed(g_values)
        else:
            gaps = values.unsqueeze(-2) - values.unsqueeze(-1)  # L_j - L_i, 0 on the diagonal
            gaps = gaps + eye(values.shape[-1], dtype=values.dtype)  # divide the diagonal by 1
            inner = 0.5 * _skew(vectors.mT @ g_vectors) / gaps
            if g_values is not None:
                inner = inner + diag_embed(g_values)
        return vectors @ (inner @ vectors.mT), None


# --- SVD ---------------------------------------------------------------------------------------
@pytorch_node("LinalgSvdBackward0")
class LinalgSvd(Function):
    """A = U diag(S) Vh; grad_A = U (diag(gS) + (skew(U^T gU) S + S skew(Vh gVh^T)) / F) Vh
    with F_jk = S_k^2 - S_j^2, plus the parts of gU (gVh) outside U's (Vh's) span for a tall
    (wide) A. ``full_matrices``: the extra columns of U (rows of Vh) get no gradient."""

    @staticmethod
    def forward(ctx, a, full_matrices):
        u, s, vh = (_tensor(x) for x in np.linalg.svd(a._data, full_matrices=full_matrices))
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(u, s, vh)
        return u, s, vh

    @staticmethod
    def backward(ctx, gu, gs, gvh):
        u, s, vh = ctx.saved_tensors
        k = s.shape[-1]
        if u.shape[-1] != k:  # full_matrices: only the first k columns of U count
            u, gu = u[..., :k], None if gu is None else gu[..., :k]
        if vh.shape[-2] != k:
            vh, gvh = vh[..., :k, :], None if gvh is None else gvh[..., :k, :]
        return svd_backward(gu, gs, gvh, u, s, vh), None


def svd_backward(gu, gs, gvh, u, s, vh) -> Tensor:
    """PyTorch's formula (real case) for the reduced SVD's factors."""
    m, n = u.shape[-2], vh.shape[-1]
    if gu is None and gvh is None:  # singular values only: U diag(gS) Vh
        return (u * gs.unsqueeze(-2)) @ vh
    s2 = s * s
    f = s2.unsqueeze(-2) - s2.unsqueeze(-1) + eye(s.shape[-1], dtype=s.dtype)
    rows, cols = s.unsqueeze(-1), s.unsqueeze(-2)
    if gu is not None and gvh is not None:
        ga = (_skew(u.mT @ gu) * cols + rows * _skew(vh @ gvh.mT)) / f
    elif gu is not None:
        ga = _skew(u.mT @ gu) / f * cols
    else:
        ga = rows * (_skew(vh @ gvh.mT) / f)
    if gs is not None:
        ga = ga + diag_embed(gs)
    if m > n and gu is not None:  # gU's part outside U's columns: (I - U U^T) gU S^-1
        ga = u @ ga
        gu_sinv = gu / cols
        ga = ga + gu_sinv - u @ (u.mT @ gu_sinv)
        return ga @ vh
    if m < n and gvh is not None:  # gVh's part outside Vh's rows
        ga = ga @ vh
        sinv_gvh = gvh / rows
        ga = ga + sinv_gvh - (sinv_gvh @ vh.mT) @ vh
        return u @ ga
    return u @ (ga @ vh)


# --- QR ----------------------------------------------------------------------------------------
@pytorch_node("LinalgQrBackward0")
class LinalgQr(Function):
    """A = Q R; for m >= n, grad_A = (gQ + Q copyltu(M)) R^-T with M = R gR^T - gQ^T Q and
    copyltu(M) = triu(M) mirrored (diagonal once); a wide A = Q [R1 R2] is the square case
    of its first m columns, the rest entering through R2 = Q^T A2."""

    @staticmethod
    def forward(ctx, a, mode):
        ctx.mode = mode
        if mode == "r":
            q, r = np.empty((0,), a._data.dtype), np.linalg.qr(a._data, mode="r")
        else:
            q, r = np.linalg.qr(a._data, mode=mode)
        q, r = _tensor(q), _tensor(r)
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(q, r)
        return q, r

    @staticmethod
    def backward(ctx, gq, gr):
        q, r = ctx.saved_tensors
        if ctx.mode == "r":
            raise RuntimeError(messages.QR_MODE_R)
        m, n = q.shape[-2], r.shape[-1]
        if ctx.mode == "complete" and m > n:
            raise RuntimeError(messages.QR_COMPLETE)
        if m >= n:
            return _qr_backward_tall(gq, gr, q, r), None
        gr = r * 0 if gr is None else gr
        r1, r2, gr1, gr2 = r[..., :m], r[..., m:], gr[..., :m], gr[..., m:]
        gq = (q @ r2) @ gr2.mT + (0 if gq is None else gq)  # R2 = Q^T A2 reads Q too
        return cat([_qr_backward_tall(gq, gr1, q, r1), q @ gr2], -1), None


def _qr_backward_tall(gq, gr, q, r) -> Tensor:
    """The m >= n case of QR's gradient (PyTorch's formula)."""
    if gr is None:
        m = -(q.mT @ gq)
    else:
        m = gr @ r.mT if gq is None else gr @ r.mT - q.mT @ gq
    m = m.triu()
    ga = q @ (m + m.triu(1).mT)
    if gq is not None:
        ga = ga + gq
    return SolveTriangular.apply(r.mT, ga, upper=False, left=False, unit=False)
