"""Pooling: ``max_pool2d/3d`` and ``avg_pool2d/3d`` as ops whose gradients are ops again.

They work on the last d dims (d = len(kernel_size): 2 for (H, W), 3 for (D, H, W)), one
plane (or volume) at a time, through the same windows as the convolutions
(``ops.conv._windows``).

* :class:`MaxPool2d` picks, in each window, the FIRST largest element in row-major order
  (PyTorch's CPU rule; at ties it alone gets the gradient). Its gradient
  :class:`MaxPoolScatter` adds g back at those positions, and that scatter's gradient is
  :class:`MaxPoolGather`, which reads at them: two linear maps, each the other's adjoint.
* :class:`AvgPool2d` is window sum / divisor; its gradient :class:`AvgPoolGrad` spreads
  g / divisor back over each window (col2im with a kernel of ones), whose gradient is the
  average pool again.

The divisor, per output position, follows PyTorch: the window clipped to the padded input
(kernel area unless ``ceil_mode`` makes the last window hang over), or only the input
elements it covers when ``count_include_pad=False``, or ``divisor_override``.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ..recording.function import Op
from .conv import _windows, conv_input_grad


def out_size(n, k, s, p, dl, ceil_mode):
    """Output length of one dim; with ceil_mode the last window must start inside the input."""
    span = dl * (k - 1) + 1
    out = (n + 2 * p - span + ((s - 1) if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= n + p:
        out -= 1
    return out


def _geometry(shape, kernel_size, stride, padding, dilation, ceil_mode):
    """Output sizes and the (low, high) padding that makes every window fit."""
    outs, pads = [], []
    spatial = shape[len(shape) - len(kernel_size) :]
    for n, k, s, p, dl in zip(spatial, kernel_size, stride, padding, dilation):
        o = out_size(n, k, s, p, dl, ceil_mode)
        outs.append(o)
        pads.append((p, max((o - 1) * s + dl * (k - 1) + 1 - n - p, 0)))
    return tuple(outs), tuple(pads)


def _planes(a, d):
    """(..., *S) -> (P, 1, *S), S the last d dims: every plane as one single-channel image."""
    return a.reshape(-1, 1, *a.shape[a.ndim - d :])


# --- max pooling ------------------------------------------------------------------------------


def max_indices(x, kernel_size, stride, padding, dilation, ceil_mode):
    """Per output position the flat index (h * W + w, or (d * H + h) * W + w) of its
    window's first maximum."""
    d = len(kernel_size)
    spatial = x.shape[x.ndim - d :]
    outs, pads = _geometry(x.shape, kernel_size, stride, padding, dilation, ceil_mode)
    low = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    filled = np.pad(_planes(x, d), ((0, 0), (0, 0)) + pads, constant_values=low)
    where = np.arange(math.prod(spatial)).reshape(1, 1, *spatial)
    where = np.pad(where, ((0, 0), (0, 0)) + pads, constant_values=-1)
    no_pad = ((0, 0),) * d
    vals = _windows(filled, kernel_size, stride, no_pad, dilation)
    vals = vals.reshape(*vals.shape[: 2 + d], math.prod(kernel_size))
    first = np.argmax(vals, axis=-1)[..., None]
    spots = _windows(where, kernel_size, stride, no_pad, dilation).reshape(
        1, 1, *outs, vals.shape[-1]
    )
    idx = np.take_along_axis(np.broadcast_to(spots, vals.shape), first, -1)[..., 0]
    return idx.reshape(x.shape[: x.ndim - d] + outs)


def gather(x, indices, d=2):
    """out[..., i, j] = x[..., flat index indices[..., i, j]] (each plane, of the last d
    dims, on its own)."""
    flat = x.reshape(*x.shape[: x.ndim - d], math.prod(x.shape[x.ndim - d :]))
    picks = indices.reshape(*indices.shape[: indices.ndim - d], math.prod(indices.shape[-d:]))
    got = np.take_along_axis(flat, picks, -1)
    return got.reshape(indices.shape)


def scatter(g, indices, input_size):
    """The adjoint of :func:`gather`: g added at the flat indices of planes of ``input_size``."""
    d = len(input_size)
    hw = math.prod(input_size)
    lead = g.shape[: g.ndim - d]
    n = int(np.prod(lead, dtype=np.int64))
    m = math.prod(g.shape[g.ndim - d :])
    flat = indices.reshape(n, m) + (np.arange(n) * hw)[:, None]
    out = np.bincount(flat.ravel(), weights=g.reshape(n, m).ravel(), minlength=n * hw)
    return out.astype(g.dtype, copy=False).reshape(lead + tuple(input_size))


class MaxPool2d(Op):
    """Max pooling y = max over each window; grad = g at each window's first max, 0 elsewhere."""

    node_name = "MaxPool2DWithIndicesBackward0"
    save_inputs = True
    saved_names = ("self",)
    saved_values = {"indices": lambda ctx: ctx.indices}

    @staticmethod
    def forward(ctx, x, **params):
        ctx.params = params
        ctx.indices = max_indices(x, **params)
        return gather(x, ctx.indices, len(params["kernel_size"]))

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        d = len(ctx.params["kernel_size"])
        return MaxPoolScatter.apply(g, indices=ctx.indices, input_size=x.shape[x.ndim - d :])

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_y = t_x at each window's first max."""
        indices = max_indices(inputs[0]._data, **params)
        return MaxPoolGather.apply(tangents[0], indices=indices, d=len(params["kernel_size"]))


