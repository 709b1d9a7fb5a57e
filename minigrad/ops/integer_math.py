"""Integer, bitwise and floating-point bit math: ``heaviside gcd lcm bitwise_and bitwise_or
bitwise_xor bitwise_not ldexp frexp nextafter`` (PyTorch names; the rounded divisions are in
``rounded_division.py``).

Most have no derivative in PyTorch: a result of an input that requires grad gets PyTorch's
``NotImplemented`` node (``NoDerivative``), whose backward raises. ``ldexp`` and ``frexp``
are products with a power of two, and ``nextafter`` passes the gradient to ``input``
unchanged, as PyTorch's formulas do.
"""

from __future__ import annotations

import numpy as np

from .. import _dtype
from .._return_types import return_type
from ..errors import order_and_builders as _errors
from ..recording.function import Op
from ..tensor import Tensor, has_sparse_layout
from ._util import (
    NoDerivative,
    broadcast_shapes,
    check_tensor,
    make,
    named,
    result_dtype,
    to_tensor,
)
from .arith import _Binary
from .shape import sum_to

#: ``torch.return_types.frexp``: (mantissa, exponent).
FrexpResult = return_type("frexp", ("mantissa", "exponent"))


def _pair(input, other, op: str, numbers: bool = True) -> tuple[Tensor, Tensor, _dtype.dtype]:
    """Both operands as tensors (a number only where PyTorch takes one), the common dtype."""
    check_tensor(input, op)
    if has_sparse_layout(input):
        raise NotImplementedError(input._no_kernel(op))
    if not isinstance(other, Tensor) and not numbers:
        raise TypeError(_errors.NEED_TENSOR.format(op=op, name="other", got=type(other).__name__))
    other = to_tensor(other, input, op)
    broadcast_shapes(input.shape, other.shape, op)
    return input, other, result_dtype(input, other)


def _no_kernel(op: str, d: _dtype.dtype):
    return NotImplementedError(_errors.NO_KERNEL.format(op=op, got=_dtype.c_name(d)))


def _apply(kernel, op: str, *tensors) -> Tensor:
    """``kernel`` on the arrays; PyTorch's ``NotImplemented`` node when one requires grad."""
    if any(t.requires_grad for t in tensors):
        return NoDerivative.apply(*tensors, kernel=kernel, op=op)
    return make(np.asarray(kernel(*(t._data for t in tensors))), False, None)


# --- heaviside, gcd, lcm ------------------------------------------------------------------------
def heaviside(input, values) -> Tensor:  # noqa: A002
    """The step function: 0 where ``input`` < 0, ``values`` where it is 0, 1 where > 0
    (``torch.heaviside``; NaN gives 0). The dtypes must be equal. No derivative.

    Example:
        >>> import minigrad as mg
        >>> mg.heaviside(mg.tensor([-1.5, 0.0, 2.0]), mg.tensor(0.5))
        tensor([0.0000, 0.5000, 1.0000])
    """
    check_tensor(input, "heaviside")
    check_tensor(values, "heaviside", "values", 2)
    if input.dtype is not values.dtype:
        raise RuntimeError(_errors.HEAVISIDE_DTYPES)
    broadcast_shapes(input.shape, values.shape, "heaviside")

    def kernel(x, v):
        return np.where(x == 0, v, (x > 0).astype(x.dtype)).astype(x.dtype)

    return _apply(kernel, "heaviside", input, values)


def _integral(op: str, numpy_fn):
    def fn(input, other) -> Tensor:  # noqa: A002
        a, b, d = _pair(input, other, op, numbers=False)
        if d.is_floating_point or d is _dtype.bool_:
            raise _no_kernel(f"{op}_cpu", d)
        return _apply(lambda x, y: numpy_fn(x, y).astype(d.np), op, a, b)

    fn.__name__ = op
    return fn


gcd = _integral("gcd", np.gcd)
gcd.__doc__ = """The greatest common divisor, elementwise, of two integer tensors (``torch.gcd``;
gcd(0, 0) = 0, always non-negative)."""
lcm = _integral("lcm", np.lcm)
lcm.__doc__ = """The least common multiple, elementwise, of two integer tensors (``torch.lcm``;
0 where either is 0, always non-negative)."""


