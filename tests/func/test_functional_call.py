"""``mg.func.functional_call`` and the transforms over dicts of parameters (per-sample
gradients, as PyTorch's "Per-sample gradients" tutorial computes them)."""

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn
from minigrad.func import functional_call, grad, jacrev, vjp, vmap

F = nn.functional


@pytest.fixture
def torch():
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    return torch


class Affine(nn.Module):
    """y = (x @ W^T + b + buf) * scale, with ``tied`` a second name for ``lin.weight``."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(1, 1, dtype=mg.float64)
        self.register_buffer("buf", mg.ones(1, dtype=mg.float64))
        self.tied = self.lin.weight

    def forward(self, x, scale=1.0):
        return (self.lin(x) + self.buf) * scale


def _affine():
    m = Affine()
    with mg.no_grad():
        m.lin.weight.fill_(2.0)
        m.lin.bias.fill_(0.0)
    return m


def _t(*values):
    """A float64 tensor: ``_t(1.0)`` is 0-d, ``_t(1.0, 2.0)`` and ``_t([1.0, 2.0])`` are 1-d."""
    return mg.tensor(np.array(values[0] if len(values) == 1 else values, dtype=np.float64))


X = mg.ones(1, 1, dtype=mg.float64)


def test_replaces_then_restores():
    m = _affine()
    w, b = m.lin.weight, m.lin.bias
    out = functional_call(m, {"lin.weight": _t([[3.0]])}, (X,))
    assert out.tolist() == [[4.0]]
    assert m.lin.weight is w and m.lin.bias is b and m.tied is w and w.tolist() == [[2.0]]
    assert isinstance(m.lin.weight, nn.Parameter) and m(X).tolist() == [[3.0]]


def test_argument_forms():
    m = _affine()
    w3 = {"lin.weight": _t([[3.0]])}
    assert functional_call(m, w3, X).tolist() == [[4.0]]  # one argument, not a tuple
    assert functional_call(m, {}, (X,), {"scale": 10.0}).tolist() == [[30.0]]
    both = functional_call(m, (w3, {"buf": _t([0.0])}), (X,))  # (params, buffers)
    assert both.tolist() == [[3.0]]
    assert functional_call(m, [w3, {}], (X,)).tolist() == [[4.0]]  # a list of dicts
    with pytest.raises(
        TypeError, match=r"linear\(\): argument 'input' \(position 1\) must be Tensor, not list"
    ):
        functional_call(m, w3, [X])  # as in PyTorch, a list of args is one argument
    with pytest.raises(TypeError, match="missing 1 required positional argument"):
        functional_call(m, {}, None)


def test_the_module_is_restored_when_the_call_raises():
    m = _affine()
    w = m.lin.weight
    with pytest.raises(RuntimeError, match="cannot be multiplied"):
        functional_call(m, {"lin.weight": mg.zeros(5, 5, dtype=mg.float64)}, (X,))
    assert m.lin.weight is w and m.lin._parameters["weight"] is w


def test_inside_the_call_the_module_sees_the_given_tensors():
    seen = {}

    class Probe(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(mg.ones(1))

        def forward(self, x):
            seen["w"] = self.w
            seen["names"] = [n for n, _ in self.named_parameters()]
            return x * self.w

    given = mg.zeros(1)
    functional_call(Probe(), {"w": given}, (mg.ones(1),))
    assert seen["w"] is given and seen["names"] == ["w"]


def test_tied_weights():
    class Tied(nn.Module):
        def __init__(self):
            super().__init__()
            self.foo = nn.Parameter(mg.ones(()))
            self.foo_tied = self.foo

        def forward(self, x):
            return x + self.foo + self.foo_tied

    m, zero = Tied(), mg.zeros(())
    assert functional_call(m, {"foo": zero}, zero).item() == 0.0  # both names replaced
    assert functional_call(m, {"foo_tied": zero}, zero).item() == 0.0
    assert functional_call(m, {"foo": zero}, zero, tie_weights=False).item() == 1.0
    assert functional_call(m, {"foo": zero, "foo_tied": zero}, zero).item() == 0.0
    with pytest.raises(ValueError, match=r"multiple values for keys \['foo', 'foo_tied'\]"):
        functional_call(m, {"foo": zero, "foo_tied": mg.ones(())}, zero)
    assert functional_call(m, {"foo": zero, "foo_tied": mg.ones(())}, zero, tie_weights=False)


def test_strict():
    m = _affine()
    full = {"lin.weight": _t([[0.0]]), "lin.bias": _t([0.0]), "buf": _t([0.0])}
    assert functional_call(m, full, (X,), strict=True).tolist() == [[0.0]]
    with pytest.raises(RuntimeError) as info:
        functional_call(m, {"lin.weight": _t([[0.0]])}, (X,), strict=True)
    assert str(info.value) == (
        "Error(s) in reparametrizing for Affine:\n\tMissing key(s): 'buf', 'lin.bias'."
    )
    with pytest.raises(RuntimeError, match=r"Unexpected key\(s\): 'zz'\."):
        functional_call(m, {**full, "zz": _t(0.0)}, (X,), strict=True)


def test_names_the_module_lacks_are_attributes_for_the_call():
    m = _affine()
    assert functional_call(m, {"extra": _t(1.0)}, (X,)).tolist() == [[3.0]]
    assert not hasattr(m, "extra")
    with pytest.raises(AttributeError, match="Affine has no attribute `nope`"):
        functional_call(m, {"nope.weight": _t(1.0)}, (X,))


def test_bad_arguments():
    m = _affine()
    with pytest.raises(TypeError, match="module must be a minigrad.nn.Module, got function"):
        functional_call(lambda x: x, {}, (X,))
    with pytest.raises(ValueError, match="to be dictionaries"):
        functional_call(m, [("lin.weight", _t([[0.0]]))], (X,))
    with pytest.raises(ValueError, match=r"\['buf'\] appeared in multiple dictionaries"):
        functional_call(m, ({"buf": _t(1.0)}, {"buf": _t(2.0)}), (X,))
    with pytest.raises(TypeError, match="the value for 'lin.weight' must be a Tensor, got float"):
        functional_call(m, {"lin.weight": 3.0}, (X,))


@pytest.mark.oracle
def test_messages_and_error_types_match_torch(torch):
    tnn = torch.nn

    class TAffine(tnn.Module):
        def __init__(self):
            super().__init__()
            self.lin = tnn.Linear(1, 1)
            self.register_buffer("buf", torch.ones(1))
            self.tied = self.lin.weight

        def forward(self, x):
            return self.lin(x) + self.buf

    cases = {
        "missing": lambda fc, t, m: fc(m, {"lin.weight": t([[0.0]])}, (t([[1.0]]),), strict=True),
        "tied": lambda fc, t, m: fc(m, {"lin.weight": t([[0.0]]), "tied": t([[1.0]])}, t([[1.0]])),
        "repeated": lambda fc, t, m: fc(m, ({"buf": t([1.0])}, {"buf": t([1.0])}), t([[1.0]])),
        "not dicts": lambda fc, t, m: fc(m, [("buf", t([1.0]))], t([[1.0]])),
        "no submodule": lambda fc, t, m: fc(m, {"nope.w": t([1.0])}, t([[1.0]])),
    }
    for name, case in cases.items():
        with pytest.raises(Exception) as theirs:
            case(torch.func.functional_call, torch.tensor, TAffine())
        with pytest.raises(theirs.type) as ours:
            case(functional_call, lambda v: mg.tensor(v, dtype=mg.float64), Affine())
        assert str(ours.value).replace("Affine", "TAffine") == str(theirs.value), name


def test_gradient_of_a_dict_of_parameters_is_the_backward_gradient():
    _ = mg.manual_seed(0)
    model = nn.Sequential(
        nn.Linear(3, 4, dtype=mg.float64), nn.Tanh(), nn.Linear(4, 2, dtype=mg.float64)
    )
    x, y = mg.randn(5, 3, dtype=mg.float64), mg.randn(5, 2, dtype=mg.float64)
    params = {k: v.detach() for k, v in model.named_parameters()}

    def loss(p):
        return F.mse_loss(functional_call(model, p, (x,)), y)

    g = grad(loss)(params)
    F.mse_loss(model(x), y).backward()
    assert list(g) == [k for k, _ in model.named_parameters()]
    for name, p in model.named_parameters():
        np.testing.assert_allclose(g[name].numpy(), p.grad.numpy(), rtol=1e-12, atol=1e-14)
    assert all(v.grad is None for v in params.values())


def test_gradcheck_through_functional_call():
    _ = mg.manual_seed(1)
    layer = nn.Linear(3, 2, dtype=mg.float64)
    x = mg.randn(4, 3, dtype=mg.float64)
    w = mg.randn(2, 3, dtype=mg.float64, requires_grad=True)
    b = mg.randn(2, dtype=mg.float64, requires_grad=True)

    def f(w, b):
        return functional_call(layer, {"weight": w, "bias": b}, (x,)).tanh()

    assert mg.autograd.gradcheck(f, (w, b), eps=1e-6, atol=1e-5, rtol=1e-3)


def _mlp_and_data():
    _ = mg.manual_seed(0)
    model = nn.Sequential(
        nn.Linear(4, 8, dtype=mg.float64), nn.ReLU(), nn.Linear(8, 3, dtype=mg.float64)
    )
    data = mg.randn(6, 4, dtype=mg.float64)
    targets = mg.randint(3, (6,))
    return model, data, targets


def _per_sample_grads(lib, model, data, targets):
    """The tutorial's code: vmap(grad(loss)) over (sample, target), params and buffers whole."""
    tf, f = lib.func, lib.nn.functional
    params = {k: v.detach() for k, v in model.named_parameters()}
    buffers = {k: v.detach() for k, v in model.named_buffers()}

    def compute_loss(params, buffers, sample, target):
        batch, targets = sample.unsqueeze(0), target.unsqueeze(0)
        predictions = tf.functional_call(model, (params, buffers), (batch,))
        return f.nll_loss(f.log_softmax(predictions, dim=1), targets)

    return tf.vmap(tf.grad(compute_loss), in_dims=(None, None, 0, 0))(
        params, buffers, data, targets
    )


