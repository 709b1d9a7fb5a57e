"""Graph mechanics (RELIABILITY.md, "Graph mechanics"): backward, retain_graph, autograd.grad.

Messages are PyTorch's wording wherever RELIABILITY.md quotes it; error types follow the rule
"misuse of autograd raises RuntimeError".
"""

import math
import weakref

import numpy as np
import pytest

import minigrad as mg

SECOND_TIME = "Trying to backward through the graph a second time"
RETAIN_HINT = "Specify retain_graph=True"


def f64(data, requires_grad=True):
    return mg.tensor(data, dtype=mg.float64, requires_grad=requires_grad)


# --- backward twice / retain_graph ---------------------------------------------------------


def test_backward_twice_without_retain_graph_raises_second_time_error():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match=SECOND_TIME) as info:
        y.backward()
    assert RETAIN_HINT in str(info.value)
    assert "directly access saved tensors after they have already been freed" in str(info.value)


def test_backward_twice_through_a_shared_subgraph_raises():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = x * x
    h.sin().sum().backward()
    with pytest.raises(RuntimeError, match=SECOND_TIME):
        h.cos().sum().backward()


def test_autograd_grad_frees_the_graph_too():
    x = mg.tensor(2.0, requires_grad=True)
    y = x.sin() * x
    mg.autograd.grad(y, x)
    with pytest.raises(RuntimeError, match=SECOND_TIME):
        mg.autograd.grad(y, x)


def test_retain_graph_accumulates_gradients_over_two_backward_calls():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x**3).sum()
    y.backward(retain_graph=True)
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 12.0, 27.0])
    y.backward(retain_graph=True)
    np.testing.assert_allclose(x.grad.numpy(), [6.0, 24.0, 54.0])
    y.backward()  # last one may free
    np.testing.assert_allclose(x.grad.numpy(), [9.0, 36.0, 81.0])
    with pytest.raises(RuntimeError, match=SECOND_TIME):
        y.backward()


def test_gradients_accumulate_across_separate_graphs():
    x = mg.tensor(2.0, requires_grad=True)
    (x * x).backward()
    (x * 3.0).backward()
    assert x.grad.item() == 7.0
    x.grad = None
    (x * 3.0).backward()
    assert x.grad.item() == 3.0


# --- the gradient argument -----------------------------------------------------------------


def test_non_scalar_backward_without_gradient_raises():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(
        RuntimeError, match="grad can be implicitly created only for scalar outputs"
    ):
        (x * 2.0).backward()
    assert x.grad is None


def test_one_element_non_scalar_backward_is_implicit():
    x = mg.tensor([[2.0]], requires_grad=True)
    (x * 3.0).backward()
    assert x.grad.shape == (1, 1) and x.grad.item() == 3.0


def test_gradient_of_wrong_shape_names_both_shapes():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        (x * 2.0).backward(mg.ones(3))
    msg = str(info.value)
    assert msg.startswith("Mismatch in shape: grad_output[0] has a shape of [3]")
    assert "output[0] has a shape of [2]" in msg


def test_wrong_shape_grad_output_in_autograd_grad_names_the_index():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    a, b = x * 2.0, (x * 3.0).sum()
    with pytest.raises(RuntimeError, match=r"grad_output\[0\] has a shape of \[2, 1\]"):
        mg.autograd.grad([a, b], x, grad_outputs=[mg.ones(2, 1), mg.tensor(1.0)])


def test_backward_on_tensor_that_does_not_require_grad():
    t = mg.tensor([1.0, 2.0]).sum()
    with pytest.raises(
        RuntimeError, match="element 0 of tensors does not require grad and does not have a grad_fn"
    ):
        t.backward()


def test_backward_on_tensor_computed_under_no_grad():
    x = mg.tensor(1.0, requires_grad=True)
    with mg.no_grad():
        y = x * 2.0
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad"):
        y.backward()


def test_backward_on_a_leaf_itself_sets_its_grad():
    x = mg.tensor(4.0, requires_grad=True)
    x.backward()
    assert x.grad.item() == 1.0


