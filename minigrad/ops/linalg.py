"""Matrix products: ``@`` / matmul (1-D, 2-D and batched, broadcasting), mm (2-D only),
bmm (3-D batches, no broadcasting) and dot (1-D only)."""

from __future__ import annotations

import numpy as np

from .. import _dtype, errors
from ..recording.function import Op
from ..tensor import Tensor, has_sparse_layout
from ._util import to_tensor
from .shape import sum_to

# The node PyTorch's matmul records for 1-D and 2-D operands (batched ones: see docs/differences.md)
_PRODUCT_NAMES = {(1, 1): "DotBackward0", (2, 1): "MvBackward0", (2, 2): "MmBackward0"}


class MatMul(Op):
    """Matrix product C = A @ B; grad_A = G @ B^T, grad_B = A^T @ G (batch dims summed back).

    1-D operands are promoted (a vector is a row on the left, a column on the
    right) and the extra dim is removed again, as numpy and PyTorch do."""

    save_inputs = True
    saved_names = ("self", "mat2")  # PyTorch's MmBackward0 names (1-D operands: see matmul)

    @staticmethod
    def forward(ctx, a, b):
        if a.dtype != b.dtype:  # checked here, after autocast has cast the inputs
            da, db = _dtype._FROM_NP[a.dtype], _dtype._FROM_NP[b.dtype]
            raise RuntimeError(errors.MATMUL_DTYPE.format(da=da, db=db, op="matmul"))
        if (a.ndim, b.ndim) in _PRODUCT_NAMES:  # PyTorch's node for the product matmul runs
            ctx.node_name = _PRODUCT_NAMES[a.ndim, b.ndim]
        return np.matmul(a, b)

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        if a.ndim == 1 and b.ndim == 1:  # dot product: g is 0-d
            return g * b, g * a
        a2 = a.unsqueeze(0) if a.ndim == 1 else a
        b2 = b.unsqueeze(-1) if b.ndim == 1 else b
        if a.ndim == 1:
            g = g.unsqueeze(-2)
        if b.ndim == 1:
            g = g.unsqueeze(-1)
        ga = g @ b2.mT
        gb = a2.mT @ g
        if a.ndim == 1:
            ga = ga.squeeze(-2)
        if b.ndim == 1:
            gb = gb.squeeze(-1)
        return sum_to(ga, a.shape), sum_to(gb, b.shape)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_C = t_A @ B + A @ t_B."""
        (a, b), (ta, tb) = inputs, tangents
        da = None if ta is None else MatMul.apply(ta, b)
        db = None if tb is None else MatMul.apply(a, tb)
        return db if da is None else da if db is None else da + db


def _check(a, b, op):
    if a.ndim == 0 or b.ndim == 0:
        raise RuntimeError(errors.MATMUL_0D.format(da=a.ndim, db=b.ndim))
    ka = a.shape[-1]
    kb = b.shape[0] if b.ndim == 1 else b.shape[-2]
    if ka != kb:
        sa = "x".join(map(str, a.shape if a.ndim > 1 else (1,) + a.shape))
        sb = "x".join(map(str, b.shape if b.ndim > 1 else b.shape + (1,)))
        raise RuntimeError(errors.MATMUL_SHAPE.format(sa=sa, sb=sb))
    if a.ndim > 2 or b.ndim > 2:
        _check_batch_dims(a.shape, b.shape, op)


def _check_batch_dims(sa: tuple, sb: tuple, op: str) -> None:
    """The batch dims (all but the last two) must broadcast; PyTorch's message, both shapes."""
    ba, bb = sa[:-2], sb[:-2] if len(sb) > 1 else ()
    n = max(len(ba), len(bb))
    pa, pb = (1,) * (n - len(ba)) + ba, (1,) * (n - len(bb)) + bb
    for d in range(n):
        if pa[d] != pb[d] and 1 not in (pa[d], pb[d]):
            raise RuntimeError(
                errors.BROADCAST.format(a=pa[d], b=pb[d], dim=d, op=op, sa=tuple(sa), sb=tuple(sb))
            )


