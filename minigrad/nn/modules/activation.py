"""Activation layers (each wraps its functional form): ``ReLU``, ``Tanh``, ``Sigmoid``,
``LeakyReLU``, ``SiLU``, ``GELU``, ``ELU``, ``Softplus``, ``LogSigmoid``, ``Hardtanh``,
``ReLU6``, ``Softsign``. Their reprs show their settings as PyTorch's do."""

from __future__ import annotations

from ...errors import activation as _errors
from ...tensor import Tensor
from .. import functional as F
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


def _inplace_repr(inplace: bool) -> str:
    return ", inplace=True" if inplace else ""
