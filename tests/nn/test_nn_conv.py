"""Dense convolution against PyTorch: F.conv1d/conv2d values and gradients (input, weight,
bias; second order too), nn.Conv1d/Conv2d parameters, init, repr, and bad input."""

import math

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F

torch = pytest.importorskip("torch")
TF = torch.nn.functional

pytestmark = pytest.mark.oracle

# (x shape, weight shape, keyword arguments)
CONFIGS = [
    ((2, 3, 5, 5), (4, 3, 3, 3), {}),
    ((2, 3, 8, 7), (4, 3, 3, 3), {"stride": 3}),  # trailing rows no window reaches
    (
        (2, 4, 6, 7),
        (6, 2, 3, 2),
        {"stride": (2, 1), "padding": (1, 2), "dilation": (1, 2), "groups": 2},
    ),
    ((1, 2, 4, 5), (3, 2, 2, 4), {"padding": "same"}),  # even kernel: one more at the end
    ((1, 2, 6, 6), (3, 2, 3, 3), {"padding": "same", "dilation": 2}),
    ((3, 5, 5), (4, 3, 2, 2), {"padding": "valid"}),  # unbatched
    ((2, 6, 5, 5), (6, 1, 3, 3), {"groups": 6, "padding": 1}),  # depthwise
    ((0, 3, 5, 5), (4, 3, 3, 3), {}),  # empty batch
    ((2, 3, 7), (4, 3, 3), {"stride": 2, "padding": 1}),
    ((3, 9), (6, 1, 2), {"dilation": 3, "groups": 3, "padding": "same"}),
]


def _run(lib, x, w, b, kw, g):
    leaves = [lib.tensor(a, requires_grad=True) for a in (x, w, b)]
    conv = lib.nn.functional.conv2d if w.ndim == 4 else lib.nn.functional.conv1d
    y = conv(*leaves, **kw)
    grads = lib.autograd.grad(y, leaves, lib.tensor(g), create_graph=True)
    if not x.size:  # nothing of the second order depends on an empty input
        return [t.detach().numpy() for t in (y, *grads)]
    second = lib.autograd.grad(sum((q * q).sum() for q in grads[:2]), leaves[:2])
    return [t.detach().numpy() for t in (y, *grads, *second)]


@pytest.mark.parametrize(("xs", "ws", "kw"), CONFIGS, ids=lambda v: str(v))
def test_conv_values_and_gradients_match_torch(xs, ws, kw):
    rng = np.random.default_rng(len(xs) * 100 + ws[0])
    x, w, b = rng.standard_normal(xs), rng.standard_normal(ws), rng.standard_normal(ws[0])
    with torch.no_grad():
        shape = (TF.conv2d if len(ws) == 4 else TF.conv1d)(
            torch.tensor(x), torch.tensor(w), None, **kw
        ).shape
    g = rng.standard_normal(tuple(shape))
    ours, theirs = _run(mg, x, w, b, kw, g), _run(torch, x, w, b, kw, g)
    names = ["output", "grad input", "grad weight", "grad bias", "d2 input", "d2 weight"]
    for name, a, t in zip(names, ours, theirs):
        assert a.shape == t.shape, name
        np.testing.assert_allclose(a, t, rtol=1e-7, atol=1e-10, err_msg=name)


def test_float32_stays_float32_and_node_names():
    x = mg.randn(2, 3, 5, 5, requires_grad=True)
    y = F.conv2d(x, mg.randn(4, 3, 3, 3, requires_grad=True), mg.randn(4))
    assert y.dtype is mg.float32
    assert y.grad_fn.name() == "ConvolutionBackward0"
    (gx,) = mg.autograd.grad(y.sum(), x, create_graph=True)
    assert gx.grad_fn.name() == "ConvolutionBackwardBackward0"


def _copy_params(ours, theirs):
    with torch.no_grad():
        theirs.weight.copy_(torch.tensor(ours.weight.detach().numpy()))
        if ours.bias is not None:
            theirs.bias.copy_(torch.tensor(ours.bias.detach().numpy()))


