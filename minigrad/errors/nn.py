"""Every error message of ``minigrad.nn``, in one place (PyTorch's wording where it has one).

Like :mod:`minigrad.errors`: messages are ``str.format`` templates. Shape and
data problems raise ``ValueError``/``TypeError`` (``IndexError`` for a class
index out of range, as PyTorch), misuse of modules raises what PyTorch raises.
"""

# --- Parameter ----------------------------------------------------------------
PARAMETER_DATA = (
    "Parameter(data): data must be a Tensor or None, got {got}; wrap it first, "
    "e.g. nn.Parameter(minigrad.tensor(...))"
)

# --- Module registration -----------------------------------------------------
BEFORE_INIT = "cannot assign {what} before Module.__init__() call"
NAME_NOT_STR = "{what} name should be a string. Got {got}"
NAME_DOT = '{what} name can\'t contain ".", got: {name}'
NAME_EMPTY = '{what} name can\'t be empty string ""'
NAME_EXISTS = "attribute '{name}' already exists"
NOT_A_PARAMETER = (
    "cannot assign '{got}' object to parameter '{name}' (minigrad.nn.Parameter or None required)"
)
NON_LEAF_PARAMETER = (
    "Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be created "
    "explicitly. To express '{name}' as a function of another Tensor, compute the value in "
    "the forward() method."
)
ASSIGN_PARAMETER = (
    "cannot assign '{got}' as parameter '{name}' (minigrad.nn.Parameter or None expected)"
)
ASSIGN_MODULE = (
    "cannot assign '{got}' as child module '{name}' (minigrad.nn.Module or None expected)"
)
ASSIGN_BUFFER = "cannot assign '{got}' as buffer '{name}' (minigrad.Tensor or None expected)"
NOT_A_BUFFER = "cannot assign '{got}' object to buffer '{name}' (minigrad.Tensor or None required)"
NOT_A_MODULE = "{got} is not a Module subclass"
NO_ATTRIBUTE = "'{cls}' object has no attribute '{name}'"
NO_FORWARD = 'Module [{name}] is missing the required "forward" function'
TRAIN_MODE = "training mode is expected to be boolean, got {got}"
TO_DTYPE = "Module.to() only accepts floating point dtypes (float16/32/64), but got {got}"

# --- state_dict ---------------------------------------------------------------
STATE_DICT_TYPE = "Expected state_dict to be dict-like, got {got}."
STATE_NOT_TENSOR = (
    'While copying the parameter named "{key}", expected minigrad.Tensor or Tensor-like object '
    "from checkpoint but received {got}"
)
STATE_SIZE = (
    "size mismatch for {key}: copying a param with shape {got} from checkpoint, the shape in "
    "current model is {want}."
)
STATE_MISSING = "Missing key(s) in state_dict: {keys}. "
STATE_UNEXPECTED = "Unexpected key(s) in state_dict: {keys}. "
STATE_ERRORS = "Error(s) in loading state_dict for {cls}:\n\t{msgs}"

# --- Sequential -----------------------------------------------------------------
SEQ_INDEX = "index {idx} is out of range (the Sequential has {n} modules)"

# --- losses ---------------------------------------------------------------------
REDUCTION = "{got} is not a valid value for reduction (expected 'none', 'mean' or 'sum')"
INPUT_DIMS = "Expected 1 or more dimensions (got {got})"
BATCH_SIZE = "Expected input batch_size ({n}) to match target batch_size ({m})."
TARGET_DIMS = (
    "0D or 1D target tensor expected, multi-target not supported (input shape {input}, target "
    "shape {target}; for class probabilities pass a float target of the input's shape)"
)
TARGET_SHAPE = "Expected target size {want}, got {got}"
TARGET_DTYPE = (
    "expected target dtype to be Long or Byte (minigrad.int64 or minigrad.uint8), but got "
    "{got}; class-index targets must be integer tensors (e.g. target.long())"
)
TARGET_RANGE = "Target {t} is out of bounds. Class indices must be in [0, {last}] (or equal ignore_index={ii})."
WEIGHT_SHAPE = (
    "weight tensor should be defined either for all {c} classes or no classes but got weight "
    "tensor of shape: {shape}"
)
LABEL_SMOOTHING = "label_smoothing must be between 0.0 and 1.0. Got: {got}"
PROB_IGNORE_INDEX = (
    "ignore_index is not supported for floating point target (class-probability targets); "
    "got ignore_index={got}"
)
BCE_SIZE = "Target size ({target}) must be the same as input size ({input})"
MSE_SIZE = (
    "Using a target size ({target}) that is different to the input size ({input}). This will "
    "likely lead to incorrect results due to broadcasting. Please ensure they have the same size."
)
LEGACY_REDUCTION = (
    "size_average and reduce args will be deprecated, please use reduction='{got}' instead."
)
IMPLICIT_DIM = (
    "Implicit dimension choice for {name} has been deprecated. Change the call to include "
    "dim=X as an argument."
)

