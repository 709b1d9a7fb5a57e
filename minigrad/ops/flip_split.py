"""Flips and splits: flip roll tril triu (copies that move or mask elements), and chunk split
narrow (views: slices of the input, built on :class:`~minigrad.ops.select.GetItem`).

Each moves gradients without arithmetic: flip's backward flips back, roll's rolls back by
the opposite shifts, tril's keeps the same triangle, and a slice's backward puts the
gradient back in its place among zeros (GetItem's).
"""

from __future__ import annotations

import math
import operator

import numpy as np

from ..errors import tensor_ops as _errors
from ..recording.function import Op
from ._util import norm_dim
from .select import GetItem


def _int(x, op: str, name: str) -> int:
    """A Python int (anything with ``__index__``, not a bool or a float)."""
    if isinstance(x, bool) or not hasattr(x, "__index__"):
        raise TypeError(_errors.INT_ARG.format(op=op, name=name, got=type(x).__name__))
    return operator.index(x)


def _int_seq(x, op: str, name: str) -> tuple:
    """An int or a sequence of ints as a tuple of ints."""
    if isinstance(x, (tuple, list)):
        return tuple(_int(v, op, name) for v in x)
    return (_int(x, op, name),)


class Flip(Op):
    """Reverse the order along ``dims``: a copy (PyTorch's flip copies); grad = g flipped."""

    saved_values = {"dims": lambda ctx: ctx.dims}

    @staticmethod
    def forward(ctx, a, dims):
        ctx.dims = dims
        return np.flip(a, dims).copy() if dims else a.copy()

    @staticmethod
    def backward(ctx, g):
        return Flip.apply(g, dims=ctx.dims)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule (linear op): t_out = t_a flipped the same way."""
        return Flip.apply(tangents[0], **params)


def flip(a, dims):
    """Reverse the order of elements along ``dims`` (a tuple or list of ints) (``torch.flip``).

    Example:
        >>> import minigrad as mg
        >>> mg.flip(mg.tensor([[1, 2], [3, 4]]), (1,))
        tensor([[2, 1],
                [4, 3]])
    """
    if not isinstance(dims, (tuple, list)):
        raise TypeError(_errors.DIMS_TYPE.format(op="flip", got=type(dims).__name__))
    norm = [norm_dim(_int(d, "flip", "dims"), a.ndim) for d in dims]
    for d in norm:
        if norm.count(d) > 1:
            raise RuntimeError(_errors.DIMS_REPEATED.format(dim=d))
    return Flip.apply(a, dims=tuple(sorted(norm)) if a.ndim else ())


class Roll(Op):
    """Shift elements along ``dims`` (or the flattened tensor), wrapping around;
    grad = g rolled back by the opposite shifts."""

    saved_values = {"shifts": lambda ctx: ctx.shifts, "dims": lambda ctx: ctx.dims}

    @staticmethod
    def forward(ctx, a, shifts, dims):
        ctx.shifts, ctx.dims = shifts, dims
        if dims is None:
            return np.roll(a, shifts[0]) if a.size else a.copy()
        return np.roll(a, shifts, axis=dims)

    @staticmethod
    def backward(ctx, g):
        return Roll.apply(g, shifts=tuple(-s for s in ctx.shifts), dims=ctx.dims)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule (linear op): t_out = t_a rolled the same way."""
        return Roll.apply(tangents[0], **params)


def roll(a, shifts, dims=None):
    """Roll elements by ``shifts`` along ``dims``; with no dims, over the flattened tensor
    (its shape is kept) (``torch.roll``). ``shifts`` and ``dims``: ints or tuples of ints
    of the same length."""
    sh = _int_seq(shifts, "roll", "shifts")
    ds = () if dims is None else _int_seq(dims, "roll", "dims")
    if not ds:
        if len(sh) != 1:
            raise RuntimeError(_errors.ROLL_ALIGN.format(shifts=len(sh), dims=0))
        return Roll.apply(a, shifts=sh, dims=None)
    if len(sh) != len(ds):
        raise RuntimeError(_errors.ROLL_ALIGN.format(shifts=len(sh), dims=len(ds)))
    if a.ndim == 0:
        raise IndexError(_errors.ROLL_0D_DIM.format(dim=ds[0]))
    return Roll.apply(a, shifts=sh, dims=tuple(norm_dim(d, a.ndim) for d in ds))


