"""``affine_grid`` and ``grid_sample`` (the spatial transformer's two halves) as ops.

* :class:`AffineGridGenerator` grid[n, h, w] = theta[n] @ (x_w, y_h, 1): linear in theta, so
  its gradient is grad_theta[n] = sum_{h,w} g[n, h, w] (x_w, y_h, 1)^T, written with Tensor
  ops (and so differentiable again).
* :class:`GridSampler2D` reads the input at the grid's points, (-1, -1) the top-left corner
  and (1, 1) the bottom-right: bilinear (the four neighbours weighted by closeness) or
  nearest. A point maps to the pixel coordinate ix = (x + 1) / 2 * (W - 1) with
  ``align_corners`` (the corner pixels' centres at -1 and 1), else ((x + 1) W - 1) / 2 (the
  corner pixels' outer edges at -1 and 1). Outside the image, ``padding_mode`` reads zeros,
  the border pixel (coordinates clipped) or the reflection (coordinates reflected, then
  clipped). The gradient goes to the input (each read's weight times g, added back) and to
  the grid (the slope of the bilinear weights; 0 for nearest), times d(ix)/d(x) and the
  clipping's and reflection's slopes (0 or +-1), as PyTorch's kernel computes them.

PyTorch's nodes: ``AffineGridGeneratorBackward0``, ``GridSampler2DBackward0`` (and
``GridSampler2DBackwardBackward0`` for the gradients, differentiable once more here).
"""

from __future__ import annotations

import numpy as np

from ..errors import vision as errors
from ..recording.function import Op
from ..tensor import Tensor


def _base_line(n, align_corners):
    """The n normalized coordinates of one axis, as PyTorch's base grid (0 for n = 1)."""
    if n <= 1:
        return np.zeros(max(n, 0))
    line = np.linspace(-1.0, 1.0, n)
    return line if align_corners else line * (n - 1) / n


def base_grid(h, w, align_corners, dtype):
    """(H, W, 3): (x_w, y_h, 1) at every output position."""
    xs, ys = _base_line(w, align_corners), _base_line(h, align_corners)
    out = np.ones((h, w, 3), dtype=dtype)
    out[..., 0] = xs[None, :]
    out[..., 1] = ys[:, None]
    return out


