"""The matrix decompositions of ``torch.linalg`` with several differentiable outputs and their
gradients, the lecture classics: the symmetric eigendecomposition (``A = V diag(L) V^T``), the
SVD (``A = U diag(S) Vh``) and QR (``A = Q R``), on real matrices (batched). (Cholesky, one
output: ``cholesky.py``.)

The factors come from LAPACK through numpy, as PyTorch's do. The decompositions with
several differentiable outputs are one node each, with PyTorch's name (``LinalgSvdBackward0``
for U, S and Vh alike), written as a :class:`~minigrad.recording.function.Function` whose
backward is PyTorch's formula in recorded ops, so ``create_graph=True`` differentiates it
again. A factor the loss does not read arrives in backward as None, and the formulas use
that, as PyTorch's: the singular values alone have a gradient even when two are equal.
"""

from __future__ import annotations

import numpy as np

from ..errors import linalg as messages
from ..factory import eye
from ..recording.function import Function
from ..tensor import Tensor
from ._linalg_util import constant, diag_embed, lapack, pytorch_node, skew
from .select import cat
from .triangular import SolveTriangular


# --- eigh --------------------------------------------------------------------------------------
@pytorch_node("LinalgEighBackward0")
class LinalgEigh(Function):
    """A = V diag(L) V^T for symmetric A (ascending L); with E_ij = L_j - L_i,
    grad_A = V (diag(gL) + skew(V^T gV) / 2E) V^T (no division when V has no gradient)."""

    @staticmethod
    def forward(ctx, a, uplo):
        values, vectors = lapack(lambda x: np.linalg.eigh(x, UPLO=uplo), a._data)
        values, vectors = constant(values), constant(vectors)
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(values, vectors)
        ctx.save_for_forward(values, vectors)
        return values, vectors

    @staticmethod
    def backward(ctx, g_values, g_vectors):
        values, vectors = ctx.saved_tensors
        if g_vectors is None:
            inner = diag_embed(g_values)
        else:
            inner = 0.5 * skew(vectors.mT @ g_vectors) / _gaps(values)
            if g_values is not None:
                inner = inner + diag_embed(g_values)
        return vectors @ (inner @ vectors.mT), None

    @staticmethod
    def jvp(ctx, t_a, _):
        """Forward rule: with P = V^T t_A V, t_L = diag(P), t_V = V (P / E, diagonal 0)."""
        values, vectors = ctx.saved_tensors
        p = vectors.mT @ t_a @ vectors
        return p.diagonal(0, -2, -1), vectors @ (p / _gaps(values) * _off_diagonal(values))


def _gaps(values: Tensor) -> Tensor:
    """E_ij = L_j - L_i, with 1 on the diagonal (where nothing is divided)."""
    gaps = values.unsqueeze(-2) - values.unsqueeze(-1)
    return gaps + eye(values.shape[-1], dtype=values.dtype)


def _off_diagonal(v: Tensor) -> Tensor:
    return 1 - eye(v.shape[-1], dtype=v.dtype)


# --- SVD ---------------------------------------------------------------------------------------
@pytorch_node("LinalgSvdBackward0")
class LinalgSvd(Function):
    """A = U diag(S) Vh; grad_A = U (diag(gS) + (skew(U^T gU) S + S skew(Vh gVh^T)) / F) Vh
    with F_jk = S_k^2 - S_j^2, plus the parts of gU (gVh) outside U's (Vh's) span for a tall
    (wide) A. ``full_matrices``: the extra columns of U (rows of Vh) get no gradient."""

    @staticmethod
    def forward(ctx, a, full_matrices):
        factors = lapack(lambda x: np.linalg.svd(x, full_matrices=full_matrices), a._data)
        u, s, vh = (constant(x) for x in factors)
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(u, s, vh)
        ctx.save_for_forward(u, s, vh)
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

    @staticmethod
    def jvp(ctx, t_a, _):
        """Forward rule: with P = U^T t_A V, t_S = diag(P), U^T t_U = (P S + S P^T) / F and
        V^T t_V = (S P + P^T S) / F off the diagonal, plus t_A's part outside U's (V's) span
        for a tall (wide) A; a full U's extra columns (Vh's rows) get a zero tangent."""
        u, s, vh = ctx.saved_tensors
        m, n, k = u.shape[-2], vh.shape[-1], s.shape[-1]
        u_width, vh_height = u.shape[-1], vh.shape[-2]
        u, v = u[..., :k], vh[..., :k, :].mT
        p = u.mT @ t_a @ v
        s2, rows, cols = s * s, s.unsqueeze(-1), s.unsqueeze(-2)
        f = s2.unsqueeze(-2) - s2.unsqueeze(-1) + eye(k, dtype=s.dtype)
        t_u = u @ ((p * cols + rows * p.mT) / f * _off_diagonal(s))
        t_v = v @ ((rows * p + p.mT * cols) / f * _off_diagonal(s))
        if m > n:
            t_av = t_a @ v
            t_u = t_u + (t_av - u @ (u.mT @ t_av)) / cols
        if m < n:
            t_atu = t_a.mT @ u
            t_v = t_v + (t_atu - v @ (v.mT @ t_atu)) / cols
        return _pad(t_u, u_width), p.diagonal(0, -2, -1), _pad(t_v, vh_height).mT


