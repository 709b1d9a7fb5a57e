"""Dense convolution layers ``Conv1d``, ``Conv2d``, ``Conv3d``, ``ConvTranspose1d``, ``ConvTranspose2d``.

The sparse submanifold layers are in ``sparse_conv.py``; these convolve every position of
a dense (N, C, *S) tensor through ``nn.functional.conv1d`` / ``conv2d``.
"""

from __future__ import annotations

import math
import operator

from ... import _device, _dtype
from ...errors import conv as errors
from ...factory import empty
from ...tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module


def _ntuple(value, d: int) -> tuple:
    if isinstance(value, (tuple, list)):
        return tuple(operator.index(v) for v in value)
    return (operator.index(value),) * d


class _ConvNd(Module):
    """What the 1-D and 2-D layers share: checks, parameters, initialisation and the repr."""

    _spatial = 0  # number of spatial dims, set by the subclasses
    _transposed = False  # ConvTranspose*d: weight (in, out // groups, *k)

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size,
        stride=1,
        padding=0,
        dilation=1,
        groups: int = 1,
        bias: bool = True,
        padding_mode: str = "zeros",
        device=None,
        dtype=None,
        output_padding=0,
    ):
        d = self._spatial
        _device.check(device, f"{type(self).__name__}()")
        super().__init__()
        if groups <= 0:
            raise ValueError(errors.MODULE_GROUPS_POSITIVE.format(groups=groups))
        for name, n in (("in_channels", in_channels), ("out_channels", out_channels)):
            if n % groups:
                raise ValueError(errors.MODULE_GROUPS.format(name=name, n=n, groups=groups))
        if padding_mode != "zeros":
            raise ValueError(errors.PADDING_MODE.format(got=padding_mode))
        self.stride = _ntuple(stride, d)
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(errors.PADDING_STRING.format(got=padding))
            if padding == "same" and any(s != 1 for s in self.stride):
                raise ValueError(errors.MODULE_SAME_STRIDE)
            self.padding = padding
        else:
            self.padding = _ntuple(padding, d)
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size = _ntuple(kernel_size, d)
        self.dilation = _ntuple(dilation, d)
        self.groups = groups
        self.padding_mode = padding_mode
        self.transposed, self.output_padding = self._transposed, _ntuple(output_padding, d)
        dt = _dtype.defaults.float_dtype if dtype is None else _dtype.as_dtype(dtype)
        shape = (out_channels, in_channels // groups, *self.kernel_size)
        if self._transposed:
            shape = (in_channels, out_channels // groups, *self.kernel_size)
        self.weight = Parameter(empty(*shape, dtype=dt))
        if bias:
            self.bias = Parameter(empty(out_channels, dtype=dt))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """PyTorch's default: weight from ``kaiming_uniform_(a=sqrt(5))``, which is
        U(-1/sqrt(fan_in), 1/sqrt(fan_in)) with fan_in = in_channels/groups * prod(kernel_size),
        then bias from the same interval (weight first, then bias, minigrad's generator)."""
        fan_in = self.weight.shape[1] * math.prod(self.kernel_size)
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        bound = 1.0 / math.sqrt(fan_in) if fan_in > 0 else 0.0
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def extra_repr(self) -> str:
        d = self._spatial
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}"
        s += f", stride={self.stride}"
        if isinstance(self.padding, str):
            s += f", padding={self.padding}"
        elif self.padding != (0,) * d:
            s += f", padding={self.padding}"
        if self.dilation != (1,) * d:
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * d:
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        return s


class Conv2d(_ConvNd):
    """2-D convolution layer: y = conv2d(x, weight, bias) over (N, C_in, H, W) or (C_in, H, W).

    Args:
        in_channels, out_channels: channels of the input and of the output.
        kernel_size: an int or an (kH, kW) pair; ``weight`` is (out, in // groups, kH, kW).
        stride, padding, dilation, groups: as in :func:`minigrad.nn.functional.conv2d`
            (``padding`` also ``'same'`` or ``'valid'``).
        bias: learn an additive bias of shape (out_channels,) (default True).
        padding_mode: only ``'zeros'`` (PyTorch also has reflect/replicate/circular).
        device: the CPU only; dtype: of the parameters (default: the default float dtype).

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> layer = mg.nn.Conv2d(3, 8, 3, padding=1)
        >>> layer
        Conv2d(3, 8, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))
        >>> layer(mg.ones(2, 3, 5, 5)).shape
        minigrad.Size([2, 8, 5, 5])
    """

    _spatial = 2

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return F.conv2d(
            input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups
        )


class Conv1d(_ConvNd):
    """1-D convolution layer over (N, C_in, L) or (C_in, L); the arguments are
    :class:`Conv2d`'s with one spatial dim (``weight`` is (out, in // groups, k))."""

    _spatial = 1

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return F.conv1d(
            input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups
        )


class Conv3d(_ConvNd):
    """3-D convolution layer over (N, C_in, D, H, W) or (C_in, D, H, W) (``torch.nn.Conv3d``);
    the arguments are :class:`Conv2d`'s with three spatial dims."""

    _spatial = 3

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return F.conv3d(
            input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups
        )


class _ConvTransposeNd(_ConvNd):
    """What the transposed layers share: ``output_padding``, and no string padding."""

    _transposed = True

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size,
        stride=1,
        padding=0,
        output_padding=0,
        groups: int = 1,
        bias: bool = True,
        dilation=1,
        padding_mode: str = "zeros",
        device=None,
        dtype=None,
    ):
        if isinstance(padding, str):
            raise ValueError(
                errors.TRANSPOSED_PADDING_STRING.format(op=type(self).__name__, got=padding)
            )
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            dilation,
            groups,
            bias,
            padding_mode,
            device,
            dtype,
            output_padding,
        )

    def _output_padding(self, input: Tensor, output_size) -> tuple:  # noqa: A002
        """``output_padding``, or the one that gives ``output_size`` (PyTorch's rule: the
        size must lie between the smallest output and that plus stride - 1)."""
        if output_size is None:
            return self.output_padding
        d = self._spatial
        lead = 2 if input.ndim == d + 2 else 1
        sizes = list(output_size)
        if len(sizes) == lead + d:
            sizes = sizes[lead:]
        if len(sizes) != d:
            raise ValueError(
                f"ConvTranspose{d}D: for {input.ndim}D input, output_size must have {d} or "
                f"{lead + d} elements (got {len(sizes)})"
            )
        low = [
            (input.shape[lead + i] - 1) * self.stride[i]
            - 2 * self.padding[i]
            + self.dilation[i] * (self.kernel_size[i] - 1)
            + 1
            for i in range(d)
        ]
        high = [lo + s - 1 for lo, s in zip(low, self.stride)]
        if any(not lo <= n <= hi for n, lo, hi in zip(sizes, low, high)):
            raise ValueError(
                f"requested an output size of {sizes}, but valid sizes range from {low} to "
                f"{high} (for an input of {list(input.shape[lead:])})"
            )
        return tuple(n - lo for n, lo in zip(sizes, low))


