"""Lookups whose gradient touches few rows: embedding, embedding_bag, index_select, gather.

Each lookup reads some entries of a big table; its gradient is a *scatter-add*
of the incoming gradient back to those entries. :class:`ScatterAdd` is that
gradient, in one of two forms:

* dense: a table-sized array of zeros with the gradient added at the entries
  (``F.embedding(..., sparse=False)``, ``index_select``, ``gather``), as PyTorch;
* sparse: a COO tensor that *lists* the entries and their gradients, duplicates
  and all, without summing or sorting them (``sparse=True`` / ``sparse_grad=True``).
  For an embedding table this is a row-sparse COO (sparse_dim 1, dense_dim 1):
  rows [1, 2, 1, 7] give indices ``[[1, 2, 1, 7]]`` and four gradient rows, nnz 4,
  uncoalesced. It costs ``n_lookups * (8 + 4 * D)`` bytes instead of ``4 * N * D``.

NB: PyTorch's ``embedding_dense_backward`` / ``embedding_sparse_backward`` are the
two forms of :class:`ScatterAdd` for an embedding table.
"""

from __future__ import annotations

import numpy as np

from ..errors import sparse_grad as errors
from ..formats import COO, _kernels
from ..ops._util import norm_dim
from ..tensor import Tensor, has_sparse_layout
from .ops_layout import Sample
from .tensor import SparseOp

# --- the gradient: scatter-add, dense or sparse -------------------------------------------------


class ScatterAdd(SparseOp):
    """Table-shaped gradient: f(g) = sum of g's rows at ``indices``; grad_g = gg at ``indices``.

    ``g`` has shape ``(*lead, *dense)`` and ``indices`` shape ``(k, prod(lead))``: one
    coordinate in the table's first ``k`` dims per leading position of ``g``. Positions
    where ``keep`` is False (padding) are dropped. ``sparse=True`` returns the COO that
    lists every kept position (uncoalesced, as PyTorch); otherwise a dense array.
    """

    @staticmethod
    def forward(ctx, g, indices, shape, keep, sparse):
        k = indices.shape[0]
        values = g.reshape((indices.shape[1],) + g.shape[g.ndim - (len(shape) - k) :])
        ctx.info = (g.shape, indices, shape, keep)  # every position, padding included
        if keep is not None:
            indices, values = indices[:, keep], values[keep]
        coo = COO._new(indices, values, shape, values.shape[0] <= 1)
        if sparse:
            return coo
        return _scatter_dense(coo)

    @staticmethod
    def backward(ctx, gg):
        gshape, indices, shape, keep = ctx.info
        coo = COO._new(indices, np.empty((indices.shape[1], 0)), shape[: indices.shape[0]], False)
        picked = Sample.apply(gg, fmt=coo)  # (positions, *dense): gg at each coordinate
        if keep is not None:  # padding positions get zeros (a constant mask keeps it linear)
            mask = keep.astype(picked._data.dtype).reshape((-1,) + (1,) * (picked.ndim - 1))
            picked = picked * Tensor._make(mask, False, None)
        return picked.reshape(*gshape)


def _scatter_dense(coo: COO) -> np.ndarray:
    """The dense sum of a COO's entries (duplicates added in input order)."""
    out = np.zeros(coo.shape, dtype=coo.values.dtype)
    if coo.nnz:
        c = coo.coalesce()
        out[tuple(c.indices)] = c.values
    return out


# --- lookups ------------------------------------------------------------------------------------


