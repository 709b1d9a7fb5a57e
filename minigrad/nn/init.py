"""Filling parameters in place with initial values (``torch.nn.init``).

Random values come from ``generator=`` or the global generator (:func:`minigrad.manual_seed`),
drawn as PyTorch draws them, so a model built after ``manual_seed(0)`` starts from PyTorch's
weights. Every function writes under ``no_grad`` and returns the tensor it filled. The
bounds are computed with PyTorch's formulas, step by step, so they round as PyTorch's do.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from ..errors import nn as _errors
from ..factory import empty_like, eye, from_numpy, randperm
from ..ops.select import where
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


# --- structured and truncated initializations (PyTorch's draws, in PyTorch's order) -------


def eye_(tensor: Tensor) -> Tensor:
    """Fill a 2-D tensor with the identity (``nn.init.eye_``): ones on the diagonal, zeros
    elsewhere, so a Linear layer starts by passing its inputs through."""
    if tensor.dim() != 2:
        raise ValueError(_errors.EYE_DIMS)
    with no_grad():
        return tensor.copy_(eye(*tensor.shape, dtype=tensor.dtype))


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """Fill a 3-, 4- or 5-D convolution weight with the Dirac delta (``nn.init.dirac_``): each
    output channel copies one input channel (at the kernel's centre), so the convolution
    starts as the identity on as many channels as both sides have; with ``groups``, each
    group does so on its own channels.

    Raises:
        ValueError: for another number of dimensions, or out channels not divisible by groups.
    """
    dims = tensor.dim()
    if dims not in (3, 4, 5):
        raise ValueError(_errors.DIRAC_DIMS)
    if tensor.shape[0] % groups != 0:
        raise ValueError(_errors.DIRAC_GROUPS)
    per_group = tensor.shape[0] // groups
    centre = tuple(size // 2 for size in tensor.shape[2:])
    with no_grad():
        tensor.zero_()
        for g in range(groups):
            for d in range(min(per_group, tensor.shape[1])):
                tensor[(g * per_group + d, d, *centre)] = 1
    return tensor


def orthogonal_(tensor: Tensor, gain: float = 1, generator=None) -> Tensor:
    """Fill with a (semi-)orthogonal matrix, times ``gain`` (Saxe et al. 2013; ``nn.init.orthogonal_``).

    PyTorch's steps: draw ``normal_(0, 1)`` into a (rows, numel // rows) matrix, factor it
    (its transpose if it is wide) as Q R, multiply each column of Q by the sign of R's
    diagonal (so Q is uniformly distributed over orthogonal matrices, Mezzadri 2007), and
    copy Q (transposed back) in. The draw is PyTorch's stream exactly; the QR is numpy's
    LAPACK call, so the values agree with PyTorch's to rounding, not bit for bit.

    Raises:
        ValueError: for a tensor with fewer than 2 dimensions.
    """
    if tensor.dim() < 2:
        raise ValueError(_errors.ORTHOGONAL_DIMS)
    if tensor.numel() == 0:
        return tensor
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    with no_grad():
        drawn = tensor.new_empty((rows, cols)).normal_(0, 1, generator=generator).numpy()
        wide = rows < cols
        q, r = np.linalg.qr(drawn.T if wide else drawn)
        q = q * np.sign(np.diagonal(r)).astype(q.dtype)
        q = q.T if wide else q
        tensor.copy_(from_numpy(np.ascontiguousarray(q).reshape(tensor.shape)))
        return tensor.mul_(gain)


def sparse_(tensor: Tensor, sparsity: float, std: float = 0.01, generator=None) -> Tensor:
    """Fill a 2-D tensor with N(0, std**2) samples, then zero ``ceil(sparsity * rows)``
    entries of each column (Martens 2010; ``nn.init.sparse_``).

    As in PyTorch, the values come from ``generator`` but the rows to zero in each column
    from ``randperm(rows)`` on the *global* generator (PyTorch passes no generator there).

    Raises:
        ValueError: for a tensor that is not 2-D.
    """
    if tensor.dim() != 2:
        raise ValueError(_errors.SPARSE_DIMS)
    rows, cols = tensor.shape
    num_zeros = math.ceil(sparsity * rows)
    with no_grad():
        tensor.normal_(0, std, generator=generator)
        for col in range(cols):
            zero_rows = randperm(rows)[:num_zeros]
            tensor[zero_rows, col] = 0
    return tensor


def trunc_normal_(
    tensor: Tensor,
    mean: float = 0.0,
    std: float = 1.0,
    a: float = -2.0,
    b: float = 2.0,
    generator=None,
) -> Tensor:
    """Fill with samples of N(mean, std**2) restricted to [a, b] (``nn.init.trunc_normal_``).

    PyTorch 2.13 samples by rejection, two ways, and minigrad draws as it does:

    * when [a, b] holds more than 30% of the normal's mass: draw ``normal_(mean, std)``, then,
      while some sample is outside [a, b], draw a whole fresh tensor of normals and take its
      values where the old ones were outside;
    * otherwise: draw ``uniform_(a, b)`` candidates x and accept each where
      ``log(u) <= -(x - mean)**2 / (2 std**2) - log_peak`` for a fresh ``uniform_()`` u
      (log_peak: the exponent at the point of [a, b] nearest the mean); the rejected ones get
      fresh candidates and fresh u, whole tensors at a time, until none is left.

    Warns (UserWarning) when the mean is more than 2 std outside [a, b], as PyTorch.
    """

    def norm_cdf(x: float) -> float:
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn(_errors.TRUNC_NORMAL_FAR, UserWarning, stacklevel=2)
    with no_grad():
        if norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std) > 0.3:
            _trunc_by_redrawing(tensor, mean, std, a, b, generator)
        else:
            _trunc_by_acceptance(tensor, mean, std, a, b, generator)
    return tensor


def _trunc_by_redrawing(tensor: Tensor, mean, std, a, b, generator) -> None:
    """Normals, redrawn (a whole tensor per round) where they fall outside [a, b]."""
    lo = tensor.new_tensor(a).item()  # the bounds rounded to the tensor's dtype, as PyTorch
    hi = tensor.new_tensor(b).item()
    result = tensor.normal_(mean, std, generator=generator)
    while True:
        outside = (result < lo) | (result > hi)
        if not outside.any():
            break
        fresh = empty_like(result).normal_(mean, std, generator=generator)
        result = where(outside, fresh, result)
    if result is not tensor:
        tensor.copy_(result)


def _log_density_gap(x: Tensor, mean, std, log_peak) -> Tensor:
    """In place: x becomes -((x - mean) / std)**2 / 2 - log_peak (PyTorch's op order)."""
    return x.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)


def _trunc_by_acceptance(tensor: Tensor, mean, std, a, b, generator) -> None:
    """Uniform candidates on [a, b] accepted with probability density / peak density."""
    mode = max(a, min(mean, b))
    log_peak = -0.5 * ((mode - mean) / std) ** 2
    tensor.uniform_(a, b, generator=generator)
    candidates = _log_density_gap(tensor.clone(), mean, std, log_peak)
    accept_buf = empty_like(tensor)
    pending = accept_buf.uniform_(generator=generator).log() > candidates
    if not pending.any():
        return
    result = tensor
    while True:
        candidates.uniform_(a, b, generator=generator)
        result = where(pending, candidates, result)
        _log_density_gap(candidates, mean, std, log_peak)
        rejected = accept_buf.uniform_(generator=generator).log() > candidates
        pending = where(pending, rejected, pending)
        if not pending.any():
            break
    tensor.copy_(result)
