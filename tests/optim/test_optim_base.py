"""Optimizer base: param groups, zero_grad, state, state_dict, the sparse-gradient hook."""

import copy

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn, optim


def model():
    mg.manual_seed(0)
    return nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))


def backward(m, seed=1):
    mg.manual_seed(seed)
    x, y = mg.randn(6, 3), mg.randint(0, 2, (6,))
    nn.functional.cross_entropy(m(x), y).backward()


def test_single_group_gets_defaults():
    m = model()
    opt = optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
    (group,) = opt.param_groups
    assert len(group["params"]) == 4
    assert all(a is b for a, b in zip(group["params"], m.parameters()))
    assert (group["lr"], group["momentum"], group["nesterov"]) == (0.1, 0.9, False)
    assert opt.defaults["lr"] == 0.1 and len(opt.state) == 0


def test_per_group_options_and_add_param_group():
    m = model()
    opt = optim.SGD(
        [{"params": m[0].parameters()}, {"params": m[2].parameters(), "lr": 0.01}], lr=0.1
    )
    assert [g["lr"] for g in opt.param_groups] == [0.1, 0.01]
    extra = nn.Parameter(mg.ones(2))
    opt.add_param_group({"params": extra, "momentum": 0.5})
    assert opt.param_groups[2]["params"][0] is extra and opt.param_groups[2]["momentum"] == 0.5
    w2 = m[2].weight.detach().numpy().copy()
    backward(m)
    g2 = m[2].weight.grad.numpy().copy()
    opt.step()
    np.testing.assert_allclose(m[2].weight.detach().numpy(), w2 - 0.01 * g2, rtol=1e-6)


def test_named_parameters_give_param_names():
    m = model()
    opt = optim.Adam(m.named_parameters())
    assert opt.param_groups[0]["param_names"] == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert opt.state_dict()["param_groups"][0]["param_names"][0] == "0.weight"


def test_group_errors():
    m = model()
    opt = optim.SGD(m[0].parameters(), lr=0.1)
    with pytest.raises(ValueError, match="some parameters appear in more than one parameter group"):
        opt.add_param_group({"params": [m[0].weight]})
    with pytest.raises(TypeError, match="param_group must be a dict, but got list"):
        opt.add_param_group([m[2].weight])
    with pytest.raises(TypeError, match="ordered collections"):
        opt.add_param_group({"params": {m[2].weight}})
    with pytest.warns(UserWarning, match="duplicate parameters"):
        optim.SGD([m[2].bias, m[2].bias], lr=0.1)


def test_parameters_without_grad_are_accepted_and_skipped():
    frozen = nn.Parameter(mg.ones(2), requires_grad=False)
    unused = nn.Parameter(mg.ones(2))
    used = nn.Parameter(mg.ones(2))
    opt = optim.Adam([frozen, unused, used], lr=0.1)
    (used * 3.0).sum().backward()
    opt.step()
    assert frozen.tolist() == [1.0, 1.0] and unused.tolist() == [1.0, 1.0]
    assert used.detach().numpy()[0] < 1.0
    assert list(opt.state) == [used]


def test_zero_grad_set_to_none_and_in_place():
    m = model()
    opt = optim.SGD(m.parameters(), lr=0.1)
    backward(m)
    grad = m[0].weight.grad
    opt.zero_grad(set_to_none=False)
    assert m[0].weight.grad is grad and not grad.detach().numpy().any()
    opt.zero_grad()
    assert all(p.grad is None for p in m.parameters())


def test_step_updates_in_place_without_recording():
    m = model()
    opt = optim.Adam(m.parameters(), lr=0.1)
    w = m[0].weight
    version = w._version
    backward(m)
    assert opt.step() is None
    assert m[0].weight is w and w.is_leaf and w.grad_fn is None and w.requires_grad
    assert w._version > version
    assert all(not s["exp_avg"].requires_grad for s in opt.state.values())


def test_closure_is_evaluated_with_grad_enabled():
    m = model()
    opt = optim.SGD(m.parameters(), lr=0.1)

    def closure():
        opt.zero_grad()
        mg.manual_seed(1)
        loss = nn.functional.cross_entropy(m(mg.randn(6, 3)), mg.randint(0, 2, (6,)))
        loss.backward()
        return loss

    with mg.no_grad():
        loss = opt.step(closure)
    assert loss.grad_fn is not None and m[0].weight.grad is not None