class Embedding(SparseOp):
    """out[...] = weight[input[...]]; grad_weight = ScatterAdd of g over the looked-up rows."""

    node_name = "EmbeddingBackward0"

    @staticmethod
    def forward(ctx, weight, input, padding_idx, sparse, by_freq):  # noqa: A002
        ctx.info = (input, weight.shape, padding_idx, sparse, by_freq)
        return np.take(weight, input, axis=0)

    @staticmethod
    def backward(ctx, g):
        input, shape, padding_idx, sparse, by_freq = ctx.info
        rows = input.reshape(1, -1)
        keep = None if padding_idx is None else rows[0] != padding_idx
        if keep is not None and keep.all():
            keep = None
        if by_freq:  # PyTorch's scale_grad_by_freq: each lookup's share of its row's count
            _, where, counts = np.unique(rows[0], return_inverse=True, return_counts=True)
            scale = (1.0 / counts[where]).astype(g._data.dtype).reshape(input.shape + (1,))
            g = g * Tensor._make(scale, False, None)
        return ScatterAdd.apply(g, indices=rows, shape=shape, keep=keep, sparse=sparse)


class IndexSelect(SparseOp):
    """out = input.take(index, dim); grad_input = index-add of g along ``dim`` (dense)."""

    @staticmethod
    def forward(ctx, a, dim, index):
        ctx.info = (a.shape, dim, index)
        return np.take(a, index, axis=dim)

    @staticmethod
    def backward(ctx, g):
        shape, dim, index = ctx.info
        if dim == 0:
            return ScatterAdd.apply(g, indices=index[None], shape=shape, keep=None, sparse=False)
        perm = [dim, *(d for d in range(len(shape)) if d != dim)]  # move dim to the front
        moved = g.permute(*perm)
        table = tuple(shape[d] for d in perm)
        grad = ScatterAdd.apply(moved, indices=index[None], shape=table, keep=None, sparse=False)
        return grad.permute(*[int(d) for d in np.argsort(perm)])

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule (linear in the input): the tangent's entries at the same indices."""
        return IndexSelect.apply(tangents[0], **params)


class Gather(SparseOp):
    """out[i][j] = input[i][index[i][j]] (dim 1); grad_input = ScatterAdd of g (dense or COO)."""

    @staticmethod
    def forward(ctx, a, coords, sparse):
        ctx.info = (a.shape, coords, sparse)
        return a[coords]

    @staticmethod
    def backward(ctx, g):
        shape, coords, sparse = ctx.info
        flat = np.stack([np.broadcast_to(c, g.shape).ravel() for c in coords]) if coords else None
        if flat is None:  # 0-d input
            return g
        return ScatterAdd.apply(g, indices=flat, shape=shape, keep=None, sparse=sparse)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule (a linear op): the tangent, gathered from the same places."""
        return Gather.apply(tangents[0], **params)


class BagReduce(SparseOp):
    """out[b] = sum (or max) of the rows of x in bag b; grad_x[i] = g[bag[i]] (max: where x[i] won).

    ``bags`` is the non-decreasing bag number of each row of ``x``; bags without
    rows give zeros, as PyTorch's ``embedding_bag``. In max mode each (bag, column)
    sends its gradient to the first row holding the maximum.
    """

    @staticmethod
    def forward(ctx, x, bags, n_bags, mode):
        out = np.zeros((n_bags,) + x.shape[1:], dtype=x.dtype)
        won = None
        if len(bags):
            starts = _kernels._starts_of_runs(bags)
            ufunc = np.maximum if mode == "max" else np.add
            out[bags[starts]] = ufunc.reduceat(x, starts, axis=0)
            if mode == "max":
                won = _first_max(x, out[bags], starts)
        ctx.info = (bags, won)
        return out

    @staticmethod
    def backward(ctx, g):
        bags, won = ctx.info
        picked = IndexSelect.apply(g, dim=0, index=bags)
        return picked if won is None else picked * Tensor._make(won, False, None)


def _first_max(x, best, starts):
    """1.0 where a row holds its bag's column maximum for the first time, else 0.0."""
    hit = x == best
    seen = np.cumsum(hit, axis=0)
    before = np.zeros_like(seen)
    before[starts[1:]] = seen[starts[1:] - 1]
    np.maximum.accumulate(before, axis=0, out=before)  # counts before each row's bag
    return (hit & (seen - before == 1)).astype(x.dtype)


