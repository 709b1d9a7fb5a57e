"""Filling parameters in place with initial values (``torch.nn.init``).

Random values come from ``generator=`` or the global generator (:func:`minigrad.manual_seed`),
drawn as PyTorch draws them, so a model built after ``manual_seed(0)`` starts from PyTorch's
weights. Every function writes under ``no_grad`` and returns the tensor it filled. The
bounds are computed with PyTorch's formulas, step by step, so they round as PyTorch's do.
"""

from __future__ import annotations

import math

from ..recording.grad_mode import no_grad
from ..tensor import Tensor

_LINEAR = (
    "linear",
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
    "sigmoid",
)


def calculate_gain(nonlinearity: str, param=None) -> float:
    """The gain that keeps activations' variance through ``nonlinearity`` (``nn.init.calculate_gain``)."""
    if nonlinearity in _LINEAR:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        if isinstance(slope, bool) or not isinstance(slope, (int, float)):
            raise ValueError(f"negative_slope {slope} not a valid number")
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    """fan_in = size(1) * receptive field, fan_out = size(0) * receptive field (PyTorch's rule)."""
    if tensor.dim() < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
        )
    receptive = math.prod(tensor.shape[2:]) if tensor.dim() > 2 else 1
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def _fan(tensor: Tensor, mode: str) -> int:
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator=None) -> Tensor:
    """Fill with samples of U(a, b) (``torch.nn.init.uniform_``)."""
    with no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator=None) -> Tensor:
    """Fill with samples of N(mean, std**2) (``torch.nn.init.normal_``)."""
    with no_grad():
        return tensor.normal_(mean, std, generator=generator)


def kaiming_uniform_(
    tensor: Tensor,
    a: float = 0,
    mode: str = "fan_in",
    nonlinearity: str = "leaky_relu",
    generator=None,
) -> Tensor:
    """U(-bound, bound), bound = gain * sqrt(3 / fan) (He et al. 2015; ``nn.init.kaiming_uniform_``).

    ``nn.Linear`` and ``nn.Conv*d`` use ``a = sqrt(5)``, which makes bound = 1/sqrt(fan_in).
    """
    if 0 in tensor.shape:
        return tensor
    std = calculate_gain(nonlinearity, a) / math.sqrt(_fan(tensor, mode))
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator=generator)


def kaiming_normal_(
    tensor: Tensor,
    a: float = 0,
    mode: str = "fan_in",
    nonlinearity: str = "leaky_relu",
    generator=None,
) -> Tensor:
    """N(0, std**2), std = gain / sqrt(fan) (``nn.init.kaiming_normal_``)."""
    if 0 in tensor.shape:
        return tensor
    std = calculate_gain(nonlinearity, a) / math.sqrt(_fan(tensor, mode))
    return normal_(tensor, 0.0, std, generator=generator)


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    """U(-a, a), a = gain * sqrt(6 / (fan_in + fan_out)) (Glorot and Bengio 2010)."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return uniform_(tensor, -a, a, generator=generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    """N(0, std**2), std = gain * sqrt(2 / (fan_in + fan_out)) (``nn.init.xavier_normal_``)."""
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator=generator)


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
