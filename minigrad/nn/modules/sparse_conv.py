"""Submanifold sparse convolution layers: ``SubMConv2d`` and ``SubMConv3d`` (spconv's names).

NB: the analogous layers are ``spconv.pytorch.SubMConv2d`` / ``SubMConv3d`` (and Paddle's
``paddle.sparse.nn.SubmConv2D``). Two differences a student moving on will meet: spconv
takes a ``SparseConvTensor`` (features ``(nnz, C)`` plus integer coordinates with a batch
column) where minigrad takes a hybrid COO tensor, and spconv stores its weight as
``(kH, kW, in, out)``-like layouts where minigrad keeps PyTorch's ``Conv2d`` layout
``(out, in, kH, kW)``, so ``SubMConv2d`` can be checked against ``torch.nn.Conv2d``
directly. spconv's ``indice_key`` (sharing a rule book between layers) is not needed:
the rule book is cached with the pattern, so layers over one pattern share it by themselves.
"""

from __future__ import annotations

import math
import operator

from ... import _device, _dtype
from ...errors import sparse_conv as errors
from ...factory import empty
from ...sparse import conv as sparse_conv
from ...tensor import Tensor
from .. import init
from ..parameter import Parameter
from .module import Module


def _channels(op: str, value, arg: str) -> int:
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(errors.CHANNELS_ARG.format(op=op, arg=arg, got=value))
    value = operator.index(value)
    if value < 1:
        raise ValueError(errors.CHANNELS_ARG.format(op=op, arg=arg, got=value))
    return value


class _SubMConvNd(Module):
    """What the 2-D and 3-D layers share: parameters, their initialisation, the repr."""

    _spatial = 0  # number of spatial dims, set by the subclasses

    def __init__(
        self, in_channels, out_channels, kernel_size, bias: bool = True, device=None, dtype=None
    ):
        op = type(self).__name__
        _device.check(device, f"{op}()")
        super().__init__()
        self.in_channels = _channels(op, in_channels, "in_channels")
        self.out_channels = _channels(op, out_channels, "out_channels")
        self.kernel_size = sparse_conv.check_kernel_size(op, kernel_size, self._spatial)
        d = _dtype.defaults.float_dtype if dtype is None else _dtype.as_dtype(dtype)
        shape = (self.out_channels, self.in_channels, *self.kernel_size)
        self.weight = Parameter(empty(*shape, dtype=d))
        if bias:
            self.bias = Parameter(empty(self.out_channels, dtype=d))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """PyTorch's ``Conv2d`` initialisation: weight and bias from U(-1/sqrt(fan_in),
        1/sqrt(fan_in)), fan_in = in_channels * kH * kW (``kaiming_uniform_(a=sqrt(5))``
        works out to this bound), drawn from minigrad's seeded generator: weight, then bias."""
        fan_in = self.in_channels * math.prod(self.kernel_size)
        bound = 1.0 / math.sqrt(fan_in)
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def extra_repr(self) -> str:
        text = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}"
        return text if self.bias is not None else text + ", bias=False"


class SubMConv2d(_SubMConvNd):
    """2-D submanifold convolution over the active sites of a hybrid COO tensor.

    The input has shape ``(H, W, in_channels)`` (or ``(N, H, W, in_channels)``): 2 sparse
    spatial dims (3 with a batch) and a dense channel dim; its stored entries are the
    active sites. The output is a COO tensor on exactly those sites with ``out_channels``
    values each: at every active site, what ``torch.nn.Conv2d(in, out, k, padding=k // 2)``
    gives on the zero-filled input (see :func:`minigrad.sparse.subm_conv2d`). The input's
    gradient is sparse, on its pattern; the parameters' are dense.

    For a loss, read the values (``out.values()``, ``mg.sparse.sum(out)``); ``out.sum()``
    has PyTorch's full gradient, which is dense over the whole grid. Between layers, a
    nonlinearity acts on the values: ``mg.sparse_coo_tensor(out.indices(),
    out.values().relu(), out.shape)`` (spconv: ``x.replace_feature(relu(x.features))``)
    keeps the pattern, and so the rule book.

    Args:
        in_channels: channels of the input (its dense dim).
        out_channels: channels of the output.
        kernel_size: odd int or pair of odd ints, each at most 15.
        bias: learn an additive bias (default True).
        device: must be the CPU, as for every layer.
        dtype: of the parameters (default: the default float dtype).

    Attributes:
        weight: ``(out_channels, in_channels, kH, kW)``, PyTorch's ``Conv2d`` layout.
        bias: ``(out_channels,)`` or None.

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> conv = mg.nn.SubMConv2d(2, 4, 3)
        >>> conv
        SubMConv2d(2, 4, kernel_size=(3, 3))
        >>> x = mg.sparse_coo_tensor([[0, 5, 5], [3, 5, 6]], mg.ones(3, 2), (8, 8, 2))
        >>> y = conv(x)
        >>> y.shape, y.nnz, y.layout
        (minigrad.Size([8, 8, 4]), 3, 'sparse_coo')
        >>> mg.sparse.sum(y).backward()
        >>> conv.weight.grad.shape
        minigrad.Size([4, 2, 3, 3])
    """

    _spatial = 2

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return sparse_conv.subm_conv2d(input, self.weight, self.bias)


class SubMConv3d(_SubMConvNd):
    """3-D submanifold convolution: :class:`SubMConv2d` on ``(D, H, W, in_channels)`` or
    ``(N, D, H, W, in_channels)`` sites, weight ``(out, in, kD, kH, kW)`` (``nn.Conv3d``'s).

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> conv = mg.nn.SubMConv3d(1, 2, 3, bias=False)
        >>> conv
        SubMConv3d(1, 2, kernel_size=(3, 3, 3), bias=False)
        >>> x = mg.sparse_coo_tensor([[0, 1], [0, 1], [0, 1]], [[1.0], [2.0]], (4, 4, 4, 1))
        >>> conv(x).shape
        minigrad.Size([4, 4, 4, 2])
    """

    _spatial = 3

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return sparse_conv.subm_conv3d(input, self.weight, self.bias)
