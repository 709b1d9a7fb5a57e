"""Loss functions of ``minigrad.nn.functional``: each one is its formula in Tensor ops.

The argument checks and target bookkeeping live in ``_loss_checks``; the
gradients (and double-backward) come from the ops. ``reduction`` is
``'mean'`` (default), ``'sum'`` or ``'none'``, as in PyTorch.
"""

from __future__ import annotations

import warnings

import numpy as np

from ..amp.autocast import float32_region
from ..errors import nn as _errors
from ..ops._util import check_tensor
from ..ops.binary_math import squared_difference
from ..recording.function import Op
from ..recording.grad_mode import is_grad_enabled
from ..tensor import Tensor
from ._functional_activations import logsigmoid
from ._loss_checks import ClassTargets, get_reduction, reduce_weighted, weighted_mean
from ._loss_checks import reduce as _reduce


def _check_pair(op: str, input, target) -> None:  # noqa: A002
    check_tensor(input, op)
    check_tensor(target, op, "target", 2)


@float32_region
def mse_loss(
    input: Tensor,  # noqa: A002  (PyTorch names)
    target: Tensor,
    size_average=None,
    reduce=None,  # noqa: A002
    reduction: str = "mean",
    weight: Tensor | None = None,
) -> Tensor:
    """Mean squared error: l_i = w_i (x_i - y_i)^2, reduced (``F.mse_loss``).

    A target of another shape is broadcast, with PyTorch's warning; with
    ``weight``, the mean is sum(w * (x - y)^2) / sum(w).
    """
    _check_pair("mse_loss", input, target)
    reduction = get_reduction(size_average, reduce, reduction)
    if target.shape != input.shape:
        msg = _errors.MSE_SIZE.format(target=tuple(target.shape), input=tuple(input.shape))
        warnings.warn(msg, UserWarning, stacklevel=2)
    return reduce_weighted(
        squared_difference(input, target), weight, input, reduction, mean_by_weight=True
    )


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


@float32_region
def binary_cross_entropy_with_logits(
    input: Tensor,  # noqa: A002
    target: Tensor,
    weight: Tensor | None = None,
    size_average=None,
    reduce=None,  # noqa: A002
    reduction: str = "mean",
    pos_weight: Tensor | None = None,
) -> Tensor:
    """l = -w [p y log sigmoid(x) + (1 - y) log(1 - sigmoid(x))], computed stably.

    With log sigmoid(x) = min(x, 0) - log(1 + exp(-|x|)) no exponential can
    overflow, so inputs of +-1000 give finite values and gradients. ``pos_weight``
    (p) weighs the positive term and broadcasts along the last (class) dim.
    """
    _check_pair("binary_cross_entropy_with_logits", input, target)
    reduction = get_reduction(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(
            _errors.BCE_SIZE.format(target=tuple(target.shape), input=tuple(input.shape))
        )
    if not target.is_floating_point():
        raise RuntimeError(_errors.BCE_TARGET_DTYPE.format(got=target.dtype))
    for name, t in (("weight", weight), ("pos_weight", pos_weight)):
        if t is not None and t.requires_grad and is_grad_enabled():
            op = "binary_cross_entropy_with_logits"
            raise RuntimeError(_errors.NOT_DIFFERENTIABLE.format(op=op, name=name))
    p = None if pos_weight is None else pos_weight._data
    loss = BinaryCrossEntropyWithLogits.apply(input, target, pos_weight=p)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


class BinaryCrossEntropyWithLogits(Op):
    """l = (1 - y) x - q log sigmoid(x), q = (p - 1) y + 1 (p: ``pos_weight``; q = 1 without),
    in the target's dtype (PyTorch's kernel works in place on ``1 - y``), with PyTorch's
    gradient formulas rather than the chain rule through the parts (which gives NaN at
    x = -inf where PyTorch's gives sigmoid(x) - y = 0):

    grad_x = g (q sigmoid(x) - p y)   (g (sigmoid(x) - y) without p),
    grad_y = g (log sigmoid(-x) - p log sigmoid(x))   (g (-x) without p).

    log sigmoid(x) = min(x, 0) - log1p(exp(-|x|)): no exponential overflows, so inputs of
    +-1000 give finite values and gradients, and x = +inf gives inf (not inf - inf).
    """

    elementwise = True
    save_inputs = True
    saved_names = ("self", "target")

    @staticmethod
    def forward(ctx, x, y, pos_weight):
        ctx.pos_weight = pos_weight
        with np.errstate(invalid="ignore"):  # x = -inf, y = 0: -inf + inf, NaN as PyTorch's
            log_sigmoid = np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x)))
            if pos_weight is not None:
                log_sigmoid = log_sigmoid * ((pos_weight - 1) * y + 1)
            return np.asarray((1 - y) * x - log_sigmoid, dtype=y.dtype)

    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        gx, gy = _bce_logits_slopes(x, y, ctx.pos_weight)
        return (gx * g).to(x.dtype), (gy * g).to(y.dtype)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_x grad_x + t_y grad_y (the slopes above, g = 1)."""
        (x, y), (tx, ty) = inputs, tangents
        gx, gy = _bce_logits_slopes(x, y, params["pos_weight"])
        parts = [t * s for t, s in ((tx, gx), (ty, gy)) if t is not None]
        return (parts[0] + parts[1] if len(parts) == 2 else parts[0]).to(out.dtype)


def _bce_logits_slopes(x: Tensor, y: Tensor, pos_weight) -> tuple:
    """PyTorch's d l / d x and d l / d y of binary_cross_entropy_with_logits."""
    if pos_weight is None:
        return x.sigmoid() - y, -x
    p = Tensor._make(pos_weight, False, None)
    py = p * y
    return (py + 1.0 - y) * x.sigmoid() - py, logsigmoid(-x) - logsigmoid(x) * p
