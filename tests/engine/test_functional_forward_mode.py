"""``autograd.functional.jacobian(vectorize=True, strategy="forward-mode")`` and
``hessian(vectorize=True, outer_jacobian_strategy="forward-mode")`` (forward over reverse)
against PyTorch: values, shapes, and the containers PyTorch answers with."""

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

FWD = {"vectorize": True, "strategy": "forward-mode"}
HFWD = {"vectorize": True, "outer_jacobian_strategy": "forward-mode"}
CASES = {
    "vector to vector": lambda L, x, y: L.autograd.functional.jacobian(
        lambda a: a.sin() * a, x, **FWD
    ),
    "matrix to scalar": lambda L, x, y: L.autograd.functional.jacobian(
        lambda a: (a.reshape(2, 2) @ a.reshape(2, 2)).sum(), x, **FWD
    ),
    "two inputs": lambda L, x, y: L.autograd.functional.jacobian(
        lambda a, b: a * b[:4].exp(), (x, y), **FWD
    ),
    "two inputs, two outputs": lambda L, x, y: L.autograd.functional.jacobian(
        lambda a, b: (a * b.sum(), a.sum() * b), (x, y), **FWD
    ),
    "one input, two outputs": lambda L, x, y: L.autograd.functional.jacobian(
        lambda a: (a.tanh(), a.cumsum(0)), x, **FWD
    ),
    "an output independent of the input": lambda L, x, y: L.autograd.functional.jacobian(
        lambda a: L.ones(3, dtype=a.dtype), x, **FWD
    ),
    "empty input": lambda L, x, y: L.autograd.functional.jacobian(lambda a: a * 2, x[:0], **FWD),
    "hessian": lambda L, x, y: L.autograd.functional.hessian(
        lambda a: (a**3).sum() + (a[0] * a[1]).sin(), x, **HFWD
    ),
    "hessian of two inputs": lambda L, x, y: L.autograd.functional.hessian(
        lambda a, b: (a**2).sum() * b.sum(), (x, y), **HFWD
    ),
}


def _flat(out):
    if isinstance(out, (list, tuple)):
        return type(out).__name__, [_flat(o) for o in out]
    return tuple(out.shape), np.asarray(out.detach().tolist())


def _same(a, b):
    if isinstance(a, tuple) and isinstance(a[0], str):
        assert a[0] == b[0] and len(a[1]) == len(b[1])
        for x, y in zip(a[1], b[1]):
            _same(x, y)
    else:
        assert a[0] == b[0]
        np.testing.assert_allclose(a[1], b[1], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", list(CASES))
def test_forward_mode_as_pytorch(name):
    got, want = (
        _flat(
            CASES[name](
                L,
                L.tensor([0.5, -1.0, 2.0, 0.25], dtype=L.float64),
                L.tensor([1.5, 0.5, -0.5, 1.0, 2.0], dtype=L.float64),
            )
        )
        for L in (mg, torch)
    )
    _same(got, want)


def test_forward_and_reverse_mode_agree():
    x = mg.tensor([0.5, -1.0, 2.0], dtype=mg.float64)
    fwd = mg.autograd.functional.jacobian(lambda a: a.exp() * a.sum(), x, **FWD)
    rev = mg.autograd.functional.jacobian(lambda a: a.exp() * a.sum(), x)
    np.testing.assert_allclose(fwd.numpy(), rev.numpy(), rtol=1e-13)


def test_strict_forward_mode_is_refused_as_pytorch():
    for L in (mg, torch):
        with pytest.raises(RuntimeError, match="not supported together"):
            L.autograd.functional.hessian(lambda a: a.sum(), L.ones(2), strict=True, **HFWD)
