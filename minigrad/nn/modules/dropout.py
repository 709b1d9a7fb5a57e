"""``Dropout``, ``Dropout1d``, ``Dropout2d``, ``AlphaDropout``: random zeroing during training only (``torch.nn.Dropout*``)."""

from __future__ import annotations

from ...tensor import Tensor
from .. import functional as F
from .._functional_layers import _check_p
from .module import Module


class _DropoutNd(Module):
    """What the dropout layers share: ``p``, ``inplace`` and the repr."""

    def __init__(self, p: float = 0.5, inplace: bool = False):
        super().__init__()
        _check_p(p)
        self.p = p
        self.inplace = inplace

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    """Zero each element with probability ``p`` in training, scaling the rest by 1/(1-p).

    In ``eval()`` mode it returns its input unchanged. See :func:`F.dropout`.

    Args:
        p: probability of zeroing an element, in [0, 1] (default 0.5).
        inplace: overwrite the input with the result.

    Example:
        >>> import minigrad as mg
        >>> drop = mg.nn.Dropout(p=0.25)
        >>> drop
        Dropout(p=0.25, inplace=False)
        >>> x = mg.ones(3)
        >>> drop.eval()(x) is x
        True
    """

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return F.dropout(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutNd):
    """Zero whole channels of (N, C, L) or (C, L) input with probability ``p`` in training
    (``torch.nn.Dropout1d``); see :func:`F.dropout1d`."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    """Zero whole channels of (N, C, H, W) input with probability ``p`` in training
    (``torch.nn.Dropout2d``); see :func:`F.dropout2d`. PyTorch draws the same channels:

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> mg.nn.Dropout2d(0.5)(mg.ones(1, 4, 1, 2))
        tensor([[[[0., 0.]],
        <BLANKLINE>
                 [[0., 0.]],
        <BLANKLINE>
                 [[2., 2.]],
        <BLANKLINE>
                 [[0., 0.]]]])
    """

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return F.dropout2d(input, self.p, self.training, self.inplace)


class AlphaDropout(_DropoutNd):
    """Dropout that keeps SELU's zero mean and unit variance, in training only
    (``torch.nn.AlphaDropout``; see :func:`F.alpha_dropout`)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return F.alpha_dropout(input, self.p, self.training, self.inplace)
