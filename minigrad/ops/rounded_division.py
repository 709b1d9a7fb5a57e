"""Division rounded to a whole number: ``floor_divide`` (Python's ``//``) and ``div`` with
``rounding_mode='trunc'`` or ``'floor'`` (PyTorch names). ``floor_divide`` has no derivative
in PyTorch (its ``NotImplemented`` node); ``div``'s rounded forms have a zero one
(``DivBackward2``).
"""

from __future__ import annotations

import numpy as np

from .. import _dtype
from ..errors import order_and_builders as _errors
from ..tensor import Tensor
from . import arith
from ._util import check_tensor, make, named
from .arith import _Binary
from .integer_math import _apply, _no_kernel, _pair
from .shape import sum_to


# --- floor_divide: a / b rounded down, as Python's // ----------------------------------------
def _floor_divide_float(a, b):
    """PyTorch's ``div_floor`` for floats: (a - fmod(a, b)) / b, one less where the remainder
    and b differ in sign, rounded to the nearest whole; a signed zero for a zero quotient;
    a / b (inf or nan) for b = 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        mod = np.fmod(a, b)
        div = (a - mod) / b
        div = np.where((mod != 0) & ((b < 0) != (mod < 0)), div - 1, div)
        floor = np.floor(div)
        floor = np.where(div - floor > 0.5, floor + 1, floor)
        out = np.where(div != 0, floor, np.copysign(np.zeros_like(div), a / b))
        return np.asarray(np.where(b == 0, a / b, out), dtype=a.dtype)


def _floor_divide_int(a, b):
    if np.any(b == 0):
        raise RuntimeError("ZeroDivisionError")
    with np.errstate(over="ignore"):
        return np.asarray(np.floor_divide(a, b), dtype=a.dtype)


def floor_divide(input, other) -> Tensor:  # noqa: A002
    """``input / other`` rounded down, as Python's ``//`` (``torch.floor_divide``); integers
    stay integers, a zero integer divisor raises. No derivative, as in PyTorch.

    Example:
        >>> import minigrad as mg
        >>> mg.floor_divide(mg.tensor([7, -7]), 2)
        tensor([ 3, -4])
    """
    a, b, d = _pair(input, other, "floor_divide")
    if d is _dtype.bool_:
        raise _no_kernel("div_floor_cpu", d)
    kernel = _floor_divide_float if d.is_floating_point else _floor_divide_int

    def run(x, y):
        return kernel(x.astype(d.np, copy=False), y.astype(d.np, copy=False))

    return _apply(run, "floor_divide", a, b)


def rfloor_divide(number, other: Tensor) -> Tensor:
    """``number // tensor`` (PyTorch's ``__rfloordiv__``)."""
    check_tensor(other, "floor_divide", "other", 2)
    d = _dtype.promote_with_scalar(other.dtype, number)
    return floor_divide(make(np.asarray(number, dtype=d.np), False, None), other)


# --- div(rounding_mode=): a / b rounded, with PyTorch's zero gradient ---------------------------
def _trunc_divide_int(a, b):
    if np.any(b == 0):
        raise RuntimeError("ZeroDivisionError")
    with np.errstate(over="ignore"):
        q = np.floor_divide(a, b)
        return np.asarray(q + ((np.remainder(a, b) != 0) & ((a < 0) != (b < 0))), dtype=a.dtype)


def _trunc_divide_float(a, b):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(np.trunc(a / b), dtype=a.dtype)


_ROUNDED = {
    ("floor", True): _floor_divide_float,
    ("floor", False): _floor_divide_int,
    ("trunc", True): _trunc_divide_float,
    ("trunc", False): _trunc_divide_int,
}


class DivRounded(_Binary):
    """a / b rounded toward zero (``trunc``) or down (``floor``); grad_a = grad_b = 0, as
    PyTorch's ``DivBackward2`` (the result is a step function of both)."""

    node_name = "DivBackward2"
    elementwise = True

    @staticmethod
    def forward(ctx, a, b, rounding_mode):
        _Binary.prepare(ctx, a, b)
        return _ROUNDED[rounding_mode, a.dtype.kind == "f"](a, b)

    @staticmethod
    def backward(ctx, g):
        zero = g * 0
        return sum_to(zero, ctx.sa, ctx.da), sum_to(zero, ctx.sb, ctx.db)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = 0."""
        return out.new_zeros(out.shape)


_NOT_GIVEN = object()


def div(input, other, *, rounding_mode=_NOT_GIVEN) -> Tensor:  # noqa: A002
    """``input / other`` (``torch.div``): true division, or with ``rounding_mode`` ``'trunc'``
    (toward zero) or ``'floor'`` (down, as ``//``) in the operands' dtype, whose gradient is
    0 (PyTorch's ``DivBackward2``; ``rounding_mode=None`` is true division).

    Example:
        >>> import minigrad as mg
        >>> mg.div(mg.tensor([-7, 7]), 2, rounding_mode="trunc")
        tensor([-3,  3])
    """
    if rounding_mode is _NOT_GIVEN:
        return arith.div(input, other)
    if rounding_mode is None:  # PyTorch's div.Tensor_mode overload: its node is DivBackward2
        return named(arith.div(input, other), "DivBackward2")
    if rounding_mode not in ("trunc", "floor"):
        raise RuntimeError(_errors.DIV_ROUNDING_MODE.format(got=rounding_mode))
    a, b, d = _pair(input, other, "div")
    if d is _dtype.bool_:
        raise _no_kernel(f"div_{rounding_mode}_cpu", d)
    return DivRounded.apply(a.to(d), b.to(d), rounding_mode=rounding_mode)
