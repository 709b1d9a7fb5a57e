"""Rearranging functions of ``nn.functional`` used by vision models: ``pixel_shuffle``,
``pixel_unshuffle``, ``channel_shuffle``, ``unfold`` (im2col), ``fold`` (col2im) and
``max_unpool2d``: argument checks (PyTorch's exception types and wording) around the ops of
``ops/vision.py``, each one PyTorch node.
"""

from __future__ import annotations

import operator

import numpy as np

from ..errors import vision as _errors
from ..ops._util import check_tensor
from ..ops.vision import (
    ChannelShuffle,
    Col2Im,
    Im2Col,
    MaxUnpool2d,
    PixelShuffle,
    PixelUnshuffle,
    fold_blocks,
)
from ..tensor import Tensor


def _factor(value, op: str, name: str) -> int:
    value = operator.index(value)
    if value <= 0:
        raise RuntimeError(_errors.SHUFFLE_FACTOR.format(op=op, name=name, got=value))
    return value


def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:  # noqa: A002  (PyTorch names)
    """(*, C*r*r, H, W) -> (*, C, H*r, W*r): each group of r*r channels becomes an r x r block
    of pixels (``F.pixel_shuffle``, the sub-pixel convolution's upsampling).

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.pixel_shuffle(mg.arange(4.0).reshape(1, 4, 1, 1), 2)
        tensor([[[[0., 1.],
                  [2., 3.]]]])
    """
    check_tensor(input, "pixel_shuffle")
    if input.ndim < 3:
        raise RuntimeError(_errors.SHUFFLE_DIMS.format(op="pixel_shuffle", got=input.ndim))
    r = _factor(upscale_factor, "pixel_shuffle", "upscale_factor")
    if input.shape[-3] % (r * r):
        raise RuntimeError(_errors.SHUFFLE_CHANNELS.format(c=input.shape[-3], rr=r * r))
    return PixelShuffle.apply(input, upscale_factor=r)


def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:  # noqa: A002
    """(*, C, H*r, W*r) -> (*, C*r*r, H, W), the inverse of :func:`pixel_shuffle`
    (``F.pixel_unshuffle``)."""
    check_tensor(input, "pixel_unshuffle")
    if input.ndim < 3:
        raise RuntimeError(_errors.SHUFFLE_DIMS.format(op="pixel_unshuffle", got=input.ndim))
    r = _factor(downscale_factor, "pixel_unshuffle", "downscale_factor")
    for what, dim in (("height", -2), ("width", -1)):
        if input.shape[dim] % r:
            msg = _errors.UNSHUFFLE_SIZE.format(what=what, dim=dim, n=input.shape[dim], r=r)
            raise RuntimeError(msg)
    return PixelUnshuffle.apply(input, downscale_factor=r)


def channel_shuffle(input: Tensor, groups: int) -> Tensor:  # noqa: A002
    """Interleave the channels of ``groups`` groups (ShuffleNet's ``F.channel_shuffle``):
    with C = groups * k, channel i * k + j moves to j * groups + i.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.channel_shuffle(mg.arange(6.0).reshape(1, 6, 1), 2).flatten()
        tensor([0., 3., 1., 4., 2., 5.])
    """
    check_tensor(input, "channel_shuffle")
    if input.ndim <= 2:
        raise RuntimeError(_errors.CHANNEL_SHUFFLE_DIMS.format(got=list(input.shape)))
    groups = operator.index(groups)
    if groups <= 0:
        raise RuntimeError(_errors.CHANNEL_SHUFFLE_GROUPS.format(got=groups))
    if input.shape[1] % groups:
        raise RuntimeError(_errors.CHANNEL_SHUFFLE_DIVIDE.format(c=input.shape[1], g=groups))
    return ChannelShuffle.apply(input, groups=groups)


def _pair(value, op: str, name: str) -> tuple:
    try:
        if isinstance(value, (tuple, list)):
            out = tuple(operator.index(v) for v in value)
        else:
            out = (operator.index(value),) * 2
    except TypeError:
        raise TypeError(_errors.WINDOW_PAIR.format(op=op, name=name, got=value)) from None
    if len(out) != 2:
        raise TypeError(_errors.WINDOW_PAIR.format(op=op, name=name, got=value))
    return out


def _window(op, kernel_size, dilation, padding, stride) -> dict:
    """The checked window arguments as pairs (PyTorch's messages for the bad ones)."""
    k, d = _pair(kernel_size, op, "kernel_size"), _pair(dilation, op, "dilation")
    p, s = _pair(padding, op, "padding"), _pair(stride, op, "stride")
    for label, name, pair, low in (
        ("kernel size", "kernel", k, 1),
        ("stride", "stride", s, 1),
        ("dilation", "dilation", d, 1),
        ("padding", "pad", p, 0),
    ):
        if min(pair) < low:
            what = "greater than zero" if low else "non-negative"
            msg = _errors.WINDOW_ARG.format(label=label, name=name, what=what, a=pair[0], b=pair[1])
            raise RuntimeError(msg)
    return {"kernel_size": k, "dilation": d, "padding": p, "stride": s}


