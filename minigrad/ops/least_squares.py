"""What the singular values decide: ``torch.linalg.pinv`` (the pseudo-inverse), ``lstsq``
(least squares) and ``matrix_rank``. A singular value counts when it is above
``max(atol, rtol * largest)``; without either, ``rtol = eps * max(m, n)`` (PyTorch's rule)."""

from __future__ import annotations

import numpy as np

from .._dtype import c_name
from .._return_types import return_type
from ..errors import linalg as messages
from ..recording.function import Op
from ..tensor import Tensor
from ._linalg_util import check_matrices, constant
from .shape import sum_to

linalg_lstsq = return_type("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))
_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def _tolerance(a: np.ndarray, atol, rtol, largest: np.ndarray) -> np.ndarray:
    """The threshold per matrix (keepdim), from float or tensor ``atol`` / ``rtol``."""
    atol = 0.0 if atol is None else np.asarray(atol._data if isinstance(atol, Tensor) else atol)
    if rtol is None:
        given = np.any(np.asarray(atol) > 0)
        rtol = 0.0 if given else np.finfo(a.dtype).eps * max(a.shape[-2:])
    rtol = np.asarray(rtol._data if isinstance(rtol, Tensor) else rtol)
    return np.maximum(np.expand_dims(atol, -1), np.expand_dims(rtol, -1) * largest)


def _np_pinv(a: np.ndarray, atol, rtol, hermitian: bool) -> np.ndarray:
    if hermitian:  # from eigh: |eigenvalues| are the singular values
        values, vectors = np.linalg.eigh(a)
        largest = np.abs(values).max(-1, keepdims=True, initial=0)
        keep = np.abs(values) > _tolerance(a, atol, rtol, largest)
        inverse = np.where(keep, 1 / np.where(keep, values, 1), 0).astype(a.dtype)
        return (vectors * inverse[..., None, :]) @ np.swapaxes(vectors, -1, -2)
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    keep = s > _tolerance(a, atol, rtol, s[..., :1])
    inverse = np.where(keep, 1 / np.where(keep, s, 1), 0).astype(a.dtype)
    return (np.swapaxes(vh, -1, -2) * inverse[..., None, :]) @ np.swapaxes(u, -1, -2)


class Pinv(Op):
    """P = A^+ (Moore-Penrose); grad_A = PyTorch's formula: for m <= n, with K = G^T P,
    -(P K)^T + K P^T - A P K P^T + P^T P (G^T - K A) (the m > n case transposed)."""

    node_name = "LinalgPinvBackward0"
    save_inputs = True
    save_output = True
    saved_names = ("self", "result")

    @staticmethod
    def forward(ctx, a, atol, rtol, hermitian):
        return _np_pinv(a, atol, rtol, hermitian)

    @staticmethod
    def backward(ctx, g):
        a, p = ctx.saved_tensors
        return pinv_backward(g, p, a)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_P = -P t_A P + P P^T t_A^T (I - A P) + (I - P A) t_A^T P^T P."""
        return pinv_jvp(tangents[0], out, inputs[0])


def pinv_backward(g, p, a):
    """The gradient of A -> A^+ at A with A^+ = p, for the output gradient g."""
    m, n = a.shape[-2], a.shape[-1]
    pt, gt = p.mT, g.mT
    if m <= n:
        k = gt @ p
        k_pt = k @ pt
        return -(p @ k).mT + k_pt - (a @ p) @ k_pt + (pt @ p) @ (gt - k @ a)
    k = p @ gt
    pt_k = pt @ k
    return -(k @ p).mT + ((gt - a @ k) @ p) @ pt + pt_k - (pt_k @ p) @ a


def pinv_jvp(t_a, p, a):
    """The derivative of A -> A^+ at A (with A^+ = p) in the direction t_a."""
    t_at = t_a.mT
    left = t_at - (t_at @ a) @ p  # t_A^T (I - A P)
    right = t_at - (p @ a) @ t_at  # (I - P A) t_A^T
    return -(p @ t_a @ p) + (p @ p.mT) @ left + right @ (p.mT @ p)


def pinv(A, rcond=None, hermitian: bool = False, *, atol=None, rtol=None):  # noqa: N803
    """The Moore-Penrose pseudo-inverse (``torch.linalg.pinv``), batched: from the SVD, or from
    eigh with ``hermitian=True`` (then only the lower triangle is read); singular values at or
    below ``max(atol, rtol * largest)`` count as zero (``rcond``: the older name of rtol).

    Example:
        >>> import minigrad as mg
        >>> mg.linalg.pinv(mg.tensor([[2.0, 0.0], [0.0, 0.0]]))
        tensor([[0.5000, 0.0000],
                [0.0000, 0.0000]])
    """
    if isinstance(A, Tensor) and (A.ndim < 2 or not A.dtype.is_floating_point):
        shape = list(A.shape)
        raise RuntimeError(messages.PINV_INPUT.format(dtype=c_name(A.dtype), shape=shape))
    check_matrices(A, "linalg.pinv")
    if rcond is not None:  # PyTorch's older form: rcond is rtol, and atol is 0
        atol, rtol = 0.0, rcond
    return Pinv.apply(A, atol=atol, rtol=rtol, hermitian=bool(hermitian))


def pinverse(input, rcond: float = 1e-15):  # noqa: A002
    """``torch.pinverse``: ``linalg.pinv(input, rcond)`` (the same node)."""
    return pinv(input, rcond)


def matrix_rank(A, tol=None, hermitian: bool = False, *, atol=None, rtol=None):  # noqa: N803
    """The number of singular values above ``max(atol, rtol * largest)`` per matrix, int64
    (``torch.linalg.matrix_rank``); ``tol``: PyTorch's older form of ``atol`` (rtol 0)."""
    check_matrices(A, "linalg.matrix_rank")
    if tol is not None:
        atol, rtol = tol, 0.0
    a = A._data
    if hermitian:
        s = np.abs(np.linalg.eigvalsh(a))
        largest = s.max(-1, keepdims=True, initial=0)
    else:
        s = np.linalg.svd(a, compute_uv=False)
        largest = s[..., :1] if s.shape[-1] else np.zeros(s.shape[:-1] + (1,), s.dtype)
    return constant((s > _tolerance(a, atol, rtol, largest)).sum(-1).astype(np.int64))


class Lstsq(Op):
    """X = A^+ B, the least-squares solution of min |A X - B|; grad_B = P^T G, grad_A = the
    pseudo-inverse's gradient for G B^T (P = A^+), as PyTorch's."""

    node_name = "LinalgLstsqBackward0"
    save_inputs = True
    saved_names = ("self", "b")

    @staticmethod
    def forward(ctx, a, b, rcond, vector):
        ctx.vector = vector
        x = np.matmul(_np_pinv(a, 0.0, rcond, False), b[..., None] if vector else b)
        return x[..., 0] if vector else x

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        if ctx.vector:  # B and X are columns
            g, b = g.unsqueeze(-1), b.unsqueeze(-1)
        p = Pinv.apply(a, atol=None, rtol=None, hermitian=False)
        ga = pinv_backward(g @ b.mT, p, a) if ctx.needs_input_grad[0] else None
        gb = p.mT @ g if ctx.needs_input_grad[1] else None
        if gb is not None and ctx.vector:
            gb = gb.squeeze(-1)
        b_shape = b.shape[:-1] if ctx.vector else b.shape
        return (
            None if ga is None else sum_to(ga, a.shape),
            None if gb is None else sum_to(gb, b_shape),
        )

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_X = t_P B + P t_B, t_P the pseudo-inverse's."""
        (a, b), (t_a, t_b) = inputs, tangents
        if params["vector"]:
            b, t_b = b.unsqueeze(-1), None if t_b is None else t_b.unsqueeze(-1)
        p = Pinv.apply(a, atol=0.0, rtol=params["rcond"], hermitian=False)
        t_x = None if t_b is None else p @ t_b
        if t_a is not None:
            t_xa = pinv_jvp(t_a, p, a) @ b
            t_x = t_xa if t_x is None else t_x + t_xa
        return t_x.squeeze(-1) if params["vector"] else t_x


def lstsq(A, B, rcond=None, *, driver=None):  # noqa: N803
    """``(solution, residuals, rank, singular_values)`` of min |A X - B| (``torch.linalg.lstsq``),
    batch dims broadcast, B a matrix or (B.ndim == A.ndim - 1) vectors. The minimum-norm
    solution, singular values below ``rcond * largest`` taken as zero (default eps * max(m, n)).
    As PyTorch's CPU drivers: ``'gelsy'`` (default) gives rank, ``'gelsd'`` / ``'gelss'`` rank
    and singular values, ``'gels'`` neither; residuals (the squared norms of A X - B's columns)
    for m > n at full rank, except with ``'gelsy'``. Only the solution is differentiable."""
    check_matrices(A, "linalg.lstsq", name="input")
    if not isinstance(B, Tensor) or B.ndim < 1:
        raise RuntimeError(messages.LSTSQ_DIMS.format(a=A.ndim, b=getattr(B, "ndim", 0)))
    if B.dtype is not A.dtype:
        raise RuntimeError(messages.LSTSQ_DTYPE.format(a=c_name(A.dtype), b=c_name(B.dtype)))
    if not 0 <= A.ndim - B.ndim <= 1:
        raise RuntimeError(messages.LSTSQ_BATCH)
    driver = "gelsy" if driver is None else driver
    if driver not in _DRIVERS:
        raise RuntimeError(messages.LSTSQ_DRIVER)
    vector = B.ndim == A.ndim - 1
    b = B.unsqueeze(-1) if vector else B
    if b.shape[-2] != A.shape[-2]:
        raise RuntimeError(messages.LSTSQ_ROWS)
    a_np = A._data
    m, n = a_np.shape[-2:]
    rcond = np.finfo(a_np.dtype).eps * max(m, n) if rcond is None else rcond
    x = Lstsq.apply(A, B, rcond=rcond, vector=vector)
    s = np.linalg.svd(a_np, compute_uv=False)
    rank = (s > rcond * s[..., :1]).sum(-1).astype(np.int64)
    empty = np.empty((0,), a_np.dtype)
    residuals = empty
    if driver != "gelsy" and m > n and np.all(rank == n):
        x_np = x._data[..., None] if vector else x._data
        residuals = ((a_np @ x_np - b._data) ** 2).sum(-2)  # (..., 1) for vectors, as PyTorch's
    return linalg_lstsq(
        x,
        constant(residuals),
        constant(np.empty((0,), np.int64) if driver == "gels" else rank),
        constant(s if driver in ("gelsd", "gelss") else empty),
    )
