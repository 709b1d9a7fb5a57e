"""More of PyTorch's math names, each recorded as the one node PyTorch records:
``addcmul addcdiv`` (the update of hand-written optimizers: ``p.addcdiv_(m, v.sqrt() + eps,
value=-lr)``), ``baddbmm`` (attention scores), ``trace``, ``cross`` (``linalg.cross``),
``sinc exp2 logaddexp2 sgn``; and the index helpers without gradient ``tril_indices
triu_indices bucketize searchsorted``.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _dtype
from ..recording.function import Op
from ..tensor import Tensor
from ._util import Elementwise, broadcast_shapes, check_tensor, make, norm_dim
from .arith import _Binary
from .binary_math import LogAddExp, _operands
from .linalg import Addmm, _check_expands_to
from .select import where
from .shape import sum_to
from .unary import Sign, as_float


# --- addcmul, addcdiv: input + value * t1 * t2 (or t1 / t2), one node --------------------------
def _three(op: str, input, tensor1, tensor2) -> tuple:  # noqa: A002
    for i, (name, t) in enumerate(zip(("input", "tensor1", "tensor2"), (input, tensor1, tensor2))):
        check_tensor(t, op, name, i + 1)
    shape = broadcast_shapes(broadcast_shapes(input.shape, tensor1.shape, op), tensor2.shape, op)
    d = _dtype.result_type(input, tensor1, tensor2)
    return shape, tuple(t if t.dtype is d else t.to(d) for t in (input, tensor1, tensor2))


class Addcmul(Op):
    """out = input + value * t1 * t2; grad_input = g, grad_t1 = g * value * t2,
    grad_t2 = g * value * t1 (each summed back to its operand's shape)."""

    save_inputs = (1, 2)
    saved_names = ("tensor1", "tensor2")
    saved_values = {"value": lambda ctx: ctx.value}
    elementwise = True

    @staticmethod
    def forward(ctx, a, t1, t2, value):
        ctx.value, ctx.shapes = value, (a.shape, t1.shape, t2.shape)
        return np.asarray(a + value * (t1 * t2) if value != 1 else a + t1 * t2)

    @staticmethod
    def backward(ctx, g):
        t1, t2 = ctx.saved_tensors
        gv = g * ctx.value if ctx.value != 1 else g
        sa, s1, s2 = ctx.shapes
        return sum_to(g, sa), sum_to(gv * t2, s1), sum_to(gv * t1, s2)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a + value * (t_1 t2 + t1 t_2)."""
        (_, t1, t2), (ta, tt1, tt2), v = inputs, tangents, params["value"]
        parts = [p for p in (tt1 * t2 if tt1 is not None else None,
                             t1 * tt2 if tt2 is not None else None) if p is not None]  # fmt: skip
        total = sum(parts[1:], parts[0]) * v if parts else None
        if ta is not None:
            total = ta.expand(*out.shape) if total is None else total + ta
        return total


class Addcdiv(Op):
    """out = input + value * t1 / t2; grad_input = g, grad_t1 = g * value / t2,
    grad_t2 = -g * value * t1 / t2^2."""

    save_inputs = (1, 2)
    saved_names = ("tensor1", "tensor2")
    saved_values = {"value": lambda ctx: ctx.value}
    elementwise = True

    @staticmethod
    def forward(ctx, a, t1, t2, value):
        ctx.value, ctx.shapes = value, (a.shape, t1.shape, t2.shape)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.asarray(a + value * (t1 / t2))

    @staticmethod
    def backward(ctx, g):
        t1, t2 = ctx.saved_tensors
        gv = g * ctx.value
        sa, s1, s2 = ctx.shapes
        return sum_to(g, sa), sum_to(gv / t2, s1), sum_to(-gv * t1 / (t2 * t2), s2)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a + value * (t_1 / t2 - t1 t_2 / t2^2)."""
        (_, t1, t2), (ta, tt1, tt2), v = inputs, tangents, params["value"]
        parts = [p for p in (tt1 / t2 if tt1 is not None else None,
                             -(t1 * tt2) / (t2 * t2) if tt2 is not None else None)
                 if p is not None]  # fmt: skip
        total = sum(parts[1:], parts[0]) * v if parts else None
        if ta is not None:
            total = ta.expand(*out.shape) if total is None else total + ta
        return total


def addcmul(input, tensor1, tensor2, *, value=1):  # noqa: A002  (PyTorch's names)
    """``input + value * tensor1 * tensor2``, broadcasting (``torch.addcmul``); one node,
    ``AddcmulBackward0``."""
    _, ts = _three("addcmul", input, tensor1, tensor2)
    return Addcmul.apply(*ts, value=value)


def addcdiv(input, tensor1, tensor2, *, value=1):  # noqa: A002
    """``input + value * tensor1 / tensor2``, broadcasting (``torch.addcdiv``); one node,
    ``AddcdivBackward0``. Integer tensors are refused, as PyTorch refuses them."""
    _, ts = _three("addcdiv", input, tensor1, tensor2)
    if not (tensor1.dtype.is_floating_point or tensor2.dtype.is_floating_point):
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported; use floating-point tensors "
            "(or torch.floor_divide for an integer quotient)"
        )
    return Addcdiv.apply(*ts, value=value)


