"""Argument checks and target bookkeeping shared by the loss functions.

Kept apart from the loss formulas so each loss reads as its math. The checks
run in PyTorch's order (dimensions, batch size, dtype, values), with PyTorch's
messages, extended by what would be accepted.
"""

from __future__ import annotations

import warnings

import numpy as np

from .. import _dtype
from ..errors import nn as _errors
from ..ops.select import where
from ..tensor import Tensor

_REDUCTIONS = ("none", "mean", "sum")


def get_reduction(size_average, reduce, reduction: str) -> str:
    """The reduction to use; the legacy ``size_average``/``reduce`` flags win, with a warning."""
    if size_average is not None or reduce is not None:
        size_average = True if size_average is None else size_average
        reduce = True if reduce is None else reduce
        reduction = "mean" if size_average and reduce else "sum" if reduce else "none"
        warnings.warn(_errors.LEGACY_REDUCTION.format(got=reduction), UserWarning, stacklevel=3)
    if reduction not in _REDUCTIONS:
        raise ValueError(_errors.REDUCTION.format(got=reduction))
    return reduction


def reduce(loss: Tensor, reduction: str) -> Tensor:
    """Apply ``'none'`` (as is), ``'sum'`` or ``'mean'`` (nan for an empty loss, as PyTorch)."""
    if reduction == "none":
        return loss
    return loss.sum() if reduction == "sum" else loss.mean()


def reduce_weighted(loss: Tensor, weight, input, reduction: str, mean_by_weight: bool) -> Tensor:  # noqa: A002
    """Reduce ``loss * weight``; the mean divides by sum(weight) or by the count."""
    if weight is None:
        return reduce(loss, reduction)
    if weight.shape != input.shape:
        raise ValueError(
            _errors.WEIGHT_SIZE.format(weight=tuple(weight.shape), input=tuple(input.shape))
        )
    loss = loss * weight
    if reduction == "mean" and mean_by_weight:
        return loss.sum() / weight.sum()
    return reduce(loss, reduction)


def weighted_mean(total: Tensor, weight_sum: float) -> Tensor:
    """total / weight_sum; for weight_sum == 0 PyTorch's nan, with a zero gradient."""
    if weight_sum == 0:
        nan = Tensor._make(np.full((), np.nan, total._data.dtype), False, None)
        return total * 0.0 + nan
    return total / float(weight_sum)


def _shape_note(input: Tensor, target: Tensor) -> str:  # noqa: A002
    return f" (input shape {tuple(input.shape)}, target shape {tuple(target.shape)})"


def flatten_class_input(input: Tensor, target: Tensor):  # noqa: A002
    """Scores ``(N, C, d1, ...)``, ``(N, C)`` or ``(C,)`` as ``(M, C)``, targets as ``(M,)``.

    Returns ``(scores, targets_array, loss_shape)``, where ``loss_shape`` is the
    shape of the unreduced loss (the target's shape; ``()`` for a ``(C,)`` input).
    """
    if input.ndim < 1:
        raise ValueError(_errors.INPUT_DIMS.format(got=input.ndim))
    if input.ndim == 1:
        if target.shape not in ((), (1,)):
            raise ValueError(
                _errors.TARGET_DIMS.format(input=tuple(input.shape), target=tuple(target.shape))
            )
        return input.unsqueeze(0), target._data.reshape(1), ()
    n = input.shape[0]
    if target.ndim == 0 or target.shape[0] != n:
        m = target.shape[0] if target.ndim else 0
        msg = _errors.BATCH_SIZE.format(n=n, m=m) + _shape_note(input, target)
        raise ValueError(msg)
    if input.ndim == 2:
        if target.ndim != 1:
            raise ValueError(
                _errors.TARGET_DIMS.format(input=tuple(input.shape), target=tuple(target.shape))
            )
        return input, target._data, target.shape
    want = (n,) + input.shape[2:]
    if target.shape != want:
        raise ValueError(_errors.TARGET_SHAPE.format(want=list(want), got=list(target.shape)))
    dims = (0,) + tuple(range(2, input.ndim)) + (1,)
    scores = input.permute(*dims).reshape(-1, input.shape[1])
    return scores, target._data.reshape(-1), target.shape


