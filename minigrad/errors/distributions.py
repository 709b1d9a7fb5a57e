"""Messages of ``minigrad.distributions`` (PyTorch's wording where PyTorch has the case)."""

# -- building a distribution -------------------------------------------------------------------
PARAM_TYPE = "Input arguments must all be instances of numbers.Number or minigrad.Tensor, got {got}"
BROADCAST = "Shape mismatch: objects cannot be broadcast to a single shape: {shapes}"
VALIDATE_FLAG = "set_default_validate_args takes True or False, got {got!r}"
PARAM_CONSTRAINT = (
    "Expected parameter {param} ({kind} of shape {shape}) of distribution {dist} to satisfy "
    "the constraint {constraint}, but found invalid values:\n{value}"
)
PROBS_OR_LOGITS = "Either `probs` or `logits` must be specified, but not both."
AT_LEAST_1D = "`{name}` parameter must be at least one-dimensional."
UNIFORM_RANGE = "Uniform is not defined when low>= high"
INDEPENDENT_NDIMS = (
    "Expected reinterpreted_batch_ndims <= len(base_distribution.batch_shape), "
    "actual {got} vs {ndim}"
)
MVN_LOC = "loc must be at least one-dimensional."
MVN_ONE_MATRIX = (
    "Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified."
)
MVN_MATRIX_2D = "{what} must be at least two-dimensional, with optional leading batch dimensions"
CUSTOM_EXPAND = (
    "Subclass {sub} of {cls} that defines a custom __init__ method must also define a custom "
    ".expand() method."
)
NO_EXPAND = "{cls} has no expand()"

# -- using one ------------------------------------------------------------------------------
NO_RSAMPLE = (
    "{cls} has no rsample (has_rsample is False): its samples are not differentiable; use "
    "sample() with log_prob (the score function) instead"
)
NOT_IMPLEMENTED = "{cls} does not implement {what}"
VALUE_TYPE = "The value argument to log_prob must be a Tensor"
VALUE_EVENT_SHAPE = "The right-most size of value must match event_shape: {got} vs {want}."
VALUE_BROADCAST = "Value is not broadcastable with batch_shape+event_shape: {got} vs {want}."
VALUE_SUPPORT = (
    "Expected value argument ({kind} of shape {shape}) to be within the support ({support}) of "
    "the distribution {dist}, but found invalid values:\n{value}"
)
DEPENDENT = "Cannot determine validity of dependent constraint"

# -- KL divergence -------------------------------------------------------------------------------
KL_TYPE = "Expected {name} to be a Distribution subclass but got {got}"
KL_MISSING = "No KL(p || q) is implemented for p type {p} and q type {q}"
KL_INDEPENDENT_NDIMS = (
    "kl_divergence of two Independent distributions needs the same reinterpreted_batch_ndims, "
    "got {p} and {q}"
)
KL_MVN_EVENT = (
    "KL-divergence between two Multivariate Normals with different event shapes cannot be computed"
)
