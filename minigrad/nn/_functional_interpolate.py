"""``F.interpolate`` (and ``F.upsample``): resizing the spatial dims of (N, C, *S) input.

Every mode is a fixed linear map of the input, so it is built from ops whose gradients
are already known: ``nearest`` (and ``nearest-exact``) reads each output element from one
input element (an ``index_select`` per dim; its gradient adds back onto the elements read),
``linear`` and ``bilinear`` mix two neighbours per dim with weights that depend on the
sizes only (a product with a constant (out, in) matrix per dim), ``bicubic`` four
neighbours per dim the same way (Keys' cubic convolution, a = -0.75, as PyTorch's), and
``area`` averages windows (it is ``adaptive_avg_pool1d/2d`` to the output size, as in
PyTorch). The source positions
are PyTorch's, computed in its precision (float32 for the nearest index), so the same
elements are read. PyTorch records ``UpsampleNearest2DBackward0`` and such.
"""

from __future__ import annotations

import math
import numbers
import warnings

import numpy as np

from ..ops._util import check_tensor
from ..tensor import Tensor
from ._functional_adaptive_pool import adaptive_avg_pool1d, adaptive_avg_pool2d

# mode -> the spatial dims it needs (None: 1 or 2)
_MODES = {
    "nearest": None,
    "nearest-exact": None,
    "area": None,
    "linear": 1,
    "bilinear": 2,
    "bicubic": 2,
}
_MODE_LIST = "nearest | linear | bilinear | bicubic | area | nearest-exact"
_INTERPOLATING = ("linear", "bilinear", "bicubic", "trilinear")


def _per_dim(value, d: int, name: str) -> tuple:
    if isinstance(value, (tuple, list)):
        if len(value) != d:
            raise ValueError(
                f"Input and {name} must have the same number of spatial dimensions, but got "
                f"input with spatial dimensions of {d} and {name} of {tuple(value)}. Please "
                f"provide input tensor in (N, C, d1, d2, ...,dK) format and {name} in "
                "(o1, o2, ...,oK) format."
            )
        return tuple(value)
    return (value,) * d


def _sizes(input, size, scale_factor, recompute_scale_factor):  # noqa: A002
    """The output sizes, and the scales PyTorch's kernels get (None: in / out)."""
    d = input.ndim - 2
    if (size is None) == (scale_factor is None):
        raise ValueError(
            "only one of size or scale_factor should be defined"
            if size is not None
            else "either size or scale_factor should be defined"
        )
    if size is not None:
        if recompute_scale_factor is not None and recompute_scale_factor:
            raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
        return tuple(int(s) for s in _per_dim(size, d, "size")), (None,) * d
    factors = tuple(float(f) for f in _per_dim(scale_factor, d, "scale_factor"))
    out = tuple(math.floor(n * f) for n, f in zip(input.shape[2:], factors))
    return out, (None,) * d if recompute_scale_factor else factors


def _nearest_index(n: int, m: int, scale, exact: bool) -> np.ndarray:
    """PyTorch's nearest source index, in float32 as its kernel: floor(dst * s) (or
    floor((dst + 0.5) * s) for nearest-exact), s = 1 / scale_factor or n / m."""
    s = np.float32(n / m if scale is None else 1.0 / scale)
    dst = np.arange(m, dtype=np.float32) + (np.float32(0.5) if exact else np.float32(0.0))
    return np.minimum(np.floor(dst * s).astype(np.int64), n - 1)


def _linear_weights(n: int, m: int, scale, align_corners: bool, dtype) -> Tensor:
    """The (m, n) matrix of linear interpolation: row i puts 1 - t on the left neighbour
    and t on the right one of output i's source position (PyTorch's, in the input dtype's
    precision: float for float32, double for float64)."""
    ft = np.float32 if dtype == np.float32 else np.float64
    if align_corners:
        s = ft((n - 1) / (m - 1)) if m > 1 else ft(0.0)
        src = s * np.arange(m, dtype=ft)
    else:
        s = ft(n / m if scale is None else 1.0 / scale)
        src = np.maximum(s * (np.arange(m, dtype=ft) + ft(0.5)) - ft(0.5), ft(0.0))
    left = src.astype(np.int64)
    right = left + (left < n - 1)
    t = src - left.astype(ft)
    w = np.zeros((m, n), dtype)
    rows = np.arange(m)
    np.add.at(w, (rows, left), (ft(1.0) - t).astype(dtype))
    np.add.at(w, (rows, right), t.astype(dtype))
    return Tensor._make(w, False, None)


_CUBIC_A = -0.75  # PyTorch's (and OpenCV's) choice of Keys' parameter


def _cubic_taps(t, ft) -> tuple:
    """The weights of the four neighbours at offsets -1, 0, 1, 2 of a source position a
    fraction ``t`` past its left neighbour (PyTorch's ``get_cubic_upsample_coefficients``)."""
    a = ft(_CUBIC_A)

    def near(x):  # |x| <= 1
        return ((a + ft(2)) * x - (a + ft(3))) * x * x + ft(1)

    def far(x):  # 1 < |x| < 2
        return ((a * x - ft(5) * a) * x + ft(8) * a) * x - ft(4) * a

    return far(t + ft(1)), near(t), near(ft(1) - t), far(ft(2) - t)


