"""``Softmax``, ``LogSoftmax`` and ``Softmin`` layers (``torch.nn.Softmax``, ``torch.nn.LogSoftmax``)."""

from __future__ import annotations

from ...tensor import Tensor
from .. import functional as F
from .module import Module


class Softmax(Module):
    """exp(x_i) / sum_j exp(x_j) along ``dim`` (see :func:`F.softmax`).

    Args:
        dim: the dimension that sums to 1. With None (the default, as in
            PyTorch) a dimension is guessed, with PyTorch's deprecation warning.
    """

    def __init__(self, dim: int | None = None):
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return F.softmax(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class LogSoftmax(Module):
    """x_i - logsumexp(x) along ``dim``: log(softmax(x)) computed stably (see :func:`F.log_softmax`).

    Args:
        dim: the dimension to normalize over (None: guessed, with a warning).
    """

    def __init__(self, dim: int | None = None):
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.log_softmax(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Softmin(Module):
    """softmax(-x) along ``dim`` (``torch.nn.Softmin``; see :func:`F.softmin`).

    Args:
        dim: the dimension that sums to 1 (None: guessed, with a warning).
    """

    def __init__(self, dim: int | None = None):
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.softmin(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Softmax2d(Module):
    """Softmax over the channels of (N, C, H, W) or (C, H, W) input, at each position
    (``torch.nn.Softmax2d``)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        if input.ndim not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.ndim}D instead")
        return F.softmax(input, -3)