def matmul(a, b):
    """Matrix product with numpy/PyTorch broadcasting rules (``torch.matmul``, ``@``).

    Both operands must have the same dtype (PyTorch does not promote here either).

    A sparse operand (COO/CSR/CSC matrix) is multiplied by scipy.sparse kernels and
    gets the FULL gradient, the dense ``dC @ D^T`` a dense matrix would get (``torch.mm``
    semantics; node ``MmBackward0``). :func:`minigrad.sparse.mm` gives the MASKED one,
    sparse with the operand's pattern (node ``SparseMmBackward0``)."""
    if has_sparse_layout(a):  # a sparse tensor multiplies by its own kernels
        return a.matmul(b)
    if has_sparse_layout(b):
        return b.__rmatmul__(a)
    b = to_tensor(b, a, "matmul")
    _check(a, b, "matmul")
    return MatMul.apply(a, b)


def mm(a, b):
    """Product of two 2-D matrices, no broadcasting (``torch.mm``).

    With a sparse operand the gradient of the sparse matrix is the FULL dense one,
    ``dC @ D^T`` (as ``torch.mm``); :func:`minigrad.sparse.mm` gives the masked one."""
    if has_sparse_layout(a):
        return a.mm(b)
    if has_sparse_layout(b):
        return b._rmm(a)
    if a.ndim != 2 or b.ndim != 2:
        raise RuntimeError(errors.MM_2D.format(op="mm", da=a.ndim, db=b.ndim))
    return matmul(a, b)


class Bmm(MatMul):
    """Batched matrix product C[i] = A[i] @ B[i]; grad_A = G @ B^T, grad_B = A^T @ G."""


class Dot(MatMul):
    """Dot product c = a . b of two vectors; grad_a = g * b, grad_b = g * a."""


def _operands(op: str, a, b) -> None:
    for i, (name, x) in enumerate((("input", a), ("mat2" if op == "bmm" else "tensor", b))):
        if not isinstance(x, Tensor):
            raise TypeError(
                errors.OP_ARG_TYPE.format(op=op, name=name, i=i + 1, got=type(x).__name__)
            )


def bmm(a, b):
    """Batched matrix product of two 3-D tensors, (b, n, m) @ (b, m, p) -> (b, n, p), without
    broadcasting (``torch.bmm``; ``matmul`` broadcasts)."""
    _operands("bmm", a, b)
    for name, x in (("batch1", a), ("batch2", b)):
        if x.ndim != 3:
            raise RuntimeError(
                errors.BMM_3D.format(name=name, ndim=x.ndim, sa=tuple(a.shape), sb=tuple(b.shape))
            )
    if b.shape[:2] != (a.shape[0], a.shape[2]):
        raise RuntimeError(
            errors.BMM_SHAPE.format(
                want=[a.shape[0], a.shape[2]],
                got=list(b.shape[:2]),
                sa=tuple(a.shape),
                sb=tuple(b.shape),
            )
        )
    return Bmm.apply(a, b)


def dot(a, b):
    """Dot product of two 1-D tensors of the same size and dtype (``torch.dot``)."""
    _operands("dot", a, b)
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(errors.DOT_1D.format(da=a.ndim, db=b.ndim))
    if a.shape != b.shape:
        raise RuntimeError(errors.DOT_SIZE.format(na=a.shape[0], nb=b.shape[0]))
    if a.dtype is not b.dtype:
        raise RuntimeError(errors.DOT_DTYPE.format(da=a.dtype.name, db=b.dtype.name))
    return Dot.apply(a, b)


def mv(a, v):
    """Matrix times vector, (n, m) @ (m,) -> (n,) (``torch.mv``; the node is MvBackward0)."""
    _operands("mv", a, v)
    if a.ndim != 2 or v.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {a.ndim}, {v.ndim}")
    return matmul(a, v)


def outer(a, b):
    """Outer product of two vectors, out[i, j] = a[i] * b[j] (``torch.outer``): a column times
    a row, recorded as PyTorch records it (a ViewBackward0 under a MulBackward0)."""
    _operands("outer", a, b)
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(f"outer: expected 1-D tensors, got {a.ndim}-D and {b.ndim}-D")
    return a.reshape(-1, 1) * b
