"""Every gradient sum goes through ``add_gradients``: retain_grad, tensor hooks, backward(inputs=)
and the sums of backward itself; a sparse gradient stays sparse where PyTorch keeps it sparse,
and every densification is an event the policy sees."""

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from minigrad.accumulation.accumulate import DensificationError

IDX = [[2], [1], [2]]


def _weight(lib=mg, shape=(4, 3)):
    return lib.tensor(np.arange(12.0).reshape(shape) / 10, requires_grad=True)


def _embed(lib, idx, w):
    lookup = F.embedding if lib is mg else lib.nn.functional.embedding
    return lookup(lib.tensor(idx), w, sparse=True)


def _coo_dense(t):
    return t.to_dense().numpy() if t.layout != "strided" else t.numpy()


# --- retain_grad -------------------------------------------------------------------------------
def test_retain_grad_keeps_a_sparse_gradient_sparse_and_printable():
    w = _weight()
    w2 = w + 0.0
    w2.retain_grad()
    _embed(mg, IDX, w2).sum().backward()
    assert w2.grad.layout == "sparse_coo" and w2.grad.nnz == 3 and not w2.grad.is_coalesced()
    assert "layout=minigrad.sparse_coo" in repr(w2.grad)
    expected = np.zeros((4, 3))
    expected[1], expected[2] = 1.0, 2.0
    np.testing.assert_array_equal(_coo_dense(w2.grad), expected)
    np.testing.assert_array_equal(_coo_dense(w.grad), expected)


def test_retain_grad_owns_its_values():
    w = _weight()
    w2 = w + 0.0
    w2.retain_grad()
    _embed(mg, IDX, w2).sum().backward()
    w2.grad._data.values[...] = 7.0  # the user's copy: the leaf's gradient is untouched
    assert float(w.grad.to_dense().sum()) == 9.0


def test_retain_grad_follows_the_algebra_across_backward_calls():
    w = _weight()
    w2 = w * 1.0
    w2.retain_grad()
    h = _embed(mg, IDX, w2)
    h.sum().backward(retain_graph=True)
    h.sum().backward(retain_graph=True)  # sparse + sparse: concatenated, as PyTorch
    assert w2.grad.layout == "sparse_coo" and w2.grad.nnz == 6
    assert w.grad.layout == "sparse_coo"  # w * 1.0 kept it sparse on the way (PyTorch too)
    steps = list(mg.trace.backward_steps((w2 * 2.0).sum()))  # dense + sparse: dense
    events = [e for s in steps for e in s.events]
    assert [e.rule for e in events] == ["dense_met_sparse", "dense_met_sparse"]  # w2's, w's
    assert events[0].where == "the .grad of non-leaf of shape [4, 3]"
    assert w2.grad.layout == "strided"
    np.testing.assert_array_equal(w2.grad.numpy()[1], [4.0, 4.0, 4.0])
    np.testing.assert_array_equal(w2.grad.numpy()[0], [2.0, 2.0, 2.0])


def test_on_densify_error_stops_a_retained_densification():
    w = _weight()
    w2 = w * 1.0
    w2.retain_grad()
    _embed(mg, IDX, w2).sum().backward(retain_graph=True)
    with mg.sparse.config(on_densify="error"):
        with pytest.raises(DensificationError, match="the .grad of non-leaf of shape"):
            (w2 * 2.0).sum().backward()
    assert w2.grad.layout == "sparse_coo"


def test_retain_grad_under_the_stepper_writes_into_its_store():
    w = _weight()
    w2 = w + 0.0
    w2.retain_grad()
    store = {}
    list(mg.trace.backward_steps(_embed(mg, IDX, w2).sum(), store=store))
    assert w2.grad is None and w.grad is None
    assert store[w2].layout == "sparse_coo" and store[w].layout == "sparse_coo"


def test_retain_grad_of_a_dense_gradient_is_a_copy_replaced_by_each_sum():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2.0
    y.retain_grad()
    (y * 3.0).sum().backward(retain_graph=True)
    first = y.grad
    (y * 3.0).sum().backward()
    np.testing.assert_array_equal(first.numpy(), [3.0, 3.0])  # replaced, not written into
    np.testing.assert_array_equal(y.grad.numpy(), [6.0, 6.0])


# --- hooks ---------------------------------------------------------------------------------------
def test_a_hook_sees_the_sparse_gradient_and_can_clone_it():
    w = _weight()
    w2 = w + 0.0
    seen = []
    w2.register_hook(lambda g: seen.append(g.clone()))
    _embed(mg, IDX, w2).sum().backward()
    (copy,) = seen
    assert copy.layout == "sparse_coo" and "nnz=3" in repr(copy)
    np.testing.assert_array_equal(_coo_dense(copy), _coo_dense(w.grad))


def test_a_hook_sees_the_sum_of_a_sparse_and_a_dense_path_made_by_add_gradients():
    w = _weight()
    seen = []
    w2 = w + 0.0
    w2.register_hook(lambda g: seen.append(g.layout))
    loss = _embed(mg, IDX, w2).sum() + (w2 * 2.0).sum()
    steps = list(mg.trace.backward_steps(loss))
    assert seen == ["strided"]
    events = [(s.node.name(), e.rule, e.where) for s in steps for e in s.events]
    assert events == [
        ("EmbeddingBackward0", "dense_met_sparse", "the gradient flowing into AddBackward0")
    ]


def test_a_dense_replacement_from_a_hook_is_accumulated_like_any_gradient():
    w = _weight()
    w.register_hook(lambda g: g.to_dense() * 2.0)
    _embed(mg, IDX, w).sum().backward()
    assert w.grad.layout == "strided"
    np.testing.assert_array_equal(w.grad.numpy()[2], [4.0, 4.0, 4.0])


# --- PyTorch ---------------------------------------------------------------------------------------
@pytest.mark.oracle
@pytest.mark.filterwarnings("ignore:Sparse invariant checks are implicitly disabled")
def test_retain_grad_and_hooks_against_pytorch():
    torch = pytest.importorskip("torch")
    results = {}
    for lib in (mg, torch):
        w = _weight(lib)
        w2 = w + 0.0
        w2.retain_grad()
        seen = []
        w2.register_hook(lambda g, seen=seen: seen.append(g.clone()))
        h = _embed(lib, IDX, w2)
        h.sum().backward(retain_graph=True)
        h.sum().backward()
        results[lib] = (w2.grad, w.grad, seen)
    (ours, ours_w, ours_seen), (theirs, theirs_w, theirs_seen) = results[mg], results[torch]
    assert ours.layout == "sparse_coo" and theirs.is_sparse and ours.nnz == theirs._nnz()
    assert ours_w.layout == "sparse_coo" and theirs_w.is_sparse
    np.testing.assert_allclose(_coo_dense(ours), theirs.to_dense().numpy())
    np.testing.assert_allclose(_coo_dense(ours_w), theirs_w.to_dense().numpy())
    assert [g.layout == "sparse_coo" for g in ours_seen] == [g.is_sparse for g in theirs_seen]
