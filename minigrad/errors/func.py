"""Every error message of ``minigrad.func`` (jvp/jacfwd, grad/vjp/jacrev, vmap), in one place."""

# --- forward ------------------------------------------------------------------
NO_RULE = "forward-mode AD: {op} has no jvp rule (forward rule); use mg.func.vjp / jacrev for it"
JVP_SPARSE = (
    "forward-mode AD: {op} got a sparse tensor; jvp/jacfwd handle dense tensors only "
    "(use mg.func.vjp / jacrev, or densify with .to_dense())"
)
NOT_TUPLE = (
    "jvp(): expected {what} to be a tuple of Tensors (or of dicts, tuples, lists of Tensors), "
    "got {got}"
)
MISMATCH = (
    "jvp(): tangent {i} must match its primal: primal has shape {ps} and dtype {pd}, "
    "tangent has shape {ts} and dtype {td}"
)
NOT_FLOAT = "jvp(): primal {i} must be a floating-point Tensor, got dtype {got}"
IN_PLACE = (
    "forward-mode AD: a tensor carrying a tangent was modified in place (version {old} -> "
    "{new}); in-place ops are not supported inside jvp/jacfwd, use the out-of-place op"
)
BAD_OUTPUT = "jvp(): func must return a Tensor or a tuple, list or dict of Tensors, got {got}"
STRUCTURE = (
    "jvp(f, primals, tangents): expected primals and tangents to have the same structure "
    "(the same tuples, lists and dict keys, a tangent for every primal tensor)"
)
COUNT = "jvp(): expected as many tangents as primals, got {tangents} tangents for {primals} primals"
JVP_AUX_PAIR = "jvp(has_aux=True): func must return a pair (output, aux)"
JACFWD_ARGNUMS = "jacfwd(): argnums {argnums!r} out of range for {count} args"
JACFWD_ARG = "jacfwd(): argument {i} (selected by argnums) must be a Tensor, got {got}"

# --- reverse (torch.func's wording where torch has the case) ------------------
NOT_SCALAR = (
    "{name}(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor with {ndim} "
    "dims. Maybe you wanted to use the vjp or jacrev APIs instead?"
)
NOT_TENSOR_OUT = (
    "{name}(f)(*args): Expected f(*args) to return a Tensor, got {got}; "
    "with has_aux=True return a pair (output, aux)"
)
NOT_TENSORS_OUT = (
    "{name}(f)(*args): Expected f(*args) to return a Tensor or a non-empty tuple of Tensors, "
    "got {got}; with has_aux=True return a pair (output, aux)"
)
AUX_PAIR = "{name}(f, has_aux=True): f must return a pair (output, aux), got {got}"
ARGNUM_RANGE = "{name}: Got argnum={n}, but only {count} positional inputs"
ARGNUM_TYPE = "{name}: argnums must be an int or a tuple of ints, got {got!r}"
ARGNUM_EMPTY = "{name}: argnums must be non-empty"
ARG_NOT_TENSOR = (
    "{name}: argument {i} (selected by argnums) must be a Tensor, got {got} (or a tuple, list "
    "or dict of Tensors); pass constants through closures or other positions"
)
ARG_SPARSE = (
    "{name}: argument {i} is a {layout} tensor; mg.func transforms differentiate dense "
    "tensors only. Differentiate its values (build it inside f with mg.sparse_coo_tensor) "
    "or pass .to_dense()"
)
ARG_NOT_FLOAT = "{name}: argument {i} must be a floating-point Tensor to differentiate, got {got}"
SPARSE_RESULT = (
    "{name}: the gradient of argument {i} came out sparse (from {op}); mg.func transforms "
    "return dense tensors only. Use mg.autograd.grad for sparse gradients"
)
VJP_OUT = (
    "vjp(f, *primals): expected f(*primals) to return only tensors, got unsupported type {got}"
)
VJP_COTANGENTS = (
    "vjp_fn: expected {want} cotangent(s) matching the outputs of f, got {got}; "
    "pass a Tensor for a single output, a tuple for a tuple output"
)
VJP_SHAPE = "vjp_fn: cotangent {i} has shape {got} but output {i} has shape {want}"

# --- vmap ---------------------------------------------------------------------
IN_DIMS_LEN = (
    "vmap(f, in_dims={in_dims}, ...)(<inputs>): in_dims is not compatible with the structure "
    "of `inputs`. in_dims has {want} entries but inputs has {got} positional arguments"
)
IN_DIM_BAD = (
    "vmap: in_dims[{i}]={d!r} is not valid for argument {i} ({what}); use None to broadcast "
    "it, or an int in [-{ndim}, {ndim})"
)
NO_MAPPED = "vmap(f, in_dims={in_dims}, ...): at least one input must be mapped (not None)"
SIZES = (
    "vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
    "{sizes} for the mapped dimension"
)
OUT_TYPE = "vmap: f must return a Tensor or a tuple of Tensors, got {got}"
EMPTY_BATCH = (
    "vmap: the mapped dimension has size 0; minigrad's vmap is a loop over the samples and "
    "needs at least one to learn what f returns"
)
OUT_STRUCTURE = (
    "vmap: every call of f must return the same structure (tuple lengths, dict keys), with "
    "one out_dims entry per element of a tuple output; got out_dims={out_dims!r}"
)
OUT_DIMS = "vmap: out_dims={out_dims!r} is not valid for an output with {ndim} dims"
VMAP_SPARSE = "vmap: argument {i} is a {layout} tensor; vmap maps dense tensors only"

# --- functional_call (PyTorch's wording where torch has the case) ---------------
CALL_MODULE = "functional_call(): module must be a minigrad.nn.Module, got {got}"
CALL_DICTS = "Expected all elements of parameter_and_buffer_dicts to be dictionaries"
CALL_REPEATED = "{keys} appeared in multiple dictionaries; behavior of functional call is ambiguous"
CALL_NOT_TENSOR = "functional_call(): the value for '{name}' must be a Tensor, got {got}"
CALL_TIED = (
    "functional_call got multiple values for keys {keys}, which are tied. Consider using "
    "tie_weights=False"
)
CALL_NO_SUBMODULE = "{cls} has no attribute `{name}`"
STACK_NO_MODELS = "stack_module_state: Expected at least one model, got 0."
STACK_CLASSES = "stack_module_state: Expected all models to be of the same class."
STACK_MODES = "stack_module_state: Expected all models to have the same training/eval mode."
STACK_REQUIRES_GRAD = (
    "stack_module_state: expected {name} from each model to have the same .requires_grad "
    "(all True or all False)"
)
