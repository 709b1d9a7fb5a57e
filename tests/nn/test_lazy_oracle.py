"""``nn.LazyLinear`` and ``nn.UninitializedParameter`` against PyTorch: the repr before and
after the first batch, the class the module becomes, the initial values under the same
seed (drawn at the first batch), dtype, bias=False, identity of the parameter objects, and
the errors of using an uninitialized parameter."""

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle


def _run(lib, dtype_name="float32", bias=True):
    lib.manual_seed(3)
    dtype = getattr(lib, dtype_name)
    layer = lib.nn.LazyLinear(4, bias=bias, dtype=dtype)
    before = (repr(layer), repr(layer.weight), layer.has_uninitialized_params())
    weight = layer.weight
    out = layer(lib.ones(2, 5, dtype=dtype) * 0.5)
    after = (repr(layer), type(layer).__name__, type(weight).__name__, weight is layer.weight)
    values = [p.detach().numpy().tolist() for p in layer.parameters()]
    return (before, after, values, str(weight.dtype).split(".")[1]), out.detach().numpy()


@pytest.mark.parametrize("dtype,bias", [("float32", True), ("float64", False)])
def test_lazy_linear_is_pytorchs(dtype, bias):
    (ours, our_out), (theirs, their_out) = _run(mg, dtype, bias), _run(torch, dtype, bias)
    assert ours == theirs
    np.testing.assert_allclose(our_out, their_out, rtol=1e-6)  # a product's summation order


def test_an_uninitialized_parameter_refuses_use_as_pytorch():
    for lib in (torch, mg):
        layer = lib.nn.LazyLinear(3)
        assert isinstance(layer.weight, lib.nn.UninitializedParameter)
        assert layer.weight.requires_grad and layer.weight.dtype == lib.float32
        with pytest.raises(RuntimeError, match="uninitialized parameter"):
            layer.weight.shape  # noqa: B018
        with pytest.raises(ValueError, match="uninitialized parameter"):
            layer.weight * 2  # noqa: B018
        assert layer.cls_to_become is lib.nn.Linear


def test_optimizers_hold_the_same_objects_after_the_first_batch():
    for lib in (torch, mg):
        net = lib.nn.Sequential(lib.nn.LazyLinear(3), lib.nn.ReLU(), lib.nn.LazyLinear(1))
        opt = lib.optim.SGD(net.parameters(), lr=0.1)
        net(lib.ones(2, 4)).sum().backward()
        before = net[0].weight.detach().clone()
        opt.step()
        assert not lib.equal(before, net[0].weight.detach())
        assert opt.param_groups[0]["params"][0] is net[0].weight


def _lazy_conv_and_norm(lib):
    lib.manual_seed(5)
    net = lib.nn.Sequential(
        lib.nn.LazyConv2d(4, kernel_size=3, padding=1, groups=1),
        lib.nn.LazyBatchNorm2d(),
        lib.nn.Flatten(),
        lib.nn.LazyLinear(3),
        lib.nn.LazyBatchNorm1d(momentum=0.2),
    )
    conv1d = lib.nn.LazyConv1d(2, 3, bias=False)
    before = repr(net) + repr(conv1d) + repr(net[1].running_mean) + repr(net[1].weight)
    net(lib.randn(5, 2, 4, 4))
    conv1d(lib.randn(3, 6))  # unbatched: in_channels from dim 0
    state = {k: v.numpy().round(5).tolist() for k, v in net.state_dict().items()}
    weights = conv1d.weight.detach().numpy().tolist()
    return before, repr(net) + repr(conv1d), state, weights, type(net[1].running_mean).__name__


def test_lazy_conv_and_batch_norm_are_pytorchs():
    assert _lazy_conv_and_norm(mg) == _lazy_conv_and_norm(torch)


def test_lazy_conv_checks_groups_at_the_first_batch():
    for lib in (torch, mg):
        conv = lib.nn.LazyConv2d(4, 3, groups=2)
        with pytest.raises(ValueError, match="in_channels must be divisible by groups"):
            conv(lib.ones(1, 3, 5, 5))
