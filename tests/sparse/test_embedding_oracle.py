"""PyTorch as oracle for lookups: embedding / embedding_bag / index_select / gather values,
gradients (after coalesce), the nnz and uncoalesced structure of sparse gradients,
padding, bag modes and offsets."""

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F

torch = pytest.importorskip("torch")
TF = torch.nn.functional

pytestmark = [
    pytest.mark.oracle,
    pytest.mark.filterwarnings("ignore:Sparse invariant checks are implicitly disabled"),
]
RNG = np.random.default_rng(11)
NUM, DIM = 12, 3


def pair(shape=(NUM, DIM)):
    data = RNG.standard_normal(shape)
    return mg.tensor(data, requires_grad=True), torch.tensor(data, requires_grad=True)


def assert_same_grad(ours, theirs):
    """Same layout, same structure (nnz, indices in lookup order), same values."""
    if theirs.is_sparse:
        assert ours.layout == "sparse_coo"
        assert ours.nnz == theirs._nnz()
        np.testing.assert_array_equal(ours._indices().detach().numpy(), theirs._indices().numpy())
        np.testing.assert_allclose(
            ours._values().detach().numpy(), theirs._values().numpy(), rtol=1e-12
        )
        assert ours.is_coalesced() == theirs.is_coalesced() or ours.nnz <= 1
        c, tc = ours.coalesce(), theirs.coalesce()
        np.testing.assert_array_equal(c.indices().detach().numpy(), tc.indices().numpy())
        np.testing.assert_allclose(c.values().detach().numpy(), tc.values().numpy(), rtol=1e-12)
    else:
        assert ours.layout == "strided"
        np.testing.assert_allclose(ours.detach().numpy(), theirs.numpy(), rtol=1e-12, atol=1e-15)


EMBEDDING_CASES = [
    ([1, 2, 1, 7], None),
    ([[1, 2], [1, 7], [0, 11]], None),
    ([[1, 2], [2, 7]], 2),
    ([[1, 2], [2, 7]], -1),
    ([], None),
    ([3, 3, 3], 3),
]


@pytest.mark.parametrize("ids, padding_idx", EMBEDDING_CASES)
@pytest.mark.parametrize("sparse", [False, True])
def test_embedding_against_torch(ids, padding_idx, sparse):
    W, tW = pair()
    out = F.embedding(mg.tensor(ids, dtype=mg.int64), W, padding_idx=padding_idx, sparse=sparse)
    tout = TF.embedding(torch.tensor(ids, dtype=torch.long), tW, padding_idx, sparse=sparse)
    np.testing.assert_array_equal(out.detach().numpy(), tout.detach().numpy())
    g = RNG.standard_normal(out.shape)
    with mg.sparse.config(densify="never"):
        out.backward(mg.tensor(g))
    tout.backward(torch.tensor(g))
    assert_same_grad(W.grad, tW.grad)


@pytest.mark.parametrize("sparse", [False, True])
def test_embedding_scale_grad_by_freq_and_max_norm(sparse):
    """PyTorch refuses scale_grad_by_freq with sparse gradients; ours densifies to its dense one."""
    W, tW = pair()
    ids = [1, 1, 4, 1, 5]
    out = F.embedding(mg.tensor(ids), W, max_norm=1.0, scale_grad_by_freq=True, sparse=sparse)
    with torch.no_grad():  # torch renormalises the weight in place: outside autograd
        TF.embedding(torch.tensor(ids), tW, max_norm=1.0)
    tout = TF.embedding(torch.tensor(ids), tW, scale_grad_by_freq=True)
    np.testing.assert_allclose(out.detach().numpy(), tout.detach().numpy(), rtol=1e-12)
    np.testing.assert_allclose(W.detach().numpy(), tW.detach().numpy(), rtol=1e-12)
    with mg.sparse.config(densify="never"):
        (out**2).sum().backward()
    (tout**2).sum().backward()
    assert (W.grad.layout != "strided") == sparse
    ours = W.grad.coalesce().to_dense().detach().numpy() if sparse else W.grad.numpy()
    np.testing.assert_allclose(ours, tW.grad.numpy(), rtol=1e-12)


