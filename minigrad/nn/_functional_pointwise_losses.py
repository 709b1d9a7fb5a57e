"""Elementwise losses of ``minigrad.nn.functional``: MSE, L1, smooth L1, Huber, and binary
cross entropy on probabilities and on logits (one loss per element, then reduced).

Each is its formula in differentiable Tensor ops, except the two binary cross entropies:
``binary_cross_entropy``'s clamped logarithms need PyTorch's own gradient rule (an op class
below), so that an input of exactly 0 or 1 gets PyTorch's finite gradient instead of
0 * inf, and ``binary_cross_entropy_with_logits`` is computed stably with PyTorch's formulas.
The reductions and legacy flags are the shared ones of ``_loss_checks``.
"""

from __future__ import annotations

import warnings

import numpy as np

from .. import _traced
from ..amp.autocast import float32_region
from ..errors import nn as _errors
from ..ops._util import broadcast_shapes, check_tensor
from ..ops.binary_math import squared_difference
from ..ops.select import where
from ..recording.function import Op
from ..recording.grad_mode import is_grad_enabled
from ..tensor import Tensor
from ._functional_activations import logsigmoid
from ._loss_checks import get_reduction, promote_broadcast, reduce_weighted
from ._loss_checks import reduce as _reduce


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
    input, target = promote_broadcast(input, target)  # noqa: A001
    return reduce_weighted(
        squared_difference(input, target), weight, input, reduction, mean_by_weight=True
    )


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


class _PiecewiseLoss(Op):
    """Shared by :class:`SmoothL1Loss` and :class:`HuberLoss`: quadratic near d = x - y = 0,
    linear beyond the cutoff, in one node, with PyTorch's backward kernels.

    PyTorch differentiates the target from its own side (derivatives.yaml: ``target:
    huber_loss_backward(grad, target, self, ...)``), not as minus the input's gradient: at
    x == y both gradients are the zero ``0 * g``, with g's sign (the composite ``-(d g)``
    gives the target the other zero, and a tensor that is both input and target then always
    +0.0). The jvp is PyTorch's too: the slope applied to each tangent, from each side.
    """

    elementwise = True
    save_inputs = True
    saved_names = ("self", "target")

    @classmethod
    def forward(cls, ctx, x, y, cutoff):
        ctx.cutoff = cutoff
        z = np.abs(x - y)
        return np.asarray(np.where(z < cutoff, cls.quadratic(z, cutoff), cls.linear(z, cutoff)))

    @classmethod
    def backward(cls, ctx, g):
        x, y = ctx.saved_tensors
        return cls.slope(g, x, y, ctx.cutoff), cls.slope(g, y, x, ctx.cutoff)

    @classmethod
    def jvp(cls, params, inputs, tangents, out):
        """Forward rule: t_out = slope(t_x, x, y) + slope(t_y, y, x)."""
        (x, y), (tx, ty), c = inputs, tangents, params["cutoff"]
        parts = [cls.slope(t, a, b, c) for t, a, b in ((tx, x, y), (ty, y, x)) if t is not None]
        return parts[0] + parts[1] if len(parts) == 2 else parts[0]

    @staticmethod
    def slope(g: Tensor, a: Tensor, b: Tensor, cutoff: float) -> Tensor:
        """``a``'s gradient given ``g``, with d = a - b (PyTorch's ``*_loss_backward``)."""
        raise NotImplementedError


class SmoothL1Loss(_PiecewiseLoss):
    """l = 0.5 z^2 / beta if z < beta else z - 0.5 beta, z = |x - y| (PyTorch's kernel);
    grad_x = -g if d <= -beta, g if d >= beta, else d g / beta (d = x - y)."""

    node_name = "SmoothL1LossBackward0"

    @staticmethod
    def quadratic(z, beta):
        return 0.5 * z * z / beta

    @staticmethod
    def linear(z, beta):
        return z - 0.5 * beta

    @staticmethod
    def slope(g, a, b, beta):
        d = a - b
        return where(d <= -beta, -g, where(d >= beta, g, d * g / beta))


class HuberLoss(_PiecewiseLoss):
    """l = 0.5 z^2 if z < delta else delta (z - 0.5 delta), z = |x - y| (PyTorch's kernel);
    grad_x = -g delta if d <= -delta, g delta if d >= delta, else d g (d = x - y)."""

    node_name = "HuberLossBackward0"

    @staticmethod
    def quadratic(z, delta):
        return 0.5 * z * z

    @staticmethod
    def linear(z, delta):
        return delta * (z - 0.5 * delta)

    @staticmethod
    def slope(g, a, b, delta):
        d = a - b
        return where(d <= -delta, g * -delta, where(d >= delta, g * delta, d * g))


def _broadcast(op: str, input: Tensor, target: Tensor):  # noqa: A002
    """Both expanded to their broadcast shape, as PyTorch's ``broadcast_tensors`` before its
    loss kernels (an ``ExpandBackward0`` on the one that grows)."""
    if input.shape == target.shape:
        return input, target
    shape = broadcast_shapes(tuple(input.shape), tuple(target.shape), op)
    grown = [t if tuple(t.shape) == shape else t.expand(shape) for t in (input, target)]
    return grown[0], grown[1]


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
    input, target = _broadcast("smooth_l1_loss", input, target)  # noqa: A001
    if beta == 0:
        return _reduce((input - target).abs(), reduction)
    return _reduce(SmoothL1Loss.apply(input, target, cutoff=float(beta)), reduction)


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
    input, target = _broadcast("huber_loss", input, target)  # noqa: A001
    loss = HuberLoss.apply(input, target, cutoff=float(delta))
    return reduce_weighted(loss, weight, input, reduction, mean_by_weight=False)


class BinaryCrossEntropy(Op):
    """l = -(y max(log x, -100) + (1 - y) max(log(1 - x), -100));
    grad_x = g (x - y) / max(x (1 - x), 1e-12), grad_y = g (log(1 - x) - log x).

    PyTorch's rule: the x gradient is not the derivative of the clamped logs (which
    would be 0 * inf at x = 0 or 1) but their unclamped derivative, kept finite by
    the 1e-12 floor; the y gradient uses the unclamped logs (so it is infinite there).
    """

    elementwise = True
    save_inputs = True
    saved_names = ("self", "target")

    @staticmethod
    def forward(ctx, x, y):
        with np.errstate(divide="ignore"):
            log_x = np.maximum(np.log(x), -100.0)
            log_1mx = np.maximum(np.log1p(-x), -100.0)
        return -(y * log_x + (1 - y) * log_1mx)

    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return g * _slope_x(x, y), g * _slope_y(x)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_x (x - y) / max(x (1 - x), 1e-12) + t_y (log(1 - x) - log x)."""
        (x, y), (tx, ty) = inputs, tangents
        tx_part = None if tx is None else tx * _slope_x(x, y)
        ty_part = None if ty is None else ty * _slope_y(x)
        if tx_part is None or ty_part is None:
            return ty_part if tx_part is None else tx_part
        return tx_part + ty_part


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
    loss = BinaryCrossEntropy.apply(input, target)
    if weight is not None and weight.requires_grad and is_grad_enabled():
        msg = _errors.NOT_DIFFERENTIABLE.format(op="binary_cross_entropy", name="weight")
        raise RuntimeError(msg)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


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
