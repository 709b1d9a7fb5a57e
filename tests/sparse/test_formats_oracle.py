"""PyTorch as oracle for the sparse formats: coalesce, conversions, flags, and the
validation errors (PyTorch's sentence must appear in ours; the type differs by design:
PyTorch raises RuntimeError, minigrad ValueError/TypeError, see minigrad.errors.sparse)."""

import numpy as np
import pytest

from minigrad.sparse import COO, CSC, CSR

torch = pytest.importorskip("torch")

pytestmark = [
    pytest.mark.oracle,
    pytest.mark.filterwarnings("ignore:Sparse CSR tensor support is in beta state"),
    pytest.mark.filterwarnings("ignore:Sparse invariant checks are implicitly disabled"),
]
RNG = np.random.default_rng(7)


def random_coo(sizes, dense=(), nnz=12):
    """Indices from small ranges (many duplicates), integer values (some cancel to 0)."""
    nnz = nnz if all(sizes) else 0
    indices = np.stack([RNG.integers(0, s, nnz) for s in sizes]) if sizes else np.zeros((0, nnz))
    values = RNG.integers(-2, 3, (nnz, *dense)).astype(np.float64)
    return indices.astype(np.int64), values, tuple(sizes) + tuple(dense)


CASES = [
    random_coo((3, 4)),
    random_coo((2, 2), nnz=20),
    random_coo((5,), (3,)),  # row-sparse, as an embedding gradient
    random_coo((3, 2, 4)),
    random_coo((3, 3), (2, 2)),
    random_coo((3, 4), nnz=0),
    random_coo((0, 4)),
    random_coo((4, 0), (2,)),
    random_coo((3, 4), nnz=1),
    random_coo((), (3,), nnz=4),  # sparse_dim 0
]
MATRICES = [c for c in CASES if len(c[2]) == 2 and c[0].shape[0] == 2]


def torch_coo(indices, values, shape):
    return torch.sparse_coo_tensor(torch.tensor(indices), torch.tensor(values), shape)


def same(ours, theirs):
    np.testing.assert_array_equal(ours, theirs.numpy())


@pytest.mark.parametrize("case", CASES)
def test_coalesce_matches_torch(case):
    ours, theirs = COO(*case), torch_coo(*case)
    assert ours.is_coalesced == theirs.is_coalesced()
    c, t = ours.coalesce(), theirs.coalesce()
    same(c.indices, t.indices())
    same(c.values, t.values())
    assert c.is_coalesced and t.is_coalesced()
    same(ours.to_dense(), theirs.to_dense())


@pytest.mark.parametrize("dtype", [np.int64, np.bool_, np.float32, np.int8])
def test_coalesce_keeps_dtype_like_torch(dtype):
    indices, values, shape = CASES[1]
    values = values.astype(dtype)
    c, t = COO(indices, values, shape).coalesce(), torch_coo(indices, values, shape).coalesce()
    same(c.indices, t.indices())
    same(c.values, t.values())
    assert c.values.dtype == dtype


@pytest.mark.parametrize("case", [c for c in CASES if c[0].shape[0] >= 1])  # torch: sparse_dim > 0
def test_from_dense_matches_to_sparse(case):
    dense = torch_coo(*case).to_dense()
    sparse_dim = case[0].shape[0]
    ours, theirs = COO.from_dense(dense.numpy(), sparse_dim), dense.to_sparse(sparse_dim)
    same(ours.indices, theirs.indices())
    same(ours.values, theirs.values())
    assert ours.is_coalesced == theirs.is_coalesced()


@pytest.mark.parametrize("case", [c for c in CASES if c[0].shape[0] >= 2])
def test_transpose_matches_torch(case):
    ours, theirs = (
        COO(*case).coalesce().transpose(0, 1),
        torch_coo(*case).coalesce().transpose(0, 1),
    )
    same(ours.indices, theirs._indices())
    assert ours.shape == tuple(theirs.shape)
    assert ours.is_coalesced == theirs.is_coalesced()


