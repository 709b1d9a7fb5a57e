"""Layers of ``nn.functional`` that draw random numbers in training: ``rrelu`` (a random
negative slope per element), ``alpha_dropout`` (dropout that keeps SELU's mean and
variance) and ``gumbel_softmax`` (a differentiable sample of a categorical).

Each draws from the global generator in PyTorch's order, so after the same
``manual_seed`` the numbers are PyTorch's. The noise is a constant the input is multiplied
by (and shifted by): rrelu is one ``RreluWithNoiseBackward0`` node (its gradient g * noise),
alpha_dropout and gumbel_softmax are PyTorch's compositions (the same elementary nodes).
"""

from __future__ import annotations

import numpy as np

from .. import random
from ..errors import vision as _errors
from ..factory import empty_like, zeros_like
from ..ops._util import check_tensor, named
from ..recording.function import Op
from ..tensor import Tensor
from ._functional_layers import _check_p


def rrelu(
    input: Tensor,  # noqa: A002  (PyTorch names)
    lower: float = 1.0 / 8,
    upper: float = 1.0 / 3,
    training: bool = False,
    inplace: bool = False,
) -> Tensor:
    """Randomized leaky ReLU (``F.rrelu``): x if x > 0 else a * x.

    In training ``a`` is drawn from U(lower, upper) for each element x <= 0 (in order, one
    float64 draw each, as PyTorch's CPU kernel); in evaluation it is (lower + upper) / 2.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.rrelu(mg.tensor([-3.0, 2.0]), 0.1, 0.3)
        tensor([-0.6000,  2.0000])
    """
    check_tensor(input, "rrelu")
    if lower > upper:
        raise RuntimeError(_errors.RRELU_BOUNDS)
    data = input._data
    negative = data <= 0
    noise = np.ones(data.shape, data.dtype)
    if not training:
        noise[negative] = (lower + upper) / 2
        return _rrelu(input, noise, inplace)
    # the bounds in the input's dtype, the draw in float64, then rounded (PyTorch's kernel)
    lo, hi = float(data.dtype.type(lower)), float(data.dtype.type(upper))
    draws = random.resolve(None)._uniform_between(int(negative.sum()), lo, hi, np.float64)
    noise[negative] = draws.astype(data.dtype)
    return _rrelu(input, noise, inplace)


def _rrelu(input, noise, inplace):  # noqa: A002
    """x * noise as one node, or written into x (``rrelu_``, as the in-place activations)."""
    if inplace:
        step = lambda src: named(RreluWithNoise.apply(src, noise=noise), "RreluWithNoiseBackward1")  # noqa: E731
        return input._inplace("rrelu_", step)
    return RreluWithNoise.apply(input, noise=noise)


class RreluWithNoise(Op):
    """y = x * noise (the slope 1 where x > 0); grad = g * noise."""

    @staticmethod
    def forward(ctx, x, noise):
        ctx.noise = noise
        return x * noise

    @staticmethod
    def backward(ctx, g):
        return g * Tensor._make(ctx.noise, False, None)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: linear in x for a fixed noise, t_y = t_x * noise."""
        return tangents[0] * Tensor._make(params["noise"], False, None)


def alpha_dropout(
    input: Tensor,  # noqa: A002
    p: float = 0.5,
    training: bool = False,
    inplace: bool = False,
) -> Tensor:
    """Dropout for SELU networks (``F.alpha_dropout``): a dropped element becomes SELU's
    negative saturation -alpha' (alpha' = scale * alpha = 1.7581), then all are scaled by
    a and shifted by b so that zero-mean unit-variance input keeps its mean and variance:
    y = x * a * keep + alpha' * a * (keep - 1 + p), a = ((alpha'^2 p + 1)(1 - p))^-1/2.

    The keep mask is ``bernoulli_(1 - p)``, PyTorch's draws (as :func:`F.dropout`'s).
    """
    _check_p(p)
    check_tensor(input, "alpha_dropout")
    if not training or p == 0.0 or input.numel() == 0:
        return input
    dtype = input._data.dtype
    if p == 1.0:
        zero = Tensor._make(np.zeros((), dtype), False, None)
        return input.mul_(zero) if inplace else input * zero
    alpha = 1.7580993408473766
    a = 1.0 / np.sqrt((alpha * alpha * p + 1) * (1 - p))
    u = random.resolve(None)._uniform(input.numel(), np.float64).reshape(input.shape)
    keep = (u < 1.0 - p).astype(dtype)
    # PyTorch's order and rounding: b = (keep - 1) * (alpha a) + alpha a p, noise = keep * a
    shift = (keep - dtype.type(1)) * dtype.type(alpha * a) + dtype.type(alpha * a * p)
    noise = keep * dtype.type(a)
    noise_t, shift_t = (Tensor._make(v, False, None) for v in (noise, shift))
    if inplace:
        return input.mul_(noise_t).add_(shift_t)
    return input * noise_t + shift_t


def gumbel_softmax(
    logits: Tensor,
    tau: float = 1.0,
    hard: bool = False,
    eps: float = 1e-10,
    dim: int = -1,
) -> Tensor:
    """A differentiable sample of the categorical with these logits (``F.gumbel_softmax``):
    softmax((logits + g) / tau) along ``dim``, g = -log(Exp(1) draws) Gumbel noise.

    With ``hard=True`` the result is the one-hot of the sample's argmax in the forward pass,
    while the gradient is the soft sample's (``y_hard - y_soft.detach() + y_soft``, the
    straight-through estimator). ``eps`` is unused, as in PyTorch.
    """
    check_tensor(logits, "gumbel_softmax", "logits")
    gumbels = -empty_like(logits).exponential_().log()
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft
