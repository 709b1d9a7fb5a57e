"""``nn.grad.conv{1,2,3}d_input`` / ``conv{1,2,3}d_weight`` against PyTorch: values in float64
and float32, their node (``ConvolutionBackwardBackward0``), second-order gradients
(gradgradcheck), and PyTorch's exception classes for bad sizes; and ``F.batch_norm``'s eps
check."""

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from minigrad.autograd import gradcheck, gradgradcheck

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

CASES = [  # (d, input size, weight size, keyword arguments)
    (1, (2, 4, 9), (6, 2, 3), {"stride": 2, "groups": 2}),
    (2, (2, 3, 7, 6), (4, 3, 3, 2), {}),
    (2, (1, 3, 8, 7), (5, 3, 3, 3), {"stride": (2, 1), "padding": 1, "dilation": (1, 2)}),
    (2, (2, 4, 5, 5), (4, 1, 2, 2), {"stride": 3, "groups": 4}),
    (3, (1, 2, 4, 5, 4), (3, 2, 2, 2, 2), {"padding": (1, 0, 1)}),
]


def _ours_and_theirs(d, x_size, w_size, kw, dtype):
    rng = np.random.default_rng(0)
    x, w = rng.standard_normal(x_size).astype(dtype), rng.standard_normal(w_size).astype(dtype)
    out = getattr(torch.nn.functional, f"conv{d}d")(torch.tensor(x), torch.tensor(w), **kw)
    g = rng.standard_normal(tuple(out.shape)).astype(dtype)
    tg = torch.nn.grad
    theirs = (
        getattr(tg, f"conv{d}d_input")(torch.Size(x_size), torch.tensor(w), torch.tensor(g), **kw),
        getattr(tg, f"conv{d}d_weight")(torch.tensor(x), w_size, torch.tensor(g), **kw),
    )
    mgg = mg.nn.grad
    ours = (
        getattr(mgg, f"conv{d}d_input")(mg.Size(x_size), mg.tensor(w), mg.tensor(g), **kw),
        getattr(mgg, f"conv{d}d_weight")(mg.tensor(x), w_size, mg.tensor(g), **kw),
    )
    return ours, theirs


@pytest.mark.parametrize("dtype,tol", [(np.float64, 1e-12), (np.float32, 1e-5)])
@pytest.mark.parametrize("d,x_size,w_size,kw", CASES)
def test_the_gradients_are_pytorchs(d, x_size, w_size, kw, dtype, tol):
    for a, b in zip(*_ours_and_theirs(d, x_size, w_size, kw, dtype)):
        assert a.dtype == (mg.float32 if dtype == np.float32 else mg.float64)
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=tol, atol=tol)


def test_they_are_what_backward_sends_and_differentiable_again():
    x = mg.randn(2, 3, 6, 5, dtype=mg.float64, requires_grad=True)
    w = mg.randn(4, 3, 3, 3, dtype=mg.float64, requires_grad=True)
    kw = {"stride": 2, "padding": 1}
    out = F.conv2d(x, w, **kw)
    g = mg.randn(*out.shape, dtype=mg.float64, requires_grad=True)
    gx, gw = mg.autograd.grad(out, (x, w), g)
    ours_x = mg.nn.grad.conv2d_input(x.shape, w, g, **kw)
    ours_w = mg.nn.grad.conv2d_weight(x, w.shape, g, **kw)
    assert mg.allclose(gx, ours_x) and mg.allclose(gw, ours_w)
    assert ours_x.grad_fn.name() == ours_w.grad_fn.name() == "ConvolutionBackwardBackward0"
    inputs = (w, g)
    assert gradcheck(lambda w, g: mg.nn.grad.conv2d_input(x.shape, w, g, **kw), inputs)
    assert gradgradcheck(lambda w, g: mg.nn.grad.conv2d_input(x.shape, w, g, **kw), inputs)
    assert gradgradcheck(lambda x, g: mg.nn.grad.conv2d_weight(x, w.shape, g, **kw), (x, g))


BAD = [  # (function, arguments as shapes: I input size, W weight size, G grad_output size)
    ("conv2d_input", (3, 6, 6), (4, 3, 3, 3), (2, 4, 4, 4)),  # input size of 3 dims
    ("conv2d_input", (2, 3, 6, 6), (4, 3, 3, 3), (2, 5, 4, 4)),  # grad_output's channels
    ("conv2d_weight", (2, 2, 6, 6), (4, 3, 3, 3), (2, 4, 4, 4)),  # input's channels
]


@pytest.mark.parametrize("name,i,w,g", BAD)
def test_bad_sizes_raise_pytorchs_class(name, i, w, g):
    for lib in (torch, mg):
        fn = getattr(lib.nn.grad, name)
        args = (
            (i, lib.ones(w), lib.ones(g))
            if name.endswith("input")
            else (lib.ones(i), w, lib.ones(g))
        )
        with pytest.raises(RuntimeError):
            fn(*args)
    with pytest.raises(TypeError, match="grad_output"):
        mg.nn.grad.conv2d_input((2, 3, 6, 6), mg.ones(4, 3, 3, 3), np.ones((2, 4, 4, 4)))


def test_a_wrong_grad_output_size_is_named():
    with pytest.raises(RuntimeError, match=r"expected grad_output of size \[2, 4, 4, 4\]"):
        mg.nn.grad.conv2d_input((2, 3, 6, 6), mg.ones(4, 3, 3, 3), mg.ones(2, 4, 5, 4))


@pytest.mark.parametrize("training,eps", [(True, 0.0), (True, -1.0), (False, -1e-3)])
def test_batch_norm_refuses_eps_as_pytorch(training, eps):
    for lib in (torch, mg):
        x = lib.ones(4, 3)
        with pytest.raises(ValueError, match="batch_norm eps must be"):
            lib.nn.functional.batch_norm(x, lib.zeros(3), lib.ones(3), training=training, eps=eps)
    y = F.batch_norm(mg.ones(4, 3), mg.zeros(3), mg.ones(3), training=False, eps=0.0)
    assert y.tolist() == [[1.0] * 3] * 4
