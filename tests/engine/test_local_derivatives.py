"""trace.local_derivatives: what the chain rule multiplies by at an elementwise node."""

import numpy as np

import minigrad as mg


def test_elementwise_local_derivatives_are_exact():
    x = mg.tensor([0.5, -1.0, 2.0], dtype=mg.float64, requires_grad=True)
    y = x.tanh()
    (d,) = mg.trace.local_derivatives(y.grad_fn)
    np.testing.assert_allclose(d, 1 - np.tanh(x.detach().numpy()) ** 2)
    z = x * mg.tensor([2.0, 3.0, 4.0], dtype=mg.float64)
    dx, dw = mg.trace.local_derivatives(z.grad_fn)
    np.testing.assert_array_equal(dx, [2.0, 3.0, 4.0])
    np.testing.assert_array_equal(dw, x.detach().numpy())


def test_contribution_is_upstream_times_local():
    x = mg.tensor([1.0, 2.0], dtype=mg.float64, requires_grad=True)
    y = x.exp()
    loss = (y * mg.tensor([3.0, 5.0], dtype=mg.float64)).sum()
    (local,) = mg.trace.local_derivatives(y.grad_fn)
    steps = {s.node.name(): s for s in mg.trace.backward_steps(loss, retain_graph=True)}
    exp_step = steps["ExpBackward0"]
    np.testing.assert_allclose(
        exp_step.grad_inputs[0].detach().numpy(), exp_step.grad_outputs[0].detach().numpy() * local
    )


def test_not_elementwise_or_broadcast_gives_none():
    a = mg.randn(2, 3, requires_grad=True)
    assert mg.trace.local_derivatives((a @ a.T).grad_fn) is None
    assert mg.trace.local_derivatives(a.sum().grad_fn) is None
    b = mg.randn(3, requires_grad=True)
    da, db = mg.trace.local_derivatives((a + b).grad_fn)
    assert da.shape == (2, 3) and db is None  # b was broadcast: its gradient is a sum


def test_freed_node_gives_none():
    x = mg.tensor([1.0], requires_grad=True)
    y = x.sin()
    y.sum().backward()
    assert mg.trace.local_derivatives(y.grad_fn) is None
