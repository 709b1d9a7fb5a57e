"""optim.lr_scheduler without PyTorch: hand-computed schedules, state_dict round trips,
PyTorch's warnings, and the schedulers driving a real optimizer. (The 30-epoch comparisons
with PyTorch are in test_lr_scheduler_oracle.py.)"""

import copy
import math
import pickle
import warnings

import numpy as np
import pytest

import minigrad as mg
from minigrad.optim import lr_scheduler
from minigrad.optim.lr_scheduler import (
    ChainedScheduler,
    ConstantLR,
    CosineAnnealingLR,
    CosineAnnealingWarmRestarts,
    ExponentialLR,
    LambdaLR,
    LinearLR,
    LRScheduler,
    MultiplicativeLR,
    MultiStepLR,
    OneCycleLR,
    PolynomialLR,
    ReduceLROnPlateau,
    SequentialLR,
    StepLR,
)


def sgd(lrs=(0.1, 0.01), momentum=0.0):
    groups = [{"params": [mg.nn.Parameter(mg.zeros(2))], "lr": lr} for lr in lrs]
    return mg.optim.SGD(groups, lr=1.0, momentum=momentum)


def lrs_over(sched, epochs, metrics=None):
    """The first group's lr at construction and after each of ``epochs`` steps."""
    out = [sched.get_last_lr()[0]]
    for epoch in range(epochs):
        sched.optimizer.step()
        sched.step() if metrics is None else sched.step(metrics[epoch])
        out.append(sched.get_last_lr()[0])
    return out


def test_reachable_as_in_torch():
    assert mg.optim.lr_scheduler.StepLR is StepLR
    assert issubclass(ReduceLROnPlateau, LRScheduler) and issubclass(StepLR, LRScheduler)
    assert set(lr_scheduler.__all__) >= {"StepLR", "OneCycleLR", "SequentialLR"}


def test_building_a_scheduler_records_initial_lr_and_takes_epoch_0():
    opt = sgd()
    sched = StepLR(opt, step_size=2)
    assert [g["initial_lr"] for g in opt.param_groups] == [0.1, 0.01]
    assert sched.base_lrs == [0.1, 0.01] and sched.last_epoch == 0
    assert sched.get_last_lr() == [0.1, 0.01]
    sched.get_last_lr().append(5.0)  # a copy: the scheduler's list is untouched
    assert sched.get_last_lr() == [0.1, 0.01]


def test_step_lr_and_multistep_by_hand():
    assert lrs_over(StepLR(sgd([1.0]), 3, gamma=0.5), 7) == [1, 1, 1, 0.5, 0.5, 0.5, 0.25, 0.25]
    got = lrs_over(MultiStepLR(sgd([1.0]), [2, 4, 4], gamma=0.1), 5)
    np.testing.assert_allclose(got, [1, 1, 0.1, 0.1, 0.001, 0.001], rtol=1e-15)


def test_exponential_lambda_linear_by_hand():
    np.testing.assert_allclose(lrs_over(ExponentialLR(sgd([2.0]), 0.5), 3), [2, 1, 0.5, 0.25])
    np.testing.assert_allclose(lrs_over(LambdaLR(sgd([2.0]), lambda e: e + 1), 3), [2, 4, 6, 8])
    got = lrs_over(LinearLR(sgd([1.0]), start_factor=0.25, total_iters=3), 5)
    np.testing.assert_allclose(got, [0.25, 0.5, 0.75, 1.0, 1.0, 1.0], rtol=1e-14)


def test_cosine_recursive_form_stays_on_the_closed_form():
    base, low, T = 0.4, 0.01, 8
    got = lrs_over(CosineAnnealingLR(sgd([base]), T_max=T, eta_min=low), 2 * T)
    want = [low + (base - low) * (1 + math.cos(math.pi * t / T)) / 2 for t in range(2 * T + 1)]
    np.testing.assert_allclose(got, want, rtol=1e-12)
    assert got[T] == pytest.approx(low) and got[2 * T] == pytest.approx(base)


