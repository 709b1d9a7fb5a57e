"""Classification losses over classes of ``minigrad.nn.functional``: ``nll_loss`` and
``cross_entropy``, whose targets are class indices or class probabilities; each is its
formula in Tensor ops. (Binary cross entropy is one loss per element: it is with the other
elementwise losses, in ``_functional_pointwise_losses``.)

The argument checks and target bookkeeping live in ``_loss_checks``; the
gradients (and double-backward) come from the ops. ``reduction`` is
``'mean'`` (default), ``'sum'`` or ``'none'``, as in PyTorch.
"""

from __future__ import annotations

import numpy as np

from ..errors import nn as _errors
from ..ops._util import check_tensor
from ..tensor import Tensor
from ._loss_checks import ClassTargets, get_reduction, weighted_mean
from ._loss_checks import reduce as _reduce


def _check_pair(op: str, input, target) -> None:  # noqa: A002
    check_tensor(input, op)
    check_tensor(target, op, "target", 2)


def nll_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    weight: Tensor | None = None,
    size_average=None,
    ignore_index: int = -100,
    reduce=None,  # noqa: A002
    reduction: str = "mean",
) -> Tensor:
    """Negative log likelihood: l_i = -w[y_i] * x[i, y_i] for log-probabilities x (``F.nll_loss``).

    Args:
        input: log-probabilities of shape (N, C), (C,) or (N, C, d1, ...).
        target: class indices (int64 or uint8) of shape (N,), () or (N, d1, ...).
        weight: optional per-class weights of shape (C,) (no gradient flows to them).
        ignore_index: targets equal to it contribute 0 and are left out of the mean.
        reduction: 'mean' divides by the summed weights of the non-ignored targets.
    """
    _check_pair("nll_loss", input, target)
    reduction = get_reduction(size_average, reduce, reduction)
    ct = ClassTargets(input, target, weight, ignore_index)
    return ct.reduce(_picked_losses(ct), reduction)


def _picked_losses(ct: ClassTargets) -> Tensor:
    """-w[y_i] * x[i, y_i] for each row (0 where the target is ignored)."""
    rows = np.arange(len(ct.safe), dtype=np.int64)
    picked = ct.scores[rows, ct.safe]
    if ct.weight is None:
        return ct.masked(-picked)
    return ct.masked(picked * Tensor._make(-ct.weight[ct.safe], False, None))


def cross_entropy(
    input: Tensor,  # noqa: A002
    target: Tensor,
    weight: Tensor | None = None,
    size_average=None,
    ignore_index: int = -100,
    reduce=None,  # noqa: A002
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Tensor:
    """Cross entropy of logits: nll_loss(log_softmax(x, dim=1), y) (``F.cross_entropy``).

    ``target`` holds class indices (like :func:`nll_loss`), or class
    probabilities: a float tensor of the input's shape. With label smoothing
    eps, the target becomes (1 - eps) * one_hot(y) + eps / C.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.cross_entropy(mg.tensor([[0.0, 0.0]]), mg.tensor([1]))
        tensor(0.6931)
    """
    _check_pair("cross_entropy", input, target)
    reduction = get_reduction(size_average, reduce, reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(_errors.LABEL_SMOOTHING.format(got=label_smoothing))
    if input.ndim < 1:
        raise ValueError(_errors.INPUT_DIMS.format(got=input.ndim))
    class_dim = 0 if input.ndim == 1 else 1
    logp = input.log_softmax(class_dim)
    if target.is_floating_point() and target.shape == input.shape:
        return _cross_entropy_probs(logp, target, weight, ignore_index, reduction, label_smoothing)
    ct = ClassTargets(logp, target, weight, ignore_index)
    loss = ct.reduce(_picked_losses(ct), reduction)
    if label_smoothing == 0.0:
        return loss
    smooth = ct.reduce(_smooth_losses(ct), reduction)
    return loss * (1.0 - label_smoothing) + smooth * (label_smoothing / ct.scores.shape[1])


def _smooth_losses(ct: ClassTargets) -> Tensor:
    """-sum_c w_c * logp[i, c] for each row (0 where the target is ignored)."""
    scores = ct.scores
    if ct.weight is not None:
        scores = scores * Tensor._make(ct.weight, False, None)
    return ct.masked(-scores.sum(1))


def _cross_entropy_probs(logp, target, weight, ignore_index, reduction, label_smoothing):
    """Soft targets: l_i = -sum_c w_c * p[i, c] * logp[i, c]; the mean divides by N."""
    if ignore_index >= 0:
        raise ValueError(_errors.PROB_IGNORE_INDEX.format(got=ignore_index))
    if target.dtype is not logp.dtype:
        raise TypeError(_errors.PROB_TARGET_DTYPE.format(got=target.dtype))
    class_dim = 0 if logp.ndim == 1 else 1
    n_classes = logp.shape[class_dim]
    if label_smoothing > 0:
        target = target * (1.0 - label_smoothing) + label_smoothing / n_classes
    prod = logp * target
    if weight is not None:
        if weight.numel() != n_classes:
            raise ValueError(_errors.WEIGHT_SHAPE.format(c=n_classes, shape=list(weight.shape)))
        shape = [1] * logp.ndim
        shape[class_dim] = n_classes
        prod = prod * weight.reshape(*shape)
    losses = -prod.sum(class_dim)
    if reduction != "mean":
        return _reduce(losses, reduction)
    return weighted_mean(losses.sum(), logp.numel() // n_classes if n_classes else 0)
