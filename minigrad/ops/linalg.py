"""Matrix products: ``@`` / matmul (1-D, 2-D and batched, broadcasting), mm (2-D only),
bmm (3-D batches, no broadcasting) and dot (1-D only); and ``torch.linalg``'s inv, det,
slogdet and solve (square matrices, batched)."""

from __future__ import annotations

import numpy as np

from .. import _dtype, errors
from .._traced import TracedArray
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
        # as in PyTorch's formulas, only the gradients that lead somewhere (a first layer's
        # input, the data, needs none)
        need_input, need_mat1, need_mat2 = ctx.needs_input_grad
        g_mm = g if alpha == 1 else g * alpha
        return (
            sum_to(g if beta == 1 else g * beta, ctx.input_shape) if need_input else None,
            g_mm @ mat2.mT if need_mat1 else None,
            mat1.mT @ g_mm if need_mat2 else None,
        )

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


# --- torch.linalg: inv det slogdet solve ------------------------------------------------------
class LinAlgError(RuntimeError):
    """A matrix the computation cannot handle, e.g. a singular one (``torch.linalg.LinAlgError``,
    a RuntimeError as PyTorch's)."""


def _square(a, op: str) -> None:
    """PyTorch's checks: a Tensor, dense, floating point, batches of square matrices."""
    if not isinstance(a, Tensor):
        raise TypeError(errors.OP_ARG_TYPE.format(op=op, name="A", i=1, got=type(a).__name__))
    if has_sparse_layout(a):
        raise NotImplementedError(a._no_kernel(op))
    if a.ndim < 2:
        raise RuntimeError(f"{op}: The input tensor A must have at least 2 dimensions.")
    if a.shape[-1] != a.shape[-2]:
        raise RuntimeError(
            f"{op}: A must be batches of square matrices, but they are "
            f"{a.shape[-2]} by {a.shape[-1]} matrices"
        )
    if not a.dtype.is_floating_point:
        raise RuntimeError(
            f"{op}: Expected a floating point or complex tensor as input. Got {a.dtype}"
        )


def _np_inv(a: np.ndarray, op: str) -> np.ndarray:
    try:
        return np.linalg.inv(a)
    except np.linalg.LinAlgError:
        if isinstance(a, TracedArray):  # jit's zeros stand for values: only the shape counts
            return np.zeros_like(a)
        raise LinAlgError(
            f"{op}: The input matrix is singular, the inversion could not be completed."
        ) from None


