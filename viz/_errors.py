"""Every error and warning message of ``viz``, in one place (str.format templates)."""

# --- _render ------------------------------------------------------------------
INSTALL_HINT = (
    "Graphviz `dot` was not found, so the graph is shown as text. Install Graphviz "
    "(apt-get install graphviz / brew install graphviz / conda install -c conda-forge graphviz), "
    "or pip install 'minigrad-sparse[viz-portable]', or set MINIGRAD_DOT=/path/to/dot."
)
BAD_FORMAT = "format must be one of {formats}, got {got!r}"

# --- graph --------------------------------------------------------------------
BAD_RANKDIR = "rankdir must be one of {rankdirs}, got {got!r}"
BAD_MAX_NODES = "max_nodes must be at least 3 (or None), got {got!r}"

# --- stepper ------------------------------------------------------------------
NO_GRAD_FN = (
    "BackwardStepper(root): root has no grad_fn, so there is no backward pass to step "
    "through; pass a tensor computed from tensors with requires_grad=True."
)

# --- plots --------------------------------------------------------------------
SPY_NEEDS = (
    "spy() takes a minigrad tensor with at least 2 dims (dense or sparse); got {got}. "
    "For a vector, reshape it first, e.g. t.reshape(1, -1)."
)
NO_GRAD = "{fn}() got None: has backward() run? Pass e.g. weight.grad after loss.backward()."
NOT_STEPS = (
    "memory_timeline() takes a list of trace Step records "
    "(list(minigrad.trace.backward_steps(loss))) or a loss tensor; got {got}."
)
NOT_BYTES_INPUT = (
    "bytes_comparison() takes a list (or dict) of minigrad tensors or a "
    "minigrad.sparse.MemoryReport; got {got}."
)
NOTHING_SPARSE = "bytes_comparison(): the report has no sparse gradients to compare."