MODULES = [
    ("Conv2d", (3, 4, 3), {}),
    (
        "Conv2d",
        (4, 6, (3, 2)),
        {"stride": 2, "padding": 1, "dilation": 2, "groups": 2, "bias": False},
    ),
    ("Conv2d", (3, 4, 2), {"padding": "same"}),
    ("Conv1d", (3, 6, 3), {"groups": 3, "padding": "valid"}),
    ("Conv1d", (2, 4, 2), {"stride": (2,), "padding": (1,)}),
]


@pytest.mark.parametrize(("cls", "args", "kw"), MODULES, ids=lambda v: str(v))
def test_module_matches_torch(cls, args, kw):
    ours, theirs = getattr(mg.nn, cls)(*args, **kw), getattr(torch.nn, cls)(*args, **kw)
    assert repr(ours) == repr(theirs)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    for name in ("kernel_size", "stride", "padding", "dilation", "groups", "padding_mode"):
        assert getattr(ours, name) == getattr(theirs, name), name
    assert ours.weight.shape == tuple(theirs.weight.shape)
    _copy_params(ours, theirs)
    x = np.random.default_rng(1).standard_normal((2, args[0], 6, 7)[: 3 if cls == "Conv1d" else 4])
    y, ty = ours(mg.tensor(x, dtype=mg.float32)), theirs(torch.tensor(x, dtype=torch.float32))
    np.testing.assert_allclose(y.detach().numpy(), ty.detach().numpy(), rtol=1e-5, atol=1e-6)


def test_default_init_bounds_and_seed():
    mg.manual_seed(0)
    layer = mg.nn.Conv2d(4, 8, 3, groups=2)
    bound = 1 / math.sqrt(2 * 9)  # fan_in = in_channels / groups * kH * kW
    for p in (layer.weight, layer.bias):
        a = p.detach().numpy()
        assert np.abs(a).max() <= bound and np.abs(a).max() > 0.8 * bound
    mg.manual_seed(0)
    again = mg.nn.Conv2d(4, 8, 3, groups=2)
    np.testing.assert_array_equal(again.weight.detach().numpy(), layer.weight.detach().numpy())


def test_module_learns():
    mg.manual_seed(0)
    layer = mg.nn.Conv2d(1, 1, 3, padding=1)
    x = mg.randn(4, 1, 6, 6)
    target = F.conv2d(x, mg.ones(1, 1, 3, 3) / 9, padding=1)
    opt = mg.optim.SGD(layer.parameters(), lr=0.5)
    first = None
    for _ in range(60):
        opt.zero_grad()
        loss = ((layer(x) - target) ** 2).mean()
        loss.backward()
        opt.step()
        first = loss.item() if first is None else first
    assert loss.item() < first / 20


