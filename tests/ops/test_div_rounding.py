"""``div(a, b, rounding_mode='floor' | 'trunc')`` against PyTorch: integer and float dtypes,
Python-number divisors, zero divisors, the in-place form, the errors. Values and gradients of
float inputs are also rows of the op table (``div(floor)``, ``div(trunc)``)."""

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

INTS = [-7, 7, -6, 6, 0, -1, 1, 9]
INT_DIVISORS = [2, -2, -4, 4, 3, 5, -5, -3]
FLOATS = [-7.0, 7.0, 5.5, -0.0, 0.0, -0.5, 0.5, 1e300, -9.0, float("inf"), float("nan")]
FLOAT_DIVISORS = [2.0, -2.0, 0.5, 3.0, -3.0, 1.0, 1.0, 1e-10, 0.1, 2.0, 2.0]


def _both(fn):
    return fn(mg), fn(torch)


def _same(got, want):
    assert str(got.dtype).split(".")[-1] == str(want.dtype).split(".")[-1]
    assert got.shape == tuple(want.shape)
    g, w = got.detach().numpy(), want.detach().numpy()
    assert np.array_equal(g, w, equal_nan=g.dtype.kind == "f")
    if g.dtype.kind == "f":  # the sign of each zero too
        assert np.array_equal(np.signbit(g), np.signbit(w))


@pytest.mark.parametrize("mode", ["floor", "trunc"])
@pytest.mark.parametrize("dtype", ["int64", "int32", "int16", "int8", "uint8"])
def test_integers_divide_exactly_in_their_dtype(mode, dtype):
    ints = [abs(v) for v in INTS] if dtype == "uint8" else INTS
    divs = [abs(v) for v in INT_DIVISORS] if dtype == "uint8" else INT_DIVISORS
    got, want = _both(
        lambda L: L.div(
            L.tensor(ints, dtype=getattr(L, dtype)),
            L.tensor(divs, dtype=getattr(L, dtype)),
            rounding_mode=mode,
        )
    )
    _same(got, want)


@pytest.mark.parametrize("mode", ["floor", "trunc"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_floats_with_signed_zeros_infinities_and_nan(mode, dtype):
    got, want = _both(
        lambda L: L.tensor(FLOATS, dtype=getattr(L, dtype)).div(
            L.tensor(FLOAT_DIVISORS, dtype=getattr(L, dtype)), rounding_mode=mode
        )
    )
    _same(got, want)


@pytest.mark.parametrize("mode", ["floor", "trunc"])
@pytest.mark.parametrize(
    "make",
    [
        lambda L, m: L.div(L.tensor([-7, 7, 3]), 2, rounding_mode=m),
        lambda L, m: L.div(L.tensor([-7, 7, 3]), 2.5, rounding_mode=m),
        lambda L, m: L.div(L.tensor([-7.0, 7.0]), 0.0, rounding_mode=m),
        lambda L, m: L.div(L.tensor([-7.0, 7.0], dtype=L.float32), 0.1, rounding_mode=m),
        lambda L, m: L.div(L.tensor([[-7], [8]]), L.tensor([2.0, -3.0]), rounding_mode=m),
        lambda L, m: L.div(L.tensor([True, False]), L.tensor([2, 3]), rounding_mode=m),
    ],
    ids=["int/int", "int/float", "by zero", "float32/0.1", "broadcast", "bool/int"],
)
def test_promotion_and_broadcasting_as_pytorch(mode, make):
    _same(*_both(lambda L: make(L, mode)))


def test_gradients_are_zeros_of_each_operand_and_the_node_is_pytorchs():
    for L in (mg, torch):
        a = L.tensor([-7.0, 7.0, 5.5], requires_grad=True)
        b = L.tensor([2.0], requires_grad=True)
        y = L.div(a, b, rounding_mode="floor")
        assert y.grad_fn.name() == "DivBackward2"
        y.sum().backward()
        assert a.grad.tolist() == [0.0, 0.0, 0.0] and b.grad.tolist() == [0.0]


def test_in_place_keeps_the_dtype():
    for mode in ("floor", "trunc"):
        x, t = mg.tensor([-7, 7]), torch.tensor([-7, 7])
        x.div_(2, rounding_mode=mode)
        t.div_(2, rounding_mode=mode)
        assert x.tolist() == t.tolist() and x.dtype == mg.int64


@pytest.mark.parametrize(
    "make, error",
    [
        (lambda L: L.div(L.tensor([1]), L.tensor([0]), rounding_mode="floor"), RuntimeError),
        (lambda L: L.div(L.tensor([1]), 0, rounding_mode="trunc"), RuntimeError),
        (lambda L: L.div(L.tensor([1.0]), 2, rounding_mode="round"), RuntimeError),
        (
            lambda L: L.div(L.tensor([True]), L.tensor([True]), rounding_mode="floor"),
            NotImplementedError,
        ),
        (lambda L: L.div(L.ones(2), L.ones(3), rounding_mode="floor"), RuntimeError),
    ],
    ids=["int by zero", "int by 0 number", "bad mode", "bool", "shapes"],
)
def test_errors_are_pytorchs_classes(make, error):
    for L in (mg, torch):
        with pytest.raises(error):
            make(L)


def test_the_bad_mode_message_names_the_accepted_ones():
    with pytest.raises(RuntimeError, match="None, 'trunc', or 'floor'"):
        mg.div(mg.tensor([1.0]), 2, rounding_mode="round")
