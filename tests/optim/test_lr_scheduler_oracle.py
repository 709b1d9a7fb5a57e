"""PyTorch as oracle for optim.lr_scheduler: 30-epoch lr sequences over three param groups
(different lrs), the same script under both libraries, compared to 1e-12; and the errors."""

import inspect
import math

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.oracle
EPOCHS = 30
ATOL = 1e-12


def make_optimizer(lib, kind="SGD"):
    """Three param groups: lr 0.1, 0.01 and the default 0.5 (SGD with momentum, or Adam)."""
    ps = [lib.nn.Parameter(lib.zeros(2)) for _ in range(3)]
    groups = [{"params": [ps[0]], "lr": 0.1}, {"params": [ps[1]], "lr": 0.01}, {"params": [ps[2]]}]
    if kind == "Adam":
        return lib.optim.Adam(groups, lr=0.5)
    return lib.optim.SGD(groups, lr=0.5, momentum=0.9)


def per_group_lambdas():
    return [lambda e: 1 / (e + 1), lambda e: e // 5 + 1, lambda e: 0.9**e]


# name, constructor (lib's scheduler module, optimizer) -> scheduler
SCHEDULES = {
    "StepLR": lambda s, opt: s.StepLR(opt, step_size=4, gamma=0.5),
    "StepLR-default-gamma": lambda s, opt: s.StepLR(opt, 7),
    "MultiStepLR": lambda s, opt: s.MultiStepLR(opt, milestones=[3, 8, 8, 20], gamma=0.3),
    "MultiStepLR-default": lambda s, opt: s.MultiStepLR(opt, [10, 25]),
    "ExponentialLR": lambda s, opt: s.ExponentialLR(opt, gamma=0.9),
    "LambdaLR": lambda s, opt: s.LambdaLR(opt, lambda e: 0.95**e),
    "LambdaLR-per-group": lambda s, opt: s.LambdaLR(opt, per_group_lambdas()),
    "CosineAnnealingLR": lambda s, opt: s.CosineAnnealingLR(opt, T_max=10, eta_min=0.001),
    "CosineAnnealingLR-T30": lambda s, opt: s.CosineAnnealingLR(opt, T_max=30),
    "CosineAnnealingLR-T1": lambda s, opt: s.CosineAnnealingLR(opt, T_max=1, eta_min=0.01),
    "LinearLR": lambda s, opt: s.LinearLR(opt),
    "LinearLR-decay": lambda s, opt: s.LinearLR(opt, 0.5, 0.1, total_iters=12),
    "SequentialLR-warmup-cosine": lambda s, opt: s.SequentialLR(
        opt,
        [s.LinearLR(opt, start_factor=0.1, total_iters=5), s.CosineAnnealingLR(opt, T_max=20)],
        milestones=[5],
    ),
    "SequentialLR-three": lambda s, opt: s.SequentialLR(
        opt,
        [s.LinearLR(opt, 0.25, total_iters=4), s.StepLR(opt, 3, 0.5), s.ExponentialLR(opt, 0.8)],
        milestones=[4, 12],
    ),
    "SequentialLR-lambda": lambda s, opt: s.SequentialLR(
        opt, [s.ExponentialLR(opt, 0.7), s.LambdaLR(opt, lambda e: 1 / (e + 2))], [6]
    ),
    "ConstantLR": lambda s, opt: s.ConstantLR(opt),
    "ConstantLR-quarter": lambda s, opt: s.ConstantLR(opt, factor=0.25, total_iters=9),
    "MultiplicativeLR": lambda s, opt: s.MultiplicativeLR(opt, lambda e: 0.9 if e % 3 else 1.1),
    "MultiplicativeLR-per-group": lambda s, opt: s.MultiplicativeLR(opt, per_group_lambdas()),
    "PolynomialLR": lambda s, opt: s.PolynomialLR(opt),
    "PolynomialLR-power": lambda s, opt: s.PolynomialLR(opt, total_iters=20, power=2.5),
    "CosineAnnealingWarmRestarts": lambda s, opt: s.CosineAnnealingWarmRestarts(opt, 7),
    "CosineAnnealingWarmRestarts-mult": lambda s, opt: s.CosineAnnealingWarmRestarts(
        opt, T_0=3, T_mult=2, eta_min=0.004
    ),
    "ChainedScheduler": lambda s, opt: s.ChainedScheduler(
        [s.ConstantLR(opt, 0.1, total_iters=4), s.ExponentialLR(opt, 0.9), s.StepLR(opt, 5)]
    ),
    "SequentialLR-constant-poly": lambda s, opt: s.SequentialLR(
        opt, [s.ConstantLR(opt, 0.5, 3), s.PolynomialLR(opt, 25, 2.0)], [3]
    ),
    "LRScheduler-subclass": lambda s, opt: type(
        "Halving",
        (s.LRScheduler,),
        {"get_lr": lambda self: [b * 0.5 ** (self.last_epoch // 4) for b in self.base_lrs]},
    )(opt),
    "OneCycleLR": lambda s, opt: s.OneCycleLR(opt, max_lr=[1.0, 0.1, 0.5], total_steps=EPOCHS),
    "OneCycleLR-three-phase-linear": lambda s, opt: s.OneCycleLR(
        opt,
        0.3,
        epochs=5,
        steps_per_epoch=6,
        pct_start=0.25,
        anneal_strategy="linear",
        three_phase=True,
        base_momentum=[0.8, 0.7, 0.6],
        div_factor=10.0,
    ),
}


def run(lib, build, kind="SGD", metrics=None):
    """lrs (get_last_lr and the groups' lr) and momenta at construction and after each epoch."""
    opt = make_optimizer(lib, kind)
    sched = build(lib.optim.lr_scheduler, opt)
    record = []

    def snapshot():
        momenta = [g["betas"][0] if kind == "Adam" else g["momentum"] for g in opt.param_groups]
        record.append(sched.get_last_lr() + [g["lr"] for g in opt.param_groups] + momenta)

    snapshot()
    for epoch in range(EPOCHS - 1 if "OneCycle" in type(sched).__name__ else EPOCHS):
        opt.step()
        sched.step() if metrics is None else sched.step(metrics[epoch])
        snapshot()
    return np.array(record, dtype=np.float64)


@pytest.mark.parametrize("name", list(SCHEDULES))
def test_lr_sequence_matches_torch(name):
    ours, theirs = run(mg, SCHEDULES[name]), run(torch, SCHEDULES[name])
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=ATOL)
    assert len(np.unique(ours[:, 0])) > 1 or name == "StepLR-default-gamma"


def test_one_cycle_cycles_adam_beta1_as_torch():
    build = SCHEDULES["OneCycleLR"]
    np.testing.assert_allclose(run(mg, build, "Adam"), run(torch, build, "Adam"), atol=ATOL)


def test_warm_restarts_with_fractional_epochs_match_torch():
    lrs = []
    for lib in (mg, torch):
        opt = make_optimizer(lib)
        sched = lib.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, 2, T_mult=3, eta_min=0.01)
        seq = []
        for epoch in range(12):
            for i in range(4):
                opt.step()
                sched.step(epoch + i / 4)
                seq.append(sched.get_last_lr())
        for epoch in [30, 0.5, 100.25]:  # jumps, back and forth
            sched.step(epoch)
            seq.append(sched.get_last_lr())
        lrs.append(seq)
    np.testing.assert_allclose(lrs[0], lrs[1], rtol=0, atol=ATOL)


def test_chained_schedulers_match_torch():
    def build(s, opt):
        first = s.StepLR(opt, step_size=3, gamma=0.5)
        s.ExponentialLR(opt, gamma=0.95)
        return first

    np.testing.assert_allclose(run(mg, build), run(torch, build), rtol=0, atol=ATOL)


def test_resuming_with_last_epoch_matches_torch():
    def build(s, opt):
        s.StepLR(opt, 4)  # sets initial_lr
        return s.CosineAnnealingLR(opt, T_max=12, eta_min=0.002, last_epoch=7)

    np.testing.assert_allclose(run(mg, build), run(torch, build), rtol=0, atol=ATOL)


PLATEAU_METRICS = list(
    1.0 / (1 + np.minimum(np.arange(EPOCHS), 6)) + 0.01 * np.sin(np.arange(EPOCHS))
)
PLATEAUS = {
    "default": lambda s, opt: s.ReduceLROnPlateau(opt),
    "patience-cooldown": lambda s, opt: s.ReduceLROnPlateau(
        opt, factor=0.5, patience=2, cooldown=3
    ),
    "max-abs": lambda s, opt: s.ReduceLROnPlateau(
        opt, "max", factor=0.3, patience=1, threshold=0.05, threshold_mode="abs"
    ),
    "min-lr-list": lambda s, opt: s.ReduceLROnPlateau(
        opt, patience=0, factor=0.2, min_lr=[0.05, 0.0, 0.1], eps=1e-3
    ),
}


@pytest.mark.parametrize("name", list(PLATEAUS))
def test_reduce_on_plateau_matches_torch(name):
    ours = run(mg, PLATEAUS[name], metrics=PLATEAU_METRICS)
    theirs = run(torch, PLATEAUS[name], metrics=[torch.tensor(m) for m in PLATEAU_METRICS])
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=ATOL)
    assert len(np.unique(ours[:, 0])) > 1  # the schedule did cut the lr


@pytest.mark.parametrize(
    "name",
    ["StepLR", "MultiStepLR", "LinearLR", "CosineAnnealingLR", "ConstantLR", "PolynomialLR"],
)
def test_step_with_epoch_uses_the_closed_form_as_torch(name):
    lrs = []
    for lib in (mg, torch):
        opt = make_optimizer(lib)
        sched = SCHEDULES[name](lib.optim.lr_scheduler, opt)
        seq = []
        with pytest.warns(UserWarning, match="epoch parameter"):
            for epoch in [3, 9, 4, 17, 0, 25]:
                opt.step()
                sched.step(epoch)
                seq.append(sched.get_last_lr())
        lrs.append(seq)
    np.testing.assert_allclose(lrs[0], lrs[1], rtol=0, atol=ATOL)


@pytest.mark.parametrize(
    "name",
    ["StepLR", "LambdaLR", "SequentialLR-three", "OneCycleLR", "ChainedScheduler"]
    + ["CosineAnnealingWarmRestarts-mult", "MultiplicativeLR", "PolynomialLR"],
)
def test_state_dict_has_torch_public_keys(name):
    keys = []
    for lib in (mg, torch):
        opt = make_optimizer(lib)
        sched = SCHEDULES[name](lib.optim.lr_scheduler, opt)
        opt.step()
        sched.step()
        keys.append({k for k in sched.state_dict() if not k.startswith("_")})
        if name != "ChainedScheduler":  # which has no epoch counter of its own (as PyTorch)
            assert sched.state_dict()["last_epoch"] == 1
    assert keys[0] == keys[1]


def test_initial_lr_and_base_lrs_as_torch():
    got = []
    for lib in (mg, torch):
        opt = make_optimizer(lib)
        sched = lib.optim.lr_scheduler.StepLR(opt, 2)
        got.append(([g["initial_lr"] for g in opt.param_groups], sched.base_lrs, sched.last_epoch))
    assert got[0] == got[1]


BAD = {
    "StepLR-not-optimizer": lambda s, opt: s.StepLR("adam", 3),
    "Cosine-not-optimizer": lambda s, opt: s.CosineAnnealingLR([1, 2], 3),
    "Plateau-not-optimizer": lambda s, opt: s.ReduceLROnPlateau(None),
    "OneCycle-not-optimizer": lambda s, opt: s.OneCycleLR(3.0, 0.1, 10),
    "Plateau-factor-1": lambda s, opt: s.ReduceLROnPlateau(opt, factor=1.0),
    "Plateau-factor-2": lambda s, opt: s.ReduceLROnPlateau(opt, factor=2),
    "Plateau-mode": lambda s, opt: s.ReduceLROnPlateau(opt, mode="avg"),
    "Plateau-threshold-mode": lambda s, opt: s.ReduceLROnPlateau(opt, threshold_mode="pct"),
    "Plateau-min-lrs": lambda s, opt: s.ReduceLROnPlateau(opt, min_lr=[0.1, 0.2]),
    "Linear-start-0": lambda s, opt: s.LinearLR(opt, start_factor=0),
    "Linear-start-big": lambda s, opt: s.LinearLR(opt, start_factor=1.5),
    "Linear-end": lambda s, opt: s.LinearLR(opt, end_factor=-0.1),
    "Lambda-count": lambda s, opt: s.LambdaLR(opt, [lambda e: 1.0]),
    "resume-without-initial-lr": lambda s, opt: s.StepLR(opt, 3, last_epoch=5),
    "OneCycle-no-length": lambda s, opt: s.OneCycleLR(opt, 0.1),
    "OneCycle-total-0": lambda s, opt: s.OneCycleLR(opt, 0.1, total_steps=0),
    "OneCycle-epochs": lambda s, opt: s.OneCycleLR(opt, 0.1, epochs=-1, steps_per_epoch=3),
    "OneCycle-pct-int": lambda s, opt: s.OneCycleLR(opt, 0.1, 10, pct_start=1),
    "OneCycle-anneal": lambda s, opt: s.OneCycleLR(opt, 0.1, 10, anneal_strategy="exp"),
    "OneCycle-max-lr-list": lambda s, opt: s.OneCycleLR(opt, [0.1, 0.2], 10),
    "Sequential-empty": lambda s, opt: s.SequentialLR(opt, [], []),
    "Sequential-milestones": lambda s, opt: s.SequentialLR(opt, [s.StepLR(opt, 2)], [3]),
    "Sequential-plateau": lambda s, opt: s.SequentialLR(
        opt, [s.StepLR(opt, 2), s.ReduceLROnPlateau(opt)], [3]
    ),
    "Constant-factor": lambda s, opt: s.ConstantLR(opt, factor=1.5),
    "Multiplicative-not-callable": lambda s, opt: s.MultiplicativeLR(opt, 0.9),
    "Restarts-T0": lambda s, opt: s.CosineAnnealingWarmRestarts(opt, 0),
    "Restarts-T0-float": lambda s, opt: s.CosineAnnealingWarmRestarts(opt, 2.0),
    "Restarts-T-mult": lambda s, opt: s.CosineAnnealingWarmRestarts(opt, 2, T_mult=0),
    "Restarts-eta-min": lambda s, opt: s.CosineAnnealingWarmRestarts(opt, 2, eta_min="0"),
    "Restarts-negative-epoch": lambda s, opt: s.CosineAnnealingWarmRestarts(opt, 2).step(-1),
    "Chained-plateau": lambda s, opt: s.ChainedScheduler([s.ReduceLROnPlateau(opt)]),
    "Chained-not-scheduler": lambda s, opt: s.ChainedScheduler([s.StepLR(opt, 2), "x"]),
    "Chained-other-optimizer": lambda s, opt: s.ChainedScheduler(
        [
            s.StepLR(opt, 2),
            s.StepLR(make_optimizer(s.__name__.startswith("torch") and torch or mg), 2),
        ]
    ),
    "Sequential-not-scheduler": lambda s, opt: s.SequentialLR(opt, [s.StepLR(opt, 2), 3], [3]),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_arguments_raise_as_torch(name):
    raised = []
    for lib in (mg, torch):
        with pytest.raises(Exception) as info:
            BAD[name](lib.optim.lr_scheduler, make_optimizer(lib))
        raised.append(info.value)
    ours, theirs = raised
    assert type(ours) is type(theirs), (ours, theirs)
    first_words = " ".join(str(theirs).strip("'\"").split()[:3])
    assert first_words in str(ours)


def test_one_cycle_past_the_end_raises_as_torch():
    for lib in (mg, torch):
        opt = make_optimizer(lib)
        sched = lib.optim.lr_scheduler.OneCycleLR(opt, 0.1, total_steps=3)
        for _ in range(3):
            opt.step()
            sched.step()
        opt.step()
        with pytest.raises(ValueError, match="Tried to step 4 times"):
            sched.step()


def test_one_cycle_needs_momentum_as_torch():
    for lib in (mg, torch):
        opt = lib.optim.Adagrad([lib.nn.Parameter(lib.zeros(1))])
        with pytest.raises(ValueError, match="optimizer must support momentum or beta1"):
            lib.optim.lr_scheduler.OneCycleLR(opt, 0.1, 10)
        assert math.isclose(
            lib.optim.lr_scheduler.OneCycleLR(opt, 0.1, 10, cycle_momentum=False).get_last_lr()[0],
            0.004,
        )


@pytest.mark.parametrize("name", mg.optim.lr_scheduler.__all__)
def test_signatures_match_torch(name):
    def parameters(lib):
        cls = getattr(lib.optim.lr_scheduler, name)
        return [(p.name, p.default) for p in inspect.signature(cls.__init__).parameters.values()]

    assert parameters(mg) == parameters(torch)
    step = getattr(mg.optim.lr_scheduler, name).step
    assert list(inspect.signature(step).parameters) == list(
        inspect.signature(getattr(torch.optim.lr_scheduler, name).step).parameters
    )