class AffineGridGenerator(Op):
    """grid = base @ theta^T per sample; grad_theta[n] = g[n]^T @ base (sums over positions)."""

    @staticmethod
    def forward(ctx, theta, size, align_corners):
        ctx.base = base_grid(size[0], size[1], align_corners, theta.dtype)
        return np.einsum("hwj,nij->nhwi", ctx.base, theta)

    @staticmethod
    def backward(ctx, g):
        n, h, w, _ = g.shape
        base = Tensor._make(ctx.base.reshape(h * w, 3), False, None)
        return g.reshape(n, h * w, 2).transpose(1, 2) @ base

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: linear, t_grid = affine_grid(t_theta)."""
        return AffineGridGenerator.apply(tangents[0], **params)


# --- grid_sample --------------------------------------------------------------------------------


def _clip(ix, slope, size):
    """Coordinates clipped to [0, size - 1]; the slope is 0 where clipping (or at the ends)."""
    inside = (ix > 0) & (ix < size - 1)
    return np.clip(ix, 0, size - 1), slope * inside


def _reflect(ix, slope, twice_low, twice_high):
    """Coordinates reflected into [low, high] (bounces at both ends); the slope flips sign at
    each bounce."""
    if twice_low == twice_high:
        return np.zeros_like(ix), np.zeros_like(slope)
    low, span = twice_low / 2, (twice_high - twice_low) / 2
    rel = ix - low
    sign = np.where(rel < 0, -1.0, 1.0)
    rel = np.abs(rel)
    extra, flips = np.fmod(rel, span), np.floor(rel / span)
    even = flips % 2 == 0
    return np.where(even, extra + low, span - extra + low), slope * sign * np.where(even, 1, -1)


def source_index(coord, size, padding_mode, align_corners):
    """Pixel coordinates of normalized ones, and d(pixel)/d(normalized) at each."""
    if align_corners:
        ix, slope = (coord + 1) / 2 * (size - 1), np.full(coord.shape, (size - 1) / 2)
    else:
        ix, slope = ((coord + 1) * size - 1) / 2, np.full(coord.shape, size / 2)
    if padding_mode == "border":
        ix, slope = _clip(ix, slope, size)
    elif padding_mode == "reflection":
        lo, hi = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
        ix, slope = _clip(*_reflect(ix, slope, lo, hi), size)
    return ix, slope


def _corners(ix, iy, mode):
    """(row, column, weight, d weight / d ix, d weight / d iy, d2 weight / d ix d iy) of each
    pixel a point reads."""
    if mode == "nearest":
        zero = np.zeros_like(ix)
        return [(np.rint(iy), np.rint(ix), np.ones_like(ix), zero, zero, 0.0)]
    x0, y0 = np.floor(ix), np.floor(iy)
    wx1, wy1 = ix - x0, iy - y0
    wx0, wy0 = 1 - wx1, 1 - wy1
    return [
        (y0, x0, wy0 * wx0, -wy0, -wx0, 1.0),
        (y0, x0 + 1, wy0 * wx1, wy0, -wx1, -1.0),
        (y0 + 1, x0, wy1 * wx0, -wy1, wx0, -1.0),
        (y0 + 1, x0 + 1, wy1 * wx1, wy1, wx1, 1.0),
    ]


def _reads(x, grid, mode, padding_mode, align_corners):
    """Per corner: the (n, row, column) index arrays, the weight (0 off the image), its
    slopes and its cross second derivative; and the pixel coordinates' slopes."""
    h, w = x.shape[2:]
    with np.errstate(invalid="ignore"):  # an infinite point gives NaN, read as off the image
        ix, sx = source_index(grid[..., 0], w, padding_mode, align_corners)
        iy, sy = source_index(grid[..., 1], h, padding_mode, align_corners)
        corners = _corners(ix, iy, mode)
    batch = np.arange(x.shape[0]).reshape(-1, 1, 1)
    reads = []
    for r, c, wt, dx, dy, dxy in corners:
        ok = (r >= 0) & (r < h) & (c >= 0) & (c < w)  # False at NaN: it reads NaN * 0
        r, c = (np.where(ok, v, 0).astype(np.intp) for v in (r, c))
        at = (batch, r, c)
        reads.append((at, wt * ok, dx * ok, dy * ok, dxy * ok))
    return reads, sx, sy


def grid_sample_forward(x, grid, mode, padding_mode, align_corners):
    """out[n, c, h, w] = sum over the read pixels of weight * x[n, c, row, column]."""
    pixels = x.transpose(0, 2, 3, 1)  # (N, H, W, C): one fancy index reads every channel
    reads, _, _ = _reads(x, grid, mode, padding_mode, align_corners)
    out = sum(pixels[at] * wt[..., None] for at, wt, *_ in reads)
    return np.ascontiguousarray(out.transpose(0, 3, 1, 2)).astype(x.dtype, copy=False)


def grid_sample_backward(x, grid, g, mode, padding_mode, align_corners):
    """(grad_input, grad_grid) of :func:`grid_sample_forward` for the output gradient g."""
    pixels, gp = x.transpose(0, 2, 3, 1), g.transpose(0, 2, 3, 1)
    reads, sx, sy = _reads(x, grid, mode, padding_mode, align_corners)
    gx = np.zeros(pixels.shape, dtype=x.dtype)
    dix = np.zeros(grid.shape[:-1], dtype=grid.dtype)
    diy = np.zeros_like(dix)
    for at, wt, dwx, dwy, _ in reads:
        np.add.at(gx, at, wt[..., None] * gp)
        seen = (pixels[at] * gp).sum(-1)
        dix += seen * dwx
        diy += seen * dwy
    grad_grid = np.stack([dix * sx, diy * sy], axis=-1).astype(grid.dtype, copy=False)
    return np.ascontiguousarray(gx.transpose(0, 3, 1, 2)), grad_grid


def grid_sample_grid_tangent(x, grid, t_grid, mode, padding_mode, align_corners):
    """The output's change for a change t_grid of the points (x fixed): each read pixel
    times its weight's slope along t_grid."""
    pixels = x.transpose(0, 2, 3, 1)
    reads, sx, sy = _reads(x, grid, mode, padding_mode, align_corners)
    dx, dy = (t_grid[..., 0] * sx)[..., None], (t_grid[..., 1] * sy)[..., None]
    out = sum(
        pixels[at] * (dwx[..., None] * dx + dwy[..., None] * dy) for at, _, dwx, dwy, _ in reads
    )
    return np.ascontiguousarray(out.transpose(0, 3, 1, 2)).astype(x.dtype, copy=False)


