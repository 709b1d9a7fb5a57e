"""Classification losses over classes of ``minigrad.nn.functional``: ``nll_loss`` and
``cross_entropy``, whose targets are class indices or class probabilities. ``nll_loss`` is one
op, :class:`NllLoss` (PyTorch's ``NllLossBackward0``, the reduction inside); ``cross_entropy``
is ``log_softmax`` then that op. (Binary cross entropy is one loss per element: it is with the
other elementwise losses, in ``_functional_pointwise_losses``.)

The argument checks and target bookkeeping live in ``_loss_checks``. ``reduction`` is
``'mean'`` (default), ``'sum'`` or ``'none'``, as in PyTorch.
"""

from __future__ import annotations

import numpy as np

from ..errors import nn as _errors
from ..ops._util import check_tensor
from ..recording.function import Op
from ..tensor import Tensor
from ._loss_checks import ClassTargets, get_reduction, weighted_mean


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
    return _nll(input, target, weight, ignore_index, reduction)


def _nll(logp: Tensor, target: Tensor, weight, ignore_index: int, reduction: str) -> Tensor:
    """One :class:`NllLoss` node on ``logp`` (PyTorch's ``NllLossBackward0``); the targets
    are checked and turned into numpy bookkeeping first (``ClassTargets``, on a detached
    view, so no nodes are recorded for it)."""
    ct = ClassTargets(logp.detach(), target, weight, ignore_index)
    op = NllLoss2d if logp.ndim > 2 else NllLoss
    return op.apply(
        logp,
        target=ct.safe,
        target_weight=ct.target_weight,
        keep=ct.keep._data,
        reduction=reduction,
        loss_shape=tuple(ct.loss_shape),
    )


class NllLoss(Op):
    """l_i = -w[y_i] x[i, y_i] (0 where y_i is ignored), reduced; x holds log-probabilities
    with the classes in dim 1 (dim 0 for a (C,) input).

    The reduction is inside the op, as in PyTorch: 'mean' divides the sum by the summed
    target weights (nan when they are 0). The loss is linear in x, so the gradient is a
    constant array (-w[y_i] at each picked position, divided as the mean divides) times
    the incoming gradient: two differentiable ops, which gives the double backward too.
    """

    @staticmethod
    def forward(ctx, x, target, target_weight, keep, reduction, loss_shape):
        ctx.shape, ctx.params = x.shape, (target, target_weight, keep, reduction, loss_shape)
        picked = _as_rows(x)[np.arange(len(target)), target]
        losses = np.where(keep, -picked * target_weight, 0).astype(x.dtype)
        if reduction == "none" and loss_shape != ():
            return losses.reshape(loss_shape)
        # a sum, as PyTorch's, starts from +0.0 (numpy's keeps -0.0 + -0.0 = -0.0); one (C,)
        # sample's loss is such a sum too
        total = losses.sum(dtype=x.dtype) + x.dtype.type(0)
        if reduction == "none":
            return np.asarray(total)
        if reduction == "sum":
            return np.asarray(total)
        with np.errstate(invalid="ignore", divide="ignore"):  # no target weight: nan
            return np.asarray(total / target_weight.sum(dtype=x.dtype), dtype=x.dtype)

    @staticmethod
    def backward(ctx, g):
        target, target_weight, keep, reduction, loss_shape = ctx.params
        coef = _nll_slopes(ctx.shape, g._data.dtype, target, target_weight, keep, reduction)
        if reduction == "none" and len(ctx.shape) > 1:  # (N, d1, ...) -> (N, 1, d1, ...)
            g = g.unsqueeze(1)
        return Tensor._make(coef, False, None) * g

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: the loss is linear in x, so its tangent is the loss of the tangent."""
        return NllLoss.apply(tangents[0], **params)


class NllLoss2d(NllLoss):
    """:class:`NllLoss` of an (N, C, d1, ...) input: PyTorch's ``NllLoss2DBackward0`` (which
    PyTorch wraps in views for other than 4 dims; here it is the one node for all)."""

    node_name = "NllLoss2DBackward0"

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: the loss of the tangent, as :class:`NllLoss`'s."""
        return NllLoss2d.apply(tangents[0], **params)


def _as_rows(x: np.ndarray) -> np.ndarray:
    """(N, C, d1, ...) -> (N * d1 * ..., C) with the classes last; (C,) -> (1, C)."""
    if x.ndim == 1:
        return x.reshape(1, -1)
    return np.moveaxis(x, 1, -1).reshape(-1, x.shape[1])


def _nll_slopes(shape, dtype, target, target_weight, keep, reduction) -> np.ndarray:
    """d loss / d x in x's shape: -w[y_i] at each kept picked position (over the summed
    weights for 'mean'; 0 when they sum to 0, as PyTorch), 0 elsewhere."""
    n_classes = shape[0] if len(shape) == 1 else shape[1]
    rows = np.zeros((len(target), n_classes), dtype)
    slope = np.where(keep, -target_weight, 0).astype(dtype)
    if reduction == "mean":
        total = target_weight.sum(dtype=dtype)
        slope = slope / total if total != 0 else np.zeros_like(slope)
    rows[np.arange(len(target)), target] = slope
    if len(shape) == 1:
        return rows.reshape(shape)
    moved = rows.reshape((shape[0], *shape[2:], n_classes))
    return np.ascontiguousarray(np.moveaxis(moved, -1, 1))


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
    loss = _nll(logp, target, weight, ignore_index, reduction)
    if label_smoothing == 0.0:
        return loss
    ct = ClassTargets(logp, target, weight, ignore_index)
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
    if reduction == "none":
        return -prod.sum(class_dim)
    # PyTorch negates the total, not each row's sum: the sign of a zero loss is the total's
    total = -prod.sum()
    if reduction == "sum":
        return total
    return weighted_mean(total, logp.numel() // n_classes if n_classes else 0)
