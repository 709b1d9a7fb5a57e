"""Every error message of ``minigrad.tape`` (``GradientTape``, ``custom_gradient``), in one place.

Where TensorFlow 2 has the case its sentence comes first (``tf.GradientTape``,
``tf.custom_gradient``), with its exception type; then what minigrad adds: what was passed and
what is accepted. Misuse of a tape raises ``RuntimeError`` (or TensorFlow's ``ValueError`` for
entering and leaving); a target, source or gradient of the wrong kind raises ``TypeError``, of
the wrong shape ``ValueError``.
"""

# --- the tape's life (TensorFlow's wording) ------------------------------------------------
USED = (
    "A non-persistent GradientTape can only be used to compute one set of gradients (or jacobians)"
)
STILL_RECORDING = (
    "Tape is still recording, This can happen if you try to re-enter an already-active tape."
)
NOT_RECORDING = "Tape is not recording."
STOP_NOT_RECORDING = "Trying to stop recording a tape which is not recording."
JACOBIAN_LOOP = (
    "GradientTape must be created with persistent=True to compute the {what} with eager "
    "execution enabled and with experimental_use_pfor set to False."
)
INSIDE_PERSISTENT = (
    "GradientTape.{fn} was called on a persistent tape inside its own context: the "
    "computation of the gradient is recorded on the tape as well, which costs time and "
    "memory. Call it after the `with` block, unless you want to differentiate the gradient "
    "(higher-order derivatives)."
)

# --- what gradient / jacobian take ---------------------------------------------------------
TARGET_NONE = (
    "Argument `target` should be a Tensor or a list or nested structure of Tensors to be "
    "differentiated, but received None."
)
TARGET_NOT_TENSOR = "GradientTape.{fn}: {path} is {got}, not a Tensor; target takes a Tensor{more}"
SOURCE_NOT_TENSOR = (
    "GradientTape.{fn}: {path} is {got}, not a Tensor; sources take a Tensor or a list, "
    "tuple or dict of Tensors (nested as you like)"
)
UNCONNECTED = (
    "Unknown value for unconnected_gradients: {got!r}; use 'none' or 'zero' "
    "(tape.UnconnectedGradients.NONE or .ZERO)"
)
OUTPUT_GRADIENTS_LEN = (
    "GradientTape.gradient: got {got} output_gradients for {want} targets; pass one per "
    "target (None for the implicit ones)"
)
OUTPUT_GRADIENT_TYPE = (
    "GradientTape.gradient: output_gradients[{i}] is {got}, not a Tensor (or None for ones)"
)
OUTPUT_GRADIENT_SHAPE = (
    "GradientTape.gradient: output_gradients[{i}] has shape {got} but its target has shape "
    "{want}; an output gradient has its target's shape"
)
OUTPUT_GRADIENT_DTYPE = (
    "GradientTape.gradient: output_gradients[{i}] has dtype {got} but its target has dtype "
    "{want}; an output gradient has its target's dtype"
)
BATCH_SHAPES = (
    "Need first dimension of target shape {target} and source shape {source} to match. "
    "batch_jacobian takes a target and a source of rank 2 or more with the same first "
    "(batch) dimension."
)

# --- watch ----------------------------------------------------------------------------------
WATCH_NOT_TENSOR = (
    "Passed in object {obj} of type {got!r}, not a minigrad Tensor; watch takes a Tensor or a "
    "list, tuple or dict of Tensors"
)
WATCH_NOT_FLOAT = (
    "The dtype of the watched tensor must be floating (e.g. mg.float32), got {dtype}; it "
    "gets no gradient"
)

# --- custom_gradient ------------------------------------------------------------------------
CG_NOT_CALLABLE = "custom_gradient: expected a function f(*x) -> (y, grad_fn), got {got}"
CG_RETURN = (
    "custom_gradient: {name} must return a pair (y, grad_fn) where grad_fn(*dy) returns the "
    "gradients of its inputs, got {got}"
)
CG_OUTPUT = (
    "custom_gradient: {name} returned {path} = {got}, not a Tensor; y is a Tensor or a list, "
    "tuple or dict of Tensors"
)
CG_VARIABLES_KW = (
    "If using @custom_gradient with a function that uses variables, then grad_fn must accept "
    "a keyword argument 'variables'. ({name} used {n} tensor(s) that require grad without "
    "taking them as arguments: {shapes})"
)
CG_VARIABLES_PAIR = (
    "custom_gradient: the grad_fn of {name} was given variables, so it returns a pair "
    "(input gradients, variable gradients), got {got}"
)
CG_VARIABLE_GRADS = (
    "Must return gradient for each variable from @custom_gradient grad_fn. (the grad_fn of "
    "{name} returned {got} for {want} variables)"
)
CG_GRAD_COUNT = (
    "custom_gradient function expected to return {want} gradients but returned {got} "
    "instead. (grad_fn of {name}: one gradient per positional argument, None for one "
    "that has none)"
)

# --- nest -----------------------------------------------------------------------------------
NEST_KEYS = "a dict in a structure of tensors needs keys that sort (as tf.nest), got {keys}"
