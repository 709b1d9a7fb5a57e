"""Calling a node, ``grad_fn(grad_output)``: one step of backward by hand, as in PyTorch.

PyTorch's ``torch.autograd.graph.Node`` is callable (``THPCppFunction_call`` in
``torch/csrc/autograd/python_cpp_function.cpp``): one gradient per output of the node in, the
input gradients out, a single one unpacked from its tuple. Notebook 04's ``my_backward`` is
built on it.
"""

import numpy as np
import pytest

import minigrad as mg


def _graph():
    x = mg.tensor([0.5, -1.0, 2.0], dtype=mg.float64, requires_grad=True)
    w = mg.tensor([3.0, 0.25, -2.0], dtype=mg.float64, requires_grad=True)
    y = (x * w).tanh()
    return x, w, y


def test_a_one_edge_node_returns_its_input_gradient_unpacked():
    _, _, y = _graph()
    g = mg.tensor([1.0, 2.0, -1.0], dtype=mg.float64)
    got = y.grad_fn(g)
    assert isinstance(got, mg.Tensor)  # not a 1-tuple: PyTorch unpacks a single gradient
    want = g.numpy() * (1 - y.detach().numpy() ** 2)
    np.testing.assert_allclose(got.detach().numpy(), want)


def test_a_two_edge_node_returns_one_gradient_per_edge():
    x, w, y = _graph()
    mul = y.grad_fn.next_functions[0][0]
    g = mg.tensor([1.0, 2.0, 3.0], dtype=mg.float64)
    gx, gw = mul(g)
    np.testing.assert_allclose(gx.detach().numpy(), g.numpy() * w.detach().numpy())
    np.testing.assert_allclose(gw.detach().numpy(), g.numpy() * x.detach().numpy())


def test_walking_the_graph_by_hand_gives_what_backward_gives():
    x, w, y = _graph()
    seed = mg.ones_like(y)
    mul = y.grad_fn.next_functions[0][0]
    gx, gw = mul(y.grad_fn(seed))
    y.backward(seed)
    np.testing.assert_allclose(gx.detach().numpy(), x.grad.numpy())
    np.testing.assert_allclose(gw.detach().numpy(), w.grad.numpy())


def test_calling_frees_nothing_so_the_node_runs_again_and_backward_still_works():
    x, _, y = _graph()
    g = mg.ones_like(y)
    first = y.grad_fn(g).detach().numpy()
    np.testing.assert_allclose(y.grad_fn(g).detach().numpy(), first)
    y.sum().backward()  # the saved tensors are still there
    assert x.grad is not None


def test_grad_mode_decides_whether_the_formula_is_recorded():
    x, _, y = _graph()
    mul = y.grad_fn.next_functions[0][0]
    g = mg.ones_like(y)
    with mg.no_grad():
        gx, _ = mul(g)
    assert gx.grad_fn is None and not gx.requires_grad
    gx, _ = mul(g)  # d(g * w)/dx = g * w depends on w, which requires grad
    assert gx.grad_fn is not None


def test_an_edge_that_needs_no_gradient_gets_none_or_is_skipped_by_the_caller():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    k = mg.tensor([3.0, 4.0]) * 2.0  # computed, needs no gradient: no edge
    z = x * k
    assert z.grad_fn.next_functions[1] == (None, 0)
    sent = z.grad_fn(mg.ones_like(z))
    assert len(sent) == len(z.grad_fn.next_functions) == 2
    np.testing.assert_allclose(sent[0].numpy(), [6.0, 8.0])


def test_calling_a_leafs_accumulategrad_adds_into_grad_and_returns_an_empty_tuple():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    acc = (x * 2.0).grad_fn.next_functions[0][0]
    assert acc(mg.tensor([1.0, 1.0])) == ()
    assert acc(mg.tensor([0.5, 2.0])) == ()
    np.testing.assert_allclose(x.grad.numpy(), [1.5, 3.0])
    assert acc(None) == () and x.grad.tolist() == [1.5, 3.0]


@pytest.mark.parametrize("args", [(), ("a", "b")])
def test_not_one_gradient_per_output_is_a_type_error_naming_the_count(args):
    _, _, y = _graph()
    with pytest.raises(TypeError, match=r"TanhBackward0 expected 1 gradient\(s\), one per output"):
        y.grad_fn(*args)


def test_a_gradient_that_is_not_a_tensor_is_a_type_error_naming_its_type():
    _, _, y = _graph()
    with pytest.raises(TypeError, match="gradient 0 should be a Tensor or None, got float"):
        y.grad_fn(1.0)


def test_against_pytorch():
    torch = pytest.importorskip("torch")
    got = {}
    for lib in (mg, torch):
        x = lib.tensor([0.5, -1.0], dtype=lib.float64, requires_grad=True)
        w = lib.tensor([3.0, 0.25], dtype=lib.float64, requires_grad=True)
        y = (x * w).tanh()
        one = y.grad_fn(lib.ones_like(y))  # one edge: a tensor
        two = y.grad_fn.next_functions[0][0](one)  # two edges: a tuple
        acc = y.grad_fn.next_functions[0][0].next_functions[0][0]
        nothing = acc(two[0])  # AccumulateGrad: into x.grad, returns ()
        # grad mode was on: the input gradients, and so x.grad, keep their graph
        got[lib] = (type(one).__name__, type(two).__name__, len(two), nothing, x.grad.requires_grad)
        got[lib, "values"] = [t.detach().numpy() for t in (*two, x.grad)]
    assert got[mg] == got[torch] == ("Tensor", "tuple", 2, (), True)
    for a, b in zip(got[mg, "values"], got[torch, "values"]):
        np.testing.assert_allclose(a, b, rtol=1e-12)
