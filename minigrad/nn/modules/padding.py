"""Padding layers (``torch.nn.ZeroPad2d``, ``ConstantPad2d``, ``ReflectionPad2d``,
``ReplicationPad2d`` and their 1-D forms): each keeps its widths as PyTorch's do, as a
(left, right) or (left, right, top, bottom) tuple, and calls :func:`F.pad`."""

from __future__ import annotations

import operator

from ...tensor import Tensor
from .. import functional as F
from .module import Module


def _widths(padding, n: int) -> tuple:
    """An int (the same width on every side) or a tuple of ``n`` ints, as a tuple."""
    if isinstance(padding, (tuple, list)):
        if len(padding) != n:
            raise ValueError(f"padding must be an int or a tuple of {n} ints, got {padding!r}")
        return tuple(operator.index(p) for p in padding)
    return (operator.index(padding),) * n


class _PadNd(Module):
    """A border of the last dims: ``mode`` and ``value`` are :func:`F.pad`'s."""

    _sides = 2  # the number of widths: 2 for the 1-D layers, 4 for the 2-D ones
    _mode = "constant"

    def __init__(self, padding):
        super().__init__()
        self.padding = _widths(padding, self._sides)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    def __init__(self, padding, value: float):
        super().__init__(padding)
        self.value = value

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    """``value`` added on both sides of the last dim (``torch.nn.ConstantPad1d``)."""


class ConstantPad2d(_ConstantPadNd):
    """``value`` added around the last two dims (``torch.nn.ConstantPad2d``); ``padding`` is
    an int or (left, right, top, bottom).

    Example:
        >>> import minigrad as mg
        >>> mg.nn.ConstantPad2d((1, 0, 0, 1), 9.0)(mg.ones(1, 1, 1))
        tensor([[[9., 1.],
                 [9., 9.]]])
    """

    _sides = 4


class ZeroPad1d(ConstantPad1d):
    """Zeros on both sides of the last dim (``torch.nn.ZeroPad1d``)."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    """Zeros around the last two dims (``torch.nn.ZeroPad2d``); ``padding`` is an int or
    (left, right, top, bottom)."""

    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ReflectionPad1d(_PadNd):
    """The last dim mirrored at its ends, the edge not repeated (``torch.nn.ReflectionPad1d``)."""

    _mode = "reflect"


class ReflectionPad2d(_PadNd):
    """The last two dims mirrored at their edges (``torch.nn.ReflectionPad2d``); each width
    must be smaller than the size it mirrors."""

    _sides, _mode = 4, "reflect"


class ReplicationPad1d(_PadNd):
    """The last dim's end values repeated (``torch.nn.ReplicationPad1d``)."""

    _mode = "replicate"


class ReplicationPad2d(_PadNd):
    """The last two dims' edge values repeated (``torch.nn.ReplicationPad2d``)."""

    _sides, _mode = 4, "replicate"
