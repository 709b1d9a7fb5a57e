"""PyTorch as oracle for submanifold convolution: torch's dense conv2d / conv3d with
padding=k // 2 on the zero-filled input (channels moved: HWC <-> NCHW), read at the active
sites. Values and gradients (weight, bias, input at the active sites), the layers against
nn.Conv2d / Conv3d with the same parameters, and the error types of the shared cases."""

import numpy as np
import pytest
from subm_conv_helpers import hybrid, random_sites, zero_filled

import minigrad as mg

torch = pytest.importorskip("torch")
torch.set_num_threads(1)

pytestmark = pytest.mark.oracle


def torch_subm(dense, w, b, grad_at_sites, sites, input_sites=None):
    """torch's dense conv of the zero-filled ``dense`` (*sizes, C), read at ``sites``; the
    loss sum(out[sites] * grad_at_sites) backpropagated. Returns the values, the input's
    gradient at ``input_sites`` (default: ``sites``), the weight's and the bias's."""
    spatial = w.ndim - 2
    batched = dense.ndim == spatial + 2
    conv = torch.nn.functional.conv2d if spatial == 2 else torch.nn.functional.conv3d
    x = torch.tensor(dense if batched else dense[None], requires_grad=True)
    wt = torch.tensor(w, requires_grad=True)
    bt = None if b is None else torch.tensor(b, requires_grad=True)
    channels_first = x.movedim(-1, 1)  # (N, *sizes, C) -> (N, C, *sizes)
    out = conv(channels_first, wt, bt, padding=tuple(k // 2 for k in w.shape[2:]))
    out = out.movedim(1, -1) if batched else out.movedim(1, -1)[0]  # channels last again
    at = out[tuple(torch.from_numpy(s) for s in sites)]
    (at * torch.from_numpy(grad_at_sites)).sum().backward()
    gx = x.grad if batched else x.grad[0]
    gx = gx[tuple(torch.from_numpy(s) for s in (sites if input_sites is None else input_sites))]
    gb = None if bt is None else bt.grad.numpy()
    return at.detach().numpy(), gx.numpy(), wt.grad.numpy(), gb


@pytest.mark.parametrize(
    "sizes, window, bias",
    [
        ((9, 11), (3, 3), True),
        ((8, 8), (5, 5), True),
        ((7, 9), (3, 5), False),
        ((6, 6), (1, 1), True),
        ((2, 3), (7, 5), True),  # window wider than the grid
        ((3, 8, 9), (3, 3), True),  # a batch of 3 images
        ((5, 6, 7), (3, 3, 3), True),  # 3-D
        ((2, 4, 5, 6), (3, 5, 3), False),  # a batch of 3-D grids
    ],
)
def test_values_and_gradients_match_torch_dense_conv(sizes, window, bias):
    rng = np.random.default_rng(len(sizes) * 10 + sum(window))
    sites = random_sites(rng, sizes, 0.3)
    c, o = 3, 4
    values = rng.standard_normal((sites.shape[1], c))
    w = rng.standard_normal((o, c, *window))
    b = rng.standard_normal(o) if bias else None
    g = rng.standard_normal((sites.shape[1], o))

    x = hybrid(sites, values, sizes, requires_grad=True)
    wm = mg.tensor(w, requires_grad=True)
    bm = mg.tensor(b, requires_grad=True) if bias else None
    op = mg.sparse.subm_conv2d if len(window) == 2 else mg.sparse.subm_conv3d
    y = op(x, wm, bm)
    (y.values() * mg.tensor(g)).sum().backward()

    want, gx, gw, gb = torch_subm(zero_filled(sites, values, sizes), w, b, g, sites)
    np.testing.assert_allclose(y.values().detach().numpy(), want, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(x.grad.values().numpy(), gx, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(wm.grad.numpy(), gw, rtol=1e-10, atol=1e-12)
    if bias:
        np.testing.assert_allclose(bm.grad.numpy(), gb, rtol=1e-10, atol=1e-12)


def test_duplicated_sites_match_torch_on_their_sum():
    rng = np.random.default_rng(5)
    sites = np.array([[3, 1, 3, 0, 1], [2, 1, 2, 4, 2]])  # (3, 2) twice, unsorted
    values = rng.standard_normal((5, 2))
    w, b = rng.standard_normal((3, 2, 3, 3)), rng.standard_normal(3)
    v = mg.tensor(values, requires_grad=True)
    y = mg.sparse.subm_conv2d(mg.sparse_coo_tensor(sites, v, (4, 5, 2)), mg.tensor(w), mg.tensor(b))
    unique = y.indices().numpy()
    g = rng.standard_normal((y.nnz, 3))
    (y.values() * mg.tensor(g)).sum().backward()
    # torch's input gradient read at every duplicate: each gets the gradient of its site
    want, gx, _, _ = torch_subm(zero_filled(sites, values, (4, 5)), w, b, g, unique, sites)
    np.testing.assert_allclose(y.values().detach().numpy(), want, rtol=1e-10)
    np.testing.assert_allclose(v.grad.numpy(), gx, rtol=1e-10)


@pytest.mark.parametrize("spatial", [2, 3])
def test_the_layer_matches_torch_conv_with_the_same_parameters(spatial):
    rng = np.random.default_rng(spatial)
    sizes = (6, 7) if spatial == 2 else (4, 5, 6)
    sites = random_sites(rng, sizes, 0.3)
    values = rng.standard_normal((sites.shape[1], 2)).astype(np.float32)
    mg.manual_seed(0)
    layer = (mg.nn.SubMConv2d if spatial == 2 else mg.nn.SubMConv3d)(2, 5, 3)
    ref = (torch.nn.Conv2d if spatial == 2 else torch.nn.Conv3d)(2, 5, 3, padding=1)
    assert tuple(ref.weight.shape) == tuple(layer.weight.shape)  # PyTorch's layout
    with torch.no_grad():
        ref.weight.copy_(torch.from_numpy(layer.weight.detach().numpy()))
        ref.bias.copy_(torch.from_numpy(layer.bias.detach().numpy()))
    y = layer(hybrid(sites, values, sizes))
    mg.sparse.sum(y).backward()
    dense = torch.from_numpy(zero_filled(sites, values, sizes).astype(np.float32))
    out = ref(dense.movedim(-1, 0)[None])[0].movedim(0, -1)
    out[tuple(torch.from_numpy(s) for s in sites)].sum().backward()
    np.testing.assert_allclose(
        y.values().detach().numpy(), out[tuple(sites)].detach().numpy(), rtol=1e-5, atol=1e-6
    )
    np.testing.assert_allclose(
        layer.weight.grad.numpy(), ref.weight.grad.numpy(), rtol=1e-5, atol=1e-5
    )
    np.testing.assert_allclose(layer.bias.grad.numpy(), ref.bias.grad.numpy(), rtol=1e-5, atol=1e-5)


def test_initialisation_bound_is_torch_conv2d_one():
    # kaiming_uniform_(a=sqrt(5)) gives U(-1/sqrt(fan_in), 1/sqrt(fan_in)) for weight and bias
    torch.manual_seed(0)
    ref = torch.nn.Conv2d(4, 64, (3, 5))
    mg.manual_seed(0)
    layer = mg.nn.SubMConv2d(4, 64, (3, 5))
    bound = 1 / np.sqrt(4 * 3 * 5)
    for mine, theirs in ((layer.weight, ref.weight), (layer.bias, ref.bias)):
        a, t = mine.detach().numpy(), theirs.detach().numpy()
        assert np.abs(a).max() <= bound and np.abs(t).max() <= bound
        assert np.abs(a).max() > 0.9 * bound and np.abs(t).max() > 0.9 * bound
        assert abs(a.std() - t.std()) < 0.1 * bound


def _error_type(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001  (the type is what is compared)
        return type(e)
    return None


@pytest.mark.parametrize("case", ["channels", "bias", "dtype", "kernel_type"])
def test_error_types_are_those_of_torch_conv2d(case):
    x = hybrid([[0, 1], [0, 1]], np.ones((2, 3)), (4, 4), dtype=mg.float32)
    xt = torch.zeros(1, 3, 4, 4)
    w, wt = mg.ones(2, 3, 3, 3), torch.ones(2, 3, 3, 3)
    cases = {
        "channels": (
            lambda: mg.sparse.subm_conv2d(x, mg.ones(2, 4, 3, 3)),
            lambda: torch.nn.functional.conv2d(xt, torch.ones(2, 4, 3, 3), padding=1),
        ),
        "bias": (
            lambda: mg.sparse.subm_conv2d(x, w, mg.ones(3)),
            lambda: torch.nn.functional.conv2d(xt, wt, torch.ones(3), padding=1),
        ),
        "dtype": (
            lambda: mg.sparse.subm_conv2d(x, w.double()),
            lambda: torch.nn.functional.conv2d(xt, wt.double(), padding=1),
        ),
        "kernel_type": (lambda: mg.nn.SubMConv2d(3, 2, 2.5), lambda: torch.nn.Conv2d(3, 2, 2.5)),
    }
    mine, theirs = cases[case]
    want = _error_type(theirs)
    assert want is not None and issubclass(_error_type(mine), want)