X4, W4 = (2, 3, 5, 5), (4, 3, 3, 3)
# (name, call(lib) -> None, the words our message must contain)
BAD_CALLS = [
    ("2-D input", lambda m: m.nn.functional.conv2d(m.ones(5, 5), m.ones(*W4)), "[5, 5]"),
    ("5-D input", lambda m: m.nn.functional.conv2d(m.ones(1, *X4), m.ones(*W4)), "4D (batched)"),
    ("1-D conv1d input", lambda m: m.nn.functional.conv1d(m.ones(5), m.ones(2, 1, 2)), "[5]"),
    ("channels", lambda m: m.nn.functional.conv2d(m.ones(*X4), m.ones(4, 2, 3, 3)), "[2, 3, 5, 5]"),
    (
        "groups do not divide in_channels",
        lambda m: m.nn.functional.conv2d(m.ones(*X4), m.ones(4, 1, 3, 3), groups=2),
        "groups=2",
    ),
    (
        "groups do not divide out_channels",
        lambda m: m.nn.functional.conv2d(m.ones(*X4), m.ones(4, 1, 3, 3), groups=3),
        "[4, 1, 3, 3]",
    ),
    ("groups=0", lambda m: m.nn.functional.conv2d(m.ones(*X4), m.ones(*W4), groups=0), "groups"),
    (
        "bias size",
        lambda m: m.nn.functional.conv2d(m.ones(*X4), m.ones(*W4), m.ones(3)),
        "bias of size [3]",
    ),
    (
        "kernel larger than padded input",
        lambda m: m.nn.functional.conv2d(m.ones(*X4), m.ones(4, 3, 8, 8), padding=1),
        "(7 x 7)",
    ),
    (
        "dilated kernel larger",
        lambda m: m.nn.functional.conv2d(m.ones(*X4), m.ones(*W4), dilation=3),
        "(7 x 7)",
    ),
    ("stride 0", lambda m: m.nn.functional.conv2d(m.ones(*X4), m.ones(*W4), stride=0), "stride"),
    (
        "dilation 0",
        lambda m: m.nn.functional.conv2d(m.ones(*X4), m.ones(*W4), dilation=0),
        "dilation",
    ),
    (
        "negative padding",
        lambda m: m.nn.functional.conv2d(m.ones(*X4), m.ones(*W4), padding=-1),
        "padding",
    ),
    (
        "padding string",
        lambda m: m.nn.functional.conv2d(m.ones(*X4), m.ones(*W4), padding="full"),
        "'full'",
    ),
    (
        "same with stride",
        lambda m: m.nn.functional.conv2d(m.ones(*X4), m.ones(*W4), stride=2, padding="same"),
        "strided",
    ),
    (
        "stride of 3 values",
        lambda m: m.nn.functional.conv2d(m.ones(*X4), m.ones(*W4), stride=(1, 1, 1)),
        "stride=[1, 1, 1]",
    ),
    (
        "dtype mismatch",
        lambda m: m.nn.functional.conv2d(m.ones(*X4), m.ones(*W4, dtype=m.float64)),
        "weight",
    ),
]


@pytest.mark.parametrize(("name", "call", "words"), BAD_CALLS, ids=[c[0] for c in BAD_CALLS])
def test_bad_input_raises_like_torch(name, call, words):
    with pytest.raises(RuntimeError):
        call(torch)
    with pytest.raises(RuntimeError) as info:
        call(mg)
    assert words in str(info.value)


BAD_MODULES = [
    ("in_channels % groups", lambda nn: nn.Conv2d(3, 4, 3, groups=2)),
    ("out_channels % groups", lambda nn: nn.Conv2d(4, 3, 3, groups=2)),
    ("groups=0", lambda nn: nn.Conv2d(4, 4, 3, groups=0)),
    ("padding_mode", lambda nn: nn.Conv2d(4, 4, 3, padding_mode="mirror")),
    ("same with stride", lambda nn: nn.Conv1d(4, 4, 3, padding="same", stride=2)),
    ("padding string", lambda nn: nn.Conv2d(4, 4, 3, padding="full")),
]


@pytest.mark.parametrize(("name", "make"), BAD_MODULES, ids=[c[0] for c in BAD_MODULES])
def test_bad_module_arguments_raise_like_torch(name, make):
    with pytest.raises(ValueError):
        make(torch.nn)
    with pytest.raises(ValueError):
        make(mg.nn)


def test_non_tensor_and_bad_stride_type():
    with pytest.raises(TypeError):
        F.conv2d([[1.0]], mg.ones(*W4))
    with pytest.raises(TypeError):
        TF.conv2d(torch.ones(*X4), torch.ones(*W4), stride=1.5)
    with pytest.raises(TypeError, match="stride"):
        F.conv2d(mg.ones(*X4), mg.ones(*W4), stride=1.5)


def test_autocast_lowers_conv_and_the_gradient_reaches_float32_weights():
    layer = mg.nn.Conv2d(3, 4, 3)
    with mg.autocast("cpu"):
        y = layer(mg.randn(2, 3, 5, 5))
        again = layer(y[:, :3])  # a float16 activation meets float32 weights: cast, no error
    assert y.dtype is mg.float16 and again.dtype is mg.float16
    again.float().sum().backward()
    assert layer.weight.grad.dtype is mg.float32
    with torch.autocast("cpu"):  # PyTorch lowers conv2d on the CPU too
        assert torch.nn.Conv2d(3, 4, 3)(torch.randn(2, 3, 5, 5)).dtype is torch.bfloat16
