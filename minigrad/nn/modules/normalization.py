"""``LayerNorm``, ``RMSNorm`` (over each sample's trailing dims) and ``GroupNorm`` (over groups of channels)."""

from __future__ import annotations

import numbers

from ... import _device, _dtype
from ...errors import nn as _errors
from ...factory import ones, zeros
from ...tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module


class LayerNorm(Module):
    """y = (x - mean) / sqrt(var + eps) * weight + bias over the last dims (see :func:`F.layer_norm`).

    Mean and (biased) variance are taken per sample over the trailing dims given
    by ``normalized_shape``, so unlike batch norm it behaves the same in
    training and evaluation.

    Args:
        normalized_shape: an int (the last dim's size) or a tuple/list of ints.
        eps: added to the variance for stability.
        elementwise_affine: learn ``weight`` (ones) and ``bias`` (zeros) of shape
            ``normalized_shape``.
        bias: with ``elementwise_affine``, whether to learn the bias too.
        device: accepted as in PyTorch; must be the CPU.
        dtype: dtype of the parameters (default: the default float dtype).

    Example:
        >>> import minigrad as mg
        >>> norm = mg.nn.LayerNorm(3)
        >>> norm
        LayerNorm((3,), eps=1e-05, elementwise_affine=True, bias=True)
        >>> y = norm(mg.tensor([[1.0, 2.0, 3.0], [2.0, 2.0, 8.0]]))
        >>> y.mean(-1).abs().max().item() < 1e-6
        True
        >>> [name for name, _ in norm.named_parameters()]
        ['weight', 'bias']
    """

    def __init__(
        self,
        normalized_shape,
        eps: float = 1e-5,
        elementwise_affine: bool = True,
        bias: bool = True,
        device=None,
        dtype=None,
    ):
        _device.check(device, "LayerNorm()")
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(int(n) for n in normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        d = _dtype.defaults.float_dtype if dtype is None else _dtype.as_dtype(dtype)
        if elementwise_affine:
            self.weight = Parameter(ones(*self.normalized_shape, dtype=d))
        else:
            self.register_parameter("weight", None)
        if elementwise_affine and bias:
            self.bias = Parameter(zeros(*self.normalized_shape, dtype=d))
        else:
            self.register_parameter("bias", None)

    def reset_parameters(self) -> None:
        """weight back to ones, bias back to zeros."""
        if self.weight is not None:
            init.ones_(self.weight)
        if self.bias is not None:
            init.zeros_(self.bias)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (
            f"{self.normalized_shape}, eps={self.eps}, "
            f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}"
        )


class GroupNorm(Module):
    """Normalize each sample's channels in groups, then scale and shift per channel (see
    :func:`F.group_norm`; ``torch.nn.GroupNorm``).

    Args:
        num_groups: the number of groups; it must divide ``num_channels``.
        num_channels: C, the size of dim 1 of the input.
        eps: added to the variance for stability.
        affine: learn ``weight`` (ones) and ``bias`` (zeros) of shape (C,).
        bias: with ``affine``, whether to learn the bias too.
        device: the CPU only; dtype: of the parameters.

    Example:
        >>> import minigrad as mg
        >>> mg.nn.GroupNorm(2, 4)
        GroupNorm(2, 4, eps=1e-05, affine=True, bias=True)
    """

    def __init__(
        self,
        num_groups: int,
        num_channels: int,
        eps: float = 1e-5,
        affine: bool = True,
        bias: bool = True,
        device=None,
        dtype=None,
    ):
        _device.check(device, "GroupNorm()")
        super().__init__()
        if num_channels % num_groups:
            raise ValueError(_errors.GROUPS_DIVIDE.format(c=num_channels, g=num_groups))
        self.num_groups, self.num_channels, self.eps, self.affine = (
            num_groups,
            num_channels,
            eps,
            affine,
        )
        d = _dtype.defaults.float_dtype if dtype is None else _dtype.as_dtype(dtype)
        w = Parameter(ones(num_channels, dtype=d)) if affine else None
        self.register_parameter("weight", w)
        b = Parameter(zeros(num_channels, dtype=d)) if affine and bias else None
        self.register_parameter("bias", b)

    def reset_parameters(self) -> None:
        """weight back to ones, bias back to zeros."""
        LayerNorm.reset_parameters(self)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (
            f"{self.num_groups}, {self.num_channels}, eps={self.eps}, "
            f"affine={self.affine}, bias={self.bias is not None}"
        )


class RMSNorm(Module):
    """y = x / sqrt(mean(x^2) + eps) * weight over the last dims (see :func:`F.rms_norm`;
    ``torch.nn.RMSNorm``).

    Args:
        normalized_shape: an int (the last dim's size) or a tuple/list of ints.
        eps: added to the mean square; None: the dtype's machine epsilon (as PyTorch).
        elementwise_affine: learn ``weight`` (ones) of shape ``normalized_shape``.
        device: the CPU only; dtype: of the weight.

    Example:
        >>> import minigrad as mg
        >>> mg.nn.RMSNorm(4)
        RMSNorm((4,), eps=None, elementwise_affine=True)
    """

    def __init__(
        self,
        normalized_shape,
        eps: float | None = None,
        elementwise_affine: bool = True,
        device=None,
        dtype=None,
    ):
        _device.check(device, "RMSNorm()")
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(int(n) for n in normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        d = _dtype.defaults.float_dtype if dtype is None else _dtype.as_dtype(dtype)
        w = Parameter(ones(*self.normalized_shape, dtype=d)) if elementwise_affine else None
        self.register_parameter("weight", w)

    def reset_parameters(self) -> None:
        """weight back to ones."""
        if self.weight is not None:
            init.ones_(self.weight)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return F.rms_norm(input, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return (
            f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"
        )
