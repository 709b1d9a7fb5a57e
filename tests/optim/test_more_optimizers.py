"""Adamax, NAdam, RAdam and Adadelta against their update formulas written out in numpy (a
first step by hand, then several steps), their argument checks, state, state_dict round trip,
parameters without a gradient, sparse gradients and the implementation switches."""

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn, optim

P0 = np.array([1.0, -2.0, 0.5])
C = np.array([1.0, 0.5, 3.0])
G0 = 2 * C * P0  # the first gradient of sum(C * p**2): [2, -2, 3]


def quadratic_steps(opt_factory, steps):
    """Minimise sum(C * p**2) from P0; return the parameter after each step."""
    p = nn.Parameter(mg.tensor(P0, dtype=mg.float64))
    c = mg.tensor(C, dtype=mg.float64)
    opt = opt_factory([p])
    out = []
    for _ in range(steps):
        opt.zero_grad()
        (c * p * p).sum().backward()
        opt.step()
        out.append(p.detach().numpy().copy())
    return out, opt, p


def grads(p, wd, maximize):
    """The gradient the update sees (sign flipped by maximize, L2 term added)."""
    return 2 * C * p * (-1 if maximize else 1) + wd * p


# --- numpy references: each line is one line of the docstring's formula ---------------------
def adamax_reference(steps, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, wd=0.0, maximize=False):
    (b1, b2), p, m, u, out = betas, P0.copy(), 0.0, 0.0, []
    for t in range(1, steps + 1):
        g = grads(p, wd, maximize)
        m = b1 * m + (1 - b1) * g
        u = np.maximum(b2 * u, np.abs(g) + eps)
        p = p - lr / (1 - b1**t) * m / u
        out.append(p)
    return out


def nadam_reference(
    steps, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, wd=0.0, momentum_decay=4e-3, decoupled=False
):
    (b1, b2), p, m, v, prod, out = betas, P0.copy(), 0.0, 0.0, np.float32(1.0), []

    def mu(t):
        return b1 * (1 - 0.5 * 0.96 ** (t * momentum_decay))

    for t in range(1, steps + 1):
        g = grads(p, 0.0 if decoupled else wd, False)
        if decoupled:
            p = p * (1 - lr * wd)
        prod = np.float32(prod * np.float32(mu(t)))  # PyTorch keeps the product in float32
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        d = np.sqrt(v / (1 - b2**t)) + eps
        P = float(prod)
        p = p - lr * (1 - mu(t)) / (1 - P) * g / d - lr * mu(t + 1) / (1 - P * mu(t + 1)) * m / d
        out.append(p)
    return out


def radam_reference(steps, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, wd=0.0, decoupled=False):
    (b1, b2), p, m, v, out = betas, P0.copy(), 0.0, 0.0, []
    rho_inf = 2 / (1 - b2) - 1
    for t in range(1, steps + 1):
        g = grads(p, 0.0 if decoupled else wd, False)
        if decoupled:
            p = p * (1 - lr * wd)
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        m_hat = m / (1 - b1**t)
        rho_t = rho_inf - 2 * t * b2**t / (1 - b2**t)
        if rho_t > 5:
            r = np.sqrt(
                (rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)
            )
            p = p - lr * m_hat * r * np.sqrt(1 - b2**t) / (np.sqrt(v) + eps)
        else:
            p = p - lr * m_hat
        out.append(p)
    return out


def adadelta_reference(steps, lr=1.0, rho=0.9, eps=1e-6, wd=0.0, maximize=False):
    p, v, u, out = P0.copy(), 0.0, 0.0, []
    for _ in range(steps):
        g = grads(p, wd, maximize)
        v = rho * v + (1 - rho) * g * g
        delta = np.sqrt(u + eps) / np.sqrt(v + eps) * g
        u = rho * u + (1 - rho) * delta * delta
        p = p - lr * delta
        out.append(p)
    return out


# --- a first step by hand ----------------------------------------------------------------
def test_adamax_first_step_by_hand():
    got, _, _ = quadratic_steps(lambda ps: optim.Adamax(ps, lr=0.1), 1)
    # m = 0.1 g, u = |g| + eps, lr / (1 - 0.9) = 1: the step is 0.1 g / (|g| + eps)
    np.testing.assert_allclose(got[0], P0 - 0.1 * G0 / (np.abs(G0) + 1e-8), rtol=1e-14)


