"""Shape layers: ``Flatten`` and ``Unflatten`` (``torch.nn.modules.flatten``).

Each wraps one Tensor method (``flatten`` / ``unflatten``), a reshape: the gradient is
reshaped back. They hold no parameters; they let a shape change sit in a ``Sequential``.
"""

from __future__ import annotations

import numpy as np

from ...errors import nn as _errors
from ...tensor import Tensor
from .module import Module


def _int_arg(value, name: str, cls: str) -> int:
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
        raise TypeError(
            _errors.FLATTEN_DIM_TYPE.format(cls=cls, name=name, got=type(value).__name__)
        )
    return int(value)


class Flatten(Module):
    """Merge dims ``start_dim..end_dim`` into one (``torch.nn.Flatten``); by default every dim
    but the first (the batch), so ``(N, C, H, W)`` becomes ``(N, C*H*W)``.

    Example:
        >>> import minigrad as mg
        >>> from minigrad import nn
        >>> flat = nn.Flatten()
        >>> flat
        Flatten(start_dim=1, end_dim=-1)
        >>> flat(mg.zeros(2, 3, 4)).shape
        minigrad.Size([2, 12])
    """

    def __init__(self, start_dim: int = 1, end_dim: int = -1):
        super().__init__()
        self.start_dim = _int_arg(start_dim, "start_dim", "Flatten")
        self.end_dim = _int_arg(end_dim, "end_dim", "Flatten")

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Split dim ``dim`` into ``unflattened_size`` (``torch.nn.Unflatten``); one size may be -1.

    Example:
        >>> import minigrad as mg
        >>> from minigrad import nn
        >>> unflat = nn.Unflatten(1, (2, 5))
        >>> unflat
        Unflatten(dim=1, unflattened_size=(2, 5))
        >>> unflat(mg.zeros(3, 10)).shape
        minigrad.Size([3, 2, 5])
    """

    def __init__(self, dim: int, unflattened_size):
        super().__init__()
        self.dim = _int_arg(dim, "dim", "Unflatten")
        if not isinstance(unflattened_size, (tuple, list)):
            got = type(unflattened_size).__name__
            raise TypeError(_errors.UNFLATTEN_SIZE_TYPE.format(got=got))
        for i, s in enumerate(unflattened_size):
            if not isinstance(s, (int, np.integer)) or isinstance(s, bool):
                raise TypeError(_errors.UNFLATTEN_SIZE_ELEMENT.format(got=type(s).__name__, i=i))
        self.unflattened_size = unflattened_size

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
