"""Elementwise math: exp log sqrt sin cos tanh sigmoid relu abs clamp.

Where PyTorch has a dedicated backward kernel (``tanh_backward``,
``sigmoid_backward``, ``threshold_backward``) we do the same: the gradient is
computed by one fused op whose own backward is written with differentiable
ops, so ``create_graph=True`` still works and the common path stays fast.
"""

from __future__ import annotations

import functools

import numpy as np

from .. import _dtype, errors
from ..recording.function import Op
from ..tensor import Tensor
from ._util import Elementwise, broadcast_shapes, refuse_dtype
from .select import where
from .shape import sum_to


def as_float(a: np.ndarray) -> np.ndarray:
    """``a`` itself if it is floating point; an integer or bool array in the default float
    dtype, as PyTorch promotes for exp, log, sin, ... (``torch.exp`` of int64 is float32)."""
    if a.dtype.kind != "f":
        return a.astype(_dtype.defaults.float_dtype.np)
    return a


class Exp(Elementwise):
    """Exponential: f(a) = e**a; grad = g * f(a)."""

    save_output = True
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, a):
        a = as_float(a)
        with np.errstate(over="ignore"):
            return np.exp(a)

    @staticmethod
    def derivative(v, out):
        """v * exp'(a) = v * out: v is the gradient (backward) or the tangent (jvp)."""
        return v * out


class Log(Elementwise):
    """Natural log: f(a) = ln a; grad = g / a."""

    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        a = as_float(a)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log(a)

    @staticmethod
    def derivative(v, a):
        """v * log'(a) = v / a: v is the gradient (backward) or the tangent (jvp)."""
        return v / a


class Sqrt(Elementwise):
    """Square root: f(a) = sqrt(a); grad = g / (2 sqrt(a))."""

    save_output = True
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, a):
        a = as_float(a)
        with np.errstate(invalid="ignore"):
            return np.sqrt(a)

    @staticmethod
    def derivative(v, out):
        """v * sqrt'(a) = v / (2 out): v is the gradient (backward) or the tangent (jvp)."""
        return v / (out * 2.0)


class Sin(Elementwise):
    """Sine: f(a) = sin a; grad = g * cos a."""

    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        a = as_float(a)
        return np.sin(a)

    @staticmethod
    def derivative(v, a):
        """v * sin'(a) = v * cos a: v is the gradient (backward) or the tangent (jvp)."""
        return v * a.cos()


class Cos(Elementwise):
    """Cosine: f(a) = cos a; grad = -g * sin a."""

    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        a = as_float(a)
        return np.cos(a)

    @staticmethod
    def derivative(v, a):
        """v * cos'(a) = -v * sin a: v is the gradient (backward) or the tangent (jvp)."""
        return -(v * a.sin())


class Tanh(Op):
    """Hyperbolic tangent: y = tanh a; grad = g * (1 - y**2) (fused: TanhGrad)."""

    elementwise = True

    save_output = True
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, a):
        a = as_float(a)
        return np.tanh(a)

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return TanhGrad.apply(g, y)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a * (1 - out**2)."""
        return TanhGrad.apply(tangents[0], out)


class TanhGrad(Op):
    """PyTorch's tanh_backward: f(g, y) = g*(1 - y**2); grad_g = gg*(1 - y**2), grad_y = -2*gg*g*y."""

    node_name = "TanhBackwardBackward0"

    save_inputs = True
    saved_names = ("grad_output", "output")

    @staticmethod
    def forward(ctx, g, y):
        t = y * y  # one buffer for all three steps (positional out: faster than out=)
        if type(t) is np.ndarray and t.shape == g.shape and t.dtype == g.dtype:
            np.subtract(1, t, t)
            t *= g
            return t
        return g * (1 - t)  # broadcasting, dtype promotion, or 0-d (numpy scalars)

    @staticmethod
    def backward(ctx, gg):
        g, y = ctx.saved_tensors
        return TanhGrad.apply(gg, y), gg * g * y * -2.0

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_g*(1 - y**2) - 2*g*y*t_y."""
        (g, y), (tg, ty) = inputs, tangents
        dg = None if tg is None else TanhGrad.apply(tg, y)
        dy = None if ty is None else ty * g * y * -2.0
        return dy if dg is None else dg if dy is None else dg + dy


def sigmoid_array(a: np.ndarray) -> np.ndarray:
    """1/(1+e**-a) on a float array without overflow: e**-|a| is at most 1 on either side."""
    e = np.exp(-np.abs(a))
    return np.where(a >= 0, 1 / (1 + e), e / (1 + e)).astype(a.dtype, copy=False)


class Sigmoid(Op):
    """Logistic sigmoid: y = 1/(1+e**-a); grad = g * y * (1 - y) (fused: SigmoidGrad).

    Computed stably at +-1000 (no overflow warnings)."""

    elementwise = True

    save_output = True
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, a):
        a = as_float(a)
        return sigmoid_array(a)

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return SigmoidGrad.apply(g, y)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a * out * (1 - out)."""
        return SigmoidGrad.apply(tangents[0], out)


