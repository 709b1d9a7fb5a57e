"""Rounding: floor ceil trunc round frac.

floor, ceil, trunc and round are step functions: their gradient is zero everywhere (as
PyTorch's, which does not mark the jumps), like ``sign``'s. frac = a - trunc(a) has
gradient 1. Dtypes follow PyTorch: floor, ceil and trunc return an integer tensor's values
unchanged (same dtype) and refuse bool, and so does round without ``decimals``; frac and
round with ``decimals`` refuse integers and bool.

Example:
    >>> import minigrad as mg
    >>> x = mg.tensor([-1.5, 0.5, 2.5, 2.7])
    >>> x.floor(), x.round()  # round: halves go to the even neighbour
    (tensor([-2.,  0.,  2.,  2.]), tensor([-2.,  0.,  2.,  3.]))
    >>> x.frac()  # keeps the sign of x
    tensor([-0.5000,  0.5000,  0.5000,  0.7000])
"""

from __future__ import annotations

import operator

import numpy as np

from .. import _dtype, errors
from ._util import Elementwise
from .unary import StepFunction


def _check_dtype(a: np.ndarray, op: str, integers: bool) -> None:
    """PyTorch's NotImplementedError for bool (and, unless ``integers``, integer) input."""
    if a.dtype.kind == "b" or (a.dtype.kind in "iu" and not integers):
        accepted = "floating point or integer" if integers else "floating point"
        raise NotImplementedError(
            errors.NOT_FOR_DTYPE.format(op=op, got=_dtype._FROM_NP[a.dtype], accepted=accepted)
        )


class Floor(StepFunction):
    """Largest integer <= a; grad = 0."""

    @staticmethod
    def forward(ctx, a):
        _check_dtype(a, "floor", integers=True)
        return a.copy() if a.dtype.kind in "iu" else np.floor(a)


class Ceil(StepFunction):
    """Smallest integer >= a; grad = 0."""

    @staticmethod
    def forward(ctx, a):
        _check_dtype(a, "ceil", integers=True)
        return a.copy() if a.dtype.kind in "iu" else np.ceil(a)


class Trunc(StepFunction):
    """a rounded towards zero; grad = 0."""

    @staticmethod
    def forward(ctx, a):
        _check_dtype(a, "trunc", integers=True)
        return a.copy() if a.dtype.kind in "iu" else np.trunc(a)


class Round(StepFunction):
    """a rounded to ``decimals`` decimal places, halves to even; grad = 0.

    As PyTorch: with decimals d > 0 it is rint(a * 10**d) / 10**d, with d < 0
    rint(a / 10**-d) * 10**-d, 10**|d| taken in a's dtype. Also as PyTorch, an integer
    tensor comes back unchanged when ``decimals`` is not given, and is refused when it is
    (``torch.round(x)`` and ``torch.round(x, decimals=0)`` are two kernels there)."""

    @staticmethod
    def forward(ctx, a, decimals=None):
        _check_dtype(a, "round", integers=decimals is None)
        # the two kernels are two nodes too: RoundBackward0, and RoundBackward1 with decimals
        ctx.node_name = "RoundBackward0" if decimals is None else "RoundBackward1"
        if a.dtype.kind in "iu":
            return a.copy()
        if not decimals:
            return np.rint(a)
        with np.errstate(over="ignore", invalid="ignore"):
            ten = np.asarray(10.0 ** abs(decimals), a.dtype)
            return np.rint(a * ten) / ten if decimals > 0 else np.rint(a / ten) * ten


class Frac(Elementwise):
    """Fractional part, with a's sign: f(a) = a - trunc(a); grad = g."""

    @staticmethod
    def forward(ctx, a):
        _check_dtype(a, "frac", integers=False)
        with np.errstate(invalid="ignore"):  # inf - inf: nan, as PyTorch
            return a - np.trunc(a)

    @staticmethod
    def derivative(v):
        """``v``: the derivative is 1; v is the gradient (backward) or the tangent (jvp)."""
        return v


_NOT_GIVEN = object()  # round(x) and round(x, decimals=0) differ for integer tensors


def round(input, *, decimals: int = _NOT_GIVEN):  # noqa: A001, A002  (PyTorch names)
    """Round to ``decimals`` decimal places (default 0; negative: to tens, hundreds ...),
    halves to even (``torch.round``); the gradient is zero."""
    if decimals is _NOT_GIVEN:
        return Round.apply(input)
    if isinstance(decimals, bool) or not hasattr(decimals, "__index__"):
        raise TypeError(errors.ROUND_DECIMALS.format(got=type(decimals).__name__))
    return Round.apply(input, decimals=operator.index(decimals))
