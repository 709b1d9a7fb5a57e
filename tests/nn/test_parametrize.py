"""PyTorch as oracle for nn.utils.parametrize, nn.utils.parametrizations.weight_norm /
spectral_norm and the hook-based nn.utils.weight_norm: the same class names, reprs,
state_dict keys, values and gradients, and spectral norm's u, v buffers under the same seed."""

import pickle
import warnings

import numpy as np
import pytest

import minigrad as mg
from minigrad.nn.utils import parametrizations as MP
from minigrad.nn.utils import parametrize as MZ

torch = pytest.importorskip("torch")
TP = torch.nn.utils.parametrizations
TZ = torch.nn.utils.parametrize

pytestmark = pytest.mark.oracle
RNG = np.random.default_rng(5)


def symmetric(lib):
    class Symmetric(lib.nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).transpose(0, 1)

        def right_inverse(self, A):
            return A.triu()

    return Symmetric()


def scaled(lib):
    class Scaled(lib.nn.Module):
        def forward(self, X):
            return X * 2.0

    return Scaled()


def pair(make, dtype="float64", seed=0):
    torch.manual_seed(seed)
    theirs = make(torch.nn).to(getattr(torch, dtype))
    mg.manual_seed(seed)
    ours = make(mg.nn).to(getattr(mg, dtype))
    return ours, theirs


def same(ours, theirs, atol=1e-14):
    assert repr(ours) == repr(theirs)
    assert type(ours).__name__ == type(theirs).__name__
    mine, ref = ours.state_dict(), theirs.state_dict()
    assert list(mine) == list(ref)
    for key in ref:
        np.testing.assert_allclose(mine[key].numpy(), ref[key].numpy(), atol=atol, err_msg=key)


def same_forward_backward(ours, theirs, shape, atol=1e-13):
    x = RNG.standard_normal(shape)
    out, ref = ours(mg.tensor(x)), theirs(torch.tensor(x))
    np.testing.assert_allclose(out.detach().numpy(), ref.detach().numpy(), atol=atol)
    w = RNG.standard_normal(tuple(ref.shape))
    (out * mg.tensor(w)).sum().backward()
    (ref * torch.tensor(w)).sum().backward()
    for (name, a), (_, b) in zip(ours.named_parameters(), theirs.named_parameters()):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), atol=atol, err_msg=name)


def test_register_chain_assign_and_remove():
    ours, theirs = pair(lambda nn: nn.Linear(3, 3))
    for lib, module in ((mg, ours), (torch, theirs)):
        TZ_ = MZ if lib is mg else TZ
        TZ_.register_parametrization(module, "weight", symmetric(lib))
        TZ_.register_parametrization(module, "weight", scaled(lib), unsafe=True)
    same(ours, theirs)
    assert MZ.is_parametrized(ours) and MZ.is_parametrized(ours, "weight")
    assert not MZ.is_parametrized(ours, "bias")
    assert MZ.type_before_parametrizations(ours) is mg.nn.Linear
    same_forward_backward(ours, theirs, (4, 3))
    with pytest.raises(RuntimeError, match="Scaled does not implement right_inverse"):
        ours.weight = mg.eye(3, dtype=mg.float64)
    for lib, module in ((mg, ours), (torch, theirs)):
        (MZ if lib is mg else TZ).remove_parametrizations(module, "weight")
    same(ours, theirs)
    assert type(ours) is mg.nn.Linear and isinstance(ours.weight, mg.nn.Parameter)


def test_assignment_goes_through_right_inverse_and_leave_unparametrized():
    ours, theirs = pair(lambda nn: nn.Linear(3, 3))
    MZ.register_parametrization(ours, "weight", symmetric(mg))
    TZ.register_parametrization(theirs, "weight", symmetric(torch))
    a = RNG.standard_normal((3, 3))
    ours.weight, theirs.weight = mg.tensor(a), torch.tensor(a)
    same(ours, theirs)
    original = ours.parametrizations.weight.original
    MZ.remove_parametrizations(ours, "weight", leave_parametrized=False)
    TZ.remove_parametrizations(theirs, "weight", leave_parametrized=False)
    same(ours, theirs)
    assert ours.weight is original  # the same Parameter object, as PyTorch's set_