def test_per_sample_gradients_equal_one_backward_per_sample():
    model, data, targets = _mlp_and_data()
    ft = _per_sample_grads(mg, model, data, targets)
    for i in range(data.shape[0]):
        model.zero_grad()
        out = F.log_softmax(model(data[i].unsqueeze(0)), dim=1)
        F.nll_loss(out, targets[i].unsqueeze(0)).backward()
        for name, p in model.named_parameters():
            np.testing.assert_allclose(ft[name][i].numpy(), p.grad.numpy(), rtol=1e-12, atol=1e-14)
    assert {k: v.shape for k, v in ft.items()} == {
        "0.weight": (6, 8, 4),
        "0.bias": (6, 8),
        "2.weight": (6, 3, 8),
        "2.bias": (6, 3),
    }


@pytest.mark.oracle
def test_per_sample_gradients_match_torch(torch):
    model, data, targets = _mlp_and_data()
    tmodel = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 3))
    tmodel = tmodel.double()
    with torch.no_grad():
        for (_, tp), (_, p) in zip(tmodel.named_parameters(), model.named_parameters()):
            tp.copy_(torch.from_numpy(p.detach().numpy()))
    ours = _per_sample_grads(mg, model, data, targets)
    theirs = _per_sample_grads(
        torch, tmodel, torch.from_numpy(data.numpy()), torch.from_numpy(targets.numpy())
    )
    assert list(ours) == list(theirs)
    for k in ours:
        np.testing.assert_allclose(ours[k].numpy(), theirs[k].numpy(), rtol=1e-12, atol=1e-14)


