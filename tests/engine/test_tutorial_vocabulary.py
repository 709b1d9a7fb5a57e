"""The names PyTorch's autograd tutorials use that minigrad gained for them: inference_mode,
set_detect_anomaly, in-place math (``sin_``...), square, dot, bmm, and module-level
``norm``/``numel``/``equal``; plus the tutorials' snippets, run under both libraries."""

import math

import numpy as np
import pytest

import minigrad as mg

LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."


@pytest.fixture
def torch():
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    return torch


# --- grad modes ---------------------------------------------------------------------------------
def test_inference_mode_is_no_grad_with_a_flag():
    w = mg.tensor([2.0], requires_grad=True)
    with mg.inference_mode():
        assert not mg.is_grad_enabled() and mg.is_inference_mode_enabled()
        assert not (w * 3).requires_grad
        with mg.enable_grad():  # as in PyTorch: grad mode back on, still inference mode
            assert mg.is_grad_enabled() and mg.is_inference_mode_enabled()
    assert mg.is_grad_enabled() and not mg.is_inference_mode_enabled()
    with mg.inference_mode(False):
        assert mg.is_grad_enabled() and not mg.is_inference_mode_enabled()
        assert (w * 3).requires_grad
    with pytest.raises(ZeroDivisionError), mg.inference_mode():
        raise ZeroDivisionError
    assert mg.is_grad_enabled() and not mg.is_inference_mode_enabled()
    assert mg.autograd.inference_mode is mg.inference_mode


def test_inference_mode_as_a_decorator_with_and_without_parentheses():
    @mg.inference_mode
    def bare(x):
        return (x * 2).requires_grad, mg.is_inference_mode_enabled()

    @mg.inference_mode()
    def called(x):
        return (x * 2).requires_grad, mg.is_inference_mode_enabled()

    x = mg.ones(2, requires_grad=True)
    assert bare(x) == called(x) == (False, True)
    assert not mg.is_inference_mode_enabled()


@pytest.mark.oracle
def test_inference_mode_states_match_torch(torch):
    for lib in (mg, torch):
        states = []
        with lib.inference_mode():
            states.append((lib.is_grad_enabled(), lib.is_inference_mode_enabled()))
            with lib.enable_grad():
                states.append((lib.is_grad_enabled(), lib.is_inference_mode_enabled()))
        with lib.inference_mode(False):
            states.append((lib.is_grad_enabled(), lib.is_inference_mode_enabled()))
        if lib is mg:
            ours = states
    assert ours == states


def test_set_detect_anomaly_as_a_call_and_as_a_context_manager():
    mg.autograd.set_detect_anomaly(True)
    try:
        assert mg.autograd.is_anomaly_enabled()
        x = mg.tensor(-1.0, requires_grad=True)
        with pytest.raises(RuntimeError, match="Function 'SqrtBackward0' returned nan values"):
            x.sqrt().backward()
    finally:
        mg.autograd.set_detect_anomaly(False)
    assert not mg.autograd.is_anomaly_enabled()
    with mg.autograd.set_detect_anomaly(True, check_nan=False):
        assert mg.autograd.is_anomaly_enabled()
        mg.tensor(-1.0, requires_grad=True).sqrt().backward()  # NaN not checked
    assert not mg.autograd.is_anomaly_enabled()


# --- in-place math ------------------------------------------------------------------------------
INPLACE = ("exp_", "log_", "sqrt_", "sin_", "cos_", "tanh_", "sigmoid_", "relu_", "abs_", "neg_")
INPLACE += ("square_",)


@pytest.mark.parametrize("name", INPLACE + ("sign_",))
def test_inplace_math_writes_into_the_tensor(name):
    x = mg.tensor([0.5, 1.5])
    want = getattr(x, name[:-1])()
    version = x._version
    assert getattr(x, name)() is x and x.tolist() == want.tolist() and x._version == version + 1
    if name != "sign_":
        y = mg.tensor([0.5, 1.5])
        assert getattr(mg, name)(y) is y and y.tolist() == want.tolist()


