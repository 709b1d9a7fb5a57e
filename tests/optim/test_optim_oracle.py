"""PyTorch as oracle for optim: 20-step trajectories on the same small MLP, float64."""

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn, optim

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.oracle
RTOL = 1e-6
STEPS = 20
RNG = np.random.default_rng(7)
X = RNG.standard_normal((16, 3))
Y = RNG.integers(0, 3, 16)


def twin_models():
    """The same MLP (3-8-3, tanh) in minigrad and in PyTorch, with identical weights."""
    mg.manual_seed(11)
    ours = nn.Sequential(
        nn.Linear(3, 8, dtype=mg.float64), nn.Tanh(), nn.Linear(8, 3, dtype=mg.float64)
    )
    theirs = torch.nn.Sequential(
        torch.nn.Linear(3, 8), torch.nn.Tanh(), torch.nn.Linear(8, 3)
    ).double()
    theirs.load_state_dict(
        {k: torch.tensor(v.detach().numpy()) for k, v in ours.state_dict().items()}
    )
    return ours, theirs


def trajectories(make_ours, make_theirs, clip=None):
    ours, theirs = twin_models()
    opt_a, opt_b = make_ours(ours.parameters()), make_theirs(theirs.parameters())
    x, y = mg.tensor(X), mg.tensor(Y)
    tx, ty = torch.tensor(X), torch.tensor(Y)
    for step in range(STEPS):
        opt_a.zero_grad()
        nn.functional.cross_entropy(ours(x), y).backward()
        opt_b.zero_grad()
        torch.nn.functional.cross_entropy(theirs(tx), ty).backward()
        if clip is not None:
            na = nn.utils.clip_grad_norm_(ours.parameters(), clip)
            nb = torch.nn.utils.clip_grad_norm_(theirs.parameters(), clip)
            np.testing.assert_allclose(na.item(), nb.item(), rtol=RTOL)
        opt_a.step()
        opt_b.step()
        for (name, a), b in zip(ours.state_dict().items(), theirs.state_dict().values()):
            np.testing.assert_allclose(
                a.detach().numpy(),
                b.numpy(),
                rtol=RTOL,
                atol=1e-12,
                err_msg=f"{name} at step {step}",
            )
    return opt_a, opt_b


SGD_CASES = [
    dict(lr=0.2),
    dict(lr=0.2, momentum=0.9),
    dict(lr=0.1, momentum=0.9, nesterov=True),
    dict(lr=0.1, momentum=0.9, weight_decay=1e-2),
    dict(lr=0.1, momentum=0.8, nesterov=True, weight_decay=5e-2),
    dict(lr=0.1, momentum=0.7, dampening=0.3, weight_decay=1e-3, maximize=True),
]
ADAM_CASES = [
    dict(lr=0.05),
    dict(lr=0.05, amsgrad=True),
    dict(lr=0.05, weight_decay=0.1),
    dict(lr=0.02, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.05, amsgrad=True),
    dict(lr=0.01, maximize=True),
]


@pytest.mark.parametrize("kw", SGD_CASES, ids=str)
def test_sgd_trajectory_matches_torch(kw):
    opt_a, opt_b = trajectories(lambda p: optim.SGD(p, **kw), lambda p: torch.optim.SGD(p, **kw))
    if kw.get("momentum"):
        for pa, pb in zip(opt_a.param_groups[0]["params"], opt_b.param_groups[0]["params"]):
            a, b = opt_a.state[pa]["momentum_buffer"], opt_b.state[pb]["momentum_buffer"]
            np.testing.assert_allclose(a.detach().numpy(), b.numpy(), rtol=RTOL, atol=1e-12)


@pytest.mark.parametrize("kw", ADAM_CASES, ids=str)
@pytest.mark.parametrize("name", ["Adam", "AdamW"])
def test_adam_trajectory_matches_torch(name, kw):
    opt_a, opt_b = trajectories(
        lambda p: getattr(optim, name)(p, **kw), lambda p: getattr(torch.optim, name)(p, **kw)
    )
    for pa, pb in zip(opt_a.param_groups[0]["params"], opt_b.param_groups[0]["params"]):
        sa, sb = opt_a.state[pa], opt_b.state[pb]
        assert list(sa) == list(sb) and sa["step"].item() == sb["step"].item() == STEPS
        for key in sa:
            np.testing.assert_allclose(
                sa[key].detach().numpy(), sb[key].numpy(), rtol=RTOL, atol=1e-14, err_msg=key
            )


def test_adamw_default_weight_decay_matches_torch():
    trajectories(lambda p: optim.AdamW(p, lr=0.05), lambda p: torch.optim.AdamW(p, lr=0.05))


@pytest.mark.parametrize("clip", [0.05, 1.0])
def test_clipped_training_matches_torch(clip):
    trajectories(
        lambda p: optim.SGD(p, lr=0.5, momentum=0.9),
        lambda p: torch.optim.SGD(p, lr=0.5, momentum=0.9),
        clip=clip,
    )


NAMES = ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adamax", "NAdam", "RAdam", "Adadelta"]


@pytest.mark.parametrize("name", NAMES)
def test_param_groups_are_torchs_key_for_key_in_order(name):
    """``print(optimizer)`` and ``state_dict()["param_groups"]`` print as PyTorch's: the same
    keys (the implementation switches foreach, fused, capturable, differentiable too), in
    the same order, with the same defaults."""
    ours, theirs = twin_models()
    ga = getattr(optim, name)(ours.parameters(), lr=0.1, foreach=False).param_groups[0]
    gb = getattr(torch.optim, name)(theirs.parameters(), lr=0.1, foreach=False).param_groups[0]
    assert [k for k in ga if k != "params"] == [k for k in gb if k != "params"]
    for key, value in ga.items():
        if key != "params":
            assert gb[key] == value, (name, key)
    a = getattr(optim, name)(ours.parameters(), lr=0.1)
    b = getattr(torch.optim, name)(theirs.parameters(), lr=0.1)
    assert repr(a) == repr(b)
    assert repr(a.state_dict()["param_groups"]) == repr(b.state_dict()["param_groups"])
