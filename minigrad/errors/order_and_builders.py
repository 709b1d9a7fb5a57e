"""Messages of issue 27's fourth batch of names: the order statistics (ops/order_stats.py),
the builders (ops/builders.py), the statistics (ops/statistics.py), the integer and bit math
(ops/integer_math.py, ops/rounded_division.py) and the writes at indices and windows
(ops/put_and_unfold.py); PyTorch's wording where PyTorch raises."""

KTHVALUE_RANGE = "kthvalue(): selected number k out of range for dimension {dim}"
MODE_EMPTY = "mode(): Expected reduction dim {dim} to have non-zero size."
QUANTILE_Q_RANGE = "quantile() q must be in the range [0, 1] but got {got}"
QUANTILE_Q_DIM = "quantile() q must be a scalar or 1D tensor"
QUANTILE_Q_DTYPE = "quantile() q tensor must be same dtype as the input tensor"
QUANTILE_DTYPE = "quantile() input tensor must be either float or double dtype"
QUANTILE_INTERPOLATION = (
    "quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, "
    "but got {got}"
)
QUANTILE_EMPTY = "quantile() input tensor must be non-empty"
NO_DERIVATIVE = "the derivative for '{op}' is not implemented."
STEPS_NEGATIVE = "number of steps must be non-negative"
TENSORDOT_NEGATIVE = "tensordot expects dims >= 0, but got dims={got}"
TENSORDOT_LENGTHS = "both dimension lists should have same length"
TENSORDOT_SIZES = (
    "contracted dimensions need to match, but first has size {sa} in dim {da} and second has "
    "size {sb} in dim {db}"
)
DIAG_DIMS = "diagonal dimensions cannot be identical {d1}, {d2}"
SPLIT_0D = (
    "tensor_split expected at least a 1-dimensional tensor, but got a tensor with {ndim} dims"
)
SPLIT_TENSOR_DIM = (
    "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
    "one-dimensional tensor, but got a tensor with {ndim} dims"
)
SPLIT_TENSOR_DTYPE = (
    "tensor_split expected tensor_indices_or_sections to have dtype of long, but got {got}"
)
SPLIT_SECTIONS = "number of sections must be larger than 0, got {got}"
BLOCK_DIAG_DIMS = (
    "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has {ndim} "
    "dimensions"
)
EXPECT_1D = "Expect a 1D vector, but got shape {shape}"
COMBINATIONS_R = "Expect a non-negative number, but got {got}"
VANDER_1D = "x must be a one-dimensional tensor."
VANDER_N = "N must be non-negative."
COV_DIMS = (
    "cov(): expected input to have two or fewer dimensions but got an input with {ndim} dimensions"
)
COV_WEIGHTS_DIM = (
    "cov(): expected {name} to have one or fewer dimensions but got {name} with {ndim} dimensions"
)
COV_WEIGHTS_NUMEL = (
    "cov(): expected {name} to have the same numel as there are observations in the input "
    "but got {got} != {n}"
)
COV_FWEIGHTS_DTYPE = (
    "cov(): expected fweights to have integral dtype but got fweights with {got} dtype"
)
COV_AWEIGHTS_DTYPE = (
    "cov(): expected aweights to have floating point dtype but got aweights with {got} dtype"
)
COV_NEGATIVE = "cov(): {name} cannot be negative"
COV_DOF = (
    "cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of "
    "observations."
)
DIM_NO_DIMS = "Dimension specified as {dim} but tensor has no dimensions"
TRAPEZOID_X_TYPE = "{op}(): argument 'x' must be Tensor (or dx= a number), not {got}"
TRAPEZOID_X_LEN = "{op}: There must be one `x` value for each sample point"
RENORM_DIMS = "renorm: input needs at least 2 dimensions, got {ndim} dimensions"
RENORM_P = "renorm: non-positive-norm not supported"
RENORM_MAXNORM = "renorm: expected maxnorm to be >= 0 but got {got}"
NEED_TENSOR = "{op}(): argument '{name}' (position 2) must be Tensor, not {got}"
NO_KERNEL = "\"{op}\" not implemented for '{got}'"
HEAVISIDE_DTYPES = "heaviside is not yet implemented for tensors with different dtypes."
FREXP_DTYPE = "torch.frexp() only supports floating-point dtypes"
INDICES_TYPE = "index_put(): argument 'indices' must be a tuple of Tensors, not {got}"
INDEX_DTYPE = "tensors used as indices must be long, int, byte or bool tensors"
INDEX_RANGE = "index {index} is out of bounds for dimension {dim} with size {size}"
INDEX_PUT_DTYPE = (
    "Index put requires the source and destination dtypes match, got {a} for the destination "
    "and {v} for the source."
)
INDEX_PUT_SHAPE = (
    "shape mismatch: value tensor of shape {v} cannot be broadcast to indexing result of shape {t}"
)
PUT_NUMEL = (
    "put_(): Expected source and index to have the same number of elements, but got "
    "source.numel() = {s}, index.numel() = {i}"
)
PUT_RANGE = "out of range: tried to access index {index} on a tensor of {n} elements."
MASKED_SCATTER_DTYPE = "masked_scatter_ only supports boolean masks, but got mask with dtype {got}"
MASKED_SCATTER_SOURCE = "Number of elements of source < number of ones in mask"
UNFOLD_SIZE = "size is {size} but must be >= 0"
UNFOLD_TOO_BIG = "maximum size for tensor at dimension {dim} is {n} but size is {size}"
UNFOLD_STEP = "step is {step} but must be > 0"
APPLY_REQUIRES_GRAD = (
    "Can't call {op}() on Variable that requires grad. Use var.detach().{op}() instead."
)
DIV_ROUNDING_MODE = (
    "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{got}'"
)
