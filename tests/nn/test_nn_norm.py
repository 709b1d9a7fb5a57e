"""LayerNorm and BatchNorm1d: values, gradients (float64 gradcheck), modes, buffers, errors.

PyTorch is the oracle for values and for the gradients of input, weight and bias,
with the same weights copied across.
"""

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from minigrad import nn

RNG = np.random.default_rng(0)
TOL = {"eps": 1e-6, "atol": 1e-5, "rtol": 1e-3}


def leaf(a):
    return mg.tensor(a, dtype=mg.float64, requires_grad=True)


# --- layer_norm ---------------------------------------------------------------------------
@pytest.mark.parametrize("shape, normalized", [((4, 5), (5,)), ((2, 3, 4), (3, 4)), ((6,), (6,))])
def test_layer_norm_matches_numpy_with_biased_variance(shape, normalized):
    x = RNG.standard_normal(shape)
    w, b = RNG.standard_normal(normalized), RNG.standard_normal(normalized)
    axes = tuple(range(-len(normalized), 0))
    ref = (x - x.mean(axes, keepdims=True)) / np.sqrt(x.var(axes, keepdims=True) + 1e-5) * w + b
    out = F.layer_norm(mg.tensor(x), normalized, mg.tensor(w), mg.tensor(b))
    np.testing.assert_allclose(out.detach().numpy(), ref, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("affine", [True, False])
def test_layer_norm_gradcheck_and_gradgradcheck(affine):
    x = leaf(RNG.standard_normal((3, 2, 4)))
    w, b = leaf(RNG.standard_normal((2, 4))), leaf(RNG.standard_normal((2, 4)))
    args = (x, w, b) if affine else (x,)

    def f(x, w=None, b=None):
        return F.layer_norm(x, (2, 4), w, b, eps=1e-3)

    assert mg.autograd.gradcheck(f, args, **TOL)
    assert mg.autograd.gradgradcheck(f, args, **TOL)


def test_layer_norm_module_parameters_repr_and_dtype():
    norm = nn.LayerNorm(4)
    assert norm.normalized_shape == (4,) and norm.weight.tolist() == [1.0] * 4
    assert [n for n, _ in norm.named_parameters()] == ["weight", "bias"]
    assert repr(norm) == "LayerNorm((4,), eps=1e-05, elementwise_affine=True, bias=True)"
    bare = nn.LayerNorm([2, 3], eps=1e-3, elementwise_affine=False)
    assert bare.weight is None and bare.bias is None and list(bare.state_dict()) == []
    assert repr(bare) == "LayerNorm((2, 3), eps=0.001, elementwise_affine=False, bias=False)"
    no_bias = nn.LayerNorm(3, bias=False, dtype=mg.float64)
    assert no_bias.bias is None and no_bias.weight.dtype is mg.float64
    out = no_bias(mg.randn(2, 3, dtype=mg.float64))
    assert out.dtype is mg.float64 and abs(out.detach().numpy().mean(-1)).max() < 1e-12
    y = nn.LayerNorm(3)(mg.randn(5, 3))
    assert y.dtype is mg.float32
    with mg.no_grad():
        norm.weight.fill_(3.0)
    norm.reset_parameters()
    assert norm.weight.tolist() == [1.0] * 4


def test_layer_norm_empty_and_constant_rows():
    assert F.layer_norm(mg.zeros(2, 0), (0,)).shape == (2, 0)
    x = leaf(np.full((2, 3), 5.0))
    out = F.layer_norm(x, (3,))
    assert not out.detach().numpy().any()  # x - mean is 0; eps keeps the division finite
    out.sum().backward()
    assert np.isfinite(x.grad.detach().numpy()).all()


@pytest.mark.parametrize(
    "call, exc, match",
    [
        (
            lambda: F.layer_norm(mg.randn(2, 3), [4]),
            RuntimeError,
            r"expected input with shape \[\*, 4\]",
        ),
        (lambda: F.layer_norm(mg.randn(2, 3), (2, 3, 4)), RuntimeError, "but got input of size"),
        (
            lambda: F.layer_norm(mg.randn(2, 3), (2, 3), mg.ones(3)),
            RuntimeError,
            "Expected weight to be of same shape",
        ),
        (
            lambda: F.layer_norm(mg.randn(2, 3), (3,), None, mg.ones(2)),
            RuntimeError,
            "Expected bias to be of same shape",
        ),
        (
            lambda: F.layer_norm(mg.randn(3), 3),
            TypeError,
            "'normalized_shape' .* must be tuple of ints, not int",
        ),
        (lambda: F.layer_norm(mg.randn(3), ()), RuntimeError, "at least 1-dimensional"),
        (lambda: F.layer_norm(mg.arange(3), (3,)), TypeError, "floating point"),
        (lambda: F.layer_norm([1.0], (1,)), TypeError, "must be Tensor"),
    ],
)
def test_layer_norm_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


# --- batch_norm ---------------------------------------------------------------------------
def test_batch_norm_training_uses_batch_stats_and_updates_running_stats():
    bn = nn.BatchNorm1d(3, dtype=mg.float64)
    x = RNG.standard_normal((8, 3)) * 2 + 1
    out = bn(mg.tensor(x)).detach().numpy()
    ref = (x - x.mean(0)) / np.sqrt(x.var(0) + 1e-5)
    np.testing.assert_allclose(out, ref, rtol=1e-10)
    np.testing.assert_allclose(bn.running_mean.detach().numpy(), 0.1 * x.mean(0), rtol=1e-12)
    np.testing.assert_allclose(
        bn.running_var.detach().numpy(), 0.9 + 0.1 * x.var(0, ddof=1), rtol=1e-12
    )
    assert bn.num_batches_tracked.item() == 1 and bn.num_batches_tracked.dtype is mg.int64
    bn.eval()
    x2 = RNG.standard_normal((4, 3))
    ref2 = (x2 - bn.running_mean.detach().numpy()) / np.sqrt(bn.running_var.detach().numpy() + 1e-5)
    np.testing.assert_allclose(bn(mg.tensor(x2)).detach().numpy(), ref2, rtol=1e-10)
    assert bn.num_batches_tracked.item() == 1  # eval leaves the buffers alone


def test_batch_norm_3d_input_cumulative_momentum_and_no_running_stats():
    x = RNG.standard_normal((4, 2, 5))
    bn = nn.BatchNorm1d(2, momentum=None, affine=False, dtype=mg.float64)
    bn(mg.tensor(x))
    bn(mg.tensor(x * 3))
    # cumulative average of the two batches' means
    np.testing.assert_allclose(
        bn.running_mean.detach().numpy(), (x.mean((0, 2)) * 4) / 2, rtol=1e-12
    )
    free = nn.BatchNorm1d(2, track_running_stats=False, dtype=mg.float64).eval()
    assert free.running_mean is None and list(free.state_dict()) == ["weight", "bias"]
    ref = (x - x.mean((0, 2), keepdims=True)) / np.sqrt(x.var((0, 2), keepdims=True) + 1e-5)
    np.testing.assert_allclose(free(mg.tensor(x)).detach().numpy(), ref, rtol=1e-10)


def test_batch_norm_gradcheck_in_training_and_eval():
    x = leaf(RNG.standard_normal((5, 3)))
    w, b = leaf(RNG.random(3) + 0.5), leaf(RNG.standard_normal(3))

    def train(x, w, b):
        return F.batch_norm(x, None, None, w, b, training=True, eps=1e-3)

    def evaluate(x, w, b):
        stats = (
            mg.tensor([0.1, -0.2, 0.3], dtype=mg.float64),
            mg.tensor([1.0, 2.0, 0.5], dtype=mg.float64),
        )
        return F.batch_norm(x, *stats, w, b, training=False)

    for f in (train, evaluate):
        assert mg.autograd.gradcheck(f, (x, w, b), **TOL)
        assert mg.autograd.gradgradcheck(f, (x, w, b), **TOL)


def test_batch_norm_module_state_dict_repr_and_reset():
    bn = nn.BatchNorm1d(3)
    assert list(bn.state_dict()) == [
        "weight",
        "bias",
        "running_mean",
        "running_var",
        "num_batches_tracked",
    ]
    assert [n for n, _ in bn.named_parameters()] == ["weight", "bias"]
    assert repr(bn) == (
        "BatchNorm1d(3, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)"
    )
    bn(mg.randn(4, 3))
    bn.reset_running_stats()
    assert bn.running_mean.tolist() == [0.0] * 3 and bn.running_var.tolist() == [1.0] * 3
    assert bn.num_batches_tracked.item() == 0
    bn.double()
    assert bn.running_mean.dtype is mg.float64 and bn.num_batches_tracked.dtype is mg.int64
    assert nn.BatchNorm1d(3, bias=False).bias is None


@pytest.mark.parametrize(
    "call, exc, match",
    [
        (
            lambda: nn.BatchNorm1d(3)(mg.randn(3)),
            ValueError,
            r"expected 2D or 3D input \(got 1D input\)",
        ),
        (lambda: nn.BatchNorm1d(3)(mg.randn(2, 3, 4, 5)), ValueError, "got 4D input"),
        (
            lambda: nn.BatchNorm1d(3)(mg.randn(1, 3)),
            ValueError,
            "Expected more than 1 value per channel",
        ),
        (
            lambda: nn.BatchNorm1d(2)(mg.randn(4, 3)),
            RuntimeError,
            "should contain 3 elements not 2",
        ),
        (
            lambda: F.batch_norm(mg.randn(4, 3), None, None),
            RuntimeError,
            "running_mean must be defined",
        ),
        (
            lambda: F.batch_norm(mg.arange(6).reshape(2, 3), None, None, training=True),
            TypeError,
            "floating point",
        ),
    ],
)
def test_batch_norm_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


# --- PyTorch as oracle -------------------------------------------------------------------
def _copy_params(ours, theirs, torch):
    theirs.load_state_dict(
        {k: torch.tensor(v.detach().numpy()) for k, v in ours.state_dict().items()}
    )


def _grads(module):
    return [p.grad.detach().numpy() for p in module.parameters()]


@pytest.mark.oracle
@pytest.mark.parametrize("shape, normalized", [((4, 5), 5), ((2, 3, 4), (3, 4)), ((3, 2, 2), [2])])
@pytest.mark.parametrize("bias", [True, False])
def test_layer_norm_values_and_gradients_match_torch(shape, normalized, bias):
    torch = pytest.importorskip("torch")
    ours = nn.LayerNorm(normalized, eps=1e-4, bias=bias, dtype=mg.float64)
    theirs = torch.nn.LayerNorm(normalized, eps=1e-4, bias=bias, dtype=torch.float64)
    with mg.no_grad():  # non-trivial weights, copied across
        ours.weight.copy_(mg.tensor(RNG.standard_normal(ours.weight.shape)))
        if bias:
            ours.bias.copy_(mg.tensor(RNG.standard_normal(ours.bias.shape)))
    _copy_params(ours, theirs, torch)
    assert repr(ours) == repr(theirs)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    x, g = RNG.standard_normal(shape), RNG.standard_normal(shape)
    a, b = mg.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    out, ref = ours(a), theirs(b)
    np.testing.assert_allclose(out.detach().numpy(), ref.detach().numpy(), rtol=1e-10, atol=1e-12)
    out.backward(mg.tensor(g))
    ref.backward(torch.tensor(g))
    np.testing.assert_allclose(
        a.grad.detach().numpy(), b.grad.detach().numpy(), rtol=1e-8, atol=1e-12
    )
    for ga, gb in zip(_grads(ours), _grads(theirs)):
        np.testing.assert_allclose(ga, gb, rtol=1e-8, atol=1e-12)


@pytest.mark.oracle
def test_layer_norm_float32_matches_torch():
    torch = pytest.importorskip("torch")
    x = RNG.standard_normal((6, 8)).astype(np.float32) * 10 + 3
    out = F.layer_norm(mg.tensor(x), (8,)).detach().numpy()
    ref = torch.nn.functional.layer_norm(torch.tensor(x), (8,)).detach().numpy()
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-5)


