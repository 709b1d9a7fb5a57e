"""log1p expm1 reciprocal rsqrt sinh cosh asin acos atan atan2 hypot floor ceil trunc round frac.

The op table (``op_table_rows.py``) checks values, gradients, second derivatives, forward
mode and tracing on well-behaved inputs. Here: bad input (PyTorch's exception types, our
messages), special values (0, -0, +-inf, nan, poles, halves, signed zeros) and integer
inputs side by side with PyTorch, numerical accuracy where the op exists for it (log1p,
expm1, hypot), and the autocast policy.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import minigrad as mg

UNARY = ["log1p", "expm1", "reciprocal", "rsqrt", "sinh", "cosh", "asin", "acos", "atan"]
STEPS = ["floor", "ceil", "trunc", "round"]
ALL_UNARY = UNARY + STEPS + ["frac"]


def ones(L, *shape, **kw):
    return L.ones(*shape, **kw)


def ints(L):
    return L.tensor([1, 2, 3])


def bools(L):
    return L.tensor([True, False])


def _inplace_leaf(L):
    x = L.ones(2, requires_grad=True)
    return x.floor_()


# name -> (call, minigrad's exception type, a regex its message must match)
CASES = {
    "log1p of a float": (
        lambda L: L.log1p(3.0),
        TypeError,
        r"log1p\(\): argument 'input' \(position 1\) must be Tensor, not float",
    ),
    "floor of a list": (
        lambda L: L.floor([1.5]),
        TypeError,
        r"floor\(\): argument 'input' \(position 1\) must be Tensor, not list",
    ),
    "atan2 with a number": (
        lambda L: L.atan2(ones(L, 2), 2.0),
        TypeError,
        r"atan2\(\): argument 'other' \(position 2\) must be Tensor, not float",
    ),
    "atan2 of a number": (
        lambda L: L.atan2(2.0, ones(L, 2)),
        TypeError,
        r"atan2\(\): argument 'input' \(position 1\) must be Tensor, not float",
    ),
    "Tensor.atan2 with a number": (
        lambda L: ones(L, 2).atan2(2),
        TypeError,
        r"atan2\(\): argument 'other' \(position 1\) must be Tensor, not int",
    ),
    "hypot with a number": (
        lambda L: L.hypot(ones(L, 2), 2.0),
        TypeError,
        r"hypot\(\): argument 'other' \(position 2\) must be Tensor, not float",
    ),
    "Tensor.hypot with a number": (
        lambda L: ones(L, 2).hypot(2.0),
        TypeError,
        r"hypot\(\): argument 'other' \(position 1\) must be Tensor, not float",
    ),
    "atan2 shapes": (
        lambda L: L.atan2(ones(L, 2), ones(L, 3)),
        RuntimeError,
        r"size of tensor a \(2\) must match the size of tensor b \(3\) at non-singleton dimension 0",
    ),
    "hypot shapes": (
        lambda L: ones(L, 2, 3).hypot(ones(L, 2, 2)),
        RuntimeError,
        r"size of tensor a \(3\) must match the size of tensor b \(2\) at non-singleton dimension 1",
    ),
    "hypot of integers": (
        lambda L: L.hypot(ints(L), ints(L)),
        NotImplementedError,
        r"hypot: not implemented for dtype minigrad.int64 .*accepts floating point tensors",
    ),
    "hypot of bools": (
        lambda L: L.hypot(bools(L), bools(L)),
        NotImplementedError,
        r"hypot: not implemented for dtype minigrad.bool",
    ),
    "round(decimals=0) of integers": (
        lambda L: ints(L).round(decimals=0),
        NotImplementedError,
        r"round: not implemented for dtype minigrad.int64 .*accepts floating point tensors",
    ),
    "round(decimals=1) of integers": (
        lambda L: L.round(ints(L), decimals=1),
        NotImplementedError,
        r"round: not implemented for dtype minigrad.int64",
    ),
    "frac of integers": (
        lambda L: ints(L).frac(),
        NotImplementedError,
        r"frac: not implemented for dtype minigrad.int64",
    ),
    "frac of bools": (
        lambda L: bools(L).frac(),
        NotImplementedError,
        "frac: .* dtype minigrad.bool",
    ),
    "round of bools": (
        lambda L: bools(L).round(),
        NotImplementedError,
        "round: .* dtype minigrad.bool",
    ),
    **{
        f"{name} of bools": (
            lambda L, n=name: getattr(bools(L), n)(),
            NotImplementedError,
            rf"{name}: not implemented for dtype minigrad.bool .*accepts floating point or integer tensors",
        )
        for name in ("floor", "ceil", "trunc")
    },
    "round(decimals=1.5)": (
        lambda L: ones(L, 2).round(decimals=1.5),
        TypeError,
        r"round\(\): argument 'decimals' must be an int, not float",
    ),
    "round(decimals='1')": (
        lambda L: L.round(ones(L, 2), decimals="1"),
        TypeError,
        r"argument 'decimals' must be an int, not str",
    ),
    "round(decimals=None)": (
        lambda L: ones(L, 2).round(decimals=None),
        TypeError,
        r"argument 'decimals' must be an int, not NoneType",
    ),
    "round(decimals=True)": (
        lambda L: ones(L, 2).round(decimals=True),
        TypeError,
        r"argument 'decimals' must be an int, not bool",
    ),
    "round(1): decimals is keyword-only": (
        lambda L: ones(L, 2).round(1),
        TypeError,
        "positional argument",
    ),
    "log1p_ of an int tensor": (
        lambda L: ints(L).log1p_(),
        RuntimeError,
        r"log1p_: result type minigrad.float32 can't be cast to the desired output type minigrad.int64",
    ),
    "atan2_ of an int tensor": (
        lambda L: ints(L).atan2_(ints(L)),
        RuntimeError,
        r"atan2_: result type minigrad.float32 can't be cast to the desired output type minigrad.int64",
    ),
    "floor_ of a leaf that requires grad": (
        _inplace_leaf,
        RuntimeError,
        "a leaf Variable that requires grad is being used in an in-place operation",
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_bad_input_gets_a_clear_error_of_the_right_type(name):
    call, kind, pattern = CASES[name]
    with pytest.raises(Exception) as info:
        call(mg)
    assert type(info.value) is kind, f"{name}: {type(info.value).__name__}: {info.value}"
    assert re.search(pattern, str(info.value)), f"{name}: {info.value}"


@pytest.mark.oracle
@pytest.mark.parametrize("name", CASES)
def test_error_types_match_torch(name):
    torch = pytest.importorskip("torch")
    call, kind, _ = CASES[name]
    with pytest.raises(Exception) as theirs:
        call(torch)
    assert issubclass(kind, type(theirs.value)), f"PyTorch: {type(theirs.value).__name__}"


@pytest.mark.parametrize("name", ALL_UNARY + ["atan2", "hypot", "square"])
def test_sparse_input_is_refused_with_the_sparse_message(name):
    """PyTorch has sparse kernels for some of these; minigrad has none yet, and says so."""
    s = mg.tensor([[0.0, 1.5], [2.5, 0.0]]).to_sparse()
    args = (s, s) if name in ("atan2", "hypot") else (s,)
    with pytest.raises(NotImplementedError, match=f"{name} has no sparse kernel .*to_dense"):
        getattr(mg, name)(*args)
    with pytest.raises(NotImplementedError, match=f"{name} has no sparse kernel"):
        getattr(s, name)(*args[1:])


# --- special values, side by side with PyTorch ------------------------------------------------

SPECIAL = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.7, -0.3]
SPECIAL += [1e-10, -1e-10, 1e-30, 20.0, -20.0, 1000.0, -1000.0, np.inf, -np.inf, np.nan]


def _both(torch, name, values, dtype, **kw):
    """(ours, theirs): values and gradients of ``name`` at ``values`` (gradient of the sum).

    Our forward must not warn (poles, overflow, nan in); the backward may, where its
    arithmetic overflows as numpy's does (reciprocal's -g*out**2 at 1e-30 in float32)."""
    out = []
    for L in (mg, torch):
        x = L.tensor(values, dtype=getattr(L, dtype), requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            y = getattr(x, name)(**kw)
        with np.errstate(all="ignore"):
            y.backward(L.ones_like(y))
        out.append((y.detach().numpy(), x.grad.numpy()))
    return out


def _same(a, b, dtype):
    assert a.dtype == b.dtype
    tol = {"float64": 1e-14, "float32": 1e-6}[dtype]
    np.testing.assert_allclose(a, b, rtol=tol, atol=0, equal_nan=True)
    np.testing.assert_array_equal(np.signbit(a[a == 0]), np.signbit(b[b == 0]))  # signed zeros


@pytest.mark.oracle
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", ALL_UNARY)
def test_special_values_and_their_gradients_match_torch_without_warnings(name, dtype):
    torch = pytest.importorskip("torch")
    (ya, ga), (yb, gb) = _both(torch, name, SPECIAL, dtype)
    _same(ya, yb, dtype)
    _same(ga, gb, dtype)


@pytest.mark.oracle
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("decimals", [0, 1, 2, 3, -1, -2, 5, 40, -40])
def test_round_decimals_matches_torch_bit_for_bit(decimals, dtype):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(decimals + 50)
    values = np.concatenate([rng.uniform(-300, 300, 200), [0.125, 0.25, -2.5, 1.005, 1e30]])
    (ya, ga), (yb, gb) = _both(torch, "round", values.tolist(), dtype, decimals=decimals)
    np.testing.assert_array_equal(ya, yb)
    np.testing.assert_array_equal(ga, gb)


@pytest.mark.oracle
@pytest.mark.parametrize("name", ALL_UNARY)
def test_integer_inputs_give_what_torch_gives(name):
    torch = pytest.importorskip("torch")
    values = [-3, -1, 0, 1, 2, 7]
    for dtype in ("int64", "int32", "uint8", "bool"):
        data = [v != 0 for v in values] if dtype == "bool" else values
        if dtype == "uint8":
            data = [abs(v) for v in values]
        got = []
        for L in (mg, torch):
            x = L.tensor(data, dtype=getattr(L, dtype))
            try:
                y = getattr(L, name)(x)
            except NotImplementedError:
                got.append(None)
                continue
            got.append((str(y.dtype).split(".")[-1], y.numpy()))
        if got[0] is None or got[1] is None:
            assert got[0] is got[1] is None, f"{name}({dtype}): only one library refused"
            continue
        assert got[0][0] == got[1][0], f"{name}({dtype}) dtype"
        np.testing.assert_allclose(got[0][1], got[1][1], rtol=1e-6, equal_nan=True)


def test_integer_input_follows_the_default_dtype_and_floor_copies():
    x = mg.tensor([1, 2])
    mg.set_default_dtype(mg.float64)
    try:
        assert x.log1p().dtype is mg.float64
        assert mg.atan2(x, x).dtype is mg.float64
    finally:
        mg.set_default_dtype(mg.float32)
    assert x.log1p().dtype is mg.float32
    y = x.floor()
    assert y.dtype is mg.int64 and y is not x
    y[0] = 5
    assert x.tolist() == [1, 2]  # a copy, not the same memory


@pytest.mark.oracle
def test_atan2_quadrants_signed_zeros_and_origin_gradient_match_torch():
    torch = pytest.importorskip("torch")
    ys = [0.0, -0.0, 0.0, -0.0, 1.0, -1.0, 1.0, -1.0, 0.0, np.inf, -np.inf, np.nan]
    xs = [0.0, 0.0, -0.0, -0.0, 1.0, 1.0, -1.0, -1.0, -2.0, np.inf, 1.0, 1.0]
    res = []
    for L in (mg, torch):
        y = L.tensor(ys, dtype=L.float64, requires_grad=True)
        x = L.tensor(xs, dtype=L.float64, requires_grad=True)
        out = L.atan2(y, x)
        out.sum().backward()
        res.append([out.detach().numpy(), y.grad.numpy(), x.grad.numpy()])
    for a, b in zip(*res):
        _same(a, b, "float64")


@pytest.mark.oracle
def test_hypot_does_not_overflow_and_its_origin_gradient_is_nan_as_torch():
    torch = pytest.importorskip("torch")
    a_vals, b_vals = [3e300, 0.0, 3.0, -0.0, np.inf], [4e300, 0.0, -4.0, 2.0, np.nan]
    res = []
    for L in (mg, torch):
        a = L.tensor(a_vals, dtype=L.float64, requires_grad=True)
        b = L.tensor(b_vals, dtype=L.float64, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # ours: 0/0 in the gradient at the origin
            out = L.hypot(a, b)
            out.sum().backward()
        res.append([out.detach().numpy(), a.grad.numpy(), b.grad.numpy()])
    for a, b in zip(*res):
        _same(a, b, "float64")
    assert res[0][0][0] == 5e300


@pytest.mark.oracle
@pytest.mark.parametrize(
    ("name", "values", "grad"),
    [
        ("floor", [-1.0, 0.0, 2.0], [0.0, 0.0, 0.0]),
        ("ceil", [-1.0, 0.0, 2.0], [0.0, 0.0, 0.0]),
        ("trunc", [-1.0, 0.0, 2.0], [0.0, 0.0, 0.0]),
        ("round", [-1.5, 0.5, 2.5], [0.0, 0.0, 0.0]),
        ("frac", [-1.0, 0.0, 2.0], [1.0, 1.0, 1.0]),
    ],
)
def test_gradients_on_the_jumps_match_torch(name, values, grad):
    torch = pytest.importorskip("torch")
    for L in (mg, torch):
        x = L.tensor(values, dtype=L.float64, requires_grad=True)
        getattr(x, name)().sum().backward()
        np.testing.assert_array_equal(x.grad.numpy(), grad)


# --- accuracy and stability -------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [mg.float32, mg.float64])
def test_log1p_and_expm1_keep_tiny_inputs_exact(dtype):
    x = mg.tensor([1e-10, -1e-12, 3e-20], dtype=dtype)
    for name in ("log1p", "expm1"):
        got = getattr(x, name)().numpy()
        np.testing.assert_allclose(got, x.numpy(), rtol=1e-6)  # log(1 + x) would give 0
    assert (x + 1.0).log().numpy()[0] != x.numpy()[0]  # the naive way loses digits


def test_large_inputs_give_inf_without_warnings():
    x = mg.tensor([1000.0, -1000.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert x.sinh().tolist() == [np.inf, -np.inf]
        assert x.cosh().tolist() == [np.inf, np.inf]
        assert x.expm1().tolist() == [np.inf, -1.0]
        x.cosh().sum().backward()
    assert x.grad.tolist() == [np.inf, -np.inf]


# --- wiring: names, in-place, autocast, tracing ------------------------------------------------


@pytest.mark.parametrize("name", ALL_UNARY)
def test_function_method_and_in_place_agree(name):
    x = mg.tensor([0.25, -0.75, 1.6])
    expected = getattr(x, name)().numpy()
    np.testing.assert_array_equal(getattr(mg, name)(x).numpy(), expected)
    y = x.clone()
    version = y._version
    assert getattr(y, name + "_")() is y
    assert y._version == version + 1
    np.testing.assert_array_equal(y.numpy(), expected)
    z = x.clone()
    assert getattr(mg, name + "_")(z) is z


def test_binary_in_place_broadcasts_other_and_records_both_gradients():
    a = mg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    b = mg.tensor([2.0, -1.0], requires_grad=True)
    y = a * 1
    y.atan2_(b)
    assert y.grad_fn.name() == "Atan2Backward0"
    y.sum().backward()
    expected_b = (-a.detach().numpy() / (a.detach().numpy() ** 2 + b.detach().numpy() ** 2)).sum(0)
    np.testing.assert_allclose(b.grad.numpy(), expected_b, rtol=1e-6)


def test_node_names_and_saved_tensors_are_pytorchs():
    x = mg.tensor([0.5], requires_grad=True)
    names = {n: getattr(x, n)().grad_fn.name() for n in ALL_UNARY}
    assert names["log1p"] == "Log1PBackward0"  # PyTorch: Log1PBackward0
    assert names["expm1"] == "Expm1Backward0" and names["rsqrt"] == "RsqrtBackward0"
    assert x.round(decimals=2).grad_fn.name() == "RoundBackward1"  # round() is RoundBackward0
    assert x.round().grad_fn.name() == "RoundBackward0"
    assert x.log1p().grad_fn._saved_self is x
    assert x.reciprocal().grad_fn._saved_result.tolist() == [2.0]
    h = x.hypot(x)
    assert h.grad_fn.name() == "HypotBackward0"
    assert h.grad_fn._saved_other is x and h.grad_fn._saved_result.tolist() == h.tolist()


def test_autocast_runs_the_exponential_like_ops_in_float32():
    x = mg.ones(3, dtype=mg.float16)
    with mg.autocast():
        assert x.log1p().dtype is mg.float32
        assert x.rsqrt().dtype is mg.float32
        assert x.floor().dtype is mg.float16  # not in the policy: runs as it is


def test_make_jaxpr_names_the_primitives_as_jax():
    from minigrad.func import make_jaxpr

    text = str(
        make_jaxpr(lambda x, y: x.log1p().atan2(y).round(decimals=1).rsqrt())(
            mg.ones(2), mg.ones(2)
        )
    )
    for prim in ("log1p", "atan2", "round[decimals=1]", "rsqrt"):
        assert prim in text, text


def test_decimals_may_be_any_integer_but_not_a_bool():
    x = mg.tensor([1.25, -2.75], dtype=mg.float64)
    for d in (1, np.int64(1), mg.tensor(1)):
        assert x.round(decimals=d).tolist() == [1.2, -2.8]
    assert mg.round(x).tolist() == mg.round(x, decimals=0).tolist() == [1.0, -3.0]


def test_local_derivatives_of_atan2_are_the_partial_derivatives():
    a = mg.tensor([1.0, -2.0], dtype=mg.float64, requires_grad=True)
    b = mg.tensor([3.0, 0.5], dtype=mg.float64, requires_grad=True)
    da, db = mg.trace.local_derivatives(mg.atan2(a, b).grad_fn)
    r2 = a.detach().numpy() ** 2 + b.detach().numpy() ** 2
    np.testing.assert_allclose(da, b.detach().numpy() / r2, rtol=1e-14)
    np.testing.assert_allclose(db, -a.detach().numpy() / r2, rtol=1e-14)


# --- the math names of issue 27: erf erfc erfinv logit nan_to_num remainder fmod tile -----------
@pytest.mark.parametrize(
    "call",
    [
        lambda s: mg.erf(s),
        lambda s: s.erfc(),
        lambda s: s.erfinv(),
        lambda s: s.logit(),
        lambda s: mg.nan_to_num(s),
        lambda s: mg.remainder(s, 2),
        lambda s: s % 2,
        lambda s: mg.fmod(mg.ones(2, 2), s),
        lambda s: mg.tile(s, (2,)),
        lambda s: s.tile(2, 1),
    ],
)
def test_math_names_refuse_sparse_input_naming_the_op(call):
    """No sparse kernel: a clear refusal naming the op and the way out, never a densified
    result (PyTorch has sparse COO kernels for erf, erfinv and nan_to_num; minigrad refuses them too,
    as it refuses its other elementwise ops without a sparse kernel)."""
    s = mg.tensor([[0.0, 1.0], [2.0, 0.0]]).to_sparse()
    with pytest.raises(NotImplementedError, match="has no sparse kernel.*to_dense"):
        call(s)


def test_logit_eps_clamps_and_zeroes_the_gradient_outside():
    x = mg.tensor([0.0, 0.05, 0.5, 1.0], requires_grad=True)
    y = x.logit(eps=0.1)
    assert y.grad_fn.name() == "LogitBackward0"
    np.testing.assert_allclose(y.detach().numpy(), np.log([1 / 9, 1 / 9, 1.0, 9.0]), rtol=1e-6)
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 4.0, 0.0]


def test_nan_to_num_defaults_and_integer_input():
    x = mg.tensor([float("nan"), float("inf"), -float("inf"), 1.5], requires_grad=True)
    y = mg.nan_to_num(x)
    f32 = np.finfo(np.float32)
    assert y.tolist() == [0.0, float(f32.max), float(f32.min), 1.5]
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0, 1.0]  # no gradient where a value was replaced
    i = mg.tensor([1, 2])
    assert mg.nan_to_num(i).dtype is mg.int64 and mg.nan_to_num(i).tolist() == [1, 2]


def test_remainder_takes_the_divisor_sign_and_fmod_the_dividend_sign():
    a = mg.tensor([5.0, -5.0, 5.0, -5.0])
    b = mg.tensor([3.0, 3.0, -3.0, -3.0])
    assert mg.remainder(a, b).tolist() == [2.0, 1.0, -1.0, -2.0]
    assert (a % b).tolist() == [2.0, 1.0, -1.0, -2.0]
    assert mg.fmod(a, b).tolist() == [2.0, -2.0, 2.0, -2.0]
    # PyTorch keeps fmod's zero: -5 % 2.5 is -0.0 (numpy's remainder gives +0.0)
    assert np.signbit(mg.remainder(mg.tensor([-5.0]), 2.5).numpy()[0])
    assert mg.remainder(mg.tensor([5, -5]), 2.5).dtype is mg.float32
    assert mg.remainder(mg.tensor([5, -5]), 3).tolist() == [2, 1]


def test_erf_family_of_integers_is_the_default_float():
    i = mg.tensor([0, 1])
    for name in ("erf", "erfc", "erfinv", "logit"):
        assert getattr(mg, name)(i).dtype is mg.float32


def test_tile_pads_dims_with_leading_ones():
    x = mg.tensor([[1, 2]])
    assert mg.tile(x, (2,)).tolist() == [[1, 2, 1, 2]]
    assert x.tile(2, 1, 1).shape == (2, 1, 2)
    assert x.tile((3, 1)).tolist() == [[1, 2]] * 3


def test_diagonal_is_a_view_that_in_place_writes_go_through():
    """``x.diagonal()`` shares x's memory, as PyTorch's does: writes land in x, and the
    gradient of a graph with an in-place op on the diagonal is PyTorch's."""
    torch = pytest.importorskip("torch")
    a = np.arange(12.0).reshape(3, 4)
    grads = []
    for lib in (mg, torch):
        x = lib.tensor(a, requires_grad=True)
        y = x * 1
        y.diagonal().mul_(2)
        (y * lib.tensor(a)).sum().backward()
        grads.append(x.grad.numpy())
        z = lib.zeros(3, 3)
        z.diagonal().fill_(1.0)
        assert z.tolist() == np.eye(3).tolist()
    np.testing.assert_array_equal(*grads)


