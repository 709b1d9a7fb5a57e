"""Histograms of a tensor's values: ``histc`` and ``histogram`` (PyTorch names and rules).

Counting is not differentiable, and PyTorch says so in two ways, both kept here: ``histc``'s
result does not require grad, while ``histogram`` of a tensor that requires grad (input,
``weight`` or ``bins`` edges) gives results that do, under PyTorch's ``NotImplemented`` node,
whose backward raises. A lecture on activation statistics plots
``torch.histogram(h, density=True)`` of a layer's outputs.
"""

from __future__ import annotations

import numpy as np

from .._return_types import return_type
from ..recording import grad_mode
from ..tensor import Tensor
from ._util import NoDerivative

#: ``torch.return_types.histogram``: the counts (or densities) and the bins' edges.
HistogramResult = return_type("histogram", ("hist", "bin_edges"))


def _floating(input: Tensor, fn: str) -> np.ndarray:  # noqa: A002
    if not isinstance(input, Tensor):
        raise TypeError(f"{fn}(): argument 'input' must be Tensor, not {type(input).__name__}")
    if not input.is_floating_point():
        raise RuntimeError(f"{fn}: expected a floating-point input tensor, got {input.dtype}")
    return input.detach()._data


def histc(input: Tensor, bins: int = 100, min: float = 0, max: float = 0) -> Tensor:  # noqa: A001, A002
    """Counts of the values in ``bins`` equal-width bins between ``min`` and ``max``.

    With ``min == max`` (the default 0, 0) the data's own smallest and largest values are
    used. Values outside [min, max] are not counted; a value equal to ``max`` falls in the
    last bin. The counts have the input's dtype (``torch.histc``).
    """
    data = _floating(input, "histc")
    if isinstance(bins, bool) or not isinstance(bins, (int, np.integer)) or bins <= 0:
        raise RuntimeError(f"torch.histc(): bins must be > 0, but got {bins} for bins")
    low, high = float(min), float(max)
    if low > high:
        raise RuntimeError(
            f"torch.histc(): max must be larger than min, but got min {low} and max {high}"
        )
    if low == high and data.size:
        low, high = float(data.min()), float(data.max())
    if low == high:  # all values equal (or no data): PyTorch widens the range by 1 each side
        low, high = low - 1, high + 1
    if not (np.isfinite(low) and np.isfinite(high)):
        raise RuntimeError(f"torch.histc(): range of [{low}, {high}] is not finite")
    counts, _ = np.histogram(data, bins=int(bins), range=(low, high))
    return Tensor._make(counts.astype(data.dtype), False, None)


def histogram(input: Tensor, bins=100, *, range=None, weight=None, density: bool = False):  # noqa: A002
    """Counts (or, with ``density=True``, a density) per bin, and the bins' edges.

    ``bins`` is a number of equal-width bins over ``range`` (default: the data's min and
    max) or a 1-D tensor of increasing edges. ``weight`` gives each value a weight instead
    of 1. Returns ``(hist, bin_edges)`` (``torch.histogram``).
    """
    data = _floating(input, "histogram")
    if isinstance(bins, Tensor):
        edges = bins.detach()._data.astype(data.dtype)
        if edges.ndim != 1 or edges.size < 2 or np.any(np.diff(edges) < 0):
            raise RuntimeError(
                "torch.histogram(): bins tensor should be 1-D, of at least 2 increasing edges"
            )
        spec = edges
    elif isinstance(bins, bool) or not isinstance(bins, (int, np.integer)) or bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for bins")
    else:
        spec = int(bins)
    weights = None
    if weight is not None:
        weights = weight.detach()._data if isinstance(weight, Tensor) else np.asarray(weight)
        if weights.shape != data.shape:
            raise RuntimeError(
                f"torch.histogram(): if weight tensor is provided it should have the same shape "
                f"as the input tensor, got {tuple(weights.shape)} and {tuple(data.shape)}"
            )
    hist, edges = np.histogram(
        data.ravel(),
        bins=spec,
        range=range,
        weights=None if weights is None else weights.ravel(),
        density=density,
    )
    hist, edges = hist.astype(data.dtype), edges.astype(data.dtype)
    tracked = [t for t in (input, bins, weight) if isinstance(t, Tensor) and t.requires_grad]
    if tracked and grad_mode.is_grad_enabled():  # PyTorch's NotImplemented node on both
        return HistogramResult(
            NoDerivative.apply(*tracked, kernel=lambda *_: hist, op="histogram"),
            NoDerivative.apply(*tracked, kernel=lambda *_: edges, op="histogram"),
        )
    return HistogramResult(Tensor._make(hist, False, None), Tensor._make(edges, False, None))
