"""PyTorch as oracle for nn.init's orthogonal_, trunc_normal_, eye_, dirac_, sparse_ and for
nn.utils.parameters_to_vector / vector_to_parameters: the same seed gives the same numbers
(bit for bit where PyTorch's stream is reproduced exactly; orthogonal_'s QR is numpy's LAPACK
call, so within float32 rounding), the generator is left in the same place, and the errors
are PyTorch's."""

import warnings

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

SHAPES = [(3, 5), (5, 3), (4, 4), (40, 17), (6, 2, 3)]


def _both(name, shape, *args, generator=False, dtype="float32", **kwargs):
    """Run init ``name`` in both libraries after the same seed; also one draw after it."""
    torch.manual_seed(3)
    mg.manual_seed(3)
    t = torch.empty(shape, dtype=getattr(torch, dtype))
    m = mg.empty(shape, dtype=getattr(mg, dtype))
    if generator:
        kwargs_t = dict(kwargs, generator=torch.Generator().manual_seed(17))
        kwargs_m = dict(kwargs, generator=mg.Generator().manual_seed(17))
    else:
        kwargs_t = kwargs_m = kwargs
    assert getattr(torch.nn.init, name)(t, *args, **kwargs_t) is t
    assert getattr(nn.init, name)(m, *args, **kwargs_m) is m
    after = (torch.rand(3).numpy(), mg.rand(3).numpy())
    if generator:
        after += (kwargs_t["generator"].initial_seed(), kwargs_m["generator"].initial_seed())
        after += (torch.rand(2, generator=kwargs_t["generator"]).numpy(),)
        after += (mg.rand(2, generator=kwargs_m["generator"]).numpy(),)
    return t.numpy(), m.numpy(), after


def _same_stream_after(after):
    for i in range(0, len(after), 2):
        np.testing.assert_array_equal(after[i], after[i + 1])


# float32 normal samples of 16 or more elements may differ from PyTorch's by one unit in the
# last place (minigrad/random.py, "Exactness"): the tolerance of those cases.
F32_ULP = dict(rtol=2e-7, atol=2e-7)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize(
    "args",
    [
        (),  # wide bounds: normals redrawn where outside
        (0.0, 1.0, 1.5, 3.0),  # narrow bounds in the tail: uniform candidates accepted
        (0.5, 0.2, -0.1, 0.1),  # the mean outside [a, b]: warns, accepts
        (1.0, 2.0, -1.0, 5.0),
    ],
)
@pytest.mark.parametrize("generator", [False, True])
def test_trunc_normal_draws_pytorchs_numbers(shape, args, generator):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t, m, after = _both("trunc_normal_", shape, *args, generator=generator)
    np.testing.assert_allclose(m, t, **F32_ULP)
    if np.prod(shape) < 16:
        np.testing.assert_array_equal(m, t)
    a, b = (args[2], args[3]) if args else (-2.0, 2.0)
    assert m.min() >= np.float32(a) and m.max() <= np.float32(b)
    _same_stream_after(after)


def test_trunc_normal_float64_and_warning():
    t, m, after = _both("trunc_normal_", (7, 3), 0.0, 1.0, -0.5, 0.5, dtype="float64")
    np.testing.assert_array_equal(m, t)
    _same_stream_after(after)
    with pytest.warns(UserWarning, match="mean is more than 2 std from \\[a, b\\]"):
        nn.init.trunc_normal_(mg.empty(3), mean=5.0, std=1.0, a=-1.0, b=1.0)


@pytest.mark.parametrize("shape", SHAPES + [(1, 8), (8, 1), (2, 3, 2, 2)])
@pytest.mark.parametrize("gain", [1, 2.5])
@pytest.mark.parametrize("generator", [False, True])
def test_orthogonal_matches_pytorch(shape, gain, generator):
    t, m, after = _both("orthogonal_", shape, gain, generator=generator)
    np.testing.assert_allclose(m, t, rtol=1e-5, atol=1e-6)
    _same_stream_after(after)
    flat = m.reshape(shape[0], -1) / gain
    small = min(flat.shape)
    gram = flat @ flat.T if flat.shape[0] == small else flat.T @ flat
    np.testing.assert_allclose(gram, np.eye(small), atol=1e-5)