def test_state_dict_structure():
    m = model()
    opt = optim.Adam([{"params": m[0].parameters()}, {"params": m[2].parameters(), "lr": 0.5}])
    backward(m)
    opt.step()
    sd = opt.state_dict()
    assert [g["params"] for g in sd["param_groups"]] == [[0, 1], [2, 3]]
    assert sd["param_groups"][1]["lr"] == 0.5
    assert sorted(sd["state"]) == [0, 1, 2, 3]
    assert list(sd["state"][0]) == ["step", "exp_avg", "exp_avg_sq"]
    assert sd["state"][0]["step"].item() == 1.0
    assert sd["state"][0]["exp_avg"] is opt.state[m[0].weight]["exp_avg"]  # shared, as PyTorch


def test_load_state_dict_resumes_the_same_trajectory():
    ref, resumed = model(), model()
    opt_ref = optim.Adam(ref.parameters(), lr=0.05, amsgrad=True)
    opt_a = optim.Adam(resumed.parameters(), lr=0.05, amsgrad=True)
    for seed in range(3):
        for m, o in ((ref, opt_ref), (resumed, opt_a)):
            o.zero_grad()
            backward(m, seed)
            o.step()
    saved_model = copy.deepcopy(resumed.state_dict())
    saved_opt = copy.deepcopy(opt_a.state_dict())
    fresh = model()
    fresh.load_state_dict(saved_model)
    opt_b = optim.Adam(fresh.parameters(), lr=123.0)
    opt_b.load_state_dict(saved_opt)
    assert (
        opt_b.param_groups[0]["lr"] == 0.05
        and opt_b.param_groups[0]["params"][0] is fresh[0].weight
    )
    for seed in range(3, 6):
        for m, o in ((ref, opt_ref), (fresh, opt_b)):
            o.zero_grad()
            backward(m, seed)
            o.step()
    for p, q in zip(ref.parameters(), fresh.parameters()):
        np.testing.assert_array_equal(p.detach().numpy(), q.detach().numpy())


def test_load_state_dict_copies_and_casts():
    p = nn.Parameter(mg.ones(2, dtype=mg.float64))
    opt = optim.SGD([p], lr=0.1, momentum=0.9)
    buf = mg.tensor([1.0, 2.0])
    opt.load_state_dict(
        {"state": {0: {"momentum_buffer": buf}}, "param_groups": [{"lr": 0.2, "params": [0]}]}
    )
    loaded = opt.state[p]["momentum_buffer"]
    assert loaded is not buf and loaded.dtype is mg.float64 and loaded.tolist() == [1.0, 2.0]
    assert opt.param_groups[0]["lr"] == 0.2


def test_load_state_dict_shape_errors():
    m = model()
    opt = optim.SGD(m.parameters(), lr=0.1)
    sd = opt.state_dict()
    two = optim.SGD([{"params": m[0].parameters()}, {"params": m[2].parameters()}], lr=0.1)
    with pytest.raises(ValueError, match="different number of parameter groups"):
        two.load_state_dict(sd)
    sd["param_groups"][0]["params"] = [0, 1]
    with pytest.raises(ValueError, match="doesn't match the size of optimizer's group"):
        opt.load_state_dict(sd)


def test_repr_lists_groups():
    opt = optim.SGD([nn.Parameter(mg.ones(1))], lr=0.1)
    assert repr(opt) == (
        "SGD (\nParameter Group 0\n    dampening: 0\n    differentiable: False\n"
        "    foreach: None\n    fused: None\n    lr: 0.1\n    maximize: False\n"
        "    momentum: 0\n    nesterov: False\n    weight_decay: 0\n)"
    )


class FakeSparse(mg.Tensor):
    """Stands in for a sparse gradient until minigrad.sparse exists."""

    @property
    def is_sparse(self):
        return True


@pytest.mark.parametrize(
    "make, message",
    [
        (
            lambda ps: optim.Adam(ps),
            "^Adam does not support sparse gradients, please consider SparseAdam instead$",
        ),
        (
            lambda ps: optim.AdamW(ps),
            "^Adam does not support sparse gradients, please consider SparseAdam instead$",
        ),
    ],
)
def test_sparse_gradients_are_refused_through_the_hook(make, message):
    p = nn.Parameter(mg.ones(3))
    p.grad = FakeSparse._make(np.ones(3, np.float32), False, None)
    opt = make([p])
    with pytest.raises(RuntimeError, match=message):
        opt.step()
    assert p.tolist() == [1.0, 1.0, 1.0]


def test_sparse_hook_can_be_overridden():
    class AcceptsSparse(optim.SGD):
        def _on_sparse_grad(self, p):
            pass

    p = nn.Parameter(mg.ones(2))
    p.grad = FakeSparse._make(np.ones(2, np.float32), False, None)
    AcceptsSparse([p], lr=0.5).step()
    assert p.tolist() == [0.5, 0.5]
