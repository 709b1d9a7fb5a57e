"""More of PyTorch's math names, each recorded as the one node PyTorch records:
``addcmul addcdiv`` (the update of hand-written optimizers: ``p.addcdiv_(m, v.sqrt() + eps,
value=-lr)``), ``baddbmm`` (attention scores), ``trace``, ``cross`` (``linalg.cross``),
``sinc exp2 logaddexp2 sgn tan asinh acosh atanh deg2rad rad2deg lgamma digamma polygamma
fmax fmin copysign float_power``; and the index helpers without gradient ``tril_indices
triu_indices bucketize searchsorted``.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _dtype
from ..recording.function import Op
from ..tensor import Tensor
from ._util import Elementwise, broadcast_shapes, check_tensor, make, norm_dim, refuse_dtype
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
    refuse_dtype(input._data, "trace", "b", "number")
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


# --- tan, the inverse hyperbolic functions, degrees and radians -----------------------------------
class Tan(Elementwise):
    """tan x; grad = g (1 + tan^2 x) (PyTorch's form, from the result)."""

    save_output = True
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, a):
        return np.asarray(np.tan(as_float(a)))

    @staticmethod
    def derivative(v, out):
        return v * (out * out + 1.0)


class Asinh(Elementwise):
    """asinh x; grad = g / sqrt(x^2 + 1)."""

    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        return np.asarray(np.arcsinh(as_float(a)))

    @staticmethod
    def derivative(v, a):
        return v * (a * a + 1.0).rsqrt()


class Acosh(Elementwise):
    """acosh x (NaN below 1); grad = g / sqrt(x^2 - 1)."""

    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        with np.errstate(invalid="ignore"):
            return np.asarray(np.arccosh(as_float(a)))

    @staticmethod
    def derivative(v, a):
        return v * (a * a - 1.0).rsqrt()


class Atanh(Elementwise):
    """atanh x (NaN outside [-1, 1]); grad = g / (1 - x^2)."""

    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.asarray(np.arctanh(as_float(a)))

    @staticmethod
    def derivative(v, a):
        return v * (1.0 - a * a).reciprocal()


class Deg2Rad(Elementwise):
    """x * pi / 180; grad = g * pi / 180."""

    @staticmethod
    def forward(ctx, a):
        a = as_float(a)
        return np.asarray(a * a.dtype.type(math.pi / 180))

    @staticmethod
    def derivative(v):
        return v * (math.pi / 180)


class Rad2Deg(Elementwise):
    """x * 180 / pi; grad = g * 180 / pi."""

    @staticmethod
    def forward(ctx, a):
        a = as_float(a)
        return np.asarray(a * a.dtype.type(180 / math.pi))

    @staticmethod
    def derivative(v):
        return v * (180 / math.pi)


# --- lgamma, digamma, polygamma: each one's derivative is the next ---------------------------------
def _scipy_special():
    import scipy.special  # heavy: loaded on first use, as ops/special.py does

    return scipy.special


class Lgamma(Elementwise):
    """log |Gamma(x)|; grad = g * digamma(x)."""

    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        x = as_float(a)
        return np.asarray(_scipy_special().gammaln(x)).astype(x.dtype, copy=False)  # f16 too

    @staticmethod
    def derivative(v, a):
        return v * Digamma.apply(a)


class Digamma(Elementwise):
    """digamma x = d lgamma / dx; grad = g * polygamma(1, x)."""

    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        a = as_float(a)
        with np.errstate(divide="ignore", invalid="ignore"):
            out = _scipy_special().digamma(a)
        # PyTorch: -inf at +0.0 and +inf at -0.0 (scipy: nan for both)
        return np.asarray(np.where(a == 0, -np.copysign(np.inf, a), out), dtype=a.dtype)

    @staticmethod
    def derivative(v, a):
        return v * Polygamma.apply(a, n=1)


class Polygamma(Elementwise):
    """polygamma(n, x), the n-th derivative of digamma; grad = g * polygamma(n + 1, x)."""

    save_inputs = True
    saved_names = ("self",)
    saved_values = {"n": lambda ctx: ctx.n}
    number_param = "n"

    @staticmethod
    def forward(ctx, a, n):
        ctx.n = n
        a = as_float(a)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.asarray(_scipy_special().polygamma(n, a), dtype=a.dtype)

    @staticmethod
    def derivative(v, a, n):
        return v * Polygamma.apply(a, n=n + 1)


def polygamma(n: int, input):  # noqa: A002
    """The n-th derivative of digamma (``torch.polygamma``; n = 0 is digamma)."""
    check_tensor(input, "polygamma", "input", 2)
    if n == 0:
        return Digamma.apply(input)
    return Polygamma.apply(input, n=int(n))


