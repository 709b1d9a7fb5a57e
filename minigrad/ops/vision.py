"""Rearranging ops of the vision layers, each the adjoint of another, so gradients of any
order are the same ops again:

* :class:`PixelShuffle` (C*r*r, H, W) -> (C, H*r, W*r) and :class:`PixelUnshuffle` its inverse;
  a permutation's gradient is the inverse permutation.
* :class:`ChannelShuffle`: the channels of g groups interleaved; its gradient is the
  shuffle with C/g groups.
* :class:`Im2Col` (``F.unfold``): every kernel-sized window of the padded (N, C, H, W) or
  (C, H, W) input as one column, through the convolutions' windows (``ops.conv._windows``); :class:`Col2Im`
  (``F.fold``) adds the columns back where they were read (``ops.conv.col2im``). Each is
  the other's gradient.
* :class:`MaxUnpool2d`: values written into zeros at the indices max pooling returned; its
  gradient reads them back (``MaxPoolGather``).

PyTorch's nodes have the same names: ``PixelShuffleBackward0``, ``Im2ColBackward0``, ...
"""

from __future__ import annotations

import numpy as np

from ..recording.function import Op
from .conv import _windows, col2im
from .pool import MaxPoolGather


def pixel_shuffle(x, r):
    """(*, C*r*r, H, W) -> (*, C, H*r, W*r): out[c, h*r + i, w*r + j] = x[c*r*r + i*r + j, h, w]."""
    *lead, c, h, w = x.shape
    y = x.reshape(*lead, c // (r * r), r, r, h, w)
    n = len(lead)
    y = y.transpose(*range(n), n, n + 3, n + 1, n + 4, n + 2)
    return np.ascontiguousarray(y).reshape(*lead, c // (r * r), h * r, w * r)


def pixel_unshuffle(x, r):
    """The inverse of :func:`pixel_shuffle`: (*, C, H*r, W*r) -> (*, C*r*r, H, W)."""
    *lead, c, h, w = x.shape
    y = x.reshape(*lead, c, h // r, r, w // r, r)
    n = len(lead)
    y = y.transpose(*range(n), n, n + 2, n + 4, n + 1, n + 3)
    return np.ascontiguousarray(y).reshape(*lead, c * r * r, h // r, w // r)


class PixelShuffle(Op):
    """Sub-pixel rearrangement y = pixel_shuffle(x, r); grad = pixel_unshuffle(g, r)."""

    @staticmethod
    def forward(ctx, x, upscale_factor):
        ctx.r = upscale_factor
        return pixel_shuffle(x, upscale_factor)

    @staticmethod
    def backward(ctx, g):
        return PixelUnshuffle.apply(g, downscale_factor=ctx.r)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: linear, t_y = pixel_shuffle(t_x)."""
        return PixelShuffle.apply(tangents[0], **params)


class PixelUnshuffle(Op):
    """The inverse rearrangement y = pixel_unshuffle(x, r); grad = pixel_shuffle(g, r)."""

    @staticmethod
    def forward(ctx, x, downscale_factor):
        ctx.r = downscale_factor
        return pixel_unshuffle(x, downscale_factor)

    @staticmethod
    def backward(ctx, g):
        return PixelShuffle.apply(g, upscale_factor=ctx.r)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: linear, t_y = pixel_unshuffle(t_x)."""
        return PixelUnshuffle.apply(tangents[0], **params)


def channel_shuffle(x, groups):
    """(N, C, *) with C = g*k: channel i*k + j goes to j*g + i (a (g, k) transpose)."""
    n, c = x.shape[:2]
    y = x.reshape(n, groups, c // groups, *x.shape[2:]).swapaxes(1, 2)
    return np.ascontiguousarray(y).reshape(x.shape)


class ChannelShuffle(Op):
    """y = channel_shuffle(x, g); grad = channel_shuffle(g, C // g) (the inverse transpose)."""

    @staticmethod
    def forward(ctx, x, groups):
        ctx.groups = groups
        return channel_shuffle(x, groups)

    @staticmethod
    def backward(ctx, g):
        return ChannelShuffle.apply(g, groups=g.shape[1] // ctx.groups)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: linear, t_y = channel_shuffle(t_x)."""
        return ChannelShuffle.apply(tangents[0], **params)


def im2col(x, kernel_size, dilation, padding, stride):
    """(N, C, H, W) -> (N, C*kh*kw, L): row c*kh*kw + i*kw + j holds x_pad[c, p*s + (i, j)*dl]."""
    pads = tuple((p, p) for p in padding)
    win = _windows(x, kernel_size, stride, pads, dilation)  # (N, C, oh, ow, kh, kw)
    n, c, oh, ow, kh, kw = win.shape
    cols = win.transpose(0, 1, 4, 5, 2, 3)
    return np.ascontiguousarray(cols).reshape(n, c * kh * kw, oh * ow)


def fold_blocks(output_size, kernel_size, dilation, padding, stride):
    """The number of windows along each spatial dim of ``output_size``."""
    return tuple(
        (n + 2 * p - dl * (k - 1) - 1) // s + 1
        for n, k, dl, p, s in zip(output_size, kernel_size, dilation, padding, stride)
    )


def col2im_of(cols, output_size, kernel_size, dilation, padding, stride):
    """The adjoint of :func:`im2col`: (N, C*kh*kw, L) -> (N, C, *output_size), overlaps summed."""
    kh, kw = kernel_size
    oh, ow = fold_blocks(output_size, kernel_size, dilation, padding, stride)
    n, ckk, _ = cols.shape
    blocks = cols.reshape(n, ckk // (kh * kw), kh, kw, oh, ow).transpose(0, 1, 4, 5, 2, 3)
    pads = tuple((p, p) for p in padding)
    return np.ascontiguousarray(col2im(blocks, tuple(output_size), stride, pads, dilation))


class Im2Col(Op):
    """Sliding windows as columns y = im2col(x) (``F.unfold``); grad = col2im(g) (``F.fold``)."""

    @staticmethod
    def forward(ctx, x, **params):
        ctx.params, ctx.size = params, x.shape[-2:]
        if x.ndim == 3:  # unbatched (C, H, W), as PyTorch's op takes it
            return im2col(x[None], **params)[0]
        return im2col(x, **params)

    @staticmethod
    def backward(ctx, g):
        return Col2Im.apply(g, output_size=ctx.size, **ctx.params)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: linear, t_y = im2col(t_x)."""
        return Im2Col.apply(tangents[0], **params)


class Col2Im(Op):
    """Columns added back into an image y = col2im(x) (``F.fold``); grad = im2col(g)."""

    @staticmethod
    def forward(ctx, x, output_size, **params):
        ctx.params = params
        if x.ndim == 2:  # unbatched (C * kh * kw, L)
            return col2im_of(x[None], output_size, **params)[0]
        return col2im_of(x, output_size, **params)

    @staticmethod
    def backward(ctx, g):
        return Im2Col.apply(g, **ctx.params)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: linear, t_y = col2im(t_x)."""
        return Col2Im.apply(tangents[0], **params)


def unpool(x, indices, output_size):
    """Planes of ``output_size``, zero but for x[..., i, j] written at flat index
    indices[..., i, j] (a repeated index holds one of its values, all equal after max pooling)."""
    lead, hw = x.shape[:-2], output_size[0] * output_size[1]
    out = np.zeros((int(np.prod(lead, dtype=np.int64)), hw), dtype=x.dtype)
    m = x.shape[-2] * x.shape[-1]
    np.put_along_axis(out, indices.reshape(-1, m), x.reshape(-1, m), axis=1)
    return out.reshape(lead + tuple(output_size))


class MaxUnpool2d(Op):
    """y = zeros with y[indices] = x (``F.max_unpool2d``); grad = g read at the indices."""

    node_name = "MaxUnpool2DBackward0"

    @staticmethod
    def forward(ctx, x, indices, output_size):
        ctx.indices = indices
        return unpool(x, indices, output_size)

    @staticmethod
    def backward(ctx, g):
        return MaxPoolGather.apply(g, indices=ctx.indices)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: linear, t_y = unpool(t_x)."""
        return MaxUnpool2d.apply(tangents[0], **params)
