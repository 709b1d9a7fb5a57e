"""The ops of submanifold sparse convolution (spconv's ``SubMConv2d``), forward beside backward.

The input is a *hybrid* COO tensor: the spatial dims are sparse, the channel dim is dense,
shape ``(H, W, C)`` (or ``(N, H, W, C)`` with a batch dim; ``(D, H, W, C)`` in 3-D). Its
stored entries are the *active sites*, each with a vector of ``C`` channel values. The
output has exactly the same active sites (that is "submanifold": the pattern does not
dilate layer after layer), with::

    out[p] = bias + sum over offsets o with p + o active of  W[:, :, r + o] @ x[p + o]

``W`` is laid out as PyTorch's conv weight, ``(out_channels, in_channels, kH, kW)``, and
applied as a cross-correlation, so at the active sites the result equals
``torch.nn.functional.conv2d(dense_x, W, bias, padding=k // 2)`` of the zero-filled input.
Nothing of the size of the grid is ever formed.

Each op here is a loop over the kernel offsets of the rule book
(:mod:`minigrad.sparse.conv_rules`): gather input rows, one matrix product, scatter-add
into output rows. Their gradients are the same loops with roles swapped:

* ``SubMConv``            y[out] += x[in] @ W_o^T          (the convolution)
* ``SubMConvTranspose``   z[in]  += u[out] @ W_o           (the rule book read backwards)
* ``SubMConvWeight``      G_o     = a[out]^T @ b[in]       (summed outer products)

The gradient of the convolution's input is its transpose (the flipped kernel), that of
its weight is ``SubMConvWeight(g, x)``, that of its bias the sum of ``g`` over the sites;
each of these is again one of the three, so gradients of gradients work too. The input's
gradient is sparse, on the input's pattern: ``torch.sparse``'s masked semantics.
"""

from __future__ import annotations

import numpy as np

from ..formats import COO
from ..tensor import Tensor
from .conv_rules import RuleBook
from .ops_layout import mask_to
from .tensor import SparseOp, _needs


# --- kernels: one matrix product per kernel offset -------------------------------------------
def taps(weight: np.ndarray) -> np.ndarray:
    """``W`` (out, in, *window) as ``K`` matrices ``(K, out, in)``, offsets in row-major order."""
    return np.moveaxis(weight.reshape(weight.shape[0], weight.shape[1], -1), 2, 0)


def scatter_products(values, mats, src_rows, dst_rows, n_out: int) -> np.ndarray:
    """``out[dst[k]] += values[src[k]] @ mats[k]`` for every offset ``k``: (n_out, mats.shape[2]).

    Within one offset no destination row repeats (see conv_rules), so ``+=`` is exact.
    """
    out = np.zeros((n_out, mats.shape[2]), dtype=values.dtype)
    for mat, src, dst in zip(mats, src_rows, dst_rows):
        if len(src):
            out[dst] += values[src] @ mat
    return out


def on_pattern(g: Tensor, coo: COO) -> Tensor:
    """The incoming gradient as a sparse tensor on ``coo``'s pattern.

    It usually arrives so (``values()``, ``sparse.sum``, ``to_dense()`` send it back on the
    output's own indices); a dense one (``out.sum()``'s full gradient) is read at the
    active sites only, since the output has no other entries.
    """
    return mask_to(g, coo)  # g itself when it is on these very indices


def _out_coo(pattern: COO, values: np.ndarray) -> COO:
    """A COO with ``pattern``'s sites (its indices array, shared) and new channel values.

    Flagged coalesced: a rule book is only built on sorted, unique sites (``conv._coalesced``
    checks them, whatever the input's flag says).
    """
    shape = tuple(pattern.shape[:-1]) + (values.shape[1],)
    return COO._new(pattern.indices, values, shape, True)


