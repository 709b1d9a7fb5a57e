"""Dense convolution (``conv1d``, ``conv2d``) as three bilinear ops that differentiate each other.

The forward is im2col without copying: ``sliding_window_view`` gives every kernel-sized
window of the zero-padded input as a view, strides and dilation are slices of that view,
and one ``einsum`` contracts the windows with the weight (per group). The two gradients
are bilinear too, and each is the other two's adjoint:

* :class:`Convolution` ``y = conv(x, w) + b``: grad_x = ConvInputGrad(g, w),
  grad_w = ConvWeightGrad(x, g), grad_b = g summed over batch and space.
* :class:`ConvInputGrad` ``gx = conv_transpose(g, w)`` (col2im: each window's share is
  added back where it came from); its own gradients are ``conv(gg, w)`` and
  ``ConvWeightGrad(gg, g)``.
* :class:`ConvWeightGrad` ``gw = correlate(x, g)``; gradients ``ConvInputGrad(g, gg)`` and
  ``conv(x, gg)``.

So gradients of any order are convolutions again. The spatial dims are generic (one for
conv1d, two for conv2d); ``padding`` is a (low, high) pair per dim, since PyTorch's
``padding='same'`` with an even kernel pads one more at the high end.
PyTorch's node for all of it is ``ConvolutionBackward0`` (``ConvolutionBackwardBackward0``
for the gradients).
"""

from __future__ import annotations

import itertools

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from .. import _dtype
from ..errors import conv as errors
from ..recording.function import Op

_P, _K = "pqr", "ijk"  # einsum letters: output positions, kernel offsets (per spatial dim)


def _windows(x, ksize, stride, padding, dilation):
    """(N, C, *S) -> (N, C, *out, *ksize): every receptive field of the padded input, a view."""
    d = len(ksize)
    if any(lo or hi for lo, hi in padding):
        x = np.pad(x, ((0, 0), (0, 0)) + tuple(padding))
    span = tuple(dl * (k - 1) + 1 for k, dl in zip(ksize, dilation))
    v = sliding_window_view(x, span, axis=tuple(range(2, 2 + d)))
    pick = tuple(slice(None, None, s) for s in stride) + tuple(
        slice(None, None, dl) for dl in dilation
    )
    return v[(slice(None), slice(None)) + pick]