# --- utils ------------------------------------------------------------------------
NONFINITE_NORM = (
    "The total norm of order {p} for gradients from `parameters` is non-finite, so it cannot be "
    "clipped. To disable this error and scale the gradients by the non-finite norm anyway, set "
    "`error_if_nonfinite=False`"
)
EMPTY_GENERATOR = "`parameters` is an empty generator, no gradient clipping will occur."

# --- nn.utils.parameters_to_vector / vector_to_parameters, nn.init (orthogonal_ ...) -------
VECTOR_NOT_TENSOR = "expected torch.Tensor, but got: {got}"
ORTHOGONAL_DIMS = "Only tensors with 2 or more dimensions are supported"
EYE_DIMS = "Only tensors with 2 dimensions are supported"
DIRAC_DIMS = "Only tensors with 3, 4, or 5 dimensions are supported"
DIRAC_GROUPS = "dim 0 must be divisible by groups"
SPARSE_DIMS = "Only tensors with 2 dimensions are supported"
TRUNC_NORMAL_FAR = (
    "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
    "The distribution of values may be incorrect."
)

# --- Flatten / Unflatten -------------------------------------------------------------
UNFLATTEN_SIZE_TYPE = (
    "unflattened_size must be a tuple or list of ints, but found type {got} (e.g. "
    "nn.Unflatten(1, (2, 5)))"
)
UNFLATTEN_SIZE_ELEMENT = (
    "unflattened_size must be a tuple of ints, but found element of type {got} at pos {i}"
)
FLATTEN_DIM_TYPE = "{cls}: {name} must be an int, got {got}"
BCE_TARGET_DTYPE = (
    "binary_cross_entropy_with_logits(): target must be a floating point tensor (the "
    "probability of the positive class), got {got}; convert it with target.float()"
)
CLIP_NOT_TENSOR = "clip_grad: parameters must be Tensors, but entry {i} is {got}"

# --- containers (ModuleList, ModuleDict, ParameterList, ParameterDict) ----------------
CONTAINER_INDEX = "index {idx} is out of range (the {cls} has {n} entries)"
CONTAINER_INDEX_TYPE = "{cls} indices must be integers or slices, not {got}"
CONTAINER_EXTEND = "{cls}.extend should be called with an iterable, but got {got}"
CONTAINER_UPDATE = (
    "{cls}.update should be called with an iterable of key/value pairs, but got {got}"
)
CONTAINER_UPDATE_PAIR = "{cls} update sequence element #{i} has length {n}; 2 is required"
CONTAINER_UPDATE_ITEM = "{cls} update sequence element #{i} should be Iterable; is {got}"
CONTAINER_CALL = "{cls} should not be called."
PARAMDICT_KEY = (
    "Index given to ParameterDict cannot be used as a key as it is not a string (type is "
    "'{got}'). Use string keys, e.g. str(key)"
)
PARAMDICT_MISSING = "'ParameterDict' object has no key '{key}' (keys: {keys})"

