"""nn.utils.clip_grad_norm_ / clip_grad_value_: values, in-place scaling, edge cases."""

import math
import warnings

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn
from minigrad.nn.utils import clip_grad_norm_, clip_grad_value_


def params_with_grads(*grads, dtype=mg.float64):
    out = []
    for g in grads:
        p = nn.Parameter(mg.zeros(*np.shape(g), dtype=dtype))
        p.grad = mg.tensor(g, dtype=dtype)
        out.append(p)
    return out


def test_total_norm_and_scaling():
    ps = params_with_grads([3.0, 0.0], [[4.0]])
    grads = [p.grad for p in ps]
    total = clip_grad_norm_(ps, max_norm=1.0)
    assert isinstance(total, mg.Tensor) and total.shape == () and total.item() == 5.0
    coef = 1.0 / (5.0 + 1e-6)
    assert ps[0].grad is grads[0]  # scaled in place
    np.testing.assert_allclose(ps[0].grad.numpy(), [3.0 * coef, 0.0], rtol=1e-15)
    np.testing.assert_allclose(ps[1].grad.numpy(), [[4.0 * coef]], rtol=1e-15)


def test_no_scaling_below_max_norm_but_grads_still_multiplied_by_one():
    ps = params_with_grads([0.3, 0.4])
    version = ps[0].grad._version
    assert clip_grad_norm_(ps, max_norm=1.0).item() == pytest.approx(0.5)
    assert ps[0].grad.tolist() == [0.3, 0.4]
    assert ps[0].grad._version == version + 1  # PyTorch multiplies by the clamped 1.0 too


@pytest.mark.parametrize(
    "norm_type, expected",
    [
        (2.0, 13.0),
        (1, 17.0 + 0.0),
        (float("inf"), 12.0),
        ("inf", 12.0),
        (3.0, (5**3 + 12**3) ** (1 / 3)),
    ],
)
def test_norm_types(norm_type, expected):
    ps = params_with_grads([5.0], [-12.0, 0.0])
    total = clip_grad_norm_(ps, max_norm=100.0, norm_type=norm_type)
    assert total.item() == pytest.approx(expected, rel=1e-12)


def test_single_tensor_and_none_grads_are_skipped():
    p = params_with_grads([6.0, 8.0])[0]
    q = nn.Parameter(mg.ones(2))
    assert clip_grad_norm_(p, 5.0).item() == 10.0
    np.testing.assert_allclose(p.grad.numpy(), [3.0, 4.0], rtol=1e-6)
    assert clip_grad_norm_([q], 1.0).item() == 0.0 and q.grad is None


def test_empty_generator_warns():
    with pytest.warns(UserWarning, match="empty generator, no gradient clipping will occur"):
        assert clip_grad_norm_((p for p in []), 1.0).item() == 0.0


def test_nonfinite_norm():
    ps = params_with_grads([math.inf, 1.0])
    with pytest.raises(RuntimeError, match="The total norm of order 2.0 for gradients"):
        clip_grad_norm_(ps, 1.0, error_if_nonfinite=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # silent, as PyTorch: the factor is 0 and inf * 0 = nan
        assert math.isinf(clip_grad_norm_(ps, 1.0).item())
    grad = ps[0].grad.numpy()
    assert np.isnan(grad[0]) and grad[1] == 0.0  # torch gives [nan, 0.] too


def test_float32_grads_stay_float32():
    ps = params_with_grads([3.0, 4.0], dtype=mg.float32)
    total = clip_grad_norm_(ps, 1.0)
    assert total.dtype is mg.float32 and ps[0].grad.dtype is mg.float32


def test_clip_grad_value():
    ps = params_with_grads([-3.0, 0.5, 2.0], [[0.1]])
    assert clip_grad_value_(ps, 1.0) is None
    assert ps[0].grad.tolist() == [-1.0, 0.5, 1.0] and ps[1].grad.tolist() == [[0.1]]
    clip_grad_value_(ps[0], 0.25)
    assert ps[0].grad.tolist() == [-0.25, 0.25, 0.25]


def test_clipping_inside_grad_mode_records_nothing():
    ps = params_with_grads([3.0, 4.0])
    clip_grad_norm_(ps, 1.0)
    assert ps[0].grad.grad_fn is None and not ps[0].grad.requires_grad


def test_clip_model_parameters():
    mg.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
    (model(mg.randn(8, 3)) * 100).sum().backward()
    before = np.sqrt(
        sum((p.grad.numpy().astype(np.float64) ** 2).sum() for p in model.parameters())
    )
    total = clip_grad_norm_(model.parameters(), max_norm=1.0)
    after = np.sqrt(sum((p.grad.numpy().astype(np.float64) ** 2).sum() for p in model.parameters()))
    assert total.item() == pytest.approx(before, rel=1e-5)
    assert after == pytest.approx(1.0, rel=1e-5)
