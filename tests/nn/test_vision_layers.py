"""The vision tutorials' functions against PyTorch (issue 27): pixel_shuffle/unshuffle,
channel_shuffle, unfold/fold, instance_norm, local_response_norm, bilinear, affine_grid,
grid_sample, rrelu, alpha_dropout, gumbel_softmax, max_unpool2d, conv3d.

One table of cases, each run in both libraries (``fn(L, *tensors)``, L the library): values
and gradients (float64 to 1e-12, float32 to 1e-5), gradcheck, forward mode, second-order
gradients where the op's gradient is an op again, and node names: PyTorch's, or listed in
``DIFFERENT``
(strict xfails, as tests/ops/test_node_names.py's; the same rows are in docs/differences.md).
Random layers seed both generators inside ``fn``, so their draws are compared too.
"""

from __future__ import annotations

import warnings
import zlib

import numpy as np
import pytest

import minigrad as mg
from minigrad.autograd import gradcheck

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle


def F(L):
    return L.nn.functional


def seeded(seed, fn):
    """``fn`` after ``L.manual_seed(seed)``: the same draws in both libraries, every call."""

    def run(L, *xs):
        L.manual_seed(seed)
        return fn(L, *xs)

    return run


def unpool(L, x):
    y, i = F(L).max_pool2d(x, 2, return_indices=True)
    return F(L).max_unpool2d(y, i, 2)


def unpool_sized(L, x):
    y, i = F(L).max_pool2d(x, (2, 3), stride=(2, 2), padding=(1, 1), return_indices=True)
    return F(L).max_unpool2d(y, i, (2, 3), (2, 2), (1, 1), output_size=x.shape[-2:])


GRID_MODES = [
    (mode, pad, align)
    for mode in ("bilinear", "nearest")
    for pad in ("zeros", "border", "reflection")
    for align in (True, False)
]

