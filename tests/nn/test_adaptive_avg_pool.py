"""``F.adaptive_avg_pool2d`` and ``nn.AdaptiveAvgPool2d`` against PyTorch 2.13: values and
gradients for even, uneven and overlapping windows, 3-D and 4-D input, None and int output
sizes; the errors of bad input. Needs torch."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

CASES = [
    ((2, 3, 6, 8), (2, 4)),  # even windows
    ((2, 3, 5, 7), (2, 3)),  # uneven, overlapping windows
    ((3, 5, 7), 1),  # 3-D input, global average
    ((1, 2, 4, 4), (None, 2)),  # None keeps the height
    ((2, 1, 3, 3), (5, 4)),  # more outputs than inputs: windows repeat
    ((1, 1, 4, 6), 4),
]


@pytest.mark.parametrize(("shape", "size"), CASES, ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_values_and_gradients_are_pytorchs(shape, size, dtype):
    rng = np.random.default_rng(0)
    a, w = rng.standard_normal(shape).astype(dtype), None
    xs = [lib.tensor(a, requires_grad=True) for lib in (mg, torch)]
    ys = [
        mg.nn.functional.adaptive_avg_pool2d(xs[0], size),
        torch.nn.AdaptiveAvgPool2d(size)(xs[1]),
    ]
    assert tuple(ys[0].shape) == tuple(ys[1].shape) and ys[0].dtype.name == dtype
    tol = 1e-6 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(ys[0].detach().numpy(), ys[1].detach().numpy(), rtol=tol, atol=tol)
    w = rng.standard_normal(tuple(ys[1].shape)).astype(dtype)
    for lib, y in zip((mg, torch), ys):
        (y * lib.tensor(w)).sum().backward()
    np.testing.assert_allclose(xs[0].grad.numpy(), xs[1].grad.numpy(), rtol=tol, atol=tol)


def test_the_module_prints_as_pytorchs():
    for size in (1, (None, 2), (3, 4)):
        assert repr(mg.nn.AdaptiveAvgPool2d(size)) == repr(torch.nn.AdaptiveAvgPool2d(size))


@pytest.mark.parametrize(
    ("shape", "size"), [((7,), 2), ((2, 3), 2), ((1, 2, 3, 4), (1, 2, 3))], ids=str
)
def test_bad_input_raises_runtime_error_as_pytorch(shape, size):
    for lib in (mg, torch):
        with pytest.raises(RuntimeError, match="adaptive_avg_pool2d"):
            lib.nn.functional.adaptive_avg_pool2d(lib.ones(shape), size)
