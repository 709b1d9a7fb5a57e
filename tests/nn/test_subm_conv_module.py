"""nn.SubMConv2d / nn.SubMConv3d: parameters in PyTorch's conv layout, initialisation, repr,
state_dict, training a stack of layers over one pattern, and bad constructor arguments."""

import math

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn


def _sites(seed=0, sizes=(16, 16), density=0.1, c=2):
    rng = np.random.default_rng(seed)
    mask = rng.random(sizes) < density
    sites = np.stack(np.nonzero(mask))
    values = rng.standard_normal((sites.shape[1], c)).astype(np.float32)
    return mg.sparse_coo_tensor(sites, values, (*sizes, c), is_coalesced=True)


def test_parameters_have_pytorch_conv_shapes_and_names():
    conv = nn.SubMConv2d(3, 8, 5)
    assert conv.weight.shape == (8, 3, 5, 5) and conv.bias.shape == (8,)
    assert [name for name, _ in conv.named_parameters()] == ["weight", "bias"]
    assert conv.kernel_size == (5, 5) and conv.in_channels == 3 and conv.out_channels == 8
    assert nn.SubMConv2d(3, 8, (3, 5), bias=False).weight.shape == (8, 3, 3, 5)
    assert nn.SubMConv2d(3, 8, 3, bias=False).bias is None
    assert nn.SubMConv3d(1, 2, (1, 3, 5)).weight.shape == (2, 1, 1, 3, 5)
    assert nn.SubMConv2d(1, 1, 3, dtype=mg.float64).weight.dtype is mg.float64


def test_repr():
    assert repr(nn.SubMConv2d(3, 8, 3)) == "SubMConv2d(3, 8, kernel_size=(3, 3))"
    assert repr(nn.SubMConv3d(3, 8, (1, 3, 3), bias=False)) == (
        "SubMConv3d(3, 8, kernel_size=(1, 3, 3), bias=False)"
    )


def test_initialisation_is_uniform_within_one_over_sqrt_fan_in_and_seeded():
    mg.manual_seed(0)
    a = nn.SubMConv2d(4, 32, 3)
    mg.manual_seed(0)
    b = nn.SubMConv2d(4, 32, 3)
    bound = 1 / math.sqrt(4 * 9)
    w = a.weight.detach().numpy()
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.95 * bound
    assert abs(w.std() - bound / math.sqrt(3)) < 0.1 * bound  # U(-a, a) has std a / sqrt(3)
    assert np.abs(a.bias.detach().numpy()).max() <= bound
    assert np.array_equal(w, b.weight.detach().numpy())


def test_forward_is_the_functional_form():
    x = _sites()
    conv = nn.SubMConv2d(2, 4, 3)
    y = conv(x)
    want = mg.sparse.subm_conv2d(x, conv.weight, conv.bias)
    np.testing.assert_array_equal(y.values().detach().numpy(), want.values().detach().numpy())
    assert y.grad_fn.name() == "SubMConvBackward0"


def test_state_dict_round_trip():
    a, b = nn.SubMConv2d(2, 4, 3), nn.SubMConv2d(2, 4, 3)
    b.load_state_dict(a.state_dict())
    x = _sites(1)
    np.testing.assert_array_equal(a(x).values().detach().numpy(), b(x).values().detach().numpy())


def _relu(y):
    """A nonlinearity on the values, pattern (and so rule book) kept."""
    return mg.sparse_coo_tensor(y.indices(), y.values().relu(), y.shape, is_coalesced=True)


def test_a_stack_of_layers_trains_and_builds_the_rule_book_once():
    mg.manual_seed(0)
    x = _sites(2, (24, 24), 0.15)
    target = mg.tensor(np.random.default_rng(2).standard_normal((x.nnz, 1)).astype(np.float32))
    layers = [nn.SubMConv2d(2, 8, 3), nn.SubMConv2d(8, 8, 3), nn.SubMConv2d(8, 1, 3)]
    params = [p for layer in layers for p in layer.parameters()]
    opt = mg.optim.Adam(params, lr=0.01)
    book = mg.sparse.rulebook(x, 3)
    losses = []
    for _ in range(30):
        h = x
        for i, layer in enumerate(layers):
            h = layer(h)
            if i < len(layers) - 1:
                h = _relu(h)
        assert mg.sparse.rulebook(h, 3) is book  # same pattern all the way
        loss = ((h.values() - target) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.7 * losses[0]


def test_the_input_can_require_grad_and_gets_a_sparse_gradient():
    x = _sites(3)
    x.requires_grad_()
    conv = nn.SubMConv2d(2, 3, 3)
    mg.sparse.sum(conv(x)).backward()
    assert x.grad.layout == "sparse_coo" and x.grad.nnz == x.nnz
    assert x.grad.shape == x.shape


def test_forward_with_the_wrong_channels_names_them():
    with pytest.raises(RuntimeError, match="to have 3 channels .* but got 2 channels instead"):
        nn.SubMConv2d(3, 4, 3)(_sites())


# --- constructor arguments -------------------------------------------------------------------
@pytest.mark.parametrize("k", [2, (3, 4), 0, -1])
def test_even_or_non_positive_kernels_are_refused(k):
    with pytest.raises(ValueError, match="SubMConv2d: kernel_size must be odd"):
        nn.SubMConv2d(2, 2, k)


@pytest.mark.parametrize("k", [17, (3, 99)])
def test_kernels_larger_than_allowed_are_refused(k):
    with pytest.raises(ValueError, match="larger than allowed: each side may be at most 15"):
        nn.SubMConv2d(2, 2, k)


@pytest.mark.parametrize("k", [2.5, "3", True, (3,), (3, 3, 3), None, (3.0, 3)])
def test_non_int_kernels_are_a_type_error(k):
    with pytest.raises(TypeError, match="kernel_size must be an int or a tuple of 2 ints"):
        nn.SubMConv2d(2, 2, k)


def test_subm_conv3d_wants_three_sides():
    with pytest.raises(TypeError, match="tuple of 3 ints"):
        nn.SubMConv3d(2, 2, (3, 3))


@pytest.mark.parametrize("arg", ["in_channels", "out_channels"])
@pytest.mark.parametrize(
    "bad, error", [(0, ValueError), (-2, ValueError), (2.0, TypeError), (True, TypeError)]
)
def test_channel_counts_must_be_positive_ints(arg, bad, error):
    kwargs = {"in_channels": 2, "out_channels": 2, arg: bad}
    with pytest.raises(error, match=f"{arg} must be a positive int"):
        nn.SubMConv2d(kernel_size=3, **kwargs)


def test_a_non_cpu_device_is_refused_like_every_layer():
    with pytest.raises(RuntimeError):
        nn.SubMConv2d(2, 2, 3, device="cuda")