# name -> (fn, input shapes, second-order check)
CASES = {
    "pixel_shuffle": (lambda L, x: F(L).pixel_shuffle(x, 2), [(2, 8, 3, 4)], True),
    "pixel_shuffle unbatched r=3": (lambda L, x: F(L).pixel_shuffle(x, 3), [(9, 2, 1)], False),
    "pixel_shuffle 5-d": (lambda L, x: F(L).pixel_shuffle(x, 2), [(2, 1, 4, 2, 2)], False),
    "pixel_unshuffle": (lambda L, x: F(L).pixel_unshuffle(x, 2), [(2, 3, 4, 6)], True),
    "channel_shuffle": (lambda L, x: F(L).channel_shuffle(x, 3), [(2, 6, 3)], True),
    "channel_shuffle 4-d": (lambda L, x: F(L).channel_shuffle(x, 2), [(1, 8, 2, 2)], False),
    "unfold": (
        lambda L, x: F(L).unfold(x, (2, 3), dilation=(1, 2), padding=1, stride=(2, 1)),
        [(2, 3, 5, 6)],
        True,
    ),
    "unfold unbatched": (lambda L, x: F(L).unfold(x, 2), [(3, 4, 4)], False),
    "fold": (
        lambda L, c: F(L).fold(c, (5, 7), 2, stride=2, padding=1),
        [(2, 12, 12)],
        True,
    ),
    "fold overlapping dilated": (
        lambda L, c: F(L).fold(c, (4, 5), (2, 2), dilation=(1, 2)),
        [(8, 9)],
        False,
    ),
    "instance_norm": (lambda L, x: F(L).instance_norm(x), [(2, 3, 5)], True),
    "instance_norm affine": (
        lambda L, x, w, b: F(L).instance_norm(x, weight=w, bias=b, eps=1e-3),
        [(2, 3, 4, 4), (3,), (3,)],
        False,
    ),
    "local_response_norm 3-d": (lambda L, x: F(L).local_response_norm(x, 3), [(2, 5, 4)], True),
    "local_response_norm 4-d": (
        lambda L, x: F(L).local_response_norm(x, 2, alpha=0.1, beta=0.5, k=2.0),
        [(2, 6, 3, 3)],
        False,
    ),
    "bilinear": (
        lambda L, a, b, w, c: F(L).bilinear(a, b, w, c),
        [(4, 3), (4, 5), (2, 3, 5), (2,)],
        True,
    ),
    "bilinear batch dims no bias": (
        lambda L, a, b, w: F(L).bilinear(a, b, w),
        [(2, 3, 3), (2, 3, 4), (5, 3, 4)],
        False,
    ),
    **{
        f"affine_grid align_corners={a}": (
            lambda L, t, a=a: F(L).affine_grid(t, (2, 3, 4, 5), align_corners=a),
            [(2, 2, 3)],
            True,
        )
        for a in (True, False)
    },
    "affine_grid one row": (
        lambda L, t: F(L).affine_grid(t, (1, 1, 1, 3), align_corners=False),
        [(1, 2, 3)],
        False,
    ),
    **{
        f"grid_sample {m} {p} align_corners={a}": (
            lambda L, x, g, m=m, p=p, a=a: F(L).grid_sample(
                x, g * 1.3, mode=m, padding_mode=p, align_corners=a
            ),
            [(2, 3, 4, 5), (2, 3, 4, 2)],
            True,
        )
        for m, p, a in GRID_MODES
    },
    "spatial transformer": (
        lambda L, x, t: F(L).grid_sample(
            x, F(L).affine_grid(t, (2, 3, 3, 4), align_corners=False), align_corners=False
        ),
        [(2, 3, 4, 5), (2, 2, 3)],
        True,
    ),
    "rrelu eval": (lambda L, x: F(L).rrelu(x, 0.1, 0.3), [(3, 4)], False),
    "rrelu training": (
        seeded(3, lambda L, x: F(L).rrelu(x, training=True)),
        [(4, 5)],
        False,
    ),
    "alpha_dropout training": (
        seeded(5, lambda L, x: F(L).alpha_dropout(x, 0.3, training=True)),
        [(4, 5)],
        False,
    ),
    "gumbel_softmax": (
        seeded(7, lambda L, x: F(L).gumbel_softmax(x, tau=0.5, dim=1)),
        [(3, 4)],
        False,
    ),
    "gumbel_softmax hard": (
        seeded(7, lambda L, x: F(L).gumbel_softmax(x, hard=True)),
        [(3, 4)],
        False,
    ),
    "max_unpool2d": (unpool, [(2, 3, 4, 4)], True),
    "max_unpool2d output_size": (unpool_sized, [(3, 5, 6)], False),
    "conv3d": (
        lambda L, x, w, b: F(L).conv3d(x, w, b, stride=(1, 2, 1), padding=1, groups=2),
        [(1, 4, 3, 4, 3), (4, 2, 2, 3, 2), (4,)],
        True,
    ),
    "max_pool3d": (lambda L, x: F(L).max_pool3d(x, 2), [(2, 3, 4, 5, 4)], True),
    "max_pool3d padded dilated ceil": (
        lambda L, x: F(L).max_pool3d(
            x, (3, 2, 2), stride=(2, 1, 2), padding=(1, 0, 1), dilation=(1, 2, 1), ceil_mode=True
        ),
        [(2, 6, 5, 5)],
        False,
    ),
    "max_pool3d indices": (
        lambda L, x: F(L).max_pool3d(x, 2, return_indices=True)[1].to(x.dtype) * x.sum(),
        [(1, 2, 4, 4, 4)],
        False,
    ),
    "avg_pool3d": (lambda L, x: F(L).avg_pool3d(x, 2), [(2, 3, 4, 5, 4)], True),
    "avg_pool3d padded no pad count ceil": (
        lambda L, x: F(L).avg_pool3d(
            x, 3, stride=2, padding=1, ceil_mode=True, count_include_pad=False
        ),
        [(2, 5, 6, 4)],
        False,
    ),
    "avg_pool3d divisor_override": (
        lambda L, x: F(L).avg_pool3d(x, (2, 1, 3), divisor_override=4),
        [(1, 2, 4, 3, 6)],
        False,
    ),
    "conv3d unbatched dilated": (
        lambda L, x, w: F(L).conv3d(x, w, dilation=(2, 1, 1)),
        [(2, 5, 3, 3), (3, 2, 2, 2, 2)],
        False,
    ),
}

DIFFERENT = {
    "instance_norm": "elementary nodes (PyTorch: NativeBatchNormBackward0 between ViewBackward0s)",
    "instance_norm affine": "elementary nodes (PyTorch: NativeBatchNormBackward0 between views)",
    "local_response_norm 4-d": "a 2-D pool of a reshape (PyTorch: AvgPool3DBackward0 of a view)",
    "bilinear": "one EinsumBackward0 (PyTorch: TrilinearBackward0 between ViewBackward0s)",
    "bilinear batch dims no bias": "one EinsumBackward0 (PyTorch: TrilinearBackward0, views)",
}


def _arrays(name, shapes, dtype):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    return [rng.standard_normal(s).astype(dtype) for s in shapes]