@pytest.mark.oracle
@pytest.mark.parametrize("shape", [(6, 3), (4, 3, 5)])
@pytest.mark.parametrize("momentum", [0.1, None])
def test_batch_norm_training_eval_and_buffers_match_torch(shape, momentum):
    torch = pytest.importorskip("torch")
    ours = nn.BatchNorm1d(3, momentum=momentum, dtype=mg.float64)
    theirs = torch.nn.BatchNorm1d(3, momentum=momentum, dtype=torch.float64)
    with mg.no_grad():
        ours.weight.copy_(mg.tensor(RNG.random(3) + 0.5))
        ours.bias.copy_(mg.tensor(RNG.standard_normal(3)))
    _copy_params(ours, theirs, torch)
    assert repr(ours) == repr(theirs)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    for step in range(3):
        x, g = RNG.standard_normal(shape) * (step + 1), RNG.standard_normal(shape)
        a, b = mg.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
        out, ref = ours(a), theirs(b)
        np.testing.assert_allclose(
            out.detach().numpy(), ref.detach().numpy(), rtol=1e-10, atol=1e-12
        )
        out.backward(mg.tensor(g))
        ref.backward(torch.tensor(g))
        np.testing.assert_allclose(
            a.grad.detach().numpy(), b.grad.detach().numpy(), rtol=1e-8, atol=1e-12
        )
    for ga, gb in zip(_grads(ours), _grads(theirs)):
        np.testing.assert_allclose(ga, gb, rtol=1e-8, atol=1e-12)
    for (name, v), w in zip(ours.state_dict().items(), theirs.state_dict().values()):
        np.testing.assert_allclose(v.detach().numpy(), w.detach().numpy(), rtol=1e-12, err_msg=name)
    ours.eval()
    theirs.eval()
    x = RNG.standard_normal(shape)
    np.testing.assert_allclose(
        ours(mg.tensor(x)).detach().numpy(), theirs(torch.tensor(x)).detach().numpy(), rtol=1e-10
    )


@pytest.mark.oracle
@pytest.mark.parametrize(
    "call",
    [
        lambda lib: lib.nn.functional.layer_norm(lib.randn(2, 3), [4]),
        lambda lib: lib.nn.functional.layer_norm(lib.randn(3), 3),
        lambda lib: lib.nn.functional.layer_norm(lib.randn(2, 3), (3,), lib.ones(2)),
        lambda lib: lib.nn.BatchNorm1d(3)(lib.randn(3)),
        lambda lib: lib.nn.BatchNorm1d(3)(lib.randn(1, 3)),
        lambda lib: lib.nn.BatchNorm1d(2)(lib.randn(4, 3)),
        lambda lib: lib.nn.functional.batch_norm(lib.randn(4, 3), None, None),
    ],
)
def test_norm_error_types_match_torch(call):
    torch = pytest.importorskip("torch")
    with pytest.raises(Exception) as theirs:
        call(torch)
    with pytest.raises(type(theirs.value)):
        call(mg)