def test_nadam_first_step_by_hand():
    got, _, _ = quadratic_steps(lambda ps: optim.NAdam(ps, lr=0.1), 1)
    mu1 = 0.9 * (1 - 0.5 * 0.96**0.004)
    mu2 = 0.9 * (1 - 0.5 * 0.96**0.008)
    prod = float(np.float32(mu1))
    d = np.abs(G0) + 1e-8  # sqrt(0.001 g**2 / 0.001) + eps
    step = 0.1 * (1 - mu1) / (1 - prod) * G0 / d + 0.1 * mu2 / (1 - prod * mu2) * 0.1 * G0 / d
    np.testing.assert_allclose(got[0], P0 - step, rtol=1e-14)
    assert abs(step[0] - 0.10564) < 1e-5  # mostly lr * sign(g), plus the look-ahead


def test_radam_first_steps_are_momentum_steps():
    got, _, _ = quadratic_steps(lambda ps: optim.RAdam(ps, lr=0.1), 1)
    np.testing.assert_allclose(got[0], P0 - 0.1 * G0, rtol=1e-14)  # rho_1 = 1: p - lr * m_hat


def test_adadelta_first_step_by_hand():
    got, _, _ = quadratic_steps(lambda ps: optim.Adadelta(ps), 1)
    delta = np.sqrt(1e-6) / np.sqrt(0.1 * G0**2 + 1e-6) * G0
    np.testing.assert_allclose(got[0], P0 - delta, rtol=1e-14)


# --- several steps against the references --------------------------------------------------
FORMULA_CASES = [
    ("Adamax", dict(lr=0.1), adamax_reference),
    ("Adamax", dict(lr=0.1, betas=(0.8, 0.9), weight_decay=0.1), adamax_reference),
    ("Adamax", dict(lr=0.1, eps=1e-3, maximize=True), adamax_reference),
    ("NAdam", dict(lr=0.1), nadam_reference),
    ("NAdam", dict(lr=0.1, weight_decay=0.1, momentum_decay=0.05), nadam_reference),
    ("NAdam", dict(lr=0.1, weight_decay=0.1, decoupled_weight_decay=True), nadam_reference),
    ("RAdam", dict(lr=0.1), radam_reference),
    ("RAdam", dict(lr=0.1, betas=(0.8, 0.9), weight_decay=0.1), radam_reference),
    (
        "RAdam",
        dict(lr=0.1, betas=(0.8, 0.9), weight_decay=0.1, decoupled_weight_decay=True),
        radam_reference,
    ),
    ("Adadelta", dict(), adadelta_reference),
    ("Adadelta", dict(lr=0.5, rho=0.5, eps=1e-3, weight_decay=0.1), adadelta_reference),
    ("Adadelta", dict(maximize=True), adadelta_reference),
]


@pytest.mark.parametrize(
    "name, kw, reference", FORMULA_CASES, ids=[f"{n}-{kw}" for n, kw, _ in FORMULA_CASES]
)
def test_matches_formula(name, kw, reference):
    got, _, _ = quadratic_steps(lambda ps: getattr(optim, name)(ps, **kw), 12)
    ref_kw = {
        {"weight_decay": "wd", "decoupled_weight_decay": "decoupled"}.get(k, k): v
        for k, v in kw.items()
    }
    for step, (a, b) in enumerate(zip(got, reference(12, **ref_kw))):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15, err_msg=f"step {step}")


def test_radam_turns_on_the_rectified_step():
    """With beta2 = 0.9, rho_t passes 5 at step 6, so 7 steps take both branches of the rule."""
    b2, rho_inf = 0.9, 2 / 0.1 - 1
    rho = [rho_inf - 2 * t * b2**t / (1 - b2**t) for t in range(1, 8)]
    assert max(rho[:5]) <= 5 < rho[5]
    got, _, _ = quadratic_steps(lambda ps: optim.RAdam(ps, lr=0.1, betas=(0.9, 0.9)), 7)
    plain = radam_reference(7, lr=0.1, betas=(0.9, 0.9))
    np.testing.assert_allclose(got, plain, rtol=1e-12)


# --- options, state and errors --------------------------------------------------------------
NAMES = ["Adamax", "NAdam", "RAdam", "Adadelta"]
STATE_KEYS = {
    "Adamax": ["step", "exp_avg", "exp_inf"],
    "NAdam": ["step", "mu_product", "exp_avg", "exp_avg_sq"],
    "RAdam": ["step", "exp_avg", "exp_avg_sq"],
    "Adadelta": ["step", "square_avg", "acc_delta"],
}
DEFAULTS = {
    "Adamax": dict(lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, maximize=False),
    "NAdam": dict(
        lr=2e-3,
        betas=(0.9, 0.999),
        eps=1e-8,
        weight_decay=0,
        momentum_decay=4e-3,
        decoupled_weight_decay=False,
        maximize=False,
    ),
    "RAdam": dict(
        lr=1e-3,
        betas=(0.9, 0.999),
        eps=1e-8,
        weight_decay=0,
        maximize=False,
        decoupled_weight_decay=False,
    ),
    "Adadelta": dict(lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, maximize=False),
}


