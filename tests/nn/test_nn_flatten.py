"""nn.Flatten and nn.Unflatten: shapes, gradients (float64 central differences), reprs and
errors, with PyTorch as oracle (values, gradients, reprs, error types)."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn

TOL = {"eps": 1e-6, "atol": 1e-5, "rtol": 1e-3}

LAYERS = [
    (lambda n: n.Flatten(), (2, 3, 4)),
    (lambda n: n.Flatten(0, 2), (2, 3, 4)),
    (lambda n: n.Flatten(-2), (2, 3, 4)),
    (lambda n: n.Flatten(start_dim=0), (5,)),
    (lambda n: n.Flatten(), (2, 0, 3)),
    (lambda n: n.Unflatten(1, (2, 5)), (3, 10)),
    (lambda n: n.Unflatten(-1, [2, -1]), (3, 10)),
    (lambda n: n.Unflatten(0, (1, 2, 3)), (6, 2)),
    (lambda n: n.Unflatten(1, (-1, 5)), (3, 0)),
]


def _arr(shape):
    return np.random.default_rng(len(shape)).standard_normal(shape)


@pytest.mark.parametrize(("build", "shape"), LAYERS)
def test_layer_reshapes_as_numpy_and_passes_gradcheck(build, shape):
    layer = build(nn)
    x = mg.tensor(_arr(shape), requires_grad=True)
    out = layer(x)
    np.testing.assert_array_equal(out.detach().numpy().reshape(-1), x.detach().numpy().reshape(-1))
    assert list(layer.parameters()) == []
    assert mg.autograd.gradcheck(layer, (x,), **TOL)
    assert mg.autograd.gradgradcheck(layer, (x,), **TOL)


def test_flatten_then_unflatten_in_a_sequential_round_trips():
    model = nn.Sequential(nn.Flatten(), nn.Unflatten(1, (3, 4)))
    x = mg.randn(2, 3, 4)
    assert model(x).shape == (2, 3, 4)
    assert model(x).equal(x)


def test_reprs():
    assert repr(nn.Flatten()) == "Flatten(start_dim=1, end_dim=-1)"
    assert repr(nn.Flatten(0, 2)) == "Flatten(start_dim=0, end_dim=2)"
    assert repr(nn.Unflatten(1, (2, 5))) == "Unflatten(dim=1, unflattened_size=(2, 5))"
    assert repr(nn.Unflatten(-1, [2, 5])) == "Unflatten(dim=-1, unflattened_size=[2, 5])"


BUILD_ERRORS = [
    (lambda n: n.Unflatten(1, 5), TypeError, "must be a tuple or list of ints"),
    (lambda n: n.Unflatten(1, (2.0, 5)), TypeError, "element of type float at pos 0"),
    (lambda n: n.Unflatten(1, (("x", 2), ("y", 5))), TypeError, "element of type tuple"),
]

CALL_ERRORS = [
    (lambda n: n.Unflatten(1, (3, 5)), (3, 10), RuntimeError, r"\[3, 5\] don't multiply up"),
    (lambda n: n.Unflatten(1, (-1, 3)), (3, 10), RuntimeError, "don't multiply up"),
    (lambda n: n.Unflatten(1, ()), (3, 1), RuntimeError, "non-empty"),
    (lambda n: n.Unflatten(3, (2, 5)), (3, 10), IndexError, "Dimension out of range"),
    (lambda n: n.Flatten(), (2,), IndexError, "Dimension out of range"),
    (lambda n: n.Flatten(), (), IndexError, "Dimension out of range"),
    (lambda n: n.Flatten(2, 1), (2, 3, 4), RuntimeError, "start_dim cannot come after end_dim"),
    (lambda n: n.Flatten(1, 5), (2, 3, 4), IndexError, "Dimension out of range"),
]


@pytest.mark.parametrize(("build", "err", "match"), BUILD_ERRORS)
def test_bad_unflattened_size_is_refused_at_construction(build, err, match):
    with pytest.raises(err, match=match):
        build(nn)


def test_non_int_dims_are_refused():
    with pytest.raises(TypeError, match="start_dim must be an int"):
        nn.Flatten(1.0)
    with pytest.raises(TypeError, match="dim must be an int"):
        nn.Unflatten("a", (2, 5))


@pytest.mark.parametrize(("build", "shape", "err", "match"), CALL_ERRORS)
def test_bad_input_is_refused_with_a_clear_error(build, shape, err, match):
    with pytest.raises(err, match=match):
        build(nn)(mg.zeros(shape))


# --- PyTorch as oracle -----------------------------------------------------------------------


@pytest.mark.oracle
@pytest.mark.parametrize(("build", "shape"), LAYERS)
def test_values_gradients_and_reprs_match_torch(build, shape):
    torch = pytest.importorskip("torch")
    arr = _arr(shape)
    w = np.random.default_rng(1).standard_normal(build(torch.nn)(torch.tensor(arr)).shape)
    results = []
    for lib, n in ((mg, nn), (torch, torch.nn)):
        layer = build(n)
        x = lib.tensor(arr, requires_grad=True)
        out = layer(x)
        (out * lib.tensor(w)).sum().backward()
        results.append(
            (tuple(out.shape), np.asarray(out.tolist()), np.asarray(x.grad.tolist()), repr(layer))
        )
    ours, theirs = results
    assert ours[0] == theirs[0] and ours[3] == theirs[3]
    np.testing.assert_array_equal(ours[1], theirs[1])
    np.testing.assert_array_equal(ours[2], theirs[2])


@pytest.mark.oracle
@pytest.mark.parametrize(("build", "err", "match"), BUILD_ERRORS)
def test_construction_errors_have_torch_types(build, err, match):
    torch = pytest.importorskip("torch")
    with pytest.raises(err):
        build(torch.nn)


@pytest.mark.oracle
@pytest.mark.parametrize(("build", "shape", "err", "match"), CALL_ERRORS)
def test_call_errors_have_torch_types(build, shape, err, match):
    torch = pytest.importorskip("torch")
    with pytest.raises(err):
        build(torch.nn)(torch.zeros(shape))
