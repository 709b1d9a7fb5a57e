"""``tape.custom_gradient``: TensorFlow's ``log1pexp`` (finite gradient at 100 where the naive
one is NaN, equal to the closed form), one engine node used by the tape, ``.backward()`` and
``autograd.grad`` alike, second derivatives through ``grad_fn``, captured variables, and the
errors of a wrong ``grad_fn``."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad.tape import GradientTape, custom_gradient


def t64(a, requires_grad=False):
    return mg.tensor(np.asarray(a, dtype=np.float64), requires_grad=requires_grad)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


@custom_gradient
def log1pexp(x):
    e = mg.exp(x)

    def grad(dy):
        return dy * (1 - 1 / (1 + e))

    return mg.log(1 + e), grad


def naive_log1pexp(x):
    return mg.log(1 + mg.exp(x))


def test_the_gradient_at_100_is_finite_where_the_naive_one_is_nan():
    x = mg.tensor(100.0)  # float32: exp(100) overflows
    with GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    assert tape.gradient(y, x).item() == 1.0
    with GradientTape() as tape:
        tape.watch(x)
        y = naive_log1pexp(x)
    with np.errstate(invalid="ignore"):  # 0 * inf in the naive backward
        assert np.isnan(tape.gradient(y, x).item())


@pytest.mark.parametrize("dtype", [mg.float32, mg.float64])
def test_the_gradient_is_the_closed_form_sigmoid(dtype):
    values = np.array([-3.0, 0.0, 0.5, 4.0, 30.0])
    x = mg.tensor(values, dtype=dtype)
    with GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    np.testing.assert_allclose(y.detach().numpy(), np.log1p(np.exp(values)), rtol=1e-6)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), sigmoid(values), rtol=1e-6)


def test_backward_and_autograd_grad_use_the_same_node():
    x = mg.tensor([100.0, 1.0], requires_grad=True)
    y = log1pexp(x)
    assert y.grad_fn.name() == "log1pexpBackward"
    assert [n for n, _ in y.grad_fn.next_functions][0].name() == "AccumulateGrad"  # one node
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [1.0, sigmoid(1.0)], rtol=1e-6)
    (g,) = mg.autograd.grad(log1pexp(x).sum(), x)
    np.testing.assert_allclose(g.numpy(), x.grad.numpy())


def test_grad_fn_is_what_every_gradient_uses():
    @custom_gradient
    def clip_gradient(x):
        def grad(dy):
            return dy.clamp(-0.1, 0.1)

        return x * 1.0, grad

    w = t64([2.0, -3.0], requires_grad=True)
    (clip_gradient(w) * 5).sum().backward()
    assert w.grad.numpy().tolist() == [0.1, 0.1]
    with GradientTape() as tape:
        y = (clip_gradient(w) * -5).sum()
    assert tape.gradient(y, w).numpy().tolist() == [-0.1, -0.1]


def test_second_derivative_through_grad_fn():
    x = t64([-1.0, 0.5, 2.0])
    with GradientTape() as outer:
        outer.watch(x)
        with GradientTape() as inner:
            inner.watch(x)
            y = log1pexp(x)
        g = inner.gradient(y, x)
    s = sigmoid(x.numpy())
    np.testing.assert_allclose(g.detach().numpy(), s, rtol=1e-12)
    np.testing.assert_allclose(outer.gradient(g, x).numpy(), s * (1 - s), rtol=1e-12)
    w = t64(0.7, requires_grad=True)
    (gw,) = mg.autograd.grad(log1pexp(w), w, create_graph=True)
    (ggw,) = mg.autograd.grad(gw, w)
    assert ggw.item() == pytest.approx(sigmoid(0.7) * (1 - sigmoid(0.7)))


def test_several_inputs_and_outputs_and_a_structure_of_outputs():
    @custom_gradient
    def mul_and_add(a, b):
        def grad(d_prod, d_sum):
            return d_prod * b + d_sum, d_prod * a + d_sum

        return {"prod": a * b, "sum": a + b}, grad

    a, b = t64(2.0, requires_grad=True), t64(5.0, requires_grad=True)
    out = mul_and_add(a, b)
    assert sorted(out) == ["prod", "sum"] and out["prod"].item() == 10.0
    assert out["prod"].grad_fn is out["sum"].grad_fn  # one node, two outputs
    with GradientTape() as tape:
        out = mul_and_add(a, b)
        total = out["prod"] * 2 + out["sum"]
    ga, gb = tape.gradient(total, [a, b])
    assert (ga.item(), gb.item()) == (11.0, 5.0)


def test_a_non_tensor_argument_and_a_keyword_argument_get_no_gradient():
    @custom_gradient
    def scale(x, factor, *, shift=0.0):
        def grad(dy):
            return dy * factor, None

        return x * factor + shift, grad

    x = t64(1.0, requires_grad=True)
    y = scale(x, 3.0, shift=t64(1.0, requires_grad=True))
    assert y.item() == 4.0
    y.backward()
    assert x.grad.item() == 3.0


def test_a_method_gets_its_self_for_free():
    class Layer:
        def __init__(self):
            self.k = 2.0

        @custom_gradient
        def __call__(self, x):
            def grad(dy):
                return dy * self.k

            return x * self.k, grad

    x = t64(1.0, requires_grad=True)
    Layer()(x).backward()
    assert x.grad.item() == 2.0


def test_variables_used_inside_are_passed_to_grad_fn():
    w = mg.nn.Parameter(t64([1.0, 2.0]))

    @custom_gradient
    def linear(x):
        def grad(dy, variables=None):
            (v,) = variables
            return dy * v, [dy * x * 10]  # a visible factor 10: grad_fn's, not autograd's

        return x * w, grad

    x = t64([3.0, 4.0], requires_grad=True)
    with GradientTape() as tape:
        y = linear(x).sum()
    gx, gw = tape.gradient(y, [x, w])
    assert gx.numpy().tolist() == [1.0, 2.0] and gw.numpy().tolist() == [30.0, 40.0]
    linear(x).sum().backward()
    assert w.grad.numpy().tolist() == [30.0, 40.0]


def test_grad_fn_without_variables_is_refused_when_f_uses_one():
    w = t64([1.0], requires_grad=True)

    @custom_gradient
    def uses_w(x):
        return x * w, lambda dy: dy * w

    message = "grad_fn must accept a keyword argument 'variables'.*float64 \\[1\\]"
    with pytest.raises(TypeError, match=message):
        uses_w(t64([2.0], requires_grad=True))


def test_a_watched_constant_reaches_grad_fn_through_the_tape():
    c = t64(2.0)

    @custom_gradient
    def square(x):
        def grad(dy):
            return dy * 2 * x

        return x * x, grad

    with GradientTape() as tape:
        tape.watch(c)
        y = square(c)
    assert tape.gradient(y, c).item() == 4.0
    assert not c.requires_grad and not square(c).requires_grad


def test_wrong_grad_fns_get_clear_errors():
    x = t64([1.0, 2.0], requires_grad=True)

    @custom_gradient
    def too_many(a):
        return a * 2, lambda dy: (dy, dy)

    with pytest.raises(ValueError, match="expected to return 1 gradients but returned 2"):
        too_many(x).sum().backward()

    @custom_gradient
    def wrong_shape(a):
        return a * 2, lambda dy: dy.sum()

    with pytest.raises(RuntimeError, match=r"wrong_shapeBackward .* at index 0 - got \[\] .*\[2\]"):
        wrong_shape(x).sum().backward()

    w = t64(1.0, requires_grad=True)

    @custom_gradient
    def bad_variables(a):
        return a * w, lambda dy, variables=None: (dy * w, [])

    with pytest.raises(ValueError, match="Must return gradient for each variable"):
        bad_variables(x).sum().backward()

    @custom_gradient
    def not_a_pair(a):
        return a * w, lambda dy, variables=None: dy

    with pytest.raises(TypeError, match="returns a pair"):
        not_a_pair(x).sum().backward()


def test_wrong_functions_get_clear_errors():
    with pytest.raises(TypeError, match="expected a function"):
        custom_gradient(3)

    @custom_gradient
    def no_grad_fn(a):
        return a * 2

    with pytest.raises(TypeError, match=r"no_grad_fn must return a pair \(y, grad_fn\)"):
        no_grad_fn(t64(1.0))

    @custom_gradient
    def not_tensor(a):
        return [a, 3.0], lambda *dys: dys[0]

    with pytest.raises(TypeError, match=r"returned y\[1\] = 3.0 \(a float\), not a Tensor"):
        not_tensor(t64(1.0))


def test_decorating_with_parentheses():
    @custom_gradient()
    def double(x):
        return x * 2, lambda dy: dy * 2

    x = t64(1.0, requires_grad=True)
    double(x).backward()
    assert x.grad.item() == 2.0 and double.__name__ == "double"
