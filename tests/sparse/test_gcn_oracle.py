"""PyTorch as oracle for GCNConv with learnable edge weights: PyG's gcn_norm written in
torch (add_remaining_self_loops, in-degrees by scatter_add over targets), then
torch.sparse.mm; values and gradients of x, weight, bias and the edge weights."""

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")

pytestmark = [
    pytest.mark.oracle,
    pytest.mark.filterwarnings("ignore:Sparse CSR tensor support is in beta state"),
    pytest.mark.filterwarnings("ignore:Sparse invariant checks are implicitly disabled"),
]


def torch_gcn_norm(edge_index, w, n):
    """torch_geometric.nn.conv.gcn_conv.gcn_norm, flow="source_to_target"."""
    row, col = edge_index
    not_loop = row != col
    loop_w = torch.ones(n, dtype=w.dtype)
    loop_w = loop_w.index_put((row[~not_loop],), w[~not_loop])
    arange = torch.arange(n)
    row = torch.cat([row[not_loop], arange])
    col = torch.cat([col[not_loop], arange])
    w = torch.cat([w[not_loop], loop_w])
    deg = torch.zeros(n, dtype=w.dtype).scatter_add(0, col, w)
    dinv = deg.pow(-0.5).masked_fill(deg == 0, 0.0)
    norm = dinv[row] * w * dinv[col]
    return torch.sparse_coo_tensor(torch.stack([col, row]), norm, (n, n))


@pytest.mark.parametrize("layout", ["sparse_csr", "sparse_coo"])
def test_gcnconv_with_learnable_edge_weights(layout):
    rng = np.random.default_rng(0)
    n, e = 30, 120
    edges = rng.integers(0, n, (2, e))  # duplicates and a few self loops
    edges[:, :3] = [[4, 7, 9], [4, 7, 9]]
    w0, x0 = rng.random(e) + 0.1, rng.standard_normal((n, 5))
    mg.manual_seed(0)
    conv = mg.nn.GCNConv(5, 3, dtype=mg.float64)
    with mg.no_grad():
        conv.bias.copy_(mg.tensor(rng.standard_normal(3)))

    w, x = mg.tensor(w0, requires_grad=True), mg.tensor(x0, requires_grad=True)
    out = conv(x, mg.nn.gcn_norm(edges, n, w, layout=layout))

    wt, xt = torch.tensor(w0, requires_grad=True), torch.tensor(x0, requires_grad=True)
    Wt = torch.tensor(conv.weight.detach().numpy(), requires_grad=True)
    bt = torch.tensor(conv.bias.detach().numpy(), requires_grad=True)
    adj = torch_gcn_norm(torch.tensor(edges), wt, n).coalesce()
    if layout == "sparse_csr":
        adj = adj.to_sparse_csr()
    out_t = torch.sparse.mm(adj, xt @ Wt.t()) + bt

    np.testing.assert_allclose(out.detach().numpy(), out_t.detach().numpy(), rtol=1e-10, atol=1e-12)
    r = rng.standard_normal(out.shape)
    (out * mg.tensor(r)).sum().backward()
    (out_t * torch.tensor(r)).sum().backward()
    for ours, theirs in ((w, wt), (x, xt), (conv.weight, Wt), (conv.bias, bt)):
        np.testing.assert_allclose(ours.grad.numpy(), theirs.grad.numpy(), rtol=1e-9, atol=1e-12)
