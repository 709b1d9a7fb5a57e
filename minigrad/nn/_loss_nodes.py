"""Elementwise losses as one node each, the reduction inside, as PyTorch records them:
``F.mse_loss(x, y)`` is one ``MseLossBackward0`` (no ``MeanBackward0`` above it), and likewise
``SmoothL1LossBackward0``, ``HuberLossBackward0``, ``BinaryCrossEntropyBackward0`` and
``BinaryCrossEntropyWithLogitsBackward0``.

Each loss class writes two things: ``losses(x, y)``, the per-element loss (numpy), and
``slopes(x, y)``, its derivatives d l / d x and d l / d y (Tensor ops, so a second backward
runs through them). :class:`ReducedLoss` does the rest for all of them:

- forward reduces the per-element losses: ``'none'`` keeps them, ``'sum'`` adds them up (from
  +0.0, as PyTorch's sum), ``'mean'`` divides that sum by the count (NaN for no elements);
- backward spreads the incoming gradient back over the elements (``'mean'``: each gets g / n)
  and multiplies by the slopes: g_x = g * d l / d x, g_y = g * d l / d y;
- jvp, the forward rule, reduces t_x * d l / d x + t_y * d l / d y the same way.

The two operands are computed in their promoted dtype (``dtype``), and each gradient is cast
back to its operand's dtype, as PyTorch's kernels do, so no conversion node is recorded.
"""

from __future__ import annotations

import numpy as np

from .. import _dtype
from ..recording.function import Op
from ..tensor import Tensor

#: the number PyTorch saves as ``grad_fn._saved_reduction`` (its ``Reduction`` enum)
REDUCTION_ENUM = {"none": 0, "mean": 1, "sum": 2}


def reduce_array(losses: np.ndarray, reduction: str) -> np.ndarray:
    """``'none'``, ``'sum'`` (from +0.0) or ``'mean'`` (NaN when empty) of per-element losses."""
    if reduction == "none":
        return losses
    total = losses.sum(dtype=losses.dtype) + losses.dtype.type(0)
    if reduction == "sum":
        return np.asarray(total)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(total / losses.dtype.type(losses.size), dtype=losses.dtype)


def reduce_tensor(losses: Tensor, reduction: str) -> Tensor:
    """:func:`reduce_array` in Tensor ops (forward mode reduces the tangents with it)."""
    if reduction == "none":
        return losses
    return losses.sum() if reduction == "sum" else losses.mean()


class ReducedLoss(Op):
    """Base of the loss nodes: ``forward(x, y, reduction, dtype, **params)``; subclasses
    write ``losses(x, y, **params)`` (numpy, per element) and ``slopes(x, y, **params)``
    (Tensors: d l / d x and d l / d y, per element)."""

    save_inputs = True
    saved_names = ("self", "target")
    saved_values = {"reduction": lambda ctx: REDUCTION_ENUM[ctx.reduction]}

    @classmethod
    def forward(cls, ctx, x, y, reduction, dtype, **params):
        ctx.reduction, ctx.dtype, ctx.params = reduction, dtype, params
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            losses = cls.losses(x.astype(dtype, copy=False), y.astype(dtype, copy=False), **params)
        return reduce_array(np.asarray(losses, dtype=dtype), reduction)

    @classmethod
    def backward(cls, ctx, g):
        x, y = ctx.saved_tensors
        if ctx.reduction == "mean" and x.numel():  # each element's share of the mean
            g = g / float(x.numel())
        sx, sy = cls.slopes(*_in_dtype(x, y, ctx.dtype), **ctx.params)
        return (g * sx).to(x.dtype), (g * sy).to(y.dtype)

    @classmethod
    def jvp(cls, params, inputs, tangents, out):
        """Forward rule: the reduction of t_x * d l / d x + t_y * d l / d y."""
        params = dict(params)
        reduction, dtype = params.pop("reduction"), params.pop("dtype")
        slopes = cls.slopes(*_in_dtype(*inputs, dtype), **params)
        parts = [t.to(s.dtype) * s for t, s in zip(tangents, slopes) if t is not None]
        total = parts[0] + parts[1] if len(parts) == 2 else parts[0]
        return reduce_tensor(total, reduction).to(out.dtype)


def _in_dtype(x: Tensor, y: Tensor, dtype) -> tuple:
    """x and y in the dtype the loss is computed in (numpy's ``dtype``)."""
    want = _dtype._FROM_NP[np.dtype(dtype)]
    return tuple(t if t._data.dtype == dtype else t.to(want) for t in (x, y))


class MseLoss(ReducedLoss):
    """l = (x - y)^2; d l / d x = 2 (x - y), d l / d y = 2 (y - x): each from its own side, as
    PyTorch's ``mse_loss_backward(grad, target, self)`` (where x == y, the zero has g's sign)."""

    @staticmethod
    def losses(x, y):
        return (x - y) ** 2

    @staticmethod
    def slopes(x, y):
        return (x - y) * 2.0, (y - x) * 2.0


class HuberLoss(ReducedLoss):
    """l = d^2 / 2 where |d| < delta, else delta (|d| - delta / 2), d = x - y;
    d l / d x = d clamped to [-delta, delta], and d l / d y the same from y's side (PyTorch's
    ``huber_loss_backward(grad, target, self)``: where x == y the zero has g's sign, not -0.0)."""

    saved_values = {**ReducedLoss.saved_values, "delta": lambda ctx: ctx.params["delta"]}

    @staticmethod
    def losses(x, y, delta):
        d = x - y
        a = np.abs(d)
        return np.where(a < delta, 0.5 * d * d, delta * (a - 0.5 * delta))

    @staticmethod
    def slopes(x, y, delta):
        return (x - y).clamp(-delta, delta), (y - x).clamp(-delta, delta)


class SmoothL1Loss(ReducedLoss):
    """l = d^2 / (2 beta) where |d| < beta, else |d| - beta / 2, d = x - y (beta > 0);
    d l / d x = d / beta clamped to [-1, 1], d l / d y the same from y's side (as Huber's)."""

    saved_values = {**ReducedLoss.saved_values, "beta": lambda ctx: ctx.params["beta"]}

    @staticmethod
    def losses(x, y, beta):
        d = x - y
        a = np.abs(d)
        return np.where(a < beta, 0.5 * d * d / beta, a - 0.5 * beta)

    @staticmethod
    def slopes(x, y, beta):
        return ((x - y) / beta).clamp(-1.0, 1.0), ((y - x) / beta).clamp(-1.0, 1.0)


def weighted(slopes: tuple, weight) -> tuple:
    """Both slopes times a per-element ``weight`` (a numpy array, no gradient), or as they are."""
    if weight is None:
        return slopes
    w = Tensor._make(np.asarray(weight), False, None)
    return tuple(s * w.to(s.dtype) for s in slopes)