class SigmoidGrad(Op):
    """PyTorch's sigmoid_backward: f(g, y) = g*y*(1-y); grad_g = gg*y*(1-y), grad_y = gg*g*(1-2y)."""

    node_name = "SigmoidBackwardBackward0"

    save_inputs = True
    saved_names = ("grad_output", "output")

    @staticmethod
    def forward(ctx, g, y):
        return g * y * (1 - y)

    @staticmethod
    def backward(ctx, gg):
        g, y = ctx.saved_tensors
        return SigmoidGrad.apply(gg, y), gg * g * (1.0 - y * 2.0)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_g*y*(1-y) + g*(1-2y)*t_y."""
        (g, y), (tg, ty) = inputs, tangents
        dg = None if tg is None else SigmoidGrad.apply(tg, y)
        dy = None if ty is None else ty * g * (1.0 - y * 2.0)
        return dy if dg is None else dg if dy is None else dg + dy


class Relu(Op):
    """Rectifier: f(a) = max(a, 0); grad = g where a > 0 else 0 (relu'(0) = 0, as PyTorch)."""

    elementwise = True

    save_output = True
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, a):
        if a.dtype.kind == "b":
            raise RuntimeError(errors.RELU_BOOL)
        # not np.maximum: PyTorch keeps -0.0 (and NaN) as they are, only negatives become 0
        return np.where(a < 0, a.dtype.type(0), a)

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return ThresholdGrad.apply(g, y)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a where a > 0 else 0."""
        return ThresholdGrad.apply(tangents[0], out)


class ThresholdGrad(Op):
    """PyTorch's threshold_backward: f(g, y) = 0 where y <= 0 else g; grad_g likewise, y gets none.

    Written as PyTorch writes it, so a NaN in y passes the gradient (NaN <= 0 is false)."""

    node_name = "ThresholdBackwardBackward0"

    save_inputs = True
    saved_names = ("grad_output", "self")
    saved_values = {"threshold": lambda ctx: 0}

    @staticmethod
    def forward(ctx, g, y):
        return np.where(y <= 0, 0, g).astype(g.dtype, copy=False)

    @staticmethod
    def backward(ctx, gg):
        _, y = ctx.saved_tensors
        return ThresholdGrad.apply(gg, y), None

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = 0 where y <= 0 else t_g (y's tangent does not matter)."""
        tg = tangents[0]
        return None if tg is None else ThresholdGrad.apply(tg, inputs[1])


class Abs(Elementwise):
    """Absolute value: f(a) = |a|; grad = g * sign(a) (abs'(0) = 0, as PyTorch)."""

    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, a):
        refuse_dtype(a, "abs", "b", "number")
        return np.abs(a)

    @staticmethod
    def derivative(v, a):
        """v * abs'(a) = v * sign(a): v is the gradient (backward) or the tangent (jvp)."""
        return v * a.sign()


class StepFunction(Elementwise):
    """A step function (sign, floor, ceil, trunc, round): gradient zero everywhere (PyTorch
    does not mark the jumps either). The zero is PyTorch's
    ``zeros_like(grad)``: +0.0 everywhere (``g * 0.0`` would be -0.0 where g is negative) and a
    constant, outside any graph ``create_graph`` builds."""

    @staticmethod
    def derivative(v):
        """Zeros shaped like v: v is the gradient (backward) or the tangent (jvp)."""
        return Tensor._make(np.zeros(v.shape, v._data.dtype), False, None)


class Sign(StepFunction):
    """Sign (-1, 0, 1; 0 for NaN, as PyTorch); its gradient is zero everywhere."""

    @staticmethod
    def forward(ctx, a):
        if a.dtype.kind == "b":  # numpy has no bool sign; PyTorch's is the tensor itself
            return a.copy()
        out = np.sign(a)
        return np.where(np.isnan(a), out.dtype.type(0), out) if a.dtype.kind == "f" else out


