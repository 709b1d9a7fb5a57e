"""Losses and activations at +-1000 (finite, no warnings) and bad input (clear errors)."""

import warnings

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F

BIG = [[1000.0, -1000.0, 0.0], [-1000.0, 1000.0, 999.0], [0.0, 0.0, -1000.0]]


def big(dtype=mg.float64):
    return mg.tensor(BIG, dtype=dtype, requires_grad=True)


STABLE = [
    ("softmax", lambda x: F.softmax(x, 1)),
    ("log_softmax", lambda x: F.log_softmax(x, 1)),
    ("sigmoid", F.sigmoid),
    ("tanh", F.tanh),
    ("cross_entropy", lambda x: F.cross_entropy(x, mg.tensor([1, 0, 2]))),
    (
        "cross_entropy_smooth_w",
        lambda x: F.cross_entropy(
            x, mg.tensor([1, 0, 2]), mg.ones(3, dtype=x.dtype), label_smoothing=0.1
        ),
    ),
    ("cross_entropy_probs", lambda x: F.cross_entropy(x, mg.full((3, 3), 1 / 3, dtype=x.dtype))),
    ("nll_of_log_softmax", lambda x: F.nll_loss(F.log_softmax(x, 1), mg.tensor([2, 2, 2]))),
    (
        "bce_with_logits",
        lambda x: F.binary_cross_entropy_with_logits(x, mg.full((3, 3), 0.5, dtype=x.dtype)),
    ),
    (
        "bce_with_logits_pos_weight",
        lambda x: F.binary_cross_entropy_with_logits(
            x, mg.ones(3, 3, dtype=x.dtype), pos_weight=mg.full((3,), 3.0, dtype=x.dtype)
        ),
    ),
]


