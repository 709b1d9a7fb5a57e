"""Channel dropout and the group and RMS normalizations of ``nn.functional``: ``dropout1d``,
``dropout2d``, ``group_norm``, ``rms_norm``.

Compositions of differentiable Tensor ops, like ``_functional_layers`` (PyTorch records
``NativeGroupNormBackward0`` for group_norm, and ``MulBackward0`` for rms_norm, as here).
"""

from __future__ import annotations

import warnings

import numpy as np

from .. import random
from ..amp.autocast import float32_region
from ..errors import nn as _errors
from ..ops._util import check_tensor
from ..tensor import Tensor
from ._functional_layers import _check_layer_norm, _check_p, _normalized_shape


def _feature_dropout(input: Tensor, p: float, training: bool, inplace: bool) -> Tensor:  # noqa: A002
    """Zero whole channels: one draw per (sample, channel), the mask broadcast over the rest.

    PyTorch's ``feature_dropout``: a (N, C, 1, ...) tensor ``bernoulli_(1 - p)`` divided by
    1 - p, so after the same seed the dropped channels are PyTorch's.
    """
    _check_p(p)
    if not training or p == 0.0:
        return input
    if not input.is_floating_point():
        raise RuntimeError(_errors.DROPOUT_DTYPE.format(got=input.dtype))
    shape = input.shape[:2] + (1,) * (input.ndim - 2)
    dtype = input._data.dtype
    if p == 1.0:
        noise = np.zeros(shape, dtype)
    else:
        n = int(np.prod(shape))
        u = random.resolve(None)._uniform(n, np.float64).reshape(shape)
        noise = (u < 1.0 - p).astype(dtype) / np.asarray(1.0 - p, dtype=dtype)
    mask = Tensor._make(noise, False, None)
    return input.mul_(mask) if inplace else input * mask


def dropout1d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:  # noqa: A002
    """Zero whole channels of (N, C, L) or (C, L) input with probability ``p``, scaling the
    rest by 1/(1-p) (``F.dropout1d``)."""
    check_tensor(input, "dropout1d")
    if input.ndim not in (2, 3):
        raise RuntimeError(_errors.DROPOUT1D_DIMS.format(got=input.ndim))
    if input.ndim == 3:
        return _feature_dropout(input, p, training, inplace)
    if inplace:
        return _feature_dropout(input.unsqueeze_(0), p, training, True).squeeze_(0)
    return _feature_dropout(input.unsqueeze(0), p, training, False).squeeze(0)


def dropout2d(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:  # noqa: A002
    """Zero whole channels of (N, C, H, W) input with probability ``p`` (``F.dropout2d``).

    As PyTorch's, a 3-D input is taken as (N, C, L), with its warning (use ``dropout1d``).
    """
    check_tensor(input, "dropout2d")
    if input.ndim not in (3, 4):
        warnings.warn(_errors.DROPOUT2D_DIMS.format(got=input.ndim), UserWarning, stacklevel=2)
    if input.ndim == 3:
        warnings.warn(_errors.DROPOUT2D_3D, UserWarning, stacklevel=2)
    return _feature_dropout(input, p, training, inplace)


@float32_region
def group_norm(
    input: Tensor,  # noqa: A002
    num_groups: int,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    """Normalize each sample's channels in ``num_groups`` groups, then scale and shift per
    channel (``F.group_norm``).

    The C channels of an (N, C, *) input split into groups of C / num_groups; each group's
    mean and biased variance (over its channels and all positions) normalize it.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.group_norm(mg.tensor([[1.0, 3.0, 5.0, 5.0]]), 2)
        tensor([[-1.0000,  1.0000,  0.0000,  0.0000]])
    """
    check_tensor(input, "group_norm")
    if input.ndim < 2:
        raise RuntimeError(_errors.GROUP_NORM_DIMS.format(got=input.ndim))
    n, c = input.shape[:2]
    if num_groups <= 0 or c % num_groups:
        raise RuntimeError(_errors.GROUP_NORM_INPUT.format(shape=list(input.shape), g=num_groups))
    if not input.is_floating_point():
        raise TypeError(_errors.NORM_DTYPE.format(op="group_norm", got=input.dtype))
    groups = input.reshape(n, num_groups, -1)
    centered = groups - groups.mean(-1, keepdim=True)
    var = (centered * centered).mean(-1, keepdim=True)
    out = (centered / (var + eps).sqrt()).reshape(*input.shape)
    per_channel = (1, c) + (1,) * (input.ndim - 2)
    if weight is not None:
        out = out * weight.reshape(*per_channel)
    if bias is not None:
        out = out + bias.reshape(*per_channel)
    return out


@float32_region
def rms_norm(
    input: Tensor,  # noqa: A002
    normalized_shape,
    weight: Tensor | None = None,
    eps: float | None = None,
) -> Tensor:
    """x / sqrt(mean(x^2) + eps) * weight over the last dims (``F.rms_norm``).

    Like layer norm without centring or bias. ``eps`` defaults to the machine epsilon of
    the input's dtype (``torch.finfo(x.dtype).eps``), as PyTorch.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.rms_norm(mg.tensor([[3.0, 4.0]]), (2,))
        tensor([[0.8485, 1.1314]])
    """
    check_tensor(input, "rms_norm")
    shape = _normalized_shape(normalized_shape)
    _check_layer_norm(input, shape, weight, None)
    if eps is None:
        eps = float(np.finfo(input._data.dtype).eps)
    dims = tuple(range(-len(shape), 0))
    out = input * ((input * input).mean(dims, keepdim=True) + eps).rsqrt()
    return out if weight is None else out * weight