def check_class_targets(target: Tensor, t: np.ndarray, n_classes: int, ignore_index: int) -> None:
    """Integer dtype, and every target in ``[0, C)`` or equal to ``ignore_index``."""
    if target._data.dtype not in (np.int64, np.uint8):
        raise TypeError(_errors.TARGET_DTYPE.format(got=target.dtype))
    bad = (t != ignore_index) & ((t < 0) | (t >= n_classes))
    if bad.any():
        first = int(t[np.argmax(bad)])
        raise IndexError(_errors.TARGET_RANGE.format(t=first, last=n_classes - 1, ii=ignore_index))


def class_weights(weight: Tensor | None, n_classes: int, input: Tensor):  # noqa: A002
    """The per-class weights as a numpy array of the input's dtype (they get no gradient)."""
    if weight is None:
        return None
    if weight.numel() != n_classes:
        raise ValueError(_errors.WEIGHT_SHAPE.format(c=n_classes, shape=list(weight.shape)))
    return weight._data.reshape(-1).astype(input._data.dtype)


class ClassTargets:
    """Class-index targets against ``(M, C)`` scores: the mask and weights every loss needs.

    Attributes:
        scores: the ``(M, C)`` scores (log-probabilities for nll_loss).
        safe: targets with ignored entries replaced by class 0, for indexing.
        keep: a bool Tensor, False where the target equals ``ignore_index``.
        weight: per-class weights (numpy) or None.
        target_weight: weight of each element's target (0 where ignored); their
            sum is the denominator of the mean, as in PyTorch.
        loss_shape: the shape of the unreduced loss.
    """

    def __init__(self, input: Tensor, target: Tensor, weight, ignore_index: int):  # noqa: A002
        self.scores, t, self.loss_shape = flatten_class_input(input, target)
        n_classes = self.scores.shape[1]
        check_class_targets(target, t, n_classes, ignore_index)
        t = t.astype(np.int64)
        keep = t != ignore_index
        self.safe = np.where(keep, t, 0)
        self.keep = Tensor._make(keep, False, None)
        self.weight = class_weights(weight, n_classes, input)
        dtype = input._data.dtype
        per_target = np.ones(len(t), dtype) if self.weight is None else self.weight[self.safe]
        self.target_weight = np.where(keep, per_target, 0).astype(dtype)

    def masked(self, losses: Tensor) -> Tensor:
        """Zero (exactly, with zero gradient) where the target is ignored."""
        return where(self.keep, losses, 0.0)

    def reduce(self, losses: Tensor, reduction: str) -> Tensor:
        """'none' in the target's shape, 'sum', or the target-weighted 'mean'."""
        if reduction == "none" and self.loss_shape == ():
            # one sample, (C,) scores: PyTorch's kernel sums it from +0.0 (the sign of a zero)
            return losses.sum()
        if reduction == "none":
            return losses.reshape(*self.loss_shape)
        if reduction == "sum":
            return losses.sum()
        return weighted_mean(losses.sum(), self.target_weight.sum())


def promote_broadcast(input: Tensor, target: Tensor):  # noqa: A002
    """``input`` and ``target`` in one dtype as PyTorch's regression losses see them: when
    the shapes differ they are broadcast first, so a 0-d operand promotes as a dimensioned
    one (``mse_loss(float32 (4,), float64 0-d)`` is float64, where ``float32 (4,) - float64
    0-d`` is float32)."""
    if input.shape == target.shape or input.dtype is target.dtype:
        return input, target
    d = _dtype.promote(input.dtype, target.dtype)
    return input.to(d), target.to(d)