# --- public functions ----------------------------------------------------------------------------


def embedding(
    input: Tensor,  # noqa: A002
    weight: Tensor,
    padding_idx: int | None = None,
    sparse: bool = False,
    scale_grad_by_freq: bool = False,
) -> Tensor:
    """Rows of ``weight`` picked by ``input``: the op behind ``F.embedding``.

    The output has shape ``(*input.shape, embedding_dim)``. The gradient of ``weight``
    is a scatter-add of the output gradient over the looked-up rows: a dense table
    (``sparse=False``) or a row-sparse COO listing one row per lookup
    (``sparse=True``; uncoalesced, padding rows left out). ``padding_idx`` rows get
    no gradient (they are not zeroed here: :class:`minigrad.nn.Embedding` does that).
    ``scale_grad_by_freq`` divides each lookup's gradient by how often its row occurs.
    """
    idx = checked_rows(input, weight)
    pad = padding_row(padding_idx, weight)
    return Embedding.apply(
        weight, input=idx, padding_idx=pad, sparse=bool(sparse), by_freq=bool(scale_grad_by_freq)
    )


def checked_rows(input, weight, op: str = "embedding") -> np.ndarray:  # noqa: A002
    """The int64 row numbers in ``input``, checked against a 2-D dense ``weight``."""
    _check_weight(weight)
    return _index_array(input, op, "indices", weight.shape[0], "weight (num_embeddings)")


def padding_row(padding_idx, weight) -> int | None:
    """``padding_idx`` as a row number in [0, num), negative ones counted from the end."""
    if padding_idx is None:
        return None
    num = weight.shape[0]
    if not -num <= padding_idx < num:
        raise ValueError(errors.PADDING_RANGE.format(got=padding_idx, num=num, hi=num - 1))
    return int(padding_idx) % num


def checked_offsets(offsets, n: int) -> np.ndarray:
    """``embedding_bag``'s offsets as int64: 1-D, starting at 0, non-decreasing, <= n."""
    if not isinstance(offsets, Tensor) or offsets.layout != "strided":
        got = type(offsets).__name__
        raise TypeError(errors.INDEX_NOT_TENSOR.format(op="embedding_bag", arg="offsets", got=got))
    if offsets.ndim != 1:
        raise ValueError(errors.BAG_OFFSETS_DIM.format(ndim=offsets.ndim))
    if offsets._data.dtype not in (np.int64, np.int32):
        raise TypeError(
            errors.INDEX_DTYPE.format(arg="offsets", dtype=offsets.dtype, op="embedding_bag")
        )
    bounds = offsets._data.astype(np.int64, copy=False)
    if len(bounds) and bounds[0] != 0:
        raise ValueError(errors.BAG_OFFSETS_START.format(got=int(bounds[0])))
    bad = np.flatnonzero((np.diff(bounds) < 0) | (bounds[1:] > n))
    if len(bad):
        i = int(bad[0]) + 1
        raise ValueError(
            errors.BAG_OFFSETS_ORDER.format(n=n, i=i, got=int(bounds[i]), prev=int(bounds[i - 1]))
        )
    return bounds


def index_select(input: Tensor, dim: int, index: Tensor) -> Tensor:  # noqa: A002
    """Entries of ``input`` along ``dim`` at the positions ``index`` (``torch.index_select``).

    The gradient of ``input`` is dense (index-add of the output gradient), as PyTorch's.

    Example:
        >>> import minigrad as mg
        >>> x = mg.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
        >>> y = x.index_select(0, mg.tensor([2, 0, 2]))
        >>> y.sum().backward()
        >>> x.grad
        tensor([[1., 1.],
                [0., 0.],
                [2., 2.]])
    """
    _check_dense(input, "index_select")
    d = norm_dim(dim, input.ndim)
    if isinstance(index, Tensor) and index.ndim > 1:
        raise IndexError(errors.INDEX_SELECT_VECTOR.format(shape=tuple(index.shape)))
    size = input.shape[d] if input.ndim else 1
    idx = _index_array(index, "index_select", "index", size, f"dimension {d} of input")
    if input.ndim == 0:
        if idx.size != 1:
            raise IndexError(errors.INDEX_SELECT_SCALAR.format(n=idx.size))
        return IndexSelect.apply(input.reshape(1), dim=0, index=idx.reshape(1)).reshape(())
    return IndexSelect.apply(input, dim=d, index=idx.reshape(-1))


