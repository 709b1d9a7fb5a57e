"""autocast: which ops run in float16, which in float32, and where gradients arrive."""

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F


def test_matmul_and_elementwise_lower_reductions_float32():
    w = mg.randn(3, 4, requires_grad=True)
    x = mg.randn(2, 3)
    with mg.autocast(dtype=mg.float16):
        h = x @ w
        a = (h + 1.0).tanh() * 2.0 - h.relu()
        s = a.sum()
        m = a.mean()
        sm = mg.softmax(a, dim=1)
        e = a.exp()
    assert h.dtype is mg.float16 and a.dtype is mg.float16
    assert s.dtype is mg.float32 and m.dtype is mg.float32
    assert sm.dtype is mg.float32 and e.dtype is mg.float32


def test_gradients_reach_float32_master_weights_in_float32():
    mg.manual_seed(0)
    w = mg.randn(3, 4, requires_grad=True)
    b = mg.zeros(4, requires_grad=True)
    x = mg.randn(5, 3)
    with mg.autocast():
        loss = ((x @ w + b).sigmoid() ** 2).mean()
    loss.backward()
    assert w.grad.dtype is mg.float32 and b.grad.dtype is mg.float32
    w32, b32 = w.detach().requires_grad_(), b.detach().requires_grad_()
    ((x @ w32 + b32).sigmoid() ** 2).mean().backward()
    np.testing.assert_allclose(w.grad.numpy(), w32.grad.numpy(), rtol=2e-2, atol=2e-3)
    assert not np.array_equal(w.grad.numpy(), w32.grad.numpy())  # float16 was really used


def test_nested_disabled_region_and_restore():
    x = mg.ones(2, 2)
    with mg.autocast():
        assert mg.amp.is_autocast_enabled()
        with mg.autocast(enabled=False):
            assert not mg.amp.is_autocast_enabled()
            assert (x @ x).dtype is mg.float32
        assert (x @ x).dtype is mg.float16
    assert not mg.amp.is_autocast_enabled()
    assert (x @ x).dtype is mg.float32


def test_decorator_and_device_type():
    @mg.autocast("cpu", dtype=mg.float16)
    def f(a):
        return a @ a

    assert f(mg.ones(2, 2)).dtype is mg.float16
    assert (mg.ones(2, 2) @ mg.ones(2, 2)).dtype is mg.float32


def test_float64_and_integer_tensors_are_not_cast():
    with mg.autocast():
        assert (mg.ones(2, dtype=mg.float64) * 2.0).dtype is mg.float64
        assert (mg.arange(3) + mg.arange(3)).dtype is mg.int64


def test_exception_inside_region_turns_it_off():
    with pytest.raises(ZeroDivisionError), mg.autocast():
        raise ZeroDivisionError
    assert not mg.amp.is_autocast_enabled()
    assert (mg.ones(2, 2) @ mg.ones(2, 2)).dtype is mg.float32


def test_bad_arguments():
    with pytest.raises(RuntimeError, match="minigrad computes on the CPU only; got device='cuda'"):
        mg.autocast("cuda")
    with pytest.raises(ValueError, match="dtype must be a floating dtype"):
        mg.autocast(dtype=mg.int32)


def test_op_policy_table_names_existing_ops():
    from minigrad.ops import arith, conv, linalg, reduce, special, trig_and_logs, unary

    classes = {
        n for m in (arith, conv, linalg, reduce, unary, trig_and_logs, special) for n in dir(m)
    }
    assert set(mg.amp.OP_POLICY) <= classes
    assert set(mg.amp.OP_POLICY.values()) == {"lower", "float32"}


def test_losses_run_in_float32_so_a_tiny_difference_keeps_its_gradient():
    # 1.0 and 1.0002 are the same float16 number (spacing 2**-10 near 1): a float16
    # `input - target` would make the gradient exactly 0. The losses run in float32.
    pred = mg.tensor([1.0, 2.0], requires_grad=True)
    target = mg.tensor([1.0002, 2.0])
    with mg.autocast(dtype=mg.float16):
        h = pred * 1.0  # lowered: float16, and 1.0 still
        assert h.dtype is mg.float16
        loss = F.mse_loss(h, target)
        bce = F.binary_cross_entropy_with_logits(h, mg.tensor([1.0, 0.0]))
        assert mg.amp.is_autocast_enabled()  # on again after the loss
    assert loss.dtype is mg.float32 and bce.dtype is mg.float32
    loss.backward()
    expected = 2 * (1.0 - np.float32(1.0002)) / 2
    np.testing.assert_allclose(pred.grad.numpy()[0], expected, rtol=1e-3)
    assert pred.grad.dtype is mg.float32


def test_losses_outside_autocast_are_unchanged():
    x = mg.tensor([1.0, 2.0], dtype=mg.float16)
    assert F.mse_loss(x, x).dtype is mg.float16  # no autocast: no cast
