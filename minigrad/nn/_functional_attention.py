"""``sparse_attention``: scaled dot-product attention over a sparse pattern, re-exported by
:mod:`minigrad.nn.functional`.

NB: PyTorch's dense counterpart is ``F.scaled_dot_product_attention(q, k, v, attn_mask)``
with a boolean mask; it forms the n x m score matrix (and its gradient), which this
never does. PyTorch Geometric's ``TransformerConv`` and DGL's ``edge_softmax`` are the same
computation on graphs.
"""

from __future__ import annotations

import math

import numpy as np

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


def scaled_dot_product_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    attn_mask: Tensor | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    scale: float | None = None,
    enable_gqa: bool = False,
) -> Tensor:
    """softmax(q k^T * scale + mask) v over the last two dims (``F.scaled_dot_product_attention``).

    Dense: the (L, S) score matrix is formed, as in PyTorch's math path (q and k are each
    scaled by sqrt(scale), scale = 1 / sqrt(E) by default). ``attn_mask`` is a bool mask
    (True: may attend) or a float one added to the scores; ``is_causal`` masks the upper
    triangle; ``dropout_p`` drops attention weights (PyTorch applies it always, not only
    in training: pass 0.0 in evaluation).

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> q = k = v = mg.eye(2).reshape(1, 2, 2)
        >>> F.scaled_dot_product_attention(q, k, v, is_causal=True)
        tensor([[[1.0000, 0.0000],
                 [0.3302, 0.6698]]])
    """
    from ._functional_layers import dropout  # noqa: PLC0415  (nn.functional imports this file)

    for name, t in (("query", query), ("key", key), ("value", value)):
        if not isinstance(t, Tensor):
            raise TypeError(
                f"scaled_dot_product_attention(): argument '{name}' must be Tensor, "
                f"not {type(t).__name__}"
            )
    if enable_gqa:
        raise NotImplementedError(
            "scaled_dot_product_attention(enable_gqa=True) is not in minigrad"
        )
    if is_causal and attn_mask is not None:
        raise RuntimeError(
            "_scaled_dot_product_attention: Explicit attn_mask should not be set when "
            "is_causal=True"
        )
    factor = math.sqrt(1.0 / math.sqrt(query.shape[-1]) if scale is None else scale)
    scores = (query * factor) @ (key.transpose(-2, -1) * factor)
    if is_causal:
        n, m = scores.shape[-2:]
        attn_mask = Tensor._make(np.tril(np.ones((n, m), dtype=bool)), False, None)
    if attn_mask is not None:
        if attn_mask.dtype.name == "bool":
            scores = scores.masked_fill(~attn_mask, float("-inf"))
        else:
            scores = scores + attn_mask
    weights = scores.softmax(-1)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p)
    return weights @ value
