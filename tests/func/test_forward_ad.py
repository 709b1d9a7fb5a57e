"""Dual tensors (``minigrad.replaying.forward_ad``): the op table through ``make_dual``, checked
against ``func.jvp`` (the same rules, so the same tangents) and by ``gradcheck(check_forward_ad)``;
the level's life cycle, composition with reverse mode, and every error."""

from __future__ import annotations

import gc
import pathlib
import sys
import warnings
import weakref

import numpy as np
import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parents[1] / "ops"))
from op_table_rows import ROWS, cases  # noqa: E402
from test_forward import IN_PLACE, NO_RULE  # noqa: E402

import minigrad as mg  # noqa: E402
import minigrad.replaying.forward_ad as fwAD  # noqa: E402
from minigrad.recording import modes  # noqa: E402

RULE_ROWS = [r for r in ROWS if r.name not in NO_RULE and r.name not in IN_PLACE]
TOL = {"eps": 1e-6, "atol": 1e-5, "rtol": 1e-3}


def as_tuple(out):
    return tuple(out) if isinstance(out, tuple) else (out,)


def tangents_for(arrays, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.uniform(-1.0, 1.0, a.shape) for a in arrays]


@pytest.fixture(autouse=True)
def no_level_left_open():
    yield
    assert fwAD._current is None and not modes.state.active


# --- the op table ------------------------------------------------------------------------------