# --- baddbmm: beta * input + alpha * (batch1 @ batch2) ------------------------------------------
class Baddbmm(Addmm):
    """:class:`~minigrad.ops.linalg.Addmm` on batches of matrices (PyTorch's
    ``BaddbmmBackward0``): the same forward and backward, with ``@`` batched."""

    saved_names = ("batch1", "batch2")
    node_name = "BaddbmmBackward0"


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):  # noqa: A002
    """``beta * input + alpha * (batch1 @ batch2)`` for (b, n, m) and (b, m, p) batches,
    ``input`` broadcast to (b, n, p) (``torch.baddbmm``)."""
    for i, (name, t) in enumerate(zip(("input", "batch1", "batch2"), (input, batch1, batch2))):
        check_tensor(t, "baddbmm", name, i + 1)
    for name, t in (("batch1", batch1), ("batch2", batch2)):
        if t.ndim != 3:
            raise RuntimeError(f"{name} must be a 3D tensor, got {t.ndim}D")
    (b, n, m), (b2, m2, p) = batch1.shape, batch2.shape
    if b != b2 or m != m2:
        raise RuntimeError(
            f"baddbmm: batch1 {list(batch1.shape)} and batch2 {list(batch2.shape)} do not "
            "multiply: they need the same batch size and batch1's columns = batch2's rows"
        )
    _check_expands_to(input.shape, (b, n, p))
    if not batch2.dtype.is_floating_point:
        beta, alpha = int(beta), int(alpha)
    return Baddbmm.apply(input, batch1, batch2, beta=beta, alpha=alpha)


# --- trace, cross ------------------------------------------------------------------------------
class Trace(Op):
    """Sum of a matrix's diagonal; grad = g on the diagonal, 0 elsewhere."""

    @staticmethod
    def forward(ctx, a):
        ctx.shape = a.shape
        out = np.trace(a)
        return np.asarray(out, dtype=np.int64 if a.dtype.kind in "biu" else a.dtype)

    @staticmethod
    def backward(ctx, g):
        eye = make(np.eye(*ctx.shape, dtype=g._data.dtype), False, None)
        return eye * g

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule (linear op): the trace of the tangent."""
        return Trace.apply(tangents[0])


def trace(input):  # noqa: A002
    """The sum of a matrix's diagonal (``torch.trace``, ``Tensor.trace``); 2-D input only."""
    check_tensor(input, "trace")
    if input.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.ndim}")
    return Trace.apply(input)


def _cross_np(a, b, dim):
    return np.cross(a, b, axis=dim)


