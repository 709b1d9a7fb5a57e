"""Custom autograd Functions (RELIABILITY.md, "Custom Function"), shaped like torch.autograd.Function."""

import math

import numpy as np
import pytest

import minigrad as mg

SECOND_TIME = "Trying to backward through the graph a second time"


class MyReLU(mg.autograd.Function):
    """The course's seed example, verbatim."""

    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return input.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        (input,) = ctx.saved_tensors
        return grad_output * (input > 0).float()


class Square(mg.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 2.0 * x


def f64(data, requires_grad=True):
    return mg.tensor(data, dtype=mg.float64, requires_grad=requires_grad)


# --- the seed example -----------------------------------------------------------------------------


def test_my_relu_forward_backward_and_node_name():
    x = mg.tensor([-2.0, -0.5, 0.0, 1.5, 3.0], requires_grad=True)
    y = MyReLU.apply(x)
    assert y.grad_fn.name() == "MyReLUBackward"
    assert repr(y.grad_fn) == "<MyReLUBackward>"
    assert y.requires_grad and not y.is_leaf
    np.testing.assert_array_equal(y.detach().numpy(), [0.0, 0.0, 0.0, 1.5, 3.0])
    (y * mg.tensor([1.0, 2.0, 3.0, 4.0, 5.0])).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 0.0, 0.0, 4.0, 5.0])


def test_my_relu_passes_gradcheck_away_from_the_kink():
    x = f64([-1.5, -0.3, 0.4, 2.0])
    assert mg.autograd.gradcheck(MyReLU.apply, (x,))


def test_my_relu_matches_the_builtin_relu_inside_a_larger_graph():
    x = f64([[-1.0, 2.0], [0.5, -0.25]])
    w = f64([[0.5], [-2.0]])
    MyReLU.apply(x @ w).sum().backward()
    g_custom = (x.grad.numpy().copy(), w.grad.numpy().copy())
    x.grad = w.grad = None
    (x @ w).relu().sum().backward()
    np.testing.assert_array_equal(g_custom[0], x.grad.numpy())
    np.testing.assert_array_equal(g_custom[1], w.grad.numpy())


def test_apply_without_any_input_requiring_grad_records_nothing():
    x = mg.tensor([-1.0, 1.0])
    y = MyReLU.apply(x)
    assert y.grad_fn is None and not y.requires_grad
    with mg.no_grad():
        z = MyReLU.apply(mg.tensor([1.0], requires_grad=True))
    assert z.grad_fn is None and not z.requires_grad