def _grouped(a, groups):
    """(N, C, ...) -> (N, groups, C // groups, ...)."""
    return a.reshape(a.shape[0], groups, a.shape[1] // groups, *a.shape[2:])


def _subscripts(d):
    return _P[:d], _K[:d]


def conv_forward(x, w, stride, padding, dilation, groups):
    """y[n, o, p] = sum_{c, k} x_pad[n, c, p*stride + k*dilation] w[o, c, k], per group."""
    d = w.ndim - 2
    p, k = _subscripts(d)
    cols = _grouped(_windows(x, w.shape[2:], stride, padding, dilation), groups)
    wg = w.reshape(groups, w.shape[0] // groups, *w.shape[1:])
    y = np.einsum(f"ngc{p}{k},goc{k}->ngo{p}", cols, wg, optimize=True)
    return np.ascontiguousarray(y.reshape(y.shape[0], w.shape[0], *y.shape[3:]))


def conv_input_grad(g, w, input_size, stride, padding, dilation, groups):
    """col2im: the transposed convolution of ``g`` with ``w``, cropped to ``input_size``."""
    d = w.ndim - 2
    p, k = _subscripts(d)
    wg = w.reshape(groups, w.shape[0] // groups, *w.shape[1:])
    cols = np.einsum(f"ngo{p},goc{k}->ngc{p}{k}", _grouped(g, groups), wg, optimize=True)
    cols = cols.reshape(g.shape[0], groups * w.shape[1], *cols.shape[3:])
    return col2im(cols, input_size, stride, padding, dilation)


def col2im(cols, input_size, stride, padding, dilation):
    """(N, C, *out, *ksize) -> (N, C, *input_size): each window's values added back where
    :func:`_windows` read them (the adjoint of im2col), the padding cropped away."""
    d = len(input_size)
    ksize, outs = cols.shape[2 + d :], cols.shape[2 : 2 + d]
    padded = tuple(n + lo + hi for n, (lo, hi) in zip(input_size, padding))
    out = np.zeros(cols.shape[:2] + padded, dtype=cols.dtype)
    for offs in itertools.product(*(range(n) for n in ksize)):
        dst = tuple(
            slice(o * dl, o * dl + s * (m - 1) + 1, s)
            for o, dl, s, m in zip(offs, dilation, stride, outs)
        )
        out[(slice(None), slice(None)) + dst] += cols[(Ellipsis,) + offs]
    crop = tuple(slice(lo, lo + n) for n, (lo, _) in zip(input_size, padding))
    return out[(slice(None), slice(None)) + crop]


def conv_weight_grad(x, g, kernel_size, stride, padding, dilation, groups):
    """gw[o, c, k] = sum_{n, p} x_pad[n, c, p*stride + k*dilation] g[n, o, p], per group."""
    d = len(kernel_size)
    p, k = _subscripts(d)
    cols = _grouped(_windows(x, kernel_size, stride, padding, dilation), groups)
    gw = np.einsum(f"ngc{p}{k},ngo{p}->goc{k}", cols, _grouped(g, groups), optimize=True)
    return np.ascontiguousarray(gw.reshape(gw.shape[0] * gw.shape[1], *gw.shape[2:]))


def _same_dtype(x, w, b):
    for what, t in (("weight", w), ("bias", b)):
        if t is not None and t.dtype != x.dtype:
            a, b = _dtype._FROM_NP[x.dtype], _dtype._FROM_NP[t.dtype]
            raise RuntimeError(
                errors.DTYPE.format(a=a, b=b, what=what, sa=tuple(x.shape), sb=tuple(t.shape))
            )


def _plus(a, b):
    return b if a is None else a if b is None else a + b


class Convolution(Op):
    """Convolution y = conv(x, w) + b; grad_x = conv_transpose(g, w), grad_w = correlate(x, g),
    grad_b = sum of g over batch and space.

    Inputs are batched, (N, C, *S) with weight (O, C // groups, *K) and an optional bias
    (O,); ``conv1d``/``conv2d`` in ``nn.functional`` check them and handle unbatched input.
    """

    save_inputs = True
    saved_names = ("input", "weight")
    saved_values = {
        "stride": lambda ctx: list(ctx.params["stride"]),
        "dilation": lambda ctx: list(ctx.params["dilation"]),
        "groups": lambda ctx: ctx.params["groups"],
    }

    @staticmethod
    def forward(ctx, x, w, b=None, **params):
        _same_dtype(x, w, b)  # here, after autocast has cast the inputs (as MatMul)
        ctx.params = params
        y = conv_forward(x, w, **params)
        if b is not None:
            y += b.reshape((-1,) + (1,) * (w.ndim - 2))
        return y

    @staticmethod
    def backward(ctx, g):
        x, w, *b = ctx.saved_tensors
        p = ctx.params
        gx = ConvInputGrad.apply(g, w, input_size=x.shape[2:], **p)
        gw = ConvWeightGrad.apply(x, g, kernel_size=w.shape[2:], **p)
        if not b:
            return gx, gw
        return gx, gw, g.sum((0,) + tuple(range(2, g.ndim)))

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_y = conv(t_x, w) + conv(x, t_w) + t_b."""
        x, w, *_ = inputs
        tx, tw, *tb = tangents
        dx = None if tx is None else Convolution.apply(tx, w, **params)
        dw = None if tw is None else Convolution.apply(x, tw, **params)
        db = tb[0].reshape((-1,) + (1,) * (w.ndim - 2)) if tb and tb[0] is not None else None
        return _plus(_plus(dx, dw), db)


class ConvInputGrad(Op):
    """The input gradient gx = conv_transpose(g, w); grad_g = conv(gg, w), grad_w = correlate(gg, g)."""

    node_name = "ConvolutionBackwardBackward0"
    save_inputs = True
    saved_names = ("grad_output", "weight")

    @staticmethod
    def forward(ctx, g, w, **params):
        ctx.params = params
        return conv_input_grad(g, w, **params)

    @staticmethod
    def backward(ctx, gg):
        g, w = ctx.saved_tensors
        p = dict(ctx.params)
        del p["input_size"]
        return Convolution.apply(gg, w, **p), ConvWeightGrad.apply(
            gg, g, kernel_size=w.shape[2:], **p
        )

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_gx = conv_transpose(t_g, w) + conv_transpose(g, t_w)."""
        (g, w), (tg, tw) = inputs, tangents
        dg = None if tg is None else ConvInputGrad.apply(tg, w, **params)
        dw = None if tw is None else ConvInputGrad.apply(g, tw, **params)
        return _plus(dg, dw)


class ConvWeightGrad(Op):
    """The weight gradient gw = correlate(x, g); grad_x = conv_transpose(g, gg), grad_g = conv(x, gg)."""

    node_name = "ConvolutionBackwardBackward0"
    save_inputs = True
    saved_names = ("input", "grad_output")

    @staticmethod
    def forward(ctx, x, g, **params):
        ctx.params = params
        return conv_weight_grad(x, g, **params)

    @staticmethod
    def backward(ctx, gg):
        x, g = ctx.saved_tensors
        p = dict(ctx.params)
        del p["kernel_size"]
        return ConvInputGrad.apply(g, gg, input_size=x.shape[2:], **p), Convolution.apply(
            x, gg, **p
        )

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_gw = correlate(t_x, g) + correlate(x, t_g)."""
        (x, g), (tx, tg) = inputs, tangents
        dx = None if tx is None else ConvWeightGrad.apply(tx, g, **params)
        dg = None if tg is None else ConvWeightGrad.apply(x, tg, **params)
        return _plus(dx, dg)


class ConvTranspose(Op):
    """Transposed convolution y = conv_transpose(x, w) + b (``conv_transpose1d/2d``): the
    input gradient of a convolution (col2im) used as a layer, so its gradients are the
    same three ops: grad_x = conv(g, w), grad_w = correlate(g, x), grad_b = sum of g.

    ``w`` is (C_in, C_out // groups, *K); ``input_size`` is the output's spatial size,
    ``padding`` the (low, high) pairs cut from the full result. PyTorch's node is
    ``ConvolutionBackward0``, as for a convolution.
    """

    node_name = "ConvolutionBackward0"
    save_inputs = True
    saved_names = ("input", "weight")

    @staticmethod
    def forward(ctx, x, w, b=None, **params):
        _same_dtype(x, w, b)
        ctx.params = params
        y = conv_input_grad(x, w, **params)
        if b is not None:
            y += b.reshape((-1,) + (1,) * (w.ndim - 2))
        return np.ascontiguousarray(y)

    @staticmethod
    def backward(ctx, g):
        x, w, *b = ctx.saved_tensors
        p = dict(ctx.params)
        del p["input_size"]
        gx = Convolution.apply(g, w, **p)
        gw = ConvWeightGrad.apply(g, x, kernel_size=w.shape[2:], **p)
        if not b:
            return gx, gw
        return gx, gw, g.sum((0,) + tuple(range(2, g.ndim)))

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_y = conv_transpose(t_x, w) + conv_transpose(x, t_w) + t_b."""
        x, w, *_ = inputs
        tx, tw, *tb = tangents
        dx = None if tx is None else ConvTranspose.apply(tx, w, **params)
        dw = None if tw is None else ConvTranspose.apply(x, tw, **params)
        db = tb[0].reshape((-1,) + (1,) * (w.ndim - 2)) if tb and tb[0] is not None else None
        return _plus(_plus(dx, dw), db)
