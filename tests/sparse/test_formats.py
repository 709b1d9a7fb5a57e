"""Unit tests of the sparse formats: every property and method of COO, CSR and CSC,
on the running example of SPARSE_SEMANTICS.md (A = [[1,0,2],[0,3,0]]), row-sparse
COOs, duplicates, explicit zeros, nnz = 0 and zero-size dims."""

import numpy as np
import pytest
import scipy.sparse as sp

from minigrad.formats import _kernels
from minigrad.sparse import COO, CSC, CSR

A = np.array([[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]])
# A stored with a duplicate at (0, 0) (1 = 4 - 3) and an explicit zero at (1, 2), unsorted.
DUP_IDX = np.array([[1, 0, 0, 1, 0], [1, 2, 0, 2, 0]])
DUP_VAL = np.array([3.0, 2.0, 4.0, 0.0, -3.0])


def dup_coo(dtype=np.float64):
    return COO(DUP_IDX, DUP_VAL.astype(dtype), (2, 3))


# --- COO: construction and properties --------------------------------------------------
def test_coo_properties():
    a = dup_coo(np.float32)
    assert a.shape == (2, 3) and a.ndim == 2
    assert (a.sparse_dim, a.dense_dim, a.nnz) == (2, 0, 5)
    assert a.dtype == np.float32 and a.layout == "sparse_coo"
    assert a.indices.dtype == np.int64
    assert a.density == pytest.approx(5 / 6)
    assert a.nbytes == 5 * (2 * 8 + 4) == a.indices.nbytes + a.values.nbytes
    assert a.dense_nbytes == 6 * 4
    assert not a.is_coalesced


def test_coo_repr_is_deterministic_text():
    assert repr(dup_coo(np.float32)) == (
        "COO(shape=(2, 3), nnz=5, density=83.3%, dtype=float32, 100 bytes (dense 24 bytes), "
        "uncoalesced)"
    )
    row_sparse = COO([[1, 7]], np.ones((2, 4), np.float32), (10, 4))
    assert repr(row_sparse) == (
        "COO(shape=(10, 4), sparse_dim=1, nnz=2, density=20.0%, dtype=float32, "
        "48 bytes (dense 160 bytes), uncoalesced)"
    )
    big = COO(np.zeros((2, 1), np.int64), np.ones(1), (200_000, 200_000))
    assert "density=2.5e-09%" in repr(big) and "298.0 GiB" in repr(big)
    assert "nnz=1" in repr(big) and repr(big).endswith("coalesced)")


def test_coo_int32_indices_widened_and_int64_not_copied():
    idx64 = np.array([[0, 1], [1, 2]])
    assert COO(idx64, [1.0, 2.0], (2, 3)).indices is idx64
    a = COO(idx64.astype(np.int32), [1.0, 2.0], (2, 3))
    assert a.indices.dtype == np.int64
    np.testing.assert_array_equal(a.indices, idx64)


def test_coo_accepts_lists_and_empty_lists():
    a = COO([[0, 1], [2, 0]], [1.0, 2.0], [2, 3])
    assert a.shape == (2, 3) and a.indices.dtype == np.int64
    e = COO([[], []], np.zeros(0, np.float32), (4, 5))
    assert e.nnz == 0 and e.indices.shape == (2, 0)


@pytest.mark.parametrize("dtype", [np.bool_, np.uint8, np.int8, np.int16, np.int32, np.int64,
                                   np.float16, np.float32, np.float64])  # fmt: skip
def test_coo_keeps_every_supported_value_dtype(dtype):
    a = COO([[0, 0]], np.array([1, 1], dtype=dtype), (3,))
    assert a.dtype == dtype
    assert a.coalesce().dtype == dtype and a.to_dense().dtype == dtype
    expected = True if dtype == np.bool_ else 2
    assert a.to_dense()[0] == expected


def test_coo_nnz_le_1_is_coalesced_as_in_torch():
    assert COO(np.zeros((2, 0), np.int64), np.zeros(0), (2, 3)).is_coalesced
    assert COO([[1], [0]], [5.0], (2, 3)).is_coalesced
    assert not COO([[0, 1], [0, 0]], [1.0, 2.0], (2, 3)).is_coalesced


