"""PyTorch as oracle for the nn.functional names added for PyTorch's tutorials (issue 27):
values and gradients of every input, the in-place forms, the errors' classes, and the
derivative checks (double backward, forward mode) of the new op and compositions."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

RNG = np.random.default_rng(5)
X = RNG.standard_normal((4, 5))
Y = RNG.standard_normal((4, 5))
P = RNG.random((4, 5))
P[0, 1] = 0.0  # a zero target probability: PyTorch's xlogy
P /= P.sum(1, keepdims=True)
SIGNS = np.sign(RNG.standard_normal(5))
X4 = RNG.standard_normal((2, 3, 4, 5))
X3 = RNG.standard_normal((2, 3, 6))

# name -> (call, arrays, indices of the arrays that require grad)
CALLS = {
    **{
        f"kl_div {r}": (lambda F, a, b, r=r: F.kl_div(a, b, reduction=r), (X, P), (0, 1))
        for r in ("mean", "sum", "none", "batchmean")
    },
    "kl_div log_target": (
        lambda F, a, b: F.kl_div(a, b, reduction="batchmean", log_target=True),
        (X, np.log(P + 0.1)),
        (0, 1),
    ),
    "cosine_similarity": (lambda F, a, b: F.cosine_similarity(a, b), (X, Y), (0, 1)),
    "cosine_similarity broadcast": (
        lambda F, a, b: F.cosine_similarity(a, b, dim=-1, eps=1e-3),
        (X, Y[:1]),
        (0, 1),
    ),
    "cosine_similarity tiny norm": (
        lambda F, a, b: F.cosine_similarity(a * 1e-12, b),
        (X, Y),
        (0, 1),
    ),
    "pairwise_distance": (lambda F, a, b: F.pairwise_distance(a, b), (X, Y), (0, 1)),
    "pairwise_distance p=1 keepdim": (
        lambda F, a, b: F.pairwise_distance(a, b, 1.0, keepdim=True),
        (X, Y),
        (0, 1),
    ),
    "margin_ranking_loss": (
        lambda F, a, b, t: F.margin_ranking_loss(a, b, t, margin=0.3),
        (X[0], Y[0], SIGNS),
        (0, 1),
    ),
    "hinge_embedding_loss": (
        lambda F, a, t: F.hinge_embedding_loss(a, t, 0.5, reduction="sum"),
        (X[0], SIGNS),
        (0,),
    ),
    "soft_margin_loss": (lambda F, a, t: F.soft_margin_loss(a, t), (X[0], SIGNS), (0,)),
    "triplet_margin_loss": (
        lambda F, a, b, c: F.triplet_margin_loss(a, b, c),
        (X, Y, P),
        (0, 1, 2),
    ),
    "triplet_margin_loss swap p=1": (
        lambda F, a, b, c: F.triplet_margin_loss(a, b, c, p=1, swap=True, reduction="none"),
        (X, Y, P),
        (0, 1, 2),
    ),
    "conv_transpose2d": (
        lambda F, x, w, b: F.conv_transpose2d(x, w, b, 2, 1, 1, 1, 1),
        (X4[:, :3], RNG.standard_normal((3, 2, 3, 3)), RNG.standard_normal(2)),
        (0, 1, 2),
    ),
    "conv_transpose1d groups": (
        lambda F, x, w: F.conv_transpose1d(x, w, None, 1, 0, 0, 3, 2),
        (X3, RNG.standard_normal((3, 2, 2))),
        (0, 1),
    ),
    "adaptive_avg_pool2d": (lambda F, x: F.adaptive_avg_pool2d(x, (3, 2)), (X4,), (0,)),
    "adaptive_max_pool2d": (lambda F, x: F.adaptive_max_pool2d(x, (3, 4)), (X4,), (0,)),
    "adaptive_max_pool1d indices": (
        lambda F, x: F.adaptive_max_pool1d(x, 4, return_indices=True)[0],
        (X3,),
        (0,),
    ),
    "max_pool1d": (lambda F, x: F.max_pool1d(x, 3, 2, 1), (X3,), (0,)),
    "avg_pool1d": (lambda F, x: F.avg_pool1d(x, 4, 1, 2, count_include_pad=False), (X3,), (0,)),
    "group_norm": (
        lambda F, x, w, b: F.group_norm(x, 3, w, b),
        (X3, RNG.standard_normal(3), RNG.standard_normal(3)),
        (0, 1, 2),
    ),
    "rms_norm": (lambda F, x, w: F.rms_norm(x, (6,), w), (X3, RNG.random(6)), (0, 1)),
    "prelu": (lambda F, x, w: F.prelu(x, w), (X4, np.array([0.1, -0.2, 0.3])), (0, 1)),
    "glu": (lambda F, x: F.glu(x, 1), (RNG.standard_normal((2, 4, 3)),), (0,)),
    "softmin": (lambda F, x: F.softmin(x, 0), (X,), (0,)),
    "selu": (lambda F, x: F.selu(x), (X,), (0,)),
    "mish": (lambda F, x: F.mish(x), (X,), (0,)),
    "hardswish at the joints": (
        lambda F, x: F.hardswish(x),
        (np.array([-4.0, -3.0, -1.0, 0.0, 3.0, 5.0]),),
        (0,),
    ),
    "hardsigmoid at the joints": (
        lambda F, x: F.hardsigmoid(x),
        (np.array([-4.0, -3.0, -1.0, 0.0, 3.0, 5.0]),),
        (0,),
    ),
    "threshold": (lambda F, x: F.threshold(x, 0.2, -5.0), (X,), (0,)),
    "pad reflect": (lambda F, x: F.pad(x, (2, 1, 3, 0), mode="reflect"), (X4,), (0,)),
    "pad replicate": (lambda F, x: F.pad(x, (0, 3), mode="replicate"), (X3,), (0,)),
    "pad circular": (lambda F, x: F.pad(x, (2, 1, 1, 2), mode="circular"), (X4,), (0,)),
    "interpolate nearest": (lambda F, x: F.interpolate(x, scale_factor=1.5), (X4,), (0,)),
    "interpolate bilinear": (
        lambda F, x: F.interpolate(x, size=(5, 9), mode="bilinear"),
        (X4,),
        (0,),
    ),
    "interpolate linear align_corners": (
        lambda F, x: F.interpolate(x, size=11, mode="linear", align_corners=True),
        (X3,),
        (0,),
    ),
    "interpolate bicubic": (
        lambda F, x: F.interpolate(x, size=(7, 4), mode="bicubic"),
        (X4,),
        (0,),
    ),
    "interpolate bicubic scale align_corners": (
        lambda F, x: F.interpolate(x, scale_factor=(2.5, 0.7), mode="bicubic", align_corners=True),
        (X4,),
        (0,),
    ),
    "interpolate area": (lambda F, x: F.interpolate(x, size=(2, 3), mode="area"), (X4,), (0,)),
    "interpolate area 1-D": (
        lambda F, x: F.interpolate(x, scale_factor=0.6, mode="area"),
        (X3,),
        (0,),
    ),
    "dropout2d": (lambda F, x: F.dropout2d(x, 0.4), (X4,), (0,)),
    "dropout1d unbatched": (lambda F, x: F.dropout1d(x, 0.4), (X3[0],), (0,)),
    "relu_": (lambda F, x: F.relu_(x * 1), (X,), (0,)),
    "leaky_relu_": (lambda F, x: F.leaky_relu_(x * 1, 0.2), (X,), (0,)),
    "elu_": (lambda F, x: F.elu_(x * 1, 0.5), (X,), (0,)),
    "hardtanh_": (lambda F, x: F.hardtanh_(x * 1, -0.5, 0.7), (X,), (0,)),
    "threshold_": (lambda F, x: F.threshold_(x * 1, 0.1, 2.0), (X,), (0,)),
}


def _run(lib, name):
    call, arrays, needs = CALLS[name]
    lib.manual_seed(0)
    xs = [lib.tensor(a, requires_grad=i in needs) for i, a in enumerate(arrays)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = call(lib.nn.functional, *xs)
    g = np.linspace(-1.0, 1.0, out.numel()).reshape(tuple(out.shape))
    out.backward(lib.tensor(g))
    return out.detach().numpy(), [xs[i].grad.numpy() for i in needs]


@pytest.mark.parametrize("name", list(CALLS))
def test_function_matches_pytorch(name):
    (ours, ours_grads), (theirs, theirs_grads) = _run(mg, name), _run(torch, name)
    assert ours.shape == theirs.shape
    np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)
    for a, b in zip(ours_grads, theirs_grads, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-7, atol=1e-12, equal_nan=True)


def test_kl_div_mean_warns_as_pytorch():
    with pytest.warns(UserWarning, match="'batchmean' divides only by the batch size"):
        mg.nn.functional.kl_div(mg.tensor(X), mg.tensor(P))


def test_in_place_forms_write_into_their_input_and_refuse_a_leaf():
    x = mg.tensor([-1.0, 2.0])
    assert mg.nn.functional.threshold_(x, 0.0, 7.0) is x and x.tolist() == [7.0, 2.0]
    leaf = mg.tensor([1.0], requires_grad=True)
    for fn in ("relu_", "elu_", "hardtanh_", "leaky_relu_"):
        with pytest.raises(RuntimeError, match="leaf"):
            getattr(mg.nn.functional, fn)(leaf)


F64 = {"dtype": mg.float64}


@pytest.mark.parametrize(
    "fn, shapes",
    [
        (
            lambda x, w: mg.nn.functional.conv_transpose2d(x, w, stride=2, output_padding=1),
            [(1, 2, 3, 3), (2, 2, 2, 2)],
        ),
        (lambda x: mg.nn.functional.adaptive_avg_pool2d(x, (2, 3)), [(1, 2, 3, 5)]),
        (lambda x: mg.nn.functional.adaptive_max_pool2d(x, 2), [(2, 3, 5)]),
        (
            lambda x: mg.nn.functional.interpolate(x, scale_factor=1.5, mode="bilinear"),
            [(1, 1, 3, 2)],
        ),
        (lambda x: mg.nn.functional.pad(x, (1, 2), mode="reflect"), [(2, 4)]),
        (lambda x, w: mg.nn.functional.group_norm(x, 2, w), [(2, 4, 3), (4,)]),
        (lambda x: mg.nn.functional.rms_norm(x, (3,)), [(2, 3)]),
        (lambda x, y: mg.nn.functional.cosine_similarity(x, y), [(3, 4), (3, 4)]),
        (lambda x: mg.nn.functional.mish(x) + mg.nn.functional.selu(x), [(5,)]),
    ],
)
def test_gradients_of_every_order_and_forward_mode(fn, shapes):
    mg.manual_seed(0)
    xs = [mg.randn(*s, **F64, requires_grad=True) for s in shapes]
    assert mg.autograd.gradcheck(fn, xs, check_forward_ad=True)
    assert mg.autograd.gradgradcheck(fn, xs)


def _raise(lib, call):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call(lib)
    except Exception as e:  # noqa: BLE001  (the class is what is compared)
        return type(e)
    return None


BAD = {
    "glu of odd size": lambda L: L.nn.functional.glu(L.ones(3)),
    "glu of 0-d": lambda L: L.nn.functional.glu(L.tensor(1.0)),
    "celu alpha 0": lambda L: L.nn.functional.celu(L.ones(2), 0.0),
    "prelu slopes for other channels": lambda L: L.nn.functional.prelu(L.ones(2, 3), L.ones(2)),
    "prelu 2-D weight": lambda L: L.nn.functional.prelu(L.ones(2, 3), L.ones(3, 1)),
    "hardswish of ints": lambda L: L.nn.functional.hardswish(L.ones(2, dtype=L.int64)),
    "mish of ints": lambda L: L.nn.functional.mish(L.ones(2, dtype=L.int64)),
    "adaptive_max_pool2d of 2-D": lambda L: L.nn.functional.adaptive_max_pool2d(L.ones(3, 4), 1),
    "adaptive_avg_pool1d of 1-D": lambda L: L.nn.functional.adaptive_avg_pool1d(L.ones(3), 2),
    "max_pool1d of 1-D": lambda L: L.nn.functional.max_pool1d(L.ones(3), 2),
    "BatchNorm2d of 3-D": lambda L: L.nn.BatchNorm2d(3)(L.ones(2, 3, 4)),
    "GroupNorm groups": lambda L: L.nn.GroupNorm(3, 4),
    "group_norm channels": lambda L: L.nn.functional.group_norm(L.ones(2, 3, 5), 2),
    "dropout1d of 4-D": lambda L: L.nn.functional.dropout1d(L.ones(1, 2, 3, 4)),
    "Dropout2d p > 1": lambda L: L.nn.Dropout2d(1.5),
    "conv_transpose2d channels": lambda L: L.nn.functional.conv_transpose2d(
        L.ones(1, 3, 3, 3), L.ones(2, 3, 2, 2)
    ),
    "conv_transpose2d output_padding": lambda L: L.nn.functional.conv_transpose2d(
        L.ones(1, 2, 3, 3), L.ones(2, 3, 2, 2), stride=2, output_padding=2
    ),
    "conv_transpose1d too small": lambda L: L.nn.functional.conv_transpose1d(
        L.ones(1, 1, 1), L.ones(1, 1, 1), padding=2
    ),
    "ConvTranspose1d groups": lambda L: L.nn.ConvTranspose1d(3, 4, 3, groups=2),
    "pad reflect too wide": lambda L: L.nn.functional.pad(L.ones(3, 4), (4, 3), mode="reflect"),
    "pad reflect of 1-D": lambda L: L.nn.functional.pad(L.ones(4), (1, 1), mode="reflect"),
    "pad mode": lambda L: L.nn.functional.pad(L.ones(2, 3, 4), (1, 1), mode="foo"),
    "interpolate size and scale": lambda L: L.nn.functional.interpolate(
        L.ones(1, 1, 2), size=3, scale_factor=2
    ),
    "interpolate neither": lambda L: L.nn.functional.interpolate(L.ones(1, 1, 2)),
    "interpolate bilinear of 3-D": lambda L: L.nn.functional.interpolate(
        L.ones(1, 1, 2), scale_factor=2, mode="bilinear"
    ),
    "interpolate nearest align_corners": lambda L: L.nn.functional.interpolate(
        L.ones(1, 1, 2), scale_factor=2, align_corners=True
    ),
    "kl_div reduction": lambda L: L.nn.functional.kl_div(L.ones(2), L.ones(2), reduction="x"),
    "interpolate bicubic of 3-D": lambda L: L.nn.functional.interpolate(
        L.ones(1, 1, 2), scale_factor=2, mode="bicubic"
    ),
    "interpolate area align_corners": lambda L: L.nn.functional.interpolate(
        L.ones(1, 1, 2, 2), scale_factor=2, mode="area", align_corners=True
    ),
    "interpolate trilinear": lambda L: L.nn.functional.interpolate(
        L.ones(1, 1, 2, 2), scale_factor=2, mode="trilinear"
    ),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_input_raises_pytorchs_exception_class(name):
    theirs = _raise(torch, BAD[name])
    assert theirs is not None
    assert _raise(mg, BAD[name]) is theirs
