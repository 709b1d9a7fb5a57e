"""The poolings of ``nn.functional``: ``max_pool1d/2d``, ``avg_pool1d/2d`` (argument checks
around ``ops.pool``) and ``adaptive_avg_pool1d/2d``, ``adaptive_max_pool1d/2d``.

The checks follow PyTorch's (``RuntimeError`` with its wording plus the sizes); the ops
take (C, H, W) and (N, C, H, W) alike, since they pool each (H, W) plane on its own.
"""

from __future__ import annotations

import operator

import numpy as np

from ..errors import conv as _errors
from ..ops._util import check_tensor
from ..ops.pool import AvgPool2d, MaxPool2d, MaxPoolGather, max_indices, out_size
from ..tensor import Tensor


def _pair(value, name: str, op: str) -> tuple:
    try:
        if isinstance(value, (tuple, list)):
            out = tuple(operator.index(v) for v in value)
        else:
            out = (operator.index(value),) * 2
    except TypeError:
        raise TypeError(_errors.POOL_ARG.format(op=op, name=name, got=value)) from None
    if len(out) == 1:
        out = out * 2
    if len(out) != 2:
        raise RuntimeError(_errors.POOL_ARG.format(op=op, name=name, got=value))
    return out


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


# --- adaptive pooling: the output size is given, the windows follow from it -------------------
# Output position i of n inputs pooled to m covers [floor(i n / m), ceil((i + 1) n / m)), so the
# windows cover the input and neighbours may overlap by one (PyTorch's start_index/end_index).


def _windows(n: int, m: int) -> list:
    return [((i * n) // m, -(-((i + 1) * n) // m)) for i in range(m)]


def _output_size(output_size, input, d: int, op: str) -> tuple:  # noqa: A002
    """``output_size`` as d ints; None (or a None entry) keeps the input's size."""
    sizes = output_size if isinstance(output_size, (tuple, list)) else (output_size,) * d
    if len(sizes) != d:
        raise ValueError(_errors.ADAPTIVE_SIZE.format(op=op, d=d, got=output_size))
    try:
        out = tuple(
            input.shape[input.ndim - d + i] if s is None else operator.index(s)
            for i, s in enumerate(sizes)
        )
    except TypeError:
        raise TypeError(_errors.ADAPTIVE_SIZE.format(op=op, d=d, got=output_size)) from None
    if min(out) < 0:
        raise RuntimeError(_errors.ADAPTIVE_SIZE.format(op=op, d=d, got=output_size))
    return out


def _adaptive_input(input, d: int, op: str) -> None:  # noqa: A002
    check_tensor(input, op)
    if input.ndim not in (d + 1, d + 2):
        if d == 1:
            raise RuntimeError(_errors.ADAPTIVE_INPUT_1D.format(ndim=input.ndim, op=op))
        raise RuntimeError(_errors.ADAPTIVE_INPUT.format(op=op, shape=list(input.shape)))
    if 0 in input.shape[-d - 1 + (input.ndim == d + 1) :]:
        raise RuntimeError(_errors.ADAPTIVE_EMPTY.format(op=op, shape=list(input.shape)))


def _averaging(n: int, m: int, dtype) -> Tensor:
    """The (m, n) matrix whose row i averages input window i: ``A @ x`` pools x's rows."""
    a = np.zeros((m, n), dtype)
    for i, (lo, hi) in enumerate(_windows(n, m)):
        a[i, lo:hi] = 1.0 / (hi - lo)
    return Tensor._make(a, False, None)


def adaptive_avg_pool2d(input: Tensor, output_size) -> Tensor:  # noqa: A002
    """Average pooling of (N, C, H, W) or (C, H, W) input to the given (oH, oW) (``F.adaptive_avg_pool2d``).

    Averaging windows is linear, so the pooling is two products with constant averaging
    matrices, A_H @ x @ A_W^T, and its gradient is theirs. ``output_size`` 1 (the global
    average pooling of a classifier head) is ``x.mean((-2, -1), keepdim=True)``, as PyTorch.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.adaptive_avg_pool2d(mg.arange(12.0).reshape(1, 3, 4), (1, 2))
        tensor([[[4.5000, 6.5000]]])
    """
    op = "adaptive_avg_pool2d"
    check_tensor(input, op)
    if output_size == 1 or output_size in ((1, 1), [1, 1]):
        return input.mean((-2, -1), keepdim=True)
    _adaptive_input(input, 2, op)
    oh, ow = _output_size(output_size, input, 2, op)
    dtype = input._data.dtype if input.is_floating_point() else np.float32
    rows = _averaging(input.shape[-2], oh, dtype)
    cols = _averaging(input.shape[-1], ow, dtype)
    return rows @ input @ cols.t()


def adaptive_avg_pool1d(input: Tensor, output_size) -> Tensor:  # noqa: A002
    """Average pooling of (N, C, L) or (C, L) input to the given length (``F.adaptive_avg_pool1d``)."""
    op = "adaptive_avg_pool1d"
    _adaptive_input(input, 1, op)
    (m,) = _output_size(output_size, input, 1, op)
    if m == 1:
        return input.mean(-1, keepdim=True)
    dtype = input._data.dtype if input.is_floating_point() else np.float32
    return input @ _averaging(input.shape[-1], m, dtype).t()


class AdaptiveMaxPool2d(MaxPoolGather):
    """Reading x at each adaptive window's first maximum; its gradient is max pooling's."""

    node_name = "AdaptiveMaxPool2DBackward0"

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: linear, the tangent read at the same positions."""
        return AdaptiveMaxPool2d.apply(tangents[0], **params)


def _adaptive_max_indices(x: np.ndarray, oh: int, ow: int) -> np.ndarray:
    """Per output position the flat index h * W + w of its window's first maximum (NaN wins)."""
    h, w = x.shape[-2:]
    idx = np.empty(x.shape[:-2] + (oh, ow), np.int64)
    for i, (h0, h1) in enumerate(_windows(h, oh)):
        for j, (w0, w1) in enumerate(_windows(w, ow)):
            window = x[..., h0:h1, w0:w1].reshape(*x.shape[:-2], -1)
            r, c = np.divmod(np.argmax(window, axis=-1), w1 - w0)
            idx[..., i, j] = (h0 + r) * w + w0 + c
    return idx


def adaptive_max_pool2d(input: Tensor, output_size, return_indices: bool = False):  # noqa: A002
    """Max pooling of (N, C, H, W) or (C, H, W) input to the given (oH, oW) (``F.adaptive_max_pool2d``).

    Each output is its window's first maximum (NaN counts as the largest, as PyTorch);
    ``return_indices`` also returns the flat h * W + w positions.
    """
    op = "adaptive_max_pool2d"
    _adaptive_input(input, 2, op)
    oh, ow = _output_size(output_size, input, 2, op)
    idx = _adaptive_max_indices(input._data, oh, ow)
    out = AdaptiveMaxPool2d.apply(input, indices=idx)
    return (out, Tensor._make(idx, False, None)) if return_indices else out


def adaptive_max_pool1d(input: Tensor, output_size, return_indices: bool = False):  # noqa: A002
    """Max pooling of (N, C, L) or (C, L) input to the given length (``F.adaptive_max_pool1d``)."""
    op = "adaptive_max_pool1d"
    _adaptive_input(input, 1, op)
    (m,) = _output_size(output_size, input, 1, op)
    out = adaptive_max_pool2d(input.unsqueeze(-2), (1, m), return_indices)
    if return_indices:
        return out[0].squeeze(-2), out[1].squeeze(-2)
    return out.squeeze(-2)
