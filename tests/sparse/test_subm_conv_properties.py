"""hypothesis over random active-site patterns: any set of sites (none, one, on the border,
duplicated, in any order), grid, channels and odd window; the convolution and its three
gradients equal the dense numpy reference at the active sites."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from subm_conv_helpers import dense_conv_grads, subm_reference, zero_filled

import minigrad as mg


@st.composite
def cases(draw, spatial=2):
    sizes = tuple(draw(st.integers(1, 6)) for _ in range(spatial))
    window = tuple(draw(st.sampled_from([1, 3, 5])) for _ in range(spatial))
    cells = st.tuples(*(st.integers(0, n - 1) for n in sizes))
    sites = draw(st.lists(cells, max_size=min(12, int(np.prod(sizes))) + 3))  # duplicates too
    c, o = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    seed = draw(st.integers(0, 2**32 - 1))
    return sizes, window, np.array(sites, dtype=np.int64).reshape(-1, spatial).T, c, o, seed


def _check(sizes, window, sites, c, o, seed):
    rng = np.random.default_rng(seed)
    values = rng.standard_normal((sites.shape[1], c))
    w, b = rng.standard_normal((o, c, *window)), rng.standard_normal(o)
    v = mg.tensor(values, requires_grad=True)
    wt, bt = mg.tensor(w, requires_grad=True), mg.tensor(b, requires_grad=True)
    x = mg.sparse_coo_tensor(sites, v, (*sizes, c))
    op = mg.sparse.subm_conv2d if len(sizes) == 2 else mg.sparse.subm_conv3d
    y = op(x, wt, bt)

    unique, want = subm_reference(sites, values, sizes, w, b)
    assert y.shape == (*sizes, o) and y.nnz == unique.shape[1]
    np.testing.assert_array_equal(y.indices().numpy(), unique)
    np.testing.assert_allclose(y.values().detach().numpy(), want, rtol=1e-10, atol=1e-12)

    g = rng.standard_normal((y.nnz, o))
    (y.values() * mg.tensor(g)).sum().backward()
    gx, gw, gb = dense_conv_grads(
        zero_filled(sites, values, sizes), w, zero_filled(unique, g, sizes)
    )
    np.testing.assert_allclose(v.grad.numpy(), gx[tuple(sites)], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(wt.grad.numpy(), gw, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(bt.grad.numpy(), gb, rtol=1e-10, atol=1e-12)


@settings(max_examples=80, deadline=None)
@given(cases())
def test_random_patterns_2d(case):
    _check(*case)


@settings(max_examples=25, deadline=None)
@given(cases(spatial=3))
def test_random_patterns_3d(case):
    _check(*case)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 7), st.integers(1, 7), st.sampled_from([1, 3, 5, 7]))
def test_every_border_site_alone(h, w, k):
    # one site at each corner and edge middle: the window hangs off the grid
    rng = np.random.default_rng(h * 10 + w)
    for y, x in {(0, 0), (0, w - 1), (h - 1, 0), (h - 1, w - 1), (h // 2, 0), (0, w // 2)}:
        sites = np.array([[y], [x]])
        _check((h, w), (k, k), sites, 2, 2, int(rng.integers(1000)))
