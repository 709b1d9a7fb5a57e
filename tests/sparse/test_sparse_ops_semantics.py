"""Semantics of the sparse ops: the running example of shared/SPARSE_SEMANTICS.md, node
names, learnable edge weights, SDDMM memory, second derivatives, hybrid and N-d COO."""

import tracemalloc

import numpy as np
import pytest

import minigrad as mg
from minigrad.sparse import ops_products
from minigrad.sparse.ops_products import Sddmm

IDX = [[0, 0, 1], [0, 2, 1]]  # A = [[1, 0, 2], [0, 3, 0]]
B_DATA = [[0.0, 1.0], [2.0, 0.0], [0.0, 0.0]]
LAYOUTS = ["sparse_coo", "sparse_csr", "sparse_csc"]


def running_example(layout="sparse_coo"):
    A = mg.sparse_coo_tensor(IDX, [1.0, 2.0, 3.0], (2, 3)).to_sparse(layout)
    A.requires_grad_(True)
    return A, mg.tensor(B_DATA, requires_grad=True)


# --- the running example, exactly ----------------------------------------------------------
@pytest.mark.parametrize("layout", LAYOUTS)
def test_running_example_masked(layout):
    A, B = running_example(layout)
    mg.sparse.mm(A, B).sum().backward()
    assert A.grad.layout == layout and A.grad.nnz == 3
    np.testing.assert_array_equal(
        A.grad.to_sparse_coo().coalesce().values().detach().numpy(), [1, 0, 2]
    )
    np.testing.assert_array_equal(B.grad.numpy(), [[1, 1], [3, 3], [2, 2]])


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("full", [mg.mm, mg.matmul, lambda a, b: a @ b, lambda a, b: a.mm(b)])
def test_running_example_full(layout, full):
    A, B = running_example(layout)
    full(A, B).sum().backward()
    assert A.grad.layout == "strided"
    np.testing.assert_array_equal(A.grad.numpy(), [[1, 2, 0], [1, 2, 0]])
    np.testing.assert_array_equal(B.grad.numpy(), [[1, 1], [3, 3], [2, 2]])


def test_running_example_with_duplicates_and_learnable_values():
    v = mg.tensor([1.0, 2.0, 3.0, 10.0], requires_grad=True)
    A = mg.sparse_coo_tensor([[0, 0, 1, 0], [0, 2, 1, 0]], v, (2, 3))
    mg.sparse.mm(A, mg.tensor(B_DATA)).sum().backward()
    np.testing.assert_array_equal(v.grad.numpy(), [1.0, 0.0, 2.0, 1.0])


def test_masked_and_full_contributions_add_up():
    A, B = running_example()
    (mg.sparse.mm(A, B).sum() + (A @ B).sum()).backward()  # sparse + dense = dense
    np.testing.assert_array_equal(A.grad.numpy(), [[2, 2, 0], [1, 4, 0]])


# --- what a drawing reads ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "make_out, name, semantics",
    [
        (lambda A, B: mg.sparse.mm(A, B), "SparseMmBackward0", "masked"),
        (lambda A, B: mg.sparse.addmm(mg.zeros(2, 2), A, B), "SparseAddmmBackward0", "masked"),
        (lambda A, B: mg.mm(A, B), "MmBackward0", "full"),
        (lambda A, B: A @ B, "MmBackward0", "full"),
        (lambda A, B: mg.sparse.sum(A), "SparseSumBackward0", "masked"),
        (lambda A, B: A.sum(), "SumBackward0", "full"),
    ],
)
def test_node_names_and_grad_semantics(make_out, name, semantics):
    A, B = running_example()
    out = make_out(A, B)
    assert out.grad_fn.name() == name
    assert type(out.grad_fn).grad_semantics == semantics
    info = [n for n in mg.trace.graph(out).nodes if n.name == name]
    assert len(info) == 1 and info[0].grad_semantics == semantics


def test_pattern_keeping_node_names():
    A, _ = running_example()
    names = [(op(A)).grad_fn.name() for op in (lambda s: -s, lambda s: s * 2.0, lambda s: s / 2)]
    assert names == ["NegBackward0", "MulBackward0", "DivBackward0"]
    assert A.t().grad_fn.name() == "TBackward0"
    assert A.transpose(0, 1).grad_fn.name() == "TransposeBackward0"


