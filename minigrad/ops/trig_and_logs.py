"""Logs, exponentials, powers and trigonometry beyond :mod:`.unary`: log1p log2 log10 expm1
reciprocal rsqrt sinh cosh asin acos atan, and the binary atan2 hypot.

Integer and bool inputs follow PyTorch: these ops compute in the default float dtype
(``torch.log1p`` of an int64 tensor is float32), and so does ``atan2`` of two integer
tensors; ``hypot`` refuses integers, as PyTorch does. Rounding (floor, round, frac ...)
lives in :mod:`.rounding`.

Example:
    >>> import minigrad as mg
    >>> x = mg.tensor([1e-10, 1.0], requires_grad=True)
    >>> x.log1p()  # log(1 + 1e-10) without losing the 1e-10 to rounding
    tensor([1.0000e-10, 6.9315e-01], grad_fn=<Log1PBackward0>)
    >>> (x + 1).log()  # the naive way: 1 + 1e-10 is 1 in float32
    tensor([0.0000, 0.6931], grad_fn=<LogBackward0>)
    >>> x.log1p().sum().backward()
    >>> x.grad  # 1 / (1 + x)
    tensor([1.0000, 0.5000])
"""

from __future__ import annotations

import math

import numpy as np

from .. import _dtype, errors
from ..tensor import has_sparse_layout
from ._util import Elementwise, broadcast_shapes, check_tensor, result_dtype
from .arith import _Binary
from .select import where
from .shape import sum_to
from .unary import as_float


class Log1p(Elementwise):
    """log(1 + a), accurate for small a; grad = g / (1 + a)."""

    node_name = "Log1PBackward0"  # PyTorch's spelling

    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log1p(as_float(a))

    @staticmethod
    def derivative(v, a):
        """v / (1 + a): v is the gradient (backward) or the tangent (jvp)."""
        return v / (a + 1.0)


class Log2(Elementwise):
    """Base-2 log: log2 a = ln a / ln 2; grad = g / (a ln 2)."""

    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log2(as_float(a))

    @staticmethod
    def derivative(v, a):
        """v / (a ln 2): v is the gradient (backward) or the tangent (jvp)."""
        return v / (a * math.log(2))


class Log10(Elementwise):
    """Base-10 log: log10 a = ln a / ln 10; grad = g / (a ln 10)."""

    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log10(as_float(a))

    @staticmethod
    def derivative(v, a):
        """v / (a ln 10): v is the gradient (backward) or the tangent (jvp)."""
        return v / (a * math.log(10))


class Expm1(Elementwise):
    """e**a - 1, accurate for small a; grad = g * (out + 1)."""

    save_output = True
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, a):
        with np.errstate(over="ignore"):
            return np.expm1(as_float(a))

    @staticmethod
    def derivative(v, out):
        """v * (out + 1): v is the gradient (backward) or the tangent (jvp)."""
        return v * (out + 1.0)


class Reciprocal(Elementwise):
    """1 / a; grad = -g * out**2."""

    save_output = True
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, a):
        with np.errstate(divide="ignore"):
            return np.reciprocal(as_float(a))

    @staticmethod
    def derivative(v, out):
        """-v * out**2: v is the gradient (backward) or the tangent (jvp)."""
        return v * -(out * out)


class Rsqrt(Elementwise):
    """1 / sqrt(a); grad = -g * out**3 / 2."""

    save_output = True
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, a):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.reciprocal(np.sqrt(as_float(a)))

    @staticmethod
    def derivative(v, out):
        """-v * out**3 / 2: v is the gradient (backward) or the tangent (jvp)."""
        return v * out**3 * -0.5


class Sinh(Elementwise):
    """Hyperbolic sine: f(a) = sinh a; grad = g * cosh a."""

    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        with np.errstate(over="ignore"):
            return np.sinh(as_float(a))

    @staticmethod
    def derivative(v, a):
        """v * cosh a: v is the gradient (backward) or the tangent (jvp)."""
        return v * a.cosh()


class Cosh(Elementwise):
    """Hyperbolic cosine: f(a) = cosh a; grad = g * sinh a."""

    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        with np.errstate(over="ignore"):
            return np.cosh(as_float(a))

    @staticmethod
    def derivative(v, a):
        """v * sinh a: v is the gradient (backward) or the tangent (jvp)."""
        return v * a.sinh()


class Asin(Elementwise):
    """Arcsine: f(a) = asin a (nan outside [-1, 1]); grad = g / sqrt(1 - a**2)."""

    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        with np.errstate(invalid="ignore"):
            return np.arcsin(as_float(a))

    @staticmethod
    def derivative(v, a):
        """v / sqrt(1 - a**2): v is the gradient (backward) or the tangent (jvp)."""
        return v * (1.0 - a * a).rsqrt()


