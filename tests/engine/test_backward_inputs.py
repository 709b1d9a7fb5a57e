"""``backward(inputs=...)`` runs in the engine: only the given tensors accumulate, leaves through
their AccumulateGrad (hooks and post-accumulate hooks run as in a full backward), non-leaf
tensors as retain_grad does; sparse gradients stay sparse; bad inputs get PyTorch's errors."""

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F

IDX = [[2], [1], [2]]


def _counter(t):
    calls = []
    t.register_post_accumulate_grad_hook(lambda p: calls.append(p.grad.layout))
    return calls


def test_a_leaf_input_runs_its_post_accumulate_hook_once():
    w = mg.tensor(np.ones((4, 3)), requires_grad=True)
    x = mg.tensor(np.ones((4, 3)), requires_grad=True)
    calls, other = _counter(w), _counter(x)
    (F.embedding(mg.tensor(IDX), w, sparse=True).sum() + (x * 2.0).sum()).backward(inputs=[w])
    assert calls == ["sparse_coo"] and other == []
    assert x.grad is None and w.grad.layout == "sparse_coo" and w.grad.nnz == 3


def test_leaf_hooks_run_only_for_the_inputs():
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    x = mg.tensor([3.0, 4.0], requires_grad=True)
    seen = []
    w.register_hook(lambda g: seen.append("w"))
    x.register_hook(lambda g: seen.append("x"))
    (w * x).sum().backward(inputs=[w])
    assert seen == ["w"]
    np.testing.assert_array_equal(w.grad.numpy(), [3.0, 4.0])


def test_a_non_leaf_input_gets_its_grad_as_retain_grad_gives_it():
    w = mg.tensor(np.ones((4, 3)), requires_grad=True)
    w2 = w * 1.0
    F.embedding(mg.tensor(IDX), w2, sparse=True).sum().backward(inputs=[w2])
    assert w.grad is None
    assert w2.grad.layout == "sparse_coo" and "nnz=3" in repr(w2.grad)
    np.testing.assert_array_equal(w2.grad.to_dense().numpy()[2], [2.0, 2.0, 2.0])


def test_only_the_part_of_the_graph_that_leads_to_the_inputs_runs():
    ran = []

    class Spy(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1.0

        @staticmethod
        def backward(ctx, g):
            ran.append("spy")
            return g

    w = mg.tensor([1.0, 2.0], requires_grad=True)
    x = mg.tensor([3.0, 4.0], requires_grad=True)
    (w * 2.0 + Spy.apply(x)).sum().backward(inputs=[w])
    assert ran == [] and x.grad is None
    np.testing.assert_array_equal(w.grad.numpy(), [2.0, 2.0])


def test_an_input_given_twice_or_also_retaining_its_grad_accumulates_once():
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    calls = _counter(w)
    (w * 3.0).sum().backward(inputs=[w, w])
    assert calls == ["strided"]
    np.testing.assert_array_equal(w.grad.numpy(), [3.0, 3.0])
    y = w * 2.0
    y.retain_grad()
    (y * 3.0).sum().backward(inputs=[y, y])
    np.testing.assert_array_equal(y.grad.numpy(), [3.0, 3.0])


def test_accumulation_across_calls_follows_the_algebra():
    w = mg.tensor(np.ones((4, 3)), requires_grad=True)
    loss = F.embedding(mg.tensor(IDX), w, sparse=True).sum()
    loss.backward(inputs=[w], retain_graph=True)
    loss.backward(inputs=[w], retain_graph=True)
    assert w.grad.layout == "sparse_coo" and w.grad.nnz == 6
    with mg.sparse.config(on_densify="warn"):
        with pytest.warns(mg.sparse.DensificationWarning, match="a dense gradient met a sparse"):
            (w * 2.0).sum().backward(inputs=[w])
    assert w.grad.layout == "strided"
    np.testing.assert_array_equal(w.grad.numpy()[2], [6.0, 6.0, 6.0])


def test_create_graph_makes_the_inputs_grad_differentiable():
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    (w**3).sum().backward(inputs=[w], create_graph=True)
    assert w.grad.requires_grad
    (g2,) = mg.autograd.grad(w.grad.sum(), w)
    np.testing.assert_array_equal(g2.numpy(), [6.0, 12.0])


@pytest.mark.parametrize(
    "inputs, error, match",
    [
        ([], RuntimeError, "`inputs` argument to `backward\\(\\)` cannot be empty"),
        ([3], TypeError, "inputs\\[0\\] must be a Tensor, got int"),
        ([mg.ones(2)], RuntimeError, "does not require grad"),
    ],
)
def test_bad_inputs(inputs, error, match):
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(error, match=match):
        (w * 3.0).sum().backward(inputs=inputs)
    assert w.grad is None


@pytest.mark.oracle
@pytest.mark.filterwarnings("ignore:Sparse invariant checks are implicitly disabled")
def test_against_pytorch():
    torch = pytest.importorskip("torch")
    results = {}
    for lib in (mg, torch):
        w = lib.tensor(np.arange(12.0).reshape(4, 3), requires_grad=True)
        w2 = w * 1.0
        calls = _counter(w)
        lookup = F.embedding if lib is mg else torch.nn.functional.embedding
        loss = (lookup(lib.tensor(IDX), w, sparse=True) * w2[:3]).sum()
        loss.backward(inputs=[w, w2])
        results[lib] = (len(calls), w.grad, w2.grad)
    (n, wg, w2g), (tn, twg, tw2g) = results[mg], results[torch]
    assert n == tn == 1
    assert (wg.layout == "sparse_coo") == twg.is_sparse
    np.testing.assert_allclose(wg.to_dense().numpy(), twg.to_dense().numpy())
    np.testing.assert_allclose(w2g.numpy(), tw2g.numpy())
