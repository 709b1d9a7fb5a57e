"""Messages of the tensor ops added beside the first ones: maximum minimum logaddexp, std,
flip roll tril triu, chunk split narrow, masked_fill, cumsum, prod (PyTorch's wording)."""

NEED_TENSOR_OTHER = "{op}(): argument 'other' (position 2) must be Tensor, not {got}"
NOT_FLOAT = (
    "{op}: not implemented for integer or bool tensors (got dtype {got}); cast to a float dtype"
)
DIMS_TYPE = "{op}(): argument 'dims' must be an int or a tuple of ints, not {got}"
DIMS_REPEATED = "dim {dim} appears multiple times in the list of dims"
ROLL_ALIGN = "shifts and dimensions must align. shifts: {shifts}, dims:{dims}"
ROLL_0D_DIM = "Dimension specified as {dim} but tensor has no dimensions"
INT_ARG = "{op}(): argument '{name}' must be int, not {got}"
TRI_2D = "{op}: input tensor must have at least 2 dimensions"
CHUNK_POSITIVE = "chunk expects `chunks` to be greater than 0, got: {got}"
NEED_1D = "{op} expects at least a 1-dimensional tensor"
SPLIT_NEGATIVE = "split expects split_size be non-negative, but got split_size={got}"
SPLIT_ZERO = "split_size can only be 0 if dimension size is 0, but got dimension size of {n}"
SPLIT_SIZES_NEGATIVE = (
    "split_with_sizes expects split_sizes have only non-negative entries, but got "
    "split_sizes={sizes}"
)
SPLIT_SIZES_SUM = (
    "split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size at "
    "dimension {dim}), but got split_sizes={sizes}"
)
SPLIT_TYPE = "split(): split_size_or_sections must be an int or a list of ints, not {got}"
NARROW_0D = "narrow() cannot be applied to a 0-dim tensor."
NARROW_LENGTH = "narrow(): length must be non-negative."
NARROW_START = "start out of range (expected to be in range of [{lo}, {hi}], but got {got})"
NARROW_END = "start ({start}) + length ({length}) exceeds dimension size ({n})."
MASK_DTYPE = "masked_fill_ only supports boolean masks, but got mask with dtype {got}"
MASK_VALUE_DIM = (
    "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {n} dimension(s)."
)
MASK_VALUE_TYPE = "masked_fill(): value must be a number or a 0-d Tensor, not {got}"
MASK_SHAPE = "masked_fill: the mask of shape {sm} does not broadcast with the input of shape {sa}"
PROD_DIM_TYPE = "prod(): dim must be an int (one dim, or None for all), not {got}"
PROD_KEEPDIM = (
    "prod(): keepdim=True needs a dim (prod(dim, keepdim=True)); the product of all elements is 0-d"
)
UNBIND_0D = "Dimension specified as 0 but tensor has no dimensions"
NO_SPARSE_KERNEL = (
    "{op}: not implemented for a {layout} tensor (as in PyTorch, which has no sparse kernel "
    "for it); it accepts strided tensors: call .to_dense() first"
)
CUM_EXTREME_DIM = "{op}(): argument 'dim' (position 1) must be int (one dim), not {got}"
CUM_EXTREME_SCALAR_DIM = "{op}(): Expected reduction dim -1 or 0 for scalar but got {got}"
UNIQUE_NO_DERIVATIVE = "the derivative for '{op}' is not implemented."
PRINT_OPTION_TYPE = "set_printoptions(): {name} must be {what}, got {got!r}"
PRINT_OPTION_VALUE = "set_printoptions(): {name} must be {what}, got {got!r}"
PRINT_SCI_MODE = "set_printoptions(): sci_mode must be True, False or None (automatic), got {got!r}"
PRINT_PROFILE = "set_printoptions(): unknown profile {got!r}; PyTorch's profiles are {accepted}"
UNIQUE_ZERO_DIMS = "Number of zero sized dimensions is more than one, so unique cannot be applied "
UNIQUE_ZERO_NOT_SELECTED = (
    "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied"
)
SAVE_FILE = (
    "save/load: expected a path (str or os.PathLike) or a binary file object with a "
    "'{what}' method, got {got}"
)
SAVE_PICKLE_MODULE = "save: minigrad writes with Python's pickle module only, got {got!r}"
LOAD_PICKLE_MODULE = "Can not safely load weights when explicit pickle_module is specified"
LOAD_MMAP = "load: mmap=True is not supported (minigrad reads the whole file); use mmap=None"
LOAD_NOT_WEIGHTS = (
    "Weights only load failed: the file names {name}, which weights_only=True does not "
    "build (it builds tensors, numpy arrays, minigrad dtypes, devices and sparse formats, and "
    "Python containers and numbers). If you trust the file, load it with weights_only=False: "
    "that runs any code the file names."
)
LOAD_NOT_MINIGRAD = (
    "load: not a file minigrad's save wrote (it starts with b'MINIGRAD'; this one has "
    "{kind}). PyTorch's files do not load here: load one with torch.load and convert each "
    "tensor, mg.tensor(t.numpy())"
)
MAP_LOCATION_TYPE = (
    "load: map_location must be None, a device or its name, a dict of names, or a function; "
    "got a {got}"
)
MAP_LOCATION_DEVICE = "minigrad computes on the CPU only; got map_location target {got!r}"

# out= on module functions (torch.mul(a, b, out=c)): minigrad/_out.py
OUT_TYPE = "{op}(): argument 'out' must be Tensor, not {got}"
OUT_AUTOGRAD = (
    "{op}(): functions with out=... arguments don't support automatic differentiation, "
    "but one of the arguments requires grad."
)
OUT_CAST = "result type {got} can't be cast to the desired output type {want}"
OUT_RESIZED = (
    "An output with one or more elements was resized since it had shape {had}, which does not "
    "match the required output shape {want}. This behavior is deprecated, and in a future "
    "PyTorch release outputs will not be resized unless they have zero elements. You can "
    "explicitly reuse an out tensor t by resizing it, inplace, to zero elements with t.resize_(0)."
)
OUT_VIEW = (
    "{op}(): out= has shape {had} and the result {want}; minigrad cannot resize an out= tensor "
    "that is a view of another tensor (pass a tensor of the result's shape)"
)
TOPK_BOOL = "topk does not support bool dtypes (as in PyTorch's CPU kernel): convert with .int()"
MEMORY_FORMAT_TYPE = (
    "{op}(): argument 'memory_format' must be a memory format (minigrad.contiguous_format, "
    "preserve_format, channels_last, channels_last_3d), not {got}"
)
MEMORY_FORMAT_RANK = "required rank {rank} tensor to use {name} format"
SELECT_INDEX = "select(): index {index} out of range for tensor of size {shape} at dimension {dim}"
