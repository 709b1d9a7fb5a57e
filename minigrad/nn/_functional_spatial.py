"""The spatial transformer's functions of ``nn.functional``: ``affine_grid`` (where to read)
and ``grid_sample`` (read there): argument checks around ``ops/grid_sample.py``.

4-D inputs only (images; PyTorch also transforms 5-D volumes).
"""

from __future__ import annotations

import operator
import warnings

from ..errors import vision as _errors
from ..ops._util import check_tensor
from ..ops.grid_sample import AffineGridGenerator, GridSampler2D
from ..tensor import Tensor


def _align(align_corners) -> bool:
    if align_corners is None:
        warnings.warn(_errors.AFFINE_ALIGN, UserWarning, stacklevel=3)
        return False
    return bool(align_corners)


def affine_grid(theta: Tensor, size, align_corners: bool | None = None) -> Tensor:
    """The sampling grid of a batch of 2-D affine maps (``F.affine_grid``).

    Args:
        theta: (N, 2, 3): each output position's normalized (x, y, 1) maps to
            ``theta[n] @ (x, y, 1)``, the point to read.
        size: the output's (N, C, H, W).
        align_corners: -1 and 1 are the corner pixels' centres (True) or their outer edges
            (False; the default, with PyTorch's warning when not given).

    Returns:
        (N, H, W, 2) points (x, y) for :func:`grid_sample`.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> identity = mg.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
        >>> F.affine_grid(identity, (1, 1, 1, 2), align_corners=True)
        tensor([[[[-1.,  0.],
                  [ 1.,  0.]]]])
    """
    check_tensor(theta, "affine_grid", "theta")
    size = tuple(operator.index(n) for n in size)
    if len(size) != 4:
        raise NotImplementedError(_errors.AFFINE_SIZE.format(size=size))
    if not theta.is_floating_point() or theta.ndim != 3 or theta.shape[1:] != (2, 3):
        raise ValueError(_errors.AFFINE_THETA.format(size=size, got=theta.shape))
    if min(size) <= 0:
        raise ValueError(_errors.AFFINE_SIZE_POSITIVE.format(size=size))
    if theta.shape[0] != size[0]:
        raise ValueError(_errors.AFFINE_THETA.format(size=size, got=theta.shape))
    return AffineGridGenerator.apply(theta, size=size[2:], align_corners=_align(align_corners))


def grid_sample(
    input: Tensor,  # noqa: A002  (PyTorch names)
    grid: Tensor,
    mode: str = "bilinear",
    padding_mode: str = "zeros",
    align_corners: bool | None = None,
) -> Tensor:
    """Read ``input`` at the points of ``grid`` (``F.grid_sample``).

    Args:
        input: (N, C, H, W).
        grid: (N, H_out, W_out, 2) normalized points (x, y): (-1, -1) is the top-left of
            the image, (1, 1) the bottom-right (see ``align_corners``).
        mode: ``'bilinear'`` (the four neighbours, weighted) or ``'nearest'``.
        padding_mode: what a point outside the image reads: ``'zeros'``, ``'border'`` (the
            nearest border pixel) or ``'reflection'`` (the image mirrored at its edges).
        align_corners: as in :func:`affine_grid` (default False, with PyTorch's warning).

    Returns:
        (N, C, H_out, W_out); gradients flow to ``input`` and to ``grid``.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> img = mg.tensor([[[[0.0, 10.0], [20.0, 30.0]]]])
        >>> F.grid_sample(img, mg.tensor([[[[0.0, 0.0]]]]), align_corners=True)
        tensor([[[[15.]]]])
    """
    check_tensor(input, "grid_sample")
    check_tensor(grid, "grid_sample", "grid", 2)
    if mode not in ("bilinear", "nearest"):
        raise ValueError(_errors.GRID_MODE.format(got=mode))
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(_errors.GRID_PADDING.format(got=padding_mode))
    shapes = {"input": list(input.shape), "grid": list(grid.shape)}
    if grid.ndim and grid.shape[-1] != 2:
        raise RuntimeError(_errors.GRID_LAST.format(got=shapes["grid"]))
    if input.ndim != 4 or grid.ndim != 4:
        raise RuntimeError(_errors.GRID_DIMS.format(**shapes))
    if input.shape[0] != grid.shape[0]:
        raise RuntimeError(_errors.GRID_BATCH.format(**shapes))
    if input.dtype != grid.dtype:
        raise RuntimeError(_errors.GRID_DTYPE.format(a=input.dtype, b=grid.dtype))
    align = _align(align_corners)
    return GridSampler2D.apply(
        input, grid, mode=mode, padding_mode=padding_mode, align_corners=align
    )
