"""Submanifold convolution (mg.sparse.subm_conv2d / subm_conv3d): forward against a dense
numpy reference written from the definition, gradchecks (float64, masked for the sparse
input), the rule book and its cache, duplicates, empty inputs, and second order."""

import gc

import numpy as np
import pytest
from subm_conv_helpers import (
    dense_conv_grads,
    hybrid,
    random_sites,
    subm_reference,
    zero_filled,
)

import minigrad as mg
from minigrad.autograd import gradcheck
from minigrad.sparse import conv_rules
from minigrad.sparse.ops_conv import SubMConvTranspose, SubMConvWeight


def _case(seed=0, sizes=(5, 6), c=2, o=3, window=(3, 3), density=0.4):
    rng = np.random.default_rng(seed)
    sites = random_sites(rng, sizes, density)
    values = rng.standard_normal((sites.shape[1], c))
    w = rng.standard_normal((o, c, *window))
    b = rng.standard_normal(o)
    return rng, sites, values, w, b


def _conv(x, w, b=None):
    op = mg.sparse.subm_conv2d if w.ndim == 4 else mg.sparse.subm_conv3d
    return op(x, w, b)


# --- forward ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "sizes, window",
    [
        ((5, 6), (3, 3)),
        ((7, 4), (1, 1)),
        ((6, 6), (5, 3)),  # not square
        ((2, 3), (5, 5)),  # a window wider than the grid: fine, zero padding
        ((2, 4, 5), (3, 3)),  # a batch of 2 images: they never mix
        ((3, 4, 5), (3, 3, 3)),  # 3-D
        ((2, 3, 3, 4), (3, 1, 3)),  # a batch of 3-D grids
    ],
)
def test_forward_matches_the_dense_reference_at_the_active_sites(sizes, window):
    _, sites, values, w, b = _case(1, sizes, window=window)
    y = _conv(hybrid(sites, values, sizes), mg.tensor(w), mg.tensor(b))
    want_sites, want = subm_reference(sites, values, sizes, w, b)
    assert y.layout == "sparse_coo" and y.is_coalesced()
    assert y.shape == (*sizes, w.shape[0])
    np.testing.assert_array_equal(y.indices().numpy(), want_sites)
    np.testing.assert_allclose(y.values().detach().numpy(), want, rtol=1e-12, atol=1e-12)


def test_the_output_shares_the_input_sites_and_no_bias_means_none():
    _, sites, values, w, _ = _case(2)
    x = hybrid(sites, values, (5, 6), is_coalesced=True)
    y = mg.sparse.subm_conv2d(x, mg.tensor(w))
    assert mg.trace.storage(y).indices is mg.trace.storage(x).indices
    _, want = subm_reference(sites, values, (5, 6), w)
    np.testing.assert_allclose(y.values().numpy(), want, rtol=1e-12, atol=1e-12)


def test_an_isolated_site_sees_only_the_centre_of_the_kernel():
    w = np.arange(2 * 1 * 9, dtype=np.float64).reshape(2, 1, 3, 3)
    x = hybrid([[4], [4]], [[2.0]], (9, 9))
    y = mg.sparse.subm_conv2d(x, mg.tensor(w), mg.tensor(np.array([1.0, -1.0])))
    np.testing.assert_array_equal(
        y.values().numpy(), [[1 + 2 * w[0, 0, 1, 1], -1 + 2 * w[1, 0, 1, 1]]]
    )


def test_duplicate_sites_are_summed_first_and_each_gets_the_gradient_of_its_site():
    rng = np.random.default_rng(3)
    sites = np.array([[1, 0, 1, 2], [1, 2, 1, 0]])  # (1, 1) twice, unsorted
    values = rng.standard_normal((4, 2))
    w = rng.standard_normal((3, 2, 3, 3))
    v = mg.tensor(values, requires_grad=True)
    x = mg.sparse_coo_tensor(sites, v, (3, 3, 2))
    y = mg.sparse.subm_conv2d(x, mg.tensor(w))
    want_sites, want = subm_reference(sites, values, (3, 3), w)
    np.testing.assert_array_equal(y.indices().numpy(), want_sites)
    np.testing.assert_allclose(y.values().detach().numpy(), want, rtol=1e-12)
    g = rng.standard_normal(want.shape)
    (y.values() * mg.tensor(g)).sum().backward()
    g_dense = zero_filled(want_sites, g, (3, 3))
    gx, _, _ = dense_conv_grads(zero_filled(sites, values, (3, 3)), w, g_dense)
    np.testing.assert_allclose(v.grad.numpy(), gx[tuple(sites)], rtol=1e-12)
    assert np.array_equal(v.grad.numpy()[0], v.grad.numpy()[2])  # the two copies of (1, 1)


