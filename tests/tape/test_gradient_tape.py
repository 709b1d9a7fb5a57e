"""``tape.GradientTape``: gradients checked against minigrad's own reverse mode
(``mg.autograd.grad``), closed forms and central differences; the op table through a tape;
watching, variables, structures, unconnected sources, the tape's life cycle."""

from __future__ import annotations

import collections
import gc
import pathlib
import sys
import warnings
import weakref

import numpy as np
import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parents[1] / "ops"))
from op_table_rows import ROWS, cases  # noqa: E402

import minigrad as mg  # noqa: E402
from minigrad.recording import modes  # noqa: E402
from minigrad.tape import GradientTape, UnconnectedGradients, recording  # noqa: E402

EPS, ATOL, RTOL = 1e-6, 1e-5, 1e-3


def t64(a, requires_grad=False):
    return mg.tensor(np.asarray(a, dtype=np.float64), requires_grad=requires_grad)


def close(a, b, atol=ATOL):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), atol=atol, rtol=RTOL)


def central_differences(f, x: np.ndarray) -> np.ndarray:
    """d sum(f(x)) / dx by central differences (float64)."""
    g = np.zeros_like(x)
    for idx in np.ndindex(*x.shape):
        up, down = x.copy(), x.copy()
        up[idx] += EPS
        down[idx] -= EPS
        g[idx] = (f(t64(up)).sum().item() - f(t64(down)).sum().item()) / (2 * EPS)
    return g


FUNCTIONS = [
    ("cubic", lambda x: x**3),
    ("sin_times_x", lambda x: x.sin() * x),
    ("softmax", lambda x: mg.softmax(x, dim=0)),
    ("logsumexp", lambda x: mg.logsumexp(x, dim=0)),
    ("quadratic_form", lambda x: x @ t64(np.arange(9.0).reshape(3, 3)) @ x),
]
X = [0.3, -1.2, 0.7]


# --- values --------------------------------------------------------------------------------
@pytest.mark.parametrize("name,f", FUNCTIONS)
def test_watched_constant_matches_autograd_and_central_differences(name, f):
    x = t64(X)
    with GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    g = tape.gradient(y, x)  # a target with several elements counts as their sum
    leaf = t64(X, requires_grad=True)
    (expected,) = mg.autograd.grad(f(leaf).sum(), leaf)
    close(g.numpy(), expected.numpy())
    close(g.numpy(), central_differences(f, np.array(X)))
    assert g.grad_fn is None and not g.requires_grad


@pytest.mark.parametrize("name,f", FUNCTIONS)
def test_variable_is_watched_when_used(name, f):
    w = t64(X, requires_grad=True)
    with GradientTape() as tape:
        y = f(w)
    g = tape.gradient(y, w)
    (expected,) = mg.autograd.grad(f(w).sum(), w)
    close(g.numpy(), expected.numpy())
    assert w.grad is None  # a tape never writes .grad


def test_tensorflows_first_example_and_closed_forms():
    x = mg.tensor(3.0)
    with GradientTape() as g:
        g.watch(x)
        y = x * x
    assert g.gradient(y, x).item() == 6.0
    x = t64([0.5, 2.0])
    with GradientTape(persistent=True) as g:
        g.watch(x)
        y = x.exp() * x
        z = x.tanh()
    close(g.gradient(y, x).numpy(), np.exp([0.5, 2.0]) * (1 + np.array([0.5, 2.0])))
    close(g.gradient(z, x).numpy(), 1 - np.tanh([0.5, 2.0]) ** 2)


OP_CASES = cases(ROWS)


def _weighted_sum(outs, weights):
    return sum((o * w).sum() for o, w in zip(outs, weights))


@pytest.mark.parametrize(("row", "shapes"), OP_CASES)
def test_op_table_through_a_tape_matches_autograd_grad(row, shapes):
    """Every op of the table, its inputs watched constants (so every op sees alias leaves):
    the tape's gradients are ``mg.autograd.grad``'s on leaves that require grad."""
    arrays = row.sample(shapes)
    rng = np.random.default_rng(1)
    leaves = [t64(a, requires_grad=True) for a in arrays]
    outs = [o for o in _as_tuple(row.fn(mg, *leaves)) if o.is_floating_point()]
    weights = [
        mg.tensor(rng.standard_normal(o.shape).astype(o.detach().numpy().dtype)) for o in outs
    ]
    expected = mg.autograd.grad(_weighted_sum(outs, weights), leaves, allow_unused=True)
    xs = [t64(a) for a in arrays]
    with GradientTape() as tape:
        tape.watch(xs)
        outs = [o for o in _as_tuple(row.fn(mg, *xs)) if o.is_floating_point()]
    got = tape.gradient(outs, xs, output_gradients=weights)
    for g, e, x in zip(got, expected, xs):
        assert (g is None) == (e is None)
        if g is not None:
            close(g.numpy(), e.numpy(), atol=1e-6)
        assert not x.requires_grad and x.grad is None