def test_explicit_gradient_is_used_as_vector_in_vjp():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * x
    y.backward(mg.tensor([1.0, -1.0, 0.5]))
    np.testing.assert_allclose(x.grad.numpy(), [2.0, -4.0, 3.0])


# --- autograd.grad ---------------------------------------------------------------------------


def test_autograd_grad_unused_input_raises_with_hint():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    unused = mg.tensor(1.0, requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        mg.autograd.grad((x * 2.0).sum(), [x, unused])
    msg = str(info.value)
    assert "appears to not have been used in the graph" in msg
    assert msg.endswith("Set allow_unused=True if this is the desired behavior.")


def test_autograd_grad_allow_unused_returns_none():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    unused = mg.tensor(1.0, requires_grad=True)
    gx, gu = mg.autograd.grad((x * 2.0).sum(), [x, unused], allow_unused=True)
    np.testing.assert_array_equal(gx.detach().numpy(), [2.0, 2.0])
    assert gu is None


def test_autograd_grad_input_reachable_only_through_detach_is_unused():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    b = mg.tensor(1.0, requires_grad=True)
    out = (x.detach() * 2.0).sum() + b * 1.0
    with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
        mg.autograd.grad(out, [x])


def test_autograd_grad_materialize_grads_gives_zeros():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    unused = mg.tensor([5.0, 6.0, 7.0], requires_grad=True)
    _, gu = mg.autograd.grad((x * 2.0).sum(), [x, unused], materialize_grads=True)
    assert gu.shape == (3,)
    np.testing.assert_array_equal(gu.detach().numpy(), 0.0)


def test_autograd_grad_leaves_dot_grad_untouched():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    w = mg.tensor([3.0, 4.0], requires_grad=True)
    x.grad = mg.tensor([10.0, 10.0])
    before = x.grad
    (gx,) = mg.autograd.grad((x * w).sum(), x)
    np.testing.assert_array_equal(gx.detach().numpy(), [3.0, 4.0])
    assert x.grad is before
    np.testing.assert_array_equal(x.grad.numpy(), [10.0, 10.0])
    assert w.grad is None  # w was in the graph but not asked for


def test_autograd_grad_input_not_requiring_grad_raises():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="does not require grad"):
        mg.autograd.grad((x * 2.0).sum(), mg.tensor([1.0]))


def test_autograd_grad_result_has_no_history_without_create_graph():
    x = mg.tensor(3.0, requires_grad=True)
    (g,) = mg.autograd.grad(x**3, x)
    assert g.grad_fn is None and not g.requires_grad
    assert g.item() == 27.0


def test_autograd_grad_with_respect_to_a_non_leaf():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2.0
    (gh,) = mg.autograd.grad((h * h).sum(), h)
    np.testing.assert_array_equal(gh.detach().numpy(), [4.0, 8.0])
    assert x.grad is None


def test_autograd_grad_outputs_vector_jacobian_product():
    x = f64([1.0, 2.0, 3.0])
    w = f64([0.5, -1.0, 2.0])
    (g,) = mg.autograd.grad(x * w, x, grad_outputs=f64([1.0, -1.0, 2.0], False))
    np.testing.assert_allclose(g.detach().numpy(), [0.5, 1.0, 4.0])


def test_autograd_grad_multiple_outputs_and_inputs():
    x = f64([1.0, 2.0])
    w = f64([3.0, 4.0])
    y = (x * w).sum()  # dy/dx = w, dy/dw = x
    z = (x * x).sum()  # dz/dx = 2x
    gx, gw = mg.autograd.grad([y, z], [x, w], retain_graph=True)
    np.testing.assert_allclose(gx.detach().numpy(), [5.0, 8.0])
    np.testing.assert_allclose(gw.detach().numpy(), [1.0, 2.0])
    (gx,) = mg.autograd.grad([y, z], [x], grad_outputs=[f64(2.0, False), f64(3.0, False)])
    np.testing.assert_allclose(gx.detach().numpy(), [2 * 3.0 + 3 * 2.0, 2 * 4.0 + 3 * 4.0])