class Acos(Elementwise):
    """Arccosine: f(a) = acos a (nan outside [-1, 1]); grad = -g / sqrt(1 - a**2)."""

    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        with np.errstate(invalid="ignore"):
            return np.arccos(as_float(a))

    @staticmethod
    def derivative(v, a):
        """-v / sqrt(1 - a**2): v is the gradient (backward) or the tangent (jvp)."""
        return v * -(1.0 - a * a).rsqrt()


class Atan(Elementwise):
    """Arctangent: f(a) = atan a; grad = g / (1 + a**2)."""

    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        return np.arctan(as_float(a))

    @staticmethod
    def derivative(v, a):
        """v / (1 + a**2): v is the gradient (backward) or the tangent (jvp)."""
        return v / (a * a + 1.0)


# --- two operands, broadcasting -----------------------------------------------------------


class Atan2(_Binary):
    """Angle of the point (b, a): f(a, b) = atan2(a, b); grad_a = g*b/r2, grad_b = -g*a/r2,
    r2 = a**2 + b**2 (both gradients 0 at the origin, as PyTorch).

    One ``derivative`` serves backward and jvp: the Jacobian is diagonal, so g J (backward)
    and J t (jvp) are the same elementwise product."""

    elementwise = True

    save_inputs = True
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        _Binary.prepare(ctx, a, b)
        return np.arctan2(a, b)

    @staticmethod
    def derivative(va, vb, a, b):
        """``(va * b / r2, vb * -a / r2)``, None for a v that is None: va and vb are the
        gradient (backward: both g) or the operands' tangents (jvp)."""
        inv = _inverse_or_zero(a * a + b * b)
        return (None if va is None else va * b * inv), (None if vb is None else vb * -a * inv)

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        ga, gb = Atan2.derivative(g, g, a, b)
        return sum_to(ga, ctx.sa, ctx.da), sum_to(gb, ctx.sb, ctx.db)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = (t_a*b - a*t_b) / (a**2 + b**2)."""
        da, db = Atan2.derivative(*tangents, *inputs)
        return db if da is None else da if db is None else da + db


def _inverse_or_zero(r2):
    """1 / r2, and 0 where r2 = 0 (no inf is made, so nothing turns into nan downstream)."""
    zero = r2 == 0
    return where(zero, 0.0, 1.0 / where(zero, 1.0, r2))


class Hypot(_Binary):
    """Length of (a, b): f(a, b) = sqrt(a**2 + b**2) without overflow; grad_a = g*a/out,
    grad_b = g*b/out.

    backward and jvp are written apart: the jvp divides once, (t_a*a + t_b*b) / out, which
    rounds differently from backward's two quotients g*a/out and g*b/out."""

    elementwise = True

    save_inputs = True
    save_output = True
    saved_names = ("self", "other", "result")

    @staticmethod
    def forward(ctx, a, b):
        _Binary.prepare(ctx, a, b)
        return np.hypot(a, b)

    @staticmethod
    def backward(ctx, g):
        a, b, out = ctx.saved_tensors
        return sum_to(g * a / out, ctx.sa, ctx.da), sum_to(g * b / out, ctx.sb, ctx.db)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = (t_a*a + t_b*b) / out."""
        (a, b), (ta, tb) = inputs, tangents
        da = None if ta is None else ta * a
        db = None if tb is None else tb * b
        return (db if da is None else da if db is None else da + db) / out


def _operands(input, other, op: str):  # noqa: A002  (PyTorch names)
    """Both operands in their promoted dtype (``torch.result_type``), shapes checked."""
    check_tensor(input, op, "input", 1)
    check_tensor(other, op, "other", 2)
    for t in (input, other):
        if has_sparse_layout(t):
            raise NotImplementedError(t._no_kernel(op))
    d = result_dtype(input, other)
    if not d.is_floating_point:
        if op == "hypot":
            raise NotImplementedError(
                errors.NOT_FOR_DTYPE.format(op=op, got=d, accepted="floating point")
            )
        d = _dtype.defaults.float_dtype  # atan2 of integers: the default float dtype
    broadcast_shapes(input.shape, other.shape, op)
    return (t if t.dtype is d else t.to(d) for t in (input, other))


def atan2(input, other):  # noqa: A002
    """Elementwise angle of the point (other, input) in (-pi, pi], broadcasting
    (``torch.atan2``; the quadrant comes from both signs).

    Example:
        >>> import minigrad as mg
        >>> mg.atan2(mg.tensor([1.0, 1.0]), mg.tensor([1.0, -1.0])) / 3.14159265
        tensor([0.2500, 0.7500])
    """
    return Atan2.apply(*_operands(input, other, "atan2"))


def hypot(input, other):  # noqa: A002
    """Elementwise sqrt(input**2 + other**2), broadcasting, without overflow
    (``torch.hypot``; floating point operands only)."""
    return Hypot.apply(*_operands(input, other, "hypot"))
