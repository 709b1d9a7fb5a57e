"""What in-place writes into part of a tensor become in the graph.

``y[1:] = 0`` and ``y[0].mul_(10)`` change some elements of ``y``. Autograd
records this as a new node for ``y`` (PyTorch: ``CopySlices``) with two inputs:
the old ``y``, whose gradient is the incoming one with the overwritten
positions zeroed, and the written values, which get the incoming gradient at
those positions. Positions are flat (C-order) indices into ``y``.
"""

from __future__ import annotations

import math

import numpy as np

from .. import _dtype, errors
from ..recording.function import Op
from ._util import make
from .select import GetItem, indexed, where
from .shape import sum_to


class CopySlices(Op):
    """out = base with out.flat[idx] = src; grad_base = g with idx zeroed, grad_src = g.flat[idx]."""

    node_name = "CopySlices"  # PyTorch's name: one of its few nodes without "Backward"

    @staticmethod
    def forward(ctx, base, src, idx):
        ctx.info = (base.shape, src.shape, idx)
        out = np.array(base, copy=True, order="C")  # C order: reshape(-1) below is a view
        out.reshape(-1)[idx.reshape(-1)] = np.broadcast_to(src, idx.shape).reshape(-1)
        return out

    @staticmethod
    def backward(ctx, g):
        shape, src_shape, idx = ctx.info
        keep = np.ones(shape, dtype=np.bool_)
        keep.reshape(-1)[idx.reshape(-1)] = False
        zero = make(np.zeros((), g._data.dtype), False, None)  # set to 0: g * 0 is NaN for inf
        kept = where(make(keep, False, None), g, zero)
        return kept, sum_to(take_positions(g, idx), src_shape)


class Fill(Op):
    """Every element set to a number: f(a) = c; grad_a = 0 (PyTorch's FillBackward2).

    ``x.fill_(c)`` and ``x.zero_()`` write this; the old values are gone, NaN included, and
    no gradient reaches them."""

    node_name = "FillBackward2"  # PyTorch: fill_ with a number (FillBackward3: a tensor)

    @staticmethod
    def forward(ctx, a, value):
        return np.full(a.shape, _dtype.checked_int(value, a.dtype), dtype=a.dtype)

    @staticmethod
    def backward(ctx, g):
        return make(np.zeros(g.shape, g._data.dtype), False, None)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = 0 (the output does not depend on a)."""
        return out * 0.0


class Zero(Fill):
    """``x.zero_()``: :class:`Fill` with 0, under PyTorch's own node name for it."""

    node_name = "ZeroBackward0"


class Copy(Op):
    """``src`` broadcast into ``a``'s shape and dtype: f(a, src) = src; grad_a = 0,
    grad_src = g summed back to src's shape and dtype (PyTorch's CopyBackwards)."""

    node_name = "CopyBackwards"

    @staticmethod
    def forward(ctx, a, src):
        ctx.src_meta = (src.shape, src.dtype)
        return np.array(np.broadcast_to(src, a.shape), dtype=a.dtype)

    @staticmethod
    def backward(ctx, g):
        shape, dtype = ctx.src_meta
        zeros = make(np.zeros(g.shape, g._data.dtype), False, None)
        return zeros, sum_to(g, shape, _dtype._FROM_NP[dtype])

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_src broadcast to the output (a's tangent does not count)."""
        ts = tangents[1]
        return out * 0.0 if ts is None else ts.expand(*out.shape).to(out.dtype)


def take_positions(t, idx: np.ndarray):
    """``t``'s elements at the flat C-order positions ``idx``, shaped as ``idx``: one GetItem
    by position in each dim (not a flattening reshape, then a GetItem: one op fewer each way,
    per write of a loop of recorded element writes, benchmarks/bench_loops.py)."""
    if t._data.ndim == 0:  # no dim to index by
        return t.reshape(-1)[idx]
    return GetItem.apply(t, key=np.unravel_index(idx, t._data.shape))


def view_index(base: np.ndarray, view: np.ndarray, repeats: bool = False) -> np.ndarray:
    """Flat C-order index into ``base`` of every element of ``view`` (which shares its memory);
    ``repeats``: the view may show an element several times (an expanded view, read only)."""
    start = view.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    voff = _offsets(view, start)
    if base.flags.c_contiguous:  # the common case: a byte offset is the flat index, scaled
        idx = voff // base.itemsize
        if not repeats and len(np.unique(idx)) != idx.size:
            raise RuntimeError(errors.INPLACE_OVERLAP)
        return idx.astype(np.int64)
    boff = _offsets(base, 0).reshape(-1)
    order = np.argsort(boff, kind="stable")
    pos = np.searchsorted(boff[order], voff)
    idx = order[np.clip(pos, 0, max(order.size - 1, 0))] if order.size else pos
    if idx.size and (boff[idx] != voff).any():
        raise RuntimeError("internal error: a view's elements are not all inside its base")
    if not repeats and len(np.unique(idx)) != idx.size:
        raise RuntimeError(errors.INPLACE_OVERLAP)
    return idx.astype(np.int64)


def _offsets(a: np.ndarray, start: int) -> np.ndarray:
    off = np.full(a.shape, start, dtype=np.int64)
    for k, (n, s) in enumerate(zip(a.shape, a.strides)):
        shape = [1] * a.ndim
        shape[k] = n
        off = off + (np.arange(n, dtype=np.int64) * s).reshape(shape)
    return off


def index_positions(shape: tuple, key) -> np.ndarray:
    """Flat indices of ``x[key]`` for a tensor of ``shape`` (repeats kept)."""
    return indexed(np.arange(math.prod(shape), dtype=np.int64).reshape(shape), key)