def test_transforms_over_containers_of_tensors():
    p = {"w": _t(1.0, 2.0), "pair": (_t(3.0), [_t(4.0)])}

    def f(p):
        return (p["w"] ** 2).sum() * p["pair"][0] + p["pair"][1][0] ** 3

    g = grad(f)(p)
    assert (
        set(g) == {"w", "pair"} and isinstance(g["pair"], tuple) and isinstance(g["pair"][1], list)
    )
    assert g["w"].tolist() == [6.0, 12.0] and g["pair"][0].item() == 5.0
    assert g["pair"][1][0].item() == 48.0
    out, vjp_fn = vjp(lambda d: d["a"] * d["b"], {"a": _t(2.0, 3.0), "b": _t(5.0, 7.0)})
    (grads,) = vjp_fn(_t(1.0, 1.0))
    assert grads["a"].tolist() == [5.0, 7.0] and grads["b"].tolist() == [2.0, 3.0]
    jac = jacrev(lambda d: d["a"] * 2)({"a": _t(1.0, 1.0)})
    assert jac["a"].tolist() == [[2.0, 0.0], [0.0, 2.0]]
    with pytest.raises(ValueError, match="must be a Tensor, got float"):
        grad(f)({"w": 1.0, "pair": (_t(3.0), [_t(4.0)])})


