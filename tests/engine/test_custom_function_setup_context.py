"""Custom Functions in PyTorch 2's second style: ``forward(*args)`` without ctx, and
``setup_context(ctx, inputs, output)``. Each class is written once and run with both
libraries (``lib`` is minigrad or torch), so the same code is checked against PyTorch."""

import numpy as np
import pytest

import minigrad as mg


def functions(lib):
    """The test's Functions, built on ``lib.autograd.Function``."""

    class Scale(lib.autograd.Function):
        """f(x, k) = k * x, k a number with a default."""

        @staticmethod
        def forward(x, k=2.0):
            return x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.k = inputs[1]
            ctx.seen = (len(inputs), lib.is_grad_enabled(), output.requires_grad)

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k, None

    class Square(lib.autograd.Function):
        """f(x) = x**2, saving its input for backward and for forward mode."""

        @staticmethod
        def forward(x):
            return x * x

        @staticmethod
        def setup_context(ctx, inputs, output):
            (x,) = inputs
            ctx.save_for_backward(x)
            ctx.save_for_forward(x)

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

        @staticmethod
        def jvp(ctx, x_t):
            (x,) = ctx.saved_tensors
            return 2 * x * x_t

    class Exp(lib.autograd.Function):
        """f(x) = e**x, saving its own output: backward must get the tensor carrying the node."""

        @staticmethod
        def forward(x):
            return x.exp()

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(output)

        @staticmethod
        def backward(ctx, g):
            (out,) = ctx.saved_tensors
            return g * out

    class SplitTwo(lib.autograd.Function):
        """Two outputs; the second marked non-differentiable in setup_context."""

        @staticmethod
        def forward(x):
            return x * 2, x * 3

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.mark_non_differentiable(output[1])
            ctx.output_type = type(output).__name__

        @staticmethod
        def backward(ctx, g1, g2):
            return g1 * 2

    return Scale, Square, Exp, SplitTwo


def libraries():
    out = [pytest.param(mg, id="minigrad")]
    try:
        import torch
    except ImportError:
        return out
    return out + [pytest.param(torch, id="torch", marks=pytest.mark.oracle)]


LIBS = libraries()


def leaf(lib, values):
    return lib.tensor(np.asarray(values, dtype=np.float64), requires_grad=True)


@pytest.mark.parametrize("lib", LIBS)
def test_defaults_and_keywords_reach_setup_context_as_inputs(lib):
    Scale = functions(lib)[0]
    x = leaf(lib, [1.0, 2.0])
    y = Scale.apply(x)
    assert y.grad_fn.seen == (2, False, False)  # both inputs, recording off, a plain output
    y.sum().backward()
    Scale.apply(x, k=3.0).sum().backward()
    np.testing.assert_allclose(x.grad.detach().numpy(), [5.0, 5.0])


@pytest.mark.parametrize("lib", LIBS)
def test_saved_tensors_gradcheck_and_forward_mode(lib):
    _, Square, _, _ = functions(lib)
    x = leaf(lib, [3.0, -4.0])
    assert lib.autograd.gradcheck(Square.apply, (x,))
    assert lib.autograd.gradgradcheck(Square.apply, (x,))
    ones = lib.ones(2, dtype=lib.float64)
    _, tangent = lib.func.jvp(Square.apply, (x.detach(),), (ones,))
    np.testing.assert_allclose(tangent.numpy(), [6.0, -8.0])
    fw = lib.autograd.forward_ad
    with fw.dual_level():
        dual = Square.apply(fw.make_dual(x.detach(), ones))
        np.testing.assert_allclose(fw.unpack_dual(dual).tangent.numpy(), [6.0, -8.0])


@pytest.mark.parametrize("lib", LIBS)
def test_a_saved_output_is_the_tensor_that_carries_the_node(lib):
    Exp = functions(lib)[2]
    x = leaf(lib, [0.0, 1.0])
    y = Exp.apply(x)
    assert y.grad_fn.saved_tensors[0].grad_fn is not None
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.exp([0.0, 1.0]))


@pytest.mark.parametrize("lib", LIBS)
def test_tuple_output_and_mark_non_differentiable(lib):
    SplitTwo = functions(lib)[3]
    a, b = SplitTwo.apply(leaf(lib, [1.0]))
    assert (a.requires_grad, b.requires_grad) == (True, False)
    assert a.grad_fn.output_type == "tuple"


@pytest.mark.parametrize("lib", LIBS)
def test_under_no_grad_setup_context_runs_and_nothing_is_recorded(lib):
    Scale = functions(lib)[0]
    with lib.no_grad():
        y = Scale.apply(leaf(lib, [1.0]))
    assert not y.requires_grad and y.grad_fn is None


@pytest.mark.parametrize("lib", LIBS)
def test_mixing_the_two_styles_is_a_type_error(lib):
    class CtxButSetup(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, g):
            return g

    class NoCtxNoSetup(lib.autograd.Function):
        @staticmethod
        def forward(x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g

    x = leaf(lib, [1.0])
    with pytest.raises(TypeError, match="missing a required argument: 'x'"):
        CtxButSetup.apply(x)
    with pytest.raises(TypeError, match="takes 1 positional argument but 2 were given"):
        NoCtxNoSetup.apply(x)


def test_the_base_setup_context_says_it_is_not_implemented():
    with pytest.raises(NotImplementedError, match="setup_context is not implemented"):
        mg.autograd.Function.setup_context(None, (), None)
