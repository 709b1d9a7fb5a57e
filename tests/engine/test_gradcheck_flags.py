"""gradcheck / gradgradcheck keywords, as PyTorch 2.13 names them: each is honoured (a check
it turns on catches what it is for, a check it turns off lets that through) or refused."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import minigrad as mg
from minigrad.recording.function import Op
from minigrad.replaying.gradcheck import GradcheckError


def f64(data, requires_grad=True):
    return mg.tensor(data, dtype=mg.float64, requires_grad=requires_grad)


def sin_function(backward_factor=1.0, jvp_factor=1.0):
    class Sin(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            ctx.save_for_forward(x)
            return x.sin()

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * x.cos() * backward_factor

        @staticmethod
        def jvp(ctx, t):
            (x,) = ctx.saved_tensors
            return t * x.cos() * jvp_factor

    return Sin


X = f64([0.3, -1.1, 2.0])


def test_keywords_and_defaults_are_pytorchs():
    torch = pytest.importorskip("torch")
    for ours, theirs in (
        (mg.autograd.gradcheck, torch.autograd.gradcheck),
        (mg.autograd.gradgradcheck, torch.autograd.gradgradcheck),
    ):
        want = {
            n: p.default
            for n, p in inspect.signature(theirs).parameters.items()
            if p.kind is p.KEYWORD_ONLY
        }
        got = {n: p.default for n, p in inspect.signature(ours).parameters.items()}
        missing = {n: d for n, d in want.items() if n not in got or got[n] != d}
        assert not missing, f"{ours.__name__}: keywords or defaults unlike PyTorch's: {missing}"


def test_check_backward_ad_false_skips_reverse_mode():
    wrong_backward = sin_function(backward_factor=1.01)
    with pytest.raises(GradcheckError, match="^Jacobian mismatch"):
        mg.autograd.gradcheck(wrong_backward.apply, (X,), check_forward_ad=True)
    assert mg.autograd.gradcheck(
        wrong_backward.apply, (X,), check_forward_ad=True, check_backward_ad=False
    )


class ForgetfulProduct(Op):
    """a * b with a built-in forward rule that is right when one input carries a tangent and
    wrong when both do (it forgets a * t_b)."""

    save_inputs = True

    @staticmethod
    def forward(ctx, a, b):
        return a * b

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        return g * b, g * a

    @staticmethod
    def jvp(params, inputs, tangents, out):
        (a, b), (ta, tb) = inputs, tangents
        if ta is not None and tb is not None:
            return ta * b  # the bug
        return ta * b if tb is None else a * tb


def test_check_forward_ad_catches_a_rule_that_is_wrong_only_with_two_tangents():
    """Column by column, one input at a time carries a tangent, so the bug hides; the
    undefined-tangent check (no tangent vs a zero one, the other input carrying one) finds it."""
    a, b = f64([1.0, 2.0]), f64([3.0, -1.0])
    kw = {"check_forward_ad": True, "check_backward_ad": False}
    with pytest.raises(GradcheckError, match="undefined tangent"):
        mg.autograd.gradcheck(ForgetfulProduct.apply, (a, b), **kw)
    assert mg.autograd.gradcheck(ForgetfulProduct.apply, (a, b), check_undefined_grad=False, **kw)


def test_both_checks_off_is_refused_as_in_pytorch():
    with pytest.raises(AssertionError, match="at least one of check_forward_ad or check_backward"):
        mg.autograd.gradcheck(mg.sin, (X,), check_backward_ad=False)
    with pytest.raises(AssertionError, match="check_fwd_over_rev or check_rev_over_rev"):
        mg.autograd.gradgradcheck(mg.sin, (X,), check_rev_over_rev=False)


@pytest.mark.parametrize("flag", ["check_batched_grad", "check_batched_forward_grad"])
def test_batched_checks_are_refused_naming_the_flag(flag):
    with pytest.raises(NotImplementedError, match=f"{flag}=True.* is not supported.*vmap"):
        mg.autograd.gradcheck(mg.sin, (X,), **{flag: True})
    assert mg.autograd.gradcheck(mg.sin, (X,), **{flag: False})


def test_batched_grad_is_refused_by_gradgradcheck_too():
    with pytest.raises(NotImplementedError, match="check_batched_grad"):
        mg.autograd.gradgradcheck(mg.sin, (X,), check_batched_grad=True)


def test_nondet_tol_catches_a_backward_that_is_not_reentrant():
    rng = np.random.default_rng(0)

    class Noisy(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1.0

        @staticmethod
        def backward(ctx, g):
            return g * (1 + 1e-7 * rng.standard_normal())

    with pytest.raises(GradcheckError, match="Backward is not reentrant.*tolerance .* was 0.0"):
        mg.autograd.gradcheck(Noisy.apply, (X,))
    assert mg.autograd.gradcheck(Noisy.apply, (X,), nondet_tol=1e-5)
    assert mg.autograd.gradcheck(Noisy.apply, (X,), nondet_tol=1e-5, fast_mode=True)


class HalfPrecisionGrad(Op):
    """A built-in-style op whose backward (wrongly) returns float32: the engine does not
    check a built-in op's gradient dtype, check_grad_dtypes does."""

    @staticmethod
    def forward(ctx, a):
        return a * 2.0

    @staticmethod
    def backward(ctx, g):
        return (g * 2.0).to(mg.float32)