def _as_tuple(out):
    return tuple(out) if isinstance(out, tuple) else (out,)


# --- watch: a constant stays a constant outside the tape ----------------------------------
def test_watch_leaves_the_users_tensor_alone():
    x = t64([1.0, 2.0])
    version = x._version
    with GradientTape() as tape:
        tape.watch(x)
        assert not x.requires_grad and x.grad_fn is None
        y = (x * x).sum()
        assert y.requires_grad  # what is computed from a watched tensor is differentiable
        outside = mg.no_grad()
        with outside:
            plain = x * 2
        assert not plain.requires_grad
    after = x * 3
    assert not after.requires_grad and after.grad_fn is None
    assert x.numpy().tolist() == [1.0, 2.0] and x._version == version
    close(tape.gradient(y, x).numpy(), [2.0, 4.0])
    assert x.grad is None and not x.requires_grad


def test_watch_takes_structures_and_an_alias_follows_in_place_writes():
    a, b = t64([1.0]), t64([2.0])
    with GradientTape(persistent=True) as tape:
        tape.watch({"a": a, "rest": [b]})
        y = a * b
    close(tape.gradient(y, a).numpy(), [2.0])
    close(tape.gradient(y, b).numpy(), [1.0])
    b.add_(1.0)  # the alias shares b's memory and version counter: the saved b changed
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        tape.gradient(y, a)


def test_a_tensor_not_watched_is_a_constant():
    x, c = t64(2.0), t64(5.0)
    with GradientTape() as tape:
        tape.watch(x)
        y = x * c
    gx, gc = tape.gradient(y, [x, c])
    assert gx.item() == 5.0 and gc is None


def test_an_integer_tensor_is_watched_with_a_warning_and_gets_no_gradient():
    n = mg.tensor([1, 2])
    with GradientTape() as tape:
        with pytest.warns(UserWarning, match="must be floating"):
            tape.watch(n)
        y = n * 2
    assert tape.gradient(y, n) is None


def test_nested_tapes_watching_the_same_constant_share_its_alias():
    x = t64(1.5)
    with GradientTape() as a, GradientTape() as b:
        a.watch(x)
        b.watch(x)
        y = x**2
    assert b.gradient(y, x).item() == pytest.approx(3.0)
    assert a.gradient(y, x).item() == pytest.approx(3.0)


