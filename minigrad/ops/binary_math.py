"""Elementwise binary math beyond + - * / **: maximum, minimum, logaddexp, remainder, fmod,
and lerp.

Both operands must be tensors (PyTorch refuses a Python number here too); they are
promoted to one dtype and broadcast, and each gradient is summed back to its operand's
shape with :func:`~minigrad.ops.shape.sum_to`, as in :mod:`.arith`.
"""

from __future__ import annotations

import numpy as np

from .. import _dtype, errors
from ..errors import tensor_ops as _errors
from ..recording.function import Op
from ..tensor import Tensor, has_sparse_layout
from ._util import Elementwise, NoDerivative, broadcast_shapes, check_tensor, result_dtype
from .arith import _Binary, _scalar_out
from .select import where
from .shape import sum_to


def _shares(va, vb, a, b, larger: bool):
    """``va`` and ``vb`` times each operand's share of the gradient of maximum (``larger``)
    or minimum: all where it wins, 1/2 at a tie (PyTorch splits it evenly), PyTorch's masked
    +0.0 where it loses (not v * 0, which is -0.0 for a negative v and NaN for a NaN). Built
    from comparisons (ops, so a traced program keeps them); at a NaN both get all of it."""
    lose_a, lose_b = (a < b, b < a) if larger else (a > b, b > a)
    tie = a == b
    out = []
    for v, lose in ((va, lose_a), (vb, lose_b)):
        out.append(None if v is None else where(lose, 0.0, where(tie, v * 0.5, v)))
    return tuple(out)


class Maximum(_Binary):
    """Elementwise max: f(a, b) = max(a, b); grad_a = g where a > b, g/2 at ties, else 0.

    One ``derivative`` serves backward and jvp: the Jacobian is diagonal, so g J (backward)
    and J t (jvp) are the same elementwise product."""

    elementwise = True
    larger = True
    reducer = staticmethod(np.maximum)

    save_inputs = True
    saved_names = ("self", "other")

    @classmethod
    def forward(cls, ctx, a, b):
        _Binary.prepare(ctx, a, b)
        return np.asarray(cls.reducer(a, b))

    @classmethod
    def derivative(cls, va, vb, a, b):
        """``(va * share_a, vb * share_b)``, None for a v that is None: va and vb are the
        gradient (backward: both g) or the operands' tangents (jvp)."""
        return _shares(va, vb, a, b, cls.larger)

    @classmethod
    def backward(cls, ctx, g):
        ga, gb = cls.derivative(g, g, *ctx.saved_tensors)
        return sum_to(ga, ctx.sa, ctx.da), sum_to(gb, ctx.sb, ctx.db)

    @classmethod
    def jvp(cls, params, inputs, tangents, out):
        """Forward rule: t_out = t_a * share_a + t_b * share_b (shares as in backward)."""
        da, db = cls.derivative(*tangents, *inputs)
        return db if da is None else da if db is None else da + db


class Minimum(Maximum):
    """Elementwise min: f(a, b) = min(a, b); grad_a = g where a < b, g/2 at ties, else 0."""

    larger = False
    reducer = staticmethod(np.minimum)


