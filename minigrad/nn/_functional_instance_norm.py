"""Per-sample normalizations of ``nn.functional``: ``instance_norm`` (each channel of each
sample over its positions) and ``local_response_norm`` (each position over neighbouring
channels, AlexNet's).

Compositions of differentiable Tensor ops, like ``_functional_layers``' batch_norm. PyTorch
records ``NativeBatchNormBackward0`` between views for instance_norm (it runs batch norm on
a (1, N*C, ...) view); local_response_norm is PyTorch's composition, the same nodes for 3-D
input (for 4-D and more PyTorch pools in 3-D, here a 2-D pool of a reshape).
"""

from __future__ import annotations

import math

from ..amp.autocast import float32_region
from ..errors import nn as _nn_errors
from ..errors import vision as _errors
from ..ops._util import check_tensor
from ..ops.padding import pad
from ..recording.grad_mode import no_grad
from ..tensor import Tensor
from ._functional_pool import avg_pool2d


def _check_instance_norm(input, running_mean, running_var, use_input_stats) -> None:  # noqa: A002
    check_tensor(input, "instance_norm")
    if not input.is_floating_point():
        raise TypeError(_nn_errors.NORM_DTYPE.format(op="instance_norm", got=input.dtype))
    if use_input_stats and math.prod(input.shape[2:]) == 1:
        raise ValueError(
            _errors.INSTANCE_NORM_SPATIAL.format(got=f"minigrad.Size({list(input.shape)})")
        )
    c = input.shape[1]
    for stat in (running_mean, running_var):
        if stat is not None and stat.numel() != c:
            msg = _nn_errors.BATCHNORM_FEATURES.format(
                c=c, n=stat.numel(), shape=tuple(input.shape)
            )
            raise RuntimeError(msg)
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError(_nn_errors.BATCHNORM_EVAL_STATS)


@float32_region
def instance_norm(
    input: Tensor,  # noqa: A002  (PyTorch names)
    running_mean: Tensor | None = None,
    running_var: Tensor | None = None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    use_input_stats: bool = True,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Normalize each channel of each sample over its positions (``F.instance_norm``).

    y = (x - mean) / sqrt(var + eps) * weight + bias, mean and biased variance per (sample,
    channel) over the dims after 1. With ``use_input_stats=False`` the running statistics
    normalize instead. When given, the running statistics move towards the batch's average
    instance statistics: ``running = (1 - momentum) * running + momentum * batch`` (the
    variance unbiased), as PyTorch.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.instance_norm(mg.tensor([[[1.0, 3.0], [0.0, 10.0]]]))
        tensor([[[-1.0000,  1.0000],
                 [-1.0000,  1.0000]]])
    """
    _check_instance_norm(input, running_mean, running_var, use_input_stats)
    dims = tuple(range(2, input.ndim))
    per_channel = (1, input.shape[1]) + (1,) * (input.ndim - 2)
    if use_input_stats:
        mean = input.mean(dims, keepdim=True)
        centered = input - mean
        var = (centered * centered).mean(dims, keepdim=True)
        n = math.prod(input.shape[2:])
        _update_running(running_mean, running_var, mean, var, n, momentum)
    else:
        centered = input - running_mean.detach().reshape(*per_channel)
        var = running_var.detach().reshape(*per_channel)
    out = centered / (var + eps).sqrt()
    if weight is not None:
        out = out * weight.reshape(*per_channel)
    if bias is not None:
        out = out + bias.reshape(*per_channel)
    return out


def _update_running(running_mean, running_var, mean, var, n: int, momentum: float) -> None:
    """running <- (1 - momentum) * running + momentum * (the instances' statistic averaged
    over the batch), in place; the variance unbiased (times n / (n - 1))."""
    with no_grad():
        if running_mean is not None:
            batch = mean.detach().reshape(mean.shape[0], -1).mean(0)
            running_mean.copy_(running_mean * (1.0 - momentum) + batch * momentum)
        if running_var is not None:
            batch = (var.detach() * (n / (n - 1))).reshape(var.shape[0], -1).mean(0)
            running_var.copy_(running_var * (1.0 - momentum) + batch * momentum)


def local_response_norm(
    input: Tensor,  # noqa: A002
    size: int,
    alpha: float = 1e-4,
    beta: float = 0.75,
    k: float = 1.0,
) -> Tensor:
    """Divide each value by (k + alpha * mean of x^2 over ``size`` neighbouring channels)^beta
    (``F.local_response_norm``; the window is zero-padded, size // 2 channels before and
    (size - 1) // 2 after, and the mean always divides by ``size``).

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.local_response_norm(mg.tensor([[[2.0], [0.0]]]), 2, alpha=1.0, beta=1.0)
        tensor([[[0.6667],
                 [0.0000]]])
    """
    check_tensor(input, "local_response_norm")
    if input.ndim < 3:
        raise ValueError(_errors.LRN_DIMS.format(got=input.ndim))
    if input.numel() == 0:
        return input
    lead = input.shape
    div = input * input
    if input.ndim == 3:
        div = div.unsqueeze(1)
    else:
        div = div.reshape(lead[0], 1, lead[1], -1)
    div = pad(div, (0, 0, size // 2, (size - 1) // 2))
    div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    if input.ndim > 3:
        div = div.reshape(*lead)
    div = (div * alpha + k) ** beta
    return input / div
