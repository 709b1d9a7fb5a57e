"""Elementwise losses of ``minigrad.nn.functional``: MSE, L1, smooth L1, Huber, and binary
cross entropy on probabilities and on logits (one loss per element, then reduced).

As in PyTorch, each is one node with the reduction inside (``MseLossBackward0``, ...; the
shared machinery is ``_loss_nodes.ReducedLoss``), except ``l1_loss``, which PyTorch composes
from ``sub``, ``abs`` and ``mean`` too, and the weighted forms PyTorch composes (``mse_loss``
and ``huber_loss`` with ``weight``). ``binary_cross_entropy``'s clamped logarithms need
PyTorch's own gradient rule, so that an input of exactly 0 or 1 gets PyTorch's finite
gradient instead of 0 * inf, and ``binary_cross_entropy_with_logits`` is computed stably
with PyTorch's formulas. The reductions and legacy flags are the shared ones of
``_loss_checks``.
"""

from __future__ import annotations

import warnings

import numpy as np

from .. import _traced
from ..amp.autocast import float32_region
from ..errors import nn as _errors
from ..ops._util import broadcast_shapes, check_tensor, result_dtype
from ..ops.binary_math import squared_difference
from ..recording.grad_mode import is_grad_enabled
from ..tensor import Tensor
from ._functional_activations import logsigmoid
from ._loss_checks import get_reduction, promote_broadcast, reduce_weighted
from ._loss_checks import reduce as _reduce
from ._loss_nodes import HuberLoss, MseLoss, ReducedLoss, SmoothL1Loss, weighted


def _check_regression(op: str, input, target):  # noqa: A002
    """Tensors, float input, and PyTorch's broadcasting warning; (input, target) in the
    dtype PyTorch computes in."""
    check_tensor(input, op)
    check_tensor(target, op, "target", 2)
    if not input.is_floating_point():
        raise RuntimeError(_errors.LOSS_FLOAT.format(op=op, got=input.dtype))
    _warn_if_broadcast(input, target, stacklevel=5)
    return promote_broadcast(input, target)


def _warn_if_broadcast(input, target, stacklevel: int) -> None:  # noqa: A002
    """PyTorch's warning when the target's shape differs from the input's (it broadcasts).
    ``stacklevel`` is ``warnings.warn``'s, counted from here (``mse_loss`` passes 3, which
    names ``float32_region``'s wrapper as it always has; the others name their caller)."""
    if target.shape != input.shape:
        msg = _errors.MSE_SIZE.format(target=tuple(target.shape), input=tuple(input.shape))
        warnings.warn(msg, UserWarning, stacklevel=stacklevel)


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
    check_tensor(input, "mse_loss")
    check_tensor(target, "mse_loss", "target", 2)
    reduction = get_reduction(size_average, reduce, reduction)
    _warn_if_broadcast(input, target, stacklevel=3)
    if weight is not None:  # PyTorch composes the weighted form from elementary ops
        input, target = promote_broadcast(input, target)  # noqa: A001
        return reduce_weighted(
            squared_difference(input, target), weight, input, reduction, mean_by_weight=True
        )
    return _loss_node(MseLoss, input, target, reduction)


def _loss_node(op, input, target, reduction, **params):  # noqa: A002
    """One loss node (``MseLossBackward0``, ...) on ``input`` and ``target`` broadcast to one
    shape (only the one that differs is expanded, as ``torch.broadcast_tensors`` does), in
    their promoted dtype."""
    if input.shape != target.shape:
        shape = broadcast_shapes(input.shape, target.shape, op.__name__.lower())
        input, target = (t if t.shape == shape else t.expand(*shape) for t in (input, target))  # noqa: A001
    dtype = input._data.dtype if input.dtype is target.dtype else result_dtype(input, target).np
    return op.apply(input, target, reduction=reduction, dtype=dtype, **params)


@float32_region
def l1_loss(
    input: Tensor,  # noqa: A002  (PyTorch names)
    target: Tensor,
    size_average=None,
    reduce=None,  # noqa: A002
    reduction: str = "mean",
    weight: Tensor | None = None,
) -> Tensor:
    """Mean absolute error: l_i = w_i |x_i - y_i|, reduced (``F.l1_loss``).

    The gradient at x == y is 0 (abs'(0) = 0, as PyTorch). With ``weight``, the
    mean is sum(w |x - y|) / sum(w).

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.l1_loss(mg.tensor([1.0, 2.0, 4.0]), mg.tensor([1.0, 0.0, 5.0]))
        tensor(1.)
    """
    input, target = _check_regression("l1_loss", input, target)  # noqa: A001
    reduction = get_reduction(size_average, reduce, reduction)
    return reduce_weighted((input - target).abs(), weight, input, reduction, mean_by_weight=True)