def test_sorted_sites_flagged_uncoalesced_are_used_as_they_are():
    _, sites, values, w, _ = _case(4)
    x = hybrid(sites, values, (5, 6))  # sorted and unique, but not flagged so
    assert not x.is_coalesced()
    y = mg.sparse.subm_conv2d(x, mg.tensor(w))
    assert mg.trace.storage(y).indices is mg.trace.storage(x).indices
    assert y.is_coalesced()


def test_an_empty_input_gives_an_empty_output_and_zero_gradients():
    w = mg.tensor(np.ones((3, 2, 3, 3)), requires_grad=True)
    b = mg.tensor(np.ones(3), requires_grad=True)
    x = mg.sparse_coo_tensor(np.empty((2, 0), np.int64), np.empty((0, 2)), (4, 4, 2))
    x.requires_grad_()
    y = mg.sparse.subm_conv2d(x, w, b)
    assert y.shape == (4, 4, 3) and y.nnz == 0
    mg.sparse.sum(y).backward()
    assert np.array_equal(w.grad.numpy(), np.zeros((3, 2, 3, 3)))
    assert np.array_equal(b.grad.numpy(), np.zeros(3))
    assert x.grad.layout == "sparse_coo" and x.grad.nnz == 0 and x.grad.shape == (4, 4, 2)


def test_float32_stays_float32():
    _, sites, values, w, b = _case(5)
    x = hybrid(sites, values.astype(np.float32), (5, 6))
    y = mg.sparse.subm_conv2d(x, mg.tensor(w, dtype=mg.float32), mg.tensor(b, dtype=mg.float32))
    assert y.dtype is mg.float32
    _, want = subm_reference(sites, values.astype(np.float32), (5, 6), w.astype(np.float32), b)
    np.testing.assert_allclose(y.values().numpy(), want, rtol=1e-5, atol=1e-5)


# --- gradients ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "sizes, window, bias",
    [
        ((5, 6), (3, 3), True),
        ((4, 5), (3, 5), False),
        ((2, 3, 4), (3, 3), True),
        ((3, 3, 4), (3, 3, 3), True),
    ],
)
def test_gradcheck_weight_bias_and_input_values(sizes, window, bias):
    _, sites, values, w, b = _case(6, sizes, window=window, density=0.5)
    x = hybrid(sites, values, sizes, is_coalesced=True, requires_grad=True)
    w = mg.tensor(w, requires_grad=True)
    args = (x, w, mg.tensor(b, requires_grad=True)) if bias else (x, w)
    assert gradcheck(lambda *a: _conv(*a).values(), args, masked=True)


def test_the_gradients_match_the_dense_reference():
    rng, sites, values, w, b = _case(7, (6, 7))
    x = hybrid(sites, values, (6, 7), requires_grad=True)
    wt, bt = mg.tensor(w, requires_grad=True), mg.tensor(b, requires_grad=True)
    y = mg.sparse.subm_conv2d(x, wt, bt)
    g = rng.standard_normal((y.nnz, 3))
    (y.values() * mg.tensor(g)).sum().backward()
    gx, gw, gb = dense_conv_grads(
        zero_filled(sites, values, (6, 7)), w, zero_filled(sites, g, (6, 7))
    )
    assert x.grad.layout == "sparse_coo" and x.grad.nnz == x.nnz  # masked: on x's pattern
    np.testing.assert_array_equal(x.grad.indices().numpy(), sites)
    np.testing.assert_allclose(x.grad.values().numpy(), gx[tuple(sites)], rtol=1e-12)
    np.testing.assert_allclose(wt.grad.numpy(), gw, rtol=1e-12)
    np.testing.assert_allclose(bt.grad.numpy(), gb, rtol=1e-12)


@pytest.mark.parametrize("loss", ["to_dense", "sum_full"])
def test_a_dense_gradient_of_the_output_is_read_at_the_active_sites(loss):
    _, sites, values, w, _ = _case(8)
    x = hybrid(sites, values, (5, 6), requires_grad=True)
    wt = mg.tensor(w, requires_grad=True)
    y = mg.sparse.subm_conv2d(x, wt)
    (y.to_dense() ** 2 if loss == "to_dense" else y).sum().backward()
    g = (
        2 * subm_reference(sites, values, (5, 6), w)[1]
        if loss == "to_dense"
        else np.ones((len(values), 3))
    )
    gx, gw, _ = dense_conv_grads(
        zero_filled(sites, values, (5, 6)), w, zero_filled(sites, g, (5, 6))
    )
    np.testing.assert_allclose(wt.grad.numpy(), gw, rtol=1e-12)
    np.testing.assert_allclose(x.grad.values().numpy(), gx[tuple(sites)], rtol=1e-12)