class ConvTranspose2d(_ConvTransposeNd):
    """2-D transposed convolution layer (``torch.nn.ConvTranspose2d``): y = conv_transpose2d(x,
    weight, bias), an upsampling (the decoder of an autoencoder, DCGAN's generator).

    Args:
        in_channels, out_channels: channels of the input and of the output.
        kernel_size: an int or a pair; ``weight`` is (in, out // groups, kH, kW).
        stride, padding, output_padding, groups, dilation: as in
            :func:`minigrad.nn.functional.conv_transpose2d` (note the order: groups, bias,
            dilation, as PyTorch's).
        bias: learn an additive bias of shape (out_channels,) (default True).

    Initialised as PyTorch's (the same draws after the same seed): kaiming_uniform_(a=sqrt(5))
    with fan_in = weight.shape[1] * prod(kernel_size), then the bias.

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> up = mg.nn.ConvTranspose2d(8, 3, 4, stride=2, padding=1)
        >>> up
        ConvTranspose2d(8, 3, kernel_size=(4, 4), stride=(2, 2), padding=(1, 1))
        >>> up(mg.ones(2, 8, 5, 5)).shape
        minigrad.Size([2, 3, 10, 10])
    """

    _spatial = 2

    def forward(self, input: Tensor, output_size=None) -> Tensor:  # noqa: A002  (PyTorch name)
        return F.conv_transpose2d(
            input,
            self.weight,
            self.bias,
            self.stride,
            self.padding,
            self._output_padding(input, output_size),
            self.groups,
            self.dilation,
        )


class ConvTranspose1d(_ConvTransposeNd):
    """1-D transposed convolution layer over (N, C_in, L) or (C_in, L) (``torch.nn.ConvTranspose1d``);
    the arguments are :class:`ConvTranspose2d`'s with one spatial dim."""

    _spatial = 1

    def forward(self, input: Tensor, output_size=None) -> Tensor:  # noqa: A002  (PyTorch name)
        return F.conv_transpose1d(
            input,
            self.weight,
            self.bias,
            self.stride,
            self.padding,
            self._output_padding(input, output_size),
            self.groups,
            self.dilation,
        )