@float32_region
def smooth_l1_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    size_average=None,
    reduce=None,  # noqa: A002
    reduction: str = "mean",
    beta: float = 1.0,
) -> Tensor:
    """l_i = 0.5 d^2 / beta if |d| < beta else |d| - 0.5 beta, d = x - y (``F.smooth_l1_loss``).

    ``beta = 0`` is the L1 loss (PyTorch then calls ``l1_loss``); a negative beta raises,
    as in PyTorch.
    """
    input, target = _check_regression("smooth_l1_loss", input, target)  # noqa: A001
    reduction = get_reduction(size_average, reduce, reduction)
    if beta < 0:
        raise RuntimeError(_errors.SMOOTH_L1_BETA)
    if beta == 0:  # the L1 loss, composed as PyTorch's (MeanBackward0 over AbsBackward0)
        return _reduce((input - target).abs(), reduction)
    return _loss_node(SmoothL1Loss, input, target, reduction, beta=float(beta))


@float32_region
def huber_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    reduction: str = "mean",
    delta: float = 1.0,
    weight: Tensor | None = None,
) -> Tensor:
    """l_i = 0.5 d^2 if |d| < delta else delta (|d| - 0.5 delta), d = x - y (``F.huber_loss``).

    Huber is smooth L1 times delta. ``delta`` must be positive. With ``weight``
    the mean divides by the count (not by sum(w)), as PyTorch's does.
    """
    _check_regression("huber_loss", input, target)
    # PyTorch's huber kernel computes in the input's dtype: the one regression loss that
    # does not promote (docs/differences.md: its backward then refuses the target's gradient)
    target = target.to(input.dtype)
    reduction = get_reduction(None, None, reduction)
    if delta <= 0:
        raise RuntimeError(_errors.HUBER_DELTA)
    if weight is None:
        return _loss_node(HuberLoss, input, target, reduction, delta=float(delta))
    loss = _loss_node(HuberLoss, input, target, "none", delta=float(delta))
    return reduce_weighted(loss, weight, input, reduction, mean_by_weight=False)


class BinaryCrossEntropy(ReducedLoss):
    """l = -w (y max(log x, -100) + (1 - y) max(log(1 - x), -100)), reduced in the node
    (PyTorch's ``BinaryCrossEntropyBackward0``);
    d l / d x = w (x - y) / max(x (1 - x), 1e-12), d l / d y = w (log(1 - x) - log x).

    PyTorch's rule: the x slope is not the derivative of the clamped logs (which would be
    0 * inf at x = 0 or 1) but their unclamped derivative, kept finite by the 1e-12 floor;
    the y slope uses the unclamped logs (so it is infinite there). ``weight`` (w, numpy,
    broadcast to x) gets no gradient.
    """

    @staticmethod
    def losses(x, y, weight):
        log_x = np.maximum(np.log(x), -100.0)
        log_1mx = np.maximum(np.log1p(-x), -100.0)
        loss = -(y * log_x + (1 - y) * log_1mx)
        return loss if weight is None else loss * weight

    @staticmethod
    def slopes(x, y, weight):
        return weighted((_slope_x(x, y), _slope_y(x)), weight)


# PyTorch's floor is the float32 number nearest 1e-12 (its kernel's constant is a float),
# also for float64 inputs: 1 / floor is then 1.000000004e12, not 1e12.
_FLOOR = float(np.float32(1e-12))


def _slope_x(x: Tensor, y: Tensor) -> Tensor:
    return (x - y) / (x * (1.0 - x)).clamp(min=_FLOOR)


def _slope_y(x: Tensor) -> Tensor:
    return (1.0 - x).log() - x.log()