def test_constant_polynomial_multiplicative_by_hand():
    got = lrs_over(ConstantLR(sgd([1.0]), factor=0.5, total_iters=2), 3)
    assert got == [0.5, 0.5, 1.0, 1.0]
    got = lrs_over(PolynomialLR(sgd([1.0]), total_iters=4, power=2.0), 5)
    np.testing.assert_allclose(got, [1, 0.5625, 0.25, 0.0625, 0, 0], atol=1e-15)
    got = lrs_over(MultiplicativeLR(sgd([1.0]), lambda e: 0.5), 3)
    assert got == [1.0, 0.5, 0.25, 0.125]


def test_warm_restarts_jump_back_to_base_lr():
    got = lrs_over(CosineAnnealingWarmRestarts(sgd([1.0]), T_0=2, T_mult=2), 7)
    np.testing.assert_allclose(got, [1, 0.5, 1, 0.8535534, 0.5, 0.1464466, 1, 0.9619398])


def test_chained_scheduler_multiplies_the_factors():
    opt = sgd([1.0])
    sched = ChainedScheduler([ConstantLR(opt, 0.5, total_iters=2), ExponentialLR(opt, 0.5)])
    np.testing.assert_allclose(lrs_over(sched, 3), [0.5, 0.25, 0.25, 0.125])


def test_an_lr_scheduler_subclass_needs_only_get_lr():
    class Halving(lr_scheduler._LRScheduler):  # the old name, still subclassed by old code
        def get_lr(self):
            return [b / 2**self.last_epoch for b in self.base_lrs]

    assert lrs_over(Halving(sgd([1.0])), 3) == [1.0, 0.5, 0.25, 0.125]
    with pytest.raises(NotImplementedError, match="does not implement get_lr"):
        LRScheduler(sgd())


def test_every_param_group_is_scheduled_from_its_own_lr():
    opt = sgd([0.2, 0.02, 0.002])
    sched = ExponentialLR(opt, gamma=0.5)
    opt.step()
    sched.step()
    np.testing.assert_allclose(sched.get_last_lr(), [0.1, 0.01, 0.001])
    assert [g["lr"] for g in opt.param_groups] == sched.get_last_lr()


def test_sequential_warmup_then_decay():
    opt = sgd([1.0])
    warm = LinearLR(opt, start_factor=0.5, total_iters=2)
    sched = SequentialLR(opt, [warm, StepLR(opt, 1, gamma=0.5)], milestones=[2])
    np.testing.assert_allclose(lrs_over(sched, 4), [0.5, 0.75, 1.0, 0.5, 0.25])


def test_plateau_patience_cooldown_and_min_lr():
    opt = sgd([1.0])
    sched = ReduceLROnPlateau(opt, factor=0.5, patience=1, cooldown=1, min_lr=0.2)
    metrics = [1.0, 0.5, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6]
    #   best: 1.0, 0.5; bad 1, bad 2 -> cut; cooldown epoch; bad 1, bad 2 -> cut ...
    got = lrs_over(sched, len(metrics), metrics)
    assert got == [1.0, 1.0, 1.0, 1.0, 0.5, 0.5, 0.5, 0.25, 0.25, 0.25, 0.2]
    assert sched.last_epoch == len(metrics) and sched.best == 0.5


def test_plateau_max_mode_takes_tensor_metrics():
    opt = sgd([1.0])
    sched = ReduceLROnPlateau(opt, mode="max", patience=0)
    sched.step(mg.tensor(0.5))
    sched.step(mg.tensor(0.9))
    assert sched.get_last_lr() == [1.0]
    sched.step(mg.tensor(0.8))
    assert sched.get_last_lr() == [pytest.approx(0.1)]


def test_plateau_eps_ignores_tiny_cuts():
    opt = sgd([1e-8])
    sched = ReduceLROnPlateau(opt, patience=0)
    lrs_over(sched, 3, [1.0, 2.0, 3.0])
    assert sched.get_last_lr() == [1e-8]