def _cubic_weights(n: int, m: int, scale, align_corners: bool, dtype) -> Tensor:
    """The (m, n) matrix of bicubic interpolation along one dim: row i spreads output i's
    four weights over its neighbours, clamped to the edges (a tap past an edge reads the
    edge element). Source positions as PyTorch's cubic ones: not clamped at 0."""
    ft = np.float32 if dtype == np.float32 else np.float64
    if align_corners:
        s = ft((n - 1) / (m - 1)) if m > 1 else ft(0.0)
        src = s * np.arange(m, dtype=ft)
    else:
        s = ft(n / m if scale is None else 1.0 / scale)
        src = s * (np.arange(m, dtype=ft) + ft(0.5)) - ft(0.5)
    left = np.floor(src)
    t = (src - left).astype(ft)
    left = left.astype(np.int64)
    w = np.zeros((m, n), dtype)
    rows = np.arange(m)
    for offset, weight in zip((-1, 0, 1, 2), _cubic_taps(t, ft)):
        np.add.at(w, (rows, np.clip(left + offset, 0, n - 1)), weight.astype(dtype))
    return Tensor._make(w, False, None)


def interpolate(
    input: Tensor,  # noqa: A002  (PyTorch names)
    size=None,
    scale_factor=None,
    mode: str = "nearest",
    align_corners: bool | None = None,
    recompute_scale_factor: bool | None = None,
    antialias: bool = False,
) -> Tensor:
    """Resize the spatial dims of (N, C, L) or (N, C, H, W) input (``F.interpolate``).

    Args:
        size: the output's spatial size (an int or one per dim); or
        scale_factor: multiply each spatial size by it (rounded down).
        mode: ``'nearest'`` (default), ``'nearest-exact'``, ``'area'``, ``'linear'`` (3-D
            input), ``'bilinear'`` or ``'bicubic'`` (4-D input).
        align_corners: linear and cubic modes only: map the corner pixels' centres onto each
            other (default False: the pixels' outer edges).
        recompute_scale_factor: with ``scale_factor``, compute the positions from the
            sizes (in / out) instead of from the factor.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.interpolate(mg.tensor([[[1.0, 2.0]]]), scale_factor=2)
        tensor([[[1., 1., 2., 2.]]])
        >>> F.interpolate(mg.tensor([[[1.0, 2.0]]]), scale_factor=2, mode="linear")
        tensor([[[1.0000, 1.2500, 1.7500, 2.0000]]])
    """
    check_tensor(input, "interpolate")
    if mode not in _MODES:
        raise NotImplementedError(
            f"Input Error: Only 3D and 4D input Tensors supported (got {input.ndim}D) for the "
            f"modes: {_MODE_LIST} (got {mode}); minigrad has no trilinear or lanczos mode"
        )
    if align_corners is not None and mode not in _INTERPOLATING:
        raise ValueError(
            "align_corners option can only be set with the interpolating modes: "
            "linear | bilinear | bicubic | trilinear"
        )
    if antialias:
        raise NotImplementedError("interpolate(antialias=True) is not in minigrad")
    if input.ndim not in (3, 4):
        raise NotImplementedError(
            f"Input Error: Only 3D and 4D input Tensors supported (got {input.ndim}D) for the "
            f"modes: {_MODE_LIST} (got {mode})"
        )
    want = _MODES[mode]
    if want is not None and input.ndim != want + 2:
        raise NotImplementedError(
            f"Got {input.ndim}D input, but {mode} mode needs {want + 2}D input"
        )
    outs, scales = _sizes(input, size, scale_factor, recompute_scale_factor)
    if any(not isinstance(o, numbers.Integral) or o <= 0 for o in outs):
        raise RuntimeError(
            f"Input and output sizes should be greater than 0, but got input "
            f"{tuple(input.shape[2:])} and output {outs}"
        )
    out = input
    if mode == "area":  # the mean of each output element's window, as PyTorch's
        return (adaptive_avg_pool1d if input.ndim == 3 else adaptive_avg_pool2d)(input, outs)
    if want is None:  # nearest: one source element per output element, per dim
        for k, (n, m, s) in enumerate(zip(input.shape[2:], outs, scales)):
            idx = _nearest_index(n, m, s, mode == "nearest-exact")
            out = out.index_select(2 + k, Tensor._make(idx, False, None))
        return out
    dtype = input._data.dtype
    weights = _cubic_weights if mode == "bicubic" else _linear_weights
    rows = [
        weights(n, m, s, bool(align_corners), dtype)
        for n, m, s in zip(input.shape[2:], outs, scales)
    ]
    out = out @ rows[-1].t()  # the last dim first, then the height: PyTorch's order of sums
    if len(rows) == 2:
        out = rows[0] @ out
    return out


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):  # noqa: A002
    """``F.upsample``, PyTorch's older name of :func:`interpolate` (which it warns about)."""
    warnings.warn(
        "nn.functional.upsample is deprecated. Use nn.functional.interpolate instead.",
        UserWarning,
        stacklevel=2,
    )
    return interpolate(input, size, scale_factor, mode, align_corners)