# --- ops ----------------------------------------------------------------------------------
class SubMConv(SparseOp):
    """Submanifold conv: y[p] = b + sum_o W_o @ x[p + o] over active p + o;
    grad_x = SubMConvTranspose(g, W), grad_W = SubMConvWeight(g, x), grad_b = sum_p g[p].

    ``x`` is a coalesced hybrid COO (sites, channels); ``rules`` its rule book. grad_x is
    sparse with x's pattern (masked), grad_W and grad_b dense.
    """

    node_name = "SubMConvBackward0"
    grad_semantics = "masked"
    save_inputs = True

    @staticmethod
    def forward(ctx, x, weight, *bias, rules: RuleBook):
        ctx.rules = rules
        mats = taps(weight).transpose(0, 2, 1)  # (K, in, out): x rows @ W_o^T
        out = scatter_products(x.values, mats, rules.inputs, rules.outputs, x.nnz)
        if bias:
            out += bias[0]
        return _out_coo(x, out)

    @staticmethod
    def backward(ctx, g):
        x, weight, *bias = ctx.saved_tensors
        rules = ctx.rules
        g = on_pattern(g, x._data)
        gx = SubMConvTranspose.apply(g, weight, rules=rules) if _needs(ctx, 0) else None
        gw = None
        if _needs(ctx, 1):
            gw = SubMConvWeight.apply(g, x, rules=rules, window=weight.shape[2:])
        if not bias:
            return gx, gw
        return gx, gw, g._values().sum(0) if _needs(ctx, 2) else None


class SubMConvTranspose(SparseOp):
    """Transposed submanifold conv: z[in] += u[out] @ W_o for each pair at each offset o;
    grad_u = SubMConv(g, W), grad_W = SubMConvWeight(u, g).

    It is the gradient of :class:`SubMConv` w.r.t. its input (the conv with the flipped,
    transposed kernel), and a linear op of its own: u has out_channels, z in_channels.
    """

    node_name = "SubMConvTransposeBackward0"
    grad_semantics = "masked"
    save_inputs = True

    @staticmethod
    def forward(ctx, u, weight, rules: RuleBook):
        ctx.rules = rules
        out = scatter_products(u.values, taps(weight), rules.outputs, rules.inputs, u.nnz)
        return _out_coo(u, out)

    @staticmethod
    def backward(ctx, g):
        u, weight = ctx.saved_tensors
        rules = ctx.rules
        g = on_pattern(g, u._data)
        gu = SubMConv.apply(g, weight, rules=rules) if _needs(ctx, 0) else None
        gw = None
        if _needs(ctx, 1):
            gw = SubMConvWeight.apply(u, g, rules=rules, window=weight.shape[2:])
        return gu, gw


class SubMConvWeight(SparseOp):
    """Weight gradient: G[:, :, o] = sum over pairs of a[out] outer b[in];
    grad_a = SubMConv(b, gg), grad_b = SubMConvTranspose(a, gg).

    ``a`` (out_channels) lives on the output rows, ``b`` (in_channels) on the input rows
    of each pair; for the conv's weight, a is the incoming gradient and b the input.
    """

    node_name = "SubMConvWeightBackward0"
    save_inputs = True

    @staticmethod
    def forward(ctx, a, b, rules: RuleBook, window: tuple):
        ctx.rules = rules
        grad = np.zeros((len(rules.inputs), a.values.shape[1], b.values.shape[1]), a.values.dtype)
        for k, (src, dst) in enumerate(zip(rules.inputs, rules.outputs)):
            if len(src):
                grad[k] = a.values[dst].T @ b.values[src]
        return np.moveaxis(grad, 0, 2).reshape(grad.shape[1:] + tuple(window))

    @staticmethod
    def backward(ctx, gg):
        a, b = ctx.saved_tensors
        rules = ctx.rules
        ga = SubMConv.apply(b, gg, rules=rules) if _needs(ctx, 0) else None
        gb = SubMConvTranspose.apply(a, gg, rules=rules) if _needs(ctx, 1) else None
        return ga, gb