@float32_region
def binary_cross_entropy(
    input: Tensor,  # noqa: A002
    target: Tensor,
    weight: Tensor | None = None,
    size_average=None,
    reduce=None,  # noqa: A002
    reduction: str = "mean",
) -> Tensor:
    """l_i = -w_i [y_i log x_i + (1 - y_i) log(1 - x_i)] for probabilities x (``F.binary_cross_entropy``).

    Each log is clamped at -100, as in PyTorch, so x = 0 or 1 gives a finite loss
    (at most 100). The input must lie in [0, 1] and the target have its shape
    and dtype; ``weight`` broadcasts to the input. For logits, prefer the stabler
    :func:`binary_cross_entropy_with_logits`.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.binary_cross_entropy(mg.tensor([0.5, 1.0]), mg.tensor([1.0, 0.0]), reduction="none")
        tensor([  0.6931, 100.0000])
    """
    check_tensor(input, "binary_cross_entropy")
    check_tensor(target, "binary_cross_entropy", "target", 2)
    reduction = get_reduction(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(
            _errors.BCE_PROB_SIZE.format(target=tuple(target.shape), input=tuple(input.shape))
        )
    if not input.is_floating_point():
        raise RuntimeError(_errors.LOSS_FLOAT.format(op="binary_cross_entropy", got=input.dtype))
    if target.dtype is not input.dtype:
        raise RuntimeError(
            _errors.LOSS_DTYPE.format(got=target.dtype, want=input.dtype, op="binary_cross_entropy")
        )
    data = input._data
    # a traced input (jit, make_jaxpr) has no values yet, so the range check is skipped
    if not _traced.is_traced(data) and data.size and not ((data >= 0) & (data <= 1)).all():
        raise RuntimeError(_errors.BCE_RANGE)
    values = target._data
    if not _traced.is_traced(values) and values.size and not ((values >= 0) & (values <= 1)).all():
        raise RuntimeError(_errors.BCE_TARGET_RANGE)
    if weight is not None and weight.requires_grad and is_grad_enabled():
        msg = _errors.NOT_DIFFERENTIABLE.format(op="binary_cross_entropy", name="weight")
        raise RuntimeError(msg)
    w = _weight_array(weight, input, "weight")
    return BinaryCrossEntropy.apply(
        input, target, reduction=reduction, dtype=input._data.dtype, weight=w
    )


def _weight_array(weight, input, name: str):  # noqa: A002
    """A per-element weight as a numpy array in the input's dtype; it must broadcast to the
    input's shape (PyTorch's RuntimeError otherwise). None stays None."""
    if weight is None:
        return None
    shape = tuple(input.shape)
    try:
        fits = np.broadcast_shapes(tuple(weight.shape), shape) == shape
    except ValueError:
        fits = False
    if not fits:
        raise RuntimeError(
            _errors.LOSS_WEIGHT_BROADCAST.format(
                name=name, got=list(weight.shape), want=list(shape)
            )
        )
    return weight._data.astype(input._data.dtype, copy=False)


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
    check_tensor(input, "binary_cross_entropy_with_logits")
    check_tensor(target, "binary_cross_entropy_with_logits", "target", 2)
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
    p = _weight_array(pos_weight, input, "pos_weight")
    w = _weight_array(weight, input, "weight")
    return BinaryCrossEntropyWithLogits.apply(
        input, target, reduction=reduction, dtype=target._data.dtype, pos_weight=p, weight=w
    )


class BinaryCrossEntropyWithLogits(ReducedLoss):
    """l = w ((1 - y) x - q log sigmoid(x)), q = (p - 1) y + 1 (p: ``pos_weight``; q = 1
    without; w: ``weight``), reduced in the node (PyTorch's
    ``BinaryCrossEntropyWithLogitsBackward0``), in the target's dtype (PyTorch's kernel works
    in place on ``1 - y``), with PyTorch's slopes rather than the chain rule through the parts
    (which gives NaN at x = -inf where PyTorch's gives sigmoid(x) - y = 0):

    d l / d x = w (q sigmoid(x) - p y)   (w (sigmoid(x) - y) without p),
    d l / d y = w (log sigmoid(-x) - p log sigmoid(x))   (w (-x) without p).

    log sigmoid(x) = min(x, 0) - log1p(exp(-|x|)): no exponential overflows, so inputs of
    +-1000 give finite values and gradients, and x = +inf gives inf (not inf - inf).
    """

    @staticmethod
    def losses(x, y, pos_weight, weight):
        log_sigmoid = np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x)))
        if pos_weight is not None:
            log_sigmoid = log_sigmoid * ((pos_weight - 1) * y + 1)
        loss = (1 - y) * x - log_sigmoid  # x = -inf, y = 0: -inf + inf, NaN as PyTorch's
        return loss if weight is None else loss * weight

    @staticmethod
    def slopes(x, y, pos_weight, weight):
        return weighted(_bce_logits_slopes(x, y, pos_weight), weight)


def _bce_logits_slopes(x: Tensor, y: Tensor, pos_weight) -> tuple:
    """PyTorch's d l / d x and d l / d y of binary_cross_entropy_with_logits."""
    if pos_weight is None:
        return x.sigmoid() - y, -x
    p = Tensor._make(pos_weight, False, None)
    py = p * y
    return (py + 1.0 - y) * x.sigmoid() - py, logsigmoid(-x) - logsigmoid(x) * p