class Tril(Op):
    """Lower triangle of the last two dims (on and below ``diagonal``), zeros elsewhere;
    grad = the same triangle of g."""

    saved_values = {"diagonal": lambda ctx: ctx.k}
    keep = staticmethod(np.tril)

    @classmethod
    def forward(cls, ctx, a, diagonal):
        ctx.k = diagonal
        return cls.keep(a, diagonal)

    @classmethod
    def backward(cls, ctx, g):
        return cls.apply(g, diagonal=ctx.k)

    @classmethod
    def jvp(cls, params, inputs, tangents, out):
        """Forward rule (linear op): t_out = the same triangle of t_a."""
        return cls.apply(tangents[0], **params)


class Triu(Tril):
    """Upper triangle of the last two dims (on and above ``diagonal``), zeros elsewhere."""

    keep = staticmethod(np.triu)


def _triangle(cls, a, diagonal, op):
    if a.ndim < 2:
        raise RuntimeError(_errors.TRI_2D.format(op=op))
    return cls.apply(a, diagonal=_int(diagonal, op, "diagonal"))


def tril(a, diagonal: int = 0):
    """Lower triangle of a matrix (or batch of matrices), the rest zeros (``torch.tril``);
    ``diagonal`` > 0 keeps diagonals above the main one, < 0 drops some below it."""
    return _triangle(Tril, a, diagonal, "tril")


def triu(a, diagonal: int = 0):
    """Upper triangle of a matrix (or batch of matrices), the rest zeros (``torch.triu``)."""
    return _triangle(Triu, a, diagonal, "triu")


# --- diagonals: diagonal (a view), diag ---------------------------------------------------------


class SplitSlice(GetItem):
    """One piece of ``split(int)`` / ``chunk``: a view (GetItem, PyTorch's SplitBackward0).

    A piece that is the whole tensor (``x.chunk(2)`` of one row) passes its gradient on as
    it is, as PyTorch's: a sparse gradient stays sparse (``sparse/formulas.py``)."""

    node_name = "SplitBackward0"

    @staticmethod
    def backward(ctx, g):
        shape, _ = ctx.info
        return g if tuple(g.shape) == tuple(shape) else GetItem.backward(ctx, g)


class SplitWithSizesSlice(SplitSlice):
    """One piece of ``split(list of sizes)``: a view (PyTorch's SplitWithSizesBackward0)."""

    node_name = "SplitWithSizesBackward0"


class NarrowSlice(GetItem):
    """``narrow``'s view: a slice along one dim (PyTorch's SliceBackward0)."""

    node_name = "SliceBackward0"


class UnbindSelect(GetItem):
    """One piece of ``unbind``: the view ``a[..., i, ...]`` (PyTorch's UnbindBackward0)."""

    node_name = "UnbindBackward0"


def _pieces(a, dim: int, sizes, op_cls) -> tuple:
    out, start = [], 0
    for n in sizes:
        key = (slice(None),) * dim + (slice(start, start + n), Ellipsis)
        out.append(op_cls.apply(a, key=key))
        start += n
    return _multi_output(out, op_cls)


def _multi_output(pieces, op_cls) -> tuple:
    """Mark each piece as one output of a multi-output view op: PyTorch refuses to modify
    such a piece in place while it records the graph (``_tensor_inplace_methods``), since the op's
    backward is one node for all pieces."""
    op = op_cls.node_name.removesuffix("Backward0")  # the op as PyTorch names it: "Split"
    for i, piece in enumerate(pieces):
        if piece._is_view:
            piece._creation = (op, i)
            piece._made_at = piece._version  # (autograd.node.gradient_edge)
    return tuple(pieces)


