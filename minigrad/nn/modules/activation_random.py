"""``RReLU``: the leaky ReLU whose negative slope is drawn per element in training."""

from __future__ import annotations

from ...tensor import Tensor
from .. import functional as F
from .module import Module


class RReLU(Module):
    """x if x > 0 else a * x, a ~ U(lower, upper) per element in training and
    (lower + upper) / 2 in ``eval()`` (``torch.nn.RReLU``; see :func:`F.rrelu`).

    Example:
        >>> import minigrad as mg
        >>> act = mg.nn.RReLU(0.1, 0.3).eval()
        >>> act
        RReLU(lower=0.1, upper=0.3)
        >>> act(mg.tensor([-1.0, 1.0]))
        tensor([-0.2000,  1.0000])
    """

    def __init__(self, lower: float = 1.0 / 8, upper: float = 1.0 / 3, inplace: bool = False):
        super().__init__()
        self.lower, self.upper, self.inplace = lower, upper, inplace

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return F.rrelu(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self) -> str:
        inplace = ", inplace=True" if self.inplace else ""
        return f"lower={self.lower}, upper={self.upper}{inplace}"
