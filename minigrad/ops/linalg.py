"""Matrix products: ``@`` / matmul (1-D, 2-D and batched, broadcasting), mm (2-D only),
bmm (3-D batches, no broadcasting) and dot (1-D only)."""

from __future__ import annotations

import numpy as np

from .. import _dtype, errors
from ..autograd.function import Op
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


class Addmm(Op):
    """out = beta * input + alpha * (mat1 @ mat2) in one node, PyTorch's ``AddmmBackward0``
    (what ``F.linear`` records for a batch of vectors, with mat2 = weight.t()):
    grad_input = beta * g summed back to input's shape, grad_mat1 = alpha * g @ mat2^T,
    grad_mat2 = alpha * mat1^T @ g. Inputs (input, mat1, mat2), PyTorch's order; the two
    matrices are saved, the input is not (changing it in place afterwards is fine)."""

    save_inputs = (1, 2)
    saved_names = ("mat1", "mat2")
    saved_values = {"alpha": lambda ctx: ctx.alpha, "beta": lambda ctx: ctx.beta}
    node_name = "AddmmBackward0"

    @staticmethod
    def forward(ctx, input, mat1, mat2, beta, alpha):  # noqa: A002  (PyTorch names)
        for first, x in (("mat1", mat1), ("self", input)):  # after autocast cast them
            if x.dtype != mat2.dtype:
                got, want = _dtype._FROM_NP[x.dtype], _dtype._FROM_NP[mat2.dtype]
                raise RuntimeError(
                    errors.ADDMM_DTYPE.format(
                        first=first, got=_dtype.c_name(got), want=_dtype.c_name(want)
                    )
                )
        ctx.beta, ctx.alpha, ctx.input_shape = beta, alpha, input.shape
        out = np.matmul(mat1, mat2)
        if alpha != 1:
            out = out * alpha
        if beta == 0:  # input is not read: its NaNs do not reach out, as in PyTorch
            return out
        return out + (input if beta == 1 else beta * input)

    @staticmethod
    def backward(ctx, g):
        mat1, mat2 = ctx.saved_tensors
        alpha, beta = ctx.alpha, ctx.beta
        g_input = sum_to(g if beta == 1 else g * beta, ctx.input_shape)
        g_mm = g if alpha == 1 else g * alpha
        return g_input, g_mm @ mat2.mT, mat1.mT @ g_mm

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = beta * t_input + alpha * (t_mat1 @ mat2 + mat1 @ t_mat2)."""
        (_, mat1, mat2), (t_in, t1, t2) = inputs, tangents
        parts = [t1 @ mat2] if t1 is not None else []
        parts += [mat1 @ t2] if t2 is not None else []
        t_out = sum(parts[1:], parts[0]) * params["alpha"] if parts else None
        if t_in is not None:
            t_in = (t_in * params["beta"]).expand(*out.shape)
            t_out = t_in if t_out is None else t_out + t_in
        return t_out


def _check(a, b, op):
    # the arrays' shapes (plain tuples): this check takes 0.2 us; one ``a.shape[-1]`` alone
    # costs 0.31 us (``Size`` indexes in Python), and the MLP loop of bench_loops.py runs 6
    # products a step
    sa, sb = a._data.shape, b._data.shape
    if not sa or not sb:
        raise RuntimeError(errors.MATMUL_0D.format(da=len(sa), db=len(sb)))
    ka = sa[-1]
    kb = sb[0] if len(sb) == 1 else sb[-2]
    if ka != kb:
        ta = "x".join(map(str, sa if len(sa) > 1 else (1,) + sa))
        tb = "x".join(map(str, sb if len(sb) > 1 else sb + (1,)))
        raise RuntimeError(errors.MATMUL_SHAPE.format(sa=ta, sb=tb))
    if len(sa) > 2 or len(sb) > 2:
        _check_batch_dims(sa, sb, op)


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


def addmm(input, mat1, mat2, *, beta=1, alpha=1):  # noqa: A002  (PyTorch names)
    """``beta * input + alpha * (mat1 @ mat2)`` (``torch.addmm``): mat1 (n, m) and mat2 (m, p)
    matrices, ``input`` broadcast to (n, p), all of one dtype; with integer tensors ``beta`` and
    ``alpha`` count as integers, as in PyTorch. One node, ``AddmmBackward0``. A sparse mat1 or
    mat2 multiplies as ``mm`` does (the full gradient); ``mg.sparse.addmm`` is the masked one.

    Example:
        >>> import minigrad as mg
        >>> mg.addmm(mg.tensor([1.0, 0.0]), mg.ones(1, 2), mg.eye(2), beta=2, alpha=3)
        tensor([[5., 3.]])
    """
    _operands3("addmm", input, mat1, mat2)
    if has_sparse_layout(mat1) or has_sparse_layout(mat2):
        product = mm(mat1, mat2)
        return (input if beta == 1 else input * beta) + (product if alpha == 1 else product * alpha)
    for name, m in (("mat1", mat1), ("mat2", mat2)):
        if m.ndim != 2:
            raise RuntimeError(errors.ADDMM_MATRIX.format(name=name, ndim=m.ndim))
    (n, k), (k2, p) = mat1.shape, mat2.shape
    if k != k2:
        raise RuntimeError(errors.MATMUL_SHAPE.format(sa=f"{n}x{k}", sb=f"{k2}x{p}"))
    _check_expands_to(input.shape, (n, p))
    if not mat2.dtype.is_floating_point:
        beta, alpha = int(beta), int(alpha)
    return Addmm.apply(input, mat1, mat2, beta=beta, alpha=alpha)


def _operands3(op: str, *tensors) -> None:
    for i, (name, x) in enumerate(zip(("input", "mat1", "mat2"), tensors)):
        if not isinstance(x, Tensor):
            raise TypeError(
                errors.OP_ARG_TYPE.format(op=op, name=name, i=i + 1, got=type(x).__name__)
            )


def _check_expands_to(shape: tuple, target: tuple) -> None:
    """``input.expand(target)`` would work: PyTorch's errors where it would not."""
    if len(shape) > len(target):
        raise RuntimeError(
            errors.EXPAND_DIMS.format(
                shape=list(shape), target=list(target), n_target=len(target), n=len(shape)
            )
        )
    lead = len(target) - len(shape)
    for i, n in enumerate(shape):
        if n not in (1, target[lead + i]):
            raise RuntimeError(
                errors.EXPAND.format(
                    new=target[lead + i],
                    old=n,
                    dim=lead + i,
                    target=list(target),
                    shape=list(shape),
                )
            )