class LogAddExp(_Binary):
    """log(e**a + e**b), computed as m + log1p(e**-|a - b|) with m = max(a, b);
    grad_a = g * sigmoid(a - b), grad_b = g * sigmoid(b - a).

    One ``derivative`` serves backward and jvp: the Jacobian is diagonal, so g J (backward)
    and J t (jvp) are the same elementwise product."""

    node_name = "LogaddexpBackward0"
    elementwise = True

    save_inputs = True
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        _Binary.prepare(ctx, a, b)
        return np.asarray(np.logaddexp(a, b))  # numpy's is the stable form above

    @staticmethod
    def derivative(va, vb, a, b):
        """``(va * sigmoid(a - b), vb * sigmoid(b - a))``, None for a v that is None: va and vb
        are the gradient (backward: both g) or the operands' tangents (jvp)."""
        d = a - b
        return (None if va is None else va * d.sigmoid()), (
            None if vb is None else vb * (-d).sigmoid()
        )

    @staticmethod
    def backward(ctx, g):
        ga, gb = LogAddExp.derivative(g, g, *ctx.saved_tensors)
        return sum_to(ga, ctx.sa, ctx.da), sum_to(gb, ctx.sb, ctx.db)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a * sigmoid(a - b) + t_b * sigmoid(b - a)."""
        da, db = LogAddExp.derivative(*tangents, *inputs)
        return db if da is None else da if db is None else da + db


def _operands(input, other, name):  # noqa: A002
    if not isinstance(other, Tensor):
        raise TypeError(_errors.NEED_TENSOR_OTHER.format(op=name, got=type(other).__name__))
    if has_sparse_layout(other):
        raise NotImplementedError(other._no_kernel(name))
    broadcast_shapes(input.shape, other.shape, name)
    if input._data.dtype != other._data.dtype:
        d = result_dtype(input, other)
        input, other = input.to(d), other.to(d)
    return input, other


def maximum(input, other):  # noqa: A002  (PyTorch's names)
    """Elementwise maximum of two tensors, broadcasting (``torch.maximum``).

    At a tie the gradient is split evenly between the two, as PyTorch does.

    Example:
        >>> import minigrad as mg
        >>> x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
        >>> mg.maximum(x, mg.tensor([2.0, 2.0, 2.0])).sum().backward()
        >>> x.grad
        tensor([0.0000, 0.5000, 1.0000])
    """
    return Maximum.apply(*_operands(input, other, "maximum"))


def minimum(input, other):  # noqa: A002
    """Elementwise minimum of two tensors, broadcasting; ties split the gradient
    (``torch.minimum``)."""
    return Minimum.apply(*_operands(input, other, "minimum"))


def logaddexp(input, other):  # noqa: A002
    """log(exp(input) + exp(other)) elementwise, finite at +-1000 (``torch.logaddexp``);
    floating tensors only (PyTorch has no integer kernel)."""
    input, other = _operands(input, other, "logaddexp")
    if input._data.dtype.kind != "f":
        raise NotImplementedError(_errors.NOT_FLOAT.format(op="logaddexp", got=input.dtype))
    return LogAddExp.apply(input, other)


class SquaredDifference(_Binary):
    """Squared difference: f(a, b) = (a - b)^2; grad_a = 2(a - b)g, grad_b = 2(b - a)g.

    ``mse_loss``'s elementwise term, as PyTorch's ``mse_loss_backward`` differentiates it:
    each operand's gradient is written from its own side, so a zero residual gives +0.0 to
    both (the composite ``-(2(a - b)g)`` would give the target -0.0)."""

    node_name = "MseLossBackward0"

    save_inputs = True
    saved_names = ("self", "target")

    @staticmethod
    def forward(ctx, a, b):
        _Binary.prepare(ctx, a, b)
        d = a - b
        return d * d

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        g2 = g * 2.0
        return sum_to(g2 * (a - b), ctx.sa, ctx.da), sum_to(g2 * (b - a), ctx.sb, ctx.db)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule, PyTorch's (each side's own): t_out = 2(a - b) t_a + 2(b - a) t_b."""
        (a, b), (ta, tb) = inputs, tangents
        parts = [t * 2.0 * (u - v) for t, u, v in ((ta, a, b), (tb, b, a)) if t is not None]
        return parts[0] + parts[1] if len(parts) == 2 else parts[0]


def squared_difference(a: Tensor, b: Tensor) -> Tensor:
    """(a - b)^2 elementwise, broadcasting, in the promoted dtype (``mse_loss``'s term)."""
    if a.shape != b.shape:
        broadcast_shapes(a.shape, b.shape, "mse_loss")
    if a.dtype is not b.dtype:
        d = result_dtype(a, b)
        a, b = a.to(d), b.to(d)
    return SquaredDifference.apply(a, b)


# --- remainder and fmod: a - b * floor(a / b) and a - b * trunc(a / b) ------------------------
def _no_integer_zero(a: np.ndarray, b) -> None:
    """PyTorch's RuntimeError for an integer remainder by zero (numpy would warn and give 0)."""
    if a.dtype.kind in "biu" and np.asarray(b).dtype.kind in "biu" and np.any(np.asarray(b) == 0):
        raise RuntimeError("ZeroDivisionError")


def _remainder(a, b):
    """PyTorch's remainder kernel: fmod, then plus b where the signs of the two differ (so a
    zero result keeps fmod's sign: -5 % 2.5 is -0.0, where numpy's remainder gives 0.0)."""
    m = np.fmod(a, b)
    return np.where((m != 0) & ((m < 0) != (np.asarray(b) < 0)), m + b, m)


class RemainderScalar(Elementwise):
    """a mod c for a number c, the result with c's sign (Python's ``%``); grad = g (the jumps
    are not marked, as in PyTorch)."""

    node_name = "RemainderBackward0"
    kernel = staticmethod(_remainder)

    @classmethod
    def forward(cls, ctx, a, value):
        _no_integer_zero(a, value)
        with np.errstate(divide="ignore", invalid="ignore"):
            return _scalar_out(a, value, np.asarray(cls.kernel(a, value)))

    @staticmethod
    def derivative(v):
        """``v``: the derivative is 1 between the jumps; v is the gradient or the tangent."""
        return v


