"""Nested tapes: a gradient computed while an outer tape records is recorded by it, so the
outer tape differentiates it (second and third derivatives, Hessians), checked against closed
forms, ``mg.autograd.grad(create_graph=True)`` and ``mg.func.hessian``."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad.tape import GradientTape


def t64(a, requires_grad=False):
    return mg.tensor(np.asarray(a, dtype=np.float64), requires_grad=requires_grad)


def test_second_derivative_of_x_cubed():
    x = t64(2.0)
    with GradientTape() as outer:
        outer.watch(x)
        with GradientTape() as inner:
            inner.watch(x)
            y = x**3
        dy_dx = inner.gradient(y, x)  # 3x^2, recorded by the outer tape
    d2y_dx2 = outer.gradient(dy_dx, x)
    assert dy_dx.item() == 12.0 and d2y_dx2.item() == 12.0  # 6x
    assert d2y_dx2.grad_fn is None  # nothing records around the outer tape


def test_tensorflows_nested_example_and_a_third_derivative():
    x = mg.tensor(5.0)
    with GradientTape() as g:
        g.watch(x)
        with GradientTape() as gg:
            gg.watch(x)
            y = x * x
        dy_dx = gg.gradient(y, x)
    assert (dy_dx.item(), g.gradient(dy_dx, x).item()) == (10.0, 2.0)
    x = t64(1.5)
    with GradientTape() as t3:
        t3.watch(x)
        with GradientTape() as t2:
            t2.watch(x)
            with GradientTape() as t1:
                t1.watch(x)
                y = x**4
            d1 = t1.gradient(y, x)
        d2 = t2.gradient(d1, x)
    d3 = t3.gradient(d2, x)
    assert [d1.item(), d2.item(), d3.item()] == pytest.approx([4 * 1.5**3, 12 * 1.5**2, 24 * 1.5])


def test_nested_tapes_match_autograd_grad_with_create_graph():
    w = t64([0.3, -0.7, 1.1], requires_grad=True)

    def f(v):
        return (v.sin() * v.exp()).sum() + (v**2).sum() ** 1.5

    with GradientTape() as outer:
        with GradientTape() as inner:
            y = f(w)
        g = inner.gradient(y, w)
        s = (g * g).sum()
    gg = outer.gradient(s, w)
    (g_ref,) = mg.autograd.grad(f(w), w, create_graph=True)
    (gg_ref,) = mg.autograd.grad((g_ref * g_ref).sum(), w)
    np.testing.assert_allclose(g.detach().numpy(), g_ref.detach().numpy(), rtol=1e-12)
    np.testing.assert_allclose(gg.numpy(), gg_ref.numpy(), rtol=1e-12)
    assert w.grad is None


def test_a_hessian_from_a_jacobian_of_a_gradient():
    x = t64([0.5, -1.0, 2.0])

    def f(v):
        return (v[0] * v[1] ** 2 + v[2].sin() * v[0]).sum()

    with GradientTape() as outer:
        outer.watch(x)
        with GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
    hessian = outer.jacobian(g, x)
    np.testing.assert_allclose(hessian.numpy(), mg.func.hessian(f)(x).numpy(), rtol=1e-12)


def test_an_inner_gradient_computed_outside_the_outer_tape_is_a_constant_to_it():
    x = t64(2.0)
    with GradientTape() as outer:
        outer.watch(x)
        with GradientTape() as inner:
            inner.watch(x)
            y = x**3
    dy_dx = inner.gradient(y, x)  # no tape records now: not recorded
    assert dy_dx.grad_fn is None
    assert outer.gradient(dy_dx, x) is None


def test_both_tapes_differentiate_the_ops_they_recorded():
    x = t64(3.0)
    with GradientTape() as outer:
        outer.watch(x)
        a = x * 2  # only the outer tape records this
        with GradientTape() as inner:
            inner.watch(x)
            y = a * x
    assert inner.gradient(y, x).item() == 6.0  # a is a constant to the inner tape
    assert outer.gradient(y, x).item() == 12.0  # 4x


def test_a_persistent_tape_differentiates_its_own_gradient():
    x = t64(2.0)
    with GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x**3
        with pytest.warns(UserWarning):
            g = tape.gradient(y, x)
    assert tape.gradient(g, x).item() == 12.0


# --- composing with minigrad.func: a function that uses a tape, transformed ----------------
def tape_gradient_of_cube_sum(x):
    with GradientTape() as tape:
        tape.watch(x)
        y = (x**3).sum()
    return tape.gradient(y, x)  # 3x^2


@pytest.mark.parametrize("transform", ["jacrev", "jacfwd"])
def test_func_jacobians_of_a_tape_gradient(transform):
    x = t64([1.0, 2.0])
    jac = getattr(mg.func, transform)(tape_gradient_of_cube_sum)(x)
    np.testing.assert_allclose(jac.numpy(), np.diag(6 * x.numpy()))
    assert not x.requires_grad


def test_func_grad_and_jvp_of_a_tape_gradient():
    x = t64([1.0, 2.0])
    g = mg.func.grad(lambda v: tape_gradient_of_cube_sum(v).sum())(x)
    np.testing.assert_allclose(g.numpy(), 6 * x.numpy())
    primal, tangent = mg.func.jvp(tape_gradient_of_cube_sum, (x,), (t64([1.0, 0.0]),))
    np.testing.assert_allclose(primal.numpy(), 3 * x.numpy() ** 2)
    np.testing.assert_allclose(tangent.numpy(), [6.0, 0.0])


def test_a_tape_gradient_outside_any_transform_is_plain():
    g = tape_gradient_of_cube_sum(t64([1.0, 2.0]))
    assert g.grad_fn is None and not g.requires_grad