def grid_grad_backward(x, grid, g, gg, mode, padding_mode, align_corners):
    """The gradients (for x, for g, for the grid) of <gg, grad_grid(x, grid, g)>: grad_grid is
    linear in x and in g; along the grid only the cross term d2 w / d ix d iy moves it (the
    weights are linear in each coordinate, the padding's slopes piecewise constant)."""
    pixels, gp = x.transpose(0, 2, 3, 1), g.transpose(0, 2, 3, 1)
    reads, sx, sy = _reads(x, grid, mode, padding_mode, align_corners)
    tx, ty = gg[..., 0] * sx, gg[..., 1] * sy
    d_x, d_g = np.zeros(pixels.shape, dtype=x.dtype), np.zeros(gp.shape, dtype=g.dtype)
    cross = np.zeros(grid.shape[:-1], dtype=grid.dtype)
    for at, _, dwx, dwy, dxy in reads:
        along = (dwx * tx + dwy * ty)[..., None]
        np.add.at(d_x, at, along * gp)
        d_g += pixels[at] * along
        cross += (pixels[at] * gp).sum(-1) * dxy
    d_grid = np.stack([cross * sx * ty, cross * sy * tx], axis=-1).astype(grid.dtype, copy=False)
    return d_x.transpose(0, 3, 1, 2), d_g.transpose(0, 3, 1, 2), d_grid


class GridSampler2D(Op):
    """out = x read at the grid's points; grad_x = g added back with the read weights,
    grad_grid = g times the weights' slopes (both in :class:`GridSamplerGrad`)."""

    save_inputs = True
    saved_names = ("input", "grid")

    @staticmethod
    def forward(ctx, x, grid, **params):
        ctx.params = params
        return grid_sample_forward(x, grid, **params)

    @staticmethod
    def backward(ctx, g):
        x, grid = ctx.saved_tensors
        gx = GridSamplerGrad.apply(x, grid, g, which=0, **ctx.params)
        return gx, GridSamplerGrad.apply(x, grid, g, which=1, **ctx.params)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = grid_sample(t_x, grid) + the read pixels times the weights'
        slopes along t_grid (computed on arrays: not differentiable again)."""
        (x, grid), (tx, tg) = inputs, tangents
        parts = [] if tx is None else [GridSampler2D.apply(tx, grid.detach(), **params)]
        if tg is not None:
            t = grid_sample_grid_tangent(x._data, grid._data, tg._data, **params)
            parts.append(Tensor._make(t, False, None))
        return parts[0] if len(parts) == 1 else parts[0] + parts[1]


class GridSamplerGrad(Op):
    """One of grid_sample's two gradients (``which``: 0 the input's, 1 the grid's).

    The input's, A(grid)^T g, is linear in g: its gradients are grid_sample(gg, grid) for g
    and the grid gradient of that sample for the grid. The grid's is linear in x and in g;
    its gradients come from :func:`grid_grad_backward` (differentiating those again, a
    third derivative, is not implemented)."""

    node_name = "GridSampler2DBackwardBackward0"
    save_inputs = True
    saved_names = ("input", "grid", "grad_output")

    @staticmethod
    def forward(ctx, x, grid, g, which, **params):
        ctx.which, ctx.params = which, params
        return grid_sample_backward(x, grid, g, **params)[which]

    @staticmethod
    def backward(ctx, gg):
        x, grid, g = ctx.saved_tensors
        p = ctx.params
        if ctx.which == 0:
            d_grid = GridSamplerGrad.apply(gg, grid, g, which=1, **p)
            return None, d_grid, GridSampler2D.apply(gg, grid, **p)
        return tuple(GridSamplerGradGrad.apply(x, grid, g, gg, which=i, **p) for i in (0, 2, 1))


class GridSamplerGradGrad(Op):
    """One of the gradients (``which``: 0 for x, 1 for g, 2 for the grid) of grid_sample's
    grid gradient (:func:`grid_grad_backward`); a third derivative is not implemented."""

    @staticmethod
    def forward(ctx, x, grid, g, gg, which, **params):
        return np.ascontiguousarray(grid_grad_backward(x, grid, g, gg, **params)[which])

    @staticmethod
    def backward(ctx, ggg):
        raise NotImplementedError(errors.GRID_SAMPLE_THIRD_ORDER)
