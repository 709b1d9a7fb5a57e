"""Every validation error of the sparse formats: exception type and exact message.

The messages embed PyTorch's sentence where PyTorch has the case (checked against torch
in test_formats_oracle.py), then name the argument and position and what is accepted.
"""

import numpy as np
import pytest
import scipy.sparse as sp

from minigrad.sparse import COO, CSC, CSR

I64 = np.int64
V2 = np.array([1.0, 2.0])


def coo(indices, values=V2, shape=(3, 4), **kw):
    return lambda: COO(np.asarray(indices), values, shape, **kw)


def csr(crow, col, values=V2, shape=(2, 3), **kw):
    return lambda: CSR(np.asarray(crow), np.asarray(col), values, shape, **kw)


def csc(ccol, row, values=V2, shape=(3, 2), **kw):
    return lambda: CSC(np.asarray(ccol), np.asarray(row), values, shape, **kw)


ERRORS = {
    # --- COO ------------------------------------------------------------------------
    "coo index out of range": (
        coo([[0, 5], [0, 1]]),
        ValueError,
        "size is inconsistent with indices: for dim 0, size is 3 but found index 5 "
        "(at indices[0, 1]); indices[0] must lie in [0, 3) for shape (3, 4)",
    ),
    "coo index out of range, dim 1": (
        coo([[0, 1], [4, 1]]),
        ValueError,
        "size is inconsistent with indices: for dim 1, size is 4 but found index 4 "
        "(at indices[1, 0]); indices[1] must lie in [0, 4) for shape (3, 4)",
    ),
    "coo negative index": (
        coo([[0, 1], [0, -1]]),
        ValueError,
        "found negative index -1 for dim 1 (at indices[1, 1]); indices must be >= 0: "
        "like PyTorch, sparse constructors do not wrap negative indices",
    ),
    "coo nnz mismatch": (
        coo([[0, 1, 2], [0, 1, 2]], np.ones(4)),
        ValueError,
        "indices and values must have same nnz, but got nnz from indices: 3, nnz from "
        "values: 4 (indices.shape[1] must equal values.shape[0])",
    ),
    "coo float indices": (
        coo([[0.0, 1.0], [0.0, 1.0]]),
        TypeError,
        "indices must have an integer dtype, got float64. Unlike torch.sparse_coo_tensor, "
        "which silently casts floating-point and bool indices to int64, minigrad never "
        "casts them: convert explicitly, e.g. indices.astype(np.int64)",
    ),
    "coo bool indices": (coo([[True, False], [False, True]]), TypeError, "got bool"),
    "coo uint64 indices": (
        coo(np.zeros((2, 2), np.uint64)),
        TypeError,
        "indices must have an integer dtype that fits in int64, got uint64; indices are "
        "stored as int64",
    ),
    "coo 1-d indices": (
        coo([0, 1]),
        ValueError,
        "indices must be sparse_dim x nnz, but got: [2] (indices must be a 2-D integer "
        "array of shape (sparse_dim, nnz); for one sparse dim pass indices[None, :])",
    ),
    "coo 3-d indices": (coo([[[0, 1]]]), ValueError, "but got: [1, 1, 2]"),
    "coo shape too long": (
        coo([[0, 1], [0, 1]], shape=(3, 4, 5)),
        ValueError,
        "'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) = 3, sparse_dim "
        "= 2, dense_dim = 0 (shape (3, 4, 5): sparse_dim is indices.shape[0], dense_dim is "
        "values.ndim - 1)",
    ),
    "coo shape too short": (coo([[0, 1], [0, 1]], shape=(3,)), ValueError, "len(size) = 1"),
    "coo dense shape": (
        coo([[0, 1]], np.ones((2, 3))),
        ValueError,
        "values has incorrect size, expected [2, 4], got [2, 3] (values must have shape "
        "(nnz, *shape[sparse_dim:]) for shape (3, 4) with sparse_dim 1)",
    ),
    "coo 0-d values": (
        coo([[0], [1]], np.float64(1.0)),
        ValueError,
        "values must have shape (nnz, *dense_shape), got a 0-d array; for a single stored "
        "entry pass values of shape (1,)",
    ),
    "coo complex values": (
        coo([[0, 1], [0, 1]], np.array([1j, 2])),
        TypeError,
        "values has dtype complex128, which minigrad does not support; supported dtypes "
        "are bool, uint8, int8, int16, int32, int64, float16, float32, float64",
    ),
    "coo object values": (coo([[0, 1], [0, 1]], np.array(["a", "b"])), TypeError, "<U1"),
    "coo negative shape": (
        coo([[0, 1]], shape=(-1,)),
        ValueError,
        "shape must have non-negative sizes, got (-1,)",
    ),
    "coo float shape": (coo([[0, 1]], shape=(3.0,)), TypeError, "shape must be a tuple of ints, got (3.0,)"),
    "coo int shape": (coo([[0, 1]], shape=3), TypeError, "shape must be a tuple of ints, got 3"),
    "coo bool shape": (coo([[0, 1]], shape=(True,)), TypeError, "got (True,)"),
    "coo false coalesced promise": (
        coo([[1, 0], [0, 1]], is_coalesced=True),
        ValueError,
        "cannot set is_coalesced to true if indices correspond to uncoalesced COO tensor "
        "(indices must be sorted lexicographically with no duplicates; leave "
        "is_coalesced=False and call coalesce() instead)",
    ),
    # --- CSR ------------------------------------------------------------------------
    "csr crow[0]": (
        csr([1, 1, 2], [0, 1]),
        ValueError,
        "`crow_indices[..., 0] == 0` is not satisfied. (got crow_indices[0] = 1; the "
        "pointers must start at 0)",
    ),
    "csr crow[-1]": (
        csr([0, 1, 3], [0, 1]),
        ValueError,
        "`crow_indices[..., -1] == nnz` is not satisfied. (got crow_indices[-1] = 3, but "
        "nnz = len(values) = 2)",
    ),
    "csr monotone": (
        csr([0, 2, 1, 2], [0, 1], shape=(3, 3)),
        ValueError,
        "`0 <= crow_indices[..., 1:] - crow_indices[..., :-1]` is not satisfied. "
        "(crow_indices[2] = 1 is less than crow_indices[1] = 2; the pointers must be "
        "non-decreasing)",
    ),
    "csr column range": (
        csr([0, 1, 2], [0, 5]),
        ValueError,
        "`0 <= col_indices < ncols` is not satisfied. (found col_indices[1] = 5 with ncols = 3)",
    ),
    "csr negative column": (csr([0, 1, 2], [-1, 0]), ValueError, "col_indices[0] = -1"),
    "csr len(crow)": (
        csr([0, 1, 2], [0, 1], shape=(3, 3)),
        ValueError,
        "crow_indices.shape[-1] must be equal to the number of rows + 1 (=4), but got 3 "
        "(shape (3, 3))",
    ),
    "csr len(col) != len(values)": (
        csr([0, 1, 3], [0, 1], np.ones(3)),
        ValueError,
        "col_indices.shape[-1] must be equal to nnz (=3) as defined by values.shape[0], but got 2",
    ),
    "csr 2-d crow": (
        csr([[0, 1, 2]], [0, 1]),
        ValueError,
        "crow_indices must be 1-D, got shape (1, 3); minigrad's CSR has no batch or dense "
        "dims (use COO for trailing dense dims)",
    ),
    "csr 2-d values": (csr([0, 1, 2], [0, 1], np.ones((2, 2))), ValueError, "values must be 1-D"),
    "csr 3-d shape": (
        csr([0, 1, 2], [0, 1], shape=(2, 3, 4)),
        ValueError,
        "tensor dimensionality must be sum of batch, base, and dense dimensionalities "
        "(=0 + 2 + 0) but got 3 (CSR shape must be (nrows, ncols), got (2, 3, 4))",
    ),
    "csr float crow": (csr([0.0, 1.0, 2.0], [0, 1]), TypeError, "crow_indices must have an integer dtype"),
    "csr float col": (csr([0, 1, 2], [0.0, 1.0]), TypeError, "col_indices must have an integer dtype"),
    "csr bad values dtype": (csr([0, 1, 2], [0, 1], np.array([1j, 2])), TypeError, "complex128"),
    # --- CSC (the same checks with the axes' names swapped) --------------------------
    "csc ccol[0]": (csc([1, 1, 2], [0, 1]), ValueError, "`ccol_indices[..., 0] == 0` is not satisfied."),
    "csc ccol[-1]": (csc([0, 1, 3], [0, 1]), ValueError, "`ccol_indices[..., -1] == nnz` is not satisfied."),
    "csc monotone": (
        csc([0, 2, 1, 2], [0, 1], shape=(3, 3)),
        ValueError,
        "`0 <= ccol_indices[..., 1:] - ccol_indices[..., :-1]` is not satisfied.",
    ),
    "csc row range": (
        csc([0, 1, 2], [0, 5]),
        ValueError,
        "`0 <= row_indices < nrows` is not satisfied. (found row_indices[1] = 5 with nrows = 3)",
    ),
    "csc len(ccol)": (
        csc([0, 1, 2], [0, 1], shape=(3, 3)),
        ValueError,
        "ccol_indices.shape[-1] must be equal to the number of columns + 1 (=4), but got 3",
    ),
    "csc len(row)": (csc([0, 1, 3], [0, 1], np.ones(3)), ValueError, "row_indices.shape[-1] must be equal to nnz (=3)"),
    "csc 3-d shape": (csc([0, 1, 2], [0, 1], shape=(3, 2, 1)), ValueError, "CSC shape must be (nrows, ncols)"),
}  # fmt: skip