class MaxPoolScatter(Op):
    """max_pool2d's gradient: g added at the max positions; grad_g = gg read at them."""

    node_name = "MaxPool2DWithIndicesBackwardBackward0"

    @staticmethod
    def forward(ctx, g, indices, input_size):
        ctx.indices, ctx.d = indices, len(input_size)
        return scatter(g, indices, input_size)

    @staticmethod
    def backward(ctx, gg):
        return MaxPoolGather.apply(gg, indices=ctx.indices, d=ctx.d)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: linear, t_out = scatter(t_g)."""
        return MaxPoolScatter.apply(tangents[0], **params)


class MaxPoolGather(Op):
    """Reading x at the max positions (``gather``); grad_x = g scattered back to them."""

    node_name = "MaxPool2DWithIndicesBackward0"
    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, indices, d=2):
        ctx.indices, ctx.d = indices, d
        return gather(x, indices, d)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return MaxPoolScatter.apply(g, indices=ctx.indices, input_size=x.shape[x.ndim - ctx.d :])

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: linear, t_out = gather(t_x)."""
        return MaxPoolGather.apply(tangents[0], **params)


# --- average pooling --------------------------------------------------------------------------


def _divisor_1d(n, o, k, s, p, count_include_pad):
    start = np.arange(o) * s - p
    end = np.minimum(start + k, n + p)
    size = end - start
    if count_include_pad:
        return size
    return np.minimum(end, n) - np.maximum(start, 0)


def divisor(shape, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    """The (H_out, W_out) (or (D_out, H_out, W_out)) array each window sum is divided by
    (PyTorch's rule, see above)."""
    d = len(kernel_size)
    outs, _ = _geometry(shape, kernel_size, stride, padding, (1,) * d, ceil_mode)
    if divisor_override is not None:
        return np.full(outs, divisor_override)
    per_dim = (
        _divisor_1d(n, o, k, s, p, count_include_pad)
        for n, o, k, s, p in zip(shape[len(shape) - d :], outs, kernel_size, stride, padding)
    )
    return functools.reduce(np.multiply.outer, per_dim)


def _divide(total, div, dtype):
    if dtype.kind == "f":
        return (total / div).astype(dtype, copy=False)
    return np.trunc(total / div).astype(dtype)  # integer input: C's division, as PyTorch


class AvgPool2d(Op):
    """Average pooling y = (sum over each window) / divisor; grad = g / divisor spread over it."""

    node_name = "AvgPool2DBackward0"
    save_inputs = True
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, **params):
        ctx.params = params
        k, s, p, ceil = (params[n] for n in ("kernel_size", "stride", "padding", "ceil_mode"))
        d = len(k)
        outs, pads = _geometry(x.shape, k, s, p, (1,) * d, ceil)
        win = _windows(_planes(x, d), k, s, pads, (1,) * d)
        axes = tuple(range(-d, 0))
        total = win.sum(axes, dtype=np.float64 if x.dtype.kind != "f" else x.dtype)
        y = _divide(total, divisor(x.shape, **params), x.dtype)
        return y.reshape(x.shape[: x.ndim - d] + outs)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        d = len(ctx.params["kernel_size"])
        return AvgPoolGrad.apply(g, input_size=x.shape[x.ndim - d :], **ctx.params)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: linear, t_y = avg_pool(t_x)."""
        return AvgPool2d.apply(tangents[0], **params)


class AvgPoolGrad(Op):
    """avg_pool2d's gradient: g / divisor added over each window; grad_g = avg_pool(gg)."""

    node_name = "AvgPool2DBackwardBackward0"

    @staticmethod
    def forward(ctx, g, input_size, **params):
        ctx.params = params
        k, s, p, ceil = (params[n] for n in ("kernel_size", "stride", "padding", "ceil_mode"))
        d = len(k)
        _, pads = _geometry(input_size, k, s, p, (1,) * d, ceil)
        share = (g / divisor(input_size, **params)).astype(g.dtype, copy=False)
        ones = np.ones((1, 1, *k), dtype=g.dtype)
        spread = conv_input_grad(_planes(share, d), ones, input_size, s, pads, (1,) * d, 1)
        return np.ascontiguousarray(spread).reshape(g.shape[: g.ndim - d] + tuple(input_size))

    @staticmethod
    def backward(ctx, gg):
        return AvgPool2d.apply(gg, **ctx.params)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: linear, t_out = AvgPoolGrad(t_g)."""
        return AvgPoolGrad.apply(tangents[0], **params)


class MaxPool3d(MaxPool2d):
    """3-D max pooling: :class:`MaxPool2d` over the last three dims (PyTorch's node name)."""

    node_name = "MaxPool3DWithIndicesBackward0"


class AvgPool3d(AvgPool2d):
    """3-D average pooling: :class:`AvgPool2d` over the last three dims (PyTorch's node name)."""

    node_name = "AvgPool3DBackward0"