def test_forward_runs_with_grad_mode_off():
    seen = []

    class Probe(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            seen.append(mg.is_grad_enabled())
            y = x * 2.0
            seen.append(y.requires_grad)
            return y

        @staticmethod
        def backward(ctx, g):
            return g * 2.0

    Probe.apply(mg.tensor([1.0], requires_grad=True))
    assert seen == [False, False]


# --- misuse -------------------------------------------------------------------------------------


def test_wrong_number_of_gradients():
    class TwoGrads(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2.0

        @staticmethod
        def backward(ctx, g):
            return g, g

    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        TwoGrads.apply(x).sum().backward()
    assert str(info.value) == (
        "function TwoGradsBackward returned an incorrect number of gradients (expected 1, got 2)"
    )


def test_too_few_gradients():
    class OneGrad(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return g

    x = mg.tensor(1.0, requires_grad=True)
    y = mg.tensor(2.0, requires_grad=True)
    with pytest.raises(
        RuntimeError,
        match=r"function OneGradBackward returned an incorrect number of gradients \(expected 2, got 1\)",
    ):
        OneGrad.apply(x, y).backward()


@pytest.mark.parametrize(
    "bad, got",
    [(lambda g: g.sum(), "[]"), (lambda g: mg.ones(1, 2), "[1, 2]"), (lambda g: mg.ones(3), "[3]")],
    ids=["scalar", "broadcastable", "longer"],
)
def test_gradient_of_the_wrong_shape_names_both_shapes(bad, got):
    class BadShape(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2.0

        @staticmethod
        def backward(ctx, g):
            return bad(g)

    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError) as info:
        BadShape.apply(x).sum().backward()
    msg = str(info.value)
    assert "BadShapeBackward" in msg
    assert f"got {got}" in msg and "[2]" in msg  # both shapes, no silent reduction
    assert x.grad is None


def test_gradient_that_is_not_a_tensor():
    class Bad(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1.0

        @staticmethod
        def backward(ctx, g):
            return 3.0

    with pytest.raises(TypeError, match="BadBackward returned a gradient at index 0 that is not"):
        Bad.apply(mg.tensor([1.0], requires_grad=True)).sum().backward()


def test_no_backward_defined_says_to_implement_backward():
    class NoBackward(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2.0

    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = NoBackward.apply(x)  # as in PyTorch, recorded (forward mode may need only jvp) ...
    assert y.grad_fn.name() == "NoBackwardBackward"
    with pytest.raises(NotImplementedError) as info:  # ... and refused when backward reaches it
        y.sum().backward()
    assert "You must implement either the backward or vjp method" in str(info.value)
    assert "NoBackward has neither" in str(info.value)


def test_vjp_is_pytorchs_other_name_of_backward():
    class Exp(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.exp()

        @staticmethod
        def vjp(ctx, g):
            (x,) = ctx.saved_tensors
            return g * x.exp()

    x = mg.tensor([0.0, 1.0], requires_grad=True)
    Exp.apply(x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.exp([0.0, 1.0]), rtol=1e-6)

    class Both(Exp):
        @staticmethod
        def backward(ctx, g):
            return g

    with pytest.raises(RuntimeError, match="both 'backward' and 'vjp'"):
        Both.apply(x).sum().backward()


def test_no_forward_defined():
    class NoForward(mg.autograd.Function):
        @staticmethod
        def backward(ctx, g):
            return g

    with pytest.raises(NotImplementedError, match="You must implement the forward function"):
        NoForward.apply(mg.tensor([1.0], requires_grad=True))


@pytest.mark.parametrize(
    "bad", [3, 2.5, np.ones(2), [1.0]], ids=["int", "float", "ndarray", "list"]
)
def test_save_for_backward_only_takes_tensors(bad):
    class SaveBad(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, bad)
            return x * 2.0

        @staticmethod
        def backward(ctx, g):
            return g

    with pytest.raises(TypeError) as info:
        SaveBad.apply(mg.tensor([1.0], requires_grad=True))
    assert str(info.value) == (
        f"save_for_backward can only save variables, but argument 1 is of type {type(bad).__name__}"
    )


def test_save_for_backward_accepts_none():
    class SaveNone(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(None, x)
            return x * 2.0

        @staticmethod
        def backward(ctx, g):
            none, x = ctx.saved_tensors
            assert none is None
            return g * 2.0

    x = mg.tensor([1.0], requires_grad=True)
    SaveNone.apply(x).sum().backward()
    assert x.grad.item() == 2.0


def test_forward_returning_a_non_tensor():
    class NotATensor(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return 3

        @staticmethod
        def backward(ctx, g):
            return g

    with pytest.raises(TypeError, match="NotATensor.forward must return a Tensor"):
        NotATensor.apply(mg.tensor([1.0], requires_grad=True))


def test_saved_tensors_after_the_graph_was_freed():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = Square.apply(x)
    node = y.grad_fn
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0])
    with pytest.raises(RuntimeError, match=SECOND_TIME):
        _ = node.saved_tensors
    with pytest.raises(RuntimeError, match=SECOND_TIME):
        y.sum().backward()


def test_saved_tensors_survive_retain_graph():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = Square.apply(x)
    y.sum().backward(retain_graph=True)
    (saved,) = y.grad_fn.saved_tensors
    assert saved is x
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [4.0, 8.0])


def test_saved_input_modified_in_place_raises_version_error():
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    y = Square.apply(w)
    with mg.no_grad():
        w.mul_(2.0)
    with pytest.raises(RuntimeError, match="is at version 1; expected version 0 instead"):
        y.sum().backward()


# --- ctx features --------------------------------------------------------------------------------


def test_needs_input_grad_and_non_tensor_arguments():
    seen = {}

    class Affine(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x, k, b, label):
            seen["forward"] = ctx.needs_input_grad
            ctx.k = k
            return x * k + b

        @staticmethod
        def backward(ctx, g):
            seen["backward"] = ctx.needs_input_grad
            gx = g * ctx.k if ctx.needs_input_grad[0] else None
            gb = g if ctx.needs_input_grad[2] else None
            return gx, None, gb, None

    x = mg.tensor([1.0, 2.0], requires_grad=True)
    b = mg.tensor([0.5, 0.5])
    out = Affine.apply(x, 3.0, b, "a label")
    np.testing.assert_array_equal(out.detach().numpy(), [3.5, 6.5])
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])
    assert seen["forward"] == (True, False, False, False)
    assert seen["backward"] == (True, False, False, False)
    assert b.grad is None


def test_gradient_for_a_non_tensor_argument_must_be_none():
    class Scale(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g, mg.tensor(1.0)  # a gradient for the float k: not allowed

    with pytest.raises(
        RuntimeError,
        match="function ScaleBackward returned a gradient different than None at position 2, "
        "but the corresponding forward input was not a Variable",
    ):
        Scale.apply(mg.tensor([1.0], requires_grad=True), 2.0).sum().backward()


class SinCos(mg.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sin(), x.cos()

    @staticmethod
    def backward(ctx, g_sin, g_cos):
        (x,) = ctx.saved_tensors
        SinCos.received = (g_sin, g_cos)
        return g_sin * x.cos() - g_cos * x.sin()


def test_multiple_outputs_get_materialized_zero_gradients():
    x = f64([0.3, 1.2])
    s, c = SinCos.apply(x)
    assert s.grad_fn is c.grad_fn
    s.sum().backward()  # c gets no gradient: backward receives zeros of c's shape and dtype
    g_sin, g_cos = SinCos.received
    np.testing.assert_array_equal(g_sin.detach().numpy(), [1.0, 1.0])
    assert g_cos is not None and g_cos.shape == (2,) and g_cos.dtype is mg.float64
    np.testing.assert_array_equal(g_cos.detach().numpy(), 0.0)
    np.testing.assert_allclose(x.grad.numpy(), np.cos([0.3, 1.2]))


def test_multiple_outputs_both_used():
    x = f64([0.3, 1.2])
    s, c = SinCos.apply(x)
    (s * 2.0 + c * 3.0).sum().backward()
    v = np.array([0.3, 1.2])
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.cos(v) - 3 * np.sin(v), rtol=1e-14)
    assert mg.autograd.gradcheck(lambda t: SinCos.apply(t), (f64([0.3, 1.2]),))


def test_set_materialize_grads_false_passes_none():
    received = []

    class Two(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2.0, x * 3.0

        @staticmethod
        def backward(ctx, g1, g2):
            received.append((g1, g2))
            return g1 * 2.0 if g2 is None else g1 * 2.0 + g2 * 3.0

    x = mg.tensor([1.0, 2.0], requires_grad=True)
    a, _ = Two.apply(x)
    a.sum().backward()
    assert received[0][1] is None
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])


def test_mark_non_differentiable():
    class MaxWithIndex(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            value = x.amax()
            scaled = x * 2.0
            ctx.mark_non_differentiable(scaled)
            ctx.save_for_backward(x)
            return value, scaled

        @staticmethod
        def backward(ctx, g, g_scaled):
            (x,) = ctx.saved_tensors
            MaxWithIndex.g_scaled = g_scaled
            return (x == x.amax()).to(x.dtype) * g

    x = mg.tensor([1.0, 5.0, 2.0], requires_grad=True)
    value, scaled = MaxWithIndex.apply(x)
    assert value.requires_grad and value.grad_fn is not None
    assert not scaled.requires_grad and scaled.grad_fn is None and scaled.is_leaf
    np.testing.assert_array_equal(scaled.detach().numpy(), [2.0, 10.0, 4.0])
    value.backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, 1.0, 0.0])
    np.testing.assert_array_equal(MaxWithIndex.g_scaled.detach().numpy(), 0.0)


def test_integer_outputs_never_require_grad():
    class ArgMax(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.amax(), x.argmax()

        @staticmethod
        def backward(ctx, g, g_idx):
            return g * 0.0

    value, idx = ArgMax.apply(mg.tensor([1.0, 3.0], requires_grad=True))
    assert value.requires_grad and not idx.requires_grad and idx.dtype is mg.int64


def test_ctx_carries_arbitrary_attributes():
    class Pow(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x, n):
            ctx.n = n
            ctx.save_for_backward(x)
            return x**n

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * ctx.n * x ** (ctx.n - 1), None

    x = f64(2.0)
    Pow.apply(x, 3).backward()
    assert x.grad.item() == 12.0


# --- differentiable backward ----------------------------------------------------------------------


class Cube(mg.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3.0 * x * x  # built from differentiable ops


def test_custom_backward_is_differentiable_with_create_graph():
    x = f64(2.0)
    (d1,) = mg.autograd.grad(Cube.apply(x), x, create_graph=True)
    assert d1.requires_grad
    (d2,) = mg.autograd.grad(d1, x, create_graph=True)
    (d3,) = mg.autograd.grad(d2, x)
    assert (d1.item(), d2.item(), d3.item()) == (12.0, 12.0, 6.0)


def test_custom_backward_passes_gradgradcheck():
    x = f64([0.5, -1.5, 2.0])
    assert mg.autograd.gradgradcheck(Cube.apply, (x,))
    assert mg.autograd.gradgradcheck(lambda t: SinCos.apply(t)[0] * SinCos.apply(t)[1], (x,))


def test_custom_backward_without_create_graph_is_not_recorded():
    x = f64(2.0)
    (d1,) = mg.autograd.grad(Cube.apply(x), x)
    assert not d1.requires_grad and d1.grad_fn is None


def test_custom_function_inside_a_chain_composes_by_chain_rule():
    x = f64(0.7)
    y = Cube.apply(x.sin()).exp()
    y.backward()
    s = math.sin(0.7)
    assert x.grad.item() == pytest.approx(math.exp(s**3) * 3 * s**2 * math.cos(0.7), rel=1e-13)


def _exp_with_numpy_backward():
    from minigrad.autograd.function import once_differentiable

    class NumpyExp(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.exp()

        @staticmethod
        @once_differentiable
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            assert not mg.is_grad_enabled()  # runs under no_grad, as PyTorch's
            return mg.tensor(g.numpy() * np.exp(x.detach().numpy()))

    return NumpyExp


def test_once_differentiable_backward_runs_once_and_refuses_a_second_derivative():
    NumpyExp = _exp_with_numpy_backward()
    x = mg.tensor([0.0, 1.0], requires_grad=True)
    (gx,) = mg.autograd.grad(NumpyExp.apply(x).sum(), x, create_graph=True)
    np.testing.assert_allclose(gx.numpy(), np.exp([0.0, 1.0]), rtol=1e-6)
    assert not gx.requires_grad  # the incoming gradient (ones) does not require grad
    v = mg.ones(2, requires_grad=True)  # one that does: a second derivative would be wrong
    (gx,) = mg.autograd.grad(NumpyExp.apply(x), x, grad_outputs=v, create_graph=True)
    assert gx.requires_grad
    with pytest.raises(RuntimeError, match="differentiate twice a function that was marked"):
        gx.sum().backward()