def test_a_custom_function_sees_the_alias_of_a_watched_constant():
    class Cube(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x**3

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 3 * x**2

    x = t64([1.0, 2.0])
    with GradientTape() as tape:
        tape.watch(x)
        y = Cube.apply(x)
    close(tape.gradient(y, x).numpy(), [3.0, 12.0])
    assert not x.requires_grad


# --- variables ------------------------------------------------------------------------------
def test_watched_variables_in_the_order_seen_and_watch_accessed_variables_false():
    w, b, unused = (t64(v, requires_grad=True) for v in (2.0, 1.0, 0.0))
    with GradientTape(persistent=True) as tape:
        y = w * 3 + b
    assert tape.watched_variables() == (w, b)
    gw, gb, gu = tape.gradient(y, [w, b, unused])
    assert (gw.item(), gb.item(), gu) == (3.0, 1.0, None)
    assert tape.watched_variables() == (w, b)  # unused was never accessed
    x, v = t64(2.0, requires_grad=True), t64(5.0, requires_grad=True)
    with GradientTape(watch_accessed_variables=False, persistent=True) as tape:
        tape.watch(x)
        y = x**2  # gradients for x
        z = v**3  # none for v: it is not watched
    assert tape.gradient(y, x).item() == 4.0
    assert tape.gradient(z, v) is None
    assert tape.watched_variables() == (x,)


def test_a_parameter_is_a_variable_and_an_nn_module_trains_with_a_tape():
    mg.manual_seed(0)
    model = mg.nn.Linear(3, 1)
    x, target = mg.randn(4, 3), mg.randn(4, 1)
    with GradientTape() as tape:
        loss = ((model(x) - target) ** 2).mean()
    grads = tape.gradient(loss, list(model.parameters()))
    loss2 = ((model(x) - target) ** 2).mean()
    expected = mg.autograd.grad(loss2, list(model.parameters()))
    for g, e in zip(grads, expected):
        close(g.numpy(), e.numpy())
    assert all(p.grad is None for p in model.parameters())
    assert set(map(id, tape.watched_variables())) == set(map(id, model.parameters()))


def test_a_tensor_computed_before_the_tape_is_a_constant_to_it():
    w = t64([1.0, 2.0], requires_grad=True)
    h = w * 2  # before the tape: not on it
    with GradientTape(persistent=True) as tape:
        z = (h * h).sum() + w.sum()
    close(tape.gradient(z, w).numpy(), [1.0, 1.0])  # only the path recorded by the tape
    assert tape.gradient(z, h) is None  # not watched, not made by the tape
    with GradientTape() as tape:
        tape.watch(h)  # watched: now it is a source
        z = (h * h).sum()
    close(tape.gradient(z, h).numpy(), [4.0, 8.0])


def test_intermediate_tensors_recorded_by_the_tape_are_sources():
    x = t64(3.0)
    with GradientTape() as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    gy, gx = tape.gradient(z, [y, x])
    assert gy.item() == 18.0 and gx.item() == 108.0


# --- structures, several targets, output gradients -----------------------------------------
Pair = collections.namedtuple("Pair", "first second")


def test_the_result_has_the_structure_of_the_sources():
    a, b, c = t64(1.0), t64(2.0), t64(3.0)
    with GradientTape(persistent=True) as tape:
        tape.watch([a, b, c])
        y = a * b * c
    g = tape.gradient(y, {"z": a, "a": [b, (c,)]})
    assert list(g) == ["z", "a"] and isinstance(g["a"][1], tuple)
    assert [g["z"].item(), g["a"][0].item(), g["a"][1][0].item()] == [6.0, 3.0, 2.0]
    p = tape.gradient(y, Pair(a, b))
    assert isinstance(p, Pair) and (p.first.item(), p.second.item()) == (6.0, 3.0)
    assert isinstance(tape.gradient(y, (a, b)), tuple)
    assert tape.gradient(y, a).item() == 6.0
    assert tape.gradient(y, []) == []
    ga, ga2 = tape.gradient(y, [a, a])  # a source given twice gets its gradient twice
    assert ga.item() == ga2.item() == 6.0


def test_several_targets_sum_their_gradients_and_output_gradients_weight_them():
    x = t64([1.0, 2.0])
    with GradientTape(persistent=True) as tape:
        tape.watch(x)
        y1, y2 = x**2, x.sin()
    both = tape.gradient([y1, y2], x)
    close(both.numpy(), 2 * x.numpy() + np.cos(x.numpy()))
    close(tape.gradient({"b": y2, "a": y1}, x).numpy(), both.numpy())
    w1, w2 = t64([1.0, -1.0]), t64([0.5, 2.0])
    weighted = tape.gradient([y1, y2], x, output_gradients=[w1, w2])
    close(weighted.numpy(), 2 * x.numpy() * [1, -1] + np.cos(x.numpy()) * [0.5, 2])
    partly = tape.gradient([y1, y2], x, output_gradients=[None, w2])  # None: ones
    close(partly.numpy(), 2 * x.numpy() + np.cos(x.numpy()) * [0.5, 2])
    assert tape.gradient(x, x).numpy().tolist() == [1.0, 1.0]  # a watched target itself


def test_a_target_that_depends_on_nothing_watched():
    x = t64(1.0)
    with GradientTape(persistent=True) as tape:
        tape.watch(x)
        c = t64(4.0) * 2
    assert tape.gradient(c, x) is None
    assert tape.gradient(c, x, unconnected_gradients="zero").item() == 0.0


# --- unconnected sources ------------------------------------------------------------------
@pytest.mark.parametrize("zero", ["zero", UnconnectedGradients.ZERO])
@pytest.mark.parametrize("none", ["none", UnconnectedGradients.NONE])
def test_unconnected_sources_get_none_or_zeros(none, zero):
    x, y = t64([1.0, 2.0]), t64([[3.0]])
    w = t64(1.0, requires_grad=True)
    with GradientTape(persistent=True) as tape:
        tape.watch([x, y])
        z = (x * 2).sum()
    gx, gy, gw = tape.gradient(z, [x, y, w], unconnected_gradients=none)
    assert gx.numpy().tolist() == [2.0, 2.0] and gy is None and gw is None
    gx, gy, gw = tape.gradient(z, [x, y, w], unconnected_gradients=zero)
    assert gy.shape == (1, 1) and gy.dtype is mg.float64 and not gy.numpy().any()
    assert gw.shape == () and gw.item() == 0.0


# --- the tape's life ----------------------------------------------------------------------
def test_a_non_persistent_tape_computes_one_set_of_gradients():
    x = t64(2.0)
    with GradientTape() as tape:
        tape.watch(x)
        y = x**2
    tape.gradient(y, x)
    message = (
        "A non-persistent GradientTape can only be used to compute one set of gradients "
        r"\(or jacobians\)"
    )
    with pytest.raises(RuntimeError, match=message):
        tape.gradient(y, x)
    with pytest.raises(RuntimeError, match=message):
        tape.jacobian(y, x)


def test_a_persistent_tape_is_used_twice_and_matches_tensorflows_example():
    x = mg.tensor(3.0)
    with GradientTape(persistent=True) as g:
        g.watch(x)
        y = x * x
        z = y * y
    assert g.gradient(z, x).item() == 108.0  # 4 x^3
    assert g.gradient(y, x).item() == 6.0
    assert g.gradient(z, x).item() == 108.0


def test_the_graph_is_left_for_backward_after_a_tape():
    w = t64(2.0, requires_grad=True)
    with GradientTape() as tape:
        y = w**3
    assert tape.gradient(y, w).item() == 12.0
    y.backward()  # the tape did not free the graph
    assert w.grad.item() == 12.0


def test_stop_recording_and_the_ops_in_its_gap():
    x = mg.tensor(4.0)
    with GradientTape() as tape:
        tape.watch(x)
        with tape.stop_recording():
            y = x**2
    assert tape.gradient(y, x) is None
    w = t64([1.0, 2.0], requires_grad=True)
    with GradientTape(persistent=True) as tape:
        y1 = w * w
        with tape.stop_recording():
            z = y1 * 3  # not recorded: a constant to the tape
        out = (z + y1).sum()
    close(tape.gradient(out, w).numpy(), 2 * w.detach().numpy())
    assert tape.gradient(out, z) is None


def test_stop_recording_stops_only_that_tape():
    x = t64(2.0)
    with GradientTape() as outer, GradientTape() as inner:
        outer.watch(x)
        inner.watch(x)
        with inner.stop_recording():
            y = x**3
    assert inner.gradient(y, x) is None
    assert outer.gradient(y, x).item() == 12.0


def test_reset_forgets_what_was_recorded():
    x = t64(2.0)
    with GradientTape() as tape:
        tape.watch(x)
        loss = x**2
        tape.reset()
        tape.watch(x)
        loss = loss + x**3
    assert tape.gradient(loss, x).item() == 12.0  # only x**3's part, as TensorFlow's example


def test_gradient_inside_the_context_of_a_non_persistent_tape_stops_its_recording():
    x = t64(2.0)
    with GradientTape() as tape:
        tape.watch(x)
        y = x**2
        g = tape.gradient(y, x)
        z = x * g  # not recorded any more
    assert g.item() == 4.0 and g.grad_fn is None and not z.requires_grad


def test_gradient_inside_the_context_of_a_persistent_tape_warns_and_records_itself():
    x = t64(2.0)
    with GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x**3
        with pytest.warns(UserWarning, match="inside its own context"):
            g = tape.gradient(y, x)
    assert g.item() == 12.0 and g.grad_fn is not None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tape.gradient(g, x).item() == 12.0  # 6x: the gradient was recorded


def test_a_used_tape_entered_again_starts_afresh():
    x = t64(2.0)
    tape = GradientTape()
    with tape:
        tape.watch(x)
        y = x**2
    tape.gradient(y, x)
    with tape:
        tape.watch(x)
        z = x**3
    assert tape.gradient(y, x) is None  # the first recording is gone
    with pytest.raises(RuntimeError, match="non-persistent"):
        tape.gradient(z, x)


def test_a_persistent_tape_entered_again_goes_on_recording():
    x = t64(2.0)
    tape = GradientTape(persistent=True)
    with tape:
        tape.watch(x)
        y = x**2
    between = y * 10  # not recorded
    with tape:
        z = y * 3
    assert tape.gradient(z, x).item() == 12.0
    assert tape.gradient(between, x) is None


def test_grad_mode_is_on_inside_and_restored_after():
    x = t64(2.0)
    with mg.no_grad():
        with GradientTape() as tape:
            assert mg.is_grad_enabled()
            tape.watch(x)
            y = x**2
        assert not mg.is_grad_enabled()
    assert tape.gradient(y, x).item() == 4.0
    with GradientTape() as tape:
        tape.watch(x)
        with mg.no_grad():
            y = x**2  # records nothing, as inside stop_recording()
    assert tape.gradient(y, x) is None


def test_an_exception_inside_the_tape_leaves_no_mode_on():
    with pytest.raises(KeyError), GradientTape():
        raise KeyError("inside")
    assert "tape" not in modes.state.hooks


def test_a_tape_keeps_nothing_alive_once_it_and_the_graph_are_gone():
    """Freed by reference counting alone (the cyclic collector is off): the tape, the alias
    leaf and its registry entry hold no cycle."""
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        x = t64([1.0, 2.0])
        with GradientTape() as tape:
            tape.watch(x)
            y = (x * x).sum()
        tape.gradient(y, x)
        key, refs = id(x), [weakref.ref(x), weakref.ref(y), weakref.ref(tape)]
        assert key in recording._aliases
        del x, y, tape
        assert [r() for r in refs] == [None, None, None]
        assert key not in recording._aliases
    finally:
        if was:
            gc.enable()