def test_one_cycle_shape_and_momentum():
    opt = sgd([1.0], momentum=0.9)
    sched = OneCycleLR(opt, max_lr=1.0, total_steps=10, pct_start=0.3)
    got = lrs_over(sched, 9)
    assert got[0] == pytest.approx(1.0 / 25) and max(got) == pytest.approx(1.0)
    assert got[-1] == pytest.approx(1.0 / 25 / 1e4)
    assert opt.param_groups[0]["momentum"] == pytest.approx(0.95)  # back up at the end
    lrs_over(sched, 1)  # step 10 == total_steps is still allowed (as PyTorch), 11 is not
    with pytest.raises(ValueError, match="Tried to step 11 times"):
        lrs_over(sched, 1)


def test_one_cycle_moves_adam_beta1():
    opt = mg.optim.Adam([mg.nn.Parameter(mg.zeros(1))], betas=(0.9, 0.99))
    sched = OneCycleLR(opt, max_lr=0.1, total_steps=10)
    assert opt.param_groups[0]["betas"] == (0.95, 0.99)
    lrs_over(sched, 1)
    beta1, beta2 = opt.param_groups[0]["betas"]
    assert 0.85 < beta1 < 0.95 and beta2 == 0.99


def _uninterrupted_and_resumed(build, epochs=20, cut=8, metrics=None):
    full = lrs_over(build(sgd([0.3, 0.03], momentum=0.9)), epochs, metrics)
    first = build(sgd([0.3, 0.03], momentum=0.9))
    lrs_over(first, cut, metrics)
    saved_sched, saved_opt = first.state_dict(), first.optimizer.state_dict()
    opt = sgd([0.3, 0.03], momentum=0.9)
    second = build(opt)
    opt.load_state_dict(saved_opt)
    second.load_state_dict(saved_sched)
    rest = lrs_over(second, epochs - cut, None if metrics is None else metrics[cut:])
    return full[cut:], rest


class WarmupFactor:
    """A callable object: its state (``__dict__``) is saved by LambdaLR.state_dict."""

    def __init__(self, n):
        self.n = n

    def __call__(self, epoch):
        return min(1.0, (epoch + 1) / self.n)


RESUMABLE = {
    "StepLR": lambda opt: StepLR(opt, 3, 0.5),
    "CosineAnnealingLR": lambda opt: CosineAnnealingLR(opt, 6, 0.001),
    "LinearLR": lambda opt: LinearLR(opt, 0.2, total_iters=10),
    "LambdaLR": lambda opt: LambdaLR(opt, WarmupFactor(12)),
    "SequentialLR": lambda opt: SequentialLR(
        opt, [LinearLR(opt, 0.1, total_iters=4), ExponentialLR(opt, 0.9)], [4]
    ),
    "OneCycleLR": lambda opt: OneCycleLR(opt, [1.0, 0.5], total_steps=21),
    "ConstantLR": lambda opt: ConstantLR(opt, 0.2, total_iters=10),
    "PolynomialLR": lambda opt: PolynomialLR(opt, 15, 1.5),
    "MultiplicativeLR": lambda opt: MultiplicativeLR(opt, WarmupFactor(30)),
    "CosineAnnealingWarmRestarts": lambda opt: CosineAnnealingWarmRestarts(opt, 3, 2),
    "ChainedScheduler": lambda opt: ChainedScheduler([StepLR(opt, 3), LinearLR(opt, 0.1)]),
}


@pytest.mark.parametrize("name", list(RESUMABLE))
def test_state_dict_round_trip_continues_the_schedule(name):
    full, resumed = _uninterrupted_and_resumed(RESUMABLE[name])
    np.testing.assert_allclose(resumed, full, rtol=0, atol=1e-15)