@pytest.mark.parametrize("name", INPLACE)
def test_inplace_math_on_a_leaf_that_requires_grad_is_refused(name):
    leaf = mg.linspace(0.1, 1.0, steps=5, requires_grad=True)  # the tutorial's torch.sin_(a)
    with pytest.raises(RuntimeError, match=LEAF_INPLACE.replace(".", r"\.")):
        getattr(mg, name)(leaf)
    with mg.no_grad():  # allowed where optimizers write
        getattr(leaf, name)()


def test_inplace_math_on_a_computed_tensor_rebases_its_history():
    x = mg.tensor([0.5, 1.5], dtype=mg.float64, requires_grad=True)
    y = x * 2
    y.sin_()
    assert y.grad_fn.name() == "SinBackward0"
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.cos(2 * np.array([0.5, 1.5])))
    with pytest.raises(RuntimeError, match="result type minigrad.float32 can't be cast"):
        mg.tensor([4, 9]).pow_(0.5)  # as in PyTorch: an int tensor cannot hold the root


CHAINS = [
    "y.sin_().tanh_()",  # sin saves its input (a snapshot), tanh its output: fine
    "y.sin_().mul_(2).sigmoid_()",
    "y.square_().relu_()",
    "y.exp_().pow_(2)",  # exp saved its output, which pow_ then overwrites: refused
    "y.tanh_().sin_()",
]


@pytest.mark.oracle
def test_inplace_math_matches_torch(torch):
    for name in INPLACE:
        with pytest.raises(RuntimeError) as theirs:
            getattr(torch, name)(torch.linspace(0.1, 1.0, steps=5, requires_grad=True))
        with pytest.raises(RuntimeError) as ours:
            getattr(mg, name)(mg.linspace(0.1, 1.0, steps=5, requires_grad=True))
        assert str(ours.value).startswith(str(theirs.value))
    for chain in CHAINS:
        outcomes = []
        for lib in (torch, mg):
            x = lib.tensor([0.5, 1.5, 2.0], dtype=lib.float64, requires_grad=True)
            y = x * 1
            try:
                eval(chain)  # noqa: S307  (the chains above, nothing else)
                y.sum().backward()
                outcomes.append(x.grad.numpy())
            except RuntimeError as e:
                assert "modified by an inplace operation" in str(e), chain
                outcomes.append("version error")
        if isinstance(outcomes[0], str):
            assert outcomes[1] == outcomes[0], chain
        else:
            np.testing.assert_allclose(outcomes[1], outcomes[0], rtol=1e-13, err_msg=chain)


# --- square, dot, bmm, module-level names ------------------------------------------------------------
@pytest.mark.oracle
def test_node_names_match_torch(torch):
    def graphs(lib):
        x = lib.ones(3, requires_grad=True)
        b = lib.ones(2, 3, 3, requires_grad=True)
        return [x.square(), lib.square(x), lib.dot(x, x), x.dot(x), lib.bmm(b, b), b.bmm(b)]

    ours = [t.grad_fn.name() for t in graphs(mg)]
    theirs = [t.grad_fn.name() for t in graphs(torch)]
    assert (
        ours
        == theirs
        == ["PowBackward0", "PowBackward0", "DotBackward0", "DotBackward0"] + ["BmmBackward0"] * 2
    )


def test_module_level_names_are_the_methods():
    x = mg.tensor([3.0, 4.0])
    assert mg.norm(x).item() == 5.0 and mg.numel(mg.ones(2, 3)) == 6
    assert mg.equal(x, x.clone()) and not mg.equal(x, x + 1)
    assert mg.square(x).tolist() == [9.0, 16.0] and mg.tensor([2, 3]).square().dtype is mg.int64


# --- the tutorials' snippets, under both libraries ---------------------------------------------------
def _fundamentals(lib):
    """ "The Fundamentals of Autograd": sin over linspace, then the chain of ops."""
    a = lib.linspace(0.0, 2.0 * math.pi, steps=25, requires_grad=True)
    b = lib.sin(a)
    out = (2 * b + 1).sum()
    out.backward()
    return a.grad


