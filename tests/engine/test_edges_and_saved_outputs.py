"""Edges and saved outputs: ``next_functions`` pairs as in PyTorch, and a saved output kept
without the tensor (no out -> node -> out cycle), rebuilt when backward reads it.

(What each op leaves for the garbage collector is measured, not pinned:
``benchmarks/bench_gc_footprint.py``.)
"""

import numpy as np
import pytest

import minigrad as mg


def test_a_long_chain_matches_the_chain_rule_by_hand():
    x = mg.tensor(np.ones((4, 4), np.float32), requires_grad=True)
    y = x
    for _ in range(200):
        y = (y * 1.0001).tanh()  # MulScalar saves nothing; Tanh saves its output
    y.sum().backward()
    v, d = 1.0, 1.0  # the chain rule by hand, in float64: d y_k / d y_(k-1) = c (1 - y_k**2)
    for _ in range(200):
        v = np.tanh(v * 1.0001)
        d *= 1.0001 * (1 - v * v)
    np.testing.assert_allclose(x.grad.numpy(), np.full((4, 4), d), rtol=1e-3)


def test_single_edges_look_like_pytorch_next_functions():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2.0
    y = h.exp()
    assert y.grad_fn.next_functions == ((h.grad_fn, 0),)
    assert h.grad_fn.next_functions[0][0].name() == "AccumulateGrad"
    assert h.grad_fn.next_functions[0][0].variable is x
    assert y.grad_fn.needs_input_grad == (True,)


def test_one_input_op_on_a_later_output_of_a_custom_function():
    # the edge points at output 1 of the producer
    class Split(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1.0, x * 3.0

        @staticmethod
        def backward(ctx, ga, gb):
            return ga + 3.0 * gb

    x = mg.tensor([1.0, -2.0], dtype=mg.float64, requires_grad=True)
    _, b = Split.apply(x)
    y = b.exp()
    assert y.grad_fn.next_functions == ((b.grad_fn, 1),)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 3.0 * np.exp(3.0 * np.array([1.0, -2.0])))


@pytest.mark.usefixtures("no_gc")
def test_saved_output_is_rebuilt_when_the_tensor_is_gone():
    x = mg.tensor([0.5, -1.0], dtype=mg.float64, requires_grad=True)
    h = x.tanh()  # saves its output
    loss = (h * 2.0).sum()
    del h  # the node keeps the array and version, not the tensor
    (saved,) = loss.grad_fn.next_functions[0][0].next_functions[0][0].saved_tensors
    np.testing.assert_allclose(saved.detach().numpy(), np.tanh([0.5, -1.0]))
    loss.backward()
    np.testing.assert_allclose(x.grad.numpy(), 2.0 * (1 - np.tanh([0.5, -1.0]) ** 2))


def test_inplace_write_through_a_detached_alias_of_a_saved_output_is_caught():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    y.detach().mul_(2.0)  # same memory, same version counter
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_saved_output_rebuilt_for_double_backward_keeps_its_graph():
    x = mg.tensor([0.3, -0.4], dtype=mg.float64, requires_grad=True)
    y = x.tanh()
    (g,) = mg.autograd.grad(y.sum(), x, create_graph=True)
    del y
    (gg,) = mg.autograd.grad(g.sum(), x)
    t = np.tanh([0.3, -0.4])
    np.testing.assert_allclose(gg.detach().numpy(), -2 * t * (1 - t**2))