def test_plateau_state_dict_round_trip():
    metrics = [1.0, 0.9, 0.9, 0.9, 0.95, 0.9, 0.9, 0.9, 0.8, 0.8] * 2
    full, resumed = _uninterrupted_and_resumed(
        lambda opt: ReduceLROnPlateau(opt, patience=1), metrics=metrics
    )
    assert resumed == full and len(set(full)) > 1


def test_lambda_state_dict_saves_callable_objects_not_functions():
    sched = LambdaLR(sgd(), [WarmupFactor(5), lambda e: 1.0])
    assert sched.state_dict()["lr_lambdas"] == [{"n": 5}, None]
    assert "optimizer" not in sched.state_dict()


def test_stepping_the_scheduler_first_warns_as_torch():
    opt = sgd()
    sched = StepLR(opt, 2)
    with pytest.warns(UserWarning, match="before `optimizer.step\\(\\)`"):
        sched.step()


def test_the_right_order_does_not_warn():
    opt = sgd()
    sched = StepLR(opt, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        lrs_over(sched, 3)


def test_get_lr_by_hand_warns_and_epoch_argument_is_deprecated():
    sched = StepLR(sgd(), 2)
    with pytest.warns(UserWarning, match="get_last_lr"):
        sched.get_lr()
    sched.optimizer.step()
    with pytest.warns(UserWarning, match="epoch parameter"):
        sched.step(4)
    assert sched.last_epoch == 4 and sched.get_last_lr() == [
        pytest.approx(0.001),
        pytest.approx(0.0001),
    ]


def test_the_optimizer_uses_the_scheduled_lr():
    w = mg.nn.Parameter(mg.tensor([1.0], dtype=mg.float64))
    opt = mg.optim.SGD([w], lr=0.5)
    sched = StepLR(opt, step_size=1, gamma=0.5)
    for _ in range(3):
        opt.zero_grad()
        w.sum().backward()  # gradient 1: each step moves w by the lr
        opt.step()
        sched.step()
    assert w.item() == pytest.approx(1.0 - (0.5 + 0.25 + 0.125))


@pytest.mark.parametrize(
    "make",
    [
        lambda: StepLR(object(), 3),
        lambda: LambdaLR("sgd", lambda e: 1.0),
        lambda: MultiStepLR(None, [2]),
        lambda: ExponentialLR(3, 0.9),
        lambda: LinearLR([], 0.5),
        lambda: ReduceLROnPlateau(dict()),
    ],
)
def test_a_non_optimizer_is_a_type_error(make):
    with pytest.raises(TypeError, match="is not an Optimizer"):
        make()


def test_plateau_groups_added_later():
    opt = sgd([1.0])
    fixed = ReduceLROnPlateau(opt, patience=0, min_lr=[0.0])
    opt.add_param_group({"params": [mg.nn.Parameter(mg.zeros(1))], "lr": 0.5})
    with pytest.raises(RuntimeError, match="number of param groups"):
        lrs_over(fixed, 2, [1.0, 2.0])
    opt2 = sgd([1.0])
    scalar = ReduceLROnPlateau(opt2, patience=0)
    opt2.add_param_group({"params": [mg.nn.Parameter(mg.zeros(1))], "lr": 0.5})
    lrs_over(scalar, 2, [1.0, 2.0])
    assert scalar.get_last_lr() == [pytest.approx(0.1), pytest.approx(0.05)]


def test_a_scheduled_optimizer_still_copies_and_pickles():
    opt = sgd([0.5])
    StepLR(opt, 2)
    clone = copy.deepcopy(opt)
    restored = pickle.loads(pickle.dumps(opt))
    w = clone.param_groups[0]["params"][0]
    w.grad = mg.ones(2)
    clone.step()  # steps the copy's own parameter, not the original's
    assert w.tolist() == [-0.5, -0.5]
    assert opt.param_groups[0]["params"][0].tolist() == [0.0, 0.0]
    assert restored.param_groups[0]["initial_lr"] == 0.5
