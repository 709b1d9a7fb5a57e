"""RMSprop (PyTorch's update, checked on 20-step trajectories against torch.optim.RMSprop) and
the implementation switches (foreach, fused, capturable, differentiable) every optimizer takes."""

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn, optim

RNG = np.random.default_rng(3)
X = RNG.standard_normal((16, 3))
Y = RNG.integers(0, 3, 16)

CASES = [
    dict(lr=0.01),
    dict(lr=0.01, alpha=0.9, eps=1e-6),
    dict(lr=0.01, momentum=0.9),
    dict(lr=0.01, centered=True),
    dict(lr=0.005, momentum=0.5, centered=True, weight_decay=0.1),
    dict(lr=0.01, maximize=True),
]


@pytest.fixture
def torch():
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    return torch


def _model():
    _ = mg.manual_seed(5)
    return nn.Sequential(
        nn.Linear(3, 6, dtype=mg.float64), nn.Tanh(), nn.Linear(6, 3, dtype=mg.float64)
    )


def _train(model, opt, steps=20):
    x, y = mg.tensor(X), mg.tensor(Y)
    for _ in range(steps):
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()


def test_first_step_by_hand():
    w = nn.Parameter(mg.tensor([1.0, -2.0], dtype=mg.float64))
    opt = optim.RMSprop([w], lr=0.01, alpha=0.9)
    (w**2).sum().backward()  # g = 2w
    opt.step()
    g = np.array([2.0, -4.0])
    v = 0.1 * g**2
    np.testing.assert_allclose(w.detach().numpy(), [1.0, -2.0] - 0.01 * g / (np.sqrt(v) + 1e-8))
    assert opt.state[w]["step"].item() == 1.0 and list(opt.state[w]) == ["step", "square_avg"]


def test_training_lowers_the_loss():
    model = _model()
    x, y = mg.tensor(X), mg.tensor(Y)
    before = nn.functional.cross_entropy(model(x), y).item()
    _train(model, optim.RMSprop(model.parameters(), lr=0.01, momentum=0.5))
    assert nn.functional.cross_entropy(model(x), y).item() < before


def test_bad_arguments():
    p = [nn.Parameter(mg.ones(2))]
    for kw, message in [
        (dict(lr=-1.0), "Invalid learning rate: -1.0"),
        (dict(eps=-1.0), "Invalid epsilon value: -1.0"),
        (dict(momentum=-0.5), "Invalid momentum value: -0.5"),
        (dict(weight_decay=-0.5), "Invalid weight_decay value: -0.5"),
        (dict(alpha=-0.5), "Invalid alpha value: -0.5"),
    ]:
        with pytest.raises(ValueError, match=message):
            optim.RMSprop(p, **kw)
    emb = nn.Embedding(4, 2, sparse=True)
    emb(mg.tensor([1])).sum().backward()
    with pytest.raises(RuntimeError, match="RMSprop does not support sparse gradients"):
        optim.RMSprop(emb.parameters()).step()


@pytest.mark.oracle
@pytest.mark.parametrize("kw", CASES, ids=str)
def test_trajectory_matches_torch(torch, kw):
    ours = _model()
    theirs = torch.nn.Sequential(torch.nn.Linear(3, 6), torch.nn.Tanh(), torch.nn.Linear(6, 3))
    theirs = theirs.double()
    theirs.load_state_dict({k: torch.tensor(v.numpy()) for k, v in ours.state_dict().items()})
    opt_a, opt_b = (
        optim.RMSprop(ours.parameters(), **kw),
        torch.optim.RMSprop(theirs.parameters(), **kw),
    )
    x, y, tx, ty = mg.tensor(X), mg.tensor(Y), torch.tensor(X), torch.tensor(Y)
    for step in range(20):
        for model, opt, ce, a, b in (
            (ours, opt_a, nn.functional.cross_entropy, x, y),
            (theirs, opt_b, torch.nn.functional.cross_entropy, tx, ty),
        ):
            opt.zero_grad()
            ce(model(a), b).backward()
            opt.step()
        for (name, a), b in zip(ours.state_dict().items(), theirs.state_dict().values()):
            np.testing.assert_allclose(
                a.numpy(), b.numpy(), rtol=1e-6, atol=1e-12, err_msg=f"{name}@{step}"
            )
    for pa, pb in zip(ours.parameters(), theirs.parameters()):
        sa, sb = opt_a.state[pa], opt_b.state[pb]
        assert set(sa) == set(sb)
        for key in sa:
            np.testing.assert_allclose(sa[key].numpy(), sb[key].numpy(), rtol=1e-6, atol=1e-14)


@pytest.mark.oracle
def test_param_group_options_match_torch(torch):
    ga = optim.RMSprop(_model().parameters()).param_groups[0]
    gb = torch.optim.RMSprop(torch.nn.Linear(2, 2).parameters()).param_groups[0]
    for key, value in ga.items():
        if key != "params":
            assert gb[key] == value, key


SWITCHES = {
    "SGD": (dict(lr=0.1), dict(foreach=None, fused=None, differentiable=False)),
    "Adam": (dict(), dict(foreach=False, fused=None, capturable=False, differentiable=False)),
    "AdamW": (dict(), dict(foreach=True, fused=False, capturable=False, differentiable=False)),
    "Adagrad": (dict(), dict(foreach=None, fused=None, differentiable=False)),
    "RMSprop": (dict(), dict(foreach=None, capturable=False, differentiable=False)),
}


@pytest.mark.parametrize("name", SWITCHES)
def test_implementation_switches_are_accepted_and_change_nothing(name):
    kw, switches = SWITCHES[name]
    a, b = _model(), _model()
    _train(a, getattr(optim, name)(a.parameters(), **kw), steps=3)
    _train(b, getattr(optim, name)(b.parameters(), **kw, **switches), steps=3)
    for pa, pb in zip(a.parameters(), b.parameters()):
        np.testing.assert_array_equal(pa.detach().numpy(), pb.detach().numpy())
    with pytest.raises(RuntimeError, match=rf"{name}\(differentiable=True\) is not supported"):
        getattr(optim, name)(a.parameters(), **kw, differentiable=True)


@pytest.mark.oracle
@pytest.mark.parametrize("name", SWITCHES)
def test_switches_are_torch_keywords(torch, name):
    kw, switches = SWITCHES[name]
    getattr(torch.optim, name)(torch.nn.Linear(2, 2).parameters(), **kw, **switches)
