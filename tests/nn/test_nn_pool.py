"""Pooling against PyTorch: F.max_pool2d / F.avg_pool2d values, gradients (first and second
order), ties, return_indices, the nn modules, and bad input."""

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.oracle

CONFIGS = [
    ("max_pool2d", (2, 3, 5, 5), {"kernel_size": 2}),
    ("max_pool2d", (2, 3, 6, 7), {"kernel_size": 3, "stride": 2, "padding": 1}),
    (
        "max_pool2d",
        (3, 7, 7),
        {"kernel_size": (2, 3), "stride": (1, 2), "padding": 1, "dilation": 2},
    ),
    ("max_pool2d", (2, 3, 7, 6), {"kernel_size": 3, "stride": 2, "ceil_mode": True}),
    ("max_pool2d", (0, 3, 4, 4), {"kernel_size": 2}),
    ("avg_pool2d", (2, 3, 5, 5), {"kernel_size": 2}),
    ("avg_pool2d", (2, 3, 6, 7), {"kernel_size": 3, "stride": 2, "padding": 1}),
    (
        "avg_pool2d",
        (2, 3, 6, 7),
        {"kernel_size": 3, "stride": 2, "padding": 1, "count_include_pad": False},
    ),
    ("avg_pool2d", (3, 7, 6), {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True}),
    (
        "avg_pool2d",
        (3, 7, 6),
        {
            "kernel_size": 3,
            "stride": 2,
            "padding": 1,
            "ceil_mode": True,
            "count_include_pad": False,
        },
    ),
    ("avg_pool2d", (3, 7, 6), {"kernel_size": (2, 3), "divisor_override": 4}),
]


def _run(lib, name, x, kw, g, h):
    leaf = lib.tensor(x, requires_grad=True)
    y = getattr(lib.nn.functional, name)(leaf, **kw)
    gout = lib.tensor(g, requires_grad=True)  # so the gradient's own graph is recorded
    (gx,) = lib.autograd.grad(y, leaf, gout, create_graph=True)
    (gg,) = lib.autograd.grad(gx, gout, lib.tensor(h))  # the double backward, w.r.t. g
    return [t.detach().numpy() for t in (y, gx, gg)]


@pytest.mark.parametrize(("name", "shape", "kw"), CONFIGS, ids=lambda v: str(v))
def test_pool_values_and_gradients_match_torch(name, shape, kw):
    rng = np.random.default_rng(sum(shape))
    x = rng.standard_normal(shape)
    out = getattr(torch.nn.functional, name)(torch.tensor(x), **kw).shape
    g, h = rng.standard_normal(tuple(out)), rng.standard_normal(shape)
    for what, a, t in zip(
        ("output", "grad", "grad of grad"),
        _run(mg, name, x, kw, g, h),
        _run(torch, name, x, kw, g, h),
    ):
        assert a.shape == t.shape, what
        np.testing.assert_allclose(a, t, rtol=1e-12, atol=1e-14, err_msg=what)


def test_max_pool_ties_give_the_gradient_to_the_first_max_as_torch():
    x = np.array([[[[1.0, 2.0, 2.0], [2.0, 0.0, 2.0], [2.0, 2.0, 2.0]]]])
    grads = []
    for lib in (mg, torch):
        leaf = lib.tensor(x, requires_grad=True)
        lib.nn.functional.max_pool2d(leaf, 2, stride=1).sum().backward()
        grads.append(leaf.grad.numpy())
    np.testing.assert_array_equal(grads[0], grads[1])
    assert grads[0][0, 0, 0, 1] == 2.0  # the top-middle 2 is first in two windows