class Clamp(Op):
    """Clamp into [min, max]; grad = g where min <= a <= max else 0 (bounds inclusive, as PyTorch).

    Bounds that are tensors (PyTorch's ``clamp.Tensor``) take the composite path
    :func:`clamp_tensor`, so they broadcast and receive gradients too."""

    node_name = "ClampBackward1"  # PyTorch's clamp with number bounds (ClampBackward0: tensors)
    elementwise = True

    save_inputs = True
    saved_names = ("self",)
    saved_values = {"min": lambda ctx: ctx.bounds[0], "max": lambda ctx: ctx.bounds[1]}

    @classmethod
    def apply(cls, a, min=None, max=None):  # noqa: A002
        for name, bound in (("min", min), ("max", max)):
            if not (bound is None or isinstance(bound, (Tensor, int, float, np.number))):
                raise TypeError(errors.CLAMP_TYPE.format(name=name, got=type(bound).__name__))
        if (
            min is not None
            and max is not None
            and isinstance(min, Tensor) != isinstance(max, Tensor)
        ):
            min, max = _as_numbers(min, max)  # noqa: A001
        if isinstance(min, Tensor) or isinstance(max, Tensor):
            return clamp_tensor(a, min, max)
        return super().apply(a, min=min, max=max)

    @staticmethod
    def forward(ctx, a, min=None, max=None):  # noqa: A002  (PyTorch names)
        if min is None and max is None:
            raise RuntimeError(errors.CLAMP_NONE)
        ctx.bounds = (min, max)
        want = _dtype._FROM_NP[a.dtype]  # PyTorch: int tensor clamped by 1.5 -> float32
        for bound in (min, max):
            if bound is not None:
                want = _dtype.promote_with_scalar(want, bound)
        if want is _dtype.bool_:  # a bool tensor, bool bounds
            kernel = (
                "clamp"
                if min is not None and max is not None
                else ("clamp_min" if max is None else "clamp_max")
            )
            raise NotImplementedError(
                errors.CLAMP_BOOL_NUMBERS.format(kernel=kernel + "_scalar_cpu")
            )
        min, max = (_dtype.checked_int(b, want.np) for b in (min, max))  # noqa: A001
        out = a.astype(want.np, copy=False)
        # not np.clip: PyTorch replaces only what lies outside, so -0.0 and NaN stay as they are
        if min is not None:
            out = np.where(out < min, want.np.type(min), out)
        if max is not None:
            out = np.where(out > max, want.np.type(max), out)
        if any(b is not None and b != b for b in (min, max)):  # a NaN bound: all NaN, as PyTorch
            out = np.full_like(out, np.nan)
        return out

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        # where, not g * mask: PyTorch's zero is +0.0, and a NaN gradient outside stays out
        return where(_inside(a, *ctx.bounds), g, 0.0)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a where min <= a <= max else 0."""
        return where(_inside(inputs[0], params.get("min"), params.get("max")), tangents[0], 0.0)


def _as_numbers(lo, hi):
    """A number and a tensor as clamp's bounds: PyTorch has clamp(Tensor, Tensor) and
    clamp(Number, Number) only; a 0-d tensor that needs no gradient passes as a number."""
    bounds = []
    for b in (lo, hi):
        if isinstance(b, Tensor) and (b.ndim or b.requires_grad):
            names = (type(x).__name__ for x in (lo, hi))
            raise TypeError(errors.CLAMP_MIXED.format(lo=next(names), hi=next(names)))
        bounds.append(b.item() if isinstance(b, Tensor) else b)
    return bounds


def _inside(a, lo, hi):
    """True where lo <= a <= hi (a bound None: no bound). Made of ops
    (comparisons), not of a's array, so ``make_jaxpr(grad(f))`` can trace it."""
    inside = None
    if lo is not None:
        inside = a >= lo
    if hi is not None:
        inside = a <= hi if inside is None else inside & (a <= hi)
    return inside


def clamp_tensor(a, lo, hi):
    """clamp with tensor bounds: PyTorch's ``clamp.Tensor``, one ``ClampBackward0`` that saves
    the input and the bounds (so an in-place change of any of them before backward is refused,
    as PyTorch refuses it).

    The value is min(max(a, lo), hi), NaN where ``a`` or a bound is NaN. The gradient goes
    to ``a`` where lo <= a <= hi, to ``lo`` where a < lo < hi and to ``hi`` where a > hi or
    hi < lo; a NaN compares false, so it receives none (and lo == hi with ``a`` outside
    sends it nowhere), as PyTorch's formulas."""
    if lo is None and hi is None:
        raise RuntimeError(errors.CLAMP_NONE)
    d = _dtype.result_type(*(t for t in (a, lo, hi) if t is not None))  # a 0-d bound: no say
    if lo is not None and hi is not None and d is _dtype.bool_:
        raise NotImplementedError(errors.CLAMP_BOOL)
    a, lo, hi = (None if t is None else t.to(d) for t in (a, lo, hi))
    shapes = [tuple(t.shape) for t in (a, lo, hi) if t is not None]
    functools.reduce(lambda x, y: broadcast_shapes(x, y, "clamp"), shapes)  # PyTorch's error
    if hi is None:
        return ClampMinTensor.apply(a, lo)
    if lo is None:
        return ClampMaxTensor.apply(a, hi)
    return ClampTensor.apply(a, lo, hi)


