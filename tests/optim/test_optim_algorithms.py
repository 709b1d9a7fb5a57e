"""SGD, Adam and AdamW against their update formulas, written out in numpy."""

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn, optim

P0 = np.array([1.0, -2.0, 0.5])


def quadratic_steps(opt_factory, steps):
    """Minimise sum(c * p**2) from P0; return the parameter after each step."""
    p = nn.Parameter(mg.tensor(P0, dtype=mg.float64))
    c = mg.tensor([1.0, 0.5, 3.0], dtype=mg.float64)
    opt = opt_factory([p])
    out = []
    for _ in range(steps):
        opt.zero_grad()
        (c * p * p).sum().backward()
        opt.step()
        out.append(p.detach().numpy().copy())
    return out, opt, p


def grad_of(p):
    return 2 * np.array([1.0, 0.5, 3.0]) * p


def sgd_reference(steps, lr, momentum=0.0, dampening=0.0, wd=0.0, nesterov=False, maximize=False):
    p, buf, out = P0.copy(), None, []
    for _ in range(steps):
        g = grad_of(p) * (-1 if maximize else 1) + wd * p
        if momentum:
            buf = g.copy() if buf is None else momentum * buf + (1 - dampening) * g
            g = g + momentum * buf if nesterov else buf
        p = p - lr * g
        out.append(p)
    return out


def adam_reference(steps, lr, b1, b2, eps, wd=0.0, amsgrad=False, decoupled=False, maximize=False):
    p, m, v, vmax, out = P0.copy(), 0.0, 0.0, 0.0, []
    for t in range(1, steps + 1):
        g = grad_of(p) * (-1 if maximize else 1)
        if decoupled:
            p = p * (1 - lr * wd)
        else:
            g = g + wd * p
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        vmax = np.maximum(vmax, v)
        denom = np.sqrt(vmax if amsgrad else v) / np.sqrt(1 - b2**t) + eps
        p = p - lr / (1 - b1**t) * m / denom
        out.append(p)
    return out


SGD_CASES = [
    dict(lr=0.1),
    dict(lr=0.1, momentum=0.9),
    dict(lr=0.05, momentum=0.9, nesterov=True),
    dict(lr=0.1, momentum=0.5, dampening=0.5, weight_decay=0.1),
    dict(lr=0.1, maximize=True, weight_decay=0.2),
]


@pytest.mark.parametrize("kw", SGD_CASES, ids=str)
def test_sgd_matches_formula(kw):
    got, _, _ = quadratic_steps(lambda ps: optim.SGD(ps, **kw), 5)
    ref_kw = {k.replace("weight_decay", "wd"): v for k, v in kw.items()}
    for a, b in zip(got, sgd_reference(5, **ref_kw)):
        np.testing.assert_allclose(a, b, rtol=1e-12)


ADAM_CASES = [
    dict(),
    dict(amsgrad=True),
    dict(weight_decay=0.1),
    dict(weight_decay=0.1, amsgrad=True, maximize=True),
]


@pytest.mark.parametrize("decoupled", [False, True], ids=["Adam", "AdamW"])
@pytest.mark.parametrize("kw", ADAM_CASES, ids=str)
def test_adam_and_adamw_match_formula(kw, decoupled):
    cls = optim.AdamW if decoupled else optim.Adam
    kw = dict(kw, lr=0.1, betas=(0.8, 0.9), eps=1e-3)
    kw.setdefault("weight_decay", 0.0)
    got, _, _ = quadratic_steps(lambda ps: cls(ps, **kw), 6)
    ref = adam_reference(
        6,
        0.1,
        0.8,
        0.9,
        1e-3,
        kw["weight_decay"],
        kw.get("amsgrad", False),
        decoupled,
        kw.get("maximize", False),
    )
    for a, b in zip(got, ref):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_adam_first_step_moves_each_weight_by_lr():
    got, opt, p = quadratic_steps(lambda ps: optim.Adam(ps, lr=0.01), 1)
    np.testing.assert_allclose(np.abs(got[0] - P0), 0.01, rtol=1e-6)
    state = opt.state[p]
    assert state["step"].item() == 1.0 and state["step"].dtype is mg.float32
    assert set(state) == {"step", "exp_avg", "exp_avg_sq"}


def test_amsgrad_keeps_the_running_maximum():
    _, opt, p = quadratic_steps(
        lambda ps: optim.Adam(ps, lr=0.1, betas=(0.9, 0.5), amsgrad=True), 20
    )
    s = opt.state[p]
    assert (s["max_exp_avg_sq"].detach().numpy() >= s["exp_avg_sq"].detach().numpy()).all()
    assert (s["max_exp_avg_sq"].detach().numpy() > s["exp_avg_sq"].detach().numpy()).any()


def test_adamw_default_weight_decay_and_flag():
    opt = optim.AdamW([nn.Parameter(mg.ones(1))])
    group = opt.param_groups[0]
    assert group["weight_decay"] == 1e-2 and group["decoupled_weight_decay"] is True
    assert optim.Adam([nn.Parameter(mg.ones(1))]).param_groups[0]["decoupled_weight_decay"] is False


def test_sgd_momentum_buffer_state():
    _, opt, p = quadratic_steps(lambda ps: optim.SGD(ps, lr=0.1, momentum=0.9), 2)
    assert list(opt.state[p]) == ["momentum_buffer"]
    _, opt, p = quadratic_steps(lambda ps: optim.SGD(ps, lr=0.1), 2)
    assert len(opt.state) == 0


def test_float32_parameters_stay_float32():
    p = nn.Parameter(mg.ones(3))
    for opt in (
        optim.SGD([p], lr=0.1, momentum=0.9, weight_decay=0.1),
        optim.Adam([p]),
        optim.AdamW([p]),
    ):
        (p * p).sum().backward()
        opt.step()
        opt.zero_grad()
        assert p.dtype is mg.float32 and all(
            t.dtype is mg.float32 for s in opt.state.values() for t in s.values()
        )
