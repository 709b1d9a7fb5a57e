"""``Linear``: the affine layer y = x W^T + b (``torch.nn.Linear``), ``Bilinear`` and ``Identity``."""

from __future__ import annotations

import math

from ... import _device, _dtype
from ...factory import empty
from ...tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module


class Linear(Module):
    """Affine map y = x W^T + b, with W of shape (out_features, in_features).

    Weight and bias start as samples of U(-1/sqrt(in_features), 1/sqrt(in_features)),
    PyTorch's default (its ``kaiming_uniform_(a=sqrt(5))`` works out to this
    bound), drawn from minigrad's seeded generator: weight first, then bias.

    Args:
        in_features: size of each input sample (the last dimension of x).
        out_features: size of each output sample.
        bias: learn an additive bias (default True).
        device: accepted as in PyTorch; must be the CPU (``"cpu"``, ``mg.device("cpu")``).
        dtype: dtype of the parameters (default: the default float dtype).

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> layer = mg.nn.Linear(2, 3)
        >>> layer
        Linear(in_features=2, out_features=3, bias=True)
        >>> layer.weight.shape
        minigrad.Size([3, 2])
        >>> layer(mg.ones(4, 2)).shape
        minigrad.Size([4, 3])
    """

    def __init__(
        self, in_features: int, out_features: int, bias: bool = True, device=None, dtype=None
    ):
        _device.check(device, "Linear()")
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        d = _dtype.defaults.float_dtype if dtype is None else _dtype.as_dtype(dtype)
        self.weight = Parameter(empty(out_features, in_features, dtype=d))
        if bias:
            self.bias = Parameter(empty(out_features, dtype=d))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw fresh weights and bias from U(-1/sqrt(in_features), 1/sqrt(in_features)).

        As PyTorch: the weight from ``kaiming_uniform_(a=sqrt(5))`` (whose bound works out to
        1/sqrt(in_features), computed PyTorch's way so it rounds the same), then the bias.
        """
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        bound = 1.0 / math.sqrt(self.in_features) if self.in_features > 0 else 0.0
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in_features={self.in_features}, out_features={self.out_features}, "
            f"bias={self.bias is not None}"
        )


class Bilinear(Module):
    """y = x1^T A x2 + b per output feature (``torch.nn.Bilinear``; see :func:`F.bilinear`).

    ``weight`` (out_features, in1_features, in2_features) and ``bias`` (out_features,) start
    as samples of U(-1/sqrt(in1_features), 1/sqrt(in1_features)), weight first: PyTorch's
    numbers after the same seed.

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> layer = mg.nn.Bilinear(3, 4, 5)
        >>> layer
        Bilinear(in1_features=3, in2_features=4, out_features=5, bias=True)
        >>> layer(mg.ones(2, 3), mg.ones(2, 4)).shape
        minigrad.Size([2, 5])
    """

    def __init__(
        self,
        in1_features: int,
        in2_features: int,
        out_features: int,
        bias: bool = True,
        device=None,
        dtype=None,
    ):
        _device.check(device, "Bilinear()")
        super().__init__()
        self.in1_features, self.in2_features = in1_features, in2_features
        self.out_features = out_features
        d = _dtype.defaults.float_dtype if dtype is None else _dtype.as_dtype(dtype)
        self.weight = Parameter(empty(out_features, in1_features, in2_features, dtype=d))
        if bias:
            self.bias = Parameter(empty(out_features, dtype=d))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """weight, then bias, from U(-1/sqrt(in1_features), 1/sqrt(in1_features))."""
        bound = 1.0 / math.sqrt(self.weight.shape[1])
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1: Tensor, input2: Tensor) -> Tensor:
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
            f"out_features={self.out_features}, bias={self.bias is not None}"
        )


class Identity(Module):
    """Returns its input unchanged (``torch.nn.Identity``): a placeholder layer.

    Any constructor arguments are accepted and ignored, so ``Identity(54)`` can
    stand in for a layer that took a size.
    """

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return input
