"""GCNConv and gcn_norm against the dense formula D^-1/2 (A + I) D^-1/2; learnable edge
weights; bad input."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.nn import GCNConv, gcn_norm

RNG = np.random.default_rng(0)
N = 6
EDGES = np.array([[0, 1, 1, 2, 3, 3, 4, 0, 2], [1, 0, 2, 1, 3, 4, 0, 1, 0]])  # a loop, a dup
WEIGHTS = RNG.random(EDGES.shape[1]) + 0.5


def dense_gcn_norm(edges, n, w, add_self_loops=True):
    """The textbook formula with PyG's conventions: entry (target, source), in-degrees."""
    A = np.zeros((n, n))
    np.add.at(A, (edges[1], edges[0]), w)
    if add_self_loops:
        no_loop = np.diag(A) == 0
        no_loop[np.unique(edges[0][edges[0] == edges[1]])] = False
        A[no_loop, no_loop] += 1.0
    deg = A.sum(1)
    dinv = np.zeros(n)
    dinv[deg > 0] = deg[deg > 0] ** -0.5
    return dinv[:, None] * A * dinv[None, :]


@pytest.mark.parametrize("layout", ["sparse_csr", "sparse_coo", "sparse_csc"])
@pytest.mark.parametrize("loops", [True, False])
@pytest.mark.parametrize("weighted", [True, False])
def test_gcn_norm_matches_the_dense_formula(layout, loops, weighted):
    w = mg.tensor(WEIGHTS) if weighted else None
    adj = gcn_norm(EDGES, N, w, add_self_loops=loops, layout=layout)
    expected = dense_gcn_norm(EDGES, N, WEIGHTS if weighted else np.ones(EDGES.shape[1]), loops)
    assert adj.layout == layout and adj.shape == (N, N)
    np.testing.assert_allclose(adj.to_dense().detach().numpy(), expected, rtol=1e-6)
    assert not np.isnan(
        adj.to_dense().detach().numpy()
    ).any()  # node 5 is isolated: a zero row, no NaN
    canonical = adj.is_coalesced() if layout == "sparse_coo" else adj._data.has_canonical_format
    assert canonical


def test_undirected_graph_gives_a_symmetric_matrix():
    edges = np.array([[0, 1, 1, 2], [1, 0, 2, 1]])
    dense = gcn_norm(edges, 3).to_dense().detach().numpy()
    np.testing.assert_allclose(dense, dense.T)
    np.testing.assert_allclose(dense[0], [0.5, 1 / np.sqrt(6), 0.0], rtol=1e-6)


def test_existing_self_loops_are_kept_not_doubled():
    adj = gcn_norm([[0, 0], [0, 1]], 2, mg.tensor([3.0, 1.0])).to_dense().detach().numpy()
    # node 0: in-degree 3 (its loop); node 1: 1 (edge 0 -> 1) + 1 (added loop) = 2
    np.testing.assert_allclose(adj, [[1.0, 0.0], [1 / np.sqrt(6), 0.5]], rtol=1e-6)


def test_empty_graph():
    adj = gcn_norm(np.zeros((2, 0), np.int64), 3)
    np.testing.assert_allclose(adj.to_dense().detach().numpy(), np.eye(3))
    assert gcn_norm(np.zeros((2, 0), np.int64), 0).shape == (0, 0)


def test_learnable_edge_weights_gradcheck():
    w = mg.tensor(WEIGHTS, requires_grad=True)
    X = mg.tensor(RNG.standard_normal((N, 2)), requires_grad=True)

    def f(w, X):
        return mg.sparse.mm(gcn_norm(EDGES, N, w), X).tanh()

    assert mg.autograd.gradcheck(f, (w, X))