# --- Dropout, LayerNorm, BatchNorm --------------------------------------------------------
DROPOUT_P = "dropout probability has to be between 0 and 1, but got {got}"
DROPOUT_DTYPE = (
    "dropout(): input must be a floating point tensor (the kept values are scaled by "
    "1/(1-p)), got {got}; convert it with input.float()"
)
NORMALIZED_SHAPE_TYPE = (
    "layer_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not {got}"
)
NORMALIZED_SHAPE = (
    "Given normalized_shape={shape}, expected input with shape [*{tail}], but got input of "
    "size{got}"
)
NORM_AFFINE_SHAPE = (
    "Expected {name} to be of same shape as normalized_shape, but got {name} of shape {got} "
    "and normalized_shape = {shape}"
)
NORM_DTYPE = "{op}(): input must be a floating point tensor, got {got}"
BATCHNORM_DIMS = "expected 2D or 3D input (got {got}D input)"
BATCHNORM_FEATURES = (
    "running_mean should contain {c} elements not {n} (input of shape {shape}: its dim 1 holds "
    "the features)"
)
BATCHNORM_EPS = (
    "batch_norm eps must be {want}, but got {eps} (the input is divided by sqrt(var + eps): "
    "with eps = 0 a channel of equal values gives 0/0)"
)
BATCHNORM_ONE_VALUE = "Expected more than 1 value per channel when training, got input size {shape}"

# --- regression and probability losses ------------------------------------------------------
SMOOTH_L1_BETA = "smooth_l1_loss does not support negative values for beta."
HUBER_DELTA = "huber_loss does not support non-positive values for delta."
BCE_PROB_SIZE = (
    "Using a target size ({target}) that is different to the input size ({input}) is "
    "deprecated. Please ensure they have the same size."
)
BCE_RANGE = "all elements of input should be between 0 and 1"
BCE_TARGET_RANGE = "all elements of target should be between 0 and 1"
LOSS_DTYPE = "Found dtype {got} but expected {want} ({op}: target must have the input's dtype)"
LOSS_FLOAT = "{op}(): input must be a floating point tensor, got {got}"
NORMALIZED_SHAPE_EMPTY = (
    "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
    "element, but got normalized_shape = []"
)
BATCHNORM_EVAL_STATS = (
    "running_mean must be defined in evaluation mode (pass running_mean and running_var, or "
    "training=True to normalize with the batch's own statistics)"
)
NOT_DIFFERENTIABLE = (
    "The function '{op}' is not differentiable with respect to argument '{name}'. This input "
    "cannot have requires_grad True (pass {name}.detach())."
)

# --- recurrent layers (nn.RNNCell, nn.LSTM, ...) --------------------------------------------
RNN_NONLINEARITY = "Unknown nonlinearity '{got}'. Select from 'tanh' or 'relu'."
RNN_POSITIVE = "{name} must be greater than zero"
RNN_INT = "{cls}(): argument '{name}' must be int, not {got}"
RNN_DROPOUT = (
    "dropout should be a number in range [0, 1] representing the probability of an element "
    "being zeroed"
)
RNN_DROPOUT_ONE_LAYER = (
    "dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
    "expects num_layers greater than 1, but got dropout={p} and num_layers={n}"
)
RNN_PROJ_SIZE = (
    "{cls}(): proj_size={got} is not supported in minigrad (LSTM with projections); "
    "only proj_size=0 is accepted"
)
RNN_PROJ_NOT_LSTM = "proj_size argument is only supported for LSTM, not RNN or GRU"
RNN_CELL_DIMS = "{cls}: Expected input to be 1D or 2D, got {got}D instead"
RNN_DIMS = "{cls}: Expected input to be 2D or 3D, got {got}D instead"
RNN_CELL_INPUT_SIZE = "input has inconsistent input_size: got {got} expected {want}"
RNN_CELL_HIDDEN_SIZE = (
    "hidden{k} has inconsistent hidden_size: got {got}, expected {want} "
    "(hidden{k} of shape {shape})"
)
RNN_CELL_BATCH = "Input batch size {n} doesn't match hidden{k} batch size {got}"
RNN_CELL_HIDDEN_DIMS = (
    "For {kind} {dim}-D input, hidden{k} should be {want}-D but got a {got}-D tensor of shape "
    "{shape}"
)
RNN_INPUT_SIZE = "input.size(-1) must be equal to input_size. Expected {want}, got {got}"
RNN_HIDDEN_SHAPE = "Expected hidden{which} size {want}, got {got}"
RNN_HIDDEN_DIMS = (
    "For {kind} {dim}-D input, {names} should also be {want}-D but got {got} tensor{s}"
)
RNN_EMPTY_SEQUENCE = "Expected sequence length to be larger than 0 in RNN"
RNN_DTYPE = (
    "{cls} input dtype ({got}) does not match weight dtype ({want}). Convert input: "
    "input.to({want}), or convert model: model.to({got})"
)
RNN_INPUT_TYPE = "{cls}: input must be a Tensor, not {got}"
WEIGHT_SIZE = (
    "Weights and input must have the same size. (weight shape {weight}, input shape {input})"
)
ONE_HOT_DTYPE = "one_hot is only applicable to index tensor of dtype int64, got {got}"
ONE_HOT_CLASSES_TYPE = "one_hot(): argument 'num_classes' must be int, not {got}"
ONE_HOT_NEGATIVE = "Class values must be non-negative."
ONE_HOT_EMPTY = "Can not infer total number of classes from empty tensor."
ONE_HOT_CLASSES = "num_classes should be positive (or -1 to infer it), got {got}"
ONE_HOT_TOO_BIG = (
    "Class values must be smaller than num_classes: the largest is {top}, num_classes={n}."
)

