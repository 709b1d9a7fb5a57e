"""Every error message of ``minigrad.utils`` (checkpoint), in one place."""

# --- checkpoint ---------------------------------------------------------------
NOT_CALLABLE = "checkpoint(): function must be callable, got {got}"
NO_INPUT_REQUIRES_GRAD = "None of the inputs have requires_grad=True. Gradients will be None"
NO_OUTPUT_REQUIRES_GRAD = (
    "checkpoint(): none of the outputs of the recomputed function requires grad, "
    "so there is nothing to backpropagate (this checkpoint() is not necessary)"
)
BAD_KWARGS = "Unexpected keyword arguments: {names} (use_reentrant=True takes none)"