class FmodScalar(RemainderScalar):
    """a mod c for a number c, the result with a's sign (C's ``fmod``); grad = g."""

    node_name = "FmodBackward0"
    kernel = staticmethod(np.fmod)


class Remainder(_Binary):
    """a mod b with b's sign: a - b * floor(a / b); grad_a = g, grad_b = -g * floor(a / b).

    One ``derivative`` serves backward and jvp (the Jacobian is diagonal)."""

    node_name = "RemainderBackward1"
    elementwise = True
    kernel = staticmethod(_remainder)
    rounding = "floor"  # how a / b becomes the whole number of b taken away

    save_inputs = True
    saved_names = ("self", "other")

    @classmethod
    def forward(cls, ctx, a, b):
        _Binary.prepare(ctx, a, b)
        _no_integer_zero(a, b)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.asarray(cls.kernel(a, b))

    @classmethod
    def derivative(cls, va, vb, a, b):
        """``(va, -vb * q)`` with q = a / b rounded (floor or trunc), None for a v that is None:
        va and vb are the gradient (backward: both g) or the operands' tangents (jvp)."""
        q = getattr(a / b, cls.rounding)()
        return va, (None if vb is None else -vb * q)

    @classmethod
    def backward(cls, ctx, g):
        ga, gb = cls.derivative(g, g, *ctx.saved_tensors)
        return sum_to(ga, ctx.sa, ctx.da), sum_to(gb, ctx.sb, ctx.db)

    @classmethod
    def jvp(cls, params, inputs, tangents, out):
        """Forward rule: t_out = t_a - t_b * q."""
        da, db = cls.derivative(*tangents, *inputs)
        return db if da is None else da if db is None else da + db


class Fmod(Remainder):
    """a mod b with a's sign: a - b * trunc(a / b); grad_a = g, grad_b = -g * trunc(a / b)."""

    node_name = "FmodBackward1"
    kernel = staticmethod(np.fmod)
    rounding = "trunc"


def _modulo(tensor_op, scalar_op, input, other, name):  # noqa: A002
    check_tensor(input, name)
    if has_sparse_layout(input):
        raise NotImplementedError(input._no_kernel(name))
    if type(other) in (int, float, bool):
        return scalar_op.apply(input, value=other)
    if not isinstance(other, Tensor):
        raise TypeError(errors.MODULO_OTHER.format(op=name, got=type(other).__name__))
    if result_dtype(input, other) is _dtype.bool_:
        raise NotImplementedError(
            errors.NOT_FOR_DTYPE.format(op=name, got=_dtype.bool_, accepted="numbers")
        )
    return tensor_op.apply(*_operands(input, other, name))


def number_remainder(number, other: Tensor) -> Tensor:
    """``number % tensor`` and ``torch.remainder(number, tensor)``: PyTorch's
    ``remainder.Scalar_Tensor``, which has no derivative: a result that requires grad gets
    the ``NotImplemented`` node, whose backward raises as PyTorch's."""
    check_tensor(other, "remainder", "other", 2)
    if has_sparse_layout(other):
        raise NotImplementedError(other._no_kernel("remainder"))
    want = _dtype.promote_with_scalar(other.dtype, number)
    if want is _dtype.bool_:
        raise NotImplementedError(
            errors.NOT_FOR_DTYPE.format(op="remainder", got=_dtype.bool_, accepted="numbers")
        )

    def kernel(b):
        a = np.asarray(number, dtype=want.np)
        _no_integer_zero(a, b)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.asarray(_remainder(a, b.astype(want.np, copy=False)), dtype=want.np)

    return NoDerivative.apply(other, kernel=kernel, op="remainder")


def remainder(input, other):  # noqa: A002  (PyTorch's names)
    """Elementwise remainder with the divisor's sign, as Python's ``%`` (``torch.remainder``):
    ``input - other * floor(input / other)``; ``other`` a tensor (broadcasting) or a number.
    ``input`` may be a number when ``other`` is a tensor (``2 % x``): as in PyTorch, that
    form has no gradient (backward through it raises).

    Example:
        >>> import minigrad as mg
        >>> mg.remainder(mg.tensor([5.0, -5.0]), 3)
        tensor([2., 1.])
        >>> mg.tensor([5.0, -5.0]) % -3
        tensor([-1., -2.])
    """
    if type(input) in (int, float, bool) and isinstance(other, Tensor):
        return number_remainder(input, other)
    return _modulo(Remainder, RemainderScalar, input, other, "remainder")


