"""PyTorch as oracle for sparse_attention and GATConv.

* sparse_attention against ``F.scaled_dot_product_attention`` with a boolean mask (rows with
  at least one entry; PyTorch's fully masked rows are NaN or garbage, ours are zero), against
  a manual masked softmax, and against the ``torch.sparse`` pipeline
  (``sampled_addmm`` -> ``sparse.softmax`` -> ``sparse.mm``);
* GATConv against PyTorch Geometric's formulation written in torch (per-edge scores,
  ``scatter_reduce("amax")`` / ``index_add`` softmax over each target's in-edges, as
  ``torch_geometric.utils.softmax``; PyG itself is not installed) and a dense torch version.
"""

import math

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F

torch = pytest.importorskip("torch")

pytestmark = [
    pytest.mark.oracle,
    pytest.mark.filterwarnings("ignore:Sparse CSR tensor support is in beta state"),
]
RNG = np.random.default_rng(11)


def grads_of(*ts):
    return [t.grad.numpy() for t in ts]


def setup(n=9, m=7, d=4, dv=3, p=0.4, empty_row=True):
    mask = RNG.random((n, m)) < p
    mask[:, 0] |= ~mask.any(1)  # every row attends somewhere ...
    if empty_row:
        mask[3] = False  # ... but row 3
    return mask, [RNG.standard_normal(s) for s in ((n, d), (m, d), (m, dv))]


def ours(mask, arrays, layout="sparse_csr", scale=None):
    q, k, v = (mg.tensor(a, requires_grad=True) for a in arrays)
    P = mg.tensor(mask.astype(np.float64)).to_sparse().to_sparse(layout)
    return F.sparse_attention(q, k, v, P, scale=scale), (q, k, v)


@pytest.mark.parametrize("scale", [None, 0.7])
def test_against_scaled_dot_product_attention(scale):
    mask, arrays = setup(empty_row=False)
    out, leaves = ours(mask, arrays, scale=scale)
    qt, kt, vt = (torch.tensor(a, requires_grad=True) for a in arrays)
    ref = torch.nn.functional.scaled_dot_product_attention(
        qt, kt, vt, attn_mask=torch.tensor(mask), scale=scale
    )
    np.testing.assert_allclose(out.detach().numpy(), ref.detach().numpy(), atol=1e-12)
    r = RNG.standard_normal(ref.shape)
    (out * mg.tensor(r)).sum().backward()
    (ref * torch.tensor(r)).sum().backward()
    for a, b in zip(grads_of(*leaves), grads_of(qt, kt, vt)):
        np.testing.assert_allclose(a, b, atol=1e-12)


@pytest.mark.parametrize("layout", ["sparse_coo", "sparse_csr", "sparse_csc"])
def test_against_manual_masked_softmax_with_an_empty_row(layout):
    mask, arrays = setup()
    out, leaves = ours(mask, arrays, layout)
    qt, kt, vt = (torch.tensor(a, requires_grad=True) for a in arrays)
    scores = (qt @ kt.T / math.sqrt(qt.shape[1])).masked_fill(~torch.tensor(mask), -math.inf)
    ref = torch.softmax(scores, 1).nan_to_num(0.0) @ vt
    np.testing.assert_allclose(out.detach().numpy(), ref.detach().numpy(), atol=1e-12)
    r = RNG.standard_normal(ref.shape)
    (out * mg.tensor(r)).sum().backward()
    (ref * torch.tensor(r)).sum().backward()
    for a, b in zip(grads_of(*leaves), grads_of(qt, kt, vt)):
        np.testing.assert_allclose(a, b, atol=1e-12)


def test_against_the_torch_sparse_pipeline():
    mask, arrays = setup()
    out, leaves = ours(mask, arrays)
    qt, kt, vt = (torch.tensor(a, requires_grad=True) for a in arrays)
    where = torch.tensor(mask.astype(np.float64)).to_sparse_csr()
    scores = torch.sparse.sampled_addmm(where, qt, kt.T, beta=0.0, alpha=1 / math.sqrt(4))
    weights = torch.sparse.softmax(scores.to_sparse_coo(), 1)
    ref = torch.sparse.mm(weights.to_sparse_csr(), vt)
    np.testing.assert_allclose(out.detach().numpy(), ref.detach().numpy(), atol=1e-12)
    r = RNG.standard_normal(ref.shape)
    (out * mg.tensor(r)).sum().backward()
    (ref * torch.tensor(r)).sum().backward()
    for a, b in zip(grads_of(*leaves), grads_of(qt, kt, vt)):
        np.testing.assert_allclose(a, b, atol=1e-12)