def test_autograd_grad_wrong_number_of_grad_outputs():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="grad_outputs has 2 entries but there are 1 outputs"):
        mg.autograd.grad((x * 2.0).sum(), x, grad_outputs=[mg.tensor(1.0), mg.tensor(1.0)])


# --- higher order ------------------------------------------------------------------------------


def _nth_derivatives(f, x0, n):
    x = f64(x0)
    g = f(x)
    out = []
    for _ in range(n):
        (g,) = mg.autograd.grad(g, x, create_graph=True)
        out.append(g.item())
    return out


@pytest.mark.parametrize("x0", [1.5, -0.7, 2.0])
def test_fourth_order_derivatives_of_x_to_the_fifth(x0):
    got = _nth_derivatives(lambda x: x**5, x0, 5)
    want = [5 * x0**4, 20 * x0**3, 60 * x0**2, 120 * x0, 120.0]
    np.testing.assert_allclose(got, want, rtol=1e-12)


@pytest.mark.parametrize("x0", [0.7, -2.3])
def test_fourth_order_derivatives_of_sin(x0):
    got = _nth_derivatives(lambda x: x.sin(), x0, 4)
    want = [math.cos(x0), -math.sin(x0), -math.cos(x0), math.sin(x0)]
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_third_order_of_a_composite_exp_of_tensor_power():
    # f = exp(x**2): f' = 2x f, f'' = (2 + 4x^2) f, f''' = (12x + 8x^3) f
    x0 = 0.6
    got = _nth_derivatives(lambda x: (x * x).exp(), x0, 3)
    f = math.exp(x0**2)
    want = [2 * x0 * f, (2 + 4 * x0**2) * f, (12 * x0 + 8 * x0**3) * f]
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_second_order_mixed_partials():
    x = f64(2.0)
    y = f64(3.0)
    f = x * x * y + y.sin() * x
    gx, gy = mg.autograd.grad(f, [x, y], create_graph=True)
    (gxy,) = mg.autograd.grad(gx, y, retain_graph=True)  # d2f/dydx = 2x + cos y
    (gyx,) = mg.autograd.grad(gy, x)  # d2f/dxdy = 2x + cos y
    assert gxy.item() == pytest.approx(4.0 + math.cos(3.0), rel=1e-12)
    assert gyx.item() == pytest.approx(4.0 + math.cos(3.0), rel=1e-12)


def test_backward_with_create_graph_makes_grad_differentiable():
    x = f64([1.0, 2.0])
    (x**3).sum().backward(create_graph=True)
    assert x.grad.requires_grad
    np.testing.assert_allclose(x.grad.detach().numpy(), [3.0, 12.0])
    (g2,) = mg.autograd.grad(x.grad.sum(), x)
    np.testing.assert_allclose(g2.detach().numpy(), [6.0, 12.0])


def test_backward_inputs_restricts_accumulation():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    w = mg.tensor([3.0, 4.0], requires_grad=True)
    (x * w).sum().backward(inputs=[w])
    assert x.grad is None
    np.testing.assert_array_equal(w.grad.numpy(), [1.0, 2.0])


# --- multiple uses, item, saved tensors ---------------------------------------------------------


def test_tensor_used_several_times_gets_the_sum_of_contributions():
    x = f64(3.0)
    y = x * x + x * 2.0 + x.sin() + x + x / 4.0
    y.backward()
    assert x.grad.item() == pytest.approx(2 * 3.0 + 2.0 + math.cos(3.0) + 1.0 + 0.25, rel=1e-14)


def test_same_tensor_twice_in_one_op():
    x = f64([1.0, -2.0])
    (x * x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, -4.0])
    x.grad = None
    (x + x + x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])


def test_diamond_graph_contributions_are_summed():
    x = f64([0.5, 1.5])
    h = x.exp()
    out = (h * h.sin() + h.tanh()).sum()
    out.backward()
    e = np.exp([0.5, 1.5])
    want = (np.sin(e) + e * np.cos(e) + (1 - np.tanh(e) ** 2)) * e
    np.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-13)


