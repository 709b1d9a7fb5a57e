"""The op table, run: forward against numpy, gradcheck and gradgradcheck for every row.

The rows live in ``op_table_rows.py`` (shared with the PyTorch oracle). Each case builds fresh
float64 leaves from the row's domain; gradient checks use central differences with
eps 1e-6, atol 1e-5, rtol 1e-3. Hypothesis adds random broadcastable shape pairs for the
binary ops and random dims for the reductions.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, mutually_broadcastable_shapes
from op_table_rows import (
    APART,
    ROWS,
    cases,
    distinct,
    nonzero,
    np_logsumexp,
    positive,
    real,
)

import minigrad as mg

CASES = cases(ROWS)
GG_CASES = cases([r for r in ROWS if r.gradgrad])
TOL = {"eps": 1e-6, "atol": 1e-5, "rtol": 1e-3}
FWD_TOL = {np.float64: {"rtol": 1e-10, "atol": 1e-12}, np.float32: {"rtol": 2e-5, "atol": 1e-6}}


def as_tuple(out):
    return tuple(out) if isinstance(out, tuple) else (out,)


def leaves(arrays, requires_grad=True):
    return [mg.tensor(a, requires_grad=requires_grad) for a in arrays]


def numpy_ref(row, arrays):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [np.asarray(e) for e in as_tuple(row.ref(*[a.copy() for a in arrays]))]


def assert_matches(got, expected, dtype):
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert isinstance(g, mg.Tensor)
        assert g.shape == e.shape, f"shape {g.shape}, numpy {e.shape}"
        assert g.detach().numpy().dtype == e.dtype, f"dtype {g.dtype}, numpy {e.dtype}"
        np.testing.assert_allclose(g.detach().numpy(), e, **FWD_TOL[dtype])


# --- the table ---------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize(("row", "shapes"), CASES)
def test_forward_matches_numpy(row, shapes, dtype):
    arrays = row.sample(shapes, dtype)
    expected = numpy_ref(row, arrays)
    # untracked (no graph) and tracked (graph recorded) runs must agree with numpy
    assert_matches(as_tuple(row.fn(mg, *leaves(arrays, False))), expected, dtype)
    assert_matches(as_tuple(row.fn(mg, *leaves(arrays, True))), expected, dtype)


@pytest.mark.parametrize(("row", "shapes"), CASES)
def test_gradcheck(row, shapes):
    xs = leaves(row.sample(shapes))
    assert mg.autograd.gradcheck(lambda *a: row.fn(mg, *a), xs, **TOL)


@pytest.mark.parametrize(("row", "shapes"), GG_CASES)
def test_gradgradcheck(row, shapes):
    xs = leaves(row.sample(shapes))
    assert mg.autograd.gradgradcheck(lambda *a: row.fn(mg, *a), xs, **TOL)


# rows whose gradient PyTorch leaves undefined (``.grad`` stays None), as minigrad does
UNDEFINED_GRAD = {"norm(p=0)", "linalg.vector_norm(ord=0,dim=0)"}  # norm_backward: none for p = 0


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize(("row", "shapes"), CASES)
def test_backward_gives_every_input_a_grad(row, shapes, dtype):
    """Every input gets a gradient of its own shape and dtype: zeros, never None (empty too),
    except where PyTorch's is undefined (``UNDEFINED_GRAD``): None there."""
    xs = leaves(row.sample(shapes, dtype))
    outs = [o for o in as_tuple(row.fn(mg, *xs)) if o.is_floating_point()]
    rng = np.random.default_rng(0)
    weights = [
        mg.tensor(rng.standard_normal(o.shape).astype(o.detach().numpy().dtype)) for o in outs
    ]
    with np.errstate(invalid="ignore"):  # logsumexp over an empty dim is -inf: -inf*w + inf*w
        loss = sum((o * w).sum() for o, w in zip(outs, weights))
    loss.backward()
    if row.name in UNDEFINED_GRAD:
        assert all(x.grad is None for x in xs)
        return
    for x in xs:
        assert x.grad is not None
        assert x.grad.shape == x.shape
        assert x.grad.dtype is x.dtype
        assert x.grad.grad_fn is None and not x.grad.requires_grad
        if all(o.numel() == 0 for o in outs):
            assert not x.grad.numpy().any()


def test_table_covers_the_brief():
    """A guard against rows silently dropping out: every kind of case is present."""
    names = {r.name for r in ROWS}
    for must in ["add", "2**x", "x**0.5", "@", "mm", "var(correction=0)", "max(dim=1)", "T"]:
        assert must in names
    all_shapes = [s for r in ROWS for case in r.shapes for s in case]
    assert () in all_shapes and any(0 in s for s in all_shapes)
    assert ((2, 1), (2,)) in ROWS[0].shapes and ((3, 1, 2), (1, 3, 2)) in ROWS[0].shapes
    assert len(CASES) > 400


