"""GradScaler: scaling, unscaling, skipped steps on overflow, growth, state, torch oracle."""

import math

import numpy as np
import pytest

import minigrad as mg
from minigrad.amp import GradScaler

overflow_expected = pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")


def _param(values):
    return mg.nn.Parameter(mg.tensor(values))


def test_scale_unscale_step_update():
    w = _param([1.0, -2.0])
    opt = mg.optim.SGD([w], lr=0.5)
    scaler = GradScaler(init_scale=256.0)
    scaled = scaler.scale((w * w).sum())
    assert scaled.item() == 256.0 * 5.0
    scaled.backward()
    np.testing.assert_array_equal(w.grad.numpy(), [512.0, -1024.0])
    scaler.unscale_(opt)
    np.testing.assert_array_equal(w.grad.numpy(), [2.0, -4.0])
    scaler.step(opt)  # does not unscale twice
    np.testing.assert_array_equal(w.detach().numpy(), [0.0, 0.0])
    scaler.update()
    assert scaler.get_scale() == 256.0


@overflow_expected
def test_overflow_skips_step_halves_scale_keeps_parameters():
    w = _param([1.0, 2.0])
    opt = mg.optim.SGD([w], lr=0.1)
    scaler = GradScaler(init_scale=2.0**16)
    loss = (w * 1e38).sum()  # float32: times 65536 is inf
    scaler.scale(loss).backward()
    assert scaler.step(opt) is None
    scaler.update()
    np.testing.assert_array_equal(w.detach().numpy(), [1.0, 2.0])
    assert scaler.get_scale() == 2.0**15
    assert scaler.state_dict()["_growth_tracker"] == 0


def test_nan_gradient_also_skips():
    w = _param([1.0])
    opt = mg.optim.SGD([w], lr=0.1)
    scaler = GradScaler()
    scaler.scale((w * math.nan).sum()).backward()
    scaler.step(opt)
    scaler.update()
    assert w.item() == 1.0 and scaler.get_scale() == 2.0**15


def test_growth_after_interval_of_good_steps():
    w = _param([1.0])
    opt = mg.optim.SGD([w], lr=0.01)
    scaler = GradScaler(init_scale=4.0, growth_interval=3)
    scales = []
    for _ in range(7):
        opt.zero_grad()
        scaler.scale((w * w).sum()).backward()
        scaler.step(opt)
        scaler.update()
        scales.append(scaler.get_scale())
    assert scales == [4.0, 4.0, 8.0, 8.0, 8.0, 16.0, 16.0]


def test_call_order_errors():
    w = _param([1.0])
    opt = mg.optim.SGD([w], lr=0.1)
    scaler = GradScaler()
    with pytest.raises(AssertionError, match="No inf checks"):
        scaler.step(opt)  # no gradient anywhere
    scaler = GradScaler()
    scaler.scale(w.sum()).backward()
    scaler.unscale_(opt)
    with pytest.raises(RuntimeError, match="unscale_\\(\\) has already been called"):
        scaler.unscale_(opt)
    scaler.step(opt)
    with pytest.raises(RuntimeError, match="step\\(\\) has already been called"):
        scaler.step(opt)
    with pytest.raises(RuntimeError, match="after step"):
        scaler.unscale_(opt)
    scaler.update()
    with pytest.raises(AssertionError, match="prior to update"):
        scaler.update()


@overflow_expected
def test_float16_gradients_rejected():
    w = mg.nn.Parameter(mg.ones(2, dtype=mg.float16))
    opt = mg.optim.SGD([w], lr=0.1)
    scaler = GradScaler()
    scaler.scale(w.sum()).backward()
    with pytest.raises(ValueError, match="FP16 gradients"):
        scaler.step(opt)


def test_disabled_is_pass_through():
    w = _param([1.0])
    opt = mg.optim.SGD([w], lr=0.5)
    scaler = GradScaler(enabled=False)
    loss = (w * 2).sum()
    assert scaler.scale(loss) is loss
    loss.backward()
    scaler.step(opt)
    scaler.update()
    assert w.item() == 0.0 and scaler.get_scale() == 1.0 and scaler.state_dict() == {}


def test_state_dict_round_trip_and_empty_error():
    a = GradScaler(init_scale=8.0, growth_interval=5)
    a._growth_tracker = 3
    b = GradScaler()
    b.load_state_dict(a.state_dict())
    assert b.state_dict() == a.state_dict()
    assert b.get_scale() == 8.0 and b.get_growth_interval() == 5
    with pytest.raises(RuntimeError, match="state dict is empty"):
        b.load_state_dict({})