class LinalgCross(_Binary):
    """a x b along ``dim`` (size 3); grad_a = b x g, grad_b = g x a."""

    save_inputs = True
    saved_names = ("self", "other")
    saved_values = {"dim": lambda ctx: ctx.dim}

    @staticmethod
    def forward(ctx, a, b, dim):
        _Binary.prepare(ctx, a, b)
        ctx.dim = dim
        return np.asarray(_cross_np(a, b, dim))

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        d = ctx.dim
        ga = LinalgCross.apply(*_broadcast(b, g), dim=d)
        gb = LinalgCross.apply(*_broadcast(g, a), dim=d)
        return sum_to(ga, ctx.sa, ctx.da), sum_to(gb, ctx.sb, ctx.db)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a x b + a x t_b."""
        (a, b), (ta, tb), d = inputs, tangents, params["dim"]
        parts = []
        if ta is not None:
            parts.append(LinalgCross.apply(*_broadcast(ta, b), dim=d))
        if tb is not None:
            parts.append(LinalgCross.apply(*_broadcast(a, tb), dim=d))
        return parts[0] if len(parts) == 1 else parts[0] + parts[1]


def _broadcast(a: Tensor, b: Tensor) -> tuple:
    shape = broadcast_shapes(a.shape, b.shape, "cross")
    return tuple(t if t.shape == shape else t.expand(*shape) for t in (a, b))


def cross(input, other, dim=None):  # noqa: A002
    """The cross product of 3-vectors along ``dim`` (``torch.cross``, ``torch.linalg.cross``
    whose default dim is -1); ``dim=None`` takes the first dim of size 3, as ``torch.cross``."""
    check_tensor(input, "cross")
    check_tensor(other, "cross", "other", 2)
    input, other = _operands(input, other, "cross")  # noqa: A001
    shape = broadcast_shapes(input.shape, other.shape, "cross")
    if dim is None:
        dim = next((i for i, n in enumerate(shape) if n == 3), -1)
    d = norm_dim(dim, len(shape))
    if not shape or shape[d] != 3:
        raise RuntimeError(
            f"linalg.cross: inputs dimension {dim} must have length 3. Got "
            f"{input.shape[d] if input.ndim > d else 1} and {other.shape[d] if other.ndim > d else 1}"
        )
    return LinalgCross.apply(input, other, dim=d - len(shape))


# --- sinc, exp2, logaddexp2, sgn ------------------------------------------------------------------
class Sinc(Elementwise):
    """sin(pi x) / (pi x), 1 at 0; grad = g (cos(pi x) - sinc(x)) / x, 0 at x = 0."""

    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        return np.asarray(np.sinc(as_float(a)))

    @staticmethod
    def derivative(v, a):
        zero = a == 0
        s = where(zero, 1.0, a)  # no division by 0 where the slope is set to 0 anyway
        ps = s * math.pi
        return v * where(zero, 0.0, (ps * ps.cos() - ps.sin()) / (ps * s))


class Exp2(Elementwise):
    """2 ** x; grad = g * 2 ** x * log 2."""

    save_output = True
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, a):
        return np.asarray(np.exp2(as_float(a)))

    @staticmethod
    def derivative(v, out):
        return v * out * math.log(2.0)


class Logaddexp2(LogAddExp):
    """log2(2**a + 2**b); grad_a = g * sigmoid((a - b) log 2) (the share of 2**a)."""

    node_name = "Logaddexp2Backward0"

    @staticmethod
    def forward(ctx, a, b):
        _Binary.prepare(ctx, a, b)
        return np.asarray(np.logaddexp2(a, b))

    @staticmethod
    def derivative(va, vb, a, b):
        d = (a - b) * math.log(2.0)
        return (None if va is None else va * d.sigmoid()), (
            None if vb is None else vb * (-d).sigmoid()
        )

    @staticmethod
    def backward(ctx, g):
        ga, gb = Logaddexp2.derivative(g, g, *ctx.saved_tensors)
        return sum_to(ga, ctx.sa, ctx.da), sum_to(gb, ctx.sb, ctx.db)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        da, db = Logaddexp2.derivative(*tangents, *inputs)
        return db if da is None else da if db is None else da + db


def logaddexp2(input, other):  # noqa: A002
    """log2(2**input + 2**other) elementwise, stably (``torch.logaddexp2``)."""
    check_tensor(input, "logaddexp2")
    input, other = _operands(input, other, "logaddexp2")  # noqa: A001
    if input._data.dtype.kind != "f":
        input, other = input.to(_dtype.defaults.float_dtype), other.to(_dtype.defaults.float_dtype)  # noqa: A001
    return Logaddexp2.apply(input, other)


class Sgn(Sign):
    """``torch.sgn``: the sign for real tensors (PyTorch's name for its complex-aware form)."""


# --- index helpers: no gradient -------------------------------------------------------------------
def _tri_indices(row, col, offset, lower, dtype, device):
    rows, cols = (np.tril_indices if lower else np.triu_indices)(row, offset, col)
    want = _dtype.int64 if dtype is None else _dtype.as_dtype(dtype)
    return make(np.stack([rows, cols]).astype(want.np), False, None)


def tril_indices(row: int, col: int, offset: int = 0, *, dtype=None, device=None):
    """The (2, n) row and column indices of the lower triangle of a row x col matrix
    (``torch.tril_indices``), in row-major order; ``offset`` shifts the diagonal."""
    return _tri_indices(row, col, offset, True, dtype, device)


def triu_indices(row: int, col: int, offset: int = 0, *, dtype=None, device=None):
    """The indices of the upper triangle (``torch.triu_indices``), as :func:`tril_indices`."""
    return _tri_indices(row, col, offset, False, dtype, device)


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None):  # noqa: A002
    """For each value of ``input``, where it would go in ``sorted_sequence`` (sorted along its
    last dim) to keep it sorted (``torch.searchsorted``): the first such place, or the last
    with ``right=True`` (``side='right'``). No gradient."""
    check_tensor(sorted_sequence, "searchsorted", "sorted_sequence", 1)
    side = side or ("right" if right else "left")
    seq = sorted_sequence._data
    if sorter is not None:
        seq = np.take_along_axis(seq, sorter._data, axis=-1)
    values = input._data if isinstance(input, Tensor) else np.asarray(input)
    if seq.ndim <= 1:
        out = np.searchsorted(seq, values, side=side)
    else:
        if seq.shape[:-1] != values.shape[:-1]:
            raise RuntimeError(
                "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                f"dimensions of boundaries tensor and input value tensor must match, but we got "
                f"boundaries tensor {list(seq.shape)} and input value tensor {list(values.shape)}"
            )
        rows = [np.searchsorted(s, v, side=side) for s, v in zip(seq.reshape(-1, seq.shape[-1]),
                                                                 values.reshape(-1, values.shape[-1]))]  # fmt: skip
        out = np.stack(rows).reshape(values.shape) if rows else np.zeros(values.shape, np.int64)
    return make(np.asarray(out, np.int32 if out_int32 else np.int64), False, None)


def bucketize(input, boundaries, *, out_int32=False, right=False):  # noqa: A002
    """The bucket of each value of ``input`` among the 1-D sorted ``boundaries``
    (``torch.bucketize``): i with boundaries[i-1] < x <= boundaries[i] (``right=False``), or
    boundaries[i-1] <= x < boundaries[i] (``right=True``). No gradient."""
    check_tensor(boundaries, "bucketize", "boundaries", 2)
    if boundaries.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries.ndim})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)
