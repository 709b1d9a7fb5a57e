"""The ops of sparse attention: ``SparseSampledAddmm`` (SDDMM) and the softmax over stored entries.

Attention over a sparse pattern is three steps, and each keeps to the pattern:

1. scores = ``sampled_addmm``: ``q @ k^T`` computed only at the pattern's stored entries,
   one dot product per entry (an SDDMM, the kernel ``sddmm`` that the masked gradient
   of ``sparse.mm`` already uses);
2. weights = ``softmax`` over each row's stored entries (unstored ones count as -inf,
   so an empty row stays empty);
3. out = ``sparse.mm(weights, v)``.

The gradients live on the pattern too: the gradient of the scores is a sparse tensor
with one value per stored entry, and the gradients of ``q`` and ``k`` are sparse @ dense
products. Nothing of size n x m is formed (n = 20,000 dense scores would take 1.6 GB
in float32; see benchmarks/bench_sparse_attention.py).

These backward formulas work on numpy arrays, so they can be differentiated once. Under
``create_graph=True`` their gradients carry a node that raises when a second backward
reaches it (PyTorch: "derivative for aten::_sparse_softmax_backward_data is not
implemented"), instead of second derivatives that would silently miss a path.
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import sparse_attention as errors
from ..formats import _kernels
from ..recording import grad_mode
from ..tensor import Tensor
from .ops_products import rows_cols, sddmm, sddmm_grads
from .tensor import SparseOp, _as_coo, _needs, coalesced_pattern, gather_at, make_sparse


# --- kernels (arrays in, arrays out) ------------------------------------------------------
def softmax_groups(fmt, dim: int) -> tuple[np.ndarray, int]:
    """``(group, n_groups)``: the group of every stored entry of a softmax along ``dim``.

    Entries whose indices differ only along ``dim`` share a group: for a matrix and
    ``dim=1`` the group is the row. Groups are numbered by the other indices; when there
    could be more groups than stored entries (many dims), the numbers are compacted, so
    the per-group arrays never outgrow the pattern.
    """
    if fmt.ndim == 2:
        group = rows_cols(fmt)[1 - dim]
        return group, fmt.shape[1 - dim]
    other = [d for d in range(fmt.sparse_dim) if d != dim]
    sizes = tuple(fmt.shape[d] for d in other)
    keys = _kernels.linear_keys(fmt.indices[other], sizes)
    if keys is None or math.prod(sizes) > fmt.nnz:
        columns = fmt.indices[other] if keys is None else keys
        _, group = np.unique(columns, axis=-1, return_inverse=True)
        group = group.reshape(-1)
        return group, int(group.max()) + 1 if len(group) else 0
    return keys, math.prod(sizes)


def group_max(x: np.ndarray, group: np.ndarray, n: int) -> np.ndarray:
    """The largest value of each group (-inf for an empty group)."""
    out = np.full(n, -np.inf, dtype=x.dtype)
    np.maximum.at(out, group, x)
    return out


def group_sum(x: np.ndarray, group: np.ndarray, n: int) -> np.ndarray:
    """The sum of each group (0 for an empty group)."""
    out = np.zeros(n, dtype=x.dtype)
    np.add.at(out, group, x)
    return out


def softmax_values(x: np.ndarray, group: np.ndarray, n: int, log: bool) -> np.ndarray:
    """Softmax (or log-softmax) of ``x`` within each group, stably: the group's max first.

    A group whose entries are all -inf gives NaN, as a dense softmax of a row of -inf.
    """
    work = x.astype(np.float32) if x.dtype == np.float16 else x  # float16 sums in float32
    shifted = work - group_max(work, group, n)[group]
    e = np.exp(shifted)
    total = group_sum(e, group, n)[group]
    out = shifted - np.log(total) if log else e / total
    return out.astype(x.dtype, copy=False)


def values_on(g: Tensor, pattern) -> np.ndarray:
    """The gradient ``g`` (dense or sparse) read at each stored entry of ``pattern``.

    The masked ops hand back their gradients on the very index arrays of their
    pattern; those values are read as they are, anything else is gathered.
    """
    if g.layout == pattern.layout:
        mine, theirs = pattern._index_arrays(), g._data._index_arrays()
        if all(a is b for a, b in zip(mine, theirs)):
            return g._data.values
    return gather_at(g, _as_coo(pattern))


# --- sampled_addmm -----------------------------------------------------------------------
class SparseSampledAddmm(SparseOp):
    """out = beta * input + alpha * (mat1 @ mat2), only at input's stored entries (SDDMM);
    grad_input = beta * G, grad_mat1 = alpha * G @ mat2^T, grad_mat2 = alpha * mat1^T @ G.

    ``G`` is the incoming gradient at the stored entries (a sparse matrix with input's
    pattern), so every gradient is a sparse @ dense product (``sddmm_grads``, shared with
    the masked gradient of ``sparse.mm``). ``torch.sparse.sampled_addmm``; the output has
    input's layout and its pattern, duplicates summed.
    """

    node_name = "SparseSampledAddmmBackward0"
    grad_semantics = "masked"
    save_inputs = True

    @staticmethod
    def forward(ctx, inp, mat1, mat2, beta, alpha):
        pattern = coalesced_pattern(inp)
        ctx.info = (pattern, beta, alpha)
        rows, cols = rows_cols(pattern)
        values = sddmm(rows, cols, mat1, mat2.T)  # one dot product per stored entry
        return pattern.with_values(alpha * values + beta * pattern.values)

    @staticmethod
    def backward(ctx, g):
        inp, mat1, mat2 = ctx.saved_tensors
        pattern, beta, alpha = ctx.info
        g_at = values_on(g, pattern)
        gi = make_sparse(pattern.with_values(beta * g_at)) if _needs(ctx, 0) else None
        w = make_sparse(pattern.with_values(alpha * g_at))
        g1, g2t = sddmm_grads(w, mat1, mat2.t(), _needs(ctx, 1), _needs(ctx, 2))
        g2 = None if g2t is None else g2t.t()
        name, what = "SparseSampledAddmmBackward0", "sparse.sampled_addmm"
        return first_order_only((gi, g1, g2), name, what, g, inp, mat1, mat2)


# --- softmax over stored entries ---------------------------------------------------------
def _softmax_forward(ctx, s, dim: int, log: bool):
    pattern = coalesced_pattern(s)  # duplicates summed first, as torch.sparse.softmax
    group, n = softmax_groups(pattern, dim)
    out = pattern.with_values(softmax_values(pattern.values, group, n, log))
    ctx.info = (out, dim)
    return out


def _softmax_grad(ctx, g, log: bool):
    (s,) = ctx.saved_tensors
    out, dim = ctx.info
    group, n = softmax_groups(out, dim)
    y, g_at = out.values, values_on(g, out).astype(out.values.dtype, copy=False)
    if log:  # y = x - logsumexp(x): grad_x = g - softmax(x) * sum(g)
        grad = g_at - np.exp(y) * group_sum(g_at, group, n)[group]
    else:  # y = softmax(x): grad_x = y * (g - sum(g * y))
        grad = y * (g_at - group_sum(g_at * y, group, n)[group])
    name = "SparseLogSoftmaxBackward0" if log else "SparseSoftmaxBackward0"
    what = "sparse.log_softmax" if log else "sparse.softmax"
    (out_grad,) = first_order_only((make_sparse(out.with_values(grad)),), name, what, g, s)
    return out_grad


class SparseSoftmax(SparseOp):
    """Softmax over the stored entries along ``dim``: y = exp(x - max) / sum(exp(x - max))
    per row (unstored entries count as -inf); grad_x = y * (g - sum(g * y)), on the pattern.

    ``torch.sparse.softmax``. The output and the gradient have the input's layout and its
    pattern, duplicates summed; a row without stored entries stays empty.
    """

    node_name = "SparseSoftmaxBackward0"
    grad_semantics = "masked"
    save_inputs = True

    @staticmethod
    def forward(ctx, s, dim):
        return _softmax_forward(ctx, s, dim, log=False)

    @staticmethod
    def backward(ctx, g):
        return _softmax_grad(ctx, g, log=False)


class SparseLogSoftmax(SparseOp):
    """Log-softmax over the stored entries along ``dim``: y = x - max - log(sum(exp(x - max)));
    grad_x = g - exp(y) * sum(g), on the pattern (``torch.sparse.log_softmax``)."""

    node_name = "SparseLogSoftmaxBackward0"
    grad_semantics = "masked"
    save_inputs = True

    @staticmethod
    def forward(ctx, s, dim):
        return _softmax_forward(ctx, s, dim, log=True)

    @staticmethod
    def backward(ctx, g):
        return _softmax_grad(ctx, g, log=True)


# --- once differentiable -----------------------------------------------------------------
class NotTwiceDifferentiable(SparseOp):
    """Passes a gradient through unchanged; its own backward raises.

    NB: PyTorch's ``once_differentiable`` wraps a backward's results the same way
    (a ``DelayedError`` node), so the error comes only if a second backward needs it.
    """

    @staticmethod
    def forward(ctx, grad, *deps, message):
        ctx.message = message
        return grad

    @staticmethod
    def backward(ctx, g):
        raise RuntimeError(ctx.message)


def first_order_only(grads: tuple, name: str, what: str, *deps: Tensor) -> tuple:
    """``grads`` as they are; under ``create_graph=True`` each one is tied (through a
    :class:`NotTwiceDifferentiable` node) to ``deps``, the tensors it was computed from,
    so differentiating it raises instead of giving a second derivative with a path missing."""
    if not grad_mode.state.enabled:  # the usual case: backward without create_graph
        return grads
    message = errors.NO_DOUBLE_BACKWARD.format(name=name, what=what)
    return tuple(
        None if g is None else NotTwiceDifferentiable.apply(g, *deps, message=message)
        for g in grads
    )
