"""Tensors built from others: ``logspace tensordot diag_embed diagflat tensor_split
block_diag cartesian_prod combinations vander`` (PyTorch names).

Each is a few lines of ops whose gradients are known (an index, a cat, a matmul, a cumprod),
so none needs a rule of its own; where PyTorch records one fused node (``DiagEmbedBackward0``,
``BlockDiagBackward0``) the last node here carries that name and the parts show beneath it
(docs/differences.md lists them).
"""

from __future__ import annotations

import functools
import itertools
import math
import operator

import numpy as np

from .. import _dtype
from ..errors import order_and_builders as _errors
from ..tensor import Tensor
from ._util import check_tensor, make, named, norm_dim
from .linalg import matmul
from .prod_and_scans import cumprod
from .select import GetItem, cat, stack


def logspace(
    start,
    end,
    steps: int,
    base: float = 10.0,
    *,
    dtype=None,
    device=None,
    requires_grad: bool = False,
) -> Tensor:
    """``steps`` powers of ``base`` with exponents evenly spaced from ``start`` to ``end``
    (``torch.logspace``). The exponents are PyTorch's (from each end towards the middle), the
    powers computed in float64 and rounded to ``dtype`` (float32: within 1 ulp of PyTorch's,
    whose vectorised pow rounds differently).

    Example:
        >>> import minigrad as mg
        >>> mg.logspace(0, 2, 3)
        tensor([  1.,  10., 100.])
    """
    if isinstance(steps, bool) or not hasattr(steps, "__index__"):
        raise TypeError(f"logspace(): argument 'steps' must be int, not {type(steps).__name__}")
    steps = operator.index(steps)
    if steps < 0:
        raise RuntimeError(_errors.STEPS_NEGATIVE.format(op="logspace"))
    d = _dtype.get_default_dtype() if dtype is None else _dtype.as_dtype(dtype)
    start, end = float(start), float(end)
    step = (end - start) / (steps - 1) if steps > 1 else 0.0
    i = np.arange(steps, dtype=np.float64)
    exponent = np.where(i < max(steps // 2, 1), start + step * i, end - step * (steps - 1 - i))
    out = np.power(float(base), exponent)
    if d.is_floating_point:
        return make(out.astype(d.np), requires_grad, None)
    return make(out.astype(np.int64).astype(d.np), False, None)  # PyTorch truncates


def tensordot(a, b, dims=2, out=None) -> Tensor:
    """The sum over the paired dims of ``a`` and ``b`` (``torch.tensordot``): ``dims`` an
    int n (a's last n with b's first n) or a pair of lists ``([a dims], [b dims])``.
    Permute, reshape to matrices, one matmul, reshape back.

    Example:
        >>> import minigrad as mg
        >>> mg.tensordot(mg.ones(2, 3), mg.ones(3, 4), dims=([1], [0]))
        tensor([[3., 3., 3., 3.],
                [3., 3., 3., 3.]])
    """
    check_tensor(a, "tensordot", "a", 1)
    check_tensor(b, "tensordot", "b", 2)
    if isinstance(dims, Tensor):
        dims = dims.tolist()
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(_errors.TENSORDOT_NEGATIVE.format(got=dims))
        da, db = list(range(a.ndim - dims, a.ndim)), list(range(dims))
    else:
        da, db = ([x] if isinstance(x, int) else list(x) for x in dims)
    if len(da) != len(db):
        raise RuntimeError(_errors.TENSORDOT_LENGTHS)
    da, db = [norm_dim(d, a.ndim) for d in da], [norm_dim(d, b.ndim) for d in db]
    for x, y in zip(da, db):
        if a.shape[x] != b.shape[y]:
            raise RuntimeError(
                _errors.TENSORDOT_SIZES.format(
                    sa=a.shape[x],
                    da=x - a.ndim if x >= a.ndim - len(da) else x,
                    sb=b.shape[y],
                    db=y,
                )
            )
    free_a = [d for d in range(a.ndim) if d not in da]
    free_b = [d for d in range(b.ndim) if d not in db]
    k = math.prod(a.shape[d] for d in da)
    left = a.permute(*free_a, *da).reshape(-1, k)
    right = b.permute(*db, *free_b).reshape(k, -1)
    return matmul(left, right).reshape(*[a.shape[d] for d in free_a], *[b.shape[d] for d in free_b])


def diag_embed(input, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:  # noqa: A002
    """Each vector along the last dim laid on the ``offset`` diagonal of the planes
    (``dim1``, ``dim2``) of a new tensor of zeros (``torch.diag_embed``): one index into the
    input with a zero appended, so each element's gradient is the gradient at its place.

    Example:
        >>> import minigrad as mg
        >>> mg.diag_embed(mg.tensor([1.0, 2.0]))
        tensor([[1., 0.],
                [0., 2.]])
    """
    check_tensor(input, "diag_embed")
    nd = input.ndim + 1
    d1, d2 = norm_dim(dim1, nd), norm_dim(dim2, nd)
    if d1 == d2:
        raise RuntimeError(_errors.DIAG_DIMS.format(d1=d1, d2=d2))
    x = input.reshape(1) if input.ndim == 0 else input
    n = x.shape[-1]
    m = n + abs(offset)
    index = np.full((m, m), n, dtype=np.int64)  # n: the appended zero
    k = np.arange(n)
    index[k + max(-offset, 0), k + max(offset, 0)] = k
    padded = cat([x, x.new_zeros(*x.shape[:-1], 1)], -1)
    out = GetItem.apply(padded, key=(Ellipsis, index))
    out = out.movedim((-2, -1), (d1, d2)) if (d1, d2) != (nd - 2, nd - 1) else out
    return named(out, "DiagEmbedBackward0")


def diagflat(input, offset: int = 0) -> Tensor:  # noqa: A002
    """The flattened ``input`` on the ``offset`` diagonal of a square matrix
    (``torch.diagflat``)."""
    check_tensor(input, "diagflat")
    return diag_embed(input.reshape(-1), offset)


def tensor_split(input, indices_or_sections, dim: int = 0) -> tuple:  # noqa: A002
    """Views of ``input`` split along ``dim`` (``torch.tensor_split``): into n pieces for an int
    n (the first ``size % n`` one longer), or at the given indices (a list, or a 0-d/1-d int
    tensor); indices past the end give empty pieces.

    Example:
        >>> import minigrad as mg
        >>> [t.tolist() for t in mg.tensor_split(mg.arange(7), 3)]
        [[0, 1, 2], [3, 4], [5, 6]]
    """
    check_tensor(input, "tensor_split")
    if input.ndim == 0:
        raise RuntimeError(_errors.SPLIT_0D.format(ndim=0))
    d = norm_dim(dim, input.ndim)
    n = input.shape[d]
    sections = indices_or_sections
    if isinstance(sections, Tensor):
        if sections.ndim > 1:
            raise RuntimeError(_errors.SPLIT_TENSOR_DIM.format(ndim=sections.ndim))
        if sections._data.dtype != np.int64:
            raise RuntimeError(_errors.SPLIT_TENSOR_DTYPE.format(got=_dtype.c_name(sections.dtype)))
        sections = sections.item() if sections.ndim == 0 else sections.tolist()
    if isinstance(sections, int) and not isinstance(sections, bool):
        if sections <= 0:
            raise RuntimeError(_errors.SPLIT_SECTIONS.format(got=sections))
        size, extra = divmod(n, sections)
        bounds = list(
            itertools.accumulate([size + (i < extra) for i in range(sections)], initial=0)
        )
    else:
        ends = [min(max(i + n if i < 0 else i, 0), n) for i in sections]
        bounds = [0, *ends, n]
    pieces = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        key = (slice(None),) * d + (slice(lo, max(hi, lo)),)
        pieces.append(input[key])
    return tuple(pieces)


def block_diag(*tensors) -> Tensor:
    """The tensors on the diagonal of a matrix of zeros, top left to bottom right
    (``torch.block_diag``); a 0-d tensor is a 1 x 1 block, a 1-D one a row.

    Example:
        >>> import minigrad as mg
        >>> mg.block_diag(mg.tensor([[1, 2]]), mg.tensor(3))
        tensor([[1, 2, 0],
                [0, 0, 3]])
    """
    blocks = []
    for i, t in enumerate(tensors):
        check_tensor(t, "block_diag", "tensors", i + 1)
        if t.ndim > 2:
            raise RuntimeError(_errors.BLOCK_DIAG_DIMS.format(i=i, ndim=t.ndim))
        blocks.append(t.reshape(1, -1) if t.ndim < 2 else t)
    if not blocks:
        return make(np.zeros((1, 0), _dtype.get_default_dtype().np), False, None)
    d = functools.reduce(_dtype.promote, (t.dtype for t in blocks))
    width = sum(t.shape[1] for t in blocks)
    rows, left = [], 0
    for t in blocks:
        t = t.to(d)
        h, w = t.shape
        parts = [t.new_zeros(h, left), t, t.new_zeros(h, width - left - w)]
        rows.append(cat(parts, 1))
        left += w
    return named(cat(rows, 0), "BlockDiagBackward0")


def _vector(t, op: str, i: int = 1) -> None:
    check_tensor(t, op, "tensors", i)
    if t.ndim != 1:
        raise RuntimeError(_errors.EXPECT_1D.format(shape=list(t.shape)))


def cartesian_prod(*tensors) -> Tensor:
    """Every combination of one element from each 1-D tensor, one per row, the last tensor
    varying fastest (``torch.cartesian_prod``); a single tensor is returned as it is."""
    for i, t in enumerate(tensors):
        _vector(t, "cartesian_prod", i + 1)
    if len(tensors) == 1:
        return tensors[0]
    grids = [
        t.reshape(*[-1 if k == j else 1 for k in range(len(tensors))])
        for j, t in enumerate(tensors)
    ]
    shape = [t.shape[0] for t in tensors]
    return stack([g.expand(*shape).reshape(-1) for g in grids], 1)


def combinations(input, r: int = 2, with_replacement: bool = False) -> Tensor:  # noqa: A002
    """The length-``r`` combinations of the 1-D ``input``'s elements, one per row, in
    ``itertools.combinations`` order (``torch.combinations``); with ``with_replacement`` an
    element may repeat.

    Example:
        >>> import minigrad as mg
        >>> mg.combinations(mg.tensor([1, 2, 3]))
        tensor([[1, 2],
                [1, 3],
                [2, 3]])
    """
    _vector(input, "combinations")
    if r < 0:
        raise RuntimeError(_errors.COMBINATIONS_R.format(got=r))
    if r == 0:
        return make(np.zeros(0, input._data.dtype), False, None)
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    index = np.array(list(pick(range(input.shape[0]), r)), dtype=np.int64).reshape(-1, r)
    return GetItem.apply(input, key=(index,))


def vander(x, N: int | None = None, increasing: bool = False) -> Tensor:  # noqa: N803
    """The Vandermonde matrix: column j is ``x ** (N - 1 - j)`` (``x ** j`` with
    ``increasing``) (``torch.vander``); built, as PyTorch builds it, as a cumulative product
    of ``[1, x, x, ...]``, which is its gradient too. Integers and bools give int64.

    Example:
        >>> import minigrad as mg
        >>> mg.vander(mg.tensor([1, 2, 3]))
        tensor([[1, 1, 1],
                [4, 2, 1],
                [9, 3, 1]])
    """
    check_tensor(x, "vander", "x")
    if x.ndim != 1:
        raise RuntimeError(_errors.VANDER_1D)
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError(_errors.VANDER_N)
    if not x.dtype.is_floating_point:
        x = x.to(_dtype.int64)
    if n == 0:
        return x.new_zeros(x.shape[0], 0)
    columns = cat([x.new_ones(x.shape[0], 1), x.unsqueeze(1).expand(x.shape[0], n - 1)], 1)
    out = cumprod(columns, 1)
    return out if increasing else out.flip(1)
