"""PyTorch as oracle for lr_scheduler.CyclicLR: every mode (triangular, triangular2, exp_range,
a custom scale_fn per cycle and per iteration), uneven halves, momentum and Adam's beta1
cycled, per-group bounds; the lrs and momentums equal PyTorch's step for step (the same
float arithmetic, so ==); state_dict keys and round trip; errors."""

import pytest

import minigrad as mg
from minigrad import nn, optim

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle
STEPS = 45


class HalfEveryCycle:
    """A callable-object scale_fn (its state is saved by state_dict, as PyTorch)."""

    def __init__(self, base=0.5):
        self.base = base

    def __call__(self, x):
        return self.base**x


def make(lib, opt_name, opt_kwargs, sched_kwargs, groups=1):
    params = [{"params": [lib.nn.Parameter(lib.zeros(2))]} for _ in range(groups)]
    opt = getattr(lib.optim, opt_name)(params, **opt_kwargs)
    return opt, lib.optim.lr_scheduler.CyclicLR(opt, **sched_kwargs)


def history(opt, sched):
    seen = []
    for _ in range(STEPS):
        opt.step()
        sched.step()
        group = opt.param_groups[0]
        seen.append((sched.get_last_lr(), group.get("momentum"), group.get("betas")))
    return seen


CASES = [
    ("SGD", dict(lr=0.1, momentum=0.9), dict(base_lr=0.01, max_lr=0.1, step_size_up=5)),
    (
        "SGD",
        dict(lr=0.1, momentum=0.9),
        dict(base_lr=0.01, max_lr=0.1, step_size_up=4, step_size_down=7, mode="triangular2"),
    ),
    (
        "SGD",
        dict(lr=0.1, momentum=0.9),
        dict(base_lr=0.001, max_lr=0.1, step_size_up=3, mode="exp_range", gamma=0.97),
    ),
    (
        "SGD",
        dict(lr=0.1),
        dict(base_lr=0.01, max_lr=0.2, step_size_up=6, cycle_momentum=False),
    ),
    (
        "Adam",
        dict(lr=0.1),
        dict(base_lr=0.01, max_lr=0.1, step_size_up=5, base_momentum=0.85, max_momentum=0.95),
    ),
    (
        "SGD",
        dict(lr=0.1, momentum=0.9),
        dict(base_lr=0.01, max_lr=0.1, step_size_up=4, scale_fn=lambda x: 1 / (1 + x)),
    ),
    (
        "SGD",
        dict(lr=0.1, momentum=0.9),
        dict(
            base_lr=0.01,
            max_lr=0.1,
            step_size_up=4,
            scale_fn=HalfEveryCycle(0.9),
            scale_mode="iterations",
        ),
    ),
    ("SGD", dict(lr=0.1, momentum=0.5), dict(base_lr=0.05, max_lr=0.06, step_size_up=1)),
]


@pytest.mark.parametrize("opt_name, opt_kwargs, sched_kwargs", CASES)
def test_lrs_and_momentums_equal_pytorchs(opt_name, opt_kwargs, sched_kwargs):
    ours = history(*make(mg, opt_name, opt_kwargs, sched_kwargs))
    theirs = history(*make(torch, opt_name, opt_kwargs, sched_kwargs))
    assert ours == theirs


def test_per_group_bounds_and_initial_state():
    kwargs = dict(base_lr=[0.01, 0.02], max_lr=[0.1, 0.3], step_size_up=3, max_momentum=[0.9, 0.8])
    opts = {}
    for lib in (mg, torch):
        opt, sched = make(lib, "SGD", dict(lr=1.0, momentum=0.5), kwargs, groups=2)
        keys = ("lr", "initial_lr", "momentum", "max_momentum", "base_momentum")
        first = [{k: g[k] for k in keys} for g in opt.param_groups]
        opts[lib] = (first, [g["lr"] for g in opt.param_groups], history(opt, sched))
    assert opts[mg] == opts[torch]


@pytest.mark.parametrize("scale_fn", [None, HalfEveryCycle(), lambda x: 1.0])
def test_state_dict_keys_and_round_trip(scale_fn):
    kwargs = dict(base_lr=0.01, max_lr=0.1, step_size_up=4, scale_fn=scale_fn)
    ours_opt, ours = make(mg, "SGD", dict(lr=0.1, momentum=0.9), kwargs)
    _, theirs = make(torch, "SGD", dict(lr=0.1, momentum=0.9), kwargs)
    for _ in range(5):
        ours_opt.step()
        ours.step()
    saved = ours.state_dict()
    assert set(saved) == set(theirs.state_dict())
    if scale_fn is None or not isinstance(scale_fn, HalfEveryCycle):
        assert saved["_scale_fn_custom"] is None
    else:
        assert saved["_scale_fn_custom"] == {"base": 0.5}
    fresh_fn = HalfEveryCycle(0.1) if isinstance(scale_fn, HalfEveryCycle) else scale_fn
    opt2, resumed = make(mg, "SGD", dict(lr=0.1, momentum=0.9), dict(kwargs, scale_fn=fresh_fn))
    resumed.load_state_dict(saved)
    assert resumed.last_epoch == 5
    if fresh_fn is not None and isinstance(fresh_fn, HalfEveryCycle):
        assert fresh_fn.base == 0.5  # the saved state went into this scheduler's own object
    opt2.load_state_dict(ours_opt.state_dict())
    for _ in range(7):
        for opt, sched in ((ours_opt, ours), (opt2, resumed)):
            opt.step()
            sched.step()
        assert ours.get_last_lr() == resumed.get_last_lr()


@pytest.mark.parametrize(
    "opt_name, opt_kwargs, sched_kwargs",
    [
        ("SGD", dict(lr=0.1, momentum=0.9), dict(base_lr=0.01, max_lr=0.1, mode="sawtooth")),
        ("Rprop", dict(), dict(base_lr=0.01, max_lr=0.1)),  # no momentum or betas to cycle
        ("SGD", dict(lr=0.1, momentum=0.9), dict(base_lr=[0.01, 0.02], max_lr=0.1)),
        ("SGD", dict(lr=0.1, momentum=0.9), dict(base_lr=0.01, max_lr=[0.1, 0.2, 0.3])),
    ],
)
def test_errors_are_pytorchs(opt_name, opt_kwargs, sched_kwargs):
    with pytest.raises(ValueError) as theirs:
        make(torch, opt_name, opt_kwargs, sched_kwargs)
    with pytest.raises(ValueError) as ours:
        make(mg, opt_name, opt_kwargs, sched_kwargs)
    assert str(theirs.value) in str(ours.value)


def test_not_an_optimizer():
    with pytest.raises(TypeError, match="list is not an Optimizer"):
        optim.lr_scheduler.CyclicLR([nn.Parameter(mg.zeros(1))], 0.01, 0.1)
