"""Filling parameters in place with initial values (``torch.nn.init``).

Random values come from minigrad's seeded generator (:func:`minigrad.manual_seed`),
so a model built after ``manual_seed(0)`` always starts from the same weights.
Every function writes under ``no_grad`` and returns the tensor it filled.
"""

from __future__ import annotations

from ..autograd.grad_mode import no_grad
from ..factory import rand
from ..tensor import Tensor


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0) -> Tensor:
    """Fill with samples of U(a, b): a + (b - a) * rand (``torch.nn.init.uniform_``)."""
    with no_grad():
        return tensor.copy_(rand(*tensor.shape, dtype=tensor.dtype) * (b - a) + a)


def constant_(tensor: Tensor, val: float) -> Tensor:
    """Fill with ``val`` (``torch.nn.init.constant_``)."""
    with no_grad():
        return tensor.fill_(val)


def zeros_(tensor: Tensor) -> Tensor:
    """Fill with zeros (``torch.nn.init.zeros_``)."""
    return constant_(tensor, 0.0)


def ones_(tensor: Tensor) -> Tensor:
    """Fill with ones (``torch.nn.init.ones_``)."""
    return constant_(tensor, 1.0)
