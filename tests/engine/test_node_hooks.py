"""``grad_fn.register_prehook`` / ``grad_fn.register_hook`` against PyTorch 2.13 (the
autograd mechanics notes' "backward hooks"): what each hook sees, the order of tensor hooks
and node hooks, replaced gradients, removal, and a wrong count of returned gradients."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle
LIBS = pytest.mark.parametrize("lib", [mg, torch], ids=["minigrad", "torch"])


def _v(gs):
    return tuple(None if g is None else np.round(g.numpy(), 6).tolist() for g in gs)


def run(lib):
    log = []
    x = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
    w = lib.tensor([0.5, 0.25, 2.0], requires_grad=True)
    y = x * w
    z = y.tanh()
    y.register_hook(lambda g: log.append(("tensor hook on y", _v((g,)))))
    y.grad_fn.register_prehook(lambda go: log.append(("mul pre", _v(go))))
    y.grad_fn.register_hook(lambda gi, go: log.append(("mul post", _v(gi), _v(go))))
    h = z.grad_fn.register_prehook(lambda go: (go[0] * 10,))
    z.grad_fn.register_hook(lambda gi, go: log.append(("tanh post", _v(gi), _v(go))))
    z.sum().backward(retain_graph=True)
    log.append(("grads", _v((x.grad, w.grad))))
    h.remove()
    x.grad = w.grad = None
    y.grad_fn.register_hook(lambda gi, go: (gi[0], None))  # drop w's gradient
    z.sum().backward()
    log.append(("after", _v((x.grad, w.grad))))
    return log


def test_hooks_see_order_and_change_as_in_pytorch():
    assert run(mg) == run(torch)


@LIBS
def test_a_hook_returning_the_wrong_count_raises(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    y.grad_fn.register_hook(lambda gi, go: (gi[0], gi[0]))
    with pytest.raises(RuntimeError, match="incorrect number of values"):
        y.sum().backward()


@LIBS
def test_a_prehook_on_a_leafs_accumulate_grad_changes_its_grad(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    acc = (x * 1).grad_fn.next_functions[0][0]
    acc.register_prehook(lambda go: (go[0] + 1,))
    (x * 3).sum().backward()
    assert x.grad.tolist() == [4.0, 4.0]


def test_a_hook_must_be_callable():
    with pytest.raises(TypeError, match="callable"):
        mg.ones(1, requires_grad=True).exp().grad_fn.register_hook(3)
