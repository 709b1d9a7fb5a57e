"""Every error message of the sparse formats (``minigrad.sparse``), in one place.

Like :mod:`minigrad.errors`, messages are ``str.format`` templates. Where PyTorch has
the case, its exact sentence is part of ours (so a student who meets it here recognises
it in PyTorch), followed by what minigrad adds: the offending argument and position, and
what would be accepted. PyTorch raises ``RuntimeError`` for all of these; minigrad raises
``ValueError`` for bad values and shapes, ``TypeError`` for wrong dtypes or types and
``IndexError`` for a dimension out of range (as PyTorch does for that one).
"""

# --- dtypes and types (TypeError) ---------------------------------------------------
INDEX_DTYPE = (
    "{name} must have an integer dtype, got {dtype}. Unlike torch.sparse_coo_tensor, "
    "which silently casts floating-point and bool indices to int64, minigrad never casts "
    "them: convert explicitly, e.g. {name}.astype(np.int64)"
)
INDEX_DTYPE_RANGE = (
    "{name} must have an integer dtype that fits in int64, got {dtype}; indices are stored as int64"
)
VALUES_DTYPE = (
    "values has dtype {dtype}, which minigrad does not support; supported dtypes are {supported}"
)
SHAPE_TYPE = "shape must be a tuple of ints, got {got!r}"
NOT_SCIPY = (
    "{cls}.from_scipy() expects a scipy.sparse array or matrix, got {got}; "
    "for a dense array use {cls}.from_dense()"
)
SCIPY_DTYPE = (
    "scipy.sparse does not support dtype {dtype}; convert the values first, "
    "e.g. x.with_values(x.values.astype(np.float32)).to_scipy()"
)

# --- shapes and values (ValueError) -------------------------------------------------
SHAPE_NEGATIVE = "shape must have non-negative sizes, got {shape}"
INDICES_NDIM = (
    "indices must be sparse_dim x nnz, but got: {got} (indices must be a 2-D integer "
    "array of shape (sparse_dim, nnz); for one sparse dim pass indices[None, :])"
)
VALUES_0D = (
    "values must have shape (nnz, *dense_shape), got a 0-d array; "
    "for a single stored entry pass values of shape (1,)"
)
NNZ_MISMATCH = (
    "indices and values must have same nnz, but got nnz from indices: {idx}, "
    "nnz from values: {val} (indices.shape[1] must equal values.shape[0])"
)
SHAPE_LEN = (
    "'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) = {ndim}, "
    "sparse_dim = {sparse_dim}, dense_dim = {dense_dim} (shape {shape}: sparse_dim is "
    "indices.shape[0], dense_dim is values.ndim - 1)"
)
VALUES_SHAPE = (
    "values has incorrect size, expected {want}, got {got} (values must have shape "
    "(nnz, *shape[sparse_dim:]) for shape {shape} with sparse_dim {sparse_dim})"
)
INDEX_NEGATIVE = (
    "found negative index {index} for dim {dim} (at indices[{dim}, {pos}]); indices must "
    "be >= 0: like PyTorch, sparse constructors do not wrap negative indices"
)
INDEX_RANGE = (
    "size is inconsistent with indices: for dim {dim}, size is {size} but found index "
    "{index} (at indices[{dim}, {pos}]); indices[{dim}] must lie in [0, {size}) for shape {shape}"
)
NOT_COALESCED = (
    "cannot set is_coalesced to true if indices correspond to uncoalesced COO tensor "
    "(indices must be sorted lexicographically with no duplicates; "
    "leave is_coalesced=False and call coalesce() instead)"
)
SPARSE_DIM_RANGE = "sparse_dim must be in [0, {ndim}] for an array of {ndim} dims, got {got}"
TRANSPOSE_DENSE = (
    "sparse transpose: transposed dimensions must be sparse Got sparse_dim: {sparse_dim}, "
    "d0: {d0}, d1: {d1} (only the first {sparse_dim} dims are sparse)"
)
DIM_RANGE = "Dimension out of range (expected to be in range of [{lo}, {hi}], but got {dim})"
NEEDS_MATRIX = (
    "{op} needs a 2-D COO with sparse_dim 2 and dense_dim 0, got shape {shape} with "
    "sparse_dim {sparse_dim} and dense_dim {dense_dim}; use to_dense() for other shapes"
)
NEEDS_2D = "{op} needs a 2-D array, got an array of shape {shape}"

# --- CSR / CSC ({ptr}: crow_indices or ccol_indices, {idx}: col_indices or row_indices) ---
COMPRESSED_1D = (
    "{name} must be 1-D, got shape {shape}; minigrad's {layout} has no batch or dense "
    "dims (use COO for trailing dense dims)"
)
COMPRESSED_SHAPE = (
    "tensor dimensionality must be sum of batch, base, and dense dimensionalities "
    "(=0 + 2 + 0) but got {ndim} ({layout} shape must be (nrows, ncols), got {shape})"
)
PTR_LEN = (
    "{ptr}.shape[-1] must be equal to the number of {major} + 1 (={want}), but got {got} "
    "(shape {shape})"
)
IDX_LEN = (
    "{idx}.shape[-1] must be equal to nnz (={nnz}) as defined by values.shape[0], but got {got}"
)
PTR_FIRST = (
    "`{ptr}[..., 0] == 0` is not satisfied. (got {ptr}[0] = {got}; the pointers must start at 0)"
)
PTR_LAST = (
    "`{ptr}[..., -1] == nnz` is not satisfied. "
    "(got {ptr}[-1] = {got}, but nnz = len(values) = {nnz})"
)
PTR_MONOTONE = (
    "`0 <= {ptr}[..., 1:] - {ptr}[..., :-1]` is not satisfied. ({ptr}[{i}] = {got} is "
    "less than {ptr}[{prev}] = {before}; the pointers must be non-decreasing)"
)
IDX_RANGE = (
    "`0 <= {idx} < {bound}` is not satisfied. (found {idx}[{pos}] = {got} with {bound} = {n})"
)