def _autogradqs(lib):
    """ "Automatic Differentiation with torch.autograd": eye, pow, t, grad.zero_()."""
    inp = lib.eye(4, 5, requires_grad=True)
    out = (inp + 1).pow(2).t()
    out.backward(lib.ones_like(out), retain_graph=True)
    first = inp.grad.clone()
    out.backward(lib.ones_like(out), retain_graph=True)
    second = inp.grad.clone()
    inp.grad.zero_()
    out.backward(lib.ones_like(out), retain_graph=True)
    return first, second, inp.grad


def _polynomial(lib):
    """ "Learning PyTorch with Examples": a cubic fitted by hand, then by nn + RMSprop."""
    dtype, device = lib.float64, lib.device("cpu")
    x = lib.linspace(-math.pi, math.pi, 200, device=device, dtype=dtype)
    y = lib.sin(x)
    a = lib.full((), 0.1, device=device, dtype=dtype, requires_grad=True)
    b = lib.full((), -0.2, device=device, dtype=dtype, requires_grad=True)
    for _ in range(5):
        loss = (a + b * x + a * x**2 - y).pow(2).sum()
        loss.backward()
        with lib.no_grad():
            a -= 1e-4 * a.grad
            b -= 1e-4 * b.grad
            a.grad = None
            b.grad = None
    xx = x.unsqueeze(-1).pow(lib.tensor([1, 2, 3]))
    model = lib.nn.Sequential(lib.nn.Linear(3, 1), lib.nn.Flatten(0, 1)).to(device, dtype)
    with lib.no_grad():
        model[0].weight.copy_(lib.tensor([[0.1, -0.2, 0.3]], dtype=dtype))
        model[0].bias.fill_(0.05)
    opt = lib.optim.RMSprop(model.parameters(), lr=1e-3)
    loss_fn = lib.nn.MSELoss(reduction="sum")
    for _ in range(5):
        loss = loss_fn(model(xx), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return a.detach(), b.detach(), model[0].weight.detach(), model[0].bias.detach()


def _jacobians(lib):
    """ "Jacobians, Hessians, hvp, vhp, and more": the same Jacobian four ways."""
    from functools import partial  # noqa: PLC0415  (local to this snippet, as in the tutorial)

    f = lib.func
    g = np.random.default_rng(0)
    weight, bias, x = (lib.tensor(g.standard_normal(s)) for s in ((4, 4), (4,), (4,)))

    def predict(weight, bias, x):
        return lib.nn.functional.linear(x, weight, bias).tanh()

    xp = x.clone().requires_grad_()
    rows = [
        lib.autograd.grad(predict(weight, bias, xp), xp, v)[0]
        for v in lib.eye(4, dtype=lib.float64)
    ]
    _, vjp_fn = f.vjp(partial(predict, weight, bias), x)
    (by_vmap,) = f.vmap(vjp_fn)(lib.eye(4, dtype=lib.float64))
    return (
        lib.stack(rows),
        by_vmap,
        f.jacrev(predict, argnums=2)(weight, bias, x),
        f.jacfwd(predict, argnums=2)(weight, bias, x),
    )


SNIPPETS = [_fundamentals, _autogradqs, _polynomial, _jacobians]


def _arrays(tree):
    if isinstance(tree, (tuple, list)):
        return [a for t in tree for a in _arrays(t)]
    return [np.asarray(tree.detach().numpy(), dtype=np.float64)]


@pytest.mark.parametrize("snippet", SNIPPETS, ids=lambda f: f.__name__)
def test_tutorial_snippets_run(snippet):
    assert all(np.isfinite(a).all() for a in _arrays(snippet(mg)))


@pytest.mark.oracle
@pytest.mark.parametrize("snippet", SNIPPETS, ids=lambda f: f.__name__)
def test_tutorial_snippets_match_torch(torch, snippet):
    ours, theirs = _arrays(snippet(mg)), _arrays(snippet(torch))
    assert [a.shape for a in ours] == [a.shape for a in theirs]
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


def test_concat_and_concatenate_are_cat_as_in_pytorch(torch):
    for lib in (mg, torch):
        a, b = lib.ones(2, 1), lib.zeros(2, 2)
        for fn in (lib.concat, lib.concatenate):
            assert fn((a, b), dim=1).tolist() == lib.cat((a, b), 1).tolist()
            assert fn([a.T, b.T]).shape == lib.cat([a.T, b.T]).shape
