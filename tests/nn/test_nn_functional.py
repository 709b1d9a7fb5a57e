"""nn.functional: one table drives forward checks against numpy and gradient checks.

Every row is checked with gradcheck and gradgradcheck in float64 (the house
tolerances: eps 1e-6, atol 1e-5, rtol 1e-3), for every input that requires grad.
"""

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F

RNG = np.random.default_rng(0)


def leaf(*shape, positive=False):
    a = RNG.random(shape) + 0.1 if positive else RNG.standard_normal(shape)
    return mg.tensor(a, dtype=mg.float64, requires_grad=True)


def probs(*shape):
    p = RNG.random(shape) + 0.1
    return mg.tensor(p / p.sum(1, keepdims=True), dtype=mg.float64, requires_grad=True)


T5 = mg.tensor([0, 3, 1, 2, 3])
T5_IGN = mg.tensor([0, -100, 1, 3, -100])
W4 = mg.tensor([0.5, 2.0, 1.0, 1.5], dtype=mg.float64)
TK = mg.tensor([[0, 1, 3], [2, 2, -100]])  # targets of a (2, 4, 3) input

# (id, function, inputs): every Tensor input with requires_grad is checked.
ROWS = [
    ("relu", F.relu, [leaf(3, 4)]),
    ("sigmoid", F.sigmoid, [leaf(3, 4)]),
    ("tanh", F.tanh, [leaf(3, 4)]),
    ("softmax_dim1", lambda x: F.softmax(x, dim=1), [leaf(3, 4)]),
    ("softmax_dim0", lambda x: F.softmax(x, 0), [leaf(3, 4)]),
    ("log_softmax_last", lambda x: F.log_softmax(x, dim=-1), [leaf(2, 3, 4)]),
    ("log_softmax_1d", lambda x: F.log_softmax(x, 0), [leaf(5)]),
    ("linear", F.linear, [leaf(4, 3), leaf(2, 3), leaf(2)]),
    ("linear_no_bias_1d", F.linear, [leaf(3), leaf(2, 3)]),
    ("mse_mean", F.mse_loss, [leaf(3, 4), leaf(3, 4)]),
    ("mse_sum", lambda x, y: F.mse_loss(x, y, reduction="sum"), [leaf(3, 4), leaf(3, 4)]),
    ("mse_none", lambda x, y: F.mse_loss(x, y, reduction="none"), [leaf(3, 4), leaf(3, 4)]),
    (
        "mse_weight",
        lambda x, y, w: F.mse_loss(x, y, weight=w),
        [leaf(3), leaf(3), leaf(3, positive=True)],
    ),
    ("nll_mean", lambda x: F.nll_loss(x, T5), [leaf(5, 4)]),
    ("nll_sum_weight", lambda x: F.nll_loss(x, T5, W4, reduction="sum"), [leaf(5, 4)]),
    ("nll_none_ignore", lambda x: F.nll_loss(x, T5_IGN, reduction="none"), [leaf(5, 4)]),
    ("nll_mean_weight_ignore", lambda x: F.nll_loss(x, T5, W4, ignore_index=3), [leaf(5, 4)]),
    ("nll_1d", lambda x: F.nll_loss(x, mg.tensor(2)), [leaf(4)]),
    ("nll_kdim", lambda x: F.nll_loss(x, TK, W4), [leaf(2, 4, 3)]),
    ("ce_mean", lambda x: F.cross_entropy(x, T5), [leaf(5, 4)]),
    ("ce_sum_weight", lambda x: F.cross_entropy(x, T5, W4, reduction="sum"), [leaf(5, 4)]),
    ("ce_none_ignore", lambda x: F.cross_entropy(x, T5_IGN, reduction="none"), [leaf(5, 4)]),
    ("ce_smoothing", lambda x: F.cross_entropy(x, T5_IGN, W4, label_smoothing=0.2), [leaf(5, 4)]),
    (
        "ce_smoothing_none",
        lambda x: F.cross_entropy(x, T5, reduction="none", label_smoothing=0.3),
        [leaf(5, 4)],
    ),
    ("ce_1d", lambda x: F.cross_entropy(x, mg.tensor(1)), [leaf(4)]),
    ("ce_kdim", lambda x: F.cross_entropy(x, TK, label_smoothing=0.1), [leaf(2, 4, 3)]),
    ("ce_probs", lambda x, p: F.cross_entropy(x, p, W4), [leaf(5, 4), probs(5, 4)]),
    (
        "ce_probs_smooth_none",
        lambda x, p: F.cross_entropy(x, p, reduction="none", label_smoothing=0.1),
        [leaf(5, 4), probs(5, 4)],
    ),
    ("bce_mean", F.binary_cross_entropy_with_logits, [leaf(3, 4), leaf(3, 4, positive=True)]),
    (
        "bce_sum_weight",
        lambda x, y: F.binary_cross_entropy_with_logits(x, y, W4, reduction="sum"),
        [leaf(3, 4), leaf(3, 4, positive=True)],
    ),
    (
        "bce_none_pos_weight",
        lambda x, y: F.binary_cross_entropy_with_logits(x, y, reduction="none", pos_weight=W4),
        [leaf(3, 4), leaf(3, 4, positive=True)],
    ),
]


