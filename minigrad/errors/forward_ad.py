"""Every error message of dual tensors (``minigrad.autograd.forward_ad``) and of custom
``Function`` forward rules (``jvp``), in one place.

Where PyTorch has the case its exact sentence comes first (checked against
``torch.autograd.forward_ad`` 2.13), then what minigrad adds. Misuse of the levels raises
``RuntimeError`` as in PyTorch; a primal or tangent of the wrong kind raises ``ValueError``
(PyTorch's type for the dtype checks of ``make_dual``).
"""

# --- levels (RuntimeError, PyTorch's wording) ----------------------------------------------
NESTED = (
    "Nested forward mode AD is not supported at the moment (a dual_level cannot be entered "
    "inside another dual_level or inside mg.func.jvp / jacfwd, nor they inside it; nest "
    "mg.func.jvp calls for higher-order forward derivatives)"
)
NO_LEVEL = (
    "Trying to create a dual Tensor for forward AD but no level exists, make sure to "
    "enter_dual_level() first."
)
EXIT_NONE = (
    "Dual level must be a positive number. (No forward AD level is open: exit_dual_level() "
    "follows enter_dual_level(); `with forward_ad.dual_level():` does both.)"
)
EXIT_NOT_LAST = (
    "Trying to exit a forward AD level that was not the last one that was created. This is "
    "not supported. (Got level={level}; the open level is {current}.)"
)
BAD_LEVEL = "{fn}(): invalid level {level}; the open forward AD level is {current}"

# --- make_dual / unpack_dual arguments -----------------------------------------------------
NOT_TENSOR = "{fn}(): argument '{arg}' must be Tensor, not {got}"
NOT_FLOAT = "Expected {what} to be floating point or complex, but got: {dtype}"
SIZE = (
    "Trying to set a forward gradient that has a different size than that of the original "
    "Tensor, this is not supported. Tensor is of size {want} while the given forward "
    "gradient is of size {got}."
)
ALREADY_DUAL = (
    "Making a dual Tensor based on a Tensor that already has a forward gradient at the same "
    "level {level} is not supported."
)

# --- custom Function jvp ----------------------------------------------------------------------
JVP_COUNT = (
    "Function's jvp returned an invalid number of forward gradients (expected {want} but got "
    "{got}) ({name}.jvp returns one tangent per output of forward)"
)
JVP_TYPE = "{name}.jvp returned {got} for output {i}; return a Tensor (or None for no tangent)"
JVP_DTYPE = (
    "{name}.jvp returned a tangent of dtype {got} for output {i} of dtype {want}; return the "
    "output's dtype"
)
JVP_INPUT_AS_IS = (
    "A custom Function's forward is returning an input as-is ({name}, output {i}); forward "
    "mode needs a new tensor to carry the tangent jvp returns: return input.clone() instead"
)