# --- GATConv ------------------------------------------------------------------------------------
def pyg_gat(x, edges, W, att_src, att_dst, bias, heads, concat, loops, slope=0.2):
    """PyG's GATConv.forward for a Tensor edge_index, in torch (per-edge, scatter softmax)."""
    n = x.shape[0]
    ei = torch.tensor(edges)
    if loops:  # remove_self_loops, then add_self_loops
        ei = ei[:, ei[0] != ei[1]]
        ar = torch.arange(n)
        ei = torch.cat([ei, torch.stack([ar, ar])], 1)
    src, dst = ei
    C = att_src.shape[-1]
    xw = (x @ W.T).view(n, heads, C)
    alpha = (xw * att_src).sum(-1)[src] + (xw * att_dst).sum(-1)[dst]
    alpha = torch.nn.functional.leaky_relu(alpha, slope)
    index = dst[:, None].expand(-1, heads)
    top = torch.full((n, heads), -math.inf, dtype=x.dtype).scatter_reduce(0, index, alpha, "amax")
    e = (alpha - top[dst]).exp()
    alpha = e / torch.zeros(n, heads, dtype=x.dtype).index_add(0, dst, e)[dst]
    out = torch.zeros(n, heads, C, dtype=x.dtype).index_add(0, dst, alpha[..., None] * xw[src])
    out = out.reshape(n, heads * C) if concat else out.mean(1)
    return out if bias is None else out + bias


@pytest.mark.parametrize(
    "heads, concat, loops", [(1, True, True), (4, True, True), (3, False, True), (2, True, False)]
)
def test_gatconv_against_pyg_formulation(heads, concat, loops):
    n, fin, C = 12, 5, 3
    edges = RNG.integers(0, n, (2, 40))
    edges[:, :3] = [[2, 2, 5], [2, 7, 7]]  # a self loop, and 2 -> 7 ...
    edges[:, 3] = [2, 7]  # ... twice
    mg.manual_seed(0)
    conv = mg.nn.GATConv(fin, C, heads=heads, concat=concat, add_self_loops=loops, dtype=mg.float64)
    with mg.no_grad():
        conv.bias.copy_(mg.tensor(RNG.standard_normal(conv.bias.shape)))
    x0 = RNG.standard_normal((n, fin))
    x = mg.tensor(x0, requires_grad=True)
    out = conv(x, mg.tensor(edges))

    params = [torch.tensor(p.detach().numpy(), requires_grad=True) for p in conv.parameters()]
    names = [name for name, _ in conv.named_parameters()]
    kw = dict(zip(names, params))
    xt = torch.tensor(x0, requires_grad=True)
    ref = pyg_gat(
        xt, edges, kw["lin.weight"], kw["att_src"], kw["att_dst"], kw["bias"], heads, concat, loops
    )
    np.testing.assert_allclose(out.detach().numpy(), ref.detach().numpy(), atol=1e-12)
    r = RNG.standard_normal(ref.shape)
    (out * mg.tensor(r)).sum().backward()
    (ref * torch.tensor(r)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), xt.grad.numpy(), atol=1e-12)
    for (name, p), pt in zip(conv.named_parameters(), params):
        np.testing.assert_allclose(p.grad.numpy(), pt.grad.numpy(), atol=1e-12, err_msg=name)


def test_gatconv_against_a_dense_torch_version():
    """Single head, no duplicate edges: the dense n x n formulation in torch."""
    n, fin, C = 8, 4, 2
    mask = RNG.random((n, n)) < 0.3
    np.fill_diagonal(mask, True)
    dst, src = np.nonzero(mask)
    mg.manual_seed(1)
    conv = mg.nn.GATConv(fin, C, dtype=mg.float64)
    x0 = RNG.standard_normal((n, fin))
    out = conv(mg.tensor(x0), np.stack([src, dst]))
    W, a_s, a_d = (
        torch.tensor(p.detach().numpy()) for p in (conv.lin.weight, conv.att_src, conv.att_dst)
    )
    xw = torch.tensor(x0) @ W.T
    e = (xw @ a_d[0, 0])[:, None] + (xw @ a_s[0, 0])[None, :]
    e = torch.nn.functional.leaky_relu(e, 0.2).masked_fill(~torch.tensor(mask), -math.inf)
    ref = torch.softmax(e, 1) @ xw
    np.testing.assert_allclose(out.detach().numpy(), ref.numpy(), atol=1e-12)