def _run(L, fn, arrays):
    xs = [L.tensor(a, requires_grad=True) for a in arrays]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return xs, fn(L, *xs)


def node_names(t) -> list:
    seen, names, stack = set(), [], [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        names.append(node.name().removeprefix("torch::autograd::"))
        stack.extend(n for n, _ in reversed(node.next_functions))
    return names


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("name", list(CASES))
def test_values_and_gradients_are_pytorchs(name, dtype):
    fn, shapes, _ = CASES[name]
    arrays = _arrays(name, shapes, dtype)
    (xs, ours), (ts, theirs) = _run(mg, fn, arrays), _run(torch, fn, arrays)
    tol = {"rtol": 1e-12, "atol": 1e-12} if dtype == np.float64 else {"rtol": 1e-5, "atol": 1e-5}
    assert ours.dtype.name == str(theirs.dtype).removeprefix("torch.")
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), **tol)
    g = np.random.default_rng(1).standard_normal(tuple(ours.shape)).astype(dtype)
    ours.backward(mg.tensor(g))
    theirs.backward(torch.tensor(g))
    for x, t in zip(xs, ts):
        np.testing.assert_allclose(x.grad.numpy(), t.grad.numpy(), **tol)


# PyTorch's gradient is not the derivative here: the straight-through estimator's (of one-hot
# values), and max_unpool2d's where overlapping windows repeat an index (the value is written
# once, but each copy gets the gradient: 2 where the derivative is 1, in both libraries)
NOT_A_DERIVATIVE = {"gumbel_softmax hard", "max_unpool2d output_size"}


@pytest.mark.parametrize("name", [n for n in CASES if n not in NOT_A_DERIVATIVE])
def test_gradcheck(name):
    fn, shapes, _ = CASES[name]
    xs = [mg.tensor(a, requires_grad=True) for a in _arrays(name, shapes, np.float64)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert gradcheck(lambda *t: fn(mg, *t), tuple(xs), eps=1e-6, atol=1e-5, rtol=1e-3)


@pytest.mark.parametrize("name", [n for n, case in CASES.items() if case[2]])
def test_second_order_gradients_are_pytorchs(name):
    fn, shapes, _ = CASES[name]
    arrays = _arrays(name, shapes, np.float64)
    results = []
    for L in (mg, torch):
        xs, y = _run(L, fn, arrays)
        g = L.tensor(np.random.default_rng(2).standard_normal(tuple(y.shape)), requires_grad=True)
        firsts = L.autograd.grad(y, xs, g, create_graph=True)
        total = sum((f * f).sum() for f in firsts if f.requires_grad)
        seconds = L.autograd.grad(total, xs + [g], allow_unused=True)
        results.append([None if s is None else s.detach().numpy() for s in seconds])
    for ours, theirs in zip(*results):
        if ours is None or theirs is None:
            assert ours is None or not ours.any() or theirs is None
            continue
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)


def _node_cases():
    for name in CASES:
        why = DIFFERENT.get(name)
        marks = () if why is None else pytest.mark.xfail(strict=True, reason=why)
        yield pytest.param(name, marks=marks, id=name)


@pytest.mark.parametrize("name", list(_node_cases()))
def test_node_names_are_pytorchs(name):
    fn, shapes, _ = CASES[name]
    arrays = _arrays(name, shapes, np.float64)
    assert node_names(_run(mg, fn, arrays)[1]) == node_names(_run(torch, fn, arrays)[1])


def test_every_listed_difference_names_a_case():
    assert set(DIFFERENT) <= set(CASES)


@pytest.mark.parametrize("name", [n for n in CASES if n not in NOT_A_DERIVATIVE])
def test_forward_mode_is_the_directional_derivative(name):
    """``func.jvp`` against central differences (PyTorch has no forward rule for grid_sample)."""
    fn, shapes, _ = CASES[name]
    arrays = _arrays(name, shapes, np.float64)
    tangents = [np.random.default_rng(9).standard_normal(s) for s in shapes]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, ours = mg.func.jvp(
            lambda *xs: fn(mg, *xs),
            tuple(mg.tensor(a) for a in arrays),
            tuple(mg.tensor(t) for t in tangents),
        )

        def at(step):
            shifted = [mg.tensor(a + step * t) for a, t in zip(arrays, tangents)]
            return fn(mg, *shifted).numpy()

        numeric = (at(1e-6) - at(-1e-6)) / 2e-6
    np.testing.assert_allclose(ours.numpy(), numeric, rtol=1e-5, atol=1e-6)
