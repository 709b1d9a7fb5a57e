"""clip_grad_norm_ / clip_grad_value_ with sparse gradients, alone and mixed with dense ones:
the same result as clipping the dense equivalents, gradients kept sparse; and PyTorch,
which fails on sparse gradients, as the oracle on the dense equivalents."""

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from minigrad.nn.utils import clip_grad_norm_, clip_grad_value_


def sparse_model(ids=(1, 2, 1, 7), scale=1.0):
    """A table with a sparse gradient (duplicates) and a bias with a dense one."""
    mg.manual_seed(0)
    W = mg.nn.Parameter(mg.randn(10, 3, dtype=mg.float64))
    b = mg.nn.Parameter(mg.randn(3, dtype=mg.float64))
    out = F.embedding(mg.tensor(list(ids), dtype=mg.int64), W, sparse=True)
    with mg.sparse.config(densify="never"):
        ((out * scale + b) ** 2).sum().backward()
    return W, b


def dense_copy(params):
    copies = []
    for p in params:
        q = mg.nn.Parameter(p.detach().clone())
        q.grad = p.grad.coalesce().to_dense() if p.grad.layout != "strided" else p.grad.clone()
        copies.append(q)
    return copies


@pytest.mark.parametrize("norm_type", [2.0, 1.0, 3.0, float("inf"), 0.0, float("-inf")])
@pytest.mark.parametrize("max_norm", [0.5, 1e6])
def test_norm_clipping_equals_clipping_the_dense_equivalents(norm_type, max_norm):
    W, b = sparse_model(scale=0.5)
    dense = dense_copy([W, b])
    total = clip_grad_norm_([W, b], max_norm, norm_type)
    expected = clip_grad_norm_(dense, max_norm, norm_type)
    np.testing.assert_allclose(total.detach().numpy(), expected.detach().numpy(), rtol=1e-12)
    assert W.grad.layout != "strided" and W.grad.is_coalesced() and W.grad.nnz == 3
    np.testing.assert_allclose(
        W.grad.to_dense().detach().numpy(), dense[0].grad.numpy(), rtol=1e-12
    )
    np.testing.assert_allclose(b.grad.numpy(), dense[1].grad.numpy(), rtol=1e-12)


def test_the_norm_of_a_sparse_gradient_sums_duplicates_first():
    W = mg.nn.Parameter(mg.zeros(5, 1, dtype=mg.float64))
    W.grad = mg.sparse_coo_tensor([[2, 2]], [[3.0], [4.0]], (5, 1), dtype=mg.float64)
    assert clip_grad_norm_([W], 100.0).item() == 7.0  # |3 + 4|, not sqrt(3^2 + 4^2)


def test_minus_inf_norm_sees_the_implicit_zeros():
    W = mg.nn.Parameter(mg.zeros(4, 1, dtype=mg.float64))
    W.grad = mg.sparse_coo_tensor(
        [[0, 1, 2, 3]], [[1.0], [2.0], [3.0], [4.0]], (4, 1), dtype=mg.float64
    )
    assert clip_grad_norm_([W], 10.0, float("-inf")).item() == 1.0  # every position stored
    W.grad = mg.sparse_coo_tensor([[0, 1]], [[1.0], [2.0]], (4, 1), dtype=mg.float64)
    assert clip_grad_norm_([W], 10.0, float("-inf")).item() == 0.0


def test_value_clipping_clips_the_summed_duplicates():
    W = mg.nn.Parameter(mg.zeros(5, 2, dtype=mg.float64))
    W.grad = mg.sparse_coo_tensor(
        [[1, 3, 1]], [[0.6, -0.2], [5.0, -5.0], [0.6, -0.3]], (5, 2), dtype=mg.float64
    )
    grad = W.grad
    clip_grad_value_([W], 1.0)
    assert (
        W.grad is grad and grad.layout != "strided" and grad.is_coalesced()
    )  # same tensor, in place
    np.testing.assert_allclose(grad.to_dense().detach().numpy()[[1, 3]], [[1.0, -0.5], [1.0, -1.0]])


def test_value_clipping_mixed_with_dense():
    W, b = sparse_model(scale=3.0)
    dense = dense_copy([W, b])
    clip_grad_value_([W, b], 0.7)
    clip_grad_value_(dense, 0.7)
    np.testing.assert_array_equal(W.grad.to_dense().detach().numpy(), dense[0].grad.numpy())
    np.testing.assert_array_equal(b.grad.numpy(), dense[1].grad.numpy())


def test_scaling_bumps_the_gradient_version_and_keeps_dtype():
    mg.manual_seed(0)
    emb = mg.nn.Embedding(100, 4, sparse=True)
    (emb(mg.tensor([1, 2, 1])) * 10).sum().backward()
    grad = emb.weight.grad
    version = grad._version
    total = clip_grad_norm_(emb.parameters(), 1.0)
    assert total.dtype is mg.float32 and grad._values().dtype is mg.float32
    assert grad._version > version
    np.testing.assert_allclose(np.linalg.norm(grad._values().detach().numpy()), 1.0, rtol=1e-5)


def test_empty_sparse_gradient():
    emb = mg.nn.Embedding(10, 3, sparse=True)
    emb(mg.tensor([], dtype=mg.int64)).sum().backward()
    assert clip_grad_norm_(emb.parameters(), 1.0).item() == 0.0
    clip_grad_value_(emb.parameters(), 1.0)
    assert emb.weight.grad.layout != "strided" and emb.weight.grad.nnz == 0


def test_nonfinite_sparse_norm_raises_when_asked():
    W = mg.nn.Parameter(mg.zeros(3, 1))
    W.grad = mg.sparse_coo_tensor([[1]], [[float("nan")]], (3, 1), dtype=mg.float32)
    with pytest.raises(RuntimeError, match="non-finite"):
        clip_grad_norm_([W], 1.0, error_if_nonfinite=True)


@pytest.mark.oracle
@pytest.mark.filterwarnings("ignore:Sparse invariant checks are implicitly disabled")
def test_torch_fails_on_sparse_gradients_and_agrees_on_their_dense_equivalents():
    torch = pytest.importorskip("torch")
    W, b = sparse_model(scale=0.5)
    tW = torch.tensor(W.detach().numpy(), requires_grad=True)
    tb = torch.tensor(b.detach().numpy(), requires_grad=True)
    out = torch.nn.functional.embedding(torch.tensor([1, 2, 1, 7]), tW, sparse=True)
    ((out * 0.5 + tb) ** 2).sum().backward()
    with pytest.raises(NotImplementedError, match="SparseCPU"):
        torch.nn.utils.clip_grad_norm_([tW, tb], 1.0)
    with pytest.raises(NotImplementedError, match="SparseCPU"):
        torch.nn.utils.clip_grad_value_([tW], 0.1)
    tW.grad = tW.grad.to_dense()
    expected = torch.nn.utils.clip_grad_norm_([tW, tb], 1.0)
    total = clip_grad_norm_([W, b], 1.0)
    np.testing.assert_allclose(total.detach().numpy(), expected.numpy(), rtol=1e-12)
    np.testing.assert_allclose(W.grad.to_dense().detach().numpy(), tW.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(b.grad.numpy(), tb.grad.numpy(), rtol=1e-12)
