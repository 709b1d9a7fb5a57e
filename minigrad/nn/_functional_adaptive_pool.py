"""The adaptive poolings of ``nn.functional``: ``adaptive_avg_pool1d/2d`` and
``adaptive_max_pool1d/2d`` (the output size is given; the windows follow from it).
"""

from __future__ import annotations

import operator

import numpy as np

from ..errors import conv as _errors
from ..ops._util import check_tensor
from ..ops.pool import MaxPoolGather
from ..tensor import Tensor

# --- adaptive pooling: the output size is given, the windows follow from it -------------------
# Output position i of n inputs pooled to m covers [floor(i n / m), ceil((i + 1) n / m)), so the
# windows cover the input and neighbours may overlap by one (PyTorch's start_index/end_index).


def _windows(n: int, m: int) -> list:
    return [((i * n) // m, -(-((i + 1) * n) // m)) for i in range(m)]


def _output_size(output_size, input, d: int, op: str) -> tuple:  # noqa: A002
    """``output_size`` as d ints; None (or a None entry) keeps the input's size."""
    sizes = output_size if isinstance(output_size, (tuple, list)) else (output_size,) * d
    if len(sizes) != d:
        raise RuntimeError(_errors.ADAPTIVE_SIZE.format(op=op, d=d, got=output_size))
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
