"""PyTorch as oracle for the layers added for PyTorch's tutorials (issue 27).

For each layer, in float32 and float64: under the same seed minigrad's parameters are
PyTorch's (the generator draws PyTorch's streams), and so are the forward values, the
gradients of the input and of every parameter, ``repr`` (what ``print(model)`` shows), and
the output's shape on odd sizes. Dropout layers draw their masks from the same stream too.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

# (layer name, constructor args, constructor kwargs, input shape, mode)
CASES = [
    ("AdaptiveAvgPool2d", (1,), {}, (2, 3, 5, 7), "train"),
    ("AdaptiveAvgPool2d", ((2, 3),), {}, (2, 3, 5, 7), "train"),
    ("AdaptiveAvgPool2d", ((4, None),), {}, (3, 5, 7), "train"),
    ("AdaptiveAvgPool1d", (3,), {}, (2, 3, 7), "train"),
    ("AdaptiveAvgPool1d", (1,), {}, (3, 5), "train"),
    ("AdaptiveMaxPool2d", ((2, 3),), {}, (2, 3, 5, 7), "train"),
    ("AdaptiveMaxPool2d", (1,), {}, (3, 5, 7), "train"),
    ("AdaptiveMaxPool1d", (4,), {}, (2, 3, 7), "train"),
    ("MaxPool1d", (3, 2, 1), {}, (2, 3, 7), "train"),
    ("MaxPool1d", (2,), {"ceil_mode": True}, (3, 7), "train"),
    ("AvgPool1d", (3, 2, 1), {}, (2, 3, 7), "train"),
    ("AvgPool1d", (2,), {"count_include_pad": False}, (3, 5), "train"),
    ("BatchNorm2d", (3,), {}, (2, 3, 4, 5), "train"),
    ("BatchNorm2d", (3,), {"momentum": None, "affine": False}, (2, 3, 3, 5), "train"),
    ("BatchNorm2d", (3,), {}, (2, 3, 4, 5), "eval"),
    ("ConvTranspose2d", (3, 4, 3), {}, (2, 3, 5, 4), "train"),
    ("ConvTranspose2d", (3, 4, 3, 2, 1, 1), {}, (2, 3, 5, 4), "train"),
    ("ConvTranspose2d", (4, 6, (3, 2), (2, 1), (1, 0), (1, 0), 2), {}, (2, 4, 3, 5), "train"),
    ("ConvTranspose2d", (3, 4, 3), {"bias": False, "dilation": 2}, (3, 5, 4), "train"),
    ("ConvTranspose1d", (3, 4, 3), {}, (2, 3, 5), "train"),
    ("ConvTranspose1d", (4, 2, 3, 2, 1, 1, 2), {}, (4, 5), "train"),
    ("Dropout1d", (), {}, (4, 6, 3), "train"),
    ("Dropout1d", (0.3,), {}, (6, 3), "train"),
    ("Dropout2d", (0.3,), {}, (4, 6, 3, 2), "train"),
    ("Dropout2d", (), {}, (4, 6, 3, 2), "eval"),
    ("GroupNorm", (2, 6), {}, (2, 6, 3), "train"),
    ("GroupNorm", (3, 3), {"affine": False}, (2, 3, 2, 3), "train"),
    ("GroupNorm", (1, 4), {"eps": 1e-3}, (3, 4), "train"),
    ("RMSNorm", (3,), {}, (2, 6, 3), "train"),
    ("RMSNorm", ([6, 3],), {"eps": 1e-4}, (2, 6, 3), "train"),
    ("RMSNorm", (5,), {"elementwise_affine": False}, (5,), "train"),
    ("PReLU", (), {}, (3, 4, 5), "train"),
    ("PReLU", (4,), {"init": 0.1}, (3, 4, 5), "train"),
    ("SELU", (), {}, (3, 5), "train"),
    ("CELU", (0.7,), {}, (3, 5), "train"),
    ("Mish", (), {}, (3, 5), "train"),
    ("Hardswish", (), {}, (3, 5), "train"),
    ("Hardsigmoid", (), {}, (3, 5), "train"),
    ("GLU", (), {}, (3, 6), "train"),
    ("GLU", (0,), {}, (4, 3), "train"),
    ("Softmin", (1,), {}, (3, 5), "train"),
    ("Threshold", (0.1, 20.0), {}, (3, 5), "train"),
    ("ZeroPad2d", (1,), {}, (2, 3, 4, 5), "train"),
    ("ZeroPad2d", ((1, 0, 2, 3),), {}, (3, 4, 5), "train"),
    ("ConstantPad2d", ((1, 0, 2, 3), 3.5), {}, (3, 4, 5), "train"),
    ("ConstantPad1d", (2, -1.0), {}, (3, 4), "train"),
    ("ZeroPad1d", ((0, 2),), {}, (2, 3, 4), "train"),
    ("ReflectionPad2d", (2,), {}, (2, 3, 4, 5), "train"),
    ("ReflectionPad2d", ((3, 1, 0, 2),), {}, (3, 4, 5), "train"),
    ("ReflectionPad1d", ((1, 3),), {}, (3, 5), "train"),
    ("ReplicationPad2d", ((3, 1, 0, 2),), {}, (2, 3, 4, 5), "train"),
    ("ReplicationPad1d", (4,), {}, (2, 3, 2), "train"),
    ("Upsample", (), {"scale_factor": 2}, (2, 3, 4, 5), "train"),
    ("Upsample", (), {"scale_factor": 1.7}, (2, 3, 4, 5), "train"),
    ("Upsample", (), {"size": 5}, (2, 3, 4), "train"),
    ("Upsample", (), {"scale_factor": 2.5, "mode": "nearest-exact"}, (1, 2, 3, 4), "train"),
    ("Upsample", (), {"scale_factor": 2, "mode": "bilinear"}, (2, 3, 4, 5), "train"),
    ("Upsample", (), {"size": (7, 3), "mode": "bilinear"}, (2, 3, 4, 5), "train"),
    (
        "Upsample",
        (),
        {"size": (7, 9), "mode": "bilinear", "align_corners": True},
        (1, 3, 4, 5),
        "train",
    ),
    ("Upsample", (), {"scale_factor": 0.5, "mode": "bilinear"}, (1, 2, 6, 6), "train"),
    ("Upsample", (), {"scale_factor": 3, "mode": "linear"}, (2, 3, 4), "train"),
    ("Upsample", (), {"scale_factor": 2, "mode": "bicubic"}, (2, 3, 4, 5), "train"),
    (
        "Upsample",
        (),
        {"size": (6, 3), "mode": "bicubic", "align_corners": True},
        (1, 2, 4, 5),
        "train",
    ),
    ("Upsample", (), {"scale_factor": 0.5, "mode": "area"}, (1, 2, 6, 5), "train"),
    ("UpsamplingBilinear2d", (), {"scale_factor": 2}, (1, 2, 3, 3), "train"),
    ("UpsamplingNearest2d", (), {"size": (5, 4)}, (1, 2, 3, 3), "train"),
]


# PyTorch's float64 backward kernels of these take a float32 constant (1/6 for hardsigmoid,
# the input scale 1/alpha for celu): their float64 gradients differ from the exact ones by ~1e-8
FLOAT32_CONSTANTS = {"Hardsigmoid", "CELU"}


def _run(lib, case, x, dtype):
    name, args, kwargs, _, mode = case
    lib.manual_seed(0)
    layer = getattr(lib.nn, name)(*args, **kwargs).to(getattr(lib, dtype))
    layer.train(mode == "train")
    inp = lib.tensor(x.astype(dtype), requires_grad=True)
    lib.manual_seed(1)  # the dropout masks: the same stream in both
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = layer(inp)
    g = np.linspace(-1.0, 1.0, out.numel()).reshape(tuple(out.shape)).astype(dtype)
    out.backward(lib.tensor(g))
    params = {n: (p.detach().numpy(), p.grad.numpy()) for n, p in layer.named_parameters()}
    buffers = {n: b.numpy() for n, b in layer.named_buffers()}
    return repr(layer), out.detach().numpy(), inp.grad.numpy(), params, buffers


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}{c[1]}{c[2] or ''}-{c[4]}")
def test_layer_matches_pytorch(case, dtype):
    x = np.random.default_rng(7).standard_normal(case[3])
    ours = _run(mg, case, x, dtype)
    theirs = _run(torch, case, x, dtype)
    tol = {"rtol": 1e-5, "atol": 1e-6} if dtype == "float32" else {"rtol": 1e-10, "atol": 1e-12}
    assert ours[0] == theirs[0]  # repr
    assert ours[1].dtype == theirs[1].dtype and ours[1].shape == theirs[1].shape
    np.testing.assert_allclose(ours[1], theirs[1], **tol)
    if case[0] in FLOAT32_CONSTANTS and dtype == "float64":
        tol = {"rtol": 1e-7, "atol": 1e-12}
    np.testing.assert_allclose(ours[2], theirs[2], **tol)
    assert ours[3].keys() == theirs[3].keys()
    for n in ours[3]:
        np.testing.assert_allclose(ours[3][n][0], theirs[3][n][0], **tol)  # same init
        np.testing.assert_allclose(ours[3][n][1], theirs[3][n][1], **tol)
    assert ours[4].keys() == theirs[4].keys()
    for n in ours[4]:
        np.testing.assert_allclose(ours[4][n], theirs[4][n], **tol)  # running statistics


def test_conv_transpose_init_is_pytorchs_bit_for_bit():
    for lib in (mg, torch):
        lib.manual_seed(3)
    ours = mg.nn.ConvTranspose2d(5, 7, (3, 2), groups=1)
    theirs = torch.nn.ConvTranspose2d(5, 7, (3, 2), groups=1)
    assert ours.weight.shape == tuple(theirs.weight.shape) == (5, 7, 3, 2)
    np.testing.assert_array_equal(ours.weight.detach().numpy(), theirs.weight.detach().numpy())
    np.testing.assert_array_equal(ours.bias.detach().numpy(), theirs.bias.detach().numpy())


def test_print_model_of_a_tutorial_cnn_is_pytorchs():
    def build(lib):
        nn = lib.nn
        return nn.Sequential(
            nn.Conv2d(1, 16, 3, stride=2, padding=1),
            nn.BatchNorm2d(16),
            nn.PReLU(16),
            nn.Dropout2d(0.2),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Linear(16, 10),
            nn.Hardswish(),
            nn.Upsample(scale_factor=2),
            nn.ConvTranspose2d(4, 2, 4, stride=2, padding=1),
            nn.GroupNorm(2, 4),
            nn.ReflectionPad2d(1),
            nn.Threshold(0.1, 20),
        )

    assert repr(build(mg)) == repr(build(torch))


@pytest.mark.parametrize("output_size", [[15, 11], [13, 12], [2, 2, 14, 10]])
def test_conv_transpose_output_size_picks_pytorchs_output_padding(output_size):
    x = np.random.default_rng(3).standard_normal((2, 3, 5, 4)).astype(np.float32)
    outs = []
    for lib in (mg, torch):
        lib.manual_seed(0)
        layer = lib.nn.ConvTranspose2d(3, 2, 3, stride=3, padding=1)
        outs.append(layer(lib.tensor(x), output_size=output_size).detach().numpy())
    assert outs[0].shape == outs[1].shape == (2, 2, *output_size[-2:])
    np.testing.assert_allclose(outs[0], outs[1], rtol=1e-5, atol=1e-6)


def test_conv_transpose_output_size_out_of_range_is_pytorchs_value_error():
    layer = mg.nn.ConvTranspose2d(3, 2, 3, stride=3, padding=1)
    with pytest.raises(ValueError, match=r"valid sizes range from \[13, 10\] to \[15, 12\]"):
        layer(mg.ones(1, 3, 5, 4), output_size=[18, 11])