def test_cached_computes_once_and_errors():
    ours, _ = pair(lambda nn: nn.Linear(3, 3))
    MZ.register_parametrization(ours, "weight", symmetric(mg))
    assert ours.weight is not ours.weight
    with MZ.cached():
        assert ours.weight is ours.weight
    with pytest.raises(ValueError, match="does not have a parameter, a buffer"):
        MZ.register_parametrization(ours, "nothing", symmetric(mg))
    with pytest.raises(ValueError, match="may not change the shape"):
        MZ.register_parametrization(mg.nn.Linear(3, 3), "bias", _Shrink())
    with pytest.raises(ValueError, match="does not have a parametrization on bias"):
        MZ.remove_parametrizations(ours, "bias")
    with pytest.raises(RuntimeError, match="only supported through state_dict"):
        pickle.dumps(ours)


class _Shrink(mg.nn.Module):
    def forward(self, X):
        return X[:1]


@pytest.mark.parametrize("dim", [0, 1, None])
@pytest.mark.parametrize("make", ["linear", "conv"])
def test_weight_norm(dim, make):
    build = {
        "linear": (lambda nn: nn.Linear(4, 3), (2, 4)),
        "conv": (lambda nn: nn.Conv2d(2, 3, 3), (1, 2, 5, 5)),
    }[make]
    ours, theirs = pair(build[0])
    MP.weight_norm(ours, dim=dim)
    TP.weight_norm(theirs, dim=dim)
    same(ours, theirs)
    same_forward_backward(ours, theirs, build[1])
    MZ.remove_parametrizations(ours, "weight")
    TZ.remove_parametrizations(theirs, "weight")
    same(ours, theirs)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize(
    "make, shape",
    [
        (lambda nn: nn.Linear(5, 4), (2, 5)),
        (lambda nn: nn.Conv2d(2, 3, 3), (1, 2, 5, 5)),
        (lambda nn: nn.ConvTranspose2d(2, 3, 3), (1, 2, 4, 4)),
    ],
)
def test_spectral_norm(dtype, make, shape):
    ours, theirs = pair(make, dtype)
    MP.spectral_norm(ours, n_power_iterations=2)
    TP.spectral_norm(theirs, n_power_iterations=2)
    atol = 1e-14 if dtype == "float64" else 1e-6
    same(ours, theirs, atol)
    x = RNG.standard_normal(shape).astype(dtype)
    for _ in range(2):  # each training call steps the power iteration
        out, ref = ours(mg.tensor(x)), theirs(torch.tensor(x))
        np.testing.assert_allclose(out.detach().numpy(), ref.detach().numpy(), atol=atol * 10)
    (out * out).sum().backward()
    (ref * ref).sum().backward()
    for (name, a), (_, b) in zip(ours.named_parameters(), theirs.named_parameters()):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), atol=atol * 100, err_msg=name)
    same(ours.eval(), theirs.eval(), atol)


def test_spectral_norm_errors():
    with pytest.raises(IndexError, match="Dimension out of range"):
        MP.spectral_norm(mg.nn.Linear(2, 2), dim=2)
    with pytest.raises(ValueError, match="n_power_iterations to be positive"):
        MP.spectral_norm(mg.nn.Linear(2, 2), n_power_iterations=0)
    with pytest.raises(ValueError, match="has no parameter or buffer with name 'w'"):
        MP.spectral_norm(mg.nn.Linear(2, 2), name="w")


@pytest.mark.filterwarnings("ignore:`torch.nn.utils.weight_norm` is deprecated:FutureWarning")
def test_old_weight_norm_hook():
    ours, theirs = pair(lambda nn: nn.Linear(4, 3))
    with pytest.warns(FutureWarning, match="deprecated in favor of"):
        mg.nn.utils.weight_norm(ours)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        torch.nn.utils.weight_norm(theirs)
    same(ours, theirs)
    same_forward_backward(ours, theirs, (2, 4))
    with pytest.raises(RuntimeError, match="Cannot register two weight_norm hooks"):
        mg.nn.utils.weight_norm(ours)
    mg.nn.utils.remove_weight_norm(ours)
    torch.nn.utils.remove_weight_norm(theirs)
    same(ours, theirs)
    with pytest.raises(ValueError, match="weight_norm of 'weight' not found"):
        mg.nn.utils.remove_weight_norm(ours)
