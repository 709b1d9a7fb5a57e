"""``conv1d``, ``conv2d``, ``conv3d`` and ``conv_transpose1d/2d`` of ``nn.functional``: argument checks
around ``ops.conv.Convolution`` and ``ConvTranspose``.

The checks follow PyTorch's (same exception types, its wording plus the shapes); the op
itself only sees batched input, so unbatched (C, *S) input gets a batch dim of 1 that is
squeezed away again (PyTorch does the same: its result's node is a ``SqueezeBackward0``).
"""

from __future__ import annotations

import operator

from ..errors import conv as _errors
from ..ops._util import check_tensor
from ..ops.conv import Convolution, ConvTranspose
from ..tensor import Tensor


def _tuple(value, d: int, name: str, op: str) -> tuple:
    """An int or a sequence of ``d`` ints as a tuple of ``d`` Python ints."""
    try:
        if isinstance(value, (tuple, list)):
            out = tuple(operator.index(v) for v in value)
        else:
            out = (operator.index(value),) * d
    except TypeError:
        raise TypeError(_errors.ARG_TYPE.format(op=op, name=name, got=value)) from None
    if len(out) != d:
        raise RuntimeError(_errors.ARG_LENGTH.format(name=name, d=d, got=list(out)))
    return out


def _padding(padding, d, ksize, stride, dilation, op) -> tuple:
    """Per spatial dim a (low, high) pair; 'same' puts the odd one at the high end, as PyTorch."""
    if isinstance(padding, str):
        if padding == "valid":
            return ((0, 0),) * d
        if padding != "same":
            raise RuntimeError(_errors.PADDING_STRING.format(got=padding))
        if any(s != 1 for s in stride):
            raise RuntimeError(_errors.SAME_STRIDED.format(got=list(stride)))
        total = [dl * (k - 1) for k, dl in zip(ksize, dilation)]
        return tuple((t // 2, t - t // 2) for t in total)
    pad = _tuple(padding, d, "padding", op)
    if any(p < 0 for p in pad):
        raise RuntimeError(_errors.PADDING_NEGATIVE.format(got=list(pad)))
    return tuple((p, p) for p in pad)


def _check_shapes(x, w, b, groups, op):
    d = w.ndim - 2
    if groups <= 0:
        raise RuntimeError(_errors.GROUPS_POSITIVE.format(groups=groups))
    if w.shape[0] % groups:
        raise RuntimeError(_errors.GROUPS_OUT.format(groups=groups, weight=list(w.shape)))
    if x.shape[1] != w.shape[1] * groups:
        raise RuntimeError(
            _errors.CHANNELS.format(
                groups=groups,
                weight=list(w.shape),
                input=list(x.shape),
                want=w.shape[1] * groups,
                got=x.shape[1],
            )
        )
    if b is not None and b.shape != (w.shape[0],):
        raise RuntimeError(
            _errors.BIAS_SHAPE.format(weight=list(w.shape), want=w.shape[0], got=list(b.shape))
        )
    return d


def _conv(op, d, input, weight, bias, stride, padding, dilation, groups):  # noqa: A002
    check_tensor(input, op)
    check_tensor(weight, op, "weight", 2)
    if bias is not None:
        check_tensor(bias, op, "bias", 3)
    if input.ndim not in (d + 1, d + 2):
        raise RuntimeError(
            _errors.INPUT_NDIM.format(a=d + 1, b=d + 2, op=op, shape=list(input.shape))
        )
    if weight.ndim != d + 2:
        raise RuntimeError(_errors.WEIGHT_NDIM.format(op=op, want=d + 2, shape=list(weight.shape)))
    groups = operator.index(groups)
    unbatched = input.ndim == d + 1
    x = input.unsqueeze(0) if unbatched else input
    _check_shapes(x, weight, bias, groups, op)
    stride = _tuple(stride, d, "stride", op)
    dilation = _tuple(dilation, d, "dilation", op)
    if any(s <= 0 for s in stride):
        raise RuntimeError(_errors.STRIDE_POSITIVE.format(got=list(stride)))
    if any(dl <= 0 for dl in dilation):
        raise RuntimeError(_errors.DILATION_POSITIVE.format(got=list(dilation)))
    ksize = weight.shape[2:]
    pad = _padding(padding, d, ksize, stride, dilation, op)
    padded = [n + lo + hi for n, (lo, hi) in zip(x.shape[2:], pad)]
    span = [dl * (k - 1) + 1 for k, dl in zip(ksize, dilation)]
    if any(s > n for s, n in zip(span, padded)):
        raise RuntimeError(
            _errors.KERNEL_TOO_LARGE.format(
                padded=" x ".join(map(str, padded)), kernel=" x ".join(map(str, span))
            )
        )
    inputs = (x, weight) if bias is None else (x, weight, bias)
    y = Convolution.apply(*inputs, stride=stride, padding=pad, dilation=dilation, groups=groups)
    return y.squeeze(0) if unbatched else y


def conv2d(
    input: Tensor,  # noqa: A002  (PyTorch names)
    weight: Tensor,
    bias: Tensor | None = None,
    stride=1,
    padding=0,
    dilation=1,
    groups: int = 1,
) -> Tensor:
    """2-D convolution (cross-correlation, as PyTorch) of (N, C, H, W) or (C, H, W) input.

    Args:
        input: (N, C_in, H, W) or unbatched (C_in, H, W).
        weight: (C_out, C_in // groups, kH, kW).
        bias: optional (C_out,).
        stride, dilation: an int or a pair (height, width), all positive.
        padding: an int or a pair of zero padding on both sides, or ``'valid'`` (none) or
            ``'same'`` (output as large as the input; stride 1 only).
        groups: split the channels into this many groups convolved separately.

    Returns:
        (N, C_out, H_out, W_out), H_out = (H + 2 pad - dilation (kH - 1) - 1) // stride + 1.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> x = mg.arange(16.0).reshape(1, 1, 4, 4)
        >>> F.conv2d(x, mg.ones(1, 1, 2, 2), stride=2)
        tensor([[[[10., 18.],
                  [42., 50.]]]])
    """
    return _conv("conv2d", 2, input, weight, bias, stride, padding, dilation, groups)


def conv1d(
    input: Tensor,  # noqa: A002  (PyTorch names)
    weight: Tensor,
    bias: Tensor | None = None,
    stride=1,
    padding=0,
    dilation=1,
    groups: int = 1,
) -> Tensor:
    """1-D convolution of (N, C, L) or (C, L) input; weight (C_out, C_in // groups, k).

    The arguments are :func:`conv2d`'s with one spatial dim (ints or 1-tuples).

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.conv1d(mg.tensor([[1.0, 2.0, 3.0]]), mg.tensor([[[1.0, -1.0]]]))
        tensor([[-1., -1.]])
    """
    return _conv("conv1d", 1, input, weight, bias, stride, padding, dilation, groups)


def conv3d(
    input: Tensor,  # noqa: A002  (PyTorch names)
    weight: Tensor,
    bias: Tensor | None = None,
    stride=1,
    padding=0,
    dilation=1,
    groups: int = 1,
) -> Tensor:
    """3-D convolution of (N, C, D, H, W) or (C, D, H, W) input (video, volumes); weight
    (C_out, C_in // groups, kD, kH, kW). The arguments are :func:`conv2d`'s with three
    spatial dims; the op is the same (its einsum has a third window letter)."""
    return _conv("conv3d", 3, input, weight, bias, stride, padding, dilation, groups)


def _conv_transpose(op, d, input, weight, bias, stride, padding, output_padding, groups, dilation):  # noqa: A002
    check_tensor(input, op)
    check_tensor(weight, op, "weight", 2)
    if bias is not None:
        check_tensor(bias, op, "bias", 3)
    if input.ndim not in (d + 1, d + 2):
        raise RuntimeError(
            _errors.INPUT_NDIM.format(a=d + 1, b=d + 2, op=op, shape=list(input.shape))
        )
    if weight.ndim != d + 2:
        raise RuntimeError(_errors.WEIGHT_NDIM.format(op=op, want=d + 2, shape=list(weight.shape)))
    if isinstance(padding, str):
        raise TypeError(_errors.TRANSPOSED_PADDING_STRING.format(op=op, got=padding))
    groups = operator.index(groups)
    if groups <= 0:
        raise RuntimeError(_errors.GROUPS_POSITIVE.format(groups=groups))
    unbatched = input.ndim == d + 1
    x = input.unsqueeze(0) if unbatched else input
    if x.shape[1] != weight.shape[0] or weight.shape[0] % groups:
        raise RuntimeError(
            _errors.TRANSPOSED_CHANNELS.format(
                weight=list(weight.shape),
                input=list(x.shape),
                want=weight.shape[0],
                got=x.shape[1],
            )
        )
    out_channels = weight.shape[1] * groups
    if bias is not None and bias.shape != (out_channels,):
        raise RuntimeError(
            _errors.TRANSPOSED_BIAS.format(op=op, want=out_channels, got=list(bias.shape))
        )
    stride = _tuple(stride, d, "stride", op)
    dilation = _tuple(dilation, d, "dilation", op)
    pad = _tuple(padding, d, "padding", op)
    extra = _tuple(output_padding, d, "output_padding", op)
    if any(s <= 0 for s in stride):
        raise RuntimeError(_errors.STRIDE_POSITIVE.format(got=list(stride)))
    if any(dl <= 0 for dl in dilation):
        raise RuntimeError(_errors.DILATION_POSITIVE.format(got=list(dilation)))
    if any(p < 0 for p in pad):
        raise RuntimeError(_errors.PADDING_NEGATIVE.format(got=list(pad)))
    if any(e >= s and e >= dl for e, s, dl in zip(extra, stride, dilation)):
        raise RuntimeError(
            _errors.OUTPUT_PADDING.format(
                op=list(extra), stride=list(stride), dilation=list(dilation)
            )
        )
    # the size of the convolution whose input gradient this is: (L - 1) s - 2 p + dl (k - 1) + op + 1
    size = tuple(
        (n - 1) * s - 2 * p + dl * (k - 1) + e + 1
        for n, s, p, dl, k, e in zip(x.shape[2:], stride, pad, dilation, weight.shape[2:], extra)
    )
    if min(size) <= 0:
        given = " x ".join(map(str, x.shape[2:]))
        out = " x ".join(map(str, size))
        raise RuntimeError(_errors.TRANSPOSED_TOO_SMALL.format(given=given, out=out))
    inputs = (x, weight) if bias is None else (x, weight, bias)
    y = ConvTranspose.apply(
        *inputs,
        input_size=size,
        stride=stride,
        padding=tuple((p, p) for p in pad),
        dilation=dilation,
        groups=groups,
    )
    return y.squeeze(0) if unbatched else y


def conv_transpose2d(
    input: Tensor,  # noqa: A002  (PyTorch names)
    weight: Tensor,
    bias: Tensor | None = None,
    stride=1,
    padding=0,
    output_padding=0,
    groups: int = 1,
    dilation=1,
) -> Tensor:
    """2-D transposed convolution of (N, C_in, H, W) or (C_in, H, W) input (``F.conv_transpose2d``).

    The gradient of :func:`conv2d` with respect to its input, used as a layer: each input
    element adds a copy of the kernel, scaled by it, into the output (an upsampling).

    Args:
        weight: (C_in, C_out // groups, kH, kW) (note: in and out the other way round
            from conv2d's).
        bias: optional (C_out,).
        stride, padding, dilation: those of the convolution it transposes; ``padding``
            cuts ``dilation * (k - 1) - padding`` less from each side.
        output_padding: extra size added at the high end (smaller than stride or dilation).
        groups: split the channels into this many groups (note: before ``dilation``).

    Returns:
        (N, C_out, H_out, W_out), H_out = (H - 1) stride - 2 pad + dilation (kH - 1) + out_pad + 1.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.conv_transpose2d(mg.ones(1, 1, 2, 2), mg.ones(1, 1, 2, 2))
        tensor([[[[1., 2., 1.],
                  [2., 4., 2.],
                  [1., 2., 1.]]]])
    """
    return _conv_transpose(
        "conv_transpose2d",
        2,
        input,
        weight,
        bias,
        stride,
        padding,
        output_padding,
        groups,
        dilation,
    )


def conv_transpose1d(
    input: Tensor,  # noqa: A002  (PyTorch names)
    weight: Tensor,
    bias: Tensor | None = None,
    stride=1,
    padding=0,
    output_padding=0,
    groups: int = 1,
    dilation=1,
) -> Tensor:
    """1-D transposed convolution of (N, C_in, L) or (C_in, L) input (``F.conv_transpose1d``);
    the arguments are :func:`conv_transpose2d`'s with one spatial dim."""
    return _conv_transpose(
        "conv_transpose1d",
        1,
        input,
        weight,
        bias,
        stride,
        padding,
        output_padding,
        groups,
        dilation,
    )
