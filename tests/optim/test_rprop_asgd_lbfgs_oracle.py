"""PyTorch as oracle for Rprop, ASGD and LBFGS (both line searches): trajectories from the same
start, print(optimizer), state_dict() (keys, order, counters) and its round trip, and errors.

Tolerances. Rprop uses only signs and products by +-1, and matches PyTorch bit for bit.
ASGD and LBFGS match to the last bit or two: PyTorch's CPU ``add_(x, alpha=a)`` is a fused
multiply-add (one rounding; about 2% of float64 results differ from ``p + a * x`` rounded
twice, as numpy and minigrad compute it), and the losses' own gradients (matmul, pow) may
differ in the last bit. Over many float32 L-BFGS iterations on a non-convex model those bits
grow (the method is chaotic there), so float32 L-BFGS is compared on a convex problem."""

import copy

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn, optim

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

RNG = np.random.default_rng(7)
X = RNG.standard_normal((20, 3))
Y = RNG.standard_normal((20, 2))
P0 = RNG.standard_normal(7)
C = RNG.random(7) + 0.5
A = RNG.standard_normal(7)


def twin_mlps(dtype):
    mg.manual_seed(1)
    ours = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 2)).to(getattr(mg, dtype))
    theirs = torch.nn.Sequential(torch.nn.Linear(3, 5), torch.nn.Tanh(), torch.nn.Linear(5, 2))
    theirs = theirs.to(getattr(torch, dtype))
    theirs.load_state_dict(
        {k: torch.tensor(v.detach().numpy()) for k, v in ours.state_dict().items()}
    )
    return ours, theirs


def mlp_problem(lib, model, dtype):
    x, y = lib.tensor(X, dtype=getattr(lib, dtype)), lib.tensor(Y, dtype=getattr(lib, dtype))
    return list(model.parameters()), lambda: ((model(x) - y) ** 2).mean()


def quadratic_problem(lib, dtype):
    """A convex, separable problem: sum c (p - a)**2 + 0.1 sum p**4."""
    t = getattr(lib, dtype)
    p = lib.nn.Parameter(lib.tensor(P0, dtype=t))
    c, a = lib.tensor(C, dtype=t), lib.tensor(A, dtype=t)
    return [p], lambda: (c * (p - a) ** 2).sum() + (p**4).sum() * 0.1


def train(lib, params, loss_fn, name, kwargs, steps):
    opt = getattr(lib.optim, name)(params, **kwargs)

    def closure():
        opt.zero_grad()
        loss = loss_fn()
        loss.backward()
        return loss

    losses = [float(opt.step(closure).detach()) for _ in range(steps)]
    flat = np.concatenate([p.detach().numpy().ravel() for p in params])
    return flat, losses, opt


def both(problem, name, kwargs, dtype, steps):
    if problem == "mlp":
        ours, theirs = twin_mlps(dtype)
        mine, tv = mlp_problem(mg, ours, dtype), mlp_problem(torch, theirs, dtype)
    else:
        mine, tv = quadratic_problem(mg, dtype), quadratic_problem(torch, dtype)
    return train(mg, *mine, name, kwargs, steps), train(torch, *tv, name, kwargs, steps)


CASES = [
    ("Rprop", {}),
    ("Rprop", dict(lr=0.05, etas=(0.3, 1.5), step_sizes=(1e-3, 0.1))),
    ("Rprop", dict(lr=0.02, maximize=True)),
    ("ASGD", {}),
    ("ASGD", dict(lr=0.05, t0=5, weight_decay=0.1, lambd=0.01, alpha=0.5)),
    ("ASGD", dict(lr=0.01, t0=3, maximize=True)),
    ("LBFGS", {}),
    ("LBFGS", dict(line_search_fn="strong_wolfe")),
    ("LBFGS", dict(lr=0.3, history_size=2, max_iter=4)),
    ("LBFGS", dict(line_search_fn="strong_wolfe", history_size=3, max_iter=6, max_eval=8)),
]
STEPS = {"Rprop": 20, "ASGD": 20, "LBFGS": 3}


# Left out: float32 L-BFGS on the MLP (chaotic, see above); maximize on the MLP (its loss is
# unbounded above; maximize is covered on the quadratic).
TRAJECTORIES = [
    (name, kwargs, problem, dtype)
    for name, kwargs in CASES
    for problem in ("quadratic", "mlp")
    for dtype in ("float64", "float32")
    if not (problem == "mlp" and (kwargs.get("maximize") or (name, dtype) == ("LBFGS", "float32")))
]


