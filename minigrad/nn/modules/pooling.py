"""Pooling layers: ``MaxPool1d/2d/3d``, ``AvgPool1d/2d/3d``, ``AdaptiveAvgPool1d/2d``, ``AdaptiveMaxPool1d/2d``.

No parameters: each keeps its arguments as given (``stride`` defaults to ``kernel_size``, as
PyTorch's) and calls :func:`~minigrad.nn.functional.max_pool2d` / ``avg_pool2d``.
"""

from __future__ import annotations

from ...tensor import Tensor
from .. import functional as F
from .module import Module


class _MaxPoolNd(Module):
    """What MaxPool1d and MaxPool2d share: the arguments and the repr."""

    def __init__(
        self,
        kernel_size,
        stride=None,
        padding=0,
        dilation=1,
        return_indices: bool = False,
        ceil_mode: bool = False,
    ):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
            f"dilation={self.dilation}, ceil_mode={self.ceil_mode}"
        )


class MaxPool2d(_MaxPoolNd):
    """2-D max pooling: the largest element of each (kH, kW) window of (N, C, H, W) or (C, H, W).

    Args are those of :func:`minigrad.nn.functional.max_pool2d`.

    Example:
        >>> import minigrad as mg
        >>> pool = mg.nn.MaxPool2d(2)
        >>> pool
        MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
        >>> pool(mg.ones(1, 3, 4, 6)).shape
        minigrad.Size([1, 3, 2, 3])
    """

    def forward(self, input: Tensor):  # noqa: A002  (PyTorch name)
        return F.max_pool2d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.dilation,
            ceil_mode=self.ceil_mode,
            return_indices=self.return_indices,
        )


class AvgPool2d(Module):
    """2-D average pooling: the mean of each (kH, kW) window of (N, C, H, W) or (C, H, W).

    Args are those of :func:`minigrad.nn.functional.avg_pool2d` (``count_include_pad=True``
    by default: zero padding counts in the mean).
    """

    def __init__(
        self,
        kernel_size,
        stride=None,
        padding=0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
        divisor_override: int | None = None,
    ):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return F.avg_pool2d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.count_include_pad,
            self.divisor_override,
        )

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxPool3d(_MaxPoolNd):
    """3-D max pooling over the last three dims of (N, C, D, H, W) or (C, D, H, W)
    (``torch.nn.MaxPool3d``); the arguments are :class:`MaxPool2d`'s as ints or triples."""

    def forward(self, input: Tensor):  # noqa: A002  (PyTorch name)
        return F.max_pool3d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.dilation,
            ceil_mode=self.ceil_mode,
            return_indices=self.return_indices,
        )


class AvgPool3d(AvgPool2d):
    """3-D average pooling over the last three dims (``torch.nn.AvgPool3d``); the arguments
    are :class:`AvgPool2d`'s as ints or triples."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return F.avg_pool3d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.count_include_pad,
            self.divisor_override,
        )


class MaxPool1d(_MaxPoolNd):
    """1-D max pooling over the last dim of (N, C, L) or (C, L) (``torch.nn.MaxPool1d``);
    the arguments are :class:`MaxPool2d`'s as ints."""

    def forward(self, input: Tensor):  # noqa: A002  (PyTorch name)
        return F.max_pool1d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.dilation,
            ceil_mode=self.ceil_mode,
            return_indices=self.return_indices,
        )


class AvgPool1d(Module):
    """1-D average pooling over the last dim of (N, C, L) or (C, L) (``torch.nn.AvgPool1d``).

    Like PyTorch's, it keeps its sizes as 1-tuples (``kernel_size=(2,)``).
    """

    def __init__(
        self,
        kernel_size,
        stride=None,
        padding=0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
    ):
        super().__init__()
        self.kernel_size = _single(kernel_size)
        self.stride = _single(stride if stride is not None else kernel_size)
        self.padding = _single(padding)
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return F.avg_pool1d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.count_include_pad,
        )

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


def _single(value) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


class _AdaptivePool(Module):
    """What the adaptive poolings share: the output size, and the repr that prints it."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool2d(_AdaptivePool):
    """Average pooling to a fixed (oH, oW) whatever the input's size (``torch.nn.AdaptiveAvgPool2d``).

    ``output_size`` is an int, a pair, or a pair with None (keep that input size);
    ``AdaptiveAvgPool2d(1)`` is the global average pooling before a classifier.

    Example:
        >>> import minigrad as mg
        >>> pool = mg.nn.AdaptiveAvgPool2d(1)
        >>> pool
        AdaptiveAvgPool2d(output_size=1)
        >>> pool(mg.ones(2, 8, 5, 7)).shape
        minigrad.Size([2, 8, 1, 1])
    """

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return F.adaptive_avg_pool2d(input, self.output_size)


class AdaptiveAvgPool1d(_AdaptivePool):
    """Average pooling of (N, C, L) or (C, L) to a fixed length (``torch.nn.AdaptiveAvgPool1d``)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return F.adaptive_avg_pool1d(input, self.output_size)


class AdaptiveMaxPool2d(_AdaptivePool):
    """Max pooling to a fixed (oH, oW) (``torch.nn.AdaptiveMaxPool2d``); ``return_indices``
    also returns the flat positions of the maxima."""

    def __init__(self, output_size, return_indices: bool = False):
        super().__init__(output_size)
        self.return_indices = return_indices

    def forward(self, input: Tensor):  # noqa: A002  (PyTorch name)
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool1d(AdaptiveMaxPool2d):
    """Max pooling of (N, C, L) or (C, L) to a fixed length (``torch.nn.AdaptiveMaxPool1d``)."""

    def forward(self, input: Tensor):  # noqa: A002  (PyTorch name)
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)
