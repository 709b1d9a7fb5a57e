"""``autograd.grad(..., is_grads_batched=True)`` against PyTorch: a batch of vector-Jacobian
products in one call (the Jacobian from ``grad_outputs=eye(n)``)."""

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle


def _jacobian_rows(L, **kw):
    x = L.tensor([0.5, -1.0, 2.0], dtype=L.float64, requires_grad=True)
    y = x.sin() * x.sum()
    return L.autograd.grad(
        y, x, grad_outputs=L.eye(3, dtype=L.float64), is_grads_batched=True, **kw
    )


def test_the_jacobian_in_one_call():
    (got,), (want,) = _jacobian_rows(mg), _jacobian_rows(torch)
    assert got.shape == tuple(want.shape)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-14)


def test_create_graph_keeps_the_rows_differentiable():
    for L in (mg, torch):
        (rows,) = _jacobian_rows(L, create_graph=True)
        assert rows.requires_grad


def test_two_inputs_and_a_batch_of_two():
    out = []
    for L in (mg, torch):
        a = L.tensor([1.0, 2.0], dtype=L.float64, requires_grad=True)
        b = L.tensor([3.0, -1.0], dtype=L.float64, requires_grad=True)
        v = L.tensor([[1.0, 0.0], [0.5, 2.0]], dtype=L.float64)
        ga, gb = L.autograd.grad(a * b.exp(), (a, b), v, is_grads_batched=True)
        out.append((ga.tolist(), gb.tolist()))
    assert out[0] == out[1]


def test_unbatched_grad_outputs_are_refused():
    x = mg.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="leading batch dimension"):
        mg.autograd.grad((x * 2).sum(), x, grad_outputs=mg.tensor(1.0), is_grads_batched=True)


def test_the_unused_input_message_is_pytorchs():
    for L in (mg, torch):
        x = L.ones(3, requires_grad=True)
        with pytest.raises(RuntimeError, match="The differentiated Tensor at index 1 appears"):
            L.autograd.grad((x * 2).sum(), [x, L.ones(2, requires_grad=True)])