@pytest.mark.parametrize("name, kwargs, problem, dtype", TRAJECTORIES)
def test_trajectories_match_pytorch(name, kwargs, problem, dtype):
    (ours, our_losses, _), (theirs, their_losses, _) = both(
        problem, name, kwargs, dtype, STEPS[name]
    )
    if name == "Rprop":
        np.testing.assert_array_equal(ours, theirs)
    elif dtype == "float64":
        tol = 1e-8 if (name, problem) == ("LBFGS", "mlp") else 1e-12
        np.testing.assert_allclose(ours, theirs, rtol=tol, atol=tol)
    else:
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(our_losses, their_losses, rtol=1e-5 if dtype == "float32" else 1e-9)


def test_lbfgs_counters_and_state_keys_match_pytorch():
    for kwargs in (dict(), dict(line_search_fn="strong_wolfe"), dict(max_iter=1)):
        (_, _, ours), (_, _, theirs) = both("quadratic", "LBFGS", kwargs, "float64", 2)
        our_state = ours.state_dict()["state"][0]
        their_state = theirs.state_dict()["state"][0]
        assert list(our_state) == list(their_state)
        for key in ("func_evals", "n_iter", "prev_loss"):
            assert our_state[key] == pytest.approx(their_state[key], rel=1e-12)
        assert len(our_state["old_dirs"]) == len(their_state["old_dirs"])
        np.testing.assert_allclose(
            our_state["d"].numpy(), their_state["d"].numpy(), rtol=1e-10, atol=1e-12
        )


def test_lbfgs_stops_at_once_when_optimal():
    for lib in (mg, torch):
        p = lib.nn.Parameter(lib.tensor([3.0, 3.0], dtype=lib.float64))
        opt = lib.optim.LBFGS([p])
        calls = []

        def closure(p=p, opt=opt, lib=lib, calls=calls):
            calls.append(1)
            opt.zero_grad()
            loss = ((p - 3) ** 2).sum()
            loss.backward()
            return loss

        assert float(opt.step(closure)) == 0.0
        assert len(calls) == 1 and opt.state[p]["func_evals"] == 1


@pytest.mark.parametrize(
    "name, kwargs",
    [
        ("Rprop", {}),
        ("Rprop", dict(lr=0.1, etas=(0.4, 1.1), step_sizes=(0.01, 1.0), foreach=False)),
        ("ASGD", {}),
        ("ASGD", dict(lr=0.2, lambd=1e-3, alpha=0.5, t0=10.0, weight_decay=0.01, maximize=True)),
        ("LBFGS", {}),
        ("LBFGS", dict(lr=0.5, max_iter=7, history_size=4, line_search_fn="strong_wolfe")),
    ],
)
def test_print_and_param_groups_match_pytorch(name, kwargs):
    ours = getattr(optim, name)([nn.Parameter(mg.zeros(2))], **kwargs)
    theirs = getattr(torch.optim, name)([torch.nn.Parameter(torch.zeros(2))], **kwargs)
    assert repr(ours) == repr(theirs)
    assert ours.state_dict()["param_groups"] == theirs.state_dict()["param_groups"]
    assert list(ours.state_dict()["param_groups"][0]) == list(
        theirs.state_dict()["param_groups"][0]
    )


@pytest.mark.parametrize("name", ["Rprop", "ASGD"])
def test_state_matches_pytorch(name):
    (_, _, ours), (_, _, theirs) = both("mlp", name, {}, "float64", 5)
    ours, theirs = ours.state_dict()["state"], theirs.state_dict()["state"]
    assert list(ours) == list(theirs)
    for i in ours:
        assert list(ours[i]) == list(theirs[i])
        for key in ours[i]:
            assert ours[i][key].dtype == getattr(mg, str(theirs[i][key].dtype).split(".")[1])
            np.testing.assert_allclose(
                ours[i][key].numpy(), theirs[i][key].numpy(), rtol=1e-13, atol=1e-15
            )


