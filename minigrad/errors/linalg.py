"""Messages of ``minigrad.linalg``'s decompositions and solvers (PyTorch's wording)."""

NOT_MATRIX = "{op}: The input tensor {name} must have at least 2 dimensions."
NOT_SQUARE = "{op}: A must be batches of square matrices, but they are {m} by {n} matrices"
NOT_FLOAT = "{op}: Expected a floating point or complex tensor as input. Got {dtype}"
EIGH_DTYPE = "\"linalg_eigh_cpu\" not implemented for '{dtype}'"
SAME_DTYPE = (
    "{op}: Expected {a} and {b} to have the same dtype, but found {a} of type {da} and {b} of "
    "type {db} instead."
)
BATCH_ELEMENT = "{op}: (Batch element {i}): "
NOT_POSITIVE_DEFINITE = (
    "{op}: The factorization could not be completed because the input is not "
    "positive-definite (the leading minor of order {order} is not positive-definite)."
)
UPLO = "Expected UPLO argument to be 'L' or 'U', but got {uplo}"
QR_MODE = (
    "qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', or "
    "'complete'"
)
QR_MODE_R = (
    "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use "
    "linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr."
)
QR_COMPLETE = "The QR decomposition is not differentiable when mode='complete' and nrows > ncols."
TRIANGULAR_SHAPES = (
    "linalg.solve_triangular: Incompatible shapes of A and B for the equation {eq} ({a} and {b})"
)
CHOLESKY_SOLVE_SHAPES = (
    "Incompatible matrix sizes for cholesky_solve: each A matrix is {n} by {n} but each b "
    "matrix is {bm} by {bk}"
)
LSTSQ_DRIVER = "torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)"
LSTSQ_ROWS = "torch.linalg.lstsq: input.size(-2) should match other.size(-2)"
LSTSQ_DIMS = (
    "torch.linalg.lstsq: input must have at least 2 dimensions (got {a}); other must have at "
    "least 1 dimension (got {b})"
)
LSTSQ_BATCH = (
    "torch.linalg.lstsq: input.dim() must be greater or equal to other.dim() and "
    "(input.dim() - other.dim()) <= 1"
)
PINV_INPUT = (
    "linalg.pinv({dtype}{{{shape}}}): expected a tensor with 2 or more dimensions of float, "
    "double, cfloat or cdouble types"
)
LSTSQ_DTYPE = (
    "torch.linalg.lstsq: Expected input and other to have the same dtype, but got input's "
    "dtype {a} and other's dtype {b}"
)