def _clamp_value(a, lo, hi):
    """min(max(a, lo), hi) (a bound None: none), NaN where a or a bound is NaN; ``a`` itself
    where it lies inside (so its zero keeps its sign)."""
    exact = a.dtype.kind not in "fc"  # no NaN: the two rules cover every element
    with np.errstate(invalid="ignore"):
        if hi is None:
            return np.where(a >= lo, a, lo if exact else np.where(a < lo, lo, np.nan))
        if lo is None:
            return np.where(a <= hi, a, hi if exact else np.where(a > hi, hi, np.nan))
        value = np.minimum(np.maximum(a, lo), hi)  # NaN-propagating: the value when no rule
        # a > hi with lo NaN: the gradient goes to hi, the value is NaN (-0.0 adds nothing
        # else), and a NaN ``a`` with hi < lo: the same
        hi_or_nan = hi if exact else hi + np.where(lo != lo, lo, np.where(a != a, a, -0.0))
        inner = np.where((a > hi) | (hi < lo), hi_or_nan, value)
        return np.where((a >= lo) & (a <= hi), a, np.where((a < lo) & (lo < hi), lo, inner))


class ClampTensor(Op):
    """clamp(a, lo, hi) with tensor bounds (see :func:`clamp_tensor`); PyTorch's formulas:
    grad_a = g where lo <= a <= hi, grad_lo = g where a < lo < hi, grad_hi = g where a > hi
    or hi < lo, each summed to its operand's shape (+0.0 elsewhere)."""

    node_name = "ClampBackward0"
    elementwise = True
    save_inputs = True
    saved_names = ("self", "min", "max")

    @staticmethod
    def forward(ctx, a, lo, hi):
        ctx.shapes = (a.shape, lo.shape, hi.shape)
        return np.asarray(_clamp_value(a, lo, hi))

    @staticmethod
    def backward(ctx, g):
        a, lo, hi = ctx.saved_tensors
        masks = ((a >= lo) & (a <= hi), (a < lo) & (lo < hi), (a > hi) | (hi < lo))
        return tuple(sum_to(where(m, g, 0.0), s) for m, s in zip(masks, ctx.shapes))

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """PyTorch's clamp_jvp: t_hi where lo > hi, else t_lo where a < lo, else t_hi where
        a > hi, else t_a (a missing tangent is zero)."""
        (a, lo, hi), (ta, tlo, thi) = inputs, _tangents(inputs, tangents, out)
        return where(lo > hi, thi, where(a < lo, tlo, where(a > hi, thi, ta)))


class ClampMinTensor(Op):
    """clamp(a, min=lo) with a tensor bound: grad_a = g where a >= lo, grad_lo = g where a < lo."""

    node_name = "ClampBackward0"
    elementwise = True
    save_inputs = True
    saved_names = ("self", "min")
    saved_values = {"max": lambda ctx: None}

    @staticmethod
    def forward(ctx, a, lo):
        ctx.shapes = (a.shape, lo.shape)
        return np.asarray(_clamp_value(a, lo, None))

    @staticmethod
    def backward(ctx, g):
        a, lo = ctx.saved_tensors
        inside = a >= lo
        return sum_to(where(inside, g, 0.0), ctx.shapes[0]), sum_to(
            where(a < lo, g, 0.0), ctx.shapes[1]
        )

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """PyTorch's clamp_jvp: t_a where a > lo, else t_lo."""
        (a, lo), (ta, tlo) = inputs, _tangents(inputs, tangents, out)
        return where(a > lo, ta, tlo)


class ClampMaxTensor(Op):
    """clamp(a, max=hi) with a tensor bound: grad_a = g where a <= hi, grad_hi = g where a > hi."""

    node_name = "ClampBackward0"
    elementwise = True
    save_inputs = True
    saved_names = ("self", "max")
    saved_values = {"min": lambda ctx: None}

    @staticmethod
    def forward(ctx, a, hi):
        ctx.shapes = (a.shape, hi.shape)
        return np.asarray(_clamp_value(a, None, hi))

    @staticmethod
    def backward(ctx, g):
        a, hi = ctx.saved_tensors
        inside = a <= hi
        return sum_to(where(inside, g, 0.0), ctx.shapes[0]), sum_to(
            where(a > hi, g, 0.0), ctx.shapes[1]
        )

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """PyTorch's clamp_jvp: t_a where a < hi, else t_hi."""
        (a, hi), (ta, thi) = inputs, _tangents(inputs, tangents, out)
        return where(a < hi, ta, thi)


def _tangents(inputs, tangents, out):
    """The tangents with zeros (of the output's shape and dtype) for the inputs without one."""
    zero = Tensor._make(np.zeros((), out._data.dtype), False, None)
    return tuple(zero if t is None else t for t in tangents)
