"""Every error message of the activation functions (``ops/activation.py``, ``nn.functional``).

PyTorch's wording where it has one, with what would be accepted added.
"""

NOT_FLOAT = (
    '"{op}" not implemented for {got} tensors (PyTorch has no integer or bool kernel for it '
    "either); pass a floating point tensor, e.g. x.float()"
)
BOOL_HARDTANH = (
    "Bool inputs not supported for hardtanh (relu6 is hardtanh(0, 6)); pass a float or "
    "integer tensor, e.g. x.float()"
)
UNSIGNED_HARDTANH = (
    "cannot do hardtanh on an unsigned type with negative limits (an {got} tensor, "
    "min_val={lo}, max_val={hi}); use limits >= 0 or a signed dtype"
)
NOT_A_NUMBER = "{op}(): argument '{name}' (position {i}) must be Number, not {got}"
NOT_A_STR = "{op}(): argument '{name}' must be str, not {got}"
GELU_APPROXIMATE = "approximate argument must be either none or tanh. (got {got!r})"
HARDTANH_BOUNDS = "min_val cannot be greater than max_val (got min_val={lo}, max_val={hi})"
HARDTANH_MODULE_BOUNDS = "max_val ({hi}) must be greater than min_val ({lo})"
CELU_ALPHA = "ZeroDivisionError: alpha cannot be 0 for CELU (it divides the input); pass alpha != 0"
GLU_0D = (
    "glu does not support scalars because halving size must be even; pass a tensor with at "
    "least one dim"
)
GLU_ODD = "Halving dimension must be even, but dimension {dim} is size {n}; pick a dim of even size"
PRELU_WEIGHT = (
    "Mismatch of parameter numbers and input channel size. Found parameter numbers = {n} and "
    "channel size = {c}. The weight has one slope or one per channel (dim 1 of the input)"
)
PRELU_WEIGHT_NDIM = "prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {ndim}"