@pytest.mark.parametrize("name", NAMES)
def test_defaults_and_state(name):
    _, opt, p = quadratic_steps(lambda ps: getattr(optim, name)(ps), 3)
    group = opt.param_groups[0]
    switches = dict(foreach=None, capturable=False, differentiable=False)  # PyTorch's too
    assert {k: v for k, v in group.items() if k != "params"} == DEFAULTS[name] | switches
    state = opt.state[p]
    assert list(state) == STATE_KEYS[name]
    assert state["step"].item() == 3.0 and state["step"].dtype is mg.float32
    assert all(state[k].dtype is mg.float64 for k in STATE_KEYS[name][1:] if k != "mu_product")


def test_nadam_mu_product_is_the_float32_product_of_the_schedule():
    _, opt, p = quadratic_steps(lambda ps: optim.NAdam(ps), 3)
    want = np.float32(1.0)
    for t in range(1, 4):
        want = np.float32(want * np.float32(0.9 * (1 - 0.5 * 0.96 ** (t * 4e-3))))
    mu_product = opt.state[p]["mu_product"]
    assert mu_product.dtype is mg.float32 and mu_product.item() == float(want)


P = [nn.Parameter(mg.ones(2))]
BAD_HYPERPARAMETERS = [
    (lambda: optim.Adamax(P, lr=-1.0), "Invalid learning rate: -1.0"),
    (lambda: optim.Adamax(P, eps=-1.0), "Invalid epsilon value: -1.0"),
    (lambda: optim.Adamax(P, betas=(1.0, 0.999)), "Invalid beta parameter at index 0: 1.0"),
    (lambda: optim.Adamax(P, betas=(0.9, -0.1)), "Invalid beta parameter at index 1: -0.1"),
    (lambda: optim.Adamax(P, weight_decay=-0.5), "Invalid weight_decay value: -0.5"),
    (lambda: optim.NAdam(P, lr=-1.0), "Invalid learning rate: -1.0"),
    (lambda: optim.NAdam(P, eps=-1e-3), "Invalid epsilon value: -0.001"),
    (lambda: optim.NAdam(P, betas=(0.9, 1.0)), "Invalid beta parameter at index 1: 1.0"),
    (lambda: optim.NAdam(P, weight_decay=-1), "Invalid weight_decay value: -1"),
    (lambda: optim.NAdam(P, momentum_decay=-0.1), "Invalid momentum_decay value: -0.1"),
    (lambda: optim.RAdam(P, lr=float("nan")), "Invalid learning rate: nan"),
    (lambda: optim.RAdam(P, eps=-1.0), "Invalid epsilon value: -1.0"),
    (lambda: optim.RAdam(P, betas=(-0.5, 0.999)), "Invalid beta parameter at index 0: -0.5"),
    (lambda: optim.RAdam(P, weight_decay=-0.5), "Invalid weight_decay value: -0.5"),
    (lambda: optim.Adadelta(P, lr=-1.0), "Invalid learning rate: -1.0"),
    (lambda: optim.Adadelta(P, rho=1.5), "Invalid rho value: 1.5"),
    (lambda: optim.Adadelta(P, rho=-0.1), "Invalid rho value: -0.1"),
    (lambda: optim.Adadelta(P, eps=-1.0), "Invalid epsilon value: -1.0"),
    (lambda: optim.Adadelta(P, weight_decay=-0.5), "Invalid weight_decay value: -0.5"),
]


@pytest.mark.parametrize("make, message", BAD_HYPERPARAMETERS)
def test_invalid_hyperparameters(make, message):
    with pytest.raises(ValueError, match="^" + message + "$"):
        make()


def test_adadelta_accepts_rho_at_both_ends():
    for rho in (0.0, 1.0):
        assert optim.Adadelta(P, rho=rho).param_groups[0]["rho"] == rho


@pytest.mark.parametrize("name", NAMES)
def test_parameter_without_grad_is_skipped(name):
    used, unused = nn.Parameter(mg.ones(2)), nn.Parameter(mg.ones(2))
    opt = getattr(optim, name)([used, unused], lr=0.1)
    (used * used).sum().backward()
    opt.step()
    assert unused.grad is None and unused not in opt.state
    np.testing.assert_array_equal(unused.detach().numpy(), [1.0, 1.0])
    assert (used.detach().numpy() < 1.0).all() and opt.state[used]["step"].item() == 1.0


def _mlp(seed=5):
    _ = mg.manual_seed(seed)
    return nn.Sequential(
        nn.Linear(3, 6, dtype=mg.float64), nn.Tanh(), nn.Linear(6, 3, dtype=mg.float64)
    )


def _train(model, opt, steps):
    rng = np.random.default_rng(3)
    x, y = mg.tensor(rng.standard_normal((16, 3))), mg.tensor(rng.integers(0, 3, 16))
    for _ in range(steps):
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()