def test_scale_list_of_losses_and_bad_type():
    scaler = GradScaler(init_scale=2.0)
    a, b = scaler.scale([mg.tensor(1.0), mg.tensor(3.0)])
    assert (a.item(), b.item()) == (2.0, 6.0)
    with pytest.raises(TypeError, match="got str"):
        scaler.scale("loss")


@overflow_expected
def test_mixed_precision_training_converges():
    mg.manual_seed(0)
    x = mg.randn(64, 4)
    y = (x @ mg.tensor([[1.0], [-2.0], [0.5], [3.0]])).tanh()
    model = mg.nn.Sequential(mg.nn.Linear(4, 16), mg.nn.Tanh(), mg.nn.Linear(16, 1))
    opt = mg.optim.Adam(model.parameters(), lr=0.02)
    scaler = GradScaler(init_scale=2.0**20, growth_interval=50)  # starts too high: backs off
    losses, scales = [], []
    for _ in range(300):
        opt.zero_grad()
        with mg.autocast(dtype=mg.float16):
            out = model(x)
            loss = mg.nn.functional.mse_loss(out.float(), y)
        assert out.dtype is mg.float16 and loss.dtype is mg.float32
        scaler.scale(loss).backward()
        assert all(p.grad.dtype is mg.float32 for p in model.parameters())
        scaler.step(opt)
        scaler.update()
        losses.append(loss.item())
        scales.append(scaler.get_scale())
    assert scales[0] < 2.0**20 and max(scales) > min(scales)  # backed off, then grew
    assert all(p.dtype is mg.float32 for p in model.parameters())
    assert losses[-1] < 0.02 * losses[0]


def test_exploding_gradient_clipped_by_norm_and_by_value():
    """Gradient clipping: a deep linear chain (no activations) whose gradient explodes."""
    mg.manual_seed(0)
    layers = [mg.nn.Linear(8, 8, bias=False) for _ in range(12)]
    with mg.no_grad():
        for lin in layers:
            lin.weight.mul_(3.0)  # each layer multiplies the gradient by ~3*sqrt(8/3)
    params = [lin.weight for lin in layers]
    h = mg.randn(4, 8)
    for lin in layers:
        h = lin(h)
    h.pow(2).mean().backward()
    grads = [p.grad.numpy().copy() for p in params]
    total = np.sqrt(sum((g**2).sum() for g in grads))
    assert total > 1e5  # exploded

    returned = mg.nn.utils.clip_grad_norm_(params, max_norm=1.0)
    assert returned.item() == pytest.approx(total, rel=1e-5)
    clipped = np.sqrt(sum((p.grad.numpy() ** 2).sum() for p in params))
    assert clipped == pytest.approx(1.0, rel=1e-4)
    for p, g in zip(params, grads):  # same direction, only shorter
        np.testing.assert_allclose(p.grad.numpy(), g / total, rtol=1e-4, atol=1e-12)

    mg.nn.utils.clip_grad_value_(params, clip_value=0.05)
    assert max(np.abs(p.grad.numpy()).max() for p in params) <= 0.05
    for p, g in zip(params, grads):  # by value changes the direction: entries saturate
        np.testing.assert_allclose(p.grad.numpy(), np.clip(g / total, -0.05, 0.05), rtol=1e-4)


@pytest.mark.oracle
@overflow_expected
def test_scale_trajectory_matches_torch():
    torch = pytest.importorskip("torch")
    kwargs = dict(init_scale=2.0**10, growth_factor=2.0, backoff_factor=0.5, growth_interval=3)
    ours = GradScaler(**kwargs)
    theirs = torch.amp.GradScaler("cpu", **kwargs)
    w = _param([1.0, 2.0])
    tw = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    opt = mg.optim.SGD([w], lr=1e-3)
    topt = torch.optim.SGD([tw], lr=1e-3)
    factors = [1.0, 1.0, 1.0, 1e36, 1.0, 1.0, 1.0, 1.0, math.inf, 1.0, 1.0, 1.0, 1.0]
    for f in factors:
        opt.zero_grad()
        topt.zero_grad()
        ours.scale((w * w * f).sum()).backward()
        theirs.scale((tw * tw * f).sum()).backward()
        ours.step(opt)
        theirs.step(topt)
        ours.update()
        theirs.update()
        assert ours.get_scale() == theirs.get_scale()
        assert ours.state_dict() == theirs.state_dict()
        np.testing.assert_allclose(w.detach().numpy(), tw.detach().numpy(), rtol=1e-6)