# --- hypothesis: random broadcast pairs, random reduction dims ----------------------------------

BINARY_OPS = {
    "add": (lambda x, y: x + y, np.add, (real, real)),
    "sub": (lambda x, y: x - y, np.subtract, (real, real)),
    "mul": (lambda x, y: x * y, np.multiply, (real, real)),
    "div": (lambda x, y: x / y, np.divide, (real, nonzero)),
    "pow": (lambda x, y: x**y, np.power, (positive, real)),
    "maximum": (mg.maximum, np.maximum, APART),
    "minimum": (mg.minimum, np.minimum, APART),
    "logaddexp": (mg.logaddexp, np.logaddexp, (real, real)),
    "where": (
        lambda x, y: mg.where(x > 0, x, y),
        lambda x, y: np.where(x > 0, x, y),
        (nonzero, real),
    ),
}


@settings(max_examples=60, deadline=None)
@given(
    op=st.sampled_from(sorted(BINARY_OPS)),
    shapes=mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, max_side=3),
    empty=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_binary_ops_broadcast_hypothesis(op, shapes, empty, seed):
    fn, ref, domains = BINARY_OPS[op]
    sa, sb = shapes.input_shapes
    if empty and sa:  # a zero-size dim that the other operand may broadcast against
        sa = (0,) + sa[1:]
        if len(sb) >= len(sa) and sb[len(sb) - len(sa)] != 1:
            sb = sb[: len(sb) - len(sa)] + (0,) + sb[len(sb) - len(sa) + 1 :]
    rng = np.random.default_rng(seed)
    arrays = [d(rng, s) for d, s in zip(domains, (sa, sb))]
    xs = leaves(arrays)
    out = fn(*xs)
    np.testing.assert_allclose(out.detach().numpy(), ref(*arrays), rtol=1e-12)
    assert out.shape == np.broadcast_shapes(sa, sb)
    assert mg.autograd.gradcheck(fn, xs, **TOL)


REDUCTIONS = {
    "sum": (lambda x, d, k: x.sum(d, keepdim=k), lambda a, d, k: a.sum(axis=d, keepdims=k)),
    "mean": (lambda x, d, k: x.mean(d, keepdim=k), lambda a, d, k: a.mean(axis=d, keepdims=k)),
    "var": (
        lambda x, d, k: x.var(d, keepdim=k, correction=0),
        lambda a, d, k: a.var(axis=d, keepdims=k),
    ),
    "amax": (lambda x, d, k: x.amax(d, keepdim=k), lambda a, d, k: a.max(axis=d, keepdims=k)),
    "amin": (lambda x, d, k: x.amin(d, keepdim=k), lambda a, d, k: a.min(axis=d, keepdims=k)),
    "logsumexp": (lambda x, d, k: x.logsumexp(d, keepdim=k), np_logsumexp),
    "std": (
        lambda x, d, k: x.std(d, keepdim=k, correction=0),
        lambda a, d, k: a.std(axis=d, keepdims=k),
    ),
}


@settings(max_examples=80, deadline=None)
@given(
    op=st.sampled_from(sorted(REDUCTIONS)),
    shape=array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=3),
    data=st.data(),
)
def test_reductions_over_random_dims_hypothesis(op, shape, data):
    fn, ref = REDUCTIONS[op]
    picked = data.draw(st.sets(st.integers(0, len(shape) - 1), min_size=1), label="dims")
    # spell each dim as positive or negative, at random
    dims = tuple(d - len(shape) if data.draw(st.booleans()) else d for d in sorted(picked))
    keepdim = data.draw(st.booleans(), label="keepdim")
    arr = distinct(np.random.default_rng(len(shape)), shape)
    x = mg.tensor(arr, requires_grad=True)
    if op in ("amax", "amin") and any(shape[d] == 0 for d in dims):
        with pytest.raises(IndexError, match="non-zero size"):
            fn(x, dims, keepdim)
        return
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # mean/var of nothing: nan, and numpy says so
        out = fn(x, dims, keepdim)
        expected = ref(arr, dims, keepdim)
    assert out.shape == expected.shape
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-10, atol=1e-12)
    if arr.size and np.isfinite(out.detach().numpy()).all():
        assert mg.autograd.gradcheck(lambda t: fn(t, dims, keepdim), (x,), **TOL)
