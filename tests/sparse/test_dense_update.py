"""A sparse gradient applied to a dense parameter in place: ``p.data -= lr * p.grad``,
``p.add_(g, alpha=-lr)`` under no_grad (PyTorch's idioms), and what is refused."""

import numpy as np
import pytest

import minigrad as mg


def embedding_with_grad(ids=(1, 1, 4)):
    emb = mg.nn.Embedding(10, 3, sparse=True, _weight=mg.tensor(np.arange(30.0).reshape(10, 3)))
    emb(mg.tensor(list(ids))).sum().backward()
    return emb.weight


def test_data_update_with_a_sparse_gradient():
    p = embedding_with_grad()
    before = p.detach().numpy().copy()
    p.data -= 0.5 * p.grad  # duplicates (row 1 twice) are summed
    moved = p.detach().numpy() - before
    np.testing.assert_array_equal(moved[1], [-1.0] * 3)
    np.testing.assert_array_equal(moved[4], [-0.5] * 3)
    assert not np.delete(moved, [1, 4], axis=0).any()


@pytest.mark.parametrize("layout", ["sparse_coo", "sparse_csr", "sparse_csc"])
def test_every_layout_is_scattered_into_a_matrix(layout):
    d = np.array([[0.0, 2.0, 0.0], [1.0, 0.0, 3.0]])
    x = mg.zeros(2, 3, dtype=mg.float64)
    x.add_(mg.tensor(d).to_sparse(layout=layout), alpha=2)
    np.testing.assert_array_equal(x.numpy(), 2 * d)


def test_add_and_sub_under_no_grad_bump_the_version():
    p = embedding_with_grad()
    v = p._version
    with mg.no_grad():
        p.sub_(p.grad, alpha=0.5)
        p.add_(p.grad)
    np.testing.assert_array_equal(p.detach().numpy()[1], np.arange(3.0, 6.0) + 1.0)
    assert p._version == v + 2


def test_refused_while_recording_or_mismatched():
    p = embedding_with_grad()
    with pytest.raises(RuntimeError, match="update outside autograd"):
        p.add_(p.grad)
    with mg.no_grad(), pytest.raises(RuntimeError, match=r"got \[2, 3\] minigrad.float64"):
        p.add_(mg.ones(2, 3, dtype=mg.float64).to_sparse())
    with mg.no_grad(), pytest.raises(RuntimeError, match="float32 into"):
        p.add_(mg.ones(10, 3).to_sparse())
    with pytest.raises(NotImplementedError):
        p.grad.add_(p.grad)  # sparse in-place: no kernel


def test_element_size_of_a_sparse_tensor():
    assert embedding_with_grad().grad.element_size() == 8
    assert mg.ones(2, 2).to_sparse_csr().element_size() == 4


@pytest.mark.oracle
def test_same_as_pytorch():
    torch = pytest.importorskip("torch")
    w = np.random.default_rng(0).standard_normal((10, 3))
    ours = mg.nn.Embedding(10, 3, sparse=True, _weight=mg.tensor(w))
    theirs = torch.nn.Embedding(10, 3, sparse=True, _weight=torch.tensor(w))
    for _ in range(3):
        ours(mg.tensor([1, 1, 4, 7])).pow(2).sum().backward()
        theirs(torch.tensor([1, 1, 4, 7])).pow(2).sum().backward()
        ours.weight.data -= 0.1 * ours.weight.grad
        theirs.weight.data -= 0.1 * theirs.weight.grad
        ours.weight.grad = theirs.weight.grad = None
    np.testing.assert_allclose(ours.weight.detach().numpy(), theirs.weight.detach().numpy())