def unfold(input: Tensor, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:  # noqa: A002
    """Every sliding window of a (N, C, H, W) or (C, H, W) input as one column (``F.unfold``,
    im2col): (N, C * kh * kw, L), L the number of windows, rows ordered (channel, kernel row,
    kernel column). ``conv2d(x, w)`` is ``w.view(O, -1) @ unfold(x, k)`` reshaped.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.unfold(mg.arange(9.0).reshape(1, 1, 3, 3), 2)
        tensor([[[0., 1., 3., 4.],
                 [1., 2., 4., 5.],
                 [3., 4., 6., 7.],
                 [4., 5., 7., 8.]]])
    """
    check_tensor(input, "unfold")
    if input.ndim not in (3, 4) or 0 in input.shape[1:]:
        raise RuntimeError(_errors.UNFOLD_DIMS.format(got=list(input.shape)))
    params = _window("unfold", kernel_size, dilation, padding, stride)
    blocks = fold_blocks(input.shape[-2:], **params)
    if min(blocks) < 1:
        msg = _errors.UNFOLD_BLOCKS.format(
            size=tuple(input.shape[-2:]),
            k=params["kernel_size"],
            d=params["dilation"],
            p=params["padding"],
            blocks=blocks,
        )
        raise RuntimeError(msg)
    return Im2Col.apply(input, **params)


def fold(input: Tensor, output_size, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:  # noqa: A002
    """Columns (N, C * kh * kw, L) added back into an image (N, C, *output_size) (``F.fold``,
    col2im): the adjoint of :func:`unfold`, where windows overlap their values add up.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.fold(mg.ones(1, 4, 4), (3, 3), 2)
        tensor([[[[1., 2., 1.],
                  [2., 4., 2.],
                  [1., 2., 1.]]]])
    """
    check_tensor(input, "fold")
    if input.ndim not in (2, 3) or 0 in input.shape[1:]:
        raise RuntimeError(_errors.FOLD_DIMS.format(got=list(input.shape)))
    size = _pair(output_size, "fold", "output_size")
    params = _window("fold", kernel_size, dilation, padding, stride)
    kk = params["kernel_size"][0] * params["kernel_size"][1]
    if input.shape[-2] % kk:
        msg = _errors.FOLD_CHANNELS.format(got=input.shape[-2], k=params["kernel_size"])
        raise RuntimeError(msg)
    bh, bw = fold_blocks(size, **params)
    if input.shape[-1] != bh * bw or min(bh, bw) < 1:
        msg = _errors.FOLD_BLOCKS.format(
            size=size,
            k=params["kernel_size"],
            d=params["dilation"],
            p=params["padding"],
            s=params["stride"],
            bh=bh,
            bw=bw,
            want=bh * bw,
            got=input.shape[-1],
        )
        raise RuntimeError(msg)
    return Col2Im.apply(input, output_size=size, **params)


# PyTorch's C++ names of the dtypes, as its kernels' messages print them
_SCALAR_TYPES = {
    "float32": "Float",
    "float64": "Double",
    "float16": "Half",
    "bfloat16": "BFloat16",
    "int32": "Int",
    "int16": "Short",
    "int8": "Char",
    "uint8": "Byte",
    "bool": "Bool",
}


def max_unpool2d(
    input: Tensor,  # noqa: A002
    indices: Tensor,
    kernel_size,
    stride=None,
    padding=0,
    output_size=None,
) -> Tensor:
    """The partial inverse of ``max_pool2d``: each value written at the flat position
    ``indices`` holds (from ``max_pool2d(..., return_indices=True)``), zeros elsewhere
    (``F.max_unpool2d``). The output is (H - 1) * stride - 2 * padding + kernel_size high
    (and wide), or ``output_size`` (within a stride of that).

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> y, i = F.max_pool2d(mg.tensor([[[1.0, 4.0], [3.0, 2.0]]]), 2, return_indices=True)
        >>> F.max_unpool2d(y, i, 2)
        tensor([[[0., 4.],
                 [0., 0.]]])
    """
    check_tensor(input, "max_unpool2d")
    check_tensor(indices, "max_unpool2d", "indices", 2)
    if input.ndim not in (3, 4):
        raise RuntimeError(_errors.UNPOOL_DIMS.format(got=input.ndim))
    if indices.dtype.name != "int64":
        got = _SCALAR_TYPES.get(indices.dtype.name, indices.dtype.name)
        raise RuntimeError(_errors.UNPOOL_DTYPE.format(got=got))
    if indices.shape != input.shape:
        raise RuntimeError(
            _errors.UNPOOL_SHAPE.format(want=list(input.shape), got=list(indices.shape))
        )
    k = _pair(kernel_size, "max_unpool2d", "kernel_size")
    s = k if stride is None else _pair(stride, "max_unpool2d", "stride")
    p = _pair(padding, "max_unpool2d", "padding")
    default = tuple((n - 1) * si - 2 * pi + ki for n, si, pi, ki in zip(input.shape[-2:], s, p, k))
    size = _unpool_size(output_size, default, s, input.ndim)
    idx = indices._data
    if idx.size and (idx.min() < 0 or idx.max() >= size[0] * size[1]):
        bad = int(idx.max() if idx.max() >= size[0] * size[1] else idx.min())
        raise RuntimeError(_errors.UNPOOL_INDEX.format(got=bad, h=size[0], w=size[1]))
    return MaxUnpool2d.apply(input, indices=np.ascontiguousarray(idx), output_size=size)


def _unpool_size(output_size, default, stride, ndim) -> tuple:
    """``output_size`` (its last two entries), each within stride of the default size."""
    if output_size is None:
        return default
    sizes = tuple(operator.index(n) for n in output_size)[-2:]
    for dim, (n, d, s) in enumerate(zip(sizes, default, stride)):
        if not d - s < n < d + s:
            got = tuple(output_size)
            raise ValueError(_errors.UNPOOL_SIZE.format(got=got, dim=dim, low=d - s, high=d + s))
    return sizes
