"""Messages of sparse (submanifold) convolution: ``mg.sparse.subm_conv2d`` / ``nn.SubMConv2d``.

Where PyTorch's dense ``conv2d`` has the case (channels, bias size, dtypes) the wording
follows it, so a student recognises it there; the layout messages say how to build the
hybrid COO tensor that is accepted.
"""

INPUT_LAYOUT = (
    "{op}: input must be a sparse COO tensor of shape {accepted} (sparse spatial dims, one "
    "dense channel dim), got a {layout} tensor of shape {shape}. Build one with "
    "x.to_sparse(sparse_dim={sd}) from a dense {accepted} tensor, or with "
    "mg.sparse_coo_tensor(indices of shape ({sd}, nnz), values of shape (nnz, C), size)"
)
INPUT_DIMS = (
    "{op}: input must be a hybrid COO tensor of shape {accepted}: {sds} sparse dims and 1 "
    "dense (channel) dim, got shape {shape} with {sd} sparse and {dd} dense dims"
)
WEIGHT_LAYOUT = "{op}: weight must be a dense (strided) tensor, got a {layout} tensor"
WEIGHT_DIMS = (
    "{op}: expected a weight of {ndim} dims {accepted}, as PyTorch's conv weight, but got "
    "weight of size {shape}"
)
CHANNELS = (
    "{op}: Given weight of size {wshape}, expected input of shape {shape} to have {want} "
    "channels (its last, dense dim), but got {got} channels instead"
)
BIAS = (
    "{op}: Given weight of size {wshape}, expected bias to be 1-dimensional with {want} "
    "elements, but got bias of size {shape} instead"
)
DTYPE = (
    "{op}: {a} has dtype {da} but {b} has dtype {db}; all must have the same dtype "
    "(convert one with .to({da}) or .to({db}))"
)
FLOAT_ONLY = (
    "{op}: {arg} has dtype {dtype}; a convolution needs floating point values "
    "(float16, float32 or float64)"
)
KERNEL_TYPE = "{op}: kernel_size must be an int or a tuple of {n} ints, got {got!r}"
KERNEL_EVEN = (
    "{op}: kernel_size must be odd in every dim, got {got}: a submanifold convolution "
    "centres the window on each active site, which needs a middle element (use 1, 3, 5, ...)"
)
KERNEL_LARGE = (
    "{op}: kernel_size {got} is larger than allowed: each side may be at most {limit}. The "
    "rule book takes one pass per kernel offset ({limit}**{n} = {volume} passes at the "
    "limit); for windows that wide a dense convolution, or downsampling first, fits better"
)
CHANNELS_ARG = "{op}: {arg} must be a positive int, got {got!r}"
GRID_TOO_LARGE = (
    "{op}: the grid {sizes} has more sites than an int64 key can number; the rule book "
    "hashes each site's coordinates into one int64"
)
