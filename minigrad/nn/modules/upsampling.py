"""``Upsample`` (``torch.nn.Upsample``) and its fixed-mode forms ``UpsamplingNearest2d`` and
``UpsamplingBilinear2d``: modules around :func:`F.interpolate`."""

from __future__ import annotations

from ...tensor import Tensor
from .. import functional as F
from .module import Module


class Upsample(Module):
    """Resize the spatial dims by ``scale_factor`` or to ``size`` (see :func:`F.interpolate`).

    Example:
        >>> import minigrad as mg
        >>> up = mg.nn.Upsample(scale_factor=2, mode="nearest")
        >>> up
        Upsample(scale_factor=2.0, mode='nearest')
        >>> up(mg.ones(1, 3, 4, 5)).shape
        minigrad.Size([1, 3, 8, 10])
    """

    def __init__(
        self,
        size=None,
        scale_factor=None,
        mode: str = "nearest",
        align_corners: bool | None = None,
        recompute_scale_factor: bool | None = None,
    ):
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor = tuple(float(f) for f in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return F.interpolate(
            input,
            self.size,
            self.scale_factor,
            self.mode,
            self.align_corners,
            recompute_scale_factor=self.recompute_scale_factor,
        )

    def extra_repr(self) -> str:
        if self.scale_factor is not None:
            info = f"scale_factor={self.scale_factor!r}"
        else:
            info = f"size={self.size!r}"
        return info + f", mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    """``Upsample(mode='nearest')`` of (N, C, H, W) input (``torch.nn.UpsamplingNearest2d``)."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """``Upsample(mode='bilinear', align_corners=True)`` (``torch.nn.UpsamplingBilinear2d``)."""

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)
