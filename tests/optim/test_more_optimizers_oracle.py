"""PyTorch as oracle for Adamax, NAdam, RAdam and Adadelta: 20-step trajectories from the same
float64 start on a small MLP and on a quadratic, with weight decay on and off and with two param
groups of different lr, compared to 1e-10; then options, state, errors and switches."""

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn, optim

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.oracle
RTOL, ATOL = 1e-10, 1e-12
STEPS = 20
RNG = np.random.default_rng(7)
X = RNG.standard_normal((16, 3))
Y = RNG.integers(0, 3, 16)
P0 = np.array([1.0, -2.0, 0.5, 3.0])
C = np.array([1.0, 0.5, 3.0, 0.1])

CASES = {
    "Adamax": [
        dict(lr=0.05),
        dict(lr=0.05, weight_decay=0.1),
        dict(lr=0.02, betas=(0.8, 0.99), eps=1e-6, maximize=True),
    ],
    "NAdam": [
        dict(lr=0.05),
        dict(lr=0.05, weight_decay=0.1),
        dict(lr=0.05, weight_decay=0.1, decoupled_weight_decay=True),
        dict(lr=0.02, betas=(0.8, 0.99), momentum_decay=0.02, maximize=True),
    ],
    "RAdam": [
        dict(lr=0.05),
        dict(lr=0.05, betas=(0.9, 0.9)),  # rho_t > 5 from step 6: both branches
        dict(lr=0.05, betas=(0.9, 0.9), weight_decay=0.1),
        dict(lr=0.05, betas=(0.9, 0.9), weight_decay=0.1, decoupled_weight_decay=True),
        dict(lr=0.02, eps=1e-6, maximize=True),
    ],
    "Adadelta": [
        dict(),
        dict(lr=0.5, weight_decay=0.1),
        dict(rho=0.5, eps=1e-4, maximize=True),
    ],
}
ALL_CASES = [(name, kw) for name, kws in CASES.items() for kw in kws]


def twin_models():
    """The same MLP (3-8-3, tanh) in minigrad and in PyTorch, with identical float64 weights."""
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


def mlp_loss(lib, model):
    x, y = lib.tensor(X), lib.tensor(Y)
    return lib.nn.functional.cross_entropy(model(x), y)


def groups(model, two_groups):
    """All parameters in one group, or the two layers in two groups (the second at lr 0.01)."""
    if not two_groups:
        return model.parameters()
    return [{"params": model[0].parameters()}, {"params": model[2].parameters(), "lr": 0.01}]


def assert_same_params(ours, theirs, where):
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(
            a.detach().numpy(), b.detach().numpy(), rtol=RTOL, atol=ATOL, err_msg=where
        )


def assert_same_state(opt_a, opt_b):
    params_a = [p for g in opt_a.param_groups for p in g["params"]]
    params_b = [p for g in opt_b.param_groups for p in g["params"]]
    for pa, pb in zip(params_a, params_b):
        sa, sb = opt_a.state[pa], opt_b.state[pb]
        assert list(sa) == list(sb)
        for key in sa:
            assert str(sa[key].dtype).split(".")[-1] == str(sb[key].dtype).split(".")[-1], key
            np.testing.assert_allclose(
                sa[key].numpy(), sb[key].numpy(), rtol=RTOL, atol=1e-14, err_msg=key
            )


def run_mlp(name, kw, two_groups=False, steps=STEPS, models=None, opts=None):
    ours, theirs = models or twin_models()
    opt_a, opt_b = opts or (
        getattr(optim, name)(groups(ours, two_groups), **kw),
        getattr(torch.optim, name)(groups(theirs, two_groups), **kw),
    )
    for step in range(steps):
        for lib, model, opt in ((mg, ours, opt_a), (torch, theirs, opt_b)):
            opt.zero_grad()
            mlp_loss(lib, model).backward()
            opt.step()
        assert_same_params(ours.parameters(), theirs.parameters(), f"{name} {kw} step {step}")
    return (ours, theirs), (opt_a, opt_b)


@pytest.mark.parametrize("name, kw", ALL_CASES, ids=str)
def test_mlp_trajectory_matches_torch(name, kw):
    _, (opt_a, opt_b) = run_mlp(name, kw)
    assert_same_state(opt_a, opt_b)


@pytest.mark.parametrize("name, kw", ALL_CASES, ids=str)
def test_two_param_groups_match_torch(name, kw):
    _, (opt_a, opt_b) = run_mlp(name, kw, two_groups=True)
    assert [g["lr"] for g in opt_a.param_groups] == [g["lr"] for g in opt_b.param_groups]
    assert_same_state(opt_a, opt_b)