@pytest.mark.parametrize(("row", "shapes"), cases(RULE_ROWS))
def test_dual_tangents_equal_func_jvp(row, shapes):
    arrays = row.sample(shapes)
    vs = tangents_for(arrays)
    _, want = mg.func.jvp(
        lambda *a: row.fn(mg, *a),
        tuple(mg.tensor(a) for a in arrays),
        tuple(mg.tensor(v) for v in vs),
    )
    with fwAD.dual_level():
        duals = [fwAD.make_dual(mg.tensor(a), mg.tensor(v)) for a, v in zip(arrays, vs)]
        outs = as_tuple(row.fn(mg, *duals))
        got = [fwAD.unpack_dual(o).tangent for o in outs]
    for o, g, w in zip(outs, got, as_tuple(want)):
        if not o.dtype.is_floating_point:
            assert g is None  # comparisons, indices: no tangent, as in PyTorch
            continue
        expected = w.detach().numpy()
        if g is None:  # an output that does not depend on the inputs
            assert not expected.any()
            continue
        assert g.shape == o.shape and g.dtype is o.dtype
        np.testing.assert_allclose(g.detach().numpy(), expected, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize(("row", "shapes"), cases(RULE_ROWS))
def test_gradcheck_forward_ad_on_every_rule(row, shapes):
    """Jacobian columns by dual tensors vs central differences, and each input without a
    tangent vs with a zero one (rules with some tangents None)."""
    xs = [mg.tensor(a, requires_grad=True) for a in row.sample(shapes)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert mg.autograd.gradcheck(
            lambda *a: row.fn(mg, *a), xs, check_forward_ad=True, check_backward_ad=False, **TOL
        )


@pytest.mark.parametrize(("row", "shapes"), cases([r for r in ROWS if r.name in NO_RULE]))
def test_ops_without_a_rule_raise_naming_the_op(row, shapes):
    arrays = row.sample(shapes)
    with pytest.raises(NotImplementedError, match=f"{NO_RULE[row.name]} has no jvp rule"):
        with fwAD.dual_level():
            row.fn(mg, *[fwAD.make_dual(mg.tensor(a), mg.ones_like(mg.tensor(a))) for a in arrays])


# --- the doc example and the level's life cycle ------------------------------------------------


def test_square_tangent_and_exit_drops_it():
    x = mg.tensor([1.0, 2.0, 3.0])
    with fwAD.dual_level() as level:
        assert level == 0
        d = fwAD.make_dual(x, mg.ones(3))
        y = d**2
        primal, tangent = fwAD.unpack_dual(y)
        np.testing.assert_allclose(tangent.numpy(), [2.0, 4.0, 6.0])
        np.testing.assert_allclose(primal.numpy(), [1.0, 4.0, 9.0])
        assert fwAD.unpack_dual(y, level=0).tangent is tangent
    assert fwAD.unpack_dual(y).tangent is None and fwAD.unpack_dual(d).tangent is None
    assert fwAD.unpack_dual(y).primal is y  # outside a level: the tensor itself


def test_make_dual_is_a_view_and_unpack_dual_primal_carries_no_tangent():
    x = mg.tensor([1.0, 2.0])
    v = mg.tensor([0.5, -1.0])
    with fwAD.dual_level():
        d = fwAD.make_dual(x, v)
        assert d is not x and d._base is x and np.shares_memory(d._data, x._data)
        assert fwAD.unpack_dual(x).tangent is None  # x itself stays plain
        u = fwAD.unpack_dual(d)
        assert isinstance(u, fwAD.UnpackedDualTensor) and u._fields == ("primal", "tangent")
        assert u.tangent is v and u.primal is not d
        assert fwAD.unpack_dual(u.primal * 2).tangent is None
        assert fwAD.unpack_dual(d.detach()).tangent is None  # detach drops it, as in PyTorch
        mixed = d * mg.tensor([3.0, 4.0])  # one dual input, one plain
        np.testing.assert_allclose(fwAD.unpack_dual(mixed).tangent.numpy(), [1.5, -4.0])


def test_enter_and_exit_functions_and_decorator():
    x = mg.tensor([1.0, 2.0])
    assert fwAD.enter_dual_level() == 0
    t = fwAD.unpack_dual(fwAD.make_dual(x, mg.ones(2)).exp()).tangent
    np.testing.assert_allclose(t.numpy(), np.exp([1.0, 2.0]), rtol=1e-6)
    fwAD.exit_dual_level(level=0)
    assert fwAD.enter_dual_level() == 0  # levels are numbered again from 0
    fwAD.exit_dual_level()

    @fwAD.dual_level()
    def tangent_of_sin(a):
        return fwAD.unpack_dual(fwAD.make_dual(a, mg.ones_like(a)).sin()).tangent

    np.testing.assert_allclose(tangent_of_sin(x).numpy(), np.cos([1.0, 2.0]), rtol=1e-6)


def test_an_exception_inside_the_level_exits_it():
    with pytest.raises(KeyError):
        with fwAD.dual_level():
            fwAD.make_dual(mg.tensor([1.0]), mg.tensor([1.0])).exp()
            raise KeyError("inside")
    with pytest.raises(RuntimeError, match="no level exists"):
        fwAD.make_dual(mg.tensor([1.0]), mg.tensor([1.0]))


def test_tangents_live_as_long_as_their_primals():
    with fwAD.dual_level():
        level = fwAD._current
        d = fwAD.make_dual(mg.tensor([1.0, 2.0]), mg.ones(2))
        for _ in range(50):
            d = (d * 1.5).sin()  # each step's output replaces the last one
        gc.collect()
        assert len(level._entries) <= 3  # not 100: dead intermediates took their tangents along
        assert fwAD.unpack_dual(d).tangent is not None


def test_exiting_frees_the_tangents_of_live_primals_at_once():
    was = gc.isenabled()
    gc.disable()  # freed by refcounting, not by a later cyclic collection
    try:
        with fwAD.dual_level():
            y = fwAD.make_dual(mg.tensor([1.0, 2.0]), mg.ones(2)).exp()
            tangent = weakref.ref(fwAD.unpack_dual(y).tangent)
            assert tangent() is not None
        assert tangent() is None and y is not None
    finally:
        if was:
            gc.enable()


def test_no_grad_does_not_stop_tangents():
    with fwAD.dual_level(), mg.no_grad():
        t = fwAD.unpack_dual(fwAD.make_dual(mg.tensor([0.0]), mg.tensor([2.0])).exp()).tangent
    np.testing.assert_allclose(t.numpy(), [2.0])


# --- with reverse mode -------------------------------------------------------------------------


def test_backward_through_dual_ops_and_gradient_of_the_tangent():
    x = mg.tensor([1.0, 2.0], dtype=mg.float64, requires_grad=True)
    v = mg.tensor([1.0, 0.5], dtype=mg.float64, requires_grad=True)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, v)
        assert d.grad_fn.name() == "ViewBackward0"
        y = (d**3).sum()
        tangent = fwAD.unpack_dual(y).tangent  # 3 x**2 . v
        np.testing.assert_allclose(tangent.item(), 3 * 1.0 + 3 * 4.0 * 0.5)
        y.backward(retain_graph=True)
        np.testing.assert_allclose(x.grad.numpy(), [3.0, 12.0])
        gx, gv = mg.autograd.grad(tangent, (x, v))  # d(3 x**2 v)/dx = 6 x v, /dv = 3 x**2
    np.testing.assert_allclose(gx.numpy(), [6.0, 6.0])
    np.testing.assert_allclose(gv.numpy(), [3.0, 12.0])


def test_forward_over_reverse_inside_a_dual_level():
    """The backward pass's ops carry tangents: J of the gradient = the Hessian times v."""
    x = mg.tensor([0.5, -1.0], dtype=mg.float64, requires_grad=True)
    v = mg.tensor([1.0, 2.0], dtype=mg.float64)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, v)
        (g,) = mg.autograd.grad((d.sin() * d**2).sum(), d, create_graph=True)
        hv = fwAD.unpack_dual(g).tangent
    xs = x.detach().numpy()
    d2 = -np.sin(xs) * xs**2 + 4 * xs * np.cos(xs) + 2 * np.sin(xs)
    np.testing.assert_allclose(hv.detach().numpy(), d2 * v.numpy(), rtol=1e-10)


