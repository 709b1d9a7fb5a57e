"""nn.GATConv against a dense reference written with minigrad's dense ops (an n x n score matrix
per head, -inf off the edges), gradcheck, PyG's self-loop and duplicate-edge rules, bad input."""

import math

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import gradcheck
from minigrad.nn import GATConv

RNG = np.random.default_rng(0)
N, FIN, C = 7, 3, 4
EDGES = RNG.integers(0, N, (2, 24))
EDGES[:, 0] = [3, 3]  # a self loop
EDGES[:, 1] = EDGES[:, 2]  # a duplicated edge
EDGES = EDGES[:, EDGES[1] != 6]  # node 6 has no in-edges (only its self loop, when added)


def multiplicity(edges, n, add_self_loops):
    """count[i, j]: how many times the edge j -> i is used (PyG's rules for self loops)."""
    src, dst = edges
    if add_self_loops:
        keep = src != dst
        src = np.concatenate([src[keep], np.arange(n)])
        dst = np.concatenate([dst[keep], np.arange(n)])
    count = np.zeros((n, n))
    np.add.at(count, (dst, src), 1.0)
    return count


def dense_gat(conv, x, edges):
    """The paper's formula on dense (n, n) matrices; each copy of an edge is one message."""
    n, H, Co = x.shape[0], conv.heads, conv.out_features
    count = mg.tensor(multiplicity(edges, n, conv.add_self_loops))
    xw = (x @ conv.lin.weight.t()).reshape(n, H, Co)
    heads = []
    for h in range(H):
        xh = xw[:, h, :]
        a_src = (xh * conv.att_src[0, h]).sum(-1)
        a_dst = (xh * conv.att_dst[0, h]).sum(-1)
        e = a_dst.unsqueeze(1) + a_src.unsqueeze(0)  # e[i, j]: edge j -> i
        e = mg.where(e > 0, e, e * conv.negative_slope)
        stored = count > 0
        top = mg.where(stored, e, -math.inf).amax(1, keepdim=True)
        top = mg.where(top > -math.inf, top, 0.0).detach()
        w = count * mg.where(stored, (e - top).exp(), 0.0)
        total = w.sum(1, keepdim=True)
        alpha = w / mg.where(total > 0, total, 1.0)
        heads.append(alpha @ xh)
    out = mg.stack(heads, dim=1)
    out = out.reshape(n, H * Co) if conv.concat else out.mean(1)
    return out if conv.bias is None else out + conv.bias


def make(heads=2, concat=True, loops=True, bias=True):
    mg.manual_seed(0)
    conv = GATConv(
        FIN, C, heads=heads, concat=concat, add_self_loops=loops, bias=bias, dtype=mg.float64
    )
    if bias:
        with mg.no_grad():
            conv.bias.copy_(mg.tensor(RNG.standard_normal(conv.bias.shape)))
    return conv


CONFIGS = [
    dict(heads=1, concat=True, loops=True),
    dict(heads=3, concat=True, loops=True),
    dict(heads=3, concat=False, loops=True),
    dict(heads=2, concat=True, loops=False),
    dict(heads=2, concat=False, loops=False, bias=False),
]


@pytest.mark.parametrize("cfg", CONFIGS, ids=str)
def test_matches_the_dense_formula_values_and_gradients(cfg):
    conv = make(**cfg)
    x0 = RNG.standard_normal((N, FIN))
    x = mg.tensor(x0, requires_grad=True)
    out = conv(x, mg.tensor(EDGES))
    width = C * cfg["heads"] if cfg["concat"] else C
    assert out.shape == (N, width)
    r = mg.tensor(RNG.standard_normal(out.shape))
    (out * r).sum().backward()
    ours = [x.grad.numpy()] + [p.grad.numpy() for p in conv.parameters()]

    conv.zero_grad()
    xd = mg.tensor(x0, requires_grad=True)
    ref = dense_gat(conv, xd, EDGES)
    np.testing.assert_allclose(out.detach().numpy(), ref.detach().numpy(), atol=1e-12)
    (ref * r).sum().backward()
    theirs = [xd.grad.numpy()] + [p.grad.numpy() for p in conv.parameters()]
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, atol=1e-12)


def test_gradcheck_in_x_and_every_parameter():
    conv = make(heads=2)
    x = mg.tensor(RNG.standard_normal((N, FIN)), requires_grad=True)
    params = list(conv.parameters())

    def f(x, *ps):
        return mg.func.functional_call(
            conv, dict(zip(dict(conv.named_parameters()), ps)), (x, EDGES)
        )

    assert gradcheck(f, (x, *params))


