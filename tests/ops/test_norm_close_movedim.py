"""isclose / allclose, Tensor.norm / linalg.vector_norm, movedim, unflatten: semantics and errors.

Forward, gradcheck, jvp and the PyTorch column of the differentiable ones are op-table rows
(``op_table_rows.py``); here are the edges the table does not reach (zero norms, ties, the
non-differentiable closeness tests) and the errors, each side by side with PyTorch where it
has the case (``oracle``).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import minigrad as mg

inf, nan = math.inf, math.nan
TOL = {"eps": 1e-6, "atol": 1e-5, "rtol": 1e-3}


def _torch():
    return pytest.importorskip("torch")


# --- isclose / allclose ----------------------------------------------------------------------

CLOSE_CASES = [
    ([1.0, 2.0, 3.0], [1.0 + 1e-9, 2.001, 3.0], {}),
    ([[1.0, 2.0], [3.0, 4.0]], [1.0, 4.0], {}),  # broadcast (2, 2) with (2,)
    ([nan, 1.0, inf, -inf, inf], [nan, nan, inf, -inf, -inf], {}),
    ([nan, 1.0, inf], [nan, nan, 1e30], {"equal_nan": True}),
    ([100.0, 10.0], [101.0, 10.5], {"rtol": 0.01, "atol": 0.0}),
    ([0.0, 1e-9], [1e-8, 0.0], {"rtol": 0.0}),
    (3.0, [3.0, 3.1], {"atol": 0.2}),  # 0-d with (2,)
]


@pytest.mark.parametrize(("a", "b", "kw"), CLOSE_CASES)
def test_isclose_matches_numpy(a, b, kw):
    got = mg.isclose(mg.tensor(a), mg.tensor(b), **kw)
    want = np.isclose(np.float32(a), np.float32(b), **kw)
    assert got.dtype is mg.bool and got.grad_fn is None
    np.testing.assert_array_equal(got.detach().numpy(), want)
    assert mg.allclose(mg.tensor(a), mg.tensor(b), **kw) is bool(want.all())
    assert mg.tensor(a).allclose(mg.tensor(b), **kw) is bool(want.all())
    np.testing.assert_array_equal(mg.tensor(a).isclose(mg.tensor(b), **kw).detach().numpy(), want)


def test_isclose_integers_and_bools():
    a, b = mg.tensor([1, 2, 10]), mg.tensor([1, 3, 11])
    assert mg.isclose(a, b).tolist() == [True, False, False]
    assert mg.isclose(a, b, rtol=0.1, atol=0).tolist() == [True, False, True]
    t, f = mg.tensor([True, False]), mg.tensor([True, True])
    assert mg.isclose(t, f).tolist() == [True, False]


def test_isclose_of_tensors_needing_grad_has_no_graph():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    out = mg.isclose(x, x * 1.0)
    assert out.tolist() == [True, True] and not out.requires_grad


def test_allclose_of_empty_is_true():
    assert mg.allclose(mg.zeros(0), mg.ones(0)) is True


@pytest.mark.parametrize(
    ("a", "b", "kw", "err", "match"),
    [
        (mg.ones(3), mg.ones(3, dtype=mg.float64), {}, RuntimeError, "same dtype"),
        (mg.ones(3), mg.ones(3, dtype=mg.int64), {}, RuntimeError, "float32 and minigrad.int64"),
        (mg.ones(2, 3), mg.ones(2), {}, RuntimeError, "must match the size"),
        (mg.ones(3), 1.0, {}, TypeError, "other must be a Tensor"),
        (mg.ones(3), mg.ones(3), {"rtol": -1}, RuntimeError, "rtol must be greater"),
        (mg.ones(3), mg.ones(3), {"atol": -0.5}, RuntimeError, "atol must be greater"),
    ],
)
@pytest.mark.parametrize("fn", ["isclose", "allclose"])
def test_isclose_refuses_bad_input(fn, a, b, kw, err, match):
    with pytest.raises(err, match=match):
        getattr(mg, fn)(a, b, **kw)


@pytest.mark.oracle
@pytest.mark.parametrize(("a", "b", "kw"), CLOSE_CASES)
def test_isclose_and_allclose_match_torch(a, b, kw):
    torch = _torch()
    ta, tb = torch.tensor(a), torch.tensor(b)
    want = torch.isclose(ta, tb, **kw).numpy()
    np.testing.assert_array_equal(
        mg.isclose(mg.tensor(a), mg.tensor(b), **kw).detach().numpy(), want
    )
    assert mg.allclose(mg.tensor(a), mg.tensor(b), **kw) is torch.allclose(ta, tb, **kw)


@pytest.mark.oracle
@pytest.mark.parametrize(
    ("build", "kw"),
    [
        (lambda m: (m.ones(3), m.ones(3, dtype=m.float64)), {}),
        (lambda m: (m.ones(3), m.ones(3, dtype=m.int64)), {}),
        (lambda m: (m.ones(2, 3), m.ones(2)), {}),
        (lambda m: (m.ones(3), 1.0), {}),
        (lambda m: (m.ones(3), m.ones(3)), {"rtol": -1.0}),
        (lambda m: (m.ones(3), m.ones(3)), {"atol": -1.0}),
    ],
)
@pytest.mark.parametrize("fn", ["isclose", "allclose"])
def test_isclose_errors_have_torch_types(fn, build, kw):
    torch = _torch()
    with pytest.raises(Exception) as theirs:
        getattr(torch, fn)(*build(torch), **kw)
    with pytest.raises(theirs.type):
        getattr(mg, fn)(*build(mg), **kw)


# --- norms ---------------------------------------------------------------------------------

ORDS = [2, "fro", 1, inf, -inf, 0, 3, 0.5, 1.5, -1]


def _grad(lib, values, fn):
    x = lib.tensor(values, dtype=lib.float64, requires_grad=True)
    out = fn(x)
    out.sum().backward()
    g = x.grad if x.grad is not None else lib.zeros_like(x)  # torch: None for p=0
    return out.detach().numpy(), np.asarray(g.tolist())


@pytest.mark.parametrize("p", ORDS)
def test_norm_gradient_is_zero_where_the_norm_is_zero(p):
    value, grad = _grad(mg, [[0.0, 0.0, 0.0], [0.0, 3.0, -4.0]], lambda x: x.norm(p, dim=1))
    assert value[0] == 0.0
    assert np.all(grad[0] == 0.0) and np.isfinite(grad).all()


def test_sqrt_of_sum_of_squares_is_nan_at_zero_but_norm_is_not():
    """Why VectorNorm is its own op: the naive composition divides 0 by 0."""
    x = mg.tensor([0.0, 0.0], dtype=mg.float64, requires_grad=True)
    with np.errstate(all="ignore"):
        (x * x).sum().sqrt().backward()
    assert np.isnan(x.grad.numpy()).all()
    x.grad = None
    x.norm().backward()
    assert x.grad.tolist() == [0.0, 0.0]


def test_inf_norm_ties_share_the_gradient():
    _, grad = _grad(mg, [1.0, -3.0, 3.0], lambda x: x.norm(inf))
    assert grad.tolist() == [0.0, -0.5, 0.5]
    _, grad = _grad(mg, [1.0, -1.0, 2.0], lambda x: x.norm(-inf))
    assert grad.tolist() == [0.5, -0.5, 0.0]


def test_norm_keeps_dtype_and_names_its_node():
    for dt in (mg.float16, mg.float32, mg.float64):
        x = mg.ones(2, 3, dtype=dt, requires_grad=True)
        n = x.norm(3, dim=0)
        assert n.dtype is dt and n.grad_fn.name() == "LinalgVectorNormBackward0"


def test_norm_of_a_tensor_with_some_zeros_has_a_finite_gradient_for_small_p():
    x = mg.tensor([0.0, 2.0, -1.0], dtype=mg.float64, requires_grad=True)
    for p in (0.5, 1.5, 3):
        x.grad = None
        x.norm(p).backward()
        assert x.grad.numpy()[0] == 0.0 and np.isfinite(x.grad.numpy()).all()


@pytest.mark.parametrize("p", [2, 3, 1.5, 0.5, -1])
def test_vector_norm_gradgradcheck_at_a_generic_point(p):
    x = mg.tensor([[0.3, -1.2, 0.7], [1.1, 0.4, -0.9]], dtype=mg.float64, requires_grad=True)
    assert mg.autograd.gradgradcheck(lambda t: mg.linalg.vector_norm(t, p, 1), (x,), **TOL)


NORM_ERRORS = [
    (lambda m: m.ones(3).norm(p="nuc"), RuntimeError, "nuclear norm"),
    (lambda m: m.ones(3).norm(p="foo"), RuntimeError, "p='foo' is not supported"),
    (lambda m: m.ones(2, 3, 4).norm(p="fro", dim=(0, 1, 2)), RuntimeError, "at most 2 dims"),
    (lambda m: m.linalg.vector_norm(m.ones(3), ord="fro"), TypeError, "ord must be a number"),
    (lambda m: m.ones(3, dtype=m.int64).norm(), RuntimeError, "floating point"),
    (lambda m: m.linalg.vector_norm(m.tensor([1, 2])), RuntimeError, "floating point"),
    (lambda m: m.ones(3).norm(dim=3), IndexError, "Dimension out of range"),
    (lambda m: m.linalg.vector_norm(m.ones(2, 3), dim=(0, -2)), RuntimeError, "multiple times"),
    (lambda m: m.ones(2, 3).norm(2, dim=[1, 1]), RuntimeError, "multiple times"),
    (lambda m: m.linalg.vector_norm(m.ones(0, 3), ord=inf), RuntimeError, "empty tensor"),
    (lambda m: m.linalg.vector_norm(m.ones(0, 3), ord=-inf), RuntimeError, "-inf norm"),
    (lambda m: m.linalg.vector_norm(m.ones(0), ord=-1), RuntimeError, "-1 norm"),
    (lambda m: m.linalg.vector_norm(m.ones(0, 3), ord=inf, dim=0), RuntimeError, "dimension 0"),
]


@pytest.mark.parametrize(("call", "err", "match"), NORM_ERRORS)
def test_norm_refuses_bad_input(call, err, match):
    with pytest.raises(err, match=match):
        call(mg)


def test_norm_of_empty_with_an_identity_is_zero():
    assert mg.linalg.vector_norm(mg.ones(0, 3), ord=inf, dim=1).shape == (0,)
    for p in (2, 1, 0, 0.5):
        assert mg.linalg.vector_norm(mg.ones(0, 3), ord=p).item() == 0.0


@pytest.mark.oracle
@pytest.mark.parametrize(("call", "err", "match"), NORM_ERRORS)
def test_norm_errors_have_torch_types(call, err, match):
    torch = _torch()
    with pytest.raises(err):
        call(torch)


@pytest.mark.oracle
@pytest.mark.parametrize("p", ORDS)
@pytest.mark.parametrize(
    "values",
    [[[0.0, 0.0, 0.0], [0.0, 3.0, -4.0]], [[1.0, -3.0, 3.0], [1.0, -1.0, 2.0]], [[0.0] * 3] * 2],
)
def test_norm_values_and_gradients_at_zeros_and_ties_match_torch(p, values):
    torch = _torch()
    for fn in (lambda x: x.norm(p, dim=1), lambda x: x.norm(p)):
        ours, theirs = _grad(mg, values, fn), _grad(torch, values, fn)
        np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-12)
        np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-12, atol=1e-15)


@pytest.mark.oracle
def test_norm_result_dtypes_match_torch():
    torch = _torch()
    for name in ("float16", "float32", "float64"):
        for p in (2, inf, 0, 1.5):
            ours = mg.ones(2, 3, dtype=getattr(mg, name)).norm(p, dim=1)
            theirs = torch.ones(2, 3, dtype=getattr(torch, name)).norm(p, dim=1)
            assert str(theirs.dtype) == f"torch.{ours.dtype.name}"


def test_linalg_is_importable_as_in_torch():
    import minigrad.linalg as linalg  # (the spelling tutorials use)

    assert linalg.vector_norm is mg.linalg.vector_norm
    from minigrad.linalg import vector_norm

    assert vector_norm(mg.tensor([3.0, 4.0])).item() == 5.0


# --- movedim, unflatten ------------------------------------------------------------------

MOVEDIM_ERRORS = [
    ((0, 0), (1, 2), RuntimeError, r"repeated dim in `source` \(\[0, 0\]\)"),
    ((0, -3), (1, 2), RuntimeError, "repeated dim in `source`"),
    ((0, 1), (1, 1), RuntimeError, "repeated dim in `destination`"),
    ((0, 1), (1,), RuntimeError, "same number of dims"),
    (3, 0, IndexError, "Dimension out of range"),
    (0, -4, IndexError, "Dimension out of range"),
    (0, (1,), TypeError, "both be ints or both be sequences"),
    ((0,), 1, TypeError, "both be ints or both be sequences"),
    (0.5, 1, TypeError, "both be ints"),
    ((0, 1.0), (1, 2), TypeError, "both be ints"),
]


@pytest.mark.parametrize(("src", "dst", "err", "match"), MOVEDIM_ERRORS)
def test_movedim_refuses_bad_dims(src, dst, err, match):
    with pytest.raises(err, match=match):
        mg.zeros(2, 3, 4).movedim(src, dst)


@pytest.mark.oracle
@pytest.mark.parametrize(("src", "dst", "err", "match"), MOVEDIM_ERRORS)
def test_movedim_errors_have_torch_types(src, dst, err, match):
    torch = _torch()
    with pytest.raises(err):
        torch.zeros(2, 3, 4).movedim(src, dst)


@pytest.mark.parametrize(
    ("src", "dst"),
    [(0, 2), (-1, 0), ((0, 2), (2, 0)), ([1], [-1]), ((), ()), ((0, 1, 2), (2, 1, 0))],
)
def test_movedim_matches_numpy_and_shares_memory(src, dst):
    arr = np.arange(24.0).reshape(2, 3, 4)
    x = mg.tensor(arr)
    out = mg.movedim(x, src, dst)
    np.testing.assert_array_equal(out.detach().numpy(), np.moveaxis(arr, src, dst))
    assert np.shares_memory(out.detach().numpy(), x.detach().numpy())


def test_movedim_on_0d_accepts_dim_0_and_minus_1():
    x = mg.tensor(2.0, requires_grad=True)
    y = x.movedim(-1, 0)
    assert y.shape == () and y.requires_grad
    with pytest.raises(IndexError):
        x.movedim(1, 0)


UNFLATTEN_ERRORS = [
    (lambda m: m.zeros(3, 10).unflatten(1, (3, 5)), RuntimeError, r"\[3, 5\] don't multiply"),
    (lambda m: m.zeros(3, 10).unflatten(-1, (-1, 3)), RuntimeError, r"\[-1, 3\] don't multiply"),
    (lambda m: m.zeros(3, 10).unflatten(1, (-1, -1)), RuntimeError, "only one dimension"),
    (lambda m: m.zeros(3, 10).unflatten(1, (-2, -5)), RuntimeError, "invalid size -2"),
    (lambda m: m.zeros(3, 0).unflatten(1, (0, -1)), RuntimeError, "could be any value"),
    (lambda m: m.zeros(3, 1).unflatten(1, ()), RuntimeError, "non-empty"),
    (lambda m: m.zeros(3, 10).unflatten(2, (2, 5)), IndexError, "Dimension out of range"),
    (lambda m: m.tensor(1.0).unflatten(0, (1,)), RuntimeError, "0-d"),
]


@pytest.mark.parametrize(("call", "err", "match"), UNFLATTEN_ERRORS)
def test_unflatten_refuses_bad_sizes(call, err, match):
    with pytest.raises(err, match=match):
        call(mg)


@pytest.mark.oracle
@pytest.mark.parametrize(("call", "err", "match"), UNFLATTEN_ERRORS)
def test_unflatten_errors_have_torch_types(call, err, match):
    torch = _torch()
    with pytest.raises(err):
        call(torch)


def test_flatten_of_0d_checks_its_dims_as_torch():
    for start, end in ((0, -1), (-1, 0), (0, 0)):
        assert mg.tensor(1.0).flatten(start, end).shape == (1,)
    for start, end in ((1, -1), (0, 1), (-2, 0)):
        with pytest.raises(IndexError, match="Dimension out of range"):
            mg.tensor(1.0).flatten(start, end)