def test_the_transpose_and_weight_ops_have_checked_gradients_too():
    # the gradient ops are themselves differentiable ops: their own gradients are the others
    rng, sites, _, w, _ = _case(9, density=0.5)
    x = hybrid(sites, rng.standard_normal((sites.shape[1], 2)), (5, 6), is_coalesced=True)
    rules = mg.sparse.rulebook(x, 3)
    u = hybrid(sites, rng.standard_normal((sites.shape[1], 3)), (5, 6), is_coalesced=True)
    u.requires_grad_()
    x.requires_grad_()
    w = mg.tensor(w, requires_grad=True)

    def transpose(u, w):
        return SubMConvTranspose.apply(u, w, rules=rules).values()

    def weight(a, b):
        return SubMConvWeight.apply(a, b, rules=rules, window=(3, 3))

    assert gradcheck(transpose, (u, w), masked=True)
    assert gradcheck(weight, (u, x), masked=True)


def test_second_order_through_the_weight_gradient():
    rng, sites, values, w, _ = _case(10)
    gy = mg.tensor(rng.standard_normal((sites.shape[1], 3)))
    w = mg.tensor(w, requires_grad=True)

    def weight_grad(v):
        with mg.enable_grad():  # gradcheck's numerical pass runs without recording
            y = mg.sparse.subm_conv2d(hybrid(sites, v, (5, 6)), w)
            (gw,) = mg.autograd.grad((y.values() * gy).sum(), (w,), create_graph=True)
        return gw

    assert gradcheck(weight_grad, (mg.tensor(values, requires_grad=True),))


# --- the rule book ------------------------------------------------------------------------------
def test_the_rulebook_lists_the_pairs_of_each_offset():
    x = hybrid([[0, 0, 1], [0, 1, 1]], np.ones((3, 1)), (2, 2))
    book = mg.sparse.rulebook(x, 3)
    pairs = {
        tuple(o.tolist()): sorted(zip(i.tolist(), j.tolist()))
        for o, i, j in zip(book.offsets, book.inputs, book.outputs)
    }
    # sites 0=(0,0), 1=(0,1), 2=(1,1); output j reads input i at j's site + offset
    assert pairs[(0, 0)] == [(0, 0), (1, 1), (2, 2)]
    assert pairs[(0, 1)] == [(1, 0)]
    assert pairs[(0, -1)] == [(0, 1)]
    assert pairs[(1, 1)] == [(2, 0)]
    assert pairs[(-1, -1)] == [(0, 2)]
    assert pairs[(1, 0)] == [(2, 1)] and pairs[(-1, 0)] == [(1, 2)]
    assert pairs[(-1, 1)] == [] and pairs[(1, -1)] == []
    assert book.n_pairs == 9 and book.sites == 3 and book.window == (3, 3)
    # offset -o holds the pairs of o swapped: the rule book read backwards
    for k, (i, j) in enumerate(zip(book.inputs, book.outputs)):
        back = len(book.inputs) - 1 - k
        assert sorted(zip(j.tolist(), i.tolist())) == sorted(
            zip(book.inputs[back].tolist(), book.outputs[back].tolist())
        )


def test_the_rulebook_is_built_once_per_pattern_and_shared_by_the_output():
    _, sites, values, w, _ = _case(11)
    x = hybrid(sites, values, (5, 6), is_coalesced=True)
    first = mg.sparse.rulebook(x, 3)
    assert mg.sparse.rulebook(x, 3) is first
    assert mg.sparse.rulebook(x, (3, 3)) is first
    assert mg.sparse.rulebook(x, 5) is not first
    y = mg.sparse.subm_conv2d(x, mg.tensor(w))
    assert mg.sparse.rulebook(y, 3) is first  # the output has the input's pattern
    relu = mg.sparse_coo_tensor(y.indices(), y.values().relu(), y.shape, is_coalesced=True)
    assert mg.sparse.rulebook(relu, 3) is first  # values changed, pattern shared
    other = hybrid(sites.copy(), values, (5, 6), is_coalesced=True)
    assert mg.sparse.rulebook(other, 3) is not first  # another pattern object: its own


def test_the_batch_dim_has_window_extent_one():
    x = hybrid([[0, 1], [2, 2], [2, 2]], np.ones((2, 1)), (2, 5, 5))  # two images, same site
    book = mg.sparse.rulebook(x, (3, 3))
    assert book.window == (1, 3, 3) and book.n_pairs == 2  # each site sees only itself


def test_the_cache_lets_go_of_a_pattern_when_its_indices_die():
    x = hybrid(np.array([[0, 1], [1, 1]]), np.ones((2, 1)), (3, 3), is_coalesced=True)
    key = id(mg.trace.storage(x).indices)
    mg.sparse.rulebook(x, 3)
    assert key in conv_rules._CACHE
    del x
    gc.collect()
    assert key not in conv_rules._CACHE