def test_coo_is_coalesced_promise_verified_or_trusted():
    sorted_idx = np.array([[0, 0, 1], [0, 2, 1]])
    assert COO(sorted_idx, [1.0, 2.0, 3.0], (2, 3), is_coalesced=True).is_coalesced
    with pytest.raises(ValueError, match="cannot set is_coalesced to true"):
        COO(DUP_IDX, DUP_VAL, (2, 3), is_coalesced=True)
    trusted = COO(DUP_IDX, DUP_VAL, (2, 3), is_coalesced=True, check=False)
    assert trusted.is_coalesced  # check=False trusts the caller, as torch


def test_coo_check_false_skips_only_the_index_scan():
    a = COO([[0, 9]], [1.0, 2.0], (3,), check=False)  # out of range, not scanned
    assert a.nnz == 2
    with pytest.raises(ValueError, match="same nnz"):
        COO([[0, 9]], [1.0], (3,), check=False)


# --- COO: coalesce -------------------------------------------------------------------
def test_coalesce_sorts_sums_and_keeps_explicit_zeros():
    c = dup_coo().coalesce()
    assert c.is_coalesced and c.nnz == 4
    np.testing.assert_array_equal(c.indices, [[0, 0, 1, 1], [0, 2, 1, 2]])
    np.testing.assert_array_equal(c.values, [1.0, 2.0, 3.0, 0.0])  # (1, 2) kept as 0
    np.testing.assert_array_equal(c.to_dense(), A)


def test_coalesce_cancelling_duplicates_keep_the_entry():
    c = COO([[0, 0]], [2.0, -2.0], (3,)).coalesce()
    assert c.nnz == 1 and c.values[0] == 0.0


def test_coalesce_is_idempotent_and_returns_self_when_coalesced():
    c = dup_coo().coalesce()
    assert c.coalesce() is c
    again = COO(c.indices, c.values, c.shape).coalesce()
    np.testing.assert_array_equal(again.indices, c.indices)
    np.testing.assert_array_equal(again.values, c.values)


def test_coalesce_does_not_modify_the_input():
    a = dup_coo()
    a.coalesce()
    np.testing.assert_array_equal(a.indices, DUP_IDX)
    np.testing.assert_array_equal(a.values, DUP_VAL)


def test_coalesce_row_sparse_embedding_gradient():
    """SPARSE_SEMANTICS: rows [1, 2, 1, 7] give nnz 4 uncoalesced, 3 coalesced, row 1 doubled."""
    g = COO([[1, 2, 1, 7]], np.ones((4, 3), np.float32), (10, 3))
    assert (g.sparse_dim, g.dense_dim, g.nnz, g.is_coalesced) == (1, 1, 4, False)
    c = g.coalesce()
    np.testing.assert_array_equal(c.indices, [[1, 2, 7]])
    np.testing.assert_array_equal(c.values, [[2, 2, 2], [1, 1, 1], [1, 1, 1]])
    assert c.nbytes == 3 * (8 + 4 * 3)


def test_coalesce_empty_and_sparse_dim_zero():
    e = COO(np.zeros((3, 0), np.int64), np.zeros((0, 2)), (0, 4, 5, 2)).coalesce()
    assert e.nnz == 0 and e.shape == (0, 4, 5, 2) and e.is_coalesced
    s0 = COO(np.zeros((0, 3), np.int64), np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), (2,))
    c = s0.coalesce()
    assert c.nnz == 1 and c.indices.shape == (0, 1)
    np.testing.assert_array_equal(c.values, [[9.0, 12.0]])
    np.testing.assert_array_equal(s0.to_dense(), [9.0, 12.0])


@pytest.mark.parametrize("shape", [(3, 2**40, 2**40), (2, 2**62), (2**60, 4), (2**40, 2**20)])
def test_coalesce_huge_shapes_use_the_fallback_sorts(shape):
    """Keys that cannot be packed with positions (or do not fit int64 at all) still sort."""
    idx = np.array([[2, 0, 2, 0], [5, 9, 5, 1], [7, 3, 7, 3]])[: len(shape)]
    idx = np.minimum(idx, np.array(shape)[:, None] - 1)
    c = COO(idx, [1.0, 2.0, 3.0, 4.0], shape).coalesce()
    ref = sorted({tuple(col) for col in idx.T})
    np.testing.assert_array_equal(c.indices.T, ref)
    assert c.values.sum() == 10.0 and c.nnz == len(ref)
    assert _kernels.is_lex_sorted_unique(c.indices, shape)
    assert not _kernels.is_lex_sorted_unique(idx, shape)


