"""Graph attention: ``GATConv`` (Velickovic et al., 2018), as PyTorch Geometric computes it.

NB: the analogous layer is ``torch_geometric.nn.GATConv``: the same parameters (``lin``,
``att_src``, ``att_dst``, ``bias``), the same self-loop handling and the same edge softmax.
Where PyG scatters per edge (``torch_geometric.utils.softmax``), this builds one sparse
(num_nodes, num_nodes) matrix of edge scores per head and calls
:func:`minigrad.sparse.softmax` on it: row i holds node i's in-edges, so a softmax over
each row is a softmax over each node's in-edges, and the aggregation is ``sparse.mm``.
"""

from __future__ import annotations

import math

import numpy as np

from ... import _device, _dtype
from ...errors import sparse_attention as errors
from ...factory import empty
from ...ops.select import stack, where
from ...sparse.attention import softmax as sparse_softmax
from ...sparse.construct import sparse_coo_tensor
from ...sparse.ops import mm as sparse_mm
from ...tensor import Tensor
from .. import init
from ..parameter import Parameter
from .gcn import _edge_index
from .linear import Linear
from .module import Module


def gat_edges(edge_index, num_nodes: int, add_self_loops: bool = True):
    """The in-edges of every node as ``(targets, sources, copies)``, sorted, one entry per pair.

    With ``add_self_loops`` existing self loops are removed and one per node is added
    (PyG's ``remove_self_loops`` then ``add_self_loops``). PyG keeps a duplicated edge as
    several messages, each with its own share of the softmax; here the copies of an edge
    become one entry that remembers how many there were, and adding ``log(copies)`` to its
    score gives it exactly their combined share.
    """
    src, dst = _edge_index(edge_index, num_nodes, op="GATConv")
    if add_self_loops:
        keep = src != dst
        loops = np.arange(num_nodes, dtype=np.int64)
        src, dst = np.concatenate([src[keep], loops]), np.concatenate([dst[keep], loops])
    keys, copies = np.unique(dst * num_nodes + src, return_counts=True)
    return keys // max(num_nodes, 1), keys % max(num_nodes, 1), copies


def glorot_(tensor: Tensor) -> Tensor:
    """U(-a, a), a = sqrt(6 / (size(-2) + size(-1))): PyG's ``glorot`` (Glorot & Bengio)."""
    fan = tensor.shape[-2] + tensor.shape[-1]
    bound = math.sqrt(6.0 / fan) if fan else 0.0
    return init.uniform_(tensor, -bound, bound)


def _leaky_relu(x: Tensor, negative_slope: float) -> Tensor:
    """x for x > 0, negative_slope * x otherwise (``F.leaky_relu``; slope at 0, as PyTorch)."""
    return where(x > 0, x, x * negative_slope)


class GATConv(Module):
    """Graph attention layer: ``out_i = sum_j alpha_ij W x_j`` over node i's in-edges j -> i.

    The attention weights are a softmax over each node's in-edges of the edge scores
    ``e_ij = LeakyReLU(a_src . W x_j + a_dst . W x_i)``, one set per head; heads are
    concatenated (``concat=True``) or averaged, then ``bias`` is added.

    As in PyTorch Geometric: ``edge_index[0]`` holds the sources and ``edge_index[1]`` the
    targets (``flow="source_to_target"``); with ``add_self_loops`` existing self loops are
    removed and one per node is added, so each node also attends to itself; ``lin`` (no
    bias), ``att_src`` and ``att_dst`` of shape (1, heads, out_features) start
    Glorot-uniform, ``bias`` at zero. A node without in-edges gets zeros (plus the bias).
    Duplicated edges count as many times as they appear, as in PyG. First derivatives only:
    :func:`minigrad.sparse.softmax` has no double backward (nor has PyTorch's).

    Args:
        in_features: features per input node.
        out_features: features per head and output node.
        heads: number of attention heads.
        concat: concatenate the heads (out: heads * out_features) or average them.
        negative_slope: slope of the LeakyReLU for negative scores.
        add_self_loops: remove self loops and add one per node first.
        bias: learn an additive bias.
        dtype: dtype of the parameters (default: the default float dtype).

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> conv = mg.nn.GATConv(3, 4, heads=2)
        >>> edge_index = mg.tensor([[0, 1, 2, 0], [1, 0, 1, 2]])   # sources, targets
        >>> conv(mg.ones(3, 3), edge_index).shape
        minigrad.Size([3, 8])
    """

    def __init__(
        self,
        in_features: int,
        out_features: int,
        heads: int = 1,
        concat: bool = True,
        negative_slope: float = 0.2,
        add_self_loops: bool = True,
        bias: bool = True,
        device=None,
        dtype=None,
    ):
        _device.check(device, "GATConv()")
        if not isinstance(heads, int) or isinstance(heads, bool) or heads < 1:
            raise ValueError(errors.GAT_HEADS.format(got=heads))
        super().__init__()
        self.in_features, self.out_features, self.heads = in_features, out_features, heads
        self.concat, self.negative_slope = concat, negative_slope
        self.add_self_loops = add_self_loops
        d = _dtype.defaults.float_dtype if dtype is None else _dtype.as_dtype(dtype)
        self.lin = Linear(in_features, heads * out_features, bias=False, dtype=d)
        self.att_src = Parameter(empty(1, heads, out_features, dtype=d))
        self.att_dst = Parameter(empty(1, heads, out_features, dtype=d))
        if bias:
            self.bias = Parameter(empty(heads * out_features if concat else out_features, dtype=d))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Glorot-uniform ``lin.weight``, ``att_src`` and ``att_dst``; zero bias (as PyG)."""
        glorot_(self.lin.weight)
        glorot_(self.att_src)
        glorot_(self.att_dst)
        if self.bias is not None:
            init.zeros_(self.bias)

    def forward(self, x: Tensor, edge_index) -> Tensor:
        if not isinstance(x, Tensor) or x.ndim != 2 or x.shape[1] != self.in_features:
            shape = tuple(x.shape) if isinstance(x, Tensor) else type(x).__name__
            raise ValueError(errors.GAT_X.format(f=self.in_features, shape=shape))
        n = x.shape[0]
        dst, src, copies = gat_edges(edge_index, n, self.add_self_loops)
        xw = self.lin(x).view(n, self.heads, self.out_features)
        heads = [self._head(xw[:, h, :], h, dst, src, copies) for h in range(self.heads)]
        out = stack(heads, dim=1)  # (n, heads, out_features)
        out = out.reshape(n, self.heads * self.out_features) if self.concat else out.mean(dim=1)
        return out if self.bias is None else out + self.bias

    def _head(self, xh: Tensor, h: int, dst, src, copies) -> Tensor:
        """One head: edge scores on the (target, source) pattern, softmax per row, sum."""
        n = xh.shape[0]
        a_src = (xh * self.att_src[0, h]).sum(-1)  # a_src . W x_j, one number per node
        a_dst = (xh * self.att_dst[0, h]).sum(-1)
        scores = _leaky_relu(a_src[src] + a_dst[dst], self.negative_slope)  # one per edge
        if (copies > 1).any():
            scores = scores + Tensor._make(np.log(copies).astype(scores._data.dtype), False, None)
        edges = np.stack([dst, src])
        e = sparse_coo_tensor(edges, scores, (n, n), is_coalesced=True, check_invariants=False)
        return sparse_mm(sparse_softmax(e, dim=1), xh)

    def __repr__(self) -> str:
        """``GATConv(3, 4, heads=2)``, as PyG prints it."""
        return f"GATConv({self.in_features}, {self.out_features}, heads={self.heads})"