# --- learnable edge weights: the gradient flows to the values, never through n x n ----------
@pytest.mark.parametrize("layout", LAYOUTS)
def test_learnable_edge_weights_match_dense(layout):
    rng = np.random.default_rng(0)
    idx = rng.integers(0, 6, (2, 15))  # duplicates likely
    w = mg.tensor(rng.standard_normal(15), requires_grad=True)
    X = mg.tensor(rng.standard_normal((6, 3)), requires_grad=True)
    if layout == "sparse_coo":
        S = mg.sparse_coo_tensor(idx, w, (6, 6))
    else:
        S = mg.sparse_coo_tensor(idx, w, (6, 6)).to_sparse(layout)
    R = rng.standard_normal((6, 3))
    (mg.sparse.mm(S, X) * mg.tensor(R)).sum().backward()
    dense_grad = R @ X.detach().numpy().T  # dL/dA of the dense equivalent
    np.testing.assert_allclose(w.grad.numpy(), dense_grad[idx[0], idx[1]], atol=1e-12)
    A = np.zeros((6, 6))
    np.add.at(A, (idx[0], idx[1]), w.detach().numpy())
    np.testing.assert_allclose(X.grad.numpy(), A.T @ R, atol=1e-12)


def test_learnable_edge_weights_gradcheck():
    rng = np.random.default_rng(1)
    idx = rng.integers(0, 4, (2, 9))
    w = mg.tensor(rng.standard_normal(9), requires_grad=True)
    X = mg.tensor(rng.standard_normal((4, 2)), requires_grad=True)

    def f(w, X):
        S = mg.sparse_coo_tensor(idx, w, (4, 4)).to_sparse_csr()
        return mg.sparse.mm(S, X).tanh()

    assert mg.autograd.gradcheck(f, (w, X))


def test_edge_weight_backward_stays_small_on_a_big_graph():
    """n = 20,000 nodes, nnz = 20,000: a dense n x n gradient would be 1.6 GB."""
    n, nnz = 20_000, 20_000
    rng = np.random.default_rng(0)
    idx = rng.integers(0, n, (2, nnz))
    w = mg.tensor(rng.random(nnz, dtype=np.float32), requires_grad=True)
    X = mg.tensor(rng.standard_normal((n, 4), dtype=np.float32), requires_grad=True)
    tracemalloc.start()
    mg.sparse.mm(mg.sparse_coo_tensor(idx, w, (n, n)), X).sum().backward()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert w.grad.shape == (nnz,) and X.grad.shape == (n, 4)
    assert peak < 10 * 2**20


def test_sddmm_chunks_give_the_same_values(monkeypatch):
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal((7, 5)), rng.standard_normal((6, 5))
    rows, cols = rng.integers(0, 7, 40), rng.integers(0, 6, 40)
    whole = ops_products.sddmm(rows, cols, a, b)
    monkeypatch.setattr(ops_products, "_CHUNK_BYTES", 64)  # 1 row of 5 float64 per chunk
    np.testing.assert_allclose(ops_products.sddmm(rows, cols, a, b), whole, rtol=1e-14)
    np.testing.assert_allclose(whole, np.einsum("ij,ij->i", a[rows], b[cols]), rtol=1e-14)


def test_constant_sparse_operand_costs_no_sddmm(monkeypatch):
    calls = []
    real = ops_products.sddmm
    monkeypatch.setattr(ops_products, "sddmm", lambda *a: calls.append(1) or real(*a))
    A, B = running_example()
    A.requires_grad_(False)
    mg.sparse.mm(A, B).sum().backward()
    assert calls == [] and B.grad is not None
    A.requires_grad_(True)
    mg.sparse.mm(A, B).sum().backward()
    assert calls == [1]