@pytest.mark.parametrize("fn, inputs", [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_gradcheck(fn, inputs):
    assert mg.autograd.gradcheck(fn, inputs)


@pytest.mark.parametrize("fn, inputs", [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_gradgradcheck(fn, inputs):
    assert mg.autograd.gradgradcheck(fn, inputs)


# --- forward values against numpy ------------------------------------------------------------
def np_log_softmax(x, axis):
    m = x.max(axis=axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))


def test_softmax_and_log_softmax_values():
    x = leaf(3, 4)
    np.testing.assert_allclose(
        F.log_softmax(x, 1).detach().numpy(), np_log_softmax(x.detach().numpy(), 1), rtol=1e-12
    )
    np.testing.assert_allclose(
        F.softmax(x, 0).detach().numpy(), np.exp(np_log_softmax(x.detach().numpy(), 0)), rtol=1e-12
    )
    np.testing.assert_allclose(F.softmax(x, 1).detach().numpy().sum(1), 1.0, rtol=1e-12)


def test_nll_and_cross_entropy_values():
    x = leaf(5, 4)
    logp = np_log_softmax(x.detach().numpy(), 1)
    t = T5.detach().numpy()
    picked = -logp[np.arange(5), t]
    assert F.cross_entropy(x, T5).item() == pytest.approx(picked.mean(), rel=1e-12)
    w = W4.detach().numpy()[t]
    assert F.cross_entropy(x, T5, W4).item() == pytest.approx(
        (w * picked).sum() / w.sum(), rel=1e-12
    )
    keep = T5_IGN.detach().numpy() != -100
    ign = -logp[np.arange(5)[keep], T5_IGN.detach().numpy()[keep]]
    assert F.cross_entropy(x, T5_IGN).item() == pytest.approx(ign.mean(), rel=1e-12)
    none = F.cross_entropy(x, T5_IGN, reduction="none")
    np.testing.assert_allclose(none.detach().numpy()[keep], ign, rtol=1e-12)
    assert none.detach().numpy()[~keep].tolist() == [0.0, 0.0]
    assert F.nll_loss(mg.tensor(logp), T5, reduction="sum").item() == pytest.approx(picked.sum())


def test_label_smoothing_value():
    x = leaf(5, 4)
    logp = np_log_softmax(x.detach().numpy(), 1)
    eps = 0.2
    target = np.full((5, 4), eps / 4)
    target[np.arange(5), T5.detach().numpy()] += 1 - eps
    expected = -(target * logp).sum(1).mean()
    assert F.cross_entropy(x, T5, label_smoothing=eps).item() == pytest.approx(expected, rel=1e-12)
    soft = F.cross_entropy(x, mg.tensor(target, dtype=mg.float64))
    assert soft.item() == pytest.approx(expected, rel=1e-12)


def test_bce_with_logits_and_mse_values():
    x, y = leaf(3, 4), leaf(3, 4, positive=True)
    s = 1 / (1 + np.exp(-x.detach().numpy()))
    pw = W4.detach().numpy()
    ref = -(pw * y.detach().numpy() * np.log(s) + (1 - y.detach().numpy()) * np.log(1 - s))
    got = F.binary_cross_entropy_with_logits(x, y, reduction="none", pos_weight=W4)
    np.testing.assert_allclose(got.detach().numpy(), ref, rtol=1e-10)
    assert F.mse_loss(x, y).item() == pytest.approx(
        ((x.detach().numpy() - y.detach().numpy()) ** 2).mean()
    )
    assert F.mse_loss(x, y, reduction="sum").item() == pytest.approx(
        ((x.detach().numpy() - y.detach().numpy()) ** 2).sum()
    )


def test_losses_keep_float32():
    x = mg.randn(3, 4)
    assert F.cross_entropy(x, mg.tensor([0, 1, 2])).dtype is mg.float32
    assert F.binary_cross_entropy_with_logits(x, mg.rand(3, 4)).dtype is mg.float32
    assert F.mse_loss(x, mg.rand(3, 4)).dtype is mg.float32


def test_uint8_targets_are_accepted():
    x = leaf(3, 4)
    a = F.cross_entropy(x, mg.tensor([1, 2, 3], dtype=mg.uint8))
    assert a.item() == F.cross_entropy(x, mg.tensor([1, 2, 3])).item()


def test_all_ignored_mean_is_nan_with_zero_gradient():
    x = leaf(3, 4)
    for smoothing in (0.0, 0.1):
        loss = F.cross_entropy(x, mg.tensor([-100, -100, -100]), label_smoothing=smoothing)
        assert np.isnan(loss.item())
        (grad,) = mg.autograd.grad(loss, x)
        assert grad.tolist() == np.zeros((3, 4)).tolist()


def test_empty_batch():
    x = mg.zeros(0, 4, requires_grad=True)
    t = mg.zeros(0, dtype=mg.int64)
    assert np.isnan(F.cross_entropy(x, t).item())
    assert F.cross_entropy(x, t, reduction="sum").item() == 0.0
    assert F.cross_entropy(x, t, reduction="none").shape == (0,)


def test_implicit_softmax_dim_warns_like_pytorch():
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax"):
        out = F.softmax(mg.zeros(2, 3))
    np.testing.assert_allclose(out.detach().numpy(), 1 / 3)  # dim 1 for 2-d input
    with pytest.warns(UserWarning, match="Implicit dimension choice for log_softmax"):
        out = F.log_softmax(mg.zeros(3), dtype=mg.float64)
    assert out.dtype is mg.float64 and out.shape == (3,)