# module hooks (nn/modules/_hooks.py): PyTorch's messages
PRE_HOOK_KWARGS_RESULT = (
    "forward pre-hook must return None or a tuple of (new_args, new_kwargs), but got {got}."
)
BACKWARD_HOOK_COUNT = (
    "Backward {kind} returned an invalid number of {what}, got {got}, but expected {want}"
)
BACKWARD_HOOK_NO_INPUTS = (
    "Backward hook for Modules where no input requires gradient should always return None "
    "or None for all gradients."
)
ALWAYS_CALL_SILENCED = (
    "module forward hook with ``always_call=True`` raised an exception that was silenced as "
    "another error was raised in forward: {error}"
)
DROPOUT1D_DIMS = (
    "dropout1d: Expected 2D or 3D input, but received a {got}D input. Note that dropout1d "
    "exists to provide channel-wise dropout on inputs with 1 spatial dimension, a channel "
    "dimension, and an optional batch dimension (i.e. 2D or 3D inputs)."
)
DROPOUT2D_DIMS = (
    "dropout2d: Received a {got}-D input to dropout2d, which is deprecated and will result in "
    "an error in a future release. To retain the behavior and silence this warning, please "
    "use dropout instead. Note that dropout2d exists to provide channel-wise dropout on "
    "inputs with 2 spatial dimensions, a channel dimension, and an optional batch dimension "
    "(i.e. 3D or 4D inputs)."
)
DROPOUT2D_3D = (
    "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout "
    "behavior is desired - input is interpreted as shape (N, C, L), where C is the channel "
    "dim. This behavior will change in a future release to interpret the input as one "
    "without a batch dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise "
    "dropout behavior, please switch to using dropout1d instead."
)
GROUPS_DIVIDE = "num_channels ({c}) must be divisible by num_groups ({g})"
GROUP_NORM_INPUT = (
    "Expected number of channels in input to be divisible by num_groups, but got input of "
    "shape {shape} and num_groups={g}"
)
GROUP_NORM_DIMS = "Expected at least 2 dimensions for input tensor but received {got}"
BATCHNORM_4D = "expected 4D input (got {got}D input)"
KL_DIV_MEAN = (
    "reduction: 'mean' divides the total loss by both the batch size and the support size."
    "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
    "'mean' will be changed to behave the same as 'batchmean' in the next major release."
)
KL_DIV_REDUCTION = (
    "{got} is not a valid value for reduction (expected 'none', 'batchmean', 'mean' or 'sum')"
)
LOSS_WEIGHT_BROADCAST = (
    "{name} of shape {got} does not broadcast to the input's shape {want}: it must have the "
    "input's shape or one that broadcasts to it (output with shape {want} doesn't match the "
    "broadcast shape)"
)
NO_SUBMODULE = "{cls} has no attribute `{name}`"
NOT_A = "`{name}` is not {what}"

# --- lazy modules (nn.LazyLinear, UninitializedParameter) ---------------------------------
UNINITIALIZED_USE = (
    "Attempted to use an uninitialized parameter. This error happens when you are using a "
    "`LazyModule` or explicitly manipulating `nn.parameter.UninitializedParameter` objects: "
    "call `forward` with a dummy batch to initialize the parameters first"
)
UNINITIALIZED_SHAPE = (
    "Can't access the shape of an uninitialized parameter or buffer. Call `forward` to "
    "initialize the parameters before accessing their attributes"
)
LAZY_GROUPS = "in_channels must be divisible by groups"
