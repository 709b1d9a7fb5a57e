"""The poolings of ``nn.functional``: ``max_pool1d/2d``, ``avg_pool1d/2d``: argument checks
around ``ops.pool`` (the adaptive poolings are in ``_functional_adaptive_pool``).

The checks follow PyTorch's (``RuntimeError`` with its wording plus the sizes); the ops
take (C, H, W) and (N, C, H, W) alike, since they pool each (H, W) plane on its own.
"""

from __future__ import annotations

import operator

from ..errors import conv as _errors
from ..ops._util import check_tensor
from ..ops.pool import AvgPool2d, MaxPool2d, max_indices, out_size
from ..tensor import Tensor


def ntuple(value, n: int, name: str, op: str, message: str = _errors.POOL_ARG) -> tuple:
    """``value`` (an int, or a sequence of 1 or ``n`` ints) as ``n`` ints, or ``message``'s
    error (TypeError for a non-int, RuntimeError for a wrong length)."""
    try:
        if isinstance(value, (tuple, list)):
            out = tuple(operator.index(v) for v in value)
        else:
            out = (operator.index(value),) * n
    except TypeError:
        raise TypeError(message.format(op=op, name=name, got=value)) from None
    if len(out) == 1:
        out = out * n
    if len(out) != n:
        raise RuntimeError(message.format(op=op, name=name, got=value))
    return out


def _pair(value, name: str, op: str) -> tuple:
    return ntuple(value, 2, name, op)