def test_orthogonal_float64():
    t, m, _ = _both("orthogonal_", (6, 9), dtype="float64")
    np.testing.assert_allclose(m, t, rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("shape", [(3, 5), (5, 3), (40, 17), (1, 1)])
@pytest.mark.parametrize("sparsity", [0.0, 0.3, 0.5, 1.0])
@pytest.mark.parametrize("generator", [False, True])
def test_sparse_matches_pytorch(shape, sparsity, generator):
    t, m, after = _both("sparse_", shape, sparsity, std=0.5, generator=generator)
    np.testing.assert_allclose(m, t, **F32_ULP)
    np.testing.assert_array_equal(m == 0, t == 0)
    _same_stream_after(after)


@pytest.mark.parametrize("shape", [(3, 5), (5, 3), (4, 4)])
def test_eye_matches_pytorch(shape):
    t, m, _ = _both("eye_", shape)
    np.testing.assert_array_equal(m, t)


@pytest.mark.parametrize("shape", [(6, 3, 3), (4, 2, 3, 3), (4, 4, 3, 2, 3), (2, 6, 4)])
@pytest.mark.parametrize("groups", [1, 2])
def test_dirac_matches_pytorch(shape, groups):
    t, m, _ = _both("dirac_", shape, groups=groups)
    np.testing.assert_array_equal(m, t)


def test_dirac_conv_is_identity():
    conv = nn.Conv2d(3, 3, 3, padding=1, bias=False)
    nn.init.dirac_(conv.weight)
    x = mg.randn(2, 3, 5, 5)
    np.testing.assert_allclose(conv(x).detach().numpy(), x.numpy(), atol=1e-6)


@pytest.mark.parametrize(
    "call",
    [
        lambda nn_, t: nn_.init.orthogonal_(t.empty(4)),
        lambda nn_, t: nn_.init.eye_(t.empty(2, 2, 2)),
        lambda nn_, t: nn_.init.dirac_(t.empty(3, 3)),
        lambda nn_, t: nn_.init.dirac_(t.empty(3, 2, 3), groups=2),
        lambda nn_, t: nn_.init.sparse_(t.empty(3), 0.5),
    ],
)
def test_init_errors_are_pytorchs(call):
    with pytest.raises(ValueError) as theirs:
        call(torch.nn, torch)
    with pytest.raises(ValueError) as ours:
        call(nn, mg)
    assert str(ours.value) == str(theirs.value)


def test_init_writes_no_graph():
    w = nn.Parameter(mg.empty(4, 3))
    for fill in (nn.init.orthogonal_, nn.init.trunc_normal_, nn.init.eye_):
        assert fill(w) is w and w.grad_fn is None and w.requires_grad


# --- parameters_to_vector / vector_to_parameters ------------------------------------------


def _twin_linear():
    mg.manual_seed(0)
    torch.manual_seed(0)
    return nn.Linear(3, 2), torch.nn.Linear(3, 2)


def test_parameters_to_vector_matches_and_is_differentiable():
    ours, theirs = _twin_linear()
    v = nn.utils.parameters_to_vector(ours.parameters())
    tv = torch.nn.utils.parameters_to_vector(theirs.parameters())
    np.testing.assert_array_equal(v.detach().numpy(), tv.detach().numpy())
    assert v.shape == (8,) and v.requires_grad
    (v * mg.arange(8.0)).sum().backward()
    np.testing.assert_array_equal(ours.weight.grad.numpy(), np.arange(6.0).reshape(2, 3))
    np.testing.assert_array_equal(ours.bias.grad.numpy(), [6.0, 7.0])


def test_vector_to_parameters_shares_the_vector():
    ours, theirs = _twin_linear()
    vec = mg.arange(10.0)
    tvec = torch.arange(10.0)
    assert nn.utils.vector_to_parameters(vec, ours.parameters()) is None
    torch.nn.utils.vector_to_parameters(tvec, theirs.parameters())
    np.testing.assert_array_equal(ours.weight.detach().numpy(), theirs.weight.detach().numpy())
    np.testing.assert_array_equal(ours.bias.detach().numpy(), [6.0, 7.0])
    assert isinstance(ours.weight, nn.Parameter) and ours.weight.requires_grad
    vec[0] = 100.0  # the parameters are views of the vector, as in PyTorch
    tvec[0] = 100.0
    assert ours.weight[0, 0].item() == theirs.weight[0, 0].item() == 100.0


def test_round_trip():
    ours, _ = _twin_linear()
    before = [p.detach().clone() for p in ours.parameters()]
    vec = nn.utils.parameters_to_vector(ours.parameters()).detach().clone()
    nn.utils.vector_to_parameters(vec * 0, ours.parameters())
    nn.utils.vector_to_parameters(vec, ours.parameters())
    for p, q in zip(ours.parameters(), before):
        np.testing.assert_array_equal(p.detach().numpy(), q.numpy())


def test_vector_errors_are_pytorchs():
    ours, theirs = _twin_linear()
    with pytest.raises(TypeError, match="expected torch.Tensor, but got: list"):
        torch.nn.utils.vector_to_parameters([1.0] * 8, theirs.parameters())
    with pytest.raises(TypeError, match="expected torch.Tensor, but got: list"):
        nn.utils.vector_to_parameters([1.0] * 8, ours.parameters())
    with pytest.raises(RuntimeError):
        torch.nn.utils.vector_to_parameters(torch.zeros(5), theirs.parameters())
    with pytest.raises(RuntimeError):
        nn.utils.vector_to_parameters(mg.zeros(5), ours.parameters())
    with pytest.raises(ValueError, match="expected a non-empty list of Tensors"):
        torch.nn.utils.parameters_to_vector([])
    with pytest.raises(ValueError, match="expected a non-empty list of Tensors"):
        nn.utils.parameters_to_vector([])