@pytest.mark.parametrize("case", MATRICES)
def test_conversions_match_torch(case):
    ours, theirs = COO(*case), torch_coo(*case)
    r, tr = ours.to_csr(), theirs.to_sparse_csr()
    same(r.crow_indices, tr.crow_indices())
    same(r.col_indices, tr.col_indices())
    same(r.values, tr.values())
    c, tc = ours.to_csc(), theirs.to_sparse_csc()
    same(c.ccol_indices, tc.ccol_indices())
    same(c.row_indices, tc.row_indices())
    same(c.values, tc.values())
    same(r.to_csc().values, tr.to_sparse_csc().values())
    same(c.to_csr().col_indices, tc.to_sparse_csr().col_indices())
    for mine, torchs in ((r.to_coo(), tr.to_sparse_coo()), (c.to_coo(), tc.to_sparse_coo())):
        same(mine.indices, torchs._indices())
        same(mine.values, torchs._values())
        if mine.nnz:  # torch flags an empty COO from CSC uncoalesced; we say coalesced
            assert mine.is_coalesced == torchs.is_coalesced()
    t, tt = r.transpose(), tr.t()
    assert tt.layout == torch.sparse_csc and isinstance(t, CSC)
    same(t.ccol_indices, tt.ccol_indices())
    same(t.row_indices, tt.row_indices())


# --- validation errors: PyTorch's sentence is part of ours ------------------------------
def coo_args(idx, vals=(1.0, 2.0), shape=(3, 4)):
    return "coo", (np.array(idx), np.array(vals), shape)


def csr_args(kind, ptr, idx, vals=(1.0, 2.0), shape=(2, 3)):
    return kind, (np.array(ptr), np.array(idx), np.array(vals), shape)


ERRORS = {
    "index out of range": (coo_args([[0, 5], [0, 1]]), ValueError),
    "negative index": (coo_args([[0, 1], [0, -1]]), ValueError),
    "nnz mismatch": (coo_args([[0, 1, 2], [0, 1, 2]], (1.0, 2.0, 3.0, 4.0)), ValueError),
    "1-d indices": (coo_args([0, 1]), ValueError),
    "shape length": (coo_args([[0, 1], [0, 1]], shape=(3, 4, 5)), ValueError),
    "dense shape": (coo_args([[0, 1]], [[1.0, 2.0, 3.0], [3.0, 4.0, 5.0]]), ValueError),
    "crow[0]": (csr_args("csr", [1, 1, 2], [0, 1]), ValueError),
    "crow[-1]": (csr_args("csr", [0, 1, 3], [0, 1]), ValueError),
    "col range": (csr_args("csr", [0, 1, 2], [0, 5]), ValueError),
    "negative col": (csr_args("csr", [0, 1, 2], [0, -1]), ValueError),
    "len(crow)": (csr_args("csr", [0, 1, 2], [0, 1], shape=(3, 3)), ValueError),
    "len(col)": (csr_args("csr", [0, 1, 2], [0, 1], (1.0, 2.0, 3.0)), ValueError),
    "3-d csr": (csr_args("csr", [0, 1, 2], [0, 1], shape=(2, 3, 4)), ValueError),
    "ccol[0]": (csr_args("csc", [1, 1, 2], [0, 1], shape=(3, 2)), ValueError),
    "ccol[-1]": (csr_args("csc", [0, 1, 3], [0, 1], shape=(3, 2)), ValueError),
    "row range": (csr_args("csc", [0, 1, 2], [0, 5], shape=(3, 2)), ValueError),
    "len(ccol)": (csr_args("csc", [0, 1, 2], [0, 1], shape=(3, 3)), ValueError),
    "len(row)": (csr_args("csc", [0, 1, 2], [0, 1], (1.0, 2.0, 3.0), shape=(3, 2)), ValueError),
}
# Ours says "pointers must be non-decreasing"; PyTorch adds "<= ncols", which only holds
# without duplicates (PyTorch's CSR forbids them, ours and scipy's allow them).
PREFIX_ONLY = {
    "crow monotone": (csr_args("csr", [0, 2, 1, 2], [0, 1], shape=(3, 3)), "] - crow_indices[..., :-1]"),
    "ccol monotone": (csr_args("csc", [0, 2, 1, 2], [0, 1], shape=(3, 3)), "] - ccol_indices[..., :-1]"),
}  # fmt: skip


