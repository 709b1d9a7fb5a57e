"""Diagonals: ``diagonal`` (a view of a matrix's diagonal, written through as PyTorch's) and
``diag`` (a vector's diagonal matrix, or a matrix's diagonal as a copy).
"""

from __future__ import annotations

import numpy as np

from ..recording.function import Op
from ._util import norm_dim
from .flip_split import _int


class Diagonal(Op):
    """The diagonal at ``offset`` of the planes (dim1, dim2), as a view (PyTorch's is one too):
    those two dims go, the diagonal is the new last dim. grad: g put back on that diagonal
    among zeros (:class:`DiagonalGrad`)."""

    view = True
    saved_values = {"offset": lambda ctx: ctx.where[0], "dim1": lambda ctx: ctx.where[1]}

    @staticmethod
    def forward(ctx, a, offset, dim1, dim2):
        ctx.shape, ctx.where = a.shape, (offset, dim1, dim2)
        out = np.diagonal(a, offset, dim1, dim2)
        if a.flags.writeable:  # numpy hands out a read-only view; PyTorch's can be written
            out.flags.writeable = True
        return out

    @staticmethod
    def backward(ctx, g):
        offset, dim1, dim2 = ctx.where
        return DiagonalGrad.apply(g, shape=ctx.shape, offset=offset, dim1=dim1, dim2=dim2)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule (linear op): t_out = the same diagonal of t_a."""
        return Diagonal.apply(tangents[0], **params)


class DiagonalGrad(Op):
    """Diagonal's backward: zeros of the input's shape with g on the diagonal; its own
    backward takes that diagonal again."""

    node_name = "DiagonalBackwardBackward0"

    @staticmethod
    def forward(ctx, g, shape, offset, dim1, dim2):
        ctx.where = (offset, dim1, dim2)
        out = np.zeros(shape, g.dtype)
        view = np.diagonal(out, offset, dim1, dim2)
        view.flags.writeable = True
        view[...] = g
        return out

    @staticmethod
    def backward(ctx, gg):
        offset, dim1, dim2 = ctx.where
        return Diagonal.apply(gg, offset=offset, dim1=dim1, dim2=dim2)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule (linear op): the same placement of t_g."""
        return DiagonalGrad.apply(tangents[0], **params)


def diagonal(input, offset: int = 0, dim1: int = 0, dim2: int = 1):  # noqa: A002  (PyTorch's names)
    """The diagonal of each (dim1, dim2) plane, as a view, in a new last dim (``torch.diagonal``);
    ``offset`` > 0 is above the main diagonal, < 0 below.

    Example:
        >>> import minigrad as mg
        >>> mg.diagonal(mg.tensor([[1, 2, 3], [4, 5, 6]]), 1)
        tensor([2, 6])
    """
    offset = _int(offset, "diagonal", "offset")
    d1 = norm_dim(_int(dim1, "diagonal", "dim1"), input.ndim)
    d2 = norm_dim(_int(dim2, "diagonal", "dim2"), input.ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return Diagonal.apply(input, offset=offset, dim1=d1, dim2=d2)


class DiagEmbed(Op):
    """A vector laid on the diagonal at ``offset`` of a square matrix of zeros (``diag`` of a
    1-D tensor); grad: that diagonal of g."""

    saved_values = {"offset": lambda ctx: ctx.offset}

    @staticmethod
    def forward(ctx, v, offset):
        ctx.offset = offset
        n = v.shape[0] + abs(offset)
        out = np.zeros((n, n), v.dtype)
        view = np.diagonal(out, offset)
        view.flags.writeable = True
        view[...] = v
        return out

    @staticmethod
    def backward(ctx, g):
        return Diagonal.apply(g, offset=ctx.offset, dim1=0, dim2=1).clone()

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule (linear op): the tangent laid on the same diagonal."""
        return DiagEmbed.apply(tangents[0], **params)


def diag(input, diagonal: int = 0):  # noqa: A002
    """``torch.diag``: a 1-D input becomes a square matrix with it on the ``diagonal``-th
    diagonal; a 2-D input gives that diagonal as a new 1-D tensor (a copy, not a view).

    Example:
        >>> import minigrad as mg
        >>> mg.diag(mg.tensor([1, 2]))
        tensor([[1, 0],
                [0, 2]])
    """
    k = _int(diagonal, "diag", "diagonal")
    if input.ndim == 1:
        return DiagEmbed.apply(input, offset=k)
    if input.ndim == 2:
        # PyTorch records one node, DiagonalBackward0_copy; here the view's and the copy's
        return Diagonal.apply(input, offset=k, dim1=0, dim2=1).clone()
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {input.ndim}D")


# --- slices: chunk, split, narrow ---------------------------------------------------------------
