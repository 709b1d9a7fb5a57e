"""The backward pass as a step generator: ``mg.autograd.BackwardPass(roots, grads)``.

``backward()`` is "run the step generator to the end", so iterating it must give exactly the
gradients backward() gives, in a topological order, one Step per node.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.recording.node import AccumulateGrad


def make_graph(seed):
    """A small DAG with reuse (diamonds), broadcasting and a leaf used at several depths."""
    rng = np.random.default_rng(seed)
    x = mg.tensor(rng.standard_normal((3, 2)), requires_grad=True)
    w = mg.tensor(rng.standard_normal((2,)), requires_grad=True)
    b = mg.tensor(rng.standard_normal((3, 1)), requires_grad=True)
    h = (x * w + b).tanh()
    k = h.exp() * x + h.sin()
    out = (k @ w).sum() + (h * b).sum()
    return (x, w, b), out


def run_steps(out, grad=None):
    grad = mg.ones_like(out) if grad is None else grad
    return list(mg.autograd.BackwardPass((out,), (grad,)))


@pytest.mark.parametrize("seed", range(5))
def test_iterating_the_pass_gives_the_same_grads_as_backward(seed):
    leaves_a, out_a = make_graph(seed)
    out_a.backward()
    leaves_b, out_b = make_graph(seed)
    steps = run_steps(out_b)
    assert steps
    for a, b in zip(leaves_a, leaves_b):
        np.testing.assert_array_equal(a.grad.numpy(), b.grad.numpy())


def test_steps_are_in_topological_order_and_each_node_runs_once():
    _, out = make_graph(0)
    steps = run_steps(out)
    position = {}
    for i, step in enumerate(steps):
        assert step.index == i
        assert step.node not in position, f"{step.node} ran twice"
        position[step.node] = i
    assert steps[0].node is out.grad_fn
    # every node runs after all nodes that feed gradient into it
    for step in steps:
        for nxt, _ in step.node.next_functions:
            if nxt is not None:
                assert position[nxt] > position[step.node], f"{nxt} ran before {step.node}"
    # every node reachable from the root ran
    reachable, stack = set(), [out.grad_fn]
    while stack:
        node = stack.pop()
        if node not in reachable:
            reachable.add(node)
            stack.extend(n for n, _ in node.next_functions if n is not None)
    assert reachable == set(position)


def test_gradients_sent_along_edges_sum_to_what_each_node_receives():
    _, out = make_graph(1)
    steps = run_steps(out)
    arrived = {}
    for step in steps:
        for (nxt, nr), g in zip(step.node.next_functions, step.grad_inputs):
            if nxt is not None and g is not None:
                key = (nxt, nr)
                arrived[key] = (
                    g.detach().numpy() if key not in arrived else arrived[key] + g.detach().numpy()
                )
    for step in steps[1:]:
        for nr, g in enumerate(step.grad_outputs):
            np.testing.assert_allclose(g.detach().numpy(), arrived[(step.node, nr)], rtol=1e-6)


def test_grad_inputs_has_one_entry_per_edge():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    c = mg.tensor([3.0, 4.0])  # needs no grad: its edge is None
    steps = run_steps((x * c).sum())
    for step in steps:
        assert len(step.grad_inputs) == len(step.node.next_functions)
    mul = steps[1]
    assert mul.node.name() == "MulBackward0"
    np.testing.assert_array_equal(mul.grad_outputs[0].detach().numpy(), [1.0, 1.0])
    np.testing.assert_array_equal(mul.grad_inputs[0].detach().numpy(), [3.0, 4.0])


def test_accumulation_records_before_incoming_after():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    x.grad = mg.tensor([10.0, 20.0])
    steps = run_steps((x * x).sum())
    (leaf_step,) = [s for s in steps if isinstance(s.node, AccumulateGrad)]
    assert leaf_step.node.variable is x
    assert leaf_step.grad_inputs == ()
    acc = leaf_step.accumulation
    assert acc.tensor is x
    np.testing.assert_array_equal(acc.before.detach().numpy(), [10.0, 20.0])
    np.testing.assert_array_equal(acc.incoming.detach().numpy(), [2.0, 4.0])
    np.testing.assert_array_equal(acc.after.detach().numpy(), [12.0, 24.0])
    np.testing.assert_array_equal(x.grad.numpy(), [12.0, 24.0])
    assert all(s.accumulation is None for s in steps if s is not leaf_step)


def test_accumulation_into_an_empty_grad_has_no_before():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    steps = run_steps((x * 3.0).sum())
    acc = steps[-1].accumulation
    assert acc.before is None
    np.testing.assert_array_equal(acc.after.detach().numpy(), [3.0, 3.0])
    assert acc.after is x.grad


def test_leaf_used_several_times_accumulates_once_with_the_sum():
    x = mg.tensor(2.0, requires_grad=True)
    steps = run_steps(x * x + x.sin() + x)
    leaf_steps = [s for s in steps if isinstance(s.node, AccumulateGrad)]
    assert len(leaf_steps) == 1
    assert leaf_steps[0].accumulation.incoming.item() == pytest.approx(4.0 + np.cos(2.0) + 1.0)


def test_the_pass_is_lazy():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    out = (x.exp() * 2.0).sum()
    it = iter(mg.autograd.BackwardPass((out,), (mg.tensor(1.0),)))
    first = next(it)
    assert first.node is out.grad_fn
    assert x.grad is None  # nothing reached the leaf yet
    rest = list(it)
    assert isinstance(rest[-1].node, AccumulateGrad)
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.exp([1.0, 2.0]), rtol=1e-6)


def test_root_gradient_is_what_the_first_step_receives():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3.0
    steps = run_steps(y, mg.tensor([1.0, -2.0]))
    np.testing.assert_array_equal(steps[0].grad_outputs[0].detach().numpy(), [1.0, -2.0])
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, -6.0])


def test_the_pass_frees_the_graph_unless_retained():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    out = (x * x).sum()
    list(mg.autograd.BackwardPass((out,), (mg.tensor(1.0),), retain_graph=True))
    out.backward()  # still possible
    np.testing.assert_array_equal(x.grad.numpy(), [4.0, 8.0])
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        list(mg.autograd.BackwardPass((out,), (mg.tensor(1.0),)))


def test_multiple_roots():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    a = (x * x).sum()
    b = (x * 3.0).sum()
    steps = list(mg.autograd.BackwardPass((a, b), (mg.tensor(1.0), mg.tensor(2.0))))
    np.testing.assert_array_equal(x.grad.numpy(), [2.0 + 6.0, 4.0 + 6.0])
    assert sum(isinstance(s.node, AccumulateGrad) for s in steps) == 1


def test_root_without_grad_fn_raises():
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad"):
        list(mg.autograd.BackwardPass((mg.tensor(1.0),), (mg.tensor(1.0),)))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 99), st.integers(0, 99)), max_size=25))
def test_step_order_is_the_order_trace_publishes_on_random_graphs(program):
    # each instruction applies op k to one or two earlier tensors (chains, diamonds, reuse)
    ts = [mg.tensor([0.5, -1.0], requires_grad=True), mg.tensor([2.0, 0.3], requires_grad=True)]
    for k, i, j in program:
        a, b = ts[i % len(ts)], ts[j % len(ts)]
        ts.append([a * b, a + b, a.tanh(), a * 1.5, a.exp() - b, a.sin()][k])
    root = sum((t.sum() for t in ts[-3:]), mg.tensor(0.0))
    # trace.graph numbers nodes by the documented rule (plain Kahn: leaves first, then the
    # most recently created); the engine, with its shortcuts, must run them in that order
    published = [info.node for info in mg.trace.graph(root).nodes]
    assert [s.node for s in run_steps(root)] == published


@pytest.mark.parametrize("create_graph", [False, True])
def test_grad_mode_between_steps_is_the_callers_even_when_the_pass_is_dropped(create_graph):
    _, out = make_graph(1)
    steps = iter(mg.autograd.BackwardPass((out,), (mg.ones_like(out),), True, create_graph))
    next(steps)
    assert mg.is_grad_enabled()  # the caller's mode while a step is handed out
    with mg.no_grad():
        next(steps)
        assert not mg.is_grad_enabled()
    next(steps)  # handed out with grad enabled again ...
    with mg.no_grad():
        steps.close()  # ... then abandoned inside no_grad: the mode must stay off
        assert not mg.is_grad_enabled()
    assert mg.is_grad_enabled()
    for _ in iter(mg.autograd.BackwardPass((out,), (mg.ones_like(out),), True, create_graph)):
        pass
    assert mg.is_grad_enabled()
