"""Similarities, distances and the losses built on them, of ``nn.functional``:
``cosine_similarity``, ``pairwise_distance``, ``kl_div``, ``margin_ranking_loss``,
``hinge_embedding_loss``, ``soft_margin_loss``, ``triplet_margin_loss``.

Each is its formula in differentiable Tensor ops (PyTorch's formulas, so the values and
gradients agree with its, edge cases included where noted).
"""

from __future__ import annotations

import warnings

import numpy as np

from ..errors import nn as _errors
from ..ops._util import check_tensor
from ..ops.special import xlogy
from ..recording.grad_mode import no_grad
from ..tensor import Tensor
from ._functional_activations import softplus
from ._loss_checks import get_reduction
from ._loss_checks import reduce as _reduce


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """x1 . x2 / (max(|x1|, eps) max(|x2|, eps)) along ``dim`` (``F.cosine_similarity``).

    As PyTorch: both are broadcast to one shape, each is divided by its norm first (the
    result stays in [-1, 1]), and the eps clamp is not differentiated, so the gradient
    through the norm is that of |x1| even where the clamp acts.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.cosine_similarity(mg.tensor([[1.0, 0.0]]), mg.tensor([[1.0, 1.0]]))
        tensor([0.7071])
    """
    check_tensor(x1, "cosine_similarity")
    check_tensor(x2, "cosine_similarity", "x2", 2)
    shape = _broadcast_shape(x1, x2)
    x1, x2 = x1.expand(*shape), x2.expand(*shape)
    n1, n2 = _clamped_norm(x1, dim, eps), _clamped_norm(x2, dim, eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def _clamped_norm(x: Tensor, dim: int, eps: float) -> Tensor:
    """|x| along ``dim`` raised to ``eps`` where smaller, the raise not differentiated (PyTorch
    clamps a copy of the norm in place under no_grad): norm + (a constant difference)."""
    norm = x.norm(2, dim=dim, keepdim=True)
    with no_grad():
        lift = norm.clamp(min=eps) - norm
    return norm + lift


def _broadcast_shape(a: Tensor, b: Tensor) -> tuple:
    return np.broadcast_shapes(tuple(a.shape), tuple(b.shape))


def pairwise_distance(
    x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False
) -> Tensor:
    """The p-norm of x1 - x2 + eps along the last dim (``F.pairwise_distance``); eps keeps
    the gradient of the norm finite where x1 == x2."""
    check_tensor(x1, "pairwise_distance")
    check_tensor(x2, "pairwise_distance", "x2", 2)
    return (x1 - x2 + eps).norm(p, dim=-1, keepdim=keepdim)


def kl_div(
    input: Tensor,  # noqa: A002  (PyTorch names)
    target: Tensor,
    size_average=None,
    reduce=None,  # noqa: A002
    reduction: str = "mean",
    log_target: bool = False,
) -> Tensor:
    """Kullback-Leibler divergence of ``target`` from the log-probabilities ``input`` (``F.kl_div``).

    l = target (log target - input), 0 where target is 0 (PyTorch's xlogy); with
    ``log_target`` the target holds log-probabilities too: l = exp(target) (target - input).
    ``reduction='batchmean'`` (sum / batch size) is the divergence's definition; 'mean'
    (over every element) warns, as PyTorch.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.kl_div(mg.tensor([0.5, 0.5]).log(), mg.tensor([0.5, 0.5]), reduction="batchmean")
        tensor(0.)
    """
    check_tensor(input, "kl_div")
    check_tensor(target, "kl_div", "target", 2)
    if reduction == "batchmean" and size_average is None and reduce is None:
        how = "batchmean"
    elif reduction not in ("none", "mean", "sum", "batchmean"):
        raise ValueError(_errors.KL_DIV_REDUCTION.format(got=reduction))
    else:
        how = get_reduction(size_average, reduce, "mean" if reduction == "batchmean" else reduction)
    if how == "mean":
        warnings.warn(_errors.KL_DIV_MEAN, UserWarning, stacklevel=2)
    if log_target:
        losses = target.exp() * (target - input)
    else:
        # PyTorch's xlogy(target, target): 0 at target 0, where (as PyTorch's) the target's
        # gradient is nan (the derivative of t log t has no limit there)
        losses = xlogy(target, target) - target * input
    if how != "batchmean":
        return _reduce(losses, how)
    total = losses.sum()
    return total / input.shape[0] if input.ndim else total


def margin_ranking_loss(
    input1: Tensor,
    input2: Tensor,
    target: Tensor,
    margin: float = 0.0,
    size_average=None,
    reduce=None,  # noqa: A002
    reduction: str = "mean",
) -> Tensor:
    """max(0, -y (x1 - x2) + margin) for targets y of 1 or -1 (``F.margin_ranking_loss``)."""
    for name, t, i in (("input1", input1, 1), ("input2", input2, 2), ("target", target, 3)):
        check_tensor(t, "margin_ranking_loss", name, i)
    reduction = get_reduction(size_average, reduce, reduction)
    return _reduce((-target * (input1 - input2) + margin).clamp_min(0), reduction)


def hinge_embedding_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    margin: float = 1.0,
    size_average=None,
    reduce=None,  # noqa: A002
    reduction: str = "mean",
) -> Tensor:
    """x where y = 1, max(0, margin - x) where y = -1 (``F.hinge_embedding_loss``)."""
    check_tensor(input, "hinge_embedding_loss")
    check_tensor(target, "hinge_embedding_loss", "target", 2)
    reduction = get_reduction(size_average, reduce, reduction)
    hinge = (margin - input).clamp_min(0)
    losses = input.where(target == 1, 0.0) + hinge.where(target == -1, 0.0)
    return _reduce(losses, reduction)


def soft_margin_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    size_average=None,
    reduce=None,  # noqa: A002
    reduction: str = "mean",
) -> Tensor:
    """log(1 + exp(-y x)) for targets y of 1 or -1 (``F.soft_margin_loss``), computed stably."""
    check_tensor(input, "soft_margin_loss")
    check_tensor(target, "soft_margin_loss", "target", 2)
    reduction = get_reduction(size_average, reduce, reduction)
    return _reduce(softplus(-target * input), reduction)


def triplet_margin_loss(
    anchor: Tensor,
    positive: Tensor,
    negative: Tensor,
    margin: float = 1.0,
    p: float = 2,
    eps: float = 1e-6,
    swap: bool = False,
    size_average=None,
    reduce=None,  # noqa: A002
    reduction: str = "mean",
) -> Tensor:
    """max(d(a, p) - d(a, n) + margin, 0) with d the :func:`pairwise_distance`
    (``F.triplet_margin_loss``); ``swap`` uses min(d(a, n), d(p, n)) as the negative distance."""
    reduction = get_reduction(size_average, reduce, reduction)
    d_pos = pairwise_distance(anchor, positive, p, eps)
    d_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_neg = d_neg.minimum(pairwise_distance(positive, negative, p, eps))
    return _reduce((d_pos - d_neg + margin).clamp_min(0), reduction)
