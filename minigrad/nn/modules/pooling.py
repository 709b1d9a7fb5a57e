"""Pooling layers ``MaxPool2d`` and ``AvgPool2d`` (``torch.nn.MaxPool2d`` / ``AvgPool2d``).

No parameters: each keeps its arguments as given (``stride`` defaults to ``kernel_size``, as
PyTorch's) and calls :func:`~minigrad.nn.functional.max_pool2d` / ``avg_pool2d``.
"""

from __future__ import annotations

from ...tensor import Tensor
from .. import functional as F
from .module import Module


class MaxPool2d(Module):
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

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
            f"dilation={self.dilation}, ceil_mode={self.ceil_mode}"
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


class AdaptiveAvgPool2d(Module):
    """Average pooling to a fixed output size, whatever the input's (H, W): see
    :func:`minigrad.nn.functional.adaptive_avg_pool2d`. ``AdaptiveAvgPool2d(1)`` averages each
    channel to one number (global average pooling)."""

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return F.adaptive_avg_pool2d(input, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"