@pytest.mark.parametrize("name", NAMES)
def test_state_dict_round_trip(name):
    """Stop after 3 steps, load the state into a fresh optimizer over a copy of the model:
    3 more steps give exactly what 6 uninterrupted steps give."""
    kw = dict(lr=0.05, weight_decay=0.01)
    a = _mlp()
    opt_a = getattr(optim, name)(
        [{"params": a[0].parameters()}, {"params": a[2].parameters(), "lr": 0.02}], **kw
    )
    _train(a, opt_a, 3)
    b = _mlp(seed=9)
    b.load_state_dict(a.state_dict())
    opt_b = getattr(optim, name)([{"params": b[0].parameters()}, {"params": b[2].parameters()}])
    saved = opt_a.state_dict()
    opt_b.load_state_dict(saved)
    assert opt_b.param_groups[1]["lr"] == 0.02 and opt_b.param_groups[0]["weight_decay"] == 0.01
    assert sorted(saved["state"]) == [0, 1, 2, 3]
    assert list(saved["state"][0]) == STATE_KEYS[name]
    _train(a, opt_a, 3)
    _train(b, opt_b, 3)
    # NB: loading casts every state tensor but ``step`` to its parameter's dtype, as PyTorch
    # does, so NAdam's float32 mu_product continues in float64 after a load (in PyTorch too):
    # the two runs then agree to float32 rounding of that product, not bit for bit.
    rtol = 1e-8 if name == "NAdam" else 0
    for pa, pb in zip(a.parameters(), b.parameters()):
        np.testing.assert_allclose(pa.detach().numpy(), pb.detach().numpy(), rtol=rtol, atol=0)
        for key in STATE_KEYS[name]:
            sa, sb = opt_a.state[pa][key], opt_b.state[pb][key]
            assert sa is not sb  # loading copies the tensors in
            tol = 1e-6 if key == "mu_product" else rtol  # float32 rounding of the product
            np.testing.assert_allclose(sa.numpy(), sb.numpy(), rtol=tol, atol=0, err_msg=key)
    if name == "NAdam":
        assert opt_b.state[pb]["mu_product"].dtype is mg.float64
        assert opt_b.state[pb]["step"].dtype is mg.float32


@pytest.mark.parametrize("name", NAMES)
def test_training_lowers_the_loss(name):
    model = _mlp()
    rng = np.random.default_rng(3)
    x, y = mg.tensor(rng.standard_normal((16, 3))), mg.tensor(rng.integers(0, 3, 16))
    before = nn.functional.cross_entropy(model(x), y).item()
    _train(model, getattr(optim, name)(model.parameters(), lr=0.05), 20)
    assert nn.functional.cross_entropy(model(x), y).item() < before


@pytest.mark.parametrize("name", NAMES)
def test_float32_parameters_stay_float32(name):
    p = nn.Parameter(mg.ones(3))
    opt = getattr(optim, name)([p], weight_decay=0.1)
    for _ in range(2):
        opt.zero_grad()
        (p * p).sum().backward()
        opt.step()
    assert p.dtype is mg.float32
    assert all(t.dtype is mg.float32 for t in opt.state[p].values())


@pytest.mark.parametrize("name", NAMES)
def test_sparse_gradients_are_refused(name):
    emb = nn.Embedding(4, 2, sparse=True)
    emb(mg.tensor([1])).sum().backward()
    opt = getattr(optim, name)(emb.parameters())
    with pytest.raises(RuntimeError, match=f"^{name} does not support sparse gradients"):
        opt.step()


SWITCHES = {
    "Adamax": dict(foreach=True, capturable=False, differentiable=False),
    "NAdam": dict(foreach=False, capturable=False, differentiable=False),
    "RAdam": dict(foreach=None, capturable=False, differentiable=False),
    "Adadelta": dict(foreach=True, capturable=False, differentiable=False),
}


@pytest.mark.parametrize("name", NAMES)
def test_implementation_switches_are_accepted_and_change_nothing(name):
    a, b = _mlp(), _mlp()
    _train(a, getattr(optim, name)(a.parameters()), steps=3)
    _train(b, getattr(optim, name)(b.parameters(), **SWITCHES[name]), steps=3)
    for pa, pb in zip(a.parameters(), b.parameters()):
        np.testing.assert_array_equal(pa.detach().numpy(), pb.detach().numpy())
    with pytest.raises(RuntimeError, match=rf"{name}\(differentiable=True\) is not supported"):
        getattr(optim, name)(a.parameters(), differentiable=True)


def test_exported_from_optim():
    for name in NAMES:
        assert name in optim.__all__ and issubclass(getattr(optim, name), optim.Optimizer)
