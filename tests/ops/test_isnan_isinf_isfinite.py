"""isnan / isinf / isfinite (functions and Tensor methods): values, dtypes, no graph, tracing,
and the errors, side by side with PyTorch where it has the case (``oracle``)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import minigrad as mg

inf, nan = math.inf, math.nan
NAMES = ["isnan", "isinf", "isfinite"]
NUMPY = {"isnan": np.isnan, "isinf": np.isinf, "isfinite": np.isfinite}
CASES = [
    ([1.0, nan, inf, -inf, 0.0, -2.5], mg.float32),
    ([[nan, 1e38], [-inf, 3.0]], mg.float64),
    ([6e4, nan, -inf, 1e-8], mg.float16),
    (nan, mg.float32),  # 0-d
    ([1, -2, 3], mg.int64),
    ([True, False], mg.bool),
]


def _torch():
    return pytest.importorskip("torch")


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(("values", "dtype"), CASES)
def test_matches_numpy(name, values, dtype):
    x = mg.tensor(values, dtype=dtype)
    got = getattr(mg, name)(x)
    want = NUMPY[name](np.asarray(values, dtype=dtype.np))
    assert got.dtype is mg.bool and got.shape == x.shape
    np.testing.assert_array_equal(got.numpy(), want)
    np.testing.assert_array_equal(getattr(x, name)().numpy(), want)


@pytest.mark.parametrize("name", NAMES)
def test_empty_tensor_keeps_its_shape(name):
    assert getattr(mg, name)(mg.zeros(0, 3)).shape == (0, 3)


@pytest.mark.parametrize("name", NAMES)
def test_result_has_no_graph(name):
    x = mg.tensor([1.0, nan, inf], requires_grad=True)
    out = getattr(mg, name)(x * 2.0)
    assert not out.requires_grad and out.grad_fn is None


def test_isfinite_is_not_fooled_by_autocast():
    # 1e38 is finite in float32 (it would overflow if lowered to float16 first)
    with mg.autocast(dtype=mg.float16):
        assert mg.isfinite(mg.tensor([1e38, nan])).tolist() == [True, False]
        assert mg.isinf(mg.tensor([1e38, -inf])).tolist() == [False, True]


@pytest.mark.parametrize("name", NAMES)
def test_traces_and_jits(name):
    x = mg.tensor([1.0, nan, -inf, 2.0])
    program = mg.func.make_jaxpr(getattr(mg, name))(x)
    assert program.eqns and all(e.primitive.name in ("eq", "ne", "and", "or") for e in program.eqns)
    want = NUMPY[name](x.numpy())
    np.testing.assert_array_equal(mg.func.jit(getattr(mg, name))(x).numpy(), want)


@pytest.mark.parametrize("name", NAMES)
def test_refuses_a_non_tensor(name):
    with pytest.raises(
        TypeError, match=rf"{name}\(\): argument 'input' \(position 1\) must be Tensor, not list"
    ):
        getattr(mg, name)([1.0, nan])


@pytest.mark.parametrize("name", NAMES)
def test_refuses_a_sparse_tensor_and_says_what_works(name):
    s = mg.tensor([[0.0, nan]]).to_sparse()
    with pytest.raises(
        TypeError, match=rf"{name}\(\): sparse tensors are not supported.*values\(\)"
    ):
        getattr(mg, name)(s)
    np.testing.assert_array_equal(
        getattr(mg, name)(s.to_dense()).numpy(), NUMPY[name](s.to_dense().numpy())
    )


@pytest.mark.oracle
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(("values", "dtype"), CASES)
def test_matches_torch(name, values, dtype):
    torch = _torch()
    want = getattr(torch, name)(torch.tensor(values, dtype=getattr(torch, dtype.name)))
    got = getattr(mg, name)(mg.tensor(values, dtype=dtype))
    np.testing.assert_array_equal(got.numpy(), want.numpy())


@pytest.mark.oracle
@pytest.mark.parametrize("name", NAMES)
def test_non_tensor_error_matches_torch(name):
    torch = _torch()
    with pytest.raises(TypeError) as want:
        getattr(torch, name)([1.0])
    with pytest.raises(TypeError) as got:
        getattr(mg, name)([1.0])
    assert str(got.value) == str(want.value)
