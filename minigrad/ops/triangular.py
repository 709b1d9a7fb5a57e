"""Triangular solves and what is built on them: ``torch.linalg.solve_triangular`` and
``torch.cholesky_solve``.

Both call BLAS's ``trsm`` (through scipy), as PyTorch does: a zero on the diagonal gives
inf / nan, not an error."""

from __future__ import annotations

import numpy as np

from ..errors import linalg as messages
from ..recording.function import Op
from ._linalg_util import check_matrices
from .shape import sum_to


def trsm(a: np.ndarray, b: np.ndarray, upper: bool, left: bool, unit: bool) -> np.ndarray:
    """``A^-1 B`` (left) or ``B A^-1`` for triangular A, batch dims broadcast: BLAS's trsm on
    each matrix, reading only A's ``upper`` or lower triangle (and not its diagonal if
    ``unit``)."""
    from scipy.linalg.blas import get_blas_funcs  # heavy (~160 ms): only the solvers need it

    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = np.broadcast_to(a, batch + a.shape[-2:])
    b = np.broadcast_to(b, batch + b.shape[-2:])
    out = np.empty(b.shape, dtype=b.dtype)
    if out.size == 0:
        return out
    solve = get_blas_funcs("trsm", dtype=b.dtype)
    for i in np.ndindex(batch):
        out[i] = solve(1.0, a[i], b[i], side=0 if left else 1, lower=not upper, diag=int(unit))
    return out


class SolveTriangular(Op):
    """X = A^-1 B (left) or B A^-1 for triangular A; grad_B = A^-T G solved the same way,
    grad_A = -grad_B X^T (left) or -X^T grad_B, kept to A's triangle."""

    node_name = "LinalgSolveTriangularBackward0"
    save_inputs = True
    save_output = True
    saved_names = ("self", "B", "result")
    saved_values = {
        "upper": lambda ctx: ctx.upper,
        "left": lambda ctx: ctx.left,
        "unitriangular": lambda ctx: ctx.unit,
    }

    @staticmethod
    def forward(ctx, a, b, upper, left, unit):
        ctx.upper, ctx.left, ctx.unit = upper, left, unit
        return trsm(a, b, upper, left, unit)

    @staticmethod
    def backward(ctx, g):
        a, b, x = ctx.saved_tensors
        upper, left, unit = ctx.upper, ctx.left, ctx.unit
        gb = SolveTriangular.apply(a.mT, g, upper=not upper, left=left, unit=unit)
        ga = -(gb @ x.mT) if left else -(x.mT @ gb)
        ga = ga.triu(int(unit)) if upper else ga.tril(-int(unit))
        return sum_to(ga, a.shape), sum_to(gb, b.shape)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_X = A^-1 (t_B - t_A X) (left) or (t_B - X t_A) A^-1."""
        (a, _), (ta, tb) = inputs, tangents
        upper, left, unit = params["upper"], params["left"], params["unit"]
        rhs = tb
        if ta is not None:
            ta = ta.triu(int(unit)) if upper else ta.tril(-int(unit))
            step = ta @ out if left else out @ ta
            rhs = -step if rhs is None else rhs - step
        return SolveTriangular.apply(a, rhs, upper=upper, left=left, unit=unit)


def solve_triangular(A, B, *, upper: bool, left: bool = True, unitriangular: bool = False):  # noqa: N803
    """X with A X = B (``left``) or X A = B, A upper or lower triangular
    (``torch.linalg.solve_triangular``); only A's triangle is read (and not its diagonal
    with ``unitriangular``), batch dims broadcast.

    Example:
        >>> import minigrad as mg
        >>> A = mg.tensor([[2.0, 1.0], [0.0, 4.0]])
        >>> mg.linalg.solve_triangular(A, mg.tensor([[3.0], [4.0]]), upper=True)
        tensor([[1.],
                [1.]])
    """
    op = "linalg.solve_triangular"
    check_matrices(A, op, square=True)
    check_matrices(B, op, name="B")
    if B.dtype is not A.dtype:
        raise RuntimeError(messages.SAME_DTYPE.format(op=op, a="A", b="B", da=A.dtype, db=B.dtype))
    n = A.shape[-1]
    if (B.shape[-2] if left else B.shape[-1]) != n:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(
            messages.TRIANGULAR_SHAPES.format(eq=eq, a=f"{n}x{n}", b=f"{B.shape[-2]}x{B.shape[-1]}")
        )
    return SolveTriangular.apply(A, B, upper=bool(upper), left=bool(left), unit=bool(unitriangular))


class CholeskySolve(Op):
    """X = (L L^T)^-1 B from the Cholesky factor L (or U with U^T U); grad_B = the same solve
    of G, grad_L = -(C + C^T) L (or -U (C + C^T)) with C = grad_B X^T."""

    node_name = "CholeskySolveBackward0"
    save_inputs = True
    save_output = True
    saved_names = ("self", "input2", "result")
    saved_values = {"upper": lambda ctx: ctx.upper}

    @staticmethod
    def forward(ctx, b, factor, upper):
        ctx.upper = upper
        lower = np.swapaxes(factor, -1, -2) if upper else factor  # A = lower @ lower^T
        y = trsm(lower, b, False, True, False)  # lower y = b
        return trsm(np.swapaxes(lower, -1, -2), y, True, True, False)  # lower^T x = y

    @staticmethod
    def backward(ctx, g):
        b, factor, x = ctx.saved_tensors
        gb = CholeskySolve.apply(g, factor, upper=ctx.upper)
        common = gb @ x.mT
        common = common + common.mT
        gl = -(factor @ common) if ctx.upper else -(common @ factor)
        return sum_to(gb, b.shape), sum_to(gl, factor.shape)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_X = A^-1 (t_B - t_A X), t_A = t_L L^T + L t_L^T (or U^T t_U + ...)."""
        (_, factor), (t_b, t_f) = inputs, tangents
        rhs = t_b
        if t_f is not None:
            part = t_f.mT @ factor if params["upper"] else t_f @ factor.mT
            step = (part + part.mT) @ out
            rhs = -step if rhs is None else rhs - step
        return CholeskySolve.apply(rhs, factor, upper=params["upper"])


def cholesky_solve(B, L, upper: bool = False):  # noqa: N803
    """X with A X = B, given A's Cholesky factor L (A = L L^T; ``upper``: A = U^T U)
    (``torch.cholesky_solve``); batch dims broadcast."""
    op = "cholesky_solve"
    check_matrices(B, op, name="input")
    check_matrices(L, op, name="input2")
    if B.dtype is not L.dtype:
        raise RuntimeError(messages.SAME_DTYPE.format(op=op, a="b", b="A", da=B.dtype, db=L.dtype))
    n = L.shape[-1]
    if L.shape[-2] != n or B.shape[-2] != n:
        raise RuntimeError(
            messages.CHOLESKY_SOLVE_SHAPES.format(n=n, bm=B.shape[-2], bk=B.shape[-1])
        )
    return CholeskySolve.apply(B, L, upper=bool(upper))
