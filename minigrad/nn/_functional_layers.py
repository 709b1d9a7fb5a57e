"""Layer functions of ``minigrad.nn.functional``: ``dropout``, ``layer_norm``, ``batch_norm``,
``normalize``.

Each is a composition of differentiable Tensor ops (so double backward works
and the gradients need no rule of their own); the argument checks come first,
with PyTorch's messages.
"""

from __future__ import annotations

import numbers

import numpy as np

from .. import random
from ..amp.autocast import float32_region
from ..errors import nn as _errors
from ..ops._util import check_tensor
from ..recording.grad_mode import no_grad
from ..tensor import Tensor, typename


def _check_p(p) -> None:
    if isinstance(p, bool) or not isinstance(p, numbers.Real) or not 0.0 <= p <= 1.0:
        raise ValueError(_errors.DROPOUT_P.format(got=p))


def dropout(
    input: Tensor,  # noqa: A002  (PyTorch names)
    p: float = 0.5,
    training: bool = True,
    inplace: bool = False,
) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by 1/(1-p) (``F.dropout``).

    This is *inverted* dropout: the scaling happens during training, so the
    expected value of every element is unchanged and evaluation
    (``training=False``) returns ``input`` itself. The gradient is the same
    mask times 1/(1-p). The mask is drawn from the global generator as PyTorch
    draws it, so after the same :func:`minigrad.manual_seed` it is PyTorch's mask.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> _ = mg.manual_seed(0)
        >>> F.dropout(mg.ones(6), p=0.5)
        tensor([0., 0., 2., 0., 0., 0.])
    """
    _check_p(p)
    check_tensor(input, "dropout")
    if not training or p == 0.0:
        return input
    if not input.is_floating_point():
        raise RuntimeError(_errors.DROPOUT_DTYPE.format(got=input.dtype))
    if p == 1.0:
        scaled_mask = np.zeros(input.shape, input._data.dtype)
    else:
        # PyTorch's mask: bernoulli_(1 - p), a float64 uniform per element kept when below 1 - p
        u = random.resolve(None)._uniform(input.numel(), np.float64).reshape(input.shape)
        keep = (u < 1.0 - p).astype(input._data.dtype)
        scaled_mask = keep / np.asarray(1.0 - p, dtype=input._data.dtype)
    mask = Tensor._make(scaled_mask, False, None)
    if inplace:
        return input.mul_(mask)
    return input * mask


def _normalized_shape(normalized_shape) -> tuple[int, ...]:
    """``normalized_shape`` as a tuple of ints (PyTorch's functional form refuses a bare int)."""
    ok = isinstance(normalized_shape, (tuple, list))
    if ok:
        ok = all(
            isinstance(n, (int, np.integer)) and not isinstance(n, bool) for n in normalized_shape
        )
    if not ok:
        raise TypeError(_errors.NORMALIZED_SHAPE_TYPE.format(got=typename(normalized_shape)))
    if len(normalized_shape) == 0:
        raise RuntimeError(_errors.NORMALIZED_SHAPE_EMPTY)
    return tuple(int(n) for n in normalized_shape)


def _check_layer_norm(input, shape, weight, bias) -> None:  # noqa: A002
    k = len(shape)
    if input.ndim < k or tuple(input.shape[input.ndim - k :]) != shape:
        tail = "".join(f", {n}" for n in shape)
        msg = _errors.NORMALIZED_SHAPE.format(shape=list(shape), tail=tail, got=list(input.shape))
        raise RuntimeError(msg)
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None:
            check_tensor(t, "layer_norm", name, 3 if name == "weight" else 4)
            if tuple(t.shape) != shape:
                msg = _errors.NORM_AFFINE_SHAPE.format(
                    name=name, got=list(t.shape), shape=list(shape)
                )
                raise RuntimeError(msg)
    if not input.is_floating_point():
        raise TypeError(_errors.NORM_DTYPE.format(op="layer_norm", got=input.dtype))


@float32_region
def layer_norm(
    input: Tensor,  # noqa: A002
    normalized_shape,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    """Normalize over the last ``len(normalized_shape)`` dims, then scale and shift (``F.layer_norm``).

    y = (x - mean) / sqrt(var + eps) * weight + bias, where mean and the biased
    variance (divided by the count, not count - 1, as PyTorch) are taken over
    the trailing dims given by ``normalized_shape``.

    Args:
        input: a float tensor whose trailing dims equal ``normalized_shape``.
        normalized_shape: a tuple or list of ints (``nn.LayerNorm`` also accepts an int).
        weight: optional scale of shape ``normalized_shape``.
        bias: optional shift of shape ``normalized_shape``.
        eps: added to the variance before the square root.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.layer_norm(mg.tensor([[1.0, 3.0], [0.0, 10.0]]), (2,))
        tensor([[-1.0000,  1.0000],
                [-1.0000,  1.0000]])
    """
    check_tensor(input, "layer_norm")
    shape = _normalized_shape(normalized_shape)
    _check_layer_norm(input, shape, weight, bias)
    dims = tuple(range(-len(shape), 0))
    centered = input - input.mean(dims, keepdim=True)
    var = (centered * centered).mean(dims, keepdim=True)
    out = centered / (var + eps).sqrt()
    if weight is not None:
        out = out * weight
    if bias is not None:
        out = out + bias
    return out


def _check_batch_norm(input, running_mean, running_var, training, eps) -> None:  # noqa: A002
    check_tensor(input, "batch_norm")
    if input.ndim < 2:
        raise ValueError(_errors.BATCHNORM_DIMS.format(got=input.ndim))
    if not input.is_floating_point():
        raise TypeError(_errors.NORM_DTYPE.format(op="batch_norm", got=input.dtype))
    c = input.shape[1]
    for stat in (running_mean, running_var):
        if stat is not None and stat.numel() != c:
            msg = _errors.BATCHNORM_FEATURES.format(c=c, n=stat.numel(), shape=tuple(input.shape))
            raise RuntimeError(msg)
    if not training and (running_mean is None or running_var is None):
        raise RuntimeError(_errors.BATCHNORM_EVAL_STATS)
    if training and input.numel() // max(c, 1) <= 1:
        raise ValueError(_errors.BATCHNORM_ONE_VALUE.format(shape=tuple(input.shape)))
    if eps < 0.0 or (training and eps == 0.0):
        want = "positive during training" if training else "non-negative"
        raise ValueError(_errors.BATCHNORM_EPS.format(want=want, eps=eps))


@float32_region
def batch_norm(
    input: Tensor,  # noqa: A002
    running_mean: Tensor | None,
    running_var: Tensor | None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Normalize each feature (dim 1) over the batch and any further dims (``F.batch_norm``).

    Training: the batch's mean and biased variance normalize the input, and
    the running statistics (when given) move towards the batch's:
    ``running = (1 - momentum) * running + momentum * batch``, with the
    *unbiased* variance for ``running_var``, as PyTorch. They are updated in
    place and receive no gradient. Evaluation: the running statistics
    normalize the input (they are constants).
    """
    _check_batch_norm(input, running_mean, running_var, training, eps)
    dims = (0,) + tuple(range(2, input.ndim))
    stat_shape = (1, input.shape[1]) + (1,) * (input.ndim - 2)
    if training:
        mean = input.mean(dims, keepdim=True)
        centered = input - mean
        var = (centered * centered).mean(dims, keepdim=True)
        _update_running(
            running_mean, running_var, mean, var, input.numel() // input.shape[1], momentum
        )
    else:
        mean = running_mean.detach().reshape(*stat_shape)
        centered = input - mean
        var = running_var.detach().reshape(*stat_shape)
    out = centered / (var + eps).sqrt()
    if weight is not None:
        out = out * weight.reshape(*stat_shape)
    if bias is not None:
        out = out + bias.reshape(*stat_shape)
    return out


def _update_running(running_mean, running_var, mean, var, n: int, momentum: float) -> None:
    """running <- (1 - momentum) * running + momentum * batch statistic, in place."""
    with no_grad():
        if running_mean is not None:
            batch_mean = mean.detach().reshape(*running_mean.shape)
            running_mean.copy_(running_mean * (1.0 - momentum) + batch_mean * momentum)
        if running_var is not None:
            unbiased = var.detach().reshape(*running_var.shape) * (n / (n - 1))
            running_var.copy_(running_var * (1.0 - momentum) + unbiased * momentum)


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """Class indices -> rows of 0s with a 1 at the index (``F.one_hot``).

    ``tensor`` holds int64 class indices of any shape; the result has one more dimension,
    of size ``num_classes`` (by default the largest index + 1), and dtype int64. Lectures
    turn it into a float input with ``F.one_hot(xs, num_classes=27).float()``.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.one_hot(mg.tensor([0, 2, 1]), num_classes=3)
        tensor([[1, 0, 0],
                [0, 0, 1],
                [0, 1, 0]])
    """
    if not isinstance(tensor, Tensor) or tensor.dtype.name != "int64":
        got = tensor.dtype if isinstance(tensor, Tensor) else type(tensor).__name__
        raise RuntimeError(_errors.ONE_HOT_DTYPE.format(got=got))
    if isinstance(num_classes, bool) or not isinstance(num_classes, (int, np.integer)):
        raise TypeError(_errors.ONE_HOT_CLASSES_TYPE.format(got=type(num_classes).__name__))
    idx = tensor._data
    if idx.size and idx.min() < 0:
        raise RuntimeError(_errors.ONE_HOT_NEGATIVE)
    if num_classes == -1:
        if idx.size == 0:
            raise RuntimeError(_errors.ONE_HOT_EMPTY)
        num_classes = int(idx.max()) + 1
    elif num_classes < 1 and idx.size or num_classes < 0:
        raise RuntimeError(_errors.ONE_HOT_CLASSES.format(got=num_classes))
    if idx.size and idx.max() >= num_classes:
        raise RuntimeError(_errors.ONE_HOT_TOO_BIG.format(top=int(idx.max()), n=num_classes))
    out = (idx[..., None] == np.arange(num_classes)).astype(np.int64)
    return Tensor._make(out, False, None)


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12) -> Tensor:  # noqa: A002
    """Each vector along ``dim`` divided by its ``p``-norm, the norm kept at least ``eps``
    (``F.normalize``): ``input / input.norm(p, dim, keepdim=True).clamp_min(eps)``, the same
    composition as PyTorch's, so the graph has the same nodes.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.normalize(mg.tensor([[3.0, 4.0], [0.0, 0.0]]))
        tensor([[0.6000, 0.8000],
                [0.0000, 0.0000]])
    """
    check_tensor(input, "normalize")
    if input.layout != "strided":
        raise NotImplementedError(input._no_kernel("normalize"))
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    return input / denom