# --- COO: dense, transpose, with_values ----------------------------------------------
def test_to_dense_sums_duplicates_and_handles_empty():
    np.testing.assert_array_equal(dup_coo().to_dense(), A)
    e = COO(np.zeros((1, 0), np.int64), np.zeros((0, 0, 3), np.float32), (5, 0, 3))
    d = e.to_dense()
    assert d.shape == (5, 0, 3) and d.dtype == np.float32


def test_transpose_swaps_sparse_dims_and_flags_uncoalesced():
    c = dup_coo().coalesce()
    t = c.transpose(0, 1)
    assert t.shape == (3, 2) and not t.is_coalesced
    np.testing.assert_array_equal(t.to_dense(), A.T)
    np.testing.assert_array_equal(c.transpose(-1, -2).indices, t.indices)
    three = COO([[0, 1], [1, 2], [2, 3]], [1.0, 2.0], (2, 3, 4))
    np.testing.assert_array_equal(
        three.transpose(0, 2).to_dense(), three.to_dense().transpose(2, 1, 0)
    )


def test_with_values_shares_indices_and_keeps_the_flag():
    c = dup_coo().coalesce()
    w = c.with_values(c.values * 2)
    assert w.indices is c.indices and w.is_coalesced
    np.testing.assert_array_equal(w.to_dense(), 2 * A)
    rows = COO([[0, 2]], np.ones((2, 3)), (4, 3)).with_values(np.ones((2, 5), np.float32))
    assert rows.shape == (4, 5) and rows.dtype == np.float32


# --- COO: from_dense ----------------------------------------------------------------
def test_from_dense_drops_zeros_and_is_coalesced():
    a = COO.from_dense(A)
    assert a.is_coalesced and a.nnz == 3
    np.testing.assert_array_equal(a.indices, [[0, 0, 1], [0, 2, 1]])
    np.testing.assert_array_equal(a.values, [1.0, 2.0, 3.0])


def test_from_dense_row_sparse_drops_all_zero_rows_only():
    x = np.array([[0.0, 1.0], [0.0, 0.0], [2.0, 0.0]])
    a = COO.from_dense(x, sparse_dim=1)
    assert (a.sparse_dim, a.dense_dim, a.nnz) == (1, 1, 2)
    np.testing.assert_array_equal(a.indices, [[0, 2]])
    np.testing.assert_array_equal(a.values, [[0.0, 1.0], [2.0, 0.0]])  # zeros inside a row kept
    np.testing.assert_array_equal(a.to_dense(), x)


def test_from_dense_keeps_nan_and_handles_0d_and_empty():
    assert COO.from_dense(np.array([0.0, np.nan])).nnz == 1
    s = COO.from_dense(np.float32(3.0))
    assert s.shape == () and s.nnz == 1 and s.to_dense() == 3.0
    assert COO.from_dense(np.float32(0.0)).nnz == 0
    z = COO.from_dense(np.zeros((0, 3, 2)), sparse_dim=1)
    assert z.shape == (0, 3, 2) and z.nnz == 0 and z.values.shape == (0, 3, 2)
    d0 = COO.from_dense(np.zeros((3, 0)), sparse_dim=1)
    assert d0.nnz == 0 and d0.to_dense().shape == (3, 0)
    assert COO.from_dense(np.ones((2, 3)), sparse_dim=0).nnz == 1


# --- COO: conversions and scipy ------------------------------------------------------
def test_coo_to_csr_and_csc_sum_duplicates():
    r = dup_coo().to_csr()
    assert isinstance(r, CSR) and r.has_canonical_format
    np.testing.assert_array_equal(r.crow_indices, [0, 2, 4])
    np.testing.assert_array_equal(r.col_indices, [0, 2, 1, 2])
    np.testing.assert_array_equal(r.values, [1.0, 2.0, 3.0, 0.0])
    c = dup_coo().to_csc()
    assert isinstance(c, CSC) and c.shape == (2, 3)
    np.testing.assert_array_equal(c.ccol_indices, [0, 1, 2, 4])
    np.testing.assert_array_equal(c.row_indices, [0, 1, 0, 1])
    np.testing.assert_array_equal(c.values, [1.0, 3.0, 2.0, 0.0])


