"""Rearranging layers of vision models: ``PixelShuffle``, ``PixelUnshuffle``,
``ChannelShuffle``, ``Unfold``, ``Fold``, ``MaxUnpool2d`` (``torch.nn``'s). No parameters:
each keeps its arguments (as given, as PyTorch's) and calls ``nn.functional``.
"""

from __future__ import annotations

from ...tensor import Tensor
from .. import functional as F
from .._functional_vision import _pair
from .module import Module


class PixelShuffle(Module):
    """(*, C*r*r, H, W) -> (*, C, H*r, W*r) (``torch.nn.PixelShuffle``; see :func:`F.pixel_shuffle`).

    Example:
        >>> import minigrad as mg
        >>> up = mg.nn.PixelShuffle(2)
        >>> up
        PixelShuffle(upscale_factor=2)
        >>> up(mg.ones(1, 8, 3, 3)).shape
        minigrad.Size([1, 2, 6, 6])
    """

    def __init__(self, upscale_factor: int):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """(*, C, H*r, W*r) -> (*, C*r*r, H, W) (``torch.nn.PixelUnshuffle``)."""

    def __init__(self, downscale_factor: int):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"


class ChannelShuffle(Module):
    """Interleave the channels of ``groups`` groups (``torch.nn.ChannelShuffle``, ShuffleNet)."""

    def __init__(self, groups: int):
        super().__init__()
        self.groups = groups

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        return f"groups={self.groups}"


class Unfold(Module):
    """Sliding windows as columns (``torch.nn.Unfold``, im2col; see :func:`F.unfold`).

    Example:
        >>> import minigrad as mg
        >>> cols = mg.nn.Unfold(kernel_size=2)
        >>> cols
        Unfold(kernel_size=2, dilation=1, padding=0, stride=1)
        >>> cols(mg.ones(1, 3, 4, 4)).shape
        minigrad.Size([1, 12, 9])
    """

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size, self.dilation = kernel_size, dilation
        self.padding, self.stride = padding, stride

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_size}, dilation={self.dilation}, "
            f"padding={self.padding}, stride={self.stride}"
        )


class Fold(Module):
    """Columns added back into an image (``torch.nn.Fold``, col2im; see :func:`F.fold`)."""

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.fold(
            input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride
        )

    def extra_repr(self) -> str:
        return (
            f"output_size={self.output_size}, kernel_size={self.kernel_size}, "
            f"dilation={self.dilation}, padding={self.padding}, stride={self.stride}"
        )


class MaxUnpool2d(Module):
    """The partial inverse of ``MaxPool2d`` (``torch.nn.MaxUnpool2d``; see :func:`F.max_unpool2d`):
    ``unpool(y, indices, output_size=None)`` with the indices ``MaxPool2d(return_indices=True)``
    returned. Its sizes are kept as pairs, as PyTorch's."""

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        self.kernel_size = _pair(kernel_size, "MaxUnpool2d", "kernel_size")
        given = kernel_size if stride is None else stride
        self.stride = _pair(given, "MaxUnpool2d", "stride")
        self.padding = _pair(padding, "MaxUnpool2d", "padding")

    def forward(self, input: Tensor, indices: Tensor, output_size=None) -> Tensor:  # noqa: A002
        return F.max_unpool2d(
            input, indices, self.kernel_size, self.stride, self.padding, output_size
        )

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"
