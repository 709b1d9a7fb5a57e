"""Graph convolution: ``GCNConv`` and the normalised adjacency ``gcn_norm`` (Kipf & Welling).

NB: the analogous layer in PyTorch Geometric is ``torch_geometric.nn.GCNConv``, and
``gcn_norm`` is named after ``torch_geometric.nn.conv.gcn_conv.gcn_norm``. Here the
normalised adjacency is an explicit sparse matrix, built once and passed to the layer,
so a student can look at it (``adj.to_dense()``) and at its gradient.
"""

from __future__ import annotations

import math

import numpy as np

from ...errors import sparse_grad as errors
from ...factory import ones
from ...ops.select import cat, where
from ...sparse.construct import sparse_coo_tensor
from ...sparse.ops import mm as sparse_mm
from ...tensor import Tensor, has_sparse_layout
from .. import init
from .linear import Linear

_LAYOUTS = ("sparse_csr", "sparse_coo", "sparse_csc")


def _edge_index(edge_index, num_nodes: int, op: str = "gcn_norm") -> np.ndarray:
    ei = np.asarray(edge_index._data if isinstance(edge_index, Tensor) else edge_index)
    if ei.size == 0 and ei.ndim == 2 and ei.shape[0] == 2:
        return ei.astype(np.int64)
    if ei.ndim != 2 or ei.shape[0] != 2 or ei.dtype.kind not in "iu":
        what = f"shape {tuple(ei.shape)} and dtype {ei.dtype}"
        raise ValueError(errors.GCN_EDGE_INDEX.format(op=op, what=what))
    bad = ei[(ei < 0) | (ei >= num_nodes)]
    if bad.size:
        last = num_nodes - 1
        raise ValueError(
            errors.GCN_EDGE_RANGE.format(op=op, got=int(bad[0]), n=num_nodes, last=last)
        )
    return ei.astype(np.int64, copy=False)


def _edge_weight(edge_weight, n_edges: int) -> Tensor:
    if edge_weight is None:
        return ones(n_edges)
    w = edge_weight if isinstance(edge_weight, Tensor) else Tensor(edge_weight)
    if w.shape != (n_edges,):
        raise ValueError(errors.GCN_WEIGHT_SHAPE.format(e=n_edges, shape=tuple(w.shape)))
    return w


def gcn_norm(
    edge_index,
    num_nodes: int,
    edge_weight=None,
    add_self_loops: bool = True,
    *,
    layout: str = "sparse_csr",
) -> Tensor:
    """The GCN adjacency ``D^-1/2 (A + I) D^-1/2`` as a sparse (num_nodes, num_nodes) matrix.

    Entry ``(i, j)`` is the weight of edge ``j -> i``: ``edge_index[0]`` holds sources,
    ``edge_index[1]`` targets, and ``D`` the (weighted) in-degrees, so ``adj @ x``
    sums over each node's incoming neighbours, as PyTorch Geometric's ``GCNConv``
    (``flow="source_to_target"``). For an undirected graph (both directions listed)
    the matrix is symmetric. Duplicate edges add up; a node of degree 0 gets a zero row.

    Args:
        edge_index: integer array-like of shape (2, num_edges).
        num_nodes: number of nodes n.
        edge_weight: optional (num_edges,) weights; a Tensor that requires grad makes
            the result differentiable w.r.t. it (learnable edge weights; the gradient
            flows through the degrees too).
        add_self_loops: add ``I``: a self loop of weight 1 for every node that has none
            (existing self loops are kept as they are, as PyG's
            ``add_remaining_self_loops``).
        layout: ``"sparse_csr"`` (default, fastest for ``adj @ x``), ``"sparse_coo"``
            or ``"sparse_csc"``.

    Example:
        >>> import minigrad as mg
        >>> adj = mg.nn.gcn_norm([[0, 1], [1, 0]], num_nodes=2)   # one undirected edge
        >>> adj.to_dense()
        tensor([[0.5000, 0.5000],
                [0.5000, 0.5000]])
    """
    if layout not in _LAYOUTS:
        raise ValueError(errors.GCN_LAYOUT.format(got=layout))
    src, dst = _edge_index(edge_index, num_nodes)
    w = _edge_weight(edge_weight, len(src))
    if add_self_loops:
        has_loop = np.zeros(num_nodes, dtype=bool)
        has_loop[src[src == dst]] = True
        loops = np.flatnonzero(~has_loop)
        src, dst = np.concatenate([src, loops]), np.concatenate([dst, loops])
        w = cat([w, ones(len(loops), dtype=w.dtype)])
    indices = np.stack([dst, src])  # row = target, column = source
    adj = sparse_coo_tensor(indices, w, (num_nodes, num_nodes))
    deg = sparse_mm(adj, ones(num_nodes, 1, dtype=w.dtype)).squeeze(1)  # in-degrees: A @ 1
    positive = deg > 0
    dinv = where(positive, where(positive, deg, 1.0) ** -0.5, 0.0)
    norm = dinv[dst] * w * dinv[src]
    adj = sparse_coo_tensor(indices, norm, (num_nodes, num_nodes)).coalesce()
    return adj if layout == "sparse_coo" else adj.to_sparse(layout)


class GCNConv(Linear):
    """Graph convolution ``out = adj @ (x @ W^T) + b`` (Kipf & Welling, 2017).

    ``adj`` is the sparse normalised adjacency from :func:`gcn_norm`; the product uses
    :func:`minigrad.sparse.mm`, so a learnable adjacency gets the masked gradient (only
    at its edges, computed edge by edge, never as an n x n matrix).

    As in PyTorch Geometric, the weight has shape (out_features, in_features) and starts
    Glorot-uniform, and the bias starts at zero. Parameters and repr are those of
    :class:`Linear` (a GCN layer is a linear map followed by neighbourhood averaging).

    Args:
        in_features: features per input node.
        out_features: features per output node.
        bias: learn an additive bias (default True).
        dtype: dtype of the parameters (default: the default float dtype).

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> conv = mg.nn.GCNConv(3, 2)
        >>> adj = mg.nn.gcn_norm([[0, 1, 1, 2], [1, 0, 2, 1]], num_nodes=3)
        >>> conv(mg.ones(3, 3), adj).shape
        minigrad.Size([3, 2])
    """

    def reset_parameters(self) -> None:
        """Glorot-uniform weight, U(-a, a) with a = sqrt(6 / (in + out)); zero bias."""
        fan = self.in_features + self.out_features
        bound = math.sqrt(6.0 / fan) if fan > 0 else 0.0
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.zeros_(self.bias)

    def forward(self, x: Tensor, adj: Tensor) -> Tensor:
        if not has_sparse_layout(adj) or adj.ndim != 2 or adj.shape[0] != adj.shape[1]:
            shape = tuple(adj.shape) if hasattr(adj, "shape") else "?"
            what = f"a {getattr(adj, 'layout', type(adj).__name__)} of shape {shape}"
            raise ValueError(errors.GCN_ADJ.format(what=what))
        out = sparse_mm(adj, x @ self.weight.t())
        return out if self.bias is None else out + self.bias
