"""Tensor hooks (register_hook, handle.remove), retain_grad and the non-leaf .grad warning."""

import warnings

import numpy as np
import pytest

import minigrad as mg

NON_LEAF_WARNING = "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed"


def test_leaf_hook_replaces_the_gradient_and_can_be_removed():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    handle = x.register_hook(lambda g: g * 10.0)
    (x * 3.0).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [30.0, 30.0])
    handle.remove()
    x.grad = None
    (x * 3.0).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])
    handle.remove()  # removing twice is harmless


def test_hook_returning_none_observes_without_changing():
    seen = []
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    x.register_hook(lambda g: seen.append(g.detach().numpy().copy()))
    (x * x).sum().backward()
    assert len(seen) == 1
    np.testing.assert_array_equal(seen[0], [2.0, 4.0])
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0])


def test_hooks_run_in_registration_order_each_seeing_the_previous_result():
    order = []
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    x.register_hook(lambda g: order.append(1))
    x.register_hook(lambda g: order.append(2) or g + 1.0)
    x.register_hook(lambda g: order.append(3) or g * 10.0)
    (x * 3.0).sum().backward()
    assert order == [1, 2, 3]
    np.testing.assert_array_equal(x.grad.numpy(), [40.0, 40.0])


def test_leaf_hook_sees_the_summed_gradient_once():
    calls = []
    x = mg.tensor(2.0, requires_grad=True)
    x.register_hook(lambda g: calls.append(g.item()))
    (x * x + x * 3.0).backward()
    assert calls == [7.0]


def test_non_leaf_hook_replacement_flows_upstream():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    m = x * 3.0
    seen = []
    handle = m.register_hook(lambda g: seen.append(g.detach().numpy().copy()) or g * 2.0)
    (m * m).sum().backward(retain_graph=False)
    np.testing.assert_array_equal(seen[0], [6.0, 12.0])  # d(sum m^2)/dm = 2m
    np.testing.assert_array_equal(x.grad.numpy(), [36.0, 72.0])  # 3 * 2 * 2m
    handle.remove()
    x.grad = None
    m = x * 3.0
    (m * m).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [18.0, 36.0])


def test_removing_a_non_leaf_hook_before_backward():
    x = mg.tensor([1.0], requires_grad=True)
    m = x * 2.0
    handle = m.register_hook(lambda g: g * 100.0)
    handle.remove()
    m.sum().backward()
    assert x.grad.item() == 2.0


def test_register_hook_on_a_tensor_without_grad_raises():
    with pytest.raises(
        RuntimeError, match="cannot register a hook on a tensor that doesn't require gradient"
    ):
        mg.tensor([1.0]).register_hook(lambda g: g)


def test_register_hook_with_a_non_callable_raises():
    with pytest.raises(TypeError, match="register_hook expects a callable, got int"):
        mg.tensor([1.0], requires_grad=True).register_hook(3)


def test_leaf_hook_applies_to_autograd_grad():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    x.register_hook(lambda g: g * 10.0)
    (g,) = mg.autograd.grad((x * 3.0).sum(), x)
    np.testing.assert_array_equal(g.detach().numpy(), [30.0, 30.0])


@pytest.mark.parametrize("leaf", [True, False])
def test_hook_that_changes_the_shape_is_reported_as_the_hooks_fault(leaf):
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    target = x if leaf else x * 1.0
    target.register_hook(lambda g: g.sum())
    with pytest.raises(RuntimeError, match=r"hook .*changed the size"):
        (target * 3.0).sum().backward()


# --- retain_grad ------------------------------------------------------------------------------------


def test_retain_grad_populates_a_non_leaf_and_accumulates():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    m = x * 2.0
    m.retain_grad()
    assert m.retains_grad
    loss = (m * m).sum()
    loss.backward(retain_graph=True)
    np.testing.assert_array_equal(m.grad.numpy(), [4.0, 8.0])
    first = m.grad.numpy().copy()
    loss.backward()
    np.testing.assert_array_equal(m.grad.numpy(), 2 * first)
    np.testing.assert_array_equal(x.grad.numpy(), [16.0, 32.0])


def test_retain_grad_sees_the_gradient_after_hooks_registered_later():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    m = x * 1.0
    m.retain_grad()
    m.register_hook(lambda g: g * 2.0)  # PyTorch runs retain_grad's hook last
    (m * 3.0).sum().backward()
    np.testing.assert_array_equal(m.grad.numpy(), [6.0, 6.0])
    np.testing.assert_array_equal(x.grad.numpy(), [6.0, 6.0])


def test_retain_grad_on_a_leaf_is_a_no_op():
    x = mg.tensor([1.0], requires_grad=True)
    x.retain_grad()
    assert not x.retains_grad  # as in PyTorch: leaves keep .grad anyway
    (x * 2.0).sum().backward()
    assert x.grad.item() == 2.0


def test_retain_grad_twice_does_not_double_count():
    x = mg.tensor([1.0], requires_grad=True)
    m = x * 2.0
    m.retain_grad()
    m.retain_grad()
    (m * 5.0).sum().backward()
    assert m.grad.item() == 5.0


def test_retain_grad_without_requires_grad_raises():
    with pytest.raises(
        RuntimeError, match="can't retain_grad on Tensor that has requires_grad=False"
    ):
        mg.tensor([1.0]).retain_grad()


# --- the non-leaf .grad warning --------------------------------------------------------------------


def test_non_leaf_grad_access_warns_and_points_at_the_caller():
    x = mg.tensor([1.0], requires_grad=True)
    m = x * 2.0
    with pytest.warns(UserWarning, match=NON_LEAF_WARNING) as record:
        assert m.grad is None
    assert "retain_grad()" in str(record[0].message)
    assert record[0].filename == __file__


def test_no_grad_warning_for_leaves_and_retained_non_leaves():
    x = mg.tensor([1.0], requires_grad=True)
    m = x * 2.0
    m.retain_grad()
    plain = mg.tensor([1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert x.grad is None
        assert m.grad is None
        assert plain.grad is None
        (m * 1.0).sum().backward()
        assert m.grad.item() == 1.0


def test_non_leaf_hook_is_called_once_with_the_summed_gradient():
    calls = []
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    m = x * 2.0
    m.register_hook(lambda g: calls.append(g.tolist()))
    (m * m + m * 3.0).sum().backward()
    assert calls == [[7.0, 11.0]]  # 2m + 3, summed over both uses


@pytest.mark.parametrize("leaf", [True, False])
def test_hooks_run_with_grad_mode_of_the_backward_pass(leaf):
    modes = []
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    target = x if leaf else x * 1.0
    target.register_hook(lambda g: modes.append(mg.is_grad_enabled()))
    (target * 1.0).sum().backward()
    assert modes == [False]