def test_diag_and_diagonal_refuse_what_pytorch_refuses():
    with pytest.raises(RuntimeError, match="Supports 1D or 2D tensors. Got 3D"):
        mg.diag(mg.ones(2, 2, 2))
    with pytest.raises(RuntimeError, match="diagonal dimensions cannot be identical"):
        mg.ones(2, 2).diagonal(0, 1, 1)
    with pytest.raises(IndexError):
        mg.diagonal(mg.ones(3), 0)


@pytest.mark.parametrize(
    "call",
    [lambda L: L.linalg.inv(L.zeros(2, 2)), lambda L: L.linalg.solve(L.zeros(2, 2), L.ones(2))],
)
def test_singular_matrix_raises_linalg_error_a_runtime_error(call):
    """PyTorch's class for a singular matrix: ``linalg.LinAlgError``, a RuntimeError."""
    with pytest.raises(mg.linalg.LinAlgError, match="singular"):
        call(mg)
    assert issubclass(mg.linalg.LinAlgError, RuntimeError)
    torch = pytest.importorskip("torch")
    with pytest.raises(torch.linalg.LinAlgError, match="singular"):
        call(torch)


def test_slogdet_gives_sign_and_logabsdet_by_name():
    a = mg.tensor([[0.0, 2.0], [3.0, 0.0]], requires_grad=True)  # det = -6
    sign, logabsdet = mg.linalg.slogdet(a)
    assert sign.item() == -1.0 and mg.linalg.slogdet(a).logabsdet.item() == pytest.approx(np.log(6))
    assert sign.grad_fn is None and logabsdet.grad_fn.name() == "LinalgSlogdetBackward0"
    logabsdet.backward()
    np.testing.assert_allclose(a.grad.numpy(), np.linalg.inv(a.detach().numpy()).T)