def test_coo_to_scipy_keeps_duplicates_and_canonical_flag():
    s = dup_coo().to_scipy()
    assert isinstance(s, sp.coo_array) and s.nnz == 5 and not s.has_canonical_format
    np.testing.assert_array_equal(s.toarray(), A)
    m = dup_coo().coalesce().to_scipy(matrix=True)
    assert isinstance(m, sp.coo_matrix) and m.has_canonical_format and m.nnz == 4


def test_coo_from_scipy_every_format_and_flag():
    for fmt in ("coo", "csr", "csc", "lil", "dok", "bsr", "dia"):
        a = COO.from_scipy(sp.coo_array(A).asformat(fmt))
        np.testing.assert_array_equal(a.to_dense(), A)
        assert a.indices.dtype == np.int64
    assert COO.from_scipy(sp.csr_array(A)).is_coalesced
    back = COO.from_scipy(dup_coo().to_scipy())
    np.testing.assert_array_equal(back.indices, DUP_IDX)
    assert not back.is_coalesced


def test_coo_from_scipy_copies_values():
    s = sp.coo_array(A)
    a = COO.from_scipy(s)
    s.data[:] = 0
    np.testing.assert_array_equal(a.to_dense(), A)


# --- CSR / CSC ------------------------------------------------------------------------
def test_csr_properties_and_repr():
    r = CSR([0, 2, 3], [0, 2, 1], np.array([1, 2, 3], np.float32), (2, 3))
    assert r.layout == "sparse_csr" and r.nnz == 3 and r.ndim == 2
    assert r.crow_indices.dtype == np.int64 and r.col_indices.dtype == np.int64
    assert r.nbytes == 3 * 8 + 3 * (8 + 4) and r.dense_nbytes == 24
    assert r.density == 0.5 and r.has_canonical_format
    assert repr(r) == (
        "CSR(shape=(2, 3), nnz=3, density=50.0%, dtype=float32, 60 bytes (dense 24 bytes), "
        "canonical)"
    )


def test_csr_non_canonical_sort_indices_and_sum_duplicates():
    r = CSR([0, 3, 4], [2, 0, 2, 1], [1.0, 1.0, 1.0, 3.0], (2, 3))
    assert not r.has_canonical_format and repr(r).endswith("non-canonical)")
    s = r.sort_indices()
    np.testing.assert_array_equal(s.col_indices, [0, 2, 2, 1])
    np.testing.assert_array_equal(s.crow_indices, r.crow_indices)
    assert not s.has_canonical_format  # still a duplicate
    d = r.sum_duplicates()
    assert d.has_canonical_format and d.nnz == 3
    np.testing.assert_array_equal(d.to_dense(), A)
    assert d.sum_duplicates() is d and d.sort_indices() is d and d.to_csr() is d
    np.testing.assert_array_equal(r.to_dense(), A)


def test_sort_indices_when_row_major_keys_overflow_int64():
    r = CSR([0, 3, 3], [2**61, 5, 2**61], [1.0, 2.0, 3.0], (2, 2**62))  # 2**63 positions
    s = r.sort_indices()
    np.testing.assert_array_equal(s.col_indices, [5, 2**61, 2**61])
    np.testing.assert_array_equal(s.values, [2.0, 1.0, 3.0])  # stable: duplicates keep order
    d = r.sum_duplicates()
    np.testing.assert_array_equal(d.col_indices, [5, 2**61])
    np.testing.assert_array_equal(d.values, [2.0, 4.0])
    assert d.has_canonical_format


def test_csr_transpose_is_csc_sharing_arrays():
    r = CSR.from_dense(A)
    t = r.transpose()
    assert isinstance(t, CSC) and t.shape == (3, 2)
    assert t.ccol_indices is r.crow_indices and t.row_indices is r.col_indices
    np.testing.assert_array_equal(t.to_dense(), A.T)
    assert isinstance(t.transpose(), CSR)