def test_gcnconv_matches_dense():
    mg.manual_seed(0)
    conv = GCNConv(3, 4, dtype=mg.float64)
    with mg.no_grad():
        conv.bias.copy_(mg.tensor(RNG.standard_normal(4)))
    adj = gcn_norm(EDGES, N, mg.tensor(WEIGHTS))
    x = mg.tensor(RNG.standard_normal((N, 3)), requires_grad=True)
    out = conv(x, adj)
    A = dense_gcn_norm(EDGES, N, WEIGHTS)
    W, b = conv.weight.detach().numpy(), conv.bias.detach().numpy()
    np.testing.assert_allclose(out.detach().numpy(), A @ x.detach().numpy() @ W.T + b, rtol=1e-12)
    R = RNG.standard_normal(out.shape)
    (out * mg.tensor(R)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), A.T @ R @ W, rtol=1e-10)
    np.testing.assert_allclose(
        conv.weight.grad.numpy(), (A @ x.detach().numpy()).T.dot(R).T, rtol=1e-10
    )
    np.testing.assert_allclose(conv.bias.grad.numpy(), R.sum(0), rtol=1e-10)


def test_gcnconv_parameters_and_init():
    mg.manual_seed(1)
    conv = GCNConv(5, 2, bias=False)
    assert repr(conv) == "GCNConv(in_features=5, out_features=2, bias=False)"
    assert conv.bias is None and [p.shape for p in conv.parameters()] == [(2, 5)]
    assert np.abs(conv.weight.detach().numpy()).max() <= np.sqrt(6 / 7)
    assert GCNConv(5, 2).bias.detach().numpy().tolist() == [0.0, 0.0]
    mg.manual_seed(1)
    np.testing.assert_array_equal(
        GCNConv(5, 2, bias=False).weight.detach().numpy(), conv.weight.detach().numpy()
    )


def test_training_learns_edge_weights_and_weights():
    """Fit a two-layer GCN with learnable edge weights: the loss goes down, weights move."""
    mg.manual_seed(0)
    conv1, conv2 = GCNConv(3, 8), GCNConv(8, 1)
    w = mg.nn.Parameter(mg.ones(EDGES.shape[1]))
    x = mg.randn(N, 3)
    target = mg.randn(N, 1)
    params = [w, *conv1.parameters(), *conv2.parameters()]
    opt = mg.optim.SGD(params, lr=0.1)
    losses = []
    for _ in range(30):
        adj = gcn_norm(EDGES, N, w)
        loss = ((conv2(conv1(x, adj).relu(), adj) - target) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.5 * losses[0]
    assert not np.allclose(w.detach().numpy(), 1.0)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (
            {"edge_index": [[0, 1, 2]]},
            ValueError,
            r"edge_index must be an integer array of shape \(2, num_edges\), got shape \(1, 3\)",
        ),
        (
            {"edge_index": [[0.0, 1.0], [1.0, 0.0]]},
            ValueError,
            r"got shape \(2, 2\) and dtype float64",
        ),
        (
            {"edge_index": [[0, 6], [1, 0]]},
            ValueError,
            r"edge_index holds node 6, but num_nodes is 6 \(nodes are 0 \.\. 5\)",
        ),
        ({"edge_index": [[0, -1], [1, 0]]}, ValueError, r"holds node -1"),
        (
            {"edge_weight": mg.ones(3)},
            ValueError,
            r"edge_weight must have shape \(2,\) .* got \(3,\)",
        ),
        (
            {"layout": "dense"},
            ValueError,
            r"layout must be 'sparse_csr', 'sparse_coo' or 'sparse_csc', got 'dense'",
        ),
    ],
)
def test_gcn_norm_bad_input(kwargs, error, match):
    args = {"edge_index": [[0, 1], [1, 0]], "num_nodes": N, **kwargs}
    with pytest.raises(error, match=match):
        gcn_norm(**args)


def test_gcnconv_needs_a_sparse_square_adjacency():
    conv = GCNConv(2, 2)
    with pytest.raises(
        ValueError,
        match=r"adj must be a sparse \(n, n\) adjacency .* got a strided of shape \(3, 3\)",
    ):
        conv(mg.ones(3, 2), mg.eye(3))
    with pytest.raises(ValueError, match=r"got a sparse_coo of shape \(3, 2\)"):
        conv(mg.ones(3, 2), mg.ones(3, 2).to_sparse())
    with pytest.raises(ValueError, match=r"shapes cannot be multiplied \(3x3 and 4x2\)"):
        conv(mg.ones(4, 2), gcn_norm([[0], [1]], 3))
