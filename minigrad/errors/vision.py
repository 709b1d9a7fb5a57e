"""Error messages of the vision layers (``nn.functional``'s pixel_shuffle, unfold/fold,
instance_norm, local_response_norm, bilinear, affine_grid/grid_sample, rrelu, max_unpool2d):
PyTorch's wording, with what would be accepted."""

SHUFFLE_DIMS = (
    "{op} expects input to have at least 3 dimensions, but got input with {got} dimension(s)"
)
SHUFFLE_FACTOR = "{op} expects a positive {name}, but got {got}"
SHUFFLE_CHANNELS = (
    "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
    "upscale_factor, but input.size(-3)={c} is not divisible by {rr}"
)
UNSHUFFLE_SIZE = (
    "pixel_unshuffle expects {what} to be divisible by downscale_factor, but "
    "input.size({dim})={n} is not divisible by {r}"
)
CHANNEL_SHUFFLE_DIMS = "channel_shuffle expects input with > 2 dims, but got input with sizes {got}"
CHANNEL_SHUFFLE_GROUPS = (
    "Number of groups to divide channels in must be positive. Value of groups:{got}"
)
CHANNEL_SHUFFLE_DIVIDE = (
    "Number of channels must be divisible by groups. Got {c} channels and {g} groups."
)
UNFOLD_DIMS = (
    "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and non-zero dimensions "
    "for input, but got: {got}"
)
FOLD_DIMS = (
    "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
    "dimensions for input, but got: {got}"
)
WINDOW_ARG = "{label} should be {what}, but got {name}_height: {a} {name}_width: {b}"
WINDOW_PAIR = "{op}(): {name} must be an int or a pair of ints, got {got}"
UNFOLD_BLOCKS = (
    "Given input with spatial size {size}, kernel_size={k}, dilation={d}, padding={p}, "
    "calculated shape of the array of sliding blocks as {blocks}, but its components must be "
    "at least one."
)
FOLD_CHANNELS = (
    "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but "
    "got input.size(1)={got} and kernel_size={k}."
)
FOLD_BLOCKS = (
    "Given output_size={size}, kernel_size={k}, dilation={d}, padding={p}, stride={s}, "
    "expected size of input's dimension 2 to match the calculated number of sliding blocks "
    "{bh} * {bw} = {want}, but got input.size(2)={got}."
)
INSTANCE_NORM_SPATIAL = "Expected more than 1 spatial element when training, got input size {got}"
INSTANCE_NORM_DIMS = "expected {want} input (got {got}D input)"
LRN_DIMS = "Expected 3D or higher dimensionality input (got {got} dimensions)"
BILINEAR_INPUT2 = (
    "bilinear(): input2 size does not match weight size: got {got} but expected {want}"
)
BILINEAR_INPUT1 = (
    "bilinear(): input1 size does not match weight size: got {got} but expected {want}"
)
BILINEAR_BATCH = "bilinear(): input batch dimensions do not match at dim {dim}: got {a} and {b}"
BILINEAR_BIAS = "bilinear(): bias size does not match weight size: got {got} but expected {want}"
AFFINE_THETA = "Expected a batch of 2D affine matrices of shape Nx2x3 for size {size}. Got {got}."
AFFINE_SIZE = (
    "affine_grid only supports 4D sizes (2D affine transforms) in minigrad (PyTorch also "
    "takes 5D sizes). Got size {size}."
)
AFFINE_ALIGN = (
    "Default grid_sample and affine_grid behavior has changed to align_corners=False since "
    "1.3.0. Please specify align_corners=True if the old behavior is desired. See the "
    "documentation of grid_sample for details."
)
GRID_MODE = (
    "nn.functional.grid_sample(): expected mode to be 'bilinear' or 'nearest' (minigrad has "
    "no 'bicubic'), but got: '{got}'"
)
GRID_PADDING = (
    "nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
    "'reflection', but got: '{got}'"
)
GRID_LAST = (
    "grid_sampler(): expected grid to have size 2 in last dimension, but got grid with sizes {got}"
)
GRID_DIMS = (
    "grid_sampler(): expected 4D input and grid with same number of dimensions, but got input "
    "with sizes {input} and grid with sizes {grid} (minigrad samples 4-D inputs only)"
)
GRID_BATCH = (
    "grid_sampler(): expected grid and input to have same batch size, but got input with "
    "sizes {input} and grid with sizes {grid}"
)
GRID_SAMPLE_THIRD_ORDER = (
    "the third derivative of grid_sample is not implemented in minigrad (PyTorch composes its "
    "second derivative of differentiable ops); differentiate grid_sample at most twice"
)
RRELU_BOUNDS = "Lower bound should be less than or equal to the upper bound"
UNPOOL_DTYPE = "elements in indices should be type int64 but got: {got}"
UNPOOL_SHAPE = (
    "Expected shape of indices to be same as that of the input tensor ({want}) but got "
    "indices tensor with shape: {got}"
)
UNPOOL_SIZE = 'invalid output_size "{got}" (dim {dim} must be between {low} and {high})'
UNPOOL_INDEX = "Found an invalid max index: {got} (output volumes are of size {h}x{w})"
UNPOOL_DIMS = (
    "Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with {got} dimensions."
)
FUSE_EVAL = "Fusion only for eval!"
BILINEAR_WEIGHT = (
    "bilinear(): weight must be 3-D (out_features, in1_features, in2_features), got {got}"
)
BILINEAR_NDIM = "bilinear(): input dimensions do not match: got {a} and {b}"
INSTANCE_NORM_FEATURES = (
    "expected input's size at dim={dim} to match num_features ({n}), but got: {got}."
)
INSTANCE_NORM_FEATURES_WARN = (
    "input's size at dim=1 does not match num_features ({got} and {n}). You can silence this "
    "warning by not passing in num_features, which is not used because affine=False"
)
GRID_DTYPE = (
    "grid_sampler(): expected input and grid to have same dtype, but input has {a} and grid has {b}"
)
POOL3D_INPUT = (
    "{op}: non-empty 4D or 5D (batch mode) tensor expected for input, got input of size {shape}"
)
POOL3D_ARG = "{op}: {name} must either be a single int, or a tuple of three ints (got {name}={got})"
POOL3D_DIVISOR = "avg_pool3d: divisor must be not zero (got divisor_override={got})"
AFFINE_SIZE_POSITIVE = "Expected non-zero, positive output size. Got {size}"
