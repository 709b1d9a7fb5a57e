"""Conversions: dtype casts (``to``, ``float``, ``double`` ...) and ``clone``."""

from __future__ import annotations

import numpy as np

from .. import _dtype
from ..autograd.function import Op
from ..tensor import Tensor


class To(Op):
    """Cast to another dtype; grad = g cast back to the input's dtype (none for integers)."""

    elementwise = True

    node_name = "ToCopyBackward"

    @staticmethod
    def forward(ctx, a, dtype):
        ctx.src = _dtype._FROM_NP[a.dtype]
        return a.astype(dtype.np)

    @staticmethod
    def backward(ctx, g):
        return g.to(ctx.src) if ctx.src.is_floating_point else None

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a cast to the new dtype."""
        return To.apply(tangents[0], dtype=params["dtype"])


class Clone(Op):
    """A copy with its own memory; grad = g."""

    elementwise = True

    @staticmethod
    def forward(ctx, a):
        return np.array(a, copy=True)

    @staticmethod
    def backward(ctx, g):
        return g

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = a copy of t_a."""
        return Clone.apply(tangents[0])


def to(a, *args, dtype=None, copy: bool = False, **kwargs):
    """Cast to ``dtype``, or to ``other``'s dtype (``Tensor.to``); "cpu" is accepted and ignored."""
    for x in args:
        if isinstance(x, str) and x in ("cpu",):
            continue
        dtype = x.dtype if isinstance(x, Tensor) else x  # x.to(other): other's dtype
    if dtype is None:
        return a
    d = _dtype.as_dtype(dtype)
    if d is a.dtype and not copy:
        return a
    if not d.is_floating_point and a._requires_grad:
        # PyTorch: integer results simply do not require grad
        return a._make(a._data.astype(d.np), False, None)
    return To.apply(a, dtype=d)