# --- fmax, fmin, copysign, float_power ---------------------------------------------------------------
class Fmax(_Binary):
    """max(a, b) ignoring NaN (the other value wins; NaN only where both are); grad goes to
    the chosen one (``a`` at ties, as PyTorch's ``a >= b`` mask)."""

    save_inputs = True
    saved_names = ("self", "other")
    larger = True

    @classmethod
    def forward(cls, ctx, a, b):
        _Binary.prepare(ctx, a, b)
        return np.asarray((np.fmax if cls.larger else np.fmin)(a, b))

    @classmethod
    def _takes_a(cls, a, b):
        keep = (a >= b) if cls.larger else (a <= b)
        return keep | (b != b)  # b NaN: a is taken

    @classmethod
    def backward(cls, ctx, g):
        a, b = ctx.saved_tensors
        take_a = cls._takes_a(a, b)
        return sum_to(where(take_a, g, 0.0), ctx.sa, ctx.da), sum_to(
            where(take_a, 0.0, g), ctx.sb, ctx.db
        )

    @classmethod
    def jvp(cls, params, inputs, tangents, out):
        """Forward rule: the tangent of the operand chosen."""
        take_a = cls._takes_a(*inputs)
        ta, tb = (t if t is not None else 0.0 for t in tangents)
        return where(take_a, ta, tb)


class Fmin(Fmax):
    """min(a, b) ignoring NaN (see :class:`Fmax`)."""

    larger = False


class Copysign(_Binary):
    """|a| with b's sign; grad_a = g * sign(a) * sign-of-b (0 at a = 0), grad_b = 0."""

    save_inputs = True
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        _Binary.prepare(ctx, a, b)
        return np.asarray(np.copysign(a, b))

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        out = Copysign.apply(a, b)
        slope = where(a == 0, 0.0, out / where(a == 0, 1.0, a))  # PyTorch: copysign(a,b)/a
        zeros = make(np.zeros(ctx.sb, g._data.dtype), False, None)
        return sum_to(g * slope, ctx.sa, ctx.da), zeros.to(ctx.db)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        a = inputs[0]
        slope = where(a == 0, 0.0, out / where(a == 0, 1.0, a))
        return tangents[0] * slope if tangents[0] is not None else out * 0.0


class CopysignScalar(Elementwise):
    """copysign(a, c) for a number c (PyTorch's ``CopysignBackward1``); grad as
    :class:`Copysign`'s."""

    node_name = "CopysignBackward1"
    save_inputs = True
    save_output = True
    saved_names = ("self", "result")
    number_param = "value"

    @staticmethod
    def forward(ctx, a, value):
        ctx.value = value
        a = as_float(a)
        return np.asarray(np.copysign(a, a.dtype.type(value)))

    @staticmethod
    def derivative(v, a, out, c):
        return v * where(a == 0, 0.0, out / where(a == 0, 1.0, a))


def _float_operands(op, input, other):  # noqa: A002
    check_tensor(input, op)
    input, other = _operands(input, other, op)  # noqa: A001
    if input._data.dtype.kind != "f":
        d = _dtype.defaults.float_dtype
        input, other = input.to(d), other.to(d)  # noqa: A001
    return input, other


def fmax(input, other):  # noqa: A002
    """Elementwise maximum ignoring NaN (``torch.fmax``)."""
    return Fmax.apply(*_operands(input, other, "fmax"))


def fmin(input, other):  # noqa: A002
    """Elementwise minimum ignoring NaN (``torch.fmin``)."""
    return Fmin.apply(*_operands(input, other, "fmin"))


def copysign(input, other):  # noqa: A002
    """|input| with the sign of ``other`` (``torch.copysign``); floating result."""
    if not isinstance(other, Tensor):
        check_tensor(input, "copysign")
        return CopysignScalar.apply(input, value=float(other))
    return Copysign.apply(*_float_operands("copysign", input, other))


def float_power(input, exponent):  # noqa: A002
    """``input ** exponent`` computed in float64 (``torch.float_power``)."""
    check_tensor(input, "float_power")
    base = input.to(_dtype.float64)
    if isinstance(exponent, Tensor):
        exponent = exponent.to(_dtype.float64)
    return base**exponent


# --- hardshrink, softshrink: zero inside [-lambd, lambd] ------------------------------------------
class Hardshrink(Elementwise):
    """x where |x| > lambd, else 0; grad = g where |x| > lambd, else 0."""

    save_inputs = True
    saved_names = ("self",)
    saved_values = {"lambd": lambda ctx: ctx.lambd}
    number_param = "lambd"

    @staticmethod
    def forward(ctx, a, lambd):
        ctx.lambd = lambd
        return np.where((a >= -lambd) & (a <= lambd), a.dtype.type(0), a)

    @staticmethod
    def derivative(v, a, lambd):
        return where((a >= -lambd) & (a <= lambd), 0.0, v)


class Softshrink(Hardshrink):
    """x - lambd above lambd, x + lambd below -lambd, else 0; grad as :class:`Hardshrink`'s."""

    @staticmethod
    def forward(ctx, a, lambd):
        ctx.lambd = lambd
        shrunk = np.where(a > lambd, a - lambd, np.where(a < -lambd, a + lambd, 0))
        return np.asarray(shrunk, dtype=a.dtype)
