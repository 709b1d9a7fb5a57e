"""Error messages of ``nn.utils.rnn`` and ``nn.utils.parametrize`` (PyTorch's wording where it
has one)."""

# --- nn.utils.rnn -------------------------------------------------------------------------
EMPTY_SEQUENCES = "received an empty list of sequences"
NOT_ITERABLE = "pad_sequence: Expected iterable for input sequences, but got arg of type: {got}"
PADDING_SIDE = "Expected padding_side to be one of left or right, but got {got}."
TRAILING_DIMS = (
    "pad_sequence: every sequence must have the same trailing dims {want} (after the length "
    "dim), but sequence {i} has {got}"
)
LENGTH_POSITIVE = (
    "Length of all samples has to be greater than 0, but found an element in 'lengths' that is <= 0"
)
LENGTHS_SORTED = (
    "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You can "
    "pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to sidestep this "
    "requirement if you do not need ONNX exportability."
)
LENGTHS_COUNT = "pack_padded_sequence: expected {want} lengths (one per batch element), got {got}"
LENGTH_TOO_LONG = "pack_padded_sequence: a length is {got} but the input has only {have} time steps"
TOTAL_LENGTH = (
    "Expected total_length to be at least the length of the longest sequence in input, but "
    "got total_length={got} and max sequence length being {want}"
)

# --- nn.utils.parametrize ------------------------------------------------------------------
PARAM_LIST_EMPTY = "ParametrizationList requires one or more modules."
RIGHT_INVERSE_TYPE = (
    "'right_inverse' must return a Tensor or a Sequence of tensors (list, tuple...). Got {got}"
)
RIGHT_INVERSE_DTYPE = (
    "When `right_inverse` outputs one tensor, it may not change the dtype.\n"
    "original.dtype: {want}\nright_inverse(original).dtype: {got}"
)
NOT_A_TENSOR = "A parametrization must return a tensor. Got {got}."
CHANGED = (
    "Registering a parametrization may not change the {what} of the tensor, unless `unsafe` "
    "flag is enabled.\nunparametrized {what}: {want}\nparametrized {what}: {got}"
)
NO_RIGHT_INVERSE = "parametrization {name} does not implement right_inverse."
NO_TENSOR_NAMED = (
    "Module '{module}' does not have a parameter, a buffer, or a parametrized element with "
    "name '{name}'"
)
HAS_ATTRIBUTE = "Module already has an attribute named '{name}'"
NOT_PARAMETRIZED = "Module {module} does not have a parametrization on {name}"
LEAVE_SEQUENCE = (
    "Cannot leave unparametrized (`leave_parametrized=False`) a tensor that is parametrized "
    "in terms of a sequence of tensors."
)
SERIALIZE = (
    "Serialization of parametrized modules is only supported through state_dict(); save "
    "model.state_dict() instead of the module"
)
