"""Every error and warning message of ``viz``, in one place (str.format templates)."""

# --- _render ------------------------------------------------------------------
INSTALL_HINT = (
    "No Graphviz renderer drew this graph, so it is shown as text: neither `dot` nor "
    "`graphviz-pure` was found beside this Python or on PATH (graphviz-pure draws SVG and PNG, "
    "not PDF). Install Graphviz (apt-get install graphviz / brew install graphviz / "
    "conda install -c conda-forge graphviz), or, without root, pip install "
    "'minigrad-sparse[viz-portable]' into this environment (graphviz-pure, which `make venv` "
    "installs when the system has no `dot`), or set MINIGRAD_DOT=/path/to/dot."
)
BAD_FORMAT = "format must be one of {formats}, got {got!r}"
BAD_EXTENSION = (
    "render({path!r}): viz cannot write .{ext} files; use a path ending in one of {formats} "
    "(the extension chooses the format)"
)
NO_FORMAT = (
    "render({path!r}): the path has no extension, so the format is unknown; add one of "
    "{formats} to the name, or pass format="
)
FORMAT_MISMATCH = (
    "render({path!r}): the extension says {ext!r} but format={got!r}; drop format= "
    "(the extension chooses it) or make them agree"
)

# --- graph --------------------------------------------------------------------
BAD_RANKDIR = "rankdir must be one of {rankdirs}, got {got!r}"
BAD_MAX_NODES = "max_nodes must be at least 3 (or None), got {got!r}"
TOO_WIDE = (
    "draw_graph: this drawing of {boxes} boxes is wider than the notebook column (about "
    "{fit:,} px) either way ({widths}), so it is drawn the narrower way and scrolls sideways. "
    "To make it fit, collapse its middle with max_nodes= (e.g. max_nodes={fewer}) or draw a "
    "smaller piece of the graph (one layer's output); rankdir='TB' or 'LR' forces a direction."
)

# --- stepper ------------------------------------------------------------------
NO_GRAD_FN = (
    "BackwardStepper(root): root has no grad_fn, so there is no backward pass to step "
    "through; pass a tensor computed from tensors with requires_grad=True."
)

TOO_MANY_STEPS = (
    "BackwardStepper: this backward pass has {n:,} steps, more than max_steps={max_steps:,} "
    "(each step is a frame the widget keeps). Step through a smaller piece: the loss of a "
    "smaller model (fewer layers) or of one layer's output, e.g. "
    "viz.BackwardStepper(layer_out.sum()); draw the whole graph with viz.draw_graph(loss), "
    "which collapses its middle; or pass max_steps=None to record every step anyway."
)
NOT_A_TENSOR = (
    "{fn}() expects a minigrad Tensor or a torch.Tensor (or a tuple of tensors of one "
    "library); got {got}."
)
MIXED_ROOTS = (
    "{fn}() got tensors of two libraries ({got}); a graph is minigrad's or PyTorch's: pass "
    "the outputs of one of them."
)
BAD_PARAMS = (
    "{fn}(params=...) takes a dict of name -> tensor or a module (its named_parameters() are "
    "used, e.g. params=model), or (name, tensor) pairs; got {got}."
)
GRAPH_FREED = (
    "{fn}: backward already ran through this graph and freed the tensors it saved (at "
    "{node}), so the pass cannot be run again to step through it. Build the stepper before "
    "calling loss.backward(), or call loss.backward(retain_graph=True) to keep them (then "
    "the stepper runs its own pass, leaving .grad as backward left it); viz.draw_graph(loss) "
    "still draws the graph."
)
TORCH_LAYOUT = "viz cannot show a torch gradient of layout {layout} (it shows strided, sparse_coo and sparse_csr)."
BAD_STEP = "step must be an int from 1 to {n} (steps are numbered from 1); got {got!r}"

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