def fmod(input, other):  # noqa: A002
    """Elementwise remainder with the dividend's sign, as C's ``fmod`` (``torch.fmod``):
    ``input - other * trunc(input / other)``.

    Example:
        >>> import minigrad as mg
        >>> mg.fmod(mg.tensor([5.0, -5.0]), 3)
        tensor([ 2., -2.])
    """
    return _modulo(Fmod, FmodScalar, input, other, "fmod")


# --- lerp: start + weight * (end - start) ----------------------------------------------------
def _lerp(a, b, w):
    """PyTorch's kernel: from the nearer end, so weight 1 gives exactly ``end``."""
    with np.errstate(invalid="ignore", over="ignore"):
        return np.asarray(np.where(np.abs(w) < 0.5, a + w * (b - a), b - (b - a) * (1 - w)))


class LerpScalar(Op):
    """Linear interpolation with a number weight w: f = a + w (b - a);
    grad_a = g (1 - w), grad_b = g w."""

    node_name = "LerpBackward0"
    elementwise = True
    saved_values = {"weight": lambda ctx: ctx.weight}

    @staticmethod
    def forward(ctx, a, b, weight):
        _Binary.prepare(ctx, a, b)
        ctx.weight = weight
        return _lerp(a, b, weight).astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        w = ctx.weight
        return sum_to(g * (1.0 - w), ctx.sa, ctx.da), sum_to(g * w, ctx.sb, ctx.db)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a (1 - w) + t_b w."""
        (ta, tb), w = tangents, params["weight"]
        da = None if ta is None else ta * (1.0 - w)
        db = None if tb is None else tb * w
        return db if da is None else da if db is None else da + db


class Lerp(Op):
    """Linear interpolation with a tensor weight w: f = a + w (b - a);
    grad_a = g (1 - w), grad_b = g w, grad_w = g (b - a)."""

    node_name = "LerpBackward1"
    elementwise = True
    save_inputs = True
    saved_names = ("self", "end", "weight")

    @staticmethod
    def forward(ctx, a, b, w):
        ctx.shapes = (a.shape, b.shape, w.shape)
        ctx.dtype = _dtype._FROM_NP[a.dtype]
        return _lerp(a, b, w)

    @staticmethod
    def backward(ctx, g):
        a, b, w = ctx.saved_tensors
        sa, sb, sw = ctx.shapes
        d = ctx.dtype
        return sum_to(g * (1.0 - w), sa, d), sum_to(g * w, sb, d), sum_to(g * (b - a), sw, d)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a (1 - w) + t_b w + t_w (b - a)."""
        a, b, w = inputs
        parts = [t * f for t, f in zip(tangents, (1.0 - w, w, b - a)) if t is not None]
        total = parts[0]
        for p in parts[1:]:
            total = total + p
        return total


def lerp(input, end, weight):  # noqa: A002  (PyTorch's names)
    """``input + weight * (end - input)``, broadcasting (``torch.lerp``): ``weight`` a number
    or a tensor; all tensors floating point and of one dtype, as PyTorch requires.

    Example:
        >>> import minigrad as mg
        >>> mg.lerp(mg.tensor([0.0, 10.0]), mg.tensor([10.0, 20.0]), 0.25)
        tensor([ 2.5000, 12.5000])
    """
    check_tensor(input, "lerp")
    check_tensor(end, "lerp", "end", 2)
    operands = [input, end]
    if isinstance(weight, Tensor):
        operands.append(weight)
    elif isinstance(weight, bool) or not isinstance(weight, (int, float)):
        raise TypeError(errors.LERP_WEIGHT.format(got=type(weight).__name__))
    for t in operands:
        if has_sparse_layout(t):
            raise NotImplementedError(t._no_kernel("lerp"))
    if not input.dtype.is_floating_point:
        raise NotImplementedError(
            errors.NOT_FOR_DTYPE.format(op="lerp", got=input.dtype, accepted="floating point")
        )
    for name, t in zip(("end", "weight"), operands[1:]):
        if t.dtype is not input.dtype:
            raise RuntimeError(errors.LERP_DTYPE.format(want=input.dtype, name=name, got=t.dtype))
    shape = broadcast_shapes(input.shape, end.shape, "lerp")
    if len(operands) == 2:
        return LerpScalar.apply(input, end, weight=float(weight))
    broadcast_shapes(shape, weight.shape, "lerp")
    return Lerp.apply(input, end, weight)