def _pad(t: Tensor, width: int) -> Tensor:
    """``t`` with zero columns up to ``width`` (a full U's extra columns)."""
    if t.shape[-1] == width:
        return t
    extra = t.shape[:-1] + (width - t.shape[-1],)
    return cat([t, t.new_zeros(extra)], -1)


def svd_backward(gu, gs, gvh, u, s, vh) -> Tensor:
    """PyTorch's formula (real case) for the reduced SVD's factors."""
    m, n = u.shape[-2], vh.shape[-1]
    if gu is None and gvh is None:  # singular values only: U diag(gS) Vh
        return (u * gs.unsqueeze(-2)) @ vh
    s2 = s * s
    f = s2.unsqueeze(-2) - s2.unsqueeze(-1) + eye(s.shape[-1], dtype=s.dtype)
    rows, cols = s.unsqueeze(-1), s.unsqueeze(-2)
    if gu is not None and gvh is not None:
        ga = (skew(u.mT @ gu) * cols + rows * skew(vh @ gvh.mT)) / f
    elif gu is not None:
        ga = skew(u.mT @ gu) / f * cols
    else:
        ga = rows * (skew(vh @ gvh.mT) / f)
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
            q, r = np.empty((0,), a._data.dtype), lapack(lambda x: np.linalg.qr(x, "r"), a._data)
        else:
            q, r = lapack(lambda x: np.linalg.qr(x, mode), a._data)
        q, r = constant(q), constant(r)
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(q, r)
        ctx.save_for_forward(q, r)
        return q, r

    @staticmethod
    def backward(ctx, gq, gr):
        q, r = ctx.saved_tensors
        _differentiable_mode(ctx.mode, q, r)
        m, n = q.shape[-2], r.shape[-1]
        if m >= n:
            return _qr_backward_tall(gq, gr, q, r), None
        gr = r * 0 if gr is None else gr
        r1, r2, gr1, gr2 = r[..., :m], r[..., m:], gr[..., :m], gr[..., m:]
        gq = (q @ r2) @ gr2.mT + (0 if gq is None else gq)  # R2 = Q^T A2 reads Q too
        return cat([_qr_backward_tall(gq, gr1, q, r1), q @ gr2], -1), None

    @staticmethod
    def jvp(ctx, t_a, _):
        """Forward rule (m >= n): with C = Q^T t_A R^-1 and W = tril(C, -1) - its transpose,
        t_Q = Q W + (I - Q Q^T) t_A R^-1 and t_R = (C - W) R; a wide A's first m columns are
        the square case, the rest t_R2 = Q^T (t_A2 - t_Q R2)."""
        q, r = ctx.saved_tensors
        _differentiable_mode(ctx.mode, q, r)
        m, n = q.shape[-2], r.shape[-1]
        if m >= n:
            return _qr_jvp_tall(t_a, q, r)
        t_q, t_r1 = _qr_jvp_tall(t_a[..., :m], q, r[..., :m])
        t_r2 = q.mT @ (t_a[..., m:] - t_q @ r[..., m:])
        return t_q, cat([t_r1, t_r2], -1)


def _differentiable_mode(mode: str, q: Tensor, r: Tensor) -> None:
    """PyTorch's errors where QR has no derivative: mode 'r', and 'complete' for m > n."""
    if mode == "r":
        raise RuntimeError(messages.QR_MODE_R)
    if mode == "complete" and q.shape[-2] > r.shape[-1]:
        raise RuntimeError(messages.QR_COMPLETE)


def _qr_jvp_tall(t_a, q, r) -> tuple:
    t_a_rinv = SolveTriangular.apply(r, t_a, upper=True, left=False, unit=False)
    c = q.mT @ t_a_rinv
    low = c.tril(-1)
    w = low - low.mT
    t_q = q @ w + t_a_rinv - q @ (q.mT @ t_a_rinv)
    return t_q, (c - w) @ r


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