@pytest.mark.parametrize("name, kw", ALL_CASES, ids=str)
def test_quadratic_trajectory_matches_torch(name, kw):
    pa = nn.Parameter(mg.tensor(P0, dtype=mg.float64))
    pb = torch.nn.Parameter(torch.tensor(P0))
    opt_a, opt_b = getattr(optim, name)([pa], **kw), getattr(torch.optim, name)([pb], **kw)
    for step in range(STEPS):
        for lib, p, opt in ((mg, pa, opt_a), (torch, pb, opt_b)):
            opt.zero_grad()
            (lib.tensor(C) * p * p).sum().backward()
            opt.step()
        assert_same_params([pa], [pb], f"{name} {kw} step {step}")
    assert_same_state(opt_a, opt_b)


@pytest.mark.parametrize("name", CASES)
def test_load_state_dict_then_continue_matches_torch(name):
    """Both libraries save after 10 steps, load into fresh optimizers, and go on for 10 more
    (for NAdam this includes PyTorch's cast of the float32 mu_product to the param dtype)."""
    kw = CASES[name][1]
    (ours, theirs), (opt_a, opt_b) = run_mlp(name, kw, steps=10)
    fresh_a, fresh_b = (
        getattr(optim, name)(ours.parameters()),
        getattr(torch.optim, name)(theirs.parameters()),
    )
    fresh_a.load_state_dict(opt_a.state_dict())
    fresh_b.load_state_dict(opt_b.state_dict())
    assert_same_state(fresh_a, fresh_b)
    run_mlp(name, kw, steps=10, models=(ours, theirs), opts=(fresh_a, fresh_b))
    assert_same_state(fresh_a, fresh_b)


@pytest.mark.parametrize("name", CASES)
def test_param_group_options_match_torch(name):
    ga = getattr(optim, name)([nn.Parameter(mg.ones(2))]).param_groups[0]
    gb = getattr(torch.optim, name)([torch.nn.Parameter(torch.ones(2))]).param_groups[0]
    assert set(gb) - set(ga) <= {"foreach", "capturable", "differentiable"}
    for key, value in ga.items():
        if key != "params":
            assert gb[key] == value, key


BAD = [
    ("Adamax", dict(lr=-1.0)),
    ("Adamax", dict(eps=-1.0)),
    ("Adamax", dict(betas=(1.0, 0.999))),
    ("Adamax", dict(betas=(0.9, -0.1))),
    ("Adamax", dict(weight_decay=-0.5)),
    ("NAdam", dict(lr=-1.0)),
    ("NAdam", dict(betas=(0.9, 1.0))),
    ("NAdam", dict(momentum_decay=-0.1)),
    ("NAdam", dict(weight_decay=-1)),
    ("RAdam", dict(lr=float("nan"))),
    ("RAdam", dict(eps=-1.0)),
    ("RAdam", dict(betas=(-0.5, 0.999))),
    ("RAdam", dict(weight_decay=-0.5)),
    ("Adadelta", dict(lr=-1.0)),
    ("Adadelta", dict(rho=1.5)),
    ("Adadelta", dict(rho=-0.1)),
    ("Adadelta", dict(eps=-1.0)),
    ("Adadelta", dict(weight_decay=-0.5)),
]


@pytest.mark.parametrize("name, kw", BAD, ids=str)
def test_bad_hyperparameters_raise_as_torch(name, kw):
    with pytest.raises(ValueError) as theirs:
        getattr(torch.optim, name)([torch.nn.Parameter(torch.ones(2))], **kw)
    with pytest.raises(ValueError) as ours:
        getattr(optim, name)([nn.Parameter(mg.ones(2))], **kw)
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("name", CASES)
def test_sparse_gradients_refused_as_torch(name):
    emb = torch.nn.Embedding(4, 2, sparse=True)
    emb(torch.tensor([1])).sum().backward()
    with pytest.raises(RuntimeError) as theirs:
        getattr(torch.optim, name)(emb.parameters()).step()
    ours_emb = nn.Embedding(4, 2, sparse=True)
    ours_emb(mg.tensor([1])).sum().backward()
    with pytest.raises(RuntimeError) as ours:
        getattr(optim, name)(ours_emb.parameters()).step()
    assert str(ours.value).startswith(str(theirs.value))  # ours adds what to do instead


@pytest.mark.parametrize("name", CASES)
def test_switches_are_torch_keywords(name):
    switches = dict(foreach=False, capturable=False, differentiable=False)
    getattr(torch.optim, name)(torch.nn.Linear(2, 2).parameters(), **switches)
    getattr(optim, name)(nn.Linear(2, 2).parameters(), **switches)
