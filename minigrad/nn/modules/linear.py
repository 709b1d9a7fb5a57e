"""``Linear``: the affine layer y = x W^T + b (``torch.nn.Linear``), and ``Identity``."""

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


class Identity(Module):
    """Returns its input unchanged (``torch.nn.Identity``): a placeholder layer.

    Any constructor arguments are accepted and ignored, so ``Identity(54)`` can
    stand in for a layer that took a size.
    """

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return input
