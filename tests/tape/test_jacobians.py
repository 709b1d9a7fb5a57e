"""``GradientTape.jacobian`` and ``batch_jacobian``: central differences, ``mg.func.jacrev``,
TensorFlow's examples, unconnected sources, and their errors."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad.tape import GradientTape

EPS = 1e-6


def t64(a, requires_grad=False):
    return mg.tensor(np.asarray(a, dtype=np.float64), requires_grad=requires_grad)


def fd_jacobian(f, x: np.ndarray) -> np.ndarray:
    """Central differences: shape f(x).shape + x.shape."""
    out = np.asarray(f(t64(x)).numpy())
    jac = np.zeros(out.shape + x.shape)
    for idx in np.ndindex(*x.shape):
        up, down = x.copy(), x.copy()
        up[idx] += EPS
        down[idx] -= EPS
        jac[(...,) + idx] = (f(t64(up)).numpy() - f(t64(down)).numpy()) / (2 * EPS)
    return jac


FUNCTIONS = [
    ("square", lambda x: x * x),
    ("outer", lambda x: x.reshape(3, 1) * x.reshape(1, 3).sin()),
    ("softmax", lambda x: mg.softmax(x, dim=0)),
    ("scalar", lambda x: (x**3).sum()),
]


@pytest.mark.parametrize("name,f", FUNCTIONS)
def test_jacobian_matches_central_differences_and_jacrev(name, f):
    x0 = np.array([0.4, -1.3, 0.9])
    x = t64(x0)
    with GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    jac = tape.jacobian(y, x)
    assert jac.shape == tuple(y.shape) + (3,)
    np.testing.assert_allclose(jac.numpy(), fd_jacobian(f, x0), atol=1e-5, rtol=1e-3)
    np.testing.assert_allclose(jac.numpy(), mg.func.jacrev(f)(x).numpy(), rtol=1e-12)


def test_tensorflows_examples():
    x = mg.tensor([1.0, 2.0])
    with GradientTape() as g:
        g.watch(x)
        y = x * x
    assert g.jacobian(y, x).numpy().tolist() == [[2.0, 0.0], [0.0, 4.0]]
    x = mg.tensor([[1.0, 2.0], [3.0, 4.0]])
    with GradientTape() as g:
        g.watch(x)
        y = x * x
    expected = [[[2, 0], [0, 4]], [[6, 0], [0, 8]]]
    assert g.batch_jacobian(y, x).numpy().tolist() == expected


def test_jacobian_of_several_sources_keeps_their_structure_and_unconnected_ones():
    a, b, c = t64([1.0, 2.0]), t64([[3.0]]), t64(0.0)
    with GradientTape(persistent=True) as tape:
        tape.watch([a, b, c])
        y = a * b.sum()
    jac = tape.jacobian(y, {"a": a, "b": b, "c": c})
    assert jac["a"].numpy().tolist() == [[3.0, 0.0], [0.0, 3.0]]
    assert jac["b"].shape == (2, 1, 1) and jac["b"].numpy().ravel().tolist() == [1.0, 2.0]
    assert jac["c"] is None
    zeros = tape.jacobian(y, c, unconnected_gradients="zero")
    assert zeros.shape == (2,) and not zeros.numpy().any()
    assert tape.jacobian(y, c, experimental_use_pfor=False, parallel_iterations=4) is None


def test_batch_jacobian_matches_per_example_jacobians():
    rng = np.random.default_rng(0)
    x = t64(rng.standard_normal((4, 3)))
    w = t64(rng.standard_normal((3, 2)))
    with GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = (x @ w).tanh()  # row i depends on row i only
    batch = tape.batch_jacobian(y, x)
    assert batch.shape == (4, 2, 3)
    full = tape.jacobian(y, x).numpy()  # (4, 2, 4, 3)
    for i in range(4):
        np.testing.assert_allclose(batch.numpy()[i], full[i, :, i, :], rtol=1e-12)
    other = t64(np.ones((4, 5)))
    unconnected = tape.batch_jacobian(y, other)  # zeros, not None, as in TensorFlow
    assert unconnected.shape == (4, 2, 5) and not unconnected.numpy().any()


def test_jacobian_inside_an_outer_tape_is_recorded():
    x = t64([0.5, 1.5])
    with GradientTape() as outer:
        outer.watch(x)
        with GradientTape() as inner:
            inner.watch(x)
            y = x**3
        jac = inner.jacobian(y, x)  # diag(3x^2)
        trace = jac.sum()
    np.testing.assert_allclose(outer.gradient(trace, x).numpy(), 6 * x.numpy())


def test_an_empty_target_gives_an_empty_jacobian():
    x = t64([1.0, 2.0])
    with GradientTape() as tape:
        tape.watch(x)
        y = x[:0] * 2
    assert tape.jacobian(y, x).shape == (0, 2)


def test_jacobian_errors():
    x = t64([1.0, 2.0])
    with GradientTape() as tape:
        tape.watch(x)
        y = x * x
    loop = "must be created with persistent=True to compute the jacobian"
    with pytest.raises(RuntimeError, match=loop):
        tape.jacobian(y, x, experimental_use_pfor=False)
    with pytest.raises(RuntimeError, match="compute the batch_jacobian"):
        tape.batch_jacobian(y, x, experimental_use_pfor=False)
    with pytest.raises(TypeError, match=r"GradientTape.jacobian: target is \[.*\(a list\)"):
        tape.jacobian([y], x)
    with pytest.raises(TypeError, match=r"sources\[1\] is 'x' \(a str\), not a Tensor"):
        tape.jacobian(y, [x, "x"])
    with pytest.raises(ValueError, match="Unknown value for unconnected_gradients: 'zeros'"):
        tape.jacobian(y, x, unconnected_gradients="zeros")
    with pytest.raises(ValueError, match=r"Need first dimension of target shape \(2,\)"):
        tape.batch_jacobian(y, x)
    xb = t64(np.ones((2, 3)))
    with pytest.raises(ValueError, match="rank 2 or more with the same first"):
        tape.batch_jacobian(t64(np.ones((3, 3))), xb)
    with pytest.raises(TypeError, match="batch_jacobian: source is None"):
        tape.batch_jacobian(xb, None)
    assert tape.jacobian(y, x).shape == (2, 2)  # the errors did not use the tape up