# --- ops._util.Elementwise: one derivative for backward and jvp ---------------------------------
def test_elementwise_base_calls_one_derivative_from_backward_and_jvp():
    """A subclass writes only forward and derivative; the gradient and the forward-mode tangent
    both come from it, with the saved input, the output and the op's number as declared."""
    from minigrad.ops._util import Elementwise

    calls = []

    class ScaledCube(Elementwise):  # c * a**3
        save_inputs = True
        save_output = True
        number_param = "c"

        @staticmethod
        def forward(ctx, a, c):
            ctx.c = c
            return c * a**3

        @staticmethod
        def derivative(v, a, out, c):
            calls.append(c)
            return v * 3.0 * out / a  # = v * 3 c a**2

    x = mg.tensor([1.0, 2.0], requires_grad=True)
    ScaledCube.apply(x, c=0.5).sum().backward()
    assert x.grad.tolist() == [1.5, 6.0]
    _, t = mg.func.jvp(lambda a: ScaledCube.apply(a, c=0.5), (x.detach(),), (mg.ones(2),))
    assert t.tolist() == [1.5, 6.0]
    assert calls == [0.5, 0.5]


def test_elementwise_op_that_saves_nothing_allows_a_second_backward():
    """-x saves nothing, so (as in PyTorch) a second backward through it works: the base must
    not read the freed node's saved tensors."""
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = -x
    y.backward(mg.ones(2))
    y.backward(mg.ones(2))
    assert x.grad.tolist() == [-2.0, -2.0]