def test_return_indices_and_dtypes_match_torch():
    x = np.random.default_rng(3).standard_normal((2, 3, 5, 6)).astype(np.float32)
    y, idx = F.max_pool2d(mg.tensor(x), 3, stride=2, padding=1, return_indices=True)
    ty, tidx = torch.nn.functional.max_pool2d(torch.tensor(x), 3, 2, 1, return_indices=True)
    np.testing.assert_array_equal(idx.numpy(), tidx.numpy())
    assert y.dtype is mg.float32 and idx.dtype is mg.int64
    assert F.avg_pool2d(mg.tensor(x), 2).dtype is mg.float32
    xi = np.arange(-8, 8).reshape(1, 4, 4)
    np.testing.assert_array_equal(
        F.avg_pool2d(mg.tensor(xi), 3, stride=1).numpy(),
        torch.nn.functional.avg_pool2d(torch.tensor(xi), 3, stride=1).numpy(),
    )


def test_node_names():
    x = mg.randn(1, 2, 4, 4, requires_grad=True)
    assert F.max_pool2d(x, 2).grad_fn.name() == "MaxPool2DWithIndicesBackward0"
    assert F.avg_pool2d(x, 2).grad_fn.name() == "AvgPool2DBackward0"


MODULES = [
    ("MaxPool2d", (2,), {}),
    ("MaxPool2d", ((2, 3),), {"stride": 1, "padding": 1, "dilation": 2, "ceil_mode": True}),
    ("AvgPool2d", (2,), {}),
    ("AvgPool2d", ((2, 3), 1, 1), {"ceil_mode": True, "count_include_pad": False}),
    ("AvgPool2d", (3,), {"stride": 2, "divisor_override": 2}),
]


@pytest.mark.parametrize(("cls", "args", "kw"), MODULES, ids=lambda v: str(v))
def test_modules_match_torch(cls, args, kw):
    ours, theirs = getattr(mg.nn, cls)(*args, **kw), getattr(torch.nn, cls)(*args, **kw)
    assert repr(ours) == repr(theirs)
    assert list(ours.state_dict()) == list(theirs.state_dict()) == []
    x = np.random.default_rng(0).standard_normal((2, 3, 7, 8))
    np.testing.assert_allclose(
        ours(mg.tensor(x)).numpy(), theirs(torch.tensor(x)).numpy(), rtol=1e-12
    )


BAD = [
    ("2-D input", lambda m: m.nn.functional.max_pool2d(m.ones(4, 4), 2), "[4, 4]"),
    ("pad over half", lambda m: m.nn.functional.max_pool2d(m.ones(1, 5, 5), 2, padding=2), "half"),
    ("kernel too large", lambda m: m.nn.functional.max_pool2d(m.ones(1, 5, 5), 7), "1x0x0"),
    ("stride 0", lambda m: m.nn.functional.max_pool2d(m.ones(1, 5, 5), 2, stride=0), "stride"),
    (
        "kernel of 3 values",
        lambda m: m.nn.functional.max_pool2d(m.ones(1, 5, 5), (2, 2, 2)),
        "kernel_size",
    ),
    (
        "dilation 0",
        lambda m: m.nn.functional.max_pool2d(m.ones(1, 5, 5), 2, dilation=0),
        "dilation",
    ),
    ("negative pad", lambda m: m.nn.functional.max_pool2d(m.ones(1, 5, 5), 2, padding=-1), "pad"),
    (
        "avg pad over half",
        lambda m: m.nn.functional.avg_pool2d(m.ones(1, 5, 5), 2, padding=2),
        "half",
    ),
    ("avg too large", lambda m: m.nn.functional.avg_pool2d(m.ones(1, 5, 5), 7), "too small"),
    (
        "divisor 0",
        lambda m: m.nn.functional.avg_pool2d(m.ones(1, 5, 5), 2, divisor_override=0),
        "divisor",
    ),
]


@pytest.mark.parametrize(("name", "call", "words"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_raises_like_torch(name, call, words):
    with pytest.raises(RuntimeError):
        call(torch)
    with pytest.raises(RuntimeError) as info:
        call(mg)
    assert words in str(info.value)
