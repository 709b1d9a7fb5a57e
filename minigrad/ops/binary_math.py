"""Elementwise binary math beyond + - * / **: maximum, minimum, logaddexp.

Both operands must be tensors (PyTorch refuses a Python number here too); they are
promoted to one dtype and broadcast, and each gradient is summed back to its operand's
shape with :func:`~minigrad.ops.shape.sum_to`, as in :mod:`.arith`.
"""

from __future__ import annotations

import numpy as np

from .. import _dtype
from ..errors import tensor_ops as _errors
from ..tensor import Tensor, has_sparse_layout
from ._util import broadcast_shapes, result_dtype
from .arith import _Binary
from .shape import sum_to


def _weights(a, b, larger: bool):
    """Each operand's share of the gradient of maximum (``larger``) or minimum: 1 where it
    wins, 1/2 at a tie (PyTorch splits it evenly), 0 where it loses. Built from comparisons
    (ops, so a traced program keeps them); at a NaN both shares are 1, as in PyTorch."""
    lose_a, lose_b = (a < b, b < a) if larger else (a > b, b > a)
    tie = (a == b).to(_dtype._FROM_NP[a._data.dtype]) * 0.5
    one = tie * 0.0 + 1.0
    return one - lose_a.to(tie.dtype) - tie, one - lose_b.to(tie.dtype) - tie


class Maximum(_Binary):
    """Elementwise max: f(a, b) = max(a, b); grad_a = g where a > b, g/2 at ties, else 0.

    One ``derivative`` serves backward and jvp: the Jacobian is diagonal, so g J (backward)
    and J t (jvp) are the same elementwise product."""

    elementwise = True
    larger = True
    reducer = staticmethod(np.maximum)

    save_inputs = True
    saved_names = ("self", "other")

    @classmethod
    def forward(cls, ctx, a, b):
        _Binary.prepare(ctx, a, b)
        return np.asarray(cls.reducer(a, b))

    @classmethod
    def derivative(cls, va, vb, a, b):
        """``(va * share_a, vb * share_b)``, None for a v that is None: va and vb are the
        gradient (backward: both g) or the operands' tangents (jvp)."""
        wa, wb = _weights(a, b, cls.larger)
        return (None if va is None else va * wa), (None if vb is None else vb * wb)

    @classmethod
    def backward(cls, ctx, g):
        ga, gb = cls.derivative(g, g, *ctx.saved_tensors)
        return sum_to(ga, ctx.sa, ctx.da), sum_to(gb, ctx.sb, ctx.db)

    @classmethod
    def jvp(cls, params, inputs, tangents, out):
        """Forward rule: t_out = t_a * share_a + t_b * share_b (shares as in backward)."""
        da, db = cls.derivative(*tangents, *inputs)
        return db if da is None else da if db is None else da + db


class Minimum(Maximum):
    """Elementwise min: f(a, b) = min(a, b); grad_a = g where a < b, g/2 at ties, else 0."""

    larger = False
    reducer = staticmethod(np.minimum)


class LogAddExp(_Binary):
    """log(e**a + e**b), computed as m + log1p(e**-|a - b|) with m = max(a, b);
    grad_a = g * sigmoid(a - b), grad_b = g * sigmoid(b - a).

    One ``derivative`` serves backward and jvp: the Jacobian is diagonal, so g J (backward)
    and J t (jvp) are the same elementwise product."""

    node_name = "LogaddexpBackward0"
    elementwise = True

    save_inputs = True
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        _Binary.prepare(ctx, a, b)
        return np.asarray(np.logaddexp(a, b))  # numpy's is the stable form above

    @staticmethod
    def derivative(va, vb, a, b):
        """``(va * sigmoid(a - b), vb * sigmoid(b - a))``, None for a v that is None: va and vb
        are the gradient (backward: both g) or the operands' tangents (jvp)."""
        d = a - b
        return (None if va is None else va * d.sigmoid()), (
            None if vb is None else vb * (-d).sigmoid()
        )

    @staticmethod
    def backward(ctx, g):
        ga, gb = LogAddExp.derivative(g, g, *ctx.saved_tensors)
        return sum_to(ga, ctx.sa, ctx.da), sum_to(gb, ctx.sb, ctx.db)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a * sigmoid(a - b) + t_b * sigmoid(b - a)."""
        da, db = LogAddExp.derivative(*tangents, *inputs)
        return db if da is None else da if db is None else da + db


def _operands(input, other, name):  # noqa: A002
    if not isinstance(other, Tensor):
        raise TypeError(_errors.NEED_TENSOR_OTHER.format(op=name, got=type(other).__name__))
    if has_sparse_layout(other):
        raise NotImplementedError(other._no_kernel(name))
    broadcast_shapes(input.shape, other.shape, name)
    if input._data.dtype != other._data.dtype:
        d = result_dtype(input, other)
        input, other = input.to(d), other.to(d)
    return input, other


def maximum(input, other):  # noqa: A002  (PyTorch's names)
    """Elementwise maximum of two tensors, broadcasting (``torch.maximum``).

    At a tie the gradient is split evenly between the two, as PyTorch does.

    Example:
        >>> import minigrad as mg
        >>> x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
        >>> mg.maximum(x, mg.tensor([2.0, 2.0, 2.0])).sum().backward()
        >>> x.grad
        tensor([0.0000, 0.5000, 1.0000])
    """
    return Maximum.apply(*_operands(input, other, "maximum"))


def minimum(input, other):  # noqa: A002
    """Elementwise minimum of two tensors, broadcasting; ties split the gradient
    (``torch.minimum``)."""
    return Minimum.apply(*_operands(input, other, "minimum"))


def logaddexp(input, other):  # noqa: A002
    """log(exp(input) + exp(other)) elementwise, finite at +-1000 (``torch.logaddexp``);
    floating tensors only (PyTorch has no integer kernel)."""
    input, other = _operands(input, other, "logaddexp")
    if input._data.dtype.kind != "f":
        raise NotImplementedError(_errors.NOT_FLOAT.format(op="logaddexp", got=input.dtype))
    return LogAddExp.apply(input, other)


class SquaredDifference(_Binary):
    """Squared difference: f(a, b) = (a - b)^2; grad_a = 2(a - b)g, grad_b = 2(b - a)g.

    ``mse_loss``'s elementwise term, as PyTorch's ``mse_loss_backward`` differentiates it:
    each operand's gradient is written from its own side, so a zero residual gives +0.0 to
    both (the composite ``-(2(a - b)g)`` would give the target -0.0)."""

    node_name = "MseLossBackward0"

    save_inputs = True
    saved_names = ("self", "target")

    @staticmethod
    def forward(ctx, a, b):
        _Binary.prepare(ctx, a, b)
        d = a - b
        return d * d

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        g2 = g * 2.0
        return sum_to(g2 * (a - b), ctx.sa, ctx.da), sum_to(g2 * (b - a), ctx.sb, ctx.db)


def squared_difference(a: Tensor, b: Tensor) -> Tensor:
    """(a - b)^2 elementwise, broadcasting, in the promoted dtype (``mse_loss``'s term)."""
    if a.shape != b.shape:
        broadcast_shapes(a.shape, b.shape, "mse_loss")
    if a.dtype is not b.dtype:
        d = result_dtype(a, b)
        a, b = a.to(d), b.to(d)
    return SquaredDifference.apply(a, b)
