"""``Tensor.register_post_accumulate_grad_hook``: runs after ``.grad`` is updated, leaves only."""

import numpy as np
import pytest

import minigrad as mg


def test_the_hook_sees_the_accumulated_grad_once_per_backward():
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    w.register_post_accumulate_grad_hook(lambda p: seen.append((p is w, p.grad.tolist())))
    (w * 3).sum().backward()
    (w * w).sum().backward()  # w used twice: its gradients are summed first, one call
    assert seen == [(True, [3.0, 3.0]), (True, [5.0, 7.0])]


def test_it_runs_after_register_hook_and_for_sparse_gradients():
    emb = mg.nn.Embedding(5, 2, sparse=True)
    order = []
    emb.weight.register_hook(lambda g: order.append("hook"))
    emb.weight.register_post_accumulate_grad_hook(lambda p: order.append(p.grad.layout))
    emb(mg.tensor([1, 3, 1])).sum().backward()
    assert order == ["hook", mg.sparse_coo]


def test_remove_and_autograd_grad_do_not_call_it():
    w = mg.tensor(2.0, requires_grad=True)
    calls = []
    handle = w.register_post_accumulate_grad_hook(lambda p: calls.append(1))
    mg.autograd.grad(w * w, w)
    handle.remove()
    (w * w).backward()
    assert calls == [] and w.grad.item() == 4.0


def test_bad_registrations_raise_pytorchs_errors():
    w = mg.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="cannot be registered on non-leaf tensors"):
        (w * 2).register_post_accumulate_grad_hook(lambda p: None)
    with pytest.raises(RuntimeError, match="doesn't require gradient"):
        mg.ones(1).register_post_accumulate_grad_hook(lambda p: None)
    with pytest.raises(TypeError):
        w.register_post_accumulate_grad_hook(3)


@pytest.mark.oracle
def test_same_calls_and_errors_as_pytorch():
    torch = pytest.importorskip("torch")
    results = []
    for lib in (mg, torch):
        w = lib.tensor([1.0, 2.0], requires_grad=True)
        got = []
        w.register_post_accumulate_grad_hook(lambda p, got=got: got.append(p.grad.tolist()))
        (w * w).sum().backward()
        (w * 3).sum().backward()
        with pytest.raises(RuntimeError) as info:
            (w * 2).register_post_accumulate_grad_hook(lambda p: None)
        results.append((got, str(info.value)))
    assert results[0] == results[1]
    np.testing.assert_equal(results[0][0], [[2.0, 4.0], [5.0, 7.0]])