# --- second derivatives ---------------------------------------------------------------------
@pytest.mark.parametrize("op", [mg.sparse.mm, mg.mm], ids=["masked", "full"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_gradgradcheck_dense_operand(op, layout):
    rng = np.random.default_rng(3)
    S = mg.tensor(rng.standard_normal((3, 4)) * (rng.random((3, 4)) < 0.5)).to_sparse(layout=layout)
    D = mg.tensor(rng.standard_normal((4, 2)), requires_grad=True)
    assert mg.autograd.gradgradcheck(lambda d: op(S, d).sin(), (D,))


def test_sddmm_is_differentiable():
    rng = np.random.default_rng(4)
    pattern = mg.sparse.COO(np.array([[0, 0, 2, 1], [1, 3, 0, 1]]), np.zeros(4), (3, 4))
    g = mg.tensor(rng.standard_normal((3, 2)), requires_grad=True)
    d = mg.tensor(rng.standard_normal((4, 2)), requires_grad=True)
    assert mg.autograd.gradcheck(lambda g, d: Sddmm.apply(g, d, pattern=pattern)._values(), (g, d))


# --- layouts, hybrid and N-d COO ------------------------------------------------------------------
def test_transpose_of_csr_is_csc_sharing_arrays():
    A, _ = running_example("sparse_csr")
    T = A.t()
    assert T.layout == "sparse_csc" and T.shape == (3, 2)
    assert np.shares_memory(T._data.ccol_indices, A._data.crow_indices)
    assert T.t().layout == "sparse_csr"


def test_t_of_1d_coo_is_itself():
    v = mg.sparse_coo_tensor([[0, 2]], [1.0, 2.0], (3,))
    assert v.t() is v


def test_sum_dtype():
    A, _ = running_example()
    s = mg.sparse.sum(A, dtype=mg.float64)
    assert s.dtype is mg.float64 and s.item() == 6.0
    s.backward()
    assert A.grad.dtype is mg.float32


HYBRID_OPS = [
    lambda S: mg.sparse.sum(S, 0),  # every sparse dim summed: dense (3,)
    lambda S: mg.sparse.sum(S, 1),  # dense dim summed: sparse (5,)
    lambda S: mg.sparse.sum(S),
    lambda S: S * mg.tensor(np.arange(3.0)),
    lambda S: -S * 2.0,
]


@pytest.mark.parametrize("op", HYBRID_OPS)
def test_hybrid_coo(op):
    """Row-sparse (sparse_dim 1, dense_dim 1), as an embedding gradient; with duplicates."""
    rows = np.array([[3, 0, 3, 1]])
    vals = np.arange(12.0).reshape(4, 3) - 5
    S = mg.sparse_coo_tensor(rows, vals, (5, 3), requires_grad=True)
    A = mg.tensor(S._data.to_dense(), requires_grad=True)
    out, ref = op(S), op(A.to_sparse(1))
    dense = out.to_dense() if out.layout != "strided" else out
    np.testing.assert_allclose(
        dense.detach().numpy(),
        (ref.to_dense() if ref.layout != "strided" else ref).detach().numpy(),
    )
    dense.sum().backward()
    assert S.grad.nnz == 3  # rows 0, 1, 3
    mask = np.zeros((5, 1), bool)
    mask[[0, 1, 3]] = True
    (ref.to_dense() if ref.layout != "strided" else ref).sum().backward()
    np.testing.assert_allclose(S.grad._data.to_dense(), A.grad.numpy() * mask)


def test_three_dim_coo_transpose_and_sum():
    rng = np.random.default_rng(5)
    idx = np.stack([rng.integers(0, s, 10) for s in (2, 3, 4)])
    S = mg.sparse_coo_tensor(idx, rng.standard_normal(10), (2, 3, 4), requires_grad=True)
    T = S.transpose(0, 2)
    assert T.shape == (4, 3, 2)
    np.testing.assert_allclose(
        T.to_dense().detach().numpy(), S.to_dense().detach().numpy().transpose(2, 1, 0)
    )
    out = mg.sparse.sum(T, (0, 2))
    np.testing.assert_allclose(
        out.to_dense().detach().numpy(), S.to_dense().detach().numpy().sum((0, 2))
    )
    out.to_dense().sum().backward()
    np.testing.assert_allclose(S.grad._data.to_dense(), (S._data.to_dense() != 0) * 1.0)
