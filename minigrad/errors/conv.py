"""Error messages of the dense convolutions and poolings (``nn.functional.conv*``, ``*_pool2d``, their modules).

PyTorch's wording, with the shapes involved; every one is a ``RuntimeError`` as in PyTorch
(``except RuntimeError`` catches shape errors of every op).
"""

INPUT_NDIM = (
    "Expected {a}D (unbatched) or {b}D (batched) input to {op}, but got input of size: {shape}"
)
WEIGHT_NDIM = (
    "{op}: expected weight to be {want}-dimensional (out_channels, in_channels/groups, "
    "*kernel_size), but got weight of size {shape}"
)
CHANNELS = (
    "Given groups={groups}, weight of size {weight}, expected input{input} to have {want} "
    "channels, but got {got} channels instead"
)
GROUPS_OUT = (
    "Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, "
    "but got weight of size {weight} instead"
)
GROUPS_POSITIVE = "non-positive groups is not supported (got groups={groups})"
BIAS_SHAPE = (
    "Given weight of size {weight}, expected bias to be 1-dimensional with {want} elements, "
    "but got bias of size {got} instead"
)
KERNEL_TOO_LARGE = (
    "Calculated padded input size per channel: ({padded}). Kernel size: ({kernel}). "
    "Kernel size can't be greater than actual input size"
)
ARG_LENGTH = (
    "expected {name} to be a single integer value or a list of {d} values to match the "
    "convolution dimensions, but got {name}={got}"
)
ARG_TYPE = "{op}(): argument '{name}' must be an int or a tuple of ints, but got {got}"
STRIDE_POSITIVE = "non-positive stride is not supported (got stride={got})"
DILATION_POSITIVE = "non-positive dilation is not supported (got dilation={got})"
PADDING_NEGATIVE = "negative padding is not supported (got padding={got})"
PADDING_STRING = "Invalid padding string: '{got}' (accepted: 'valid', 'same', an int or a tuple)"
SAME_STRIDED = "padding='same' is not supported for strided convolutions (got stride={got})"
DTYPE = (
    "Input type ({a}) and {what} type ({b}) should be the same (input {sa}, {what} {sb}); "
    "cast one with .to()"
)
PADDING_MODE = (
    "padding_mode must be 'zeros' (the only one minigrad implements), got '{got}' "
    "(PyTorch also accepts 'reflect', 'replicate' and 'circular')"
)
MODULE_GROUPS = "{name} must be divisible by groups (got {name}={n}, groups={groups})"
MODULE_SAME_STRIDE = "padding='same' is not supported for strided convolutions"
MODULE_GROUPS_POSITIVE = "groups must be a positive integer (got groups={groups})"

# --- pooling ------------------------------------------------------------------------------
POOL_INPUT = (
    "{op}: non-empty 3D or 4D (batch mode) tensor expected for input, got input of size {shape}"
)
POOL_ARG = "{op}: {name} must either be a single int, or a tuple of two ints (got {name}={got})"
POOL_KERNEL = "{op}: kernel_size must be greater than zero (got kernel_size={got})"
POOL_STRIDE = "{op}: stride should not be zero (got stride={got})"
POOL_DILATION = "{op}: dilation should be greater than zero (got dilation={got})"
POOL_PAD_NEGATIVE = "{op}: pad must be non-negative, but got pad: {got}"
POOL_PAD_HALF = (
    "{op}: pad should be at most half of effective kernel size, but got pad={pad}, "
    "kernel_size={kernel} and dilation={dilation}"
)
POOL_TOO_SMALL = (
    "{op}: Given input size: ({given}). Calculated output size: ({out}). Output size is too small"
)
POOL_DIVISOR = "avg_pool2d: divisor must be not zero (got divisor_override={got})"
ADAPTIVE_INPUT = "{op}(): Expected 3D or 4D tensor, but got: {shape}"
ADAPTIVE_INPUT_1D = (
    "Expected 2 to 3 dimensions, but got {ndim}-dimensional tensor for argument #1 'self' "
    "(while checking arguments for {op})"
)
ADAPTIVE_SIZE = "{op}: output_size must be an int, None or a tuple of {d} ints or Nones (got {got})"
ADAPTIVE_EMPTY = "{op}(): Expected input to have non-zero size for non-batch dimensions, but input has sizes {shape}"
POOL1D_INPUT = (
    "{op}: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for input, "
    "but got:{shape}"
)
TRANSPOSED_CHANNELS = (
    "Given transposed=1, weight of size {weight}, expected input{input} to have {want} "
    "channels, but got {got} channels instead"
)
OUTPUT_PADDING = (
    "output padding must be smaller than either stride or dilation, but got output_padding "
    "{op} with stride {stride} and dilation {dilation}"
)
TRANSPOSED_PADDING_STRING = (
    "{op}: padding must be an int or a tuple of ints for a transposed convolution (got {got!r})"
)
TRANSPOSED_BIAS = "{op}: bias must have shape ({want},), the weight's dim 1 times groups, got {got}"
TRANSPOSED_TOO_SMALL = (
    "Given input size per channel: ({given}). Calculated output size per channel: ({out}). "
    "Output size is too small; use less padding or a larger input"
)

# --- nn.grad: a convolution's gradients as functions --------------------------------------
GRAD_INPUT_NDIM = (
    "Expected {want}-dimensional input for {want}-dimensional weight {weight}, but got "
    "{got}-dimensional input of size {shape} instead"
)
GRAD_OUTPUT_SHAPE = (
    "{op}: expected grad_output of size {want} (the output of a convolution of input {input} "
    "with weight {weight}), but got grad_output of size {got}"
)
