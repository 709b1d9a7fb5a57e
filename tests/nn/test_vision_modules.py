"""The vision tutorials' layers against PyTorch (issue 27): repr, initialisation under the same
seed, training and evaluation behaviour (InstanceNorm's running statistics, RReLU's and
AlphaDropout's draws), Conv3d, MaxUnpool2d after MaxPool2d, fuse_conv_bn_eval, and bad input
refused with PyTorch's exception class."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

MODULES = {
    "PixelShuffle(3)": lambda nn: nn.PixelShuffle(3),
    "PixelUnshuffle(2)": lambda nn: nn.PixelUnshuffle(2),
    "ChannelShuffle(2)": lambda nn: nn.ChannelShuffle(2),
    "Unfold": lambda nn: nn.Unfold((2, 3), dilation=2, padding=(1, 0), stride=1),
    "Fold": lambda nn: nn.Fold((4, 5), 2, stride=(1, 2)),
    "MaxUnpool2d": lambda nn: nn.MaxUnpool2d((2, 3), stride=1, padding=1),
    "InstanceNorm1d": lambda nn: nn.InstanceNorm1d(4),
    "InstanceNorm2d affine tracked": lambda nn: nn.InstanceNorm2d(
        3, eps=1e-3, momentum=0.2, affine=True, track_running_stats=True
    ),
    "InstanceNorm3d": lambda nn: nn.InstanceNorm3d(2, affine=True),
    "LocalResponseNorm": lambda nn: nn.LocalResponseNorm(3, alpha=0.01, beta=0.5, k=2),
    "Bilinear": lambda nn: nn.Bilinear(3, 4, 5),
    "Bilinear no bias": lambda nn: nn.Bilinear(2, 2, 1, bias=False),
    "RReLU": lambda nn: nn.RReLU(),
    "RReLU inplace": lambda nn: nn.RReLU(0.1, 0.2, inplace=True),
    "AlphaDropout": lambda nn: nn.AlphaDropout(0.2),
    "Conv3d": lambda nn: nn.Conv3d(4, 6, (3, 2, 1), stride=(2, 1, 1), padding=1, groups=2),
    "MaxPool3d": lambda nn: nn.MaxPool3d((2, 1, 2), stride=1, padding=(1, 0, 0)),
    "AvgPool3d": lambda nn: nn.AvgPool3d(3, stride=2, padding=1, count_include_pad=False),
    "Conv3d same no bias": lambda nn: nn.Conv3d(2, 3, 3, padding="same", bias=False),
}


@pytest.mark.parametrize("name", list(MODULES))
def test_repr_parameters_and_initialisation_are_pytorchs(name):
    mg.manual_seed(4)
    torch.manual_seed(4)
    ours, theirs = MODULES[name](mg.nn), MODULES[name](torch.nn)
    assert repr(ours) == repr(theirs)
    a, b = ours.state_dict(), theirs.state_dict()
    assert list(a) == list(b)
    for key in a:
        np.testing.assert_array_equal(a[key].numpy(), b[key].numpy())


@pytest.mark.parametrize("train", [True, False])
def test_instance_norm_running_statistics_are_pytorchs(train):
    x = (np.random.default_rng(0).standard_normal((3, 2, 5)) * 2 + 1).astype(np.float32)
    outs = []
    for lib in (mg, torch):
        layer = lib.nn.InstanceNorm1d(2, momentum=0.3, affine=True, track_running_stats=True)
        layer.train(train)
        y = [layer(lib.tensor(x)) for _ in range(2)][-1]
        outs.append((y.detach().numpy(), layer.running_mean.numpy(), layer.running_var.numpy()))
    for ours, theirs in zip(*outs):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-7)


def test_instance_norm3d_values_and_gradients_are_pytorchs():
    x = np.random.default_rng(6).standard_normal((2, 2, 3, 4, 2)).astype(np.float32)
    outs = []
    for lib in (mg, torch):
        layer = lib.nn.InstanceNorm3d(2, affine=True, track_running_stats=True)
        t = lib.tensor(x, requires_grad=True)
        y = layer(t)
        (y * y * lib.arange(2.0).reshape(2, 1, 1, 1)).sum().backward()
        outs.append((y.detach().numpy(), t.grad.numpy(), layer.weight.grad.numpy()))
        outs[-1] += (layer.running_var.numpy(),)
    for ours, theirs in zip(*outs):
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-5)


def test_instance_norm_unbatched_and_eval_without_running_statistics():
    x = np.random.default_rng(1).standard_normal((3, 4, 4))
    ours = mg.nn.InstanceNorm2d(3).eval()(mg.tensor(x))
    theirs = torch.nn.InstanceNorm2d(3).eval()(torch.tensor(x))
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-12)


@pytest.mark.parametrize("lib", [mg, torch], ids=["minigrad", "torch"])
def test_instance_norm_channel_checks(lib):
    with pytest.raises(ValueError, match="match num_features"):
        lib.nn.InstanceNorm2d(3, affine=True)(lib.ones(4, 3, 3))
    with pytest.warns(UserWarning, match="num_features"):
        lib.nn.InstanceNorm2d(3)(lib.randn(1, 4, 3, 3))
    with pytest.raises(ValueError, match="got 2D input"):
        lib.nn.InstanceNorm2d(3)(lib.ones(2, 3))


@pytest.mark.parametrize("train", [True, False])
def test_rrelu_and_alpha_dropout_layers_draw_pytorchs_numbers(train):
    x = np.random.default_rng(2).standard_normal((6, 7)).astype(np.float32)
    for make in (lambda nn: nn.RReLU(), lambda nn: nn.AlphaDropout(0.4)):
        outs = []
        for lib in (mg, torch):
            lib.manual_seed(11)
            t = lib.tensor(x, requires_grad=True)
            y = make(lib.nn).train(train)(t)
            y.sum().backward()
            outs.append((y.detach().numpy(), t.grad.numpy()))
        np.testing.assert_array_equal(outs[0][0], outs[1][0])
        np.testing.assert_array_equal(outs[0][1], outs[1][1])


def test_rrelu_inplace_writes_the_input():
    for lib in (mg, torch):
        x = lib.tensor([-2.0, 3.0])
        out = lib.nn.RReLU(0.25, 0.25, inplace=True)(x)
        assert out is x and x.tolist() == [-0.5, 3.0]


def test_max_unpool2d_undoes_max_pool2d_as_pytorch():
    x = np.random.default_rng(3).standard_normal((2, 3, 5, 6))
    outs = []
    for lib in (mg, torch):
        pool = lib.nn.MaxPool2d(2, return_indices=True)
        y, i = pool(lib.tensor(x))
        outs.append(lib.nn.MaxUnpool2d(2)(y, i, output_size=(5, 6)).numpy())
    np.testing.assert_array_equal(*outs)


def test_fuse_conv_bn_eval_gives_pytorchs_layer():
    x = np.random.default_rng(4).standard_normal((2, 3, 6, 6)).astype(np.float32)
    outs = []
    for lib in (mg, torch):
        lib.manual_seed(0)
        conv, bn = lib.nn.Conv2d(3, 4, 3), lib.nn.BatchNorm2d(4)
        bn(conv(lib.tensor(x) * 3))  # running statistics away from 0 and 1
        with lib.no_grad():
            bn.weight.mul_(2.0)
            bn.bias.add_(0.5)
        conv.eval(), bn.eval()
        fused = lib.nn.utils.fuse_conv_bn_eval(conv, bn)
        assert fused is not conv and isinstance(fused.weight, lib.nn.Parameter)
        y = fused(lib.tensor(x))
        np.testing.assert_allclose(
            y.detach().numpy(), bn(conv(lib.tensor(x))).detach().numpy(), atol=1e-5
        )
        outs.append((fused.weight.detach().numpy(), fused.bias.detach().numpy()))
    for ours, theirs in zip(*outs):
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)


@pytest.mark.parametrize("lib", [mg, torch], ids=["minigrad", "torch"])
def test_fuse_conv_bn_eval_refuses_training_layers(lib):
    with pytest.raises(AssertionError, match="Fusion only for eval"):
        lib.nn.utils.fuse_conv_bn_eval(lib.nn.Conv2d(1, 2, 1), lib.nn.BatchNorm2d(2))


def test_conv3d_layer_matches_pytorch():
    x = np.random.default_rng(5).standard_normal((2, 2, 4, 5, 3)).astype(np.float32)
    outs = []
    for lib in (mg, torch):
        lib.manual_seed(1)
        layer = lib.nn.Conv3d(2, 4, 2, padding=(1, 0, 1))
        t = lib.tensor(x, requires_grad=True)
        y = layer(t)
        y.sum().backward()
        outs.append((y.detach().numpy(), t.grad.numpy(), layer.weight.grad.numpy()))
    for ours, theirs in zip(*outs):
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-5)


# bad input: the same exception class in both libraries
BAD = {
    "pixel_shuffle 2-d": lambda L: L.nn.functional.pixel_shuffle(L.ones(4, 4), 2),
    "pixel_shuffle channels": lambda L: L.nn.functional.pixel_shuffle(L.ones(1, 8, 2, 2), 3),
    "pixel_shuffle factor 0": lambda L: L.nn.functional.pixel_shuffle(L.ones(1, 4, 2, 2), 0),
    "pixel_unshuffle height": lambda L: L.nn.functional.pixel_unshuffle(L.ones(1, 1, 3, 4), 2),
    "channel_shuffle groups": lambda L: L.nn.functional.channel_shuffle(L.ones(1, 8, 2), 3),
    "channel_shuffle 0 groups": lambda L: L.nn.functional.channel_shuffle(L.ones(1, 8, 2), 0),
    "channel_shuffle 1-d": lambda L: L.nn.functional.channel_shuffle(L.ones(8), 2),
    "unfold too large": lambda L: L.nn.functional.unfold(L.ones(1, 1, 3, 3), 4),
    "unfold kernel 0": lambda L: L.nn.functional.unfold(L.ones(1, 1, 3, 3), 0),
    "unfold stride 0": lambda L: L.nn.functional.unfold(L.ones(1, 1, 3, 3), 2, stride=0),
    "unfold padding -1": lambda L: L.nn.functional.unfold(L.ones(1, 1, 3, 3), 2, padding=-1),
    "fold 4-d": lambda L: L.nn.functional.fold(L.ones(1, 4, 4, 1), (3, 3), 2),
    "fold blocks": lambda L: L.nn.functional.fold(L.ones(1, 4, 5), (3, 3), 2),
    "fold channels": lambda L: L.nn.functional.fold(L.ones(1, 5, 4), (3, 3), 2),
    "instance_norm one element": lambda L: L.nn.functional.instance_norm(L.ones(2, 3, 1)),
    "local_response_norm 2-d": lambda L: L.nn.functional.local_response_norm(L.ones(2, 3), 2),
    "bilinear input2": lambda L: L.nn.functional.bilinear(
        L.ones(4, 3), L.ones(4, 5), L.ones(2, 3, 4)
    ),
    "bilinear batch": lambda L: L.nn.functional.bilinear(
        L.ones(4, 3), L.ones(3, 5), L.ones(2, 3, 5)
    ),
    "affine_grid theta": lambda L: L.nn.functional.affine_grid(
        L.ones(2, 3, 3), (2, 1, 3, 3), align_corners=False
    ),
    "affine_grid empty size": lambda L: L.nn.functional.affine_grid(
        L.ones(0, 2, 3), (0, 3, 4, 4), align_corners=True
    ),
    "grid_sample mode": lambda L: L.nn.functional.grid_sample(
        L.ones(1, 1, 2, 2), L.zeros(1, 1, 1, 2), mode="linear", align_corners=False
    ),
    "grid_sample padding_mode": lambda L: L.nn.functional.grid_sample(
        L.ones(1, 1, 2, 2), L.zeros(1, 1, 1, 2), padding_mode="wrap", align_corners=False
    ),
    "grid_sample grid last dim": lambda L: L.nn.functional.grid_sample(
        L.ones(1, 1, 2, 2), L.zeros(1, 1, 1, 3), align_corners=False
    ),
    "grid_sample batch": lambda L: L.nn.functional.grid_sample(
        L.ones(2, 1, 2, 2), L.zeros(1, 1, 1, 2), align_corners=False
    ),
    "grid_sample dtypes": lambda L: L.nn.functional.grid_sample(
        L.ones(1, 1, 2, 2), L.zeros(1, 1, 1, 2, dtype=L.float64), align_corners=False
    ),
    "rrelu bounds": lambda L: L.nn.functional.rrelu(L.ones(3), 0.5, 0.1, training=True),
    "alpha_dropout p": lambda L: L.nn.functional.alpha_dropout(L.ones(3), 1.5),
    "max_unpool2d indices dtype": lambda L: L.nn.functional.max_unpool2d(
        L.ones(1, 1, 1, 1), L.zeros(1, 1, 1, 1), 2
    ),
    "max_unpool2d indices shape": lambda L: L.nn.functional.max_unpool2d(
        L.ones(1, 2, 1, 1), L.zeros(1, 1, 1, 1, dtype=L.int64), 2
    ),
    "max_unpool2d output_size": lambda L: L.nn.functional.max_unpool2d(
        L.ones(1, 1, 1, 1), L.zeros(1, 1, 1, 1, dtype=L.int64), 2, output_size=(5, 5)
    ),
    "max_unpool2d index": lambda L: L.nn.functional.max_unpool2d(
        L.ones(1, 1, 1, 1), L.full((1, 1, 1, 1), 4, dtype=L.int64), 2
    ),
    "max_pool3d 3-d input": lambda L: L.nn.functional.max_pool3d(L.ones(3, 4, 4), 2),
    "max_pool3d kernel pair": lambda L: L.nn.functional.max_pool3d(L.ones(1, 3, 4, 4, 4), (2, 2)),
    "max_pool3d stride 0": lambda L: L.nn.functional.max_pool3d(L.ones(1, 1, 4, 4, 4), 2, 0),
    "max_pool3d padding": lambda L: L.nn.functional.max_pool3d(L.ones(1, 4, 4, 4), 2, padding=2),
    "avg_pool3d too large": lambda L: L.nn.functional.avg_pool3d(L.ones(1, 4, 4, 4), 5),
    "avg_pool3d divisor 0": lambda L: L.nn.functional.avg_pool3d(
        L.ones(1, 4, 4, 4), 2, divisor_override=0
    ),
    "conv3d weight dims": lambda L: L.nn.functional.conv3d(
        L.ones(1, 1, 2, 2, 2), L.ones(1, 1, 2, 2)
    ),
    "Bilinear input": lambda L: L.nn.Bilinear(3, 4, 5)(L.ones(2, 3), L.ones(2, 5)),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_input_raises_pytorchs_exception_class(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(Exception) as theirs:
            BAD[name](torch)
        with pytest.raises(type(theirs.value)):
            BAD[name](mg)


def test_align_corners_default_warns_as_pytorch():
    for lib in (mg, torch):
        with pytest.warns(UserWarning, match="align_corners=False since 1.3.0"):
            lib.nn.functional.affine_grid(lib.zeros(1, 2, 3), (1, 1, 2, 2))


def test_grid_sample_third_order_refused_with_a_message():
    x = mg.ones(1, 1, 2, 2, requires_grad=True)
    g = mg.full((1, 1, 1, 2), 0.3, requires_grad=True)
    y = mg.nn.functional.grid_sample(x * x, g, align_corners=True)
    (gg,) = mg.autograd.grad(y.sum(), g, create_graph=True)
    (gx,) = mg.autograd.grad(gg.sum(), x, create_graph=True)
    with pytest.raises(NotImplementedError, match="third derivative"):
        gx.sum().backward()


def test_grid_sample_of_non_finite_points_reads_nan_as_pytorch():
    x = mg.tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
    grid = mg.tensor([[[[float("nan"), 0.0], [0.5, float("inf")]]]], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # and no numpy warning either
        y = mg.nn.functional.grid_sample(x, grid, align_corners=True)
        y.sum().backward()
    assert np.isnan(y.detach().numpy()).all()
    theirs = torch.nn.functional.grid_sample(
        torch.tensor(x.numpy()), torch.tensor(grid.detach().numpy()), align_corners=True
    )
    assert np.isnan(theirs.numpy()).all()
    for mode in ("border", "reflection"):  # PyTorch 2.13 crashes here; minigrad reads a value
        out = mg.nn.functional.grid_sample(x, grid.detach(), padding_mode=mode, align_corners=True)
        assert out.shape == (1, 1, 1, 2)
