"""3-D poolings of ``nn.functional``: ``max_pool3d`` and ``avg_pool3d`` over the last three
dims of (N, C, D, H, W) or (C, D, H, W) input (videos, volumes): argument checks around the
ops of ``ops/pool.py``, which pool over as many dims as the kernel has.
"""

from __future__ import annotations

from ..errors import conv as _conv_errors
from ..errors import vision as _errors
from ..ops._util import check_tensor
from ..ops.pool import AvgPool3d, MaxPool3d, max_indices, out_size
from ..tensor import Tensor
from ._functional_pool import ntuple


def _triple(value, name: str, op: str) -> tuple:
    return ntuple(value, 3, name, op, _errors.POOL3D_ARG)


def _params(op, input, kernel_size, stride, padding, dilation, ceil_mode):  # noqa: A002
    """The checked geometry as triples; stride defaults to the kernel size (None or ``[]``)."""
    check_tensor(input, op)
    if input.ndim not in (4, 5) or 0 in input.shape[-4:]:
        raise RuntimeError(_errors.POOL3D_INPUT.format(op=op, shape=list(input.shape)))
    k = _triple(kernel_size, "kernel_size", op)
    no_stride = stride is None or (isinstance(stride, (tuple, list)) and not stride)
    s = k if no_stride else _triple(stride, "stride", op)
    p, d = _triple(padding, "padding", op), _triple(dilation, "dilation", op)
    for bad, msg, got in (
        (min(k) <= 0, _conv_errors.POOL_KERNEL, k),
        (min(s) <= 0, _conv_errors.POOL_STRIDE, s),
        (min(d) <= 0, _conv_errors.POOL_DILATION, d),
        (min(p) < 0, _conv_errors.POOL_PAD_NEGATIVE, p),
    ):
        if bad:
            raise RuntimeError(msg.format(op=op, got=got))
    if any(pi > (di * (ki - 1) + 1) // 2 for pi, ki, di in zip(p, k, d)):
        raise RuntimeError(_conv_errors.POOL_PAD_HALF.format(op=op, pad=p, kernel=k, dilation=d))
    outs = [out_size(n, *a, bool(ceil_mode)) for n, *a in zip(input.shape[-3:], k, s, p, d)]
    if min(outs) <= 0:
        given = "x".join(map(str, input.shape[-4:]))
        out = "x".join(map(str, [input.shape[-4], *outs]))
        raise RuntimeError(_conv_errors.POOL_TOO_SMALL.format(op=op, given=given, out=out))
    return {"kernel_size": k, "stride": s, "padding": p, "ceil_mode": bool(ceil_mode)}, d


def max_pool3d(
    input: Tensor,  # noqa: A002  (PyTorch names)
    kernel_size,
    stride=None,
    padding=0,
    dilation=1,
    ceil_mode: bool = False,
    return_indices: bool = False,
):
    """3-D max pooling (``F.max_pool3d``); the arguments are :func:`F.max_pool2d`'s as ints
    or triples, the indices flat over (D, H, W): (d * H + h) * W + w.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.max_pool3d(mg.arange(8.0).reshape(1, 2, 2, 2), 2)
        tensor([[[[7.]]]])
    """
    params, d = _params("max_pool3d", input, kernel_size, stride, padding, dilation, ceil_mode)
    out = MaxPool3d.apply(input, dilation=d, **params)
    if not return_indices:
        return out
    idx = max_indices(input._data, dilation=d, **params)
    return out, Tensor._make(idx.astype("int64"), False, None)


def avg_pool3d(
    input: Tensor,  # noqa: A002
    kernel_size,
    stride=None,
    padding=0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int | None = None,
) -> Tensor:
    """3-D average pooling (``F.avg_pool3d``); the arguments are :func:`F.avg_pool2d`'s as
    ints or triples."""
    params, _ = _params("avg_pool3d", input, kernel_size, stride, padding, 1, ceil_mode)
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError(_errors.POOL3D_DIVISOR.format(got=divisor_override))
    return AvgPool3d.apply(
        input,
        count_include_pad=bool(count_include_pad),
        divisor_override=divisor_override,
        **params,
    )