# --- bitwise: on integers and bools ---------------------------------------------------------
def _bitwise(op: str, numpy_fn):
    def fn(input, other) -> Tensor:  # noqa: A002
        a, b, d = _pair(input, other, op)
        if d.is_floating_point:
            raise _no_kernel(f"{op}_cpu", d)
        return _apply(lambda x, y: numpy_fn(x.astype(d.np), y.astype(d.np)), op, a, b)

    fn.__name__ = op
    fn.__doc__ = f"Elementwise ``{numpy_fn.__name__}`` of integer or bool tensors (``torch.{op}``)."
    return fn


bitwise_and = _bitwise("bitwise_and", np.bitwise_and)
bitwise_or = _bitwise("bitwise_or", np.bitwise_or)
bitwise_xor = _bitwise("bitwise_xor", np.bitwise_xor)


def bitwise_not(input) -> Tensor:  # noqa: A002
    """Each bit flipped (``torch.bitwise_not``, ``~x``): ``-x - 1`` for integers, ``not``
    for bools."""
    check_tensor(input, "bitwise_not")
    if input.dtype.is_floating_point:
        raise _no_kernel("bitwise_not_cpu", input.dtype)
    return make(np.invert(input._data), False, None)


# --- ldexp, frexp, nextafter: the bits of floats ------------------------------------------------
def ldexp(input, other) -> Tensor:  # noqa: A002
    """``input * 2 ** other`` (``torch.ldexp``), in a floating dtype; its gradient is the
    product's.

    Example:
        >>> import minigrad as mg
        >>> mg.ldexp(mg.tensor([1.0, 3.0]), mg.tensor([2, -1]))
        tensor([4.0000, 1.5000])
    """
    a, b, d = _pair(input, other, "ldexp", numbers=False)
    if not d.is_floating_point:
        d = _dtype.get_default_dtype()
    return named(a.to(d) * (2.0 ** b.to(d)), "LdexpBackward0")


class Frexp(Op):
    """The mantissa m = x / 2**e of x = m 2**e, 0.5 <= |m| < 1; grad = g / 2**e (e held
    constant, as PyTorch's formula). The exponents come in as ``exponent``."""

    @staticmethod
    def forward(ctx, a, exponent):
        ctx.exponent = exponent
        return np.frexp(a)[0]

    @staticmethod
    def backward(ctx, g):
        return g / make(np.exp2(ctx.exponent).astype(g._data.dtype), False, None)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t / 2**e."""
        return tangents[0] / make(np.exp2(params["exponent"]).astype(out._data.dtype), False, None)


def frexp(input):  # noqa: A002
    """``(mantissa, exponent)`` with ``input = mantissa * 2 ** exponent`` and 0.5 <= |mantissa|
    < 1 (``torch.frexp``; exponent int32). The mantissa's gradient is ``g / 2 ** exponent``.

    Example:
        >>> import minigrad as mg
        >>> mg.frexp(mg.tensor([8.0, -3.5]))
        minigrad.return_types.frexp(
        mantissa=tensor([ 0.5000, -0.8750]),
        exponent=tensor([4, 2], dtype=minigrad.int32))
    """
    check_tensor(input, "frexp")
    if not input.dtype.is_floating_point:
        raise RuntimeError(_errors.FREXP_DTYPE)
    exponent = np.frexp(input._data)[1].astype(np.int32)
    mantissa = Frexp.apply(input, exponent=exponent)
    return FrexpResult(mantissa, make(exponent, False, None))


class Nextafter(_Binary):
    """The next float after ``a`` towards ``b``; grad_a = g, grad_b = 0 (PyTorch's formula:
    the step is too small to matter)."""

    elementwise = True

    @staticmethod
    def forward(ctx, a, b):
        _Binary.prepare(ctx, a, b)
        return np.asarray(np.nextafter(a, b))

    @staticmethod
    def backward(ctx, g):
        return sum_to(g, ctx.sa, ctx.da), sum_to(g * 0, ctx.sb, ctx.db)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a."""
        return tangents[0] if tangents[0] is not None else tangents[1] * 0


def nextafter(input, other) -> Tensor:  # noqa: A002
    """The next representable float after ``input`` in the direction of ``other``
    (``torch.nextafter``)."""
    a, b, d = _pair(input, other, "nextafter", numbers=False)
    if not d.is_floating_point:
        raise _no_kernel("nextafter_cpu", d)
    return Nextafter.apply(a.to(d), b.to(d))