@pytest.mark.parametrize("dtype", [mg.float64, mg.float32])
@pytest.mark.parametrize("fn", [r[1] for r in STABLE], ids=[r[0] for r in STABLE])
def test_stable_at_plus_minus_1000(fn, dtype):
    x = big(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = fn(x)
        (grad,) = mg.autograd.grad(out.sum(), x)
    assert np.isfinite(out.detach().numpy()).all() and np.isfinite(grad.detach().numpy()).all()


def test_extreme_values_are_exact():
    x = mg.tensor([[1000.0, -1000.0]], dtype=mg.float64)
    assert F.cross_entropy(x, mg.tensor([0])).item() == 0.0
    assert F.cross_entropy(x, mg.tensor([1])).item() == 2000.0
    logits = mg.tensor([1000.0, -1000.0, 1000.0, -1000.0], dtype=mg.float64)
    y = mg.tensor([0.0, 1.0, 1.0, 0.0], dtype=mg.float64)
    bce = F.binary_cross_entropy_with_logits(logits, y, reduction="none")
    assert bce.tolist() == [1000.0, 1000.0, 0.0, 0.0]


def test_bce_with_logits_gradient_is_sigmoid_minus_target_at_extremes():
    x = mg.tensor([1000.0, -1000.0, 0.0], dtype=mg.float64, requires_grad=True)
    y = mg.tensor([0.0, 1.0, 1.0], dtype=mg.float64)
    F.binary_cross_entropy_with_logits(x, y, reduction="sum").backward()
    assert x.grad.tolist() == [1.0, -1.0, -0.5]


# --- errors ----------------------------------------------------------------------------------
X = mg.randn(3, 5)
ERRORS = [
    (
        "batch",
        lambda: F.cross_entropy(X, mg.tensor([1, 2])),
        ValueError,
        r"Expected input batch_size \(3\) to match target batch_size \(2\)\.",
    ),
    (
        "target_0d",
        lambda: F.nll_loss(X, mg.tensor(1)),
        ValueError,
        r"Expected input batch_size \(3\) to match target batch_size \(0\)",
    ),
    (
        "input_0d",
        lambda: F.nll_loss(mg.tensor(1.0), mg.tensor(1)),
        ValueError,
        r"Expected 1 or more dimensions \(got 0\)",
    ),
    (
        "ce_input_0d",
        lambda: F.cross_entropy(mg.tensor(1.0), mg.tensor(1)),
        ValueError,
        r"Expected 1 or more dimensions \(got 0\)",
    ),
    (
        "target_2d",
        lambda: F.cross_entropy(X, mg.zeros(3, 4)),
        ValueError,
        r"0D or 1D target tensor expected, multi-target not supported",
    ),
    (
        "target_kdim",
        lambda: F.nll_loss(mg.randn(3, 5, 2), mg.tensor([1, 2, 3])),
        ValueError,
        r"Expected target size \[3, 2\], got \[3\]",
    ),
    (
        "target_1d_input",
        lambda: F.nll_loss(mg.randn(5), mg.tensor([1, 2])),
        ValueError,
        r"0D or 1D target tensor expected",
    ),
    (
        "float_target",
        lambda: F.nll_loss(X, mg.tensor([1.0, 2.0, 3.0])),
        TypeError,
        r"expected target dtype to be Long or Byte .* but got minigrad.float32",
    ),
    (
        "int32_target",
        lambda: F.cross_entropy(X, mg.tensor([1, 2, 3], dtype=mg.int32)),
        TypeError,
        r"but got minigrad.int32",
    ),
    (
        "out_of_range",
        lambda: F.cross_entropy(X, mg.tensor([1, 5, 0])),
        IndexError,
        r"^Target 5 is out of bounds\. Class indices must be in \[0, 4\]",
    ),
    (
        "negative",
        lambda: F.nll_loss(X, mg.tensor([1, -1, 0])),
        IndexError,
        r"^Target -1 is out of bounds\.",
    ),
    (
        "weight_shape",
        lambda: F.cross_entropy(X, mg.tensor([1, 2, 3]), mg.ones(3)),
        ValueError,
        r"weight tensor should be defined either for all 5 classes or no classes but got weight tensor of shape: \[3\]",
    ),
    (
        "probs_weight_shape",
        lambda: F.cross_entropy(X, mg.rand(3, 5), mg.ones(4)),
        ValueError,
        r"weight tensor should be defined either for all 5 classes",
    ),
    (
        "reduction",
        lambda: F.nll_loss(X, mg.tensor([1, 2, 3]), reduction="avg"),
        ValueError,
        r"avg is not a valid value for reduction \(expected 'none', 'mean' or 'sum'\)",
    ),
    (
        "smoothing",
        lambda: F.cross_entropy(X, mg.tensor([1, 2, 3]), label_smoothing=1.5),
        ValueError,
        r"label_smoothing must be between 0.0 and 1.0. Got: 1.5",
    ),
    (
        "probs_ignore",
        lambda: F.cross_entropy(X, mg.rand(3, 5), ignore_index=1),
        ValueError,
        r"ignore_index is not supported for floating point target",
    ),
    (
        "bce_size",
        lambda: F.binary_cross_entropy_with_logits(X, mg.rand(5)),
        ValueError,
        r"Target size \(\(5,\)\) must be the same as input size \(\(3, 5\)\)",
    ),
    (
        "mse_weight",
        lambda: F.mse_loss(X, X, weight=mg.ones(5)),
        ValueError,
        r"Weights and input must have the same size",
    ),
    (
        "mse_broadcast",
        lambda: F.mse_loss(X, mg.rand(4)),
        RuntimeError,
        r"The size of tensor a \(5\) must match the size of tensor b \(4\)",
    ),
    (
        "linear",
        lambda: F.linear(X, mg.ones(4, 4)),
        RuntimeError,
        r"mat1 and mat2 shapes cannot be multiplied \(3x5 and 4x4\)",
    ),
]


@pytest.mark.parametrize("call, exc, msg", [r[1:] for r in ERRORS], ids=[r[0] for r in ERRORS])
def test_error_messages(call, exc, msg):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # mse_loss warns before the broadcast error
        with pytest.raises(exc, match=msg):
            call()


def test_ignore_index_may_be_a_valid_class():
    x = mg.randn(3, 5)
    loss = F.cross_entropy(x, mg.tensor([1, 4, 4]), ignore_index=4, reduction="none")
    assert loss.tolist()[1:] == [0.0, 0.0] and loss.tolist()[0] > 0


def test_mse_broadcast_warns_like_pytorch():
    with pytest.warns(UserWarning, match=r"Using a target size \(\(5,\)\) that is different"):
        loss = F.mse_loss(X, mg.zeros(5))
    assert loss.item() == pytest.approx((X.detach().numpy() ** 2).mean())


def test_one_element_target_for_1d_input_is_a_scalar_loss():
    x = mg.randn(4)
    assert F.cross_entropy(x, mg.tensor([2]), reduction="none").shape == ()
    assert F.nll_loss(x, mg.tensor(2), reduction="none").item() == -x[2].item()
