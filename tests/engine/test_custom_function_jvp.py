"""Custom ``autograd.Function`` forward rules: ``jvp(ctx, *tangents)`` with ``save_for_forward``,
used by dual tensors and by ``mg.func.jvp`` / ``jacfwd`` alike, as in ``torch.autograd.Function``."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
import minigrad.replaying.forward_ad as fwAD
from minigrad.recording import modes


def f64(data, requires_grad=False):
    return mg.tensor(data, dtype=mg.float64, requires_grad=requires_grad)


class Sin(mg.autograd.Function):
    """sin with both rules: backward (reverse) and jvp (forward)."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)
        return x.sin()

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x.cos()

    @staticmethod
    def jvp(ctx, t):
        (x,) = ctx.saved_tensors
        return t * x.cos()


class MulAdd(mg.autograd.Function):
    """f(a, b, c) = (a*b*c, a + b); c is a Python number."""

    seen = None

    @staticmethod
    def forward(ctx, a, b, c):
        ctx.save_for_forward(a, b)
        ctx.c = c
        return a * b * c, a + b

    @staticmethod
    def backward(ctx, g, h):
        raise AssertionError("not used here")

    @staticmethod
    def jvp(ctx, ta, tb, tc):
        MulAdd.seen = (ta, tb, tc)
        a, b = ctx.saved_tensors
        return (ta * b + a * tb) * ctx.c, ta + tb


class NoJvp(mg.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


@pytest.fixture(autouse=True)
def modes_off_after():
    yield
    assert not modes.state.active and fwAD._current is None


def test_dual_tensor_through_a_custom_function():
    x = f64([0.3, 1.2])
    with fwAD.dual_level():
        y = Sin.apply(fwAD.make_dual(x, f64([1.0, 2.0])))
        tangent = fwAD.unpack_dual(y).tangent
    np.testing.assert_allclose(tangent.numpy(), np.cos([0.3, 1.2]) * [1.0, 2.0], rtol=1e-12)


def test_func_jvp_and_jacfwd_use_the_functions_jvp():
    x = f64([0.3, 1.2])
    out, tangent = mg.func.jvp(Sin.apply, (x,), (f64([1.0, 2.0]),))
    np.testing.assert_allclose(out.numpy(), np.sin([0.3, 1.2]), rtol=1e-12)
    np.testing.assert_allclose(tangent.numpy(), np.cos([0.3, 1.2]) * [1.0, 2.0], rtol=1e-12)
    jac = mg.func.jacfwd(lambda t: Sin.apply(t) * 2)(x)
    np.testing.assert_allclose(jac.numpy(), np.diag(2 * np.cos([0.3, 1.2])), rtol=1e-12)


def test_jacfwd_of_jacfwd_through_a_custom_function():
    """Nested levels: the jvp's own ops carry the outer tangents (it reads saved inputs)."""
    x = f64([0.3, 1.2])
    hess = mg.func.jacfwd(mg.func.jacfwd(lambda t: Sin.apply(t).sum()))(x)
    np.testing.assert_allclose(hess.numpy(), np.diag(-np.sin([0.3, 1.2])), rtol=1e-10)


def test_jvp_gets_zeros_for_a_tensor_without_tangent_and_none_for_a_number():
    a, b = f64([1.0, 2.0]), f64([3.0, 4.0])
    with fwAD.dual_level():
        p, s = MulAdd.apply(fwAD.make_dual(a, f64([1.0, 1.0])), b, 0.5)
        ta, tb, tc = MulAdd.seen
        assert tc is None and tb.shape == b.shape and not tb.numpy().any()
        np.testing.assert_allclose(fwAD.unpack_dual(p).tangent.numpy(), [1.5, 2.0])
        np.testing.assert_allclose(fwAD.unpack_dual(s).tangent.numpy(), [1.0, 1.0])


def test_forward_runs_without_tangents_and_jvp_is_what_counts():
    """PyTorch runs forward with forward AD off: ops inside it carry no tangent, even an
    op without a rule (here an in-place write), and the output's tangent is jvp's."""

    class Clipped(mg.autograd.Function):
        inside = "unset"

        @staticmethod
        def forward(ctx, x):
            Clipped.inside = fwAD.unpack_dual(x).tangent
            y = x.clone()
            y[0] = 0.0  # CopySlices: no forward rule, harmless here
            return y

        @staticmethod
        def backward(ctx, g):
            return g

        @staticmethod
        def jvp(ctx, t):
            return t * 10

    with fwAD.dual_level():
        y = Clipped.apply(fwAD.make_dual(f64([1.0, 2.0]), f64([1.0, 1.0])))
        assert Clipped.inside is None
        np.testing.assert_allclose(fwAD.unpack_dual(y).tangent.numpy(), [10.0, 10.0])


def test_saved_tensors_means_save_for_forward_in_jvp_and_save_for_backward_in_backward():
    class Both(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x * 10)
            ctx.save_for_forward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (s,) = ctx.saved_tensors
            return g * s

        @staticmethod
        def jvp(ctx, t):
            (s,) = ctx.saved_tensors
            return t * s

    x = f64([1.0, 2.0], requires_grad=True)
    with fwAD.dual_level():
        y = Both.apply(fwAD.make_dual(x, f64([1.0, 1.0])))
        np.testing.assert_allclose(fwAD.unpack_dual(y).tangent.detach().numpy(), [1.0, 2.0])
        y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [10.0, 20.0])


