"""Property tests of the sparse formats, with numpy loops and scipy.sparse as oracles.

Random shapes include zero-size dims, random nnz includes 0, indices are drawn from
small ranges so duplicates are common, and values are small integers so duplicates
cancel into explicit zeros and every sum is exact in every dtype (float16 included).
"""

import math

import numpy as np
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from minigrad.sparse import COO, CSC, CSR

DTYPES = [np.float64, np.float32, np.float16, np.int64, np.int8, np.bool_]
SCIPY_DTYPES = [np.float64, np.float32, np.int64, np.int8, np.bool_]
PROPERTY = settings(max_examples=150, deadline=None)
ANY_SPARSE_DIMS, ANY_DENSE_DIMS = st.integers(0, 3), st.integers(0, 2)


@st.composite
def coos(draw, sparse_dims=ANY_SPARSE_DIMS, dense_dims=ANY_DENSE_DIMS, dtypes=DTYPES):
    """A valid, usually uncoalesced COO: (indices, values, shape)."""
    sd, dd = draw(sparse_dims), draw(dense_dims)
    sizes = tuple(draw(st.lists(st.integers(0, 4), min_size=sd, max_size=sd)))
    dense = tuple(draw(st.lists(st.integers(0, 3), min_size=dd, max_size=dd)))
    nnz = 0 if math.prod(sizes) == 0 else draw(st.integers(0, 12))
    sizes_to_draw = sizes if nnz else ()
    rows = [
        draw(st.lists(st.integers(0, s - 1), min_size=nnz, max_size=nnz)) for s in sizes_to_draw
    ]
    indices = np.array(rows or [], dtype=np.int64).reshape(sd, nnz)
    count = nnz * math.prod(dense)
    flat = draw(st.lists(st.integers(-2, 2), min_size=count, max_size=count))
    dtype = draw(st.sampled_from(dtypes))
    values = np.array(flat, dtype=np.int64).reshape((nnz, *dense)).astype(dtype)
    return indices, values, sizes + dense


def matrices(dtypes=DTYPES):
    return coos(sparse_dims=st.just(2), dense_dims=st.just(0), dtypes=dtypes)


def dense_reference(indices, values, shape):
    """Scatter-add in a Python loop: the plain definition of what a COO means."""
    out = np.zeros(shape, dtype=values.dtype)
    for k in range(values.shape[0]):
        at = tuple(indices[:, k])
        out[at] = out[at] + values[k]
    return out


def unique_columns(indices):
    return sorted({tuple(c) for c in indices.T})


def assert_same(a, b):
    np.testing.assert_array_equal(a, b)
    assert np.asarray(a).dtype == np.asarray(b).dtype


# --- COO -----------------------------------------------------------------------------
@PROPERTY
@given(coos())
def test_to_dense_is_scatter_add(case):
    indices, values, shape = case
    a = COO(indices, values, shape)
    assert_same(a.to_dense(), dense_reference(indices, values, shape))
    assert (a.sparse_dim, a.dense_dim, a.nnz) == (indices.shape[0], values.ndim - 1, len(values))


@PROPERTY
@given(coos())
def test_coalesce_sorted_unique_sums_and_keeps_zeros(case):
    indices, values, shape = case
    a = COO(indices, values, shape)
    c = a.coalesce()
    assert c.is_coalesced and c.shape == a.shape and c.dtype == a.dtype
    assert [tuple(col) for col in c.indices.T] == unique_columns(indices)  # zeros kept
    assert_same(c.to_dense(), a.to_dense())
    assert c.coalesce() is c
    again = COO(c.indices, c.values, c.shape, is_coalesced=False).coalesce()
    assert_same(again.indices, c.indices)
    assert_same(again.values, c.values)
    COO(c.indices, c.values, c.shape, is_coalesced=True)  # passes the invariant check


@PROPERTY
@given(coos())
def test_from_dense_round_trip_drops_zeros(case):
    indices, values, shape = case
    dense = dense_reference(indices, values, shape)
    sd = indices.shape[0]
    b = COO.from_dense(dense, sparse_dim=sd)
    assert b.is_coalesced and b.shape == shape and b.sparse_dim == sd
    assert_same(b.to_dense(), dense)
    rows = b.values.reshape(b.nnz, math.prod(shape[sd:]))
    assert rows.shape[1] == 0 or rows.any(axis=1).all()  # no all-zero position stored
    if sd == len(shape):
        assert b.nnz == np.count_nonzero(dense)


@PROPERTY
@given(coos(), st.data())
def test_transpose_matches_numpy(case, data):
    indices, values, shape = case
    a = COO(indices, values, shape)
    if a.sparse_dim == 0:
        return
    d0 = data.draw(st.integers(0, a.sparse_dim - 1))
    d1 = data.draw(st.integers(0, a.sparse_dim - 1))
    assert_same(a.transpose(d0, d1).to_dense(), np.swapaxes(a.to_dense(), d0, d1))


@PROPERTY
@given(coos())
def test_coo_nbytes_formula(case):
    indices, values, shape = case
    a = COO(indices, values, shape)
    dense_row = math.prod(shape[a.sparse_dim :])
    assert a.nbytes == a.nnz * (a.sparse_dim * 8 + values.itemsize * dense_row)
    assert a.dense_nbytes == math.prod(shape) * values.itemsize
    positions = math.prod(shape[: a.sparse_dim])
    assert a.density == (a.nnz / positions if positions else 0.0)


