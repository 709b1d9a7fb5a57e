"""Activation layers (each wraps its functional form): ``ReLU``, ``Tanh``, ``Sigmoid``,
``LeakyReLU``, ``SiLU``, ``GELU``, ``ELU``, ``Softplus``, ``LogSigmoid``, ``Hardtanh``,
``ReLU6``, ``Softsign``, ``SELU``, ``CELU``, ``Mish``, ``Hardswish``, ``Hardsigmoid``, ``GLU``,
``Threshold``, ``PReLU`` (learned slopes). Their reprs show their settings as PyTorch's do."""

from __future__ import annotations

from ... import _device, _dtype
from ...errors import activation as _errors
from ...factory import empty
from ...tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module


class ReLU(Module):
    """max(x, 0) elementwise (``torch.nn.ReLU``); ``inplace=True`` overwrites the input."""

    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Tanh(Module):
    """tanh(x) elementwise (``torch.nn.Tanh``)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.tanh(input)


class Sigmoid(Module):
    """1 / (1 + exp(-x)) elementwise (``torch.nn.Sigmoid``)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.sigmoid(input)


class LeakyReLU(Module):
    """x if x > 0 else negative_slope * x (``torch.nn.LeakyReLU``).

    Example:
        >>> import minigrad as mg
        >>> from minigrad import nn
        >>> nn.LeakyReLU(0.2)
        LeakyReLU(negative_slope=0.2)
        >>> nn.LeakyReLU(0.2)(mg.tensor([-1.0, 2.0]))
        tensor([-0.2000,  2.0000])
    """

    def __init__(self, negative_slope: float = 0.01, inplace: bool = False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}" + _inplace_repr(self.inplace)


class SiLU(Module):
    """x * sigmoid(x) (``torch.nn.SiLU``)."""

    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.silu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class GELU(Module):
    """x * Phi(x) (``torch.nn.GELU``); ``approximate="tanh"`` for the tanh form. Like
    PyTorch's, a bad ``approximate`` is refused when the module is called."""

    def __init__(self, approximate: str = "none"):
        super().__init__()
        self.approximate = approximate

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class ELU(Module):
    """x if x > 0 else alpha * (exp(x) - 1) (``torch.nn.ELU``)."""

    def __init__(self, alpha: float = 1.0, inplace: bool = False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}" + _inplace_repr(self.inplace)


class Softplus(Module):
    """log(1 + exp(beta * x)) / beta, linear past ``threshold`` (``torch.nn.Softplus``)."""

    def __init__(self, beta: float = 1.0, threshold: float = 20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


class LogSigmoid(Module):
    """log(sigmoid(x)) (``torch.nn.LogSigmoid``), stable at +-1000."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.logsigmoid(input)


class Hardtanh(Module):
    """x clipped into [min_val, max_val] (``torch.nn.Hardtanh``); max_val must exceed min_val."""

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False):
        super().__init__()
        if not max_val > min_val:  # PyTorch asserts this (F.hardtanh allows equal bounds)
            raise AssertionError(_errors.HARDTANH_MODULE_BOUNDS.format(lo=min_val, hi=max_val))
        self.min_val = min_val
        self.max_val = max_val
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        return f"min_val={self.min_val}, max_val={self.max_val}" + _inplace_repr(self.inplace)


class ReLU6(Hardtanh):
    """min(max(x, 0), 6) (``torch.nn.ReLU6``): a Hardtanh(0, 6), as in PyTorch."""

    def __init__(self, inplace: bool = False):
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Softsign(Module):
    """x / (1 + |x|) (``torch.nn.Softsign``)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.softsign(input)


class Hardshrink(Module):
    """x where |x| > lambd, else 0 (``torch.nn.Hardshrink``)."""

    def __init__(self, lambd: float = 0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.hardshrink(input, self.lambd)

    def extra_repr(self) -> str:
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    """x -+ lambd outside [-lambd, lambd], else 0 (``torch.nn.Softshrink``)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.softshrink(input, self.lambd)


class Tanhshrink(Module):
    """x - tanh(x) (``torch.nn.Tanhshrink``)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.tanhshrink(input)


class _InplaceOnly(Module):
    """An activation whose one setting is ``inplace`` (printed only when True, as PyTorch)."""

    _fn = None

    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return type(self)._fn(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class SELU(_InplaceOnly):
    """scale * elu(x, alpha), alpha ~ 1.6733, scale ~ 1.0507 (``torch.nn.SELU``)."""

    _fn = staticmethod(F.selu)


class Mish(_InplaceOnly):
    """x * tanh(softplus(x)) (``torch.nn.Mish``)."""

    _fn = staticmethod(F.mish)


class Hardswish(_InplaceOnly):
    """x * relu6(x + 3) / 6 (``torch.nn.Hardswish``)."""

    _fn = staticmethod(F.hardswish)


class Hardsigmoid(_InplaceOnly):
    """relu6(x + 3) / 6 (``torch.nn.Hardsigmoid``)."""

    _fn = staticmethod(F.hardsigmoid)


class CELU(Module):
    """x if x > 0 else alpha * (exp(x / alpha) - 1) (``torch.nn.CELU``)."""

    def __init__(self, alpha: float = 1.0, inplace: bool = False):
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.celu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}" + _inplace_repr(self.inplace)


class GLU(Module):
    """a * sigmoid(b) of the two halves of the input along ``dim`` (``torch.nn.GLU``)."""

    def __init__(self, dim: int = -1):
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.glu(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Threshold(Module):
    """x where x > threshold, else value (``torch.nn.Threshold``)."""

    def __init__(self, threshold: float, value: float, inplace: bool = False):
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self) -> str:
        return f"threshold={self.threshold}, value={self.value}" + _inplace_repr(self.inplace)


class PReLU(Module):
    """x if x > 0 else a * x with a learned slope ``a`` (``torch.nn.PReLU``).

    Args:
        num_parameters: 1 (one slope shared by all channels) or the number of channels
            (dim 1 of the input), one slope each.
        init: the slopes' initial value (0.25).
        device: the CPU only; dtype: of the weight.

    Example:
        >>> import minigrad as mg
        >>> act = mg.nn.PReLU()
        >>> act
        PReLU(num_parameters=1)
        >>> act(mg.tensor([-2.0, 3.0]))
        tensor([-0.5000,  3.0000], grad_fn=<WhereBackward0>)
    """

    def __init__(self, num_parameters: int = 1, init: float = 0.25, device=None, dtype=None):
        _device.check(device, "PReLU()")
        super().__init__()
        self.num_parameters = num_parameters
        self.init = init
        d = _dtype.defaults.float_dtype if dtype is None else _dtype.as_dtype(dtype)
        self.weight = Parameter(empty(num_parameters, dtype=d))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Every slope back to ``init``."""
        init.constant_(self.weight, self.init)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"


def _inplace_repr(inplace: bool) -> str:
    return ", inplace=True" if inplace else ""