def test_self_loops_are_replaced_by_one_per_node():
    conv = make(heads=1)
    x = mg.tensor(RNG.standard_normal((3, FIN)))
    with_loops = conv(x, [[0, 0, 0, 1], [0, 0, 1, 0]])  # loop 0 -> 0 twice
    without = conv(x, [[0, 1], [1, 0]])
    np.testing.assert_allclose(with_loops.detach().numpy(), without.detach().numpy())


def test_duplicated_edges_count_as_often_as_they_appear():
    conv = make(heads=1, loops=False)
    x = mg.tensor(RNG.standard_normal((3, FIN)))
    once = conv(x, [[1, 2], [0, 0]]).detach().numpy()
    twice = conv(x, [[1, 1, 2], [0, 0, 0]]).detach().numpy()
    assert not np.allclose(once[0], twice[0])  # node 0 hears node 1 twice as loudly
    np.testing.assert_allclose(once[1:], twice[1:])


def test_node_without_in_edges_gets_the_bias():
    conv = make(heads=2, loops=False)
    out = conv(mg.tensor(RNG.standard_normal((N, FIN))), EDGES)
    np.testing.assert_allclose(out.detach().numpy()[6], conv.bias.detach().numpy())


def test_empty_graph_and_single_node():
    conv = make(heads=1)
    x = mg.tensor(RNG.standard_normal((2, FIN)))
    out = conv(x, np.zeros((2, 0), np.int64))  # only the added self loops: out = W x + b
    expected = x.numpy() @ conv.lin.weight.detach().numpy().T + conv.bias.detach().numpy()
    np.testing.assert_allclose(out.detach().numpy(), expected, atol=1e-12)
    assert conv(mg.ones(0, FIN, dtype=mg.float64), np.zeros((2, 0), np.int64)).shape == (0, C)


def test_parameters_are_named_and_shaped_as_in_pyg():
    conv = GATConv(5, 4, heads=3)
    shapes = {k: v.shape for k, v in conv.state_dict().items()}
    assert shapes == {
        "lin.weight": (12, 5),
        "att_src": (1, 3, 4),
        "att_dst": (1, 3, 4),
        "bias": (12,),
    }
    assert GATConv(5, 4, heads=3, concat=False).bias.shape == (4,)
    assert GATConv(5, 4, bias=False).bias is None
    assert repr(conv) == "GATConv(5, 4, heads=3)"
    bound = math.sqrt(6 / (3 + 4))  # glorot over the last two dims, as PyG
    assert np.abs(conv.att_src.detach().numpy()).max() <= bound
    assert np.abs(conv.lin.weight.detach().numpy()).max() <= math.sqrt(6 / (5 + 12))
    assert not conv.bias.detach().numpy().any()


def test_float32_by_default_and_the_sparse_softmax_in_the_graph():
    conv = GATConv(FIN, C)
    out = conv(mg.ones(N, FIN), EDGES)
    assert out.dtype is mg.float32
    names = [n.name for n in mg.trace.graph(out).nodes]
    assert "SparseSoftmaxBackward0" in names and "SparseMmBackward0" in names


# --- bad input ---------------------------------------------------------------------------------
def test_bad_input():
    conv = GATConv(FIN, C)
    x = mg.ones(4, FIN)
    with pytest.raises(
        ValueError, match=r"GATConv: edge_index must be an integer array of shape \(2, num_edges\)"
    ):
        conv(x, [[0.0, 1.0], [1.0, 0.0]])
    with pytest.raises(ValueError, match=r"GATConv: edge_index must be .* got shape \(3, 2\)"):
        conv(x, [[0, 1], [1, 0], [0, 0]])
    with pytest.raises(ValueError, match=r"GATConv: edge_index holds node 4, but num_nodes is 4"):
        conv(x, [[0, 4], [1, 0]])
    with pytest.raises(
        ValueError, match=r"x must be a 2-D \(num_nodes, 3\) tensor, got shape \(4, 2\)"
    ):
        conv(mg.ones(4, 2), [[0], [1]])
    with pytest.raises(ValueError, match=r"got shape \(3,\)"):
        conv(mg.ones(3), [[0], [1]])
    for heads in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="heads must be a positive int"):
            GATConv(FIN, C, heads=heads)