def test_check_grad_dtypes():
    assert mg.autograd.gradcheck(HalfPrecisionGrad.apply, (X,))
    for fast in (False, True):
        with pytest.raises(GradcheckError, match="Gradient has dtype mismatch.*float32"):
            mg.autograd.gradcheck(
                HalfPrecisionGrad.apply, (X,), check_grad_dtypes=True, fast_mode=fast
            )


def test_check_undefined_grad_catches_a_backward_that_invents_gradients():
    """Two outputs; when neither gets a gradient (zeros and None), backward must give zero."""

    class Invents(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2.0, x * 3.0

        @staticmethod
        def backward(ctx, g, h):
            if h is None and not g.numpy().any():
                return mg.ones(3, dtype=mg.float64)  # something out of nothing
            return (0 if g is None else g * 2.0) + (0 if h is None else h * 3.0)

    with pytest.raises(GradcheckError, match="Expected all input grads to be undefined or zero"):
        mg.autograd.gradcheck(Invents.apply, (X,))
    assert mg.autograd.gradcheck(Invents.apply, (X,), check_undefined_grad=False)


def test_check_undefined_grad_reports_a_backward_that_raises_on_a_missing_gradient():
    class Fragile(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x * 2.0, x * 3.0

        @staticmethod
        def backward(ctx, g, h):
            if g is not None and h is None and not g.numpy().any():
                raise RuntimeError("no gradient for the second output")
            return (0 if g is None else g * 2.0) + (0 if h is None else h * 3.0)

    with pytest.raises(GradcheckError, match="handle undefined output grads"):
        mg.autograd.gradcheck(Fragile.apply, (X,))
    assert mg.autograd.gradcheck(Fragile.apply, (X,), check_undefined_grad=False)


def test_fast_mode_catches_wrong_derivatives_and_passes_right_ones():
    assert mg.autograd.gradcheck(mg.sin, (X,), fast_mode=True, check_forward_ad=True)
    with pytest.raises(GradcheckError, match="Jacobian mismatch .*fast mode"):
        mg.autograd.gradcheck(sin_function(backward_factor=1.01).apply, (X,), fast_mode=True)
    with pytest.raises(GradcheckError, match="forward mode mismatch .*fast mode"):
        mg.autograd.gradcheck(
            sin_function(jvp_factor=1.01).apply, (X,), fast_mode=True, check_forward_ad=True
        )


def test_gradgradcheck_forward_over_reverse():
    """check_fwd_over_rev: forward mode through the backward pass; a wrong second derivative
    (backward's own backward) is caught by it, reverse over reverse left out."""

    class CubeWrongSecond(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            ctx.save_for_forward(x)
            return x**3

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 3 * SquareWrongDerivative.apply(x)

        @staticmethod
        def jvp(ctx, t):
            (x,) = ctx.saved_tensors
            return t * 3 * x**2

    class SquareWrongDerivative(mg.autograd.Function):  # x**2, derivative 2.2x in both rules
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            ctx.save_for_forward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 2.2 * x

        @staticmethod
        def jvp(ctx, t):
            (x,) = ctx.saved_tensors
            return t * 2.2 * x

    assert mg.autograd.gradcheck(CubeWrongSecond.apply, (X,))  # first derivatives are right
    kw = {"check_fwd_over_rev": True, "check_rev_over_rev": False}
    with pytest.raises(GradcheckError, match="forward mode mismatch"):
        mg.autograd.gradgradcheck(CubeWrongSecond.apply, (X,), **kw)
    assert mg.autograd.gradgradcheck(lambda t: t**3, (X,), **kw)
    assert mg.autograd.gradgradcheck(lambda t: (t * t).sin(), (X,), check_fwd_over_rev=True)


def test_gen_non_contig_grad_outputs():
    x = f64([[0.3, -1.1, 2.0], [0.5, 0.1, -0.7]])
    assert mg.autograd.gradgradcheck(
        lambda t: (t.tanh() * t).sum(dim=0) * t[0], (x,), gen_non_contig_grad_outputs=True
    )


def test_gradcheck_perturbs_non_contiguous_inputs_in_place():
    data = (np.arange(12.0).reshape(3, 4) / 10)[:, ::2]  # a strided array
    x = mg.Tensor._make(data, True, None)
    assert not x._data.flags.c_contiguous
    assert mg.autograd.gradcheck(lambda t: (t * t).sin(), (x,), check_forward_ad=True)
    np.testing.assert_array_equal(x._data, (np.arange(12.0).reshape(3, 4) / 10)[:, ::2])


def test_raise_exception_false_returns_false_for_every_kind_of_failure():
    wrong_jvp = sin_function(jvp_factor=1.01).apply
    assert not mg.autograd.gradcheck(wrong_jvp, (X,), check_forward_ad=True, raise_exception=False)
    assert not mg.autograd.gradcheck(
        HalfPrecisionGrad.apply, (X,), check_grad_dtypes=True, raise_exception=False
    )