@pytest.mark.parametrize("name", list(ERRORS))
def test_validation_error(name):
    call, exc, message = ERRORS[name]
    with pytest.raises(exc) as info:
        call()
    assert message in str(info.value)
    assert type(info.value) is exc


def test_messages_name_the_argument():
    """Every message of the table names what was wrong (an argument or the shape)."""
    words = ("indices", "values", "shape", "size", "is_coalesced", "nnz")
    for name, (call, exc, _) in ERRORS.items():
        with pytest.raises(exc) as info:
            call()
        assert any(w in str(info.value) for w in words), name


@pytest.mark.parametrize(
    "call",
    [
        coo([[0, 5], [0, 1]], check=False),
        coo([[0, -1], [0, 1]], check=False),
        csr([0, 2, 1, 2], [0, 1], shape=(3, 3), check=False),
        csr([0, 1, 2], [0, 5], check=False),
        coo([[1, 0], [0, 1]], is_coalesced=True, check=False),
    ],
)
def test_check_false_skips_the_index_scans(call):
    assert call().nnz == 2


METHOD_ERRORS = {
    "transpose dense dim": (
        lambda: COO([[0, 1]], np.ones((2, 2)), (3, 2)).transpose(0, 1),
        ValueError,
        "sparse transpose: transposed dimensions must be sparse Got sparse_dim: 1, d0: 0, "
        "d1: 1 (only the first 1 dims are sparse)",
    ),
    "transpose out of range": (
        lambda: COO([[0], [1]], np.ones(1), (3, 4)).transpose(0, 2),
        IndexError,
        "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
    ),
    "to_csr row-sparse": (
        lambda: COO([[0, 1]], np.ones((2, 2)), (3, 2)).to_csr(),
        ValueError,
        "to_csr() needs a 2-D COO with sparse_dim 2 and dense_dim 0, got shape (3, 2) with "
        "sparse_dim 1 and dense_dim 1; use to_dense() for other shapes",
    ),
    "to_csc 3-d": (
        lambda: COO([[0], [0], [0]], np.ones(1), (2, 2, 2)).to_csc(),
        ValueError,
        "to_csc() needs a 2-D COO with sparse_dim 2 and dense_dim 0, got shape (2, 2, 2)",
    ),
    "to_scipy 1-d": (
        lambda: COO([[0]], np.ones(1), (3,)).to_scipy(),
        ValueError,
        "to_scipy() needs a 2-D COO with sparse_dim 2 and dense_dim 0, got shape (3,)",
    ),
    "coo to_scipy float16": (
        lambda: COO([[0], [0]], np.ones(1, np.float16), (2, 2)).to_scipy(),
        TypeError,
        "scipy.sparse does not support dtype float16; convert the values first, e.g. "
        "x.with_values(x.values.astype(np.float32)).to_scipy()",
    ),
    "csr to_scipy float16": (
        lambda: CSR([0, 1], [0], np.ones(1, np.float16), (1, 1)).to_scipy(),
        TypeError,
        "scipy.sparse does not support dtype float16",
    ),
    "coo from_scipy dense": (
        lambda: COO.from_scipy(np.eye(2)),
        TypeError,
        "COO.from_scipy() expects a scipy.sparse array or matrix, got ndarray; for a dense "
        "array use COO.from_dense()",
    ),
    "csr from_scipy dense": (lambda: CSR.from_scipy([[1]]), TypeError, "CSR.from_scipy() expects"),
    "csc from_scipy 3-d": (
        lambda: CSC.from_scipy(sp.coo_array(np.ones((2, 2, 2)))),
        ValueError,
        "CSC.from_scipy() needs a 2-D array, got an array of shape (2, 2, 2)",
    ),
    "csr from_dense 1-d": (
        lambda: CSR.from_dense(np.ones(3)),
        ValueError,
        "CSR.from_dense() needs a 2-D array, got an array of shape (3,)",
    ),
    "from_dense sparse_dim": (
        lambda: COO.from_dense(np.ones((2, 3)), sparse_dim=3),
        ValueError,
        "sparse_dim must be in [0, 2] for an array of 2 dims, got 3",
    ),
    "from_dense complex": (lambda: COO.from_dense(np.ones(2, complex)), TypeError, "complex128"),
    "with_values nnz": (
        lambda: COO([[0, 1]], np.ones(2), (3,)).with_values(np.ones(3)),
        ValueError,
        "nnz from indices: 2, nnz from values: 3",
    ),
    "with_values 0-d": (
        lambda: COO([[0, 1]], np.ones(2), (3,)).with_values(np.float64(1)),
        ValueError,
        "got a 0-d array",
    ),
    "csr with_values 2-d": (
        lambda: CSR([0, 1], [0], np.ones(1), (1, 1)).with_values(np.ones((1, 2))),
        ValueError,
        "values must be 1-D",
    ),
}


@pytest.mark.parametrize("name", list(METHOD_ERRORS))
def test_method_error(name):
    call, exc, message = METHOD_ERRORS[name]
    with pytest.raises(exc) as info:
        call()
    assert message in str(info.value)
    assert type(info.value) is exc