@pytest.mark.parametrize(
    "name, kwargs",
    [
        ("Rprop", dict(lr=0.05)),
        ("ASGD", dict(lr=0.05, t0=2)),
        ("LBFGS", dict(history_size=3, max_iter=3)),
        ("LBFGS", dict(line_search_fn="strong_wolfe", max_iter=3)),
    ],
)
def test_state_dict_round_trip_resumes_exactly(name, kwargs):
    ours, _ = twin_mlps("float64")
    twin = copy.deepcopy(ours)
    params, loss_fn = mlp_problem(mg, ours, "float64")
    flat, _, opt = train(mg, params, loss_fn, name, kwargs, 6)

    params2, loss_fn2 = mlp_problem(mg, twin, "float64")
    _, _, first = train(mg, params2, loss_fn2, name, kwargs, 3)
    saved = first.state_dict()
    resumed = getattr(optim, name)(params2, **kwargs)
    resumed.load_state_dict(saved)

    def closure():
        resumed.zero_grad()
        loss = loss_fn2()
        loss.backward()
        return loss

    for _ in range(3):
        resumed.step(closure)
    again = np.concatenate([p.detach().numpy().ravel() for p in params2])
    if name == "ASGD":
        # loading casts eta and mu (float32) to the parameter's float64, as PyTorch's
        # load_state_dict does, so the resumed run computes them more precisely
        assert resumed.state[params2[0]]["eta"].dtype == mg.float64
        np.testing.assert_allclose(again, flat, rtol=1e-7)
    else:
        np.testing.assert_array_equal(again, flat)


@pytest.mark.parametrize(
    "name, kwargs, error",
    [
        ("Rprop", dict(lr=-1.0), ValueError),
        ("Rprop", dict(etas=(1.5, 1.2)), ValueError),
        ("Rprop", dict(etas=(0.5, 0.9)), ValueError),
        ("ASGD", dict(lr=-0.1), ValueError),
        ("ASGD", dict(weight_decay=-0.1), ValueError),
        ("LBFGS", dict(lr=-1), ValueError),
    ],
)
def test_errors_are_pytorchs(name, kwargs, error):
    with pytest.raises(error) as theirs:
        getattr(torch.optim, name)([torch.nn.Parameter(torch.zeros(2))], **kwargs)
    with pytest.raises(error) as ours:
        getattr(optim, name)([nn.Parameter(mg.zeros(2))], **kwargs)
    assert str(ours.value) == str(theirs.value)


def test_lbfgs_refusals_are_pytorchs():
    messages = []
    for lib in (torch, mg):
        a, b = lib.nn.Parameter(lib.zeros(2)), lib.nn.Parameter(lib.zeros(2))
        with pytest.raises(ValueError) as groups:
            lib.optim.LBFGS([{"params": [a]}, {"params": [b], "lr": 0.1}])
        opt = lib.optim.LBFGS([a], line_search_fn="armijo")

        def closure(a=a, opt=opt):
            opt.zero_grad()
            loss = ((a - 1) ** 2).sum()
            loss.backward()
            return loss

        with pytest.raises(RuntimeError) as search:
            opt.step(closure)
        messages.append((str(groups.value), str(search.value)))
    assert messages[0] == messages[1]


def test_differentiable_is_refused():
    for name in ("Rprop", "ASGD"):
        with pytest.raises(RuntimeError, match="not supported"):
            getattr(optim, name)([nn.Parameter(mg.zeros(2))], differentiable=True)


@pytest.mark.parametrize("line_search_fn", [None, "strong_wolfe"])
def test_lbfgs_unused_parameter_and_tight_max_eval(line_search_fn):
    """A parameter without a gradient counts as zeros (and stays put); max_eval caps the
    closure calls of one step, line-search evaluations included."""
    results = []
    for lib in (mg, torch):
        p = lib.nn.Parameter(lib.tensor(P0, dtype=lib.float64))
        unused = lib.nn.Parameter(lib.ones(3, dtype=lib.float64))
        c, a = lib.tensor(C, dtype=lib.float64), lib.tensor(A, dtype=lib.float64)
        opt = lib.optim.LBFGS([unused, p], max_iter=10, max_eval=6, line_search_fn=line_search_fn)
        calls = []

        def closure(p=p, c=c, a=a, opt=opt, calls=calls):
            calls.append(1)
            opt.zero_grad()
            loss = (c * (p - a) ** 2).sum() + (p**4).sum() * 0.1
            loss.backward()
            return loss

        opt.step(closure)
        results.append((p.detach().numpy().copy(), unused.detach().numpy().copy(), len(calls)))
    (ours, our_unused, our_calls), (theirs, their_unused, their_calls) = results
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-14)
    np.testing.assert_array_equal(our_unused, their_unused)
    assert our_calls == their_calls <= 6 + 1