def test_csr_csc_coo_conversions():
    r, c = CSR.from_dense(A), CSC.from_dense(A)
    np.testing.assert_array_equal(c.ccol_indices, [0, 1, 2, 3])
    np.testing.assert_array_equal(c.row_indices, [0, 1, 0])
    for m in (r, c, r.to_csc(), c.to_csr(), c.to_csc(), r.to_coo(), c.to_coo()):
        np.testing.assert_array_equal(m.to_dense(), A)
    assert r.to_coo().is_coalesced  # row-major order
    assert not c.to_coo().is_coalesced  # column-major order, as torch
    np.testing.assert_array_equal(c.to_coo().indices, [[0, 1, 0], [0, 1, 2]])
    np.testing.assert_array_equal(c.to_csr().col_indices, r.col_indices)


def test_csr_csc_with_values():
    r = CSR.from_dense(A)
    w = r.with_values(np.arange(3, dtype=np.int64))
    assert w.crow_indices is r.crow_indices and w.dtype == np.int64
    with pytest.raises(ValueError, match="col_indices.shape"):
        r.with_values(np.zeros(4))


def test_csr_csc_to_and_from_scipy():
    r = CSR.from_dense(A)
    s = r.to_scipy()
    assert isinstance(s, sp.csr_array) and s.has_canonical_format
    assert isinstance(r.to_scipy(matrix=True), sp.csr_matrix)
    assert isinstance(CSC.from_dense(A).to_scipy(), sp.csc_array)
    np.testing.assert_array_equal(s.toarray(), A)
    for fmt in ("coo", "csr", "csc", "lil"):
        for cls in (CSR, CSC):
            m = cls.from_scipy(sp.coo_array(A).asformat(fmt))
            assert isinstance(m, cls) and m.has_canonical_format
            np.testing.assert_array_equal(m.to_dense(), A)
    summed = CSR.from_scipy(dup_coo().to_scipy())  # scipy sums the duplicates
    assert summed.nnz == 4


def test_to_scipy_copies_so_scipy_in_place_methods_cannot_corrupt_us():
    r = CSR([0, 2], [0, 0], [1.0, 2.0], (1, 1))
    s = r.to_scipy()
    s.sum_duplicates()  # in place in scipy
    np.testing.assert_array_equal(r.crow_indices, [0, 2])
    np.testing.assert_array_equal(r.col_indices, [0, 0])
    a = dup_coo()
    s = a.to_scipy()
    s.sum_duplicates()
    s.data[:] = 0
    np.testing.assert_array_equal(a.indices, DUP_IDX)
    np.testing.assert_array_equal(a.values, DUP_VAL)


def test_csr_non_canonical_to_scipy_flag():
    r = CSR([0, 2, 2], [1, 1], [1.0, 2.0], (2, 3))
    s = r.to_scipy()
    assert not s.has_canonical_format
    np.testing.assert_array_equal(s.toarray(), r.to_dense())


@pytest.mark.parametrize("shape", [(0, 0), (0, 3), (3, 0), (4, 5)])
def test_empty_matrices_in_every_format(shape):
    coo = COO(np.zeros((2, 0), np.int64), np.zeros(0, np.float32), shape)
    for m in (coo, coo.to_csr(), coo.to_csc(), coo.to_csr().to_csc(), coo.to_csc().to_csr(),
              coo.to_csr().to_coo(), CSR.from_dense(np.zeros(shape))):  # fmt: skip
        d = m.to_dense()
        assert m.shape == shape and m.nnz == 0 and d.shape == shape and not d.any()
        assert m.density == 0.0
    assert len(coo.to_csr().crow_indices) == shape[0] + 1
    assert len(coo.to_csc().ccol_indices) == shape[1] + 1
    assert coo.to_scipy().shape == shape
    assert CSR.from_scipy(sp.csr_array(shape)).shape == shape


def test_formats_have_no_implicit_densification():
    """No ``__array__``: densifying is always an explicit ``to_dense()``."""
    for cls in (COO, CSR, CSC):
        assert not hasattr(cls, "__array__")
    assert np.asarray(CSR.from_dense(A)).dtype == object
