"""Module hooks against PyTorch 2.13: the same model, hooks and backward in both libraries;
what each hook sees (names of the modules, shapes and values of args, outputs and
gradients), the order they run in, what their return values change, and their errors."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

W = np.linspace(-1.0, 1.0, 12).reshape(3, 4)
X = np.linspace(-2.0, 2.0, 8).reshape(2, 4)


def _v(t):
    """A hook argument as plain data: tensors to nested lists, tuples and None kept."""
    if t is None:
        return None
    if isinstance(t, (tuple, list)):
        return tuple(_v(x) for x in t)
    if isinstance(t, dict):
        return {k: _v(v) for k, v in t.items()}
    if hasattr(t, "detach"):
        return np.round(t.detach().numpy().astype(np.float64), 4).tolist()
    return t


def model(lib):
    lin = lib.nn.Linear(4, 3)
    with lib.no_grad():
        lin.weight.copy_(lib.tensor(W, dtype=lib.float32))
        lin.bias.fill_(0.5)
    return lib.nn.Sequential(lin, lib.nn.Tanh(), lib.nn.Linear(3, 1))


def run(lib, x_requires_grad: bool):
    log = []
    m = model(lib)
    with lib.no_grad():
        m[2].weight.fill_(0.25)
        m[2].bias.fill_(-0.1)
    name = {id(mod): n or "root" for n, mod in m.named_modules()}
    handles = []
    for mod in m.modules():
        n = name[id(mod)]
        handles += [
            mod.register_forward_pre_hook(lambda mod, a, n=n: log.append(("pre", n, _v(a)))),
            mod.register_forward_hook(lambda mod, a, o, n=n: log.append(("fwd", n, _v(o)))),
            mod.register_full_backward_pre_hook(
                lambda mod, go, n=n: log.append(("bwd pre", n, _v(go)))
            ),
            mod.register_full_backward_hook(
                lambda mod, gi, go, n=n: log.append(("bwd", n, _v(gi), _v(go)))
            ),
        ]
    x = lib.tensor(X, dtype=lib.float32, requires_grad=x_requires_grad)
    out = m(x)
    log.append(("graph", out.grad_fn.name().removeprefix("torch::autograd::")))
    out.sum().backward()
    log.append(("grads", _v(m[0].weight.grad), _v(x.grad)))
    for h in handles:
        h.remove()
    log.append(("removed", _v(m(x))))
    return log


@pytest.mark.parametrize("x_requires_grad", [False, True])
def test_hooks_see_and_order_as_pytorchs(x_requires_grad):
    assert run(mg, x_requires_grad) == run(torch, x_requires_grad)


def changes(lib):
    """Hooks that change what flows: args, kwargs, output, grad_output, grad_input."""
    log = []
    lin = model(lib)[0]
    x = lib.tensor(X, dtype=lib.float32, requires_grad=True)
    h1 = lin.register_forward_pre_hook(lambda m, a: a[0] * 2)  # a single value: new args
    h2 = lin.register_forward_hook(lambda m, a, o: o + 1)
    h3 = lin.register_full_backward_pre_hook(lambda m, go: (go[0] * 10,))
    h4 = lin.register_full_backward_hook(lambda m, gi, go: (gi[0] * 0.5,))
    h5 = lin.register_forward_hook(lambda m, a, o: log.append(("first", _v(o))), prepend=True)
    y = lin(x)
    y.sum().backward()
    log += [_v(y), _v(x.grad), _v(lin.weight.grad)]
    for h in (h1, h2, h3, h4, h5):
        h.remove()

    def pre(m, args, kwargs):
        log.append(("kwargs", sorted(kwargs)))
        return args, kwargs

    def post(m, args, kwargs, out):
        log.append(("post kwargs", sorted(kwargs)))

    with lin.register_forward_pre_hook(pre, with_kwargs=True):
        with lin.register_forward_hook(post, with_kwargs=True):
            lin(input=x)
    lin(x)  # the handles removed the hooks at the end of the blocks
    return log


def test_what_hooks_return_changes_the_computation_as_in_pytorch():
    assert changes(mg) == changes(torch)


LIBS = pytest.mark.parametrize("lib", [mg, torch], ids=["minigrad", "torch"])


@LIBS
def test_always_call_runs_a_forward_hook_when_forward_raises(lib):
    seen = []
    lin = lib.nn.Linear(4, 3)
    lin.register_forward_hook(lambda m, a, o: seen.append("plain"))
    lin.register_forward_hook(lambda m, a, o: seen.append(("always", o)), always_call=True)
    with pytest.raises(RuntimeError):
        lin(lib.ones(2, 5))
    assert seen == [("always", None)]


@LIBS
def test_global_forward_hooks_run_before_each_modules_own(lib):
    seen = []
    lin = lib.nn.Linear(4, 3)
    lin.register_forward_hook(lambda m, a, o: seen.append("own"))
    reg = lib.nn.modules.module
    with reg.register_module_forward_pre_hook(lambda m, a: seen.append("global pre")):
        with reg.register_module_forward_hook(lambda m, a, o: seen.append("global")):
            lin(lib.ones(1, 4))
    lin(lib.ones(1, 4))
    assert seen == ["global pre", "global", "own", "own"]


BAD = {
    "a pre-hook with kwargs returning args only": (
        lambda lib, lin: lin.register_forward_pre_hook(lambda m, a, k: a, with_kwargs=True),
        RuntimeError,
    ),
    "a backward hook returning too many": (
        lambda lib, lin: lin.register_full_backward_hook(lambda m, gi, go: (gi[0], gi[0])),
        RuntimeError,
    ),
    "a backward pre-hook returning too many": (
        lambda lib, lin: lin.register_full_backward_pre_hook(lambda m, go: (go[0], go[0])),
        RuntimeError,
    ),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_hook_results_raise_pytorchs_errors(name):
    register, exc = BAD[name]
    messages = []
    for lib in (mg, torch):
        lin = lib.nn.Linear(4, 3)
        register(lib, lin)
        with pytest.raises(exc) as err:
            lin(lib.ones(2, 4, requires_grad=True)).sum().backward()
        messages.append(str(err.value))
    assert messages[0] == messages[1]


def test_a_hook_must_be_callable():
    with pytest.raises(TypeError, match="callable"):
        mg.nn.Linear(2, 2).register_forward_hook("not a function")


def test_a_module_without_hooks_calls_forward_directly():
    lin = mg.nn.Linear(2, 2)
    assert lin._hooks is None
    lin.register_forward_hook(lambda m, a, o: None).remove()
    assert not lin._hooks.forward
