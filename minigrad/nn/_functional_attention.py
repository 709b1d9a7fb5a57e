"""``sparse_attention``: scaled dot-product attention over a sparse pattern, re-exported by
:mod:`minigrad.nn.functional`.

NB: PyTorch's dense counterpart is ``F.scaled_dot_product_attention(q, k, v, attn_mask)``
with a boolean mask; it forms the n x m score matrix (and its gradient), which this
never does. PyTorch Geometric's ``TransformerConv`` and DGL's ``edge_softmax`` are the same
computation on graphs.
"""

from __future__ import annotations

import math

from ..errors import sparse_attention as errors
from ..ops._util import is_scalar
from ..sparse import attention as _sp
from ..sparse.ops import SparseOpError
from ..sparse.ops import mm as sparse_mm
from ..tensor import Tensor


def _check(q: Tensor, k: Tensor, v: Tensor, pattern: Tensor, scale) -> None:
    op = "sparse_attention"
    for name, t, want in (("q", q, "n, d"), ("k", k, "m, d"), ("v", v, "m, dv")):
        if not isinstance(t, Tensor):
            raise TypeError(errors.NOT_TENSOR.format(op=op, arg=name, got=type(t).__name__))
        if t.layout != "strided":
            raise SparseOpError(errors.NEEDS_DENSE.format(op=op, arg=name, layout=t.layout))
        if t.ndim != 2:
            raise SparseOpError(
                errors.ATTN_NOT_2D.format(arg=name, want=want, shape=tuple(t.shape))
            )
    if q.shape[1] != k.shape[1]:
        what = f"q has d = {q.shape[1]} features per query but k has {k.shape[1]} per key"
        raise SparseOpError(errors.ATTN_SHAPES.format(what=what))
    if k.shape[0] != v.shape[0]:
        what = f"k has {k.shape[0]} keys but v has {v.shape[0]} values (one per key)"
        raise SparseOpError(errors.ATTN_SHAPES.format(what=what))
    _sp.need_sparse_matrix(op, pattern, "pattern", " (build one with mg.sparse_csr_tensor)")
    want = (q.shape[0], k.shape[0])
    if tuple(pattern.shape) != want:
        raise SparseOpError(errors.ATTN_PATTERN_SHAPE.format(got=tuple(pattern.shape), want=want))
    _sp.need_same_float_dtype(op, {"q": q, "k": k, "v": v})
    if scale is not None and not is_scalar(scale):
        raise TypeError(errors.ATTN_SCALE.format(got=type(scale).__name__))


def sparse_attention(
    q: Tensor, k: Tensor, v: Tensor, pattern: Tensor, scale: float | None = None
) -> Tensor:
    """Attention of each query over the keys its row of ``pattern`` stores, nothing else.

    ``out[i] = sum_j w[i, j] * v[j]`` over the stored ``(i, j)`` of ``pattern``, with
    ``w[i] = softmax_j(scale * q[i] . k[j])`` over those entries only. Three sparse steps,
    each on the pattern: :func:`minigrad.sparse.sampled_addmm` (the scores, one dot
    product per stored entry), :func:`minigrad.sparse.softmax` (per row) and
    :func:`minigrad.sparse.mm` (the weighted sum). A query whose row stores nothing gets a
    zero row. The gradients of q, k and v come from the same three ops, so nothing of size
    n x m is formed, forward or backward. First derivatives only (``create_graph=True``
    through it raises at the second backward, as PyTorch's sparse softmax does).

    Args:
        q: queries, dense (n, d).
        k: keys, dense (m, d).
        v: values, dense (m, dv); q, k, v of one floating-point dtype.
        pattern: a sparse (n, m) matrix (COO, CSR or CSC) whose stored entries say where
            query i attends: only their positions count. Their values are ignored (a
            stored 0 or False still attends) and get no gradient; duplicates count once.
            For an additive bias per entry, compose the three steps yourself:
            ``softmax(sampled_addmm(bias, q, k.t(), alpha=scale), 1)``.
        scale: the factor of the scores; ``1 / sqrt(d)`` when None (as PyTorch's
            ``scaled_dot_product_attention``).

    Returns:
        A dense (n, dv) tensor.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> q = mg.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
        >>> v = mg.tensor([[1.0, 0.0], [0.0, 2.0], [3.0, 3.0]])
        >>> pattern = mg.sparse_csr_tensor([0, 2, 3, 3], [0, 1, 2], [True, True, True], (3, 3))
        >>> F.sparse_attention(q, q, v, pattern, scale=0.0)  # equal weights; row 2 is empty
        tensor([[0.5000, 1.0000],
                [3.0000, 3.0000],
                [0.0000, 0.0000]])
    """
    _check(q, k, v, pattern, scale)
    d = q.shape[1]
    if scale is None:
        scale = 1.0 / math.sqrt(d) if d else 1.0
    where = _sp.pattern_structure(pattern, q.dtype)
    scores = _sp.sampled_addmm(where, q, k.t(), beta=0.0, alpha=scale)
    return sparse_mm(_sp.softmax(scores, dim=1), v)