# --- 2-D: conversions in every direction, against scipy --------------------------------
def scipy_canonical(indices, values, shape, fmt):
    m = sp.coo_array((values, (indices[0], indices[1])), shape=shape).asformat(fmt)
    m.sum_duplicates()
    m.sort_indices()
    return m


@PROPERTY
@given(matrices(SCIPY_DTYPES))
def test_to_csr_and_to_csc_agree_with_scipy(case):
    indices, values, shape = case
    a = COO(indices, values, shape)
    for ours, fmt, ptr, idx in (
        (a.to_csr(), "csr", "crow_indices", "col_indices"),
        (a.to_csc(), "csc", "ccol_indices", "row_indices"),
    ):
        ref = scipy_canonical(indices, values, shape, fmt)
        assert ours.has_canonical_format and ours.shape == shape
        assert_same(getattr(ours, ptr), ref.indptr.astype(np.int64))
        assert_same(getattr(ours, idx), ref.indices.astype(np.int64))
        np.testing.assert_array_equal(ours.values, ref.data)
        assert ours.dtype == values.dtype


@PROPERTY
@given(matrices())
def test_every_conversion_keeps_the_dense_value(case):
    indices, values, shape = case
    a = COO(indices, values, shape)
    dense = dense_reference(indices, values, shape)
    r, c = a.to_csr(), a.to_csc()
    chains = [a, r, c, r.to_coo(), c.to_coo(), r.to_csc(), c.to_csr(), r.transpose().transpose()]
    chains += [c.to_csr().to_csc().to_coo(), CSR.from_dense(dense), CSC.from_dense(dense)]
    for m in chains:
        assert_same(m.to_dense(), dense)
        assert m.shape == shape
    assert_same(r.transpose().to_dense(), dense.T)
    assert_same(c.transpose().to_dense(), dense.T)
    assert r.to_coo().is_coalesced
    assert_same(r.to_coo().indices, a.coalesce().indices)


@PROPERTY
@given(matrices(SCIPY_DTYPES))
def test_scipy_round_trips(case):
    indices, values, shape = case
    a = COO(indices, values, shape)
    s = a.to_scipy()
    assert s.nnz == a.nnz  # duplicates kept
    assert_same(s.toarray(), a.to_dense())
    back = COO.from_scipy(s)
    assert_same(back.indices, indices)
    assert_same(back.values, values)
    for cls, fmt in ((CSR, "csr"), (CSC, "csc")):
        m = cls.from_scipy(s)
        ref = scipy_canonical(indices, values, shape, fmt)
        assert_same(m.to_dense(), ref.toarray())
        np.testing.assert_array_equal(m.to_scipy().toarray(), ref.toarray())


@PROPERTY
@given(matrices())
def test_compressed_nbytes_formula(case):
    a = COO(*case)
    r, c = a.to_csr(), a.to_csc()
    item = a.values.itemsize
    assert r.nbytes == (a.shape[0] + 1) * 8 + r.nnz * (8 + item)
    assert c.nbytes == (a.shape[1] + 1) * 8 + c.nnz * (8 + item)
    assert r.density == c.density == (r.nnz / math.prod(a.shape) if math.prod(a.shape) else 0.0)


# --- non-canonical CSR (unsorted, duplicated columns), as scipy allows -----------------
@st.composite
def raw_csr(draw):
    nrows, ncols = draw(st.integers(0, 4)), draw(st.integers(0, 4))
    counts = [draw(st.integers(0, 5 if ncols else 0)) for _ in range(nrows)]
    nnz = sum(counts)
    cols = draw(st.lists(st.integers(0, max(ncols - 1, 0)), min_size=nnz, max_size=nnz))
    vals = draw(st.lists(st.integers(-2, 2), min_size=nnz, max_size=nnz))
    crow = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    return crow, np.array(cols, np.int64), np.array(vals, np.float64), (nrows, ncols)


@PROPERTY
@given(raw_csr())
def test_non_canonical_csr_against_scipy(case):
    crow, col, val, shape = case
    ours = CSR(crow, col, val, shape)
    ref = sp.csr_array((val, col, crow), shape=shape, copy=True)  # ref.sum_duplicates() is in place
    assert ours.has_canonical_format == ref.has_canonical_format
    assert_same(ours.to_dense(), ref.toarray())
    s = ours.sort_indices()
    rows = np.repeat(np.arange(shape[0]), np.diff(crow))
    assert np.all(np.diff(rows * max(shape[1], 1) + s.col_indices) >= 0)
    assert_same(s.to_dense(), ref.toarray())
    canon = ours.sum_duplicates()
    ref.sum_duplicates()
    assert canon.has_canonical_format
    assert_same(canon.crow_indices, ref.indptr.astype(np.int64))
    assert_same(canon.col_indices, ref.indices.astype(np.int64))
    assert_same(canon.values, ref.data)
    assert_same(ours.to_csc().to_dense(), ref.toarray())
    as_csc = CSC(crow, col, val, shape[::-1])  # the same arrays read as the transpose
    assert_same(as_csc.to_dense(), ref.toarray().T)
    assert_same(as_csc.to_csr().to_dense(), ref.toarray().T)
