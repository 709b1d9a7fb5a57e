"""The NLL op behind ``F.nll_loss`` / ``F.cross_entropy`` (``NllLossBackward0``, issue 27):
values and gradients against PyTorch for every input layout, reduction, class weights and
ignored targets, the node PyTorch records, and its double backward and forward mode."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

RNG = np.random.default_rng(11)
LAYOUTS = {  # input shape, target shape
    "(N, C)": ((5, 4), (5,)),
    "(C,)": ((4,), ()),
    "(N, C, d)": ((3, 4, 2), (3, 2)),
    "(N, C, H, W)": ((2, 4, 2, 3), (2, 2, 3)),
    "(N, C, d1, d2, d3)": ((2, 4, 2, 1, 2), (2, 2, 1, 2)),
}


def _losses(lib, fn, x, t, g, **kw):
    xx = lib.tensor(x, requires_grad=True)
    kw = {k: lib.tensor(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    y = getattr(lib.nn.functional, fn)(xx, lib.tensor(t), **kw)
    y.backward(lib.tensor(np.asarray(g, dtype=x.dtype).reshape(tuple(y.shape))))
    return y.detach().numpy(), xx.grad.numpy(), y.grad_fn.name()


@pytest.mark.parametrize(
    "layout, reduction, weighted, ignore, fn",
    list(
        itertools.product(
            LAYOUTS,
            ("mean", "sum", "none"),
            (False, True),
            (-100, 1),
            ("nll_loss", "cross_entropy"),
        )
    ),
)
def test_values_gradients_and_node_match_pytorch(layout, reduction, weighted, ignore, fn):
    shape, tshape = LAYOUTS[layout]
    x = RNG.standard_normal(shape)
    t = RNG.integers(0, 4, tshape)
    kw = {"reduction": reduction, "ignore_index": ignore}
    if weighted:
        kw["weight"] = RNG.random(4) + 0.1
    g = RNG.standard_normal(t.shape) if reduction == "none" else 1.0
    ours = _losses(mg, fn, x, t, g, **kw)
    theirs = _losses(torch, fn, x, t, g, **kw)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-12, atol=1e-14, equal_nan=True)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-12, atol=1e-14)
    if len(shape) in (1, 2, 4) or reduction != "none":  # 3-D/5-D 'none': PyTorch views around it
        assert ours[2] == theirs[2]


def test_float32_and_label_smoothing_match_pytorch():
    x = RNG.standard_normal((6, 5)).astype(np.float32)
    t = np.array([0, 4, 1, 1, 2, 3])
    for kw in ({}, {"label_smoothing": 0.2}, {"label_smoothing": 0.1, "ignore_index": 1}):
        ours = _losses(mg, "cross_entropy", x, t, 1.0, **kw)
        theirs = _losses(torch, "cross_entropy", x, t, 1.0, **kw)
        assert ours[0].dtype == theirs[0].dtype == np.float32
        np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-6)
        np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-5, atol=1e-7)


def test_every_target_ignored_gives_pytorchs_nan_and_zero_gradient():
    for lib in (mg, torch):
        x = lib.zeros(2, 3, requires_grad=True)
        y = lib.nn.functional.nll_loss(x, lib.tensor([1, 1]), ignore_index=1)
        y.backward()
        assert np.isnan(y.item()) and not x.grad.numpy().any()


def test_cross_entropy_records_nll_after_log_softmax():
    x = mg.randn(3, 4, requires_grad=True)
    node = mg.nn.CrossEntropyLoss()(x, mg.tensor([0, 3, 1])).grad_fn
    assert node.name() == "NllLossBackward0"
    assert [n.name() for n, _ in node.next_functions] == ["LogSoftmaxBackward0"]


def test_double_backward_and_forward_mode():
    mg.manual_seed(0)
    x = mg.randn(3, 5, 2, dtype=mg.float64, requires_grad=True)
    w = mg.rand(5, dtype=mg.float64)
    t = mg.tensor([[1, 2], [4, 0], [2, 2]])
    for reduction in ("mean", "sum", "none"):

        def f(x, reduction=reduction):
            return mg.nn.functional.cross_entropy(
                x, t, weight=w, ignore_index=0, reduction=reduction
            )

        assert mg.autograd.gradcheck(f, (x,), check_forward_ad=True)
        assert mg.autograd.gradgradcheck(f, (x,))


def test_bad_targets_keep_pytorchs_errors():
    x = mg.randn(2, 3)
    with pytest.raises(IndexError):
        mg.nn.functional.nll_loss(x, mg.tensor([0, 3]))
    with pytest.raises(ValueError):
        mg.nn.functional.nll_loss(x, mg.tensor([0, 1, 2]))
    with pytest.raises(TypeError):
        mg.nn.functional.nll_loss(x, mg.tensor([0.0, 1.0]))