def test_module_defaults_match_torch():
    mg.manual_seed(0)
    torch.manual_seed(0)
    ours, theirs = mg.nn.Embedding(10, 3, padding_idx=2), torch.nn.Embedding(10, 3, padding_idx=2)
    assert repr(ours) == repr(theirs)
    assert ours.padding_idx == theirs.padding_idx
    np.testing.assert_array_equal(
        ours.weight.detach().numpy()[2], theirs.weight.detach().numpy()[2]
    )
    assert repr(mg.nn.Embedding(5, 2, sparse=True)) == repr(torch.nn.Embedding(5, 2, sparse=True))
    assert repr(mg.nn.EmbeddingBag(5, 2, padding_idx=-1, sparse=True)) == repr(
        torch.nn.EmbeddingBag(5, 2, padding_idx=-1, sparse=True)
    )


BAG_CASES = [
    # ids, offsets, mode, per_sample_weights, padding_idx, include_last_offset
    ([1, 2, 4, 5, 4, 3, 2, 9], [0, 4], "sum", None, None, False),
    ([1, 2, 4, 5, 4, 3, 2, 9], [0, 4], "mean", None, None, False),
    ([1, 2, 4, 5, 4, 3, 2, 9], [0, 4], "max", None, None, False),
    ([1, 2, 4, 5, 4, 3, 2, 9], [0, 2, 2, 5], "mean", None, 2, False),
    ([1, 2, 4, 5, 4, 3, 2, 9], [0, 3, 8], "sum", None, None, True),
    ([1, 2, 4, 5, 4, 3, 2, 9], [0, 4], "sum", "weights", 4, False),
    ([[1, 2, 2], [4, 4, 0]], None, "mean", None, None, False),
    ([[1, 2, 2], [4, 4, 0]], None, "max", None, None, False),
    ([[1, 2, 2], [4, 4, 0]], None, "sum", "weights", None, False),
    ([], [0, 0], "sum", None, None, False),
]


@pytest.mark.parametrize("ids, offsets, mode, psw, padding_idx, last", BAG_CASES)
@pytest.mark.parametrize("sparse", [False, True])
def test_embedding_bag_against_torch(ids, offsets, mode, psw, padding_idx, last, sparse):
    if sparse and mode == "max":
        pytest.skip("PyTorch refuses sparse=True with mode='max' (minigrad accepts it)")
    W, tW = pair()
    w = RNG.standard_normal(np.shape(ids)) if psw else None
    ours_psw = None if w is None else mg.tensor(w, requires_grad=True)
    torch_psw = None if w is None else torch.tensor(w, requires_grad=True)
    off = None if offsets is None else offsets
    out = F.embedding_bag(
        mg.tensor(ids, dtype=mg.int64),
        W,
        None if off is None else mg.tensor(off),
        mode=mode,
        sparse=sparse,
        per_sample_weights=ours_psw,
        include_last_offset=last,
        padding_idx=padding_idx,
    )
    tout = TF.embedding_bag(
        torch.tensor(ids, dtype=torch.long),
        tW,
        None if off is None else torch.tensor(off),
        mode=mode,
        sparse=sparse,
        per_sample_weights=torch_psw,
        include_last_offset=last,
        padding_idx=padding_idx,
    )
    np.testing.assert_allclose(out.detach().numpy(), tout.detach().numpy(), rtol=1e-12, atol=1e-15)
    g = RNG.standard_normal(out.shape)
    with mg.sparse.config(densify="never"):
        out.backward(mg.tensor(g))
    tout.backward(torch.tensor(g))
    assert_same_grad(W.grad, tW.grad)
    if w is not None:
        np.testing.assert_allclose(ours_psw.grad.numpy(), torch_psw.grad.numpy(), rtol=1e-12)


