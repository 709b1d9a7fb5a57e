"""Stateless neural-network functions (``torch.nn.functional``, imported as ``F``).

Every function here is built from differentiable Tensor ops, so gradients
(and gradients of gradients) come from the ops' own backward rules; nothing
here defines a backward of its own. The losses live in ``_functional_losses``
and are re-exported here, as PyTorch keeps them all in one namespace.

Example:
    >>> import minigrad as mg
    >>> import minigrad.nn.functional as F
    >>> F.softmax(mg.tensor([0.0, 0.0]), dim=0)
    tensor([0.5000, 0.5000])
"""

from __future__ import annotations

import warnings

from ..errors import nn as _errors
from ..tensor import Tensor
from ._functional_losses import (
    binary_cross_entropy_with_logits,
    cross_entropy,
    mse_loss,
    nll_loss,
)

__all__ = [
    "relu",
    "sigmoid",
    "tanh",
    "softmax",
    "log_softmax",
    "linear",
    "mse_loss",
    "nll_loss",
    "cross_entropy",
    "binary_cross_entropy_with_logits",
]


def relu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002  (PyTorch names)
    """max(x, 0) elementwise; relu'(0) = 0 (``torch.nn.functional.relu``).

    With ``inplace=True`` the result is written into ``input`` (``relu_``),
    which PyTorch forbids on a leaf that requires grad, and so do we.
    """
    if inplace:
        return input.copy_(input.relu())
    return input.relu()


def sigmoid(input: Tensor) -> Tensor:  # noqa: A002
    """1 / (1 + exp(-x)) elementwise, stable at +-1000."""
    return input.sigmoid()


def tanh(input: Tensor) -> Tensor:  # noqa: A002
    """tanh(x) elementwise."""
    return input.tanh()


def _softmax_dim(name: str, ndim: int, dim):
    if dim is not None:
        return dim
    warnings.warn(_errors.IMPLICIT_DIM.format(name=name), UserWarning, stacklevel=3)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input: Tensor, dim: int | None = None, dtype=None) -> Tensor:  # noqa: A002
    """exp(x_i) / sum_j exp(x_j) along ``dim``, computed stably (max subtracted first).

    Args:
        input: the scores.
        dim: the dimension that sums to 1 (PyTorch warns and guesses when omitted).
        dtype: cast the input to this dtype first.
    """
    if dtype is not None:
        input = input.to(dtype)
    return input.softmax(_softmax_dim("softmax", input.ndim, dim))


def log_softmax(input: Tensor, dim: int | None = None, dtype=None) -> Tensor:  # noqa: A002
    """x_i - logsumexp(x) along ``dim``: log(softmax(x)) without overflow or log(0)."""
    if dtype is not None:
        input = input.to(dtype)
    return input.log_softmax(_softmax_dim("log_softmax", input.ndim, dim))


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:  # noqa: A002
    """y = x @ W^T + b, with W of shape (out_features, in_features) (``F.linear``).

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.linear(mg.tensor([[1.0, 2.0]]), mg.tensor([[1.0, 1.0], [0.0, 1.0]]), mg.tensor([0.5, 0.0]))
        tensor([[3.5000, 2.0000]])
    """
    out = input @ weight.T
    return out if bias is None else out + bias