def test_vmap_over_containers():
    x = _t(1.0, 2.0, 3.0)
    out = vmap(lambda d, c: {"s": d["a"] * c, "t": (d["a"], d["b"].sum())}, in_dims=(0, None))(
        {"a": x, "b": mg.ones(3, 2)}, 10.0
    )
    assert out["s"].tolist() == [10.0, 20.0, 30.0] and out["t"][1].tolist() == [2.0, 2.0, 2.0]
    assert vmap(lambda a, *, k: a * k)(x, k=2.0).tolist() == [2.0, 4.0, 6.0]  # kwargs whole
    with pytest.raises(ValueError, match="same structure"):
        vmap(lambda a: {"a": a} if a.item() < 2 else {"b": a})(x)
    with pytest.raises(ValueError, match=r"in_dims\[0\]=0 is not valid for argument 0 \(float\)"):
        vmap(lambda d: d["a"])({"a": 1.0})


# --- stack_module_state --------------------------------------------------------------------
def test_stack_module_state_stacks_parameters_as_new_leaves_and_buffers_without_grad():
    models = [mg.nn.BatchNorm1d(3) for _ in range(2)]
    models[1].weight.data.fill_(2.0)
    params, buffers = mg.func.stack_module_state(models)
    assert list(params) == ["weight", "bias"]
    assert params["weight"].tolist() == [[1.0] * 3, [2.0] * 3]
    assert all(p.is_leaf and p.requires_grad for p in params.values())
    assert list(buffers) == ["running_mean", "running_var", "num_batches_tracked"]
    assert buffers["num_batches_tracked"].shape == (2,) and not buffers["running_var"].requires_grad
    params["weight"].sum().backward()  # the models' own parameters get nothing
    assert models[0].weight.grad is None and params["weight"].grad.shape == (2, 3)


def test_stack_module_state_keeps_requires_grad_false_when_every_model_does():
    models = [mg.nn.Linear(2, 1) for _ in range(3)]
    for m in models:
        m.bias.requires_grad_(False)
    params, _ = mg.func.stack_module_state(models)
    assert params["weight"].requires_grad and not params["bias"].requires_grad


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda: [], "at least one model"),
        (lambda: [mg.nn.Linear(2, 2), mg.nn.ReLU()], "same class"),
        (lambda: [mg.nn.Linear(2, 2), mg.nn.Linear(2, 2).eval()], "training/eval mode"),
        (lambda: [mg.nn.Linear(2, 2), mg.nn.Linear(2, 2).requires_grad_(False)], "weight"),
    ],
)
def test_stack_module_state_refuses_what_pytorch_refuses(make, match):
    with pytest.raises(RuntimeError, match=match):
        mg.func.stack_module_state(make())


def test_stack_module_state_matches_torch():
    torch = pytest.importorskip("torch")
    from torch.func import stack_module_state

    mg.manual_seed(3)
    torch.manual_seed(3)
    ours, _ = mg.func.stack_module_state([mg.nn.Linear(4, 2) for _ in range(3)])
    theirs, _ = stack_module_state([torch.nn.Linear(4, 2) for _ in range(3)])
    for name in theirs:
        np.testing.assert_array_equal(ours[name].detach().numpy(), theirs[name].detach().numpy())
    for make in ([], [torch.nn.Linear(2, 2), torch.nn.ReLU()]):
        with pytest.raises(RuntimeError):
            stack_module_state(make)