def unbind(a, dim: int = 0) -> tuple:
    """The slices along ``dim``, that dim removed, as views (``torch.unbind``).

    Example:
        >>> import minigrad as mg
        >>> [p.tolist() for p in mg.tensor([[1, 2], [3, 4]]).unbind(1)]
        [[1, 3], [2, 4]]
    """
    if a.ndim == 0:
        raise IndexError(_errors.UNBIND_0D)
    d = norm_dim(dim, a.ndim)
    keys = [(slice(None),) * d + (i, Ellipsis) for i in range(a.shape[d])]
    return _multi_output([UnbindSelect.apply(a, key=k) for k in keys], UnbindSelect)


def split(a, split_size_or_sections, dim: int = 0) -> tuple:
    """Split into pieces of ``split_size_or_sections`` along ``dim`` (the last may be
    smaller), or into pieces of the sizes in a list (they must add up to the dim's size)
    (``torch.split``). The pieces are views: gradients flow back into the input.

    Example:
        >>> import minigrad as mg
        >>> [p.shape for p in mg.arange(5).split(2)]
        [minigrad.Size([2]), minigrad.Size([2]), minigrad.Size([1])]
    """
    if a.ndim == 0:
        raise RuntimeError(_errors.NEED_1D.format(op="split"))
    d = norm_dim(dim, a.ndim)
    n = a.shape[d]
    if isinstance(split_size_or_sections, (tuple, list)):
        sizes = [_int(s, "split", "split_size_or_sections") for s in split_size_or_sections]
        if any(s < 0 for s in sizes):
            raise RuntimeError(_errors.SPLIT_SIZES_NEGATIVE.format(sizes=sizes))
        if sum(sizes) != n:
            raise RuntimeError(_errors.SPLIT_SIZES_SUM.format(n=n, dim=d, sizes=sizes))
        return _pieces(a, d, sizes, SplitWithSizesSlice)
    if isinstance(split_size_or_sections, bool) or not hasattr(split_size_or_sections, "__index__"):
        got = type(split_size_or_sections).__name__
        raise TypeError(_errors.SPLIT_TYPE.format(got=got))
    size = operator.index(split_size_or_sections)
    if size < 0:
        raise RuntimeError(_errors.SPLIT_NEGATIVE.format(got=size))
    if size == 0 and n:
        raise RuntimeError(_errors.SPLIT_ZERO.format(n=n))
    count = max(math.ceil(n / size), 1) if size else 1
    sizes = [size] * (count - 1) + [n - size * (count - 1)]
    return _pieces(a, d, sizes, SplitSlice)


def chunk(a, chunks: int, dim: int = 0) -> tuple:
    """Split into ``chunks`` pieces along ``dim``, each of size ceil(n / chunks) but the last
    (so there may be fewer than ``chunks``) (``torch.chunk``); views, as split's."""
    chunks = _int(chunks, "chunk", "chunks")
    if a.ndim == 0:
        raise RuntimeError(_errors.NEED_1D.format(op="chunk"))
    if chunks <= 0:
        raise RuntimeError(_errors.CHUNK_POSITIVE.format(got=chunks))
    d = norm_dim(dim, a.ndim)
    n = a.shape[d]
    if n == 0:  # PyTorch: ``chunks`` empty pieces
        return _pieces(a, d, [0] * chunks, SplitWithSizesSlice)
    return split(a, math.ceil(n / chunks), d)


def narrow(a, dim: int, start, length: int):
    """The view ``a[..., start:start + length, ...]`` along ``dim`` (``torch.narrow``);
    ``start`` may be negative (counted from the end) or a 0-d integer tensor."""
    if a.ndim == 0:
        raise RuntimeError(_errors.NARROW_0D)
    d = norm_dim(dim, a.ndim)
    start, length = _int(start, "narrow", "start"), _int(length, "narrow", "length")
    n = a.shape[d]
    if length < 0:
        raise RuntimeError(_errors.NARROW_LENGTH)
    if not -n <= start <= n:
        raise IndexError(_errors.NARROW_START.format(lo=-n, hi=n, got=start))
    if start < 0:
        start += n
    if start + length > n:
        raise RuntimeError(_errors.NARROW_END.format(start=start, length=length, n=n))
    key = (slice(None),) * d + (slice(start, start + length), Ellipsis)
    return NarrowSlice.apply(a, key=key)
