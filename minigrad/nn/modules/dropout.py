"""``Dropout``: random zeroing during training only (``torch.nn.Dropout``)."""

from __future__ import annotations

from ...tensor import Tensor
from .. import functional as F
from .._functional_layers import _check_p
from .module import Module


class Dropout(Module):
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

    def __init__(self, p: float = 0.5, inplace: bool = False):
        super().__init__()
        _check_p(p)
        self.p = p
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"