def test_reverse_mode_through_the_jvp():
    """The jvp's ops are recorded: the tangent can be differentiated (cos x . v)."""
    x = f64([0.3, 1.2], requires_grad=True)
    with fwAD.dual_level():
        tangent = fwAD.unpack_dual(Sin.apply(fwAD.make_dual(x, f64([1.0, 2.0])))).tangent
        (g,) = mg.autograd.grad(tangent.sum(), x)
    np.testing.assert_allclose(g.numpy(), -np.sin([0.3, 1.2]) * [1.0, 2.0], rtol=1e-12)


def test_no_tangent_reaching_a_function_needs_no_jvp():
    with fwAD.dual_level():
        d = fwAD.make_dual(f64([1.0]), f64([1.0]))
        out = NoJvp.apply(f64([3.0]))  # d is not an argument
        assert fwAD.unpack_dual(out).tangent is None and d is not None


def test_without_jvp_the_error_says_to_implement_it():
    x = f64([1.0, 2.0])
    with fwAD.dual_level():
        with pytest.raises(NotImplementedError, match=r"implement the jvp .*NoJvp has no jvp"):
            NoJvp.apply(fwAD.make_dual(x, f64([1.0, 1.0])))
    with pytest.raises(NotImplementedError, match="NoJvp has no jvp"):
        mg.func.jvp(NoJvp.apply, (x,), (f64([1.0, 1.0]),))


def function_with_jvp(jvp, forward=lambda ctx, x: x * 2):
    return type(
        "Custom",
        (mg.autograd.Function,),
        {
            "forward": staticmethod(forward),
            "backward": staticmethod(lambda ctx, g: g),
            "jvp": staticmethod(jvp),
        },
    )


@pytest.mark.parametrize(
    ("jvp", "error", "match"),
    [
        (lambda ctx, t: (t, t), RuntimeError, r"invalid number of forward gradients \(expected 1"),
        (lambda ctx, t: t.sum(), RuntimeError, r"Tensor is of size \[2\] .* size \[\]"),
        (lambda ctx, t: t.to(mg.float32), RuntimeError, "dtype minigrad.float32 for output 0"),
        (lambda ctx, t: 3.0, TypeError, "Custom.jvp returned float for output 0"),
    ],
)
def test_a_bad_jvp_result_is_a_clear_error(jvp, error, match):
    fn = function_with_jvp(jvp)
    with fwAD.dual_level():
        with pytest.raises(error, match=match):
            fn.apply(fwAD.make_dual(f64([1.0, 2.0]), f64([1.0, 1.0])))


def test_forward_returning_its_input_as_is_is_refused_in_forward_mode():
    fn = function_with_jvp(lambda ctx, t: t, forward=lambda ctx, x: x)
    with fwAD.dual_level():
        with pytest.raises(RuntimeError, match="returning an input as-is"):
            fn.apply(fwAD.make_dual(f64([1.0]), f64([1.0])))
        x = f64([1.0], requires_grad=True)  # recorded: the output is a new tensor, fine
        y = fn.apply(fwAD.make_dual(x, f64([2.0])))
        assert fwAD.unpack_dual(y).tangent.item() == 2.0


def test_a_jvp_may_return_none_for_an_output():
    def forward(ctx, x):
        return x * 2, x * 3

    fn = function_with_jvp(lambda ctx, t: (t * 2, None), forward=forward)
    with fwAD.dual_level():
        a, b = fn.apply(fwAD.make_dual(f64([1.0]), f64([1.0])))
        assert fwAD.unpack_dual(a).tangent.item() == 2.0 and fwAD.unpack_dual(b).tangent is None


def test_save_for_forward_takes_tensors_only():
    def forward(ctx, x):
        ctx.save_for_forward(x, None)  # None is fine, as in PyTorch
        ctx.save_for_forward(x, 3)
        return x * 1

    fn = function_with_jvp(lambda ctx, t: t, forward=forward)
    with pytest.raises(TypeError, match="save_for_forward expects all arguments to be tensors"):
        fn.apply(f64([1.0]))


def test_gradcheck_catches_a_wrong_jvp_only_with_check_forward_ad():
    class WrongJvp(Sin):
        @staticmethod
        def jvp(ctx, t):
            (x,) = ctx.saved_tensors
            return t * x.cos() * 1.01  # 1% off

    x = f64([0.3, 1.2], requires_grad=True)
    assert mg.autograd.gradcheck(WrongJvp.apply, (x,))  # reverse mode alone: right
    with pytest.raises(RuntimeError, match="Jacobian computed with forward mode mismatch") as info:
        mg.autograd.gradcheck(WrongJvp.apply, (x,), check_forward_ad=True)
    assert type(info.value).__name__ == "GradcheckError"
    assert mg.autograd.gradcheck(Sin.apply, (x,), check_forward_ad=True)
    assert mg.autograd.gradcheck(Sin.apply, (x,), check_forward_ad=True, fast_mode=True)
    assert not mg.autograd.gradcheck(
        WrongJvp.apply, (x,), check_forward_ad=True, fast_mode=True, raise_exception=False
    )