def gather(input: Tensor, dim: int, index: Tensor, *, sparse_grad: bool = False) -> Tensor:  # noqa: A002
    """out[i][j][k] = input[i][index[i][j][k]][k] for dim=1 (``torch.gather``).

    ``index`` has input's number of dims and is no larger than input outside ``dim``.
    With ``sparse_grad=True`` the gradient of ``input`` is a COO listing every
    gathered coordinate with its gradient (uncoalesced), as PyTorch's.

    Example:
        >>> import minigrad as mg
        >>> x = mg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        >>> mg.gather(x, 1, mg.tensor([[0, 0], [1, 0]]))
        tensor([[1., 1.],
                [4., 3.]], grad_fn=<GatherBackward0>)
    """
    _check_dense(input, "gather")
    d = norm_dim(dim, input.ndim)
    idx = _gather_index(input, d, index)
    if input.ndim == 0:
        return Gather.apply(input, coords=(), sparse=bool(sparse_grad))
    coords = list(np.indices(idx.shape, sparse=True))
    coords[d] = idx
    return Gather.apply(input, coords=tuple(coords), sparse=bool(sparse_grad))


# --- validation -----------------------------------------------------------------------------------


def _index_array(index, op: str, arg: str, size: int, what: str) -> np.ndarray:
    """The int64 array of an index tensor, after checking its type, dtype and range."""
    if not isinstance(index, Tensor) or index.layout != "strided":
        raise TypeError(errors.INDEX_NOT_TENSOR.format(op=op, arg=arg, got=type(index).__name__))
    data = index._data
    if data.dtype not in (np.int64, np.int32):
        raise TypeError(errors.INDEX_DTYPE.format(arg=arg, dtype=index.dtype, op=op))
    if data.size:
        lo, hi = data.min(), data.max()
        if lo < 0 or hi >= size:
            bad = lo if lo < 0 else hi
            pos = [int(i) for i in np.unravel_index(int(np.argmax(data == bad)), data.shape)]
            raise IndexError(
                errors.INDEX_RANGE.format(
                    op=op, index=int(bad), pos=pos, arg=arg, what=what, size=size
                )
            )
    return data.astype(np.int64, copy=False)


def _gather_index(input, d: int, index) -> np.ndarray:  # noqa: A002
    if not isinstance(index, Tensor) or index.layout != "strided":
        raise TypeError(
            errors.INDEX_NOT_TENSOR.format(op="gather", arg="index", got=type(index).__name__)
        )
    if index.ndim != input.ndim:
        raise RuntimeError(errors.GATHER_NDIM.format(got=index.ndim, want=input.ndim))
    for k in range(input.ndim):
        if k != d and index.shape[k] > input.shape[k]:
            raise RuntimeError(
                errors.GATHER_SIZE.format(
                    k=k, index=list(index.shape), shape=list(input.shape), dim=d
                )
            )
    size = input.shape[d] if input.ndim else 1
    return _index_array(index, "gather", "index", size, f"dimension {d} of input")


def _check_weight(weight) -> None:
    if not isinstance(weight, Tensor):
        raise TypeError(errors.WEIGHT_NOT_TENSOR.format(got=type(weight).__name__))
    _check_dense(weight, "embedding")
    if weight.ndim != 2:
        raise RuntimeError(errors.WEIGHT_2D.format(shape=tuple(weight.shape)))


def _check_dense(t, op: str) -> None:
    if has_sparse_layout(t):
        raise NotImplementedError(t._no_kernel(op))
