"""Every error message of ``minigrad.amp`` (autocast and GradScaler), in one place."""

# --- autocast -----------------------------------------------------------------
BAD_DTYPE = "autocast: dtype must be a floating dtype such as minigrad.float16, got {got}"

# --- grad_scaler --------------------------------------------------------------
UNSCALE_TWICE = "unscale_() has already been called on this optimizer since the last update()."
UNSCALE_AFTER_STEP = "unscale_() is being called after step()."
STEP_TWICE = "step() has already been called since the last update()."
NO_INF_CHECKS = "No inf checks were recorded for this optimizer."
NO_INF_CHECKS_UPDATE = "No inf checks were recorded prior to update."
FP16_GRADS = (
    "Attempting to unscale FP16 gradients: keep the parameters (master weights) in float32 "
    "and let autocast cast them, so their gradients arrive in float32."
)
EMPTY_STATE = (
    "The source state dict is empty, possibly because it was saved from a disabled "
    "instance of GradScaler."
)
GROWTH_FACTOR = "growth_factor must be > 1.0, got {got}"
BACKOFF_FACTOR = "backoff_factor must be in (0, 1), got {got}"
BAD_OUTPUTS = "GradScaler.scale(): outputs must be a Tensor or an iterable of Tensors, got {got}"