class Inv(Op):
    """Y = A^-1; grad_A = -Y^T G Y^T (from dY = -Y dA Y)."""

    node_name = "LinalgInvExBackward0"  # PyTorch's inv is inv_ex (it also returns an error code)
    save_output = True
    saved_names = ("inverse",)

    @staticmethod
    def forward(ctx, a):
        return _np_inv(a, "linalg.inv")

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        yt = y.mT
        return -(yt @ g @ yt)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = -Y t_A Y."""
        return -(out @ tangents[0] @ out)


def inv(A):  # noqa: N803  (PyTorch's name)
    """The inverse of a square matrix, or of each in a batch (``torch.linalg.inv``);
    a singular matrix raises :class:`LinAlgError`.

    Example:
        >>> import minigrad as mg
        >>> mg.linalg.inv(mg.tensor([[2.0, 0.0], [0.0, 4.0]]))
        tensor([[0.5000, 0.0000],
                [0.0000, 0.2500]])
    """
    _square(A, "linalg.inv")
    return Inv.apply(A)


class Det(Op):
    """d = det A; grad_A = g d A^-T (Jacobi's formula), for an invertible A.

    PyTorch also differentiates at singular matrices (through an SVD); here a singular A
    has the inverse's LinAlgError in backward."""

    node_name = "LinalgDetBackward0"
    save_inputs = True
    save_output = True
    saved_names = ("A", "result")

    @staticmethod
    def forward(ctx, a):
        return np.asarray(np.linalg.det(a))

    @staticmethod
    def backward(ctx, g):
        a, d = ctx.saved_tensors
        return (g * d).unsqueeze(-1).unsqueeze(-1) * inv(a).mT

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = d * trace(A^-1 t_A)."""
        return out * _trace_of_product(inv(inputs[0]), tangents[0])


def _trace_of_product(x, y):
    """trace(x @ y) for (batches of) square matrices, without forming x @ y."""
    return (x * y.mT).sum((-2, -1))


def det(A):  # noqa: N803
    """The determinant of a square matrix, or of each in a batch (``torch.linalg.det``)."""
    _square(A, "linalg.det")
    return Det.apply(A)


class LogAbsDet(Op):
    """log |det A|; grad_A = g A^-T. (slogdet's sign is a constant: it has no gradient.)"""

    node_name = "LinalgSlogdetBackward0"
    save_inputs = True
    saved_names = ("A",)

    @staticmethod
    def forward(ctx, a):
        return np.asarray(np.linalg.slogdet(a)[1])

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g.unsqueeze(-1).unsqueeze(-1) * inv(a).mT

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = trace(A^-1 t_A)."""
        return _trace_of_product(inv(inputs[0]), tangents[0])


class SlogdetSign(Op):
    """The sign of det A (-1, 0 or 1): a step function, no gradient."""

    differentiable = False

    @staticmethod
    def forward(ctx, a):
        return np.asarray(np.linalg.slogdet(a)[0])


class _Slogdet(tuple):
    """``(sign, logabsdet)``, readable by name too, as PyTorch's ``torch.return_types``."""

    sign = property(lambda self: self[0])
    logabsdet = property(lambda self: self[1])

    def __repr__(self):
        return f"linalg_slogdet(sign={self[0]!r}, logabsdet={self[1]!r})"


def slogdet(A):  # noqa: N803
    """``(sign, logabsdet)`` with det A = sign * exp(logabsdet), accurate where det itself
    would overflow or underflow (``torch.linalg.slogdet``); the sign carries no gradient."""
    _square(A, "linalg.slogdet")
    return _Slogdet((SlogdetSign.apply(A), LogAbsDet.apply(A)))


class Solve(Op):
    """X = A^-1 B for square A, B a matrix (or batch of them); grad_B = A^-T G (one more
    solve), grad_A = -grad_B X^T."""

    node_name = "LinalgSolveExBackward0"  # PyTorch's solve is solve_ex
    save_inputs = True
    save_output = True
    saved_names = ("A", "B", "result")

    @staticmethod
    def forward(ctx, a, b):
        ctx.shapes = (a.shape, b.shape)
        try:
            return np.linalg.solve(a, b)
        except np.linalg.LinAlgError:
            if isinstance(a, TracedArray):  # jit's zeros stand for values: only the shape counts
                return np.zeros_like(np.matmul(a, b))
            raise LinAlgError(
                "linalg.solve: The solver failed because the input matrix is singular."
            ) from None

    @staticmethod
    def backward(ctx, g):
        a, _, x = ctx.saved_tensors
        gb = Solve.apply(a.mT, g)
        ga = -(gb @ x.mT)
        sa, sb = ctx.shapes
        return sum_to(ga, sa, a.dtype), sum_to(gb, sb, a.dtype)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_X = A^-1 (t_B - t_A X)."""
        a, _ = inputs
        ta, tb = tangents
        rhs = tb if ta is None else (-(ta @ out) if tb is None else tb - ta @ out)
        return Solve.apply(a, rhs)


def solve(A, B):  # noqa: N803
    """X with A X = B (``torch.linalg.solve``): A square (batched), B a matrix or a vector
    (``B.ndim == 1``, or B of A's batch shape without the last dim), batch dims broadcast.

    Example:
        >>> import minigrad as mg
        >>> mg.linalg.solve(mg.tensor([[2.0, 0.0], [0.0, 4.0]]), mg.tensor([2.0, 2.0]))
        tensor([1.0000, 0.5000])
    """
    _square(A, "linalg.solve")
    if not isinstance(B, Tensor):
        raise TypeError(
            errors.OP_ARG_TYPE.format(op="linalg.solve", name="B", i=2, got=type(B).__name__)
        )
    if has_sparse_layout(B):
        raise NotImplementedError(B._no_kernel("linalg.solve"))
    if B.dtype is not A.dtype:
        raise RuntimeError(
            f"linalg.solve: Expected A and B to have the same dtype, but found A of type {A.dtype} and B of type {B.dtype} instead"
        )
    vector = B.ndim == 1 or (B.ndim == A.ndim - 1 and B.shape == A.shape[:-1])
    b = B.unsqueeze(-1) if vector else B
    n = A.shape[-1]
    if b.ndim < 2 or b.shape[-2] != n:
        k = b.shape[-1] if b.ndim >= 2 else 1
        raise RuntimeError(
            "linalg.solve: Incompatible shapes of A and B for the equation AX = B "
            f"({n}x{n} and {b.shape[-2] if b.ndim >= 2 else b.shape[0]}x{k})"
        )
    x = Solve.apply(A, b)
    return x.squeeze(-1) if vector else x


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