def test_bag_max_sparse_gradient_densifies_to_torchs_dense_one():
    W, tW = pair()
    ids = [[1, 2, 2], [4, 4, 0]]
    with mg.sparse.config(densify="never"):
        F.embedding_bag(mg.tensor(ids), W, mode="max", sparse=True).sum().backward()
    TF.embedding_bag(torch.tensor(ids), tW, mode="max").sum().backward()
    assert W.grad.layout == "sparse_coo" and W.grad.nnz == 6
    np.testing.assert_allclose(W.grad.coalesce().to_dense().detach().numpy(), tW.grad.numpy())


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_index_select_against_torch(dim):
    x, tx = pair((4, 5))
    index = [3, 0, 3, 1]
    out = mg.index_select(x, dim, mg.tensor(index))
    tout = torch.index_select(tx, dim, torch.tensor(index))
    np.testing.assert_array_equal(out.detach().numpy(), tout.detach().numpy())
    g = RNG.standard_normal(out.shape)
    out.backward(mg.tensor(g))
    tout.backward(torch.tensor(g))
    assert_same_grad(x.grad, tx.grad)  # dense, as PyTorch's


@pytest.mark.parametrize("dim", [0, 1])
@pytest.mark.parametrize("sparse_grad", [False, True])
def test_gather_against_torch(dim, sparse_grad):
    x, tx = pair((4, 5))
    index = RNG.integers(0, 4, (3, 4))
    out = mg.gather(x, dim, mg.tensor(index), sparse_grad=sparse_grad)
    tout = torch.gather(tx, dim, torch.tensor(index), sparse_grad=sparse_grad)
    np.testing.assert_array_equal(out.detach().numpy(), tout.detach().numpy())
    g = RNG.standard_normal(out.shape)
    with mg.sparse.config(densify="never"):
        out.backward(mg.tensor(g))
    tout.backward(torch.tensor(g))
    assert_same_grad(x.grad, tx.grad)


def test_error_types_match_torch_where_it_matters():
    for ours, theirs in [
        (
            lambda: F.embedding(mg.tensor([10]), mg.ones(10, 2)),
            lambda: TF.embedding(torch.tensor([10]), torch.ones(10, 2)),
        ),
        (
            lambda: mg.ones(3).index_select(0, mg.tensor([3])),
            lambda: torch.ones(3).index_select(0, torch.tensor([3])),
        ),
    ]:
        with pytest.raises(IndexError, match="index out of range in self"):
            ours()
        with pytest.raises(IndexError, match="index out of range in self"):
            theirs()


@pytest.mark.parametrize("ids", [[0, 1, 2, 3, 0, 1], [2], [3, 3, 3, 3, 3, 3, 3, 3]])
def test_default_keeps_a_sparse_gradient_sparse_where_pytorch_does(ids):
    """No configuration: a small, often-hit table keeps its sparse gradient, as in PyTorch
    (minigrad's byte-derived densify="auto" is an opt-in)."""
    weights = RNG.standard_normal((4, 2))
    ours = mg.nn.Embedding(4, 2, sparse=True, _weight=mg.tensor(weights))
    theirs = torch.nn.Embedding(4, 2, sparse=True, _weight=torch.tensor(weights))
    ours(mg.tensor(ids)).sum().backward()
    theirs(torch.tensor(ids)).sum().backward()
    assert_same_grad(ours.weight.grad, theirs.weight.grad)
    ours(mg.tensor(ids)).sum().backward()  # accumulated: sparse + sparse stays sparse
    theirs(torch.tensor(ids)).sum().backward()
    assert ours.weight.grad.layout == "sparse_coo" and theirs.weight.grad.is_sparse
    np.testing.assert_allclose(
        ours.weight.grad.to_dense()._data, theirs.weight.grad.to_dense().numpy(), rtol=1e-12
    )