def build(lib, kind, args):
    if lib == "ours":
        return {"coo": COO, "csr": CSR, "csc": CSC}[kind](*args)
    tensors = [torch.tensor(a) for a in args[:-1]]
    make = {"coo": torch.sparse_coo_tensor, "csr": torch.sparse_csr_tensor}.get(
        kind, torch.sparse_csc_tensor
    )
    return make(*tensors, args[-1], check_invariants=True)


def messages(kind, args, our_type):
    with pytest.raises(RuntimeError) as theirs:
        build("torch", kind, args)
    with pytest.raises(our_type) as ours:
        build("ours", kind, args)
    return str(theirs.value).splitlines()[0], str(ours.value)


@pytest.mark.parametrize("name", list(ERRORS))
def test_torch_message_is_part_of_ours(name):
    (kind, args), our_type = ERRORS[name]
    theirs, ours = messages(kind, args, our_type)
    assert theirs in ours


@pytest.mark.parametrize("name", list(PREFIX_ONLY))
def test_monotone_pointer_message_shares_torch_condition(name):
    (kind, args), shared = PREFIX_ONLY[name]
    theirs, ours = messages(kind, args, ValueError)
    head = theirs[: theirs.index(shared) + len(shared)]
    assert head in ours


def test_deviation_float_indices_rejected_where_torch_casts():
    idx = np.array([[0.0, 1.0], [0.0, 1.0]])
    t = torch.sparse_coo_tensor(torch.tensor(idx), torch.tensor([1.0, 2.0]), (3, 4))
    assert t._indices().dtype == torch.int64  # torch casts silently
    with pytest.raises(TypeError, match="never casts"):
        COO(idx, np.array([1.0, 2.0]), (3, 4))


def test_deviation_int32_indices_widened_as_torch():
    idx = np.array([[0, 1], [0, 1]], np.int32)
    t = torch.sparse_coo_tensor(torch.tensor(idx), torch.tensor([1.0, 2.0]), (3, 4))
    assert t._indices().dtype == torch.int64
    assert COO(idx, np.array([1.0, 2.0]), (3, 4)).indices.dtype == np.int64


def test_deviation_non_canonical_csr_accepted_where_torch_rejects():
    args = (np.array([0, 2, 2]), np.array([1, 1]), np.array([1.0, 2.0]), (2, 3))
    with pytest.raises(RuntimeError, match="sorted and distinct"):
        build("torch", "csr", args)
    r = CSR(*args)
    assert not r.has_canonical_format
    ref = torch.sparse_coo_tensor(torch.tensor([[0, 0], [1, 1]]), torch.tensor([1.0, 2.0]), (2, 3))
    same(r.to_dense(), ref.to_dense())
    same(r.sum_duplicates().col_indices, ref.to_sparse_csr().col_indices())


def test_false_coalesced_promise_rejected_like_torch():
    idx, vals = np.array([[1, 0], [0, 1]]), np.array([1.0, 2.0])
    with pytest.raises(RuntimeError) as theirs:
        torch.sparse_coo_tensor(
            torch.tensor(idx), torch.tensor(vals), (3, 4), is_coalesced=True, check_invariants=True
        )
    with pytest.raises(ValueError) as ours:
        COO(idx, vals, (3, 4), is_coalesced=True)
    assert str(theirs.value).splitlines()[0] in str(ours.value)


def test_transpose_errors_like_torch():
    args = (np.array([[0, 1]]), np.ones((2, 2)), (3, 2))
    t = torch.sparse_coo_tensor(*(torch.tensor(a) for a in args[:2]), args[2])
    for d0, d1, exc in ((0, 1, ValueError), (0, 2, IndexError)):
        with pytest.raises((RuntimeError, IndexError)) as theirs:
            t.transpose(d0, d1)
        with pytest.raises(exc) as ours:
            COO(*args).transpose(d0, d1)
        assert str(theirs.value).splitlines()[0] in str(ours.value)
    assert isinstance(theirs.value, IndexError)  # the out-of-range dim: same type as torch