def _params(op, input, kernel_size, stride, padding, dilation, ceil_mode):  # noqa: A002
    """The checked geometry as tuples; stride defaults to the kernel size (None or ``[]``)."""
    check_tensor(input, op)
    if input.ndim not in (3, 4) or 0 in input.shape[-3:]:
        raise RuntimeError(_errors.POOL_INPUT.format(op=op, shape=list(input.shape)))
    k = _pair(kernel_size, "kernel_size", op)
    s = k if stride is None or (isinstance(stride, (tuple, list)) and not stride) else None
    s = s or _pair(stride, "stride", op)
    p, d = _pair(padding, "padding", op), _pair(dilation, "dilation", op)
    if min(k) <= 0:
        raise RuntimeError(_errors.POOL_KERNEL.format(op=op, got=k))
    if min(s) <= 0:
        raise RuntimeError(_errors.POOL_STRIDE.format(op=op, got=s))
    if min(d) <= 0:
        raise RuntimeError(_errors.POOL_DILATION.format(op=op, got=d))
    if min(p) < 0:
        raise RuntimeError(_errors.POOL_PAD_NEGATIVE.format(op=op, got=p))
    if any(pi > (di * (ki - 1) + 1) // 2 for pi, ki, di in zip(p, k, d)):
        raise RuntimeError(_errors.POOL_PAD_HALF.format(op=op, pad=p, kernel=k, dilation=d))
    outs = [out_size(n, *a, bool(ceil_mode)) for n, *a in zip(input.shape[-2:], k, s, p, d)]
    if min(outs) <= 0:
        c = input.shape[-3]
        given = "x".join(map(str, input.shape[-3:]))
        raise RuntimeError(
            _errors.POOL_TOO_SMALL.format(op=op, given=given, out=f"{c}x{outs[0]}x{outs[1]}")
        )
    return {"kernel_size": k, "stride": s, "padding": p, "ceil_mode": bool(ceil_mode)}, d


def max_pool2d(
    input: Tensor,  # noqa: A002  (PyTorch names)
    kernel_size,
    stride=None,
    padding=0,
    dilation=1,
    ceil_mode: bool = False,
    return_indices: bool = False,
):
    """2-D max pooling over the last two dims of (N, C, H, W) or (C, H, W) input.

    Padding counts as -inf (never the max). At ties the first maximum of a window in
    row-major order is the one picked, and the only one that gets the gradient (PyTorch's).

    Args:
        input: (N, C, H, W) or (C, H, W).
        kernel_size, stride, padding, dilation: an int or a pair; ``stride`` defaults to
            ``kernel_size``; ``padding`` at most half the (dilated) kernel.
        ceil_mode: round the output size up (the last window may hang over the end).
        return_indices: also return, per output, the flat index h * W + w of the max.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.max_pool2d(mg.arange(16.0).reshape(1, 4, 4), 2)
        tensor([[[ 5.,  7.],
                 [13., 15.]]])
    """
    params, d = _params("max_pool2d", input, kernel_size, stride, padding, dilation, ceil_mode)
    out = MaxPool2d.apply(input, dilation=d, **params)
    if not return_indices:
        return out
    # found again on the data (cheap next to the pooling), so no-grad calls get them too
    idx = max_indices(input._data, dilation=d, **params)
    return out, Tensor._make(idx.astype("int64"), False, None)


def avg_pool2d(
    input: Tensor,  # noqa: A002  (PyTorch names)
    kernel_size,
    stride=None,
    padding=0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int | None = None,
) -> Tensor:
    """2-D average pooling over the last two dims of (N, C, H, W) or (C, H, W) input.

    Args:
        input: (N, C, H, W) or (C, H, W).
        kernel_size, stride, padding: an int or a pair (``stride`` defaults to the kernel).
        ceil_mode: round the output size up.
        count_include_pad: divide by the whole window, zero padding included (default),
            or only by the input elements it covers.
        divisor_override: divide every window sum by this instead.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.avg_pool2d(mg.arange(16.0).reshape(1, 4, 4), 2)
        tensor([[[ 2.5000,  4.5000],
                 [10.5000, 12.5000]]])
    """
    params, _ = _params("avg_pool2d", input, kernel_size, stride, padding, 1, ceil_mode)
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError(_errors.POOL_DIVISOR.format(got=divisor_override))
    return AvgPool2d.apply(
        input,
        count_include_pad=bool(count_include_pad),
        divisor_override=divisor_override,
        **params,
    )


# --- 1-D pooling: the 2-D pooling of a (..., 1, L) input, as PyTorch does it -------------------


def _one(value, name: str, op: str) -> int:
    if isinstance(value, (tuple, list)) and len(value) == 1:
        value = value[0]
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(_errors.POOL_ARG.format(op=op, name=name, got=value)) from None


def _pool1d_input(input, op: str) -> None:  # noqa: A002
    check_tensor(input, op)
    if input.ndim not in (2, 3):
        raise RuntimeError(_errors.POOL1D_INPUT.format(op=op, shape=list(input.shape)))


def max_pool1d(
    input: Tensor,  # noqa: A002  (PyTorch names)
    kernel_size,
    stride=None,
    padding=0,
    dilation=1,
    ceil_mode: bool = False,
    return_indices: bool = False,
):
    """1-D max pooling over the last dim of (N, C, L) or (C, L) input (``F.max_pool1d``);
    the arguments are ints (or 1-tuples), as :func:`max_pool2d`'s."""
    _pool1d_input(input, "max_pool1d")
    k = _one(kernel_size, "kernel_size", "max_pool1d")
    s = (
        k
        if stride is None or stride == [] or stride == ()
        else _one(stride, "stride", "max_pool1d")
    )
    p, d = _one(padding, "padding", "max_pool1d"), _one(dilation, "dilation", "max_pool1d")
    out = max_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, p), (1, d), ceil_mode, return_indices)
    if return_indices:
        return out[0].squeeze(-2), out[1].squeeze(-2)
    return out.squeeze(-2)


def avg_pool1d(
    input: Tensor,  # noqa: A002  (PyTorch names)
    kernel_size,
    stride=None,
    padding=0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
) -> Tensor:
    """1-D average pooling over the last dim of (N, C, L) or (C, L) input (``F.avg_pool1d``)."""
    _pool1d_input(input, "avg_pool1d")
    k = _one(kernel_size, "kernel_size", "avg_pool1d")
    s = (
        k
        if stride is None or stride == [] or stride == ()
        else _one(stride, "stride", "avg_pool1d")
    )
    p = _one(padding, "padding", "avg_pool1d")
    x = input.unsqueeze(-2)
    return avg_pool2d(x, (1, k), (1, s), (0, p), ceil_mode, count_include_pad).squeeze(-2)