# --- errors ------------------------------------------------------------------------------------


def test_make_dual_outside_a_level():
    with pytest.raises(RuntimeError, match="no level exists, make sure to enter_dual_level"):
        fwAD.make_dual(mg.tensor([1.0]), mg.tensor([1.0]))
    u = fwAD.unpack_dual(mg.tensor([1.0]))
    assert u.tangent is None


def test_nesting_is_refused_as_in_pytorch():
    x, v = mg.tensor([1.0]), mg.tensor([1.0])
    with fwAD.dual_level():
        with pytest.raises(RuntimeError, match="Nested forward mode AD is not supported"):
            fwAD.enter_dual_level()
        with pytest.raises(RuntimeError, match="Nested forward mode AD is not supported"):
            mg.func.jvp(lambda a: a * 2, (x,), (v,))
        d = fwAD.make_dual(x, v)  # the level still works after the refusals
        assert fwAD.unpack_dual(d * 3).tangent.item() == 3.0

    def opens_a_level(a):
        with fwAD.dual_level():
            return a

    with pytest.raises(RuntimeError, match="Nested forward mode AD is not supported"):
        mg.func.jvp(opens_a_level, (x,), (v,))


def test_exit_errors():
    with pytest.raises(RuntimeError, match="Dual level must be a positive number"):
        fwAD.exit_dual_level()
    with pytest.raises(RuntimeError, match="not the last one that was created"):
        fwAD.exit_dual_level(level=0)
    with fwAD.dual_level():
        with pytest.raises(RuntimeError, match="not the last one that was created"):
            fwAD.exit_dual_level(level=3)


@pytest.mark.parametrize(
    ("primal", "tangent", "error", "match"),
    [
        ([1.0, 2.0], [1.0, 2.0, 3.0], RuntimeError, r"Tensor is of size \[2\] while .* size \[3\]"),
        ([1.0, 2.0], [1.0], RuntimeError, r"different size"),  # no broadcasting
        ([1, 2], [1.0, 2.0], ValueError, "Expected primal to be floating point"),
        ([1.0, 2.0], [1, 2], ValueError, "Expected tangent to be floating point"),
    ],
)
def test_make_dual_bad_pairs(primal, tangent, error, match):
    with fwAD.dual_level():
        with pytest.raises(error, match=match):
            fwAD.make_dual(mg.tensor(primal), mg.tensor(tangent))


def test_make_dual_keeps_a_tangent_of_another_dtype_as_pytorch():
    """PyTorch's forward-mode tutorial pairs a float64 primal with a float32 tangent: the
    tangent stays float32, and an op's tangent promotes as its value does."""
    primal = mg.tensor([0.5, 2.0], dtype=mg.float64)
    tangent = mg.tensor([1.0, -1.0])
    with fwAD.dual_level():
        dual = fwAD.make_dual(primal, tangent)
        assert fwAD.unpack_dual(dual).tangent.dtype is mg.float32
        out = fwAD.unpack_dual((dual * dual.sin()).sum())
    assert out.tangent.dtype is mg.float64
    expected = (np.sin([0.5, 2.0]) + np.array([0.5, 2.0]) * np.cos([0.5, 2.0])) @ np.array(
        [1.0, -1.0]
    )
    np.testing.assert_allclose(out.tangent.item(), expected, rtol=1e-6)


def test_make_dual_and_unpack_dual_argument_errors():
    x = mg.tensor([1.0])
    with fwAD.dual_level():
        with pytest.raises(TypeError, match="argument 'tensor' must be Tensor, not list"):
            fwAD.make_dual([1.0], x)
        with pytest.raises(TypeError, match="argument 'tangent' must be Tensor, not float"):
            fwAD.make_dual(x, 1.0)
        with pytest.raises(TypeError, match="unpack_dual.*must be Tensor, not float"):
            fwAD.unpack_dual(3.0)
        with pytest.raises(RuntimeError, match="invalid level 1"):
            fwAD.make_dual(x, x, level=1)
        with pytest.raises(RuntimeError, match="invalid level 1"):
            fwAD.unpack_dual(x, level=1)
        d = fwAD.make_dual(x, x)
        with pytest.raises(
            RuntimeError, match="already has a forward gradient at the same level 0"
        ):
            fwAD.make_dual(d, x)
        s = mg.tensor([[1.0, 0.0]]).to_sparse()
        with pytest.raises(NotImplementedError, match="sparse"):
            fwAD.make_dual(s, s)
        assert fwAD.unpack_dual(s).tangent is None


def test_in_place_write_on_a_dual_tensor_is_a_clear_error():
    with fwAD.dual_level():
        d = fwAD.make_dual(mg.tensor([1.0, 2.0]), mg.ones(2))
        y = d * 2
        y.add_(1.0)
        with pytest.raises(NotImplementedError, match="modified in place"):
            fwAD.unpack_dual(y)
