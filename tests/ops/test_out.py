"""``out=`` on module functions, as PyTorch's "Learn the Basics" uses it
(``torch.matmul(tensor, tensor.T, out=y3)``, ``torch.mul(tensor, tensor, out=z3)``)."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg


def test_out_receives_the_result_and_is_returned():
    a = mg.arange(6.0).view(2, 3)
    y = mg.rand(2, 2)
    before = y._version
    r = mg.matmul(a, a.T, out=y)
    assert r is y
    assert y.tolist() == (a @ a.T).tolist()
    assert y._version > before and y.grad_fn is None
    z = mg.empty(2, 3)
    alias = z.view(6)
    mg.mul(a, a, out=z)
    assert alias.tolist() == (a * a).view(6).tolist()  # written into z's memory


@pytest.mark.parametrize(
    "call",
    [
        lambda out: mg.add(mg.ones(3), 2, out=out),
        lambda out: mg.sub(mg.ones(3), mg.ones(3), out=out),
        lambda out: mg.div(mg.ones(3), 4, out=out),
        lambda out: mg.exp(mg.zeros(3), out=out),
        lambda out: mg.clamp(mg.arange(3.0), 0.5, 1.5, out=out),
        lambda out: mg.cat([mg.ones(1), mg.zeros(2)], out=out),
        lambda out: mg.sum(mg.ones(2, 3), 0, out=out),
    ],
)
def test_out_on_other_functions_equals_the_plain_call(call):
    out = mg.empty(3)
    expected = call(None)
    assert call(out) is out and out.tolist() == expected.tolist()


def test_out_keeps_its_dtype_and_refuses_a_narrowing_cast():
    out = mg.empty(3, dtype=mg.float64)
    mg.mul(mg.ones(3), 2.0, out=out)
    assert out.dtype is mg.float64 and out.tolist() == [2.0, 2.0, 2.0]
    with pytest.raises(
        RuntimeError, match="result type Float can't be cast to the desired output type Long"
    ):
        mg.mul(mg.ones(3), 2.0, out=mg.empty(3, dtype=mg.int64))


def test_out_of_another_shape_is_resized_with_pytorchs_warning():
    out = mg.empty(2)
    with pytest.warns(UserWarning, match=r"resized since it had shape \[2\].*shape \[3\]"):
        mg.mul(mg.ones(3), 3.0, out=out)
    assert out.shape == (3,) and out.tolist() == [3.0, 3.0, 3.0]
    empty = mg.empty(0)
    mg.add(mg.ones(2), 1, out=empty)  # an empty out is resized silently
    assert empty.tolist() == [2.0, 2.0]


def test_out_is_outside_autograd():
    x = mg.ones(3, requires_grad=True)
    with pytest.raises(
        RuntimeError, match=r"mul\(\): functions with out=\.\.\. arguments don't support"
    ):
        mg.mul(x, x, out=mg.empty(3))
    with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
        mg.cat([x, x], out=mg.empty(6))
    with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
        mg.mul(mg.ones(3), 2, out=mg.empty(3, requires_grad=True))
    with mg.no_grad():
        out = mg.mul(x, x, out=mg.empty(3))
    assert out.tolist() == [1.0, 1.0, 1.0] and not out.requires_grad


def test_out_must_be_a_tensor():
    with pytest.raises(TypeError, match=r"mul\(\): argument 'out' must be Tensor, not list"):
        mg.mul(mg.ones(3), 2, out=[0, 0, 0])
    with pytest.raises(TypeError, match="must be Tensor, not ndarray"):
        mg.matmul(mg.ones(2, 2), mg.ones(2, 2), out=np.zeros((2, 2), np.float32))


@pytest.mark.oracle
def test_out_matches_torch():
    torch = pytest.importorskip("torch")
    for lib in (mg, torch):
        t = lib.ones(4, 4)
        t[:, 1] = 0
        y3, z3 = lib.rand_like(t), lib.rand_like(t)
        lib.matmul(t, t.T, out=y3)
        lib.mul(t, t, out=z3)
        wide = lib.zeros(4, 4, dtype=lib.float64)
        lib.add(t, 0.5, out=wide)
        if lib is mg:
            ours = (y3.tolist(), z3.tolist(), wide.tolist(), wide.dtype.name)
        else:
            assert ours == (y3.tolist(), z3.tolist(), wide.tolist(), "float64")