@pytest.mark.parametrize("dtype", [mg.float32, mg.float64])
def test_item_returns_a_plain_python_float(dtype):
    x = mg.tensor([1.0, 2.0], dtype=dtype, requires_grad=True)
    loss = (x * x).sum()
    v = loss.item()
    assert type(v) is float and v == 5.0
    assert type(mg.tensor([3], dtype=mg.int64).sum().item()) is int


def test_item_of_many_elements_raises():
    with pytest.raises(
        RuntimeError, match="a Tensor with 2 elements cannot be converted to Scalar"
    ):
        mg.tensor([1.0, 2.0]).item()


@pytest.mark.usefixtures("no_gc")
def test_saved_intermediate_is_released_by_backward_without_gc():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2.0
    y = h.sin()  # SinBackward0 saves h
    ref = weakref.ref(h)
    loss = y.sum()
    del h
    assert ref() is not None  # kept alive by the saved tensors
    loss.backward()
    assert ref() is None  # backward released it, though y and loss are still alive
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.cos([2.0, 4.0]), rtol=1e-6)


@pytest.mark.usefixtures("no_gc")
@pytest.mark.parametrize("op", ["exp", "tanh", "sigmoid", "sqrt"])
def test_saved_outputs_are_released_after_backward_and_del(op):
    # these ops save their own output: backward must break that cycle, so refcounting frees it
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = getattr(x * 1.5, op)()
    ref = weakref.ref(h)
    loss = (h * h).sum()
    loss.backward()
    del h, loss
    assert ref() is None


@pytest.mark.usefixtures("no_gc")
def test_long_chain_is_freed_by_refcounting_after_backward():
    x = mg.tensor([0.1, 0.2], requires_grad=True)
    refs = []
    y = x
    for i in range(200):
        y = [lambda t: t.exp() * 0.5, lambda t: t.tanh(), lambda t: t.sigmoid() * t][i % 3](y)
        refs.append(weakref.ref(y))
    y.sum().backward()
    del y
    assert all(r() is None for r in refs)


@pytest.mark.usefixtures("no_gc")
def test_retained_graph_keeps_saved_tensors_until_the_last_backward():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2.0
    ref = weakref.ref(h)
    y = h.sin().sum()
    del h
    y.backward(retain_graph=True)
    assert ref() is not None
    y.backward()
    assert ref() is None


@pytest.mark.usefixtures("no_gc")
def test_graph_without_backward_is_freed_by_refcounting():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = x.exp()
    ref = weakref.ref(h)
    del h
    assert ref() is None


# --- gradcheck itself ----------------------------------------------------------------------------


def test_gradcheck_detects_a_wrong_backward():
    class WrongSin(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.sin()

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * x.cos() * 1.01  # 1% off

    x = f64([0.3, 1.1])
    with pytest.raises(RuntimeError, match="Jacobian mismatch") as info:
        mg.autograd.gradcheck(WrongSin.apply, (x,))
    assert type(info.value).__name__ == "GradcheckError"  # a RuntimeError, as in PyTorch
    assert mg.autograd.gradcheck(WrongSin.apply, (x,), raise_exception=False) is False
    assert mg.autograd.gradcheck(lambda t: t.sin(), (x,))


def test_gradgradcheck_of_builtin_ops():
    x = f64([0.5, 1.0, -0.3])
    assert mg.autograd.gradgradcheck(lambda t: (t * t).sin(), (x,))


def test_create_graph_under_no_grad_records_the_sum_of_two_incoming_gradients():
    # h feeds two consumers, so the engine sums two gradients for it; with create_graph
    # that sum must be recorded even when the caller is under no_grad (as in PyTorch)
    x = f64(0.5)
    h = x.sin()
    y = h * h + h
    with mg.no_grad():
        (g,) = mg.autograd.grad(y, x, create_graph=True)
    assert g.requires_grad
    (gg,) = mg.autograd.grad(g, x)
    s, c = math.sin(0.5), math.cos(0.5)
    assert gg.item() == pytest.approx(2 * c * c - (2 * s + 1) * s, rel=1e-12)  # d2y/dx2
