"""Every error message minigrad raises, in one place (this package).

The engine's messages are here; ``errors.nn`` and ``errors.optim`` hold those
of ``minigrad.nn`` and ``minigrad.optim``.

Autograd misuse raises ``RuntimeError`` with PyTorch's wording where PyTorch has
the case (a student who meets the message here recognises it later in PyTorch);
malformed input raises ``ValueError`` or ``TypeError`` naming the argument and
what would be accepted. Messages are ``str.format`` templates.
"""

# --- graph mechanics -------------------------------------------------------
BACKWARD_TWICE = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward. (node: {node})"
)
IMPLICIT_GRAD = (
    "grad can be implicitly created only for scalar outputs (got an output of shape {shape})"
)
GRAD_SHAPE = "Mismatch in shape: grad_output[{i}] has a shape of {got} and output[{i}] has a shape of {want}."
GRAD_DTYPE = (
    "Mismatch in dtype: grad_output[{i}] has dtype {got} and output[{i}] has dtype {want}; "
    "pass a gradient of the output's dtype."
)
NO_GRAD_FN = "element {i} of tensors does not require grad and does not have a grad_fn"
UNUSED_INPUT = (
    "The differentiated Tensor at index {i} appears to not have been used in the graph. "
    "Set allow_unused=True if this is the desired behavior."
)
BACKWARD_INPUTS_EMPTY = "`inputs` argument to `backward()` cannot be empty."
GRAD_INPUT_NOT_REQUIRING = "One of the differentiated Tensors (input {i}) does not require grad"
GRAD_OUTPUTS_LEN = (
    "grad_outputs has {got} entries but there are {want} outputs; pass one per output"
)
NOT_A_TENSOR = "{what} must be a Tensor, got {got}"
DATA_NOT_TENSOR = "Variable data has to be a tensor, but got {got}"
DATA_MISMATCH = (
    "cannot assign a tensor of {got} to .data of a tensor of {want}: .data takes a tensor of "
    "the same shape, dtype and layout (PyTorch lets the shape and dtype change here; minigrad "
    "refuses, since the graph, .grad and optimizer state built around the tensor keep the old "
    "ones). To resize, make a new tensor or Parameter."
)
NOT_A_STR = "{what} must be a str, got {got}"
SPARSE_GRAD_UNSUPPORTED = "{what}: sparse gradients are not supported here yet"
SPARSE_UNSUPPORTED_OP = (
    "{op}(): sparse tensors are not supported; call it on t.values() or t.to_dense()"
)

# --- saved-tensor hooks (autograd.graph.saved_tensors_hooks, grad_fn._raw_saved_*) -------
UNPACK_NOT_TENSOR = (
    "Output of saved tensor unpack_hook expected to be a Tensor but got result of type {got}"
)
UNPACK_CHANGED = (
    "unpack_hook returned a tensor of shape {got_shape} and dtype {got_dtype} for a tensor that "
    "{node} saved with shape {shape} and dtype {dtype}; unpack_hook must give back a tensor of "
    "the shape and dtype that pack_hook received"
)
PACK_INPLACE = (
    "A saved tensor pack hook is modifying its input in place. Tensors provided as input to "
    "pack hook cannot be modified by in-place operations as this can lead to unexpected "
    "side-effects."
)
SAVED_HOOK_NOT_CALLABLE = "{where}: {what} must be callable, got {got}"
SAVED_HOOKS_FREED = (
    "Calling register_hooks on a saved tensor after it has been freed. Saved intermediate "
    "values of the graph are freed when you call .backward() or autograd.grad(). Specify "
    "retain_graph=True if you need to backward through the graph a second time or if you need "
    "to access saved variables after calling backward."
)
SAVED_HOOKS_TWICE = (
    "Calling register_hooks on a saved tensor whose hooks have already been set. Hint: only "
    "one pair of hooks is allowed at a time."
)
SAVED_HOOKS_NONE = "Calling register_hooks on a saved tensor with value None is forbidden"

# --- grad mode, in-place, dtype --------------------------------------------
VERSION_MISMATCH = (
    "one of the variables needed for gradient computation has been modified by an inplace "
    "operation: [{desc}], which is output {idx} of {node}, is at version {now}; expected "
    "version {saved} instead. Hint: the in-place op ran after {node} saved it; use an "
    "out-of-place op (e.g. x = x + 1 instead of x.add_(1))."
)
LEAF_INPLACE = (
    "a leaf Variable that requires grad is being used in an in-place operation. "
    "(Wrap the update in `with minigrad.no_grad():` as optimizers do.)"
)
INPLACE_SHAPE = (
    "in-place {op}: the result of shape {got} cannot be written into a tensor of shape {want} "
    "(in-place ops may broadcast the other operand, never the tensor being modified)"
)
INPLACE_DTYPE = "in-place {op}: result type {got} can't be cast to the desired output type {want}"
INT_REQUIRES_GRAD = (
    "Only Tensors of floating point and complex dtype can require gradients (got dtype {dtype})"
)
NON_LEAF_REQUIRES_GRAD = (
    "you can only change requires_grad flags of leaf variables. If you want to use a computed "
    "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."
)
HOOK_CHANGED = (
    "hook '{name}' has changed the size of value: it returned {got} for a gradient of shape "
    "{shape} and dtype {dtype}; a hook must return None or a tensor of that shape and dtype"
)
GRAD_FOR_NON_TENSOR = (
    "function {node} returned a gradient different than None at position {i}, but the "
    "corresponding forward input was not a Variable"
)
HOOK_NOT_CALLABLE = "register_hook expects a callable, got {got}"
NODE_HOOK_COUNT = "hook returned an incorrect number of values (got {got}, but expected {want})"
HOOK_NO_GRAD = "cannot register a hook on a tensor that doesn't require gradient"
POST_ACCUMULATE_NON_LEAF = "post accumulate grad hooks cannot be registered on non-leaf tensors"
RETAIN_GRAD_NO_GRAD = "can't retain_grad on Tensor that has requires_grad=False"
ITEM_NUMEL = "a Tensor with {n} elements cannot be converted to Scalar"
NUMPY_REQUIRES_GRAD = (
    "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
)

PICKLE_NON_LEAF = (
    "Only Tensors created explicitly by the user (graph leaves) support the deepcopy/pickle "
    "protocol; call .detach() first (or .detach().requires_grad_() for a new leaf)."
)
SPARSE_INTO_DENSE_RECORDED = (
    "{op} with a sparse tensor is an update outside autograd (an optimizer step): do it "
    "under `with minigrad.no_grad():` or on `.data`, on tensors that do not require grad"
)
SPARSE_INTO_DENSE_MISMATCH = (
    "{op}: the sparse tensor must match the dense one's shape and dtype; got {other_shape} "
    "{other_dtype} into {shape} {dtype}"
)
VIEW_OF_LEAF_INPLACE = (
    "a view of a leaf Variable that requires grad is being used in an in-place operation."
)
FILL_DIMS = "fill_ only supports 0-dimension value tensor but got tensor with {ndim} dimensions."
COPY_SHAPE = "copy_(): the source of shape {src} does not broadcast to the destination's {dst}"
BOOL_SUB = (
    "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to "
    "invert a mask, use the `~` or `logical_not()` operator instead."
)
BOOL_SUB_TWO = (
    "Subtraction, the `-` operator, with two bool tensors is not supported. "
    "Use the `^` or `logical_xor()` operator instead."
)
POW_BOOL = "\"pow\" not implemented for 'Bool'"
NO_GRAD_VIEW_INPLACE = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. "
    "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the no_grad block "
    "(if you don't want the inplace to be tracked) or both outside (if you want the inplace to "
    "be tracked)."
)
NO_GRAD_VIEW_STALE = (
    "A view was created in no_grad mode and its base or another view of its base has been "
    "modified inplace since, so which values its gradient should describe is ambiguous: it "
    "cannot be used in an operation autograd records. Make the view after the in-place change, "
    "or use it under no_grad, or take a .detach() of it."
)
MULTI_OUTPUT_VIEW_INPLACE = (
    "Output {n} of {op} is a view and is being modified inplace. This view is the output of a "
    "function that returns multiple views. Such functions do not allow the output views to be "
    "modified inplace. You should replace the inplace operation by an out-of-place one."
)
MULTI_OUTPUT_VIEW_STALE = (
    "Output {n} of {op} is a view and its base or another view of its base has been modified "
    "inplace since. It is one of several views a single function returned, whose gradient "
    "cannot be rebuilt for one of them, so autograd cannot use it: clone() it before the "
    "in-place change, or use an out-of-place op."
)
INDEX_PUT_DTYPE = (
    "Index put requires the source and destination dtypes match, got {dst} for the destination "
    "and {src} for the source."
)
INPLACE_PARTIAL_OVERLAP = (
    "unsupported operation: some elements of the input tensor and the written-to tensor refer "
    "to a single memory location. Please clone() the tensor before performing the operation."
)
INT_NEGATIVE_POW = "Integers to negative integer powers are not allowed."
INPLACE_OVERLAP = (
    "unsupported operation: more than one element of the written-to tensor refers to a single "
    "memory location. Please clone() the tensor before performing the operation."
)

# --- custom Function --------------------------------------------------------
WRONG_GRAD_COUNT = (
    "function {node} returned an incorrect number of gradients (expected {want}, got {got})"
)
NODE_CALL_COUNT = (
    "{node} expected {want} gradient(s), one per output of the node (None for an output "
    "that received none), got {got} instead"
)
NODE_CALL_TYPE = "{node}: gradient {i} should be a Tensor or None, got {got}"
WRONG_GRAD_SHAPE = (
    "Function {node} returned an invalid gradient at index {i} - got {got} but expected shape "
    "compatible with {want}"
)
WRONG_GRAD_TYPE = (
    "function {node} returned a gradient at index {i} that is not a Tensor or None: {got}"
)
NO_BACKWARD = (
    "You must implement either the backward or vjp method for your custom autograd.Function "
    "to use it with backward mode AD ({name} has neither)."
)
ONCE_DIFFERENTIABLE = (
    "trying to differentiate twice a function that was marked with @once_differentiable"
)
BACKWARD_AND_VJP = (
    "Implementing both 'backward' and 'vjp' for a custom Function is not allowed "
    "({name}): implement one of them."
)
NO_FORWARD = "You must implement the forward function for custom autograd.Function ({name})."
SAVE_NOT_TENSOR = "save_for_backward can only save variables, but argument {i} is of type {got}"
SAVE_FOR_FORWARD = (
    "save_for_forward expects all arguments to be tensors; you should save non-tensors as "
    "attributes on ctx (argument {i} is of type {got})"
)
NO_JVP = (
    "You must implement the jvp function for custom autograd.Function to use it with forward "
    "mode AD. ({name} has no jvp staticmethod, and a tangent reaches it.)"
)
NO_SETUP_CONTEXT = "setup_context is not implemented."
FORWARD_NOT_TENSOR = "{name}.forward must return a Tensor or a tuple of Tensors, got {got}"
ANOMALY_NAN = "Function '{node}' returned nan values in its {i}th output."

# --- dtypes and data --------------------------------------------------------
# a warning, in PyTorch's wording (torch.tensor warns the same way)
COPY_CONSTRUCT = (
    "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
    "or sourceTensor.detach().clone().requires_grad_(True), rather than "
    "minigrad.tensor(sourceTensor)."
)

UNSUPPORTED_DTYPE = (
    "unsupported dtype {got}; minigrad supports bool, uint8, int8, int16, int32, int64, "
    "float16, float32 and float64"
)
DEFAULT_DTYPE = "set_default_dtype only supports floating point dtypes (float16/32/64), got {got}"
BAD_SCALAR = "expected a Python number or bool, got {got}"
BAD_DATA = (
    "tensor(): could not build a tensor from {got}; pass a number, a (nested) list or a numpy array"
)
RAGGED = "tensor(): expected a rectangular nested list, but the sublists have different lengths ({detail})"
OBJECT_DATA = "tensor(): data of dtype object is not supported ({got}); pass numbers"
SIZE_NOT_INT = "size must be a tuple of ints, but got an element of type {got} (size {size})"
ARG_NOT_INT = "{op}(): argument '{name}' (position {i}) must be int, not {got}"
ARANGE_TYPE = "arange(): {name} must be a number, got {got}"
ARANGE_STEP = "step must be nonzero"
ARANGE_SIGN = "upper bound and lower bound inconsistent with step sign"
LINSPACE_STEPS = "number of steps must be non-negative"
EYE_NEGATIVE = "{name} must be greater or equal to 0, got {got}"
NEGATIVE_DIM = "Trying to create tensor with negative dimension {n}: [{n}]"
RANDOM_DTYPE = (
    "{op}(): samples are floating point, got dtype {got} (for integers use randint, or cast "
    "the samples with .to(...))"
)
RANDINT_BOUND = "randint(): argument '{name}' must be int, not {got}"
RANDINT_RANGE = "random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
BAD_OPERAND = (
    "unsupported operand for {op}: {got}; expected a Tensor, a Python number or a numpy array"
)

# --- shapes and indexing ----------------------------------------------------
BROADCAST = "The size of tensor a ({a}) must match the size of tensor b ({b}) at non-singleton dimension {dim} ({op}: shapes {sa} and {sb})"
MATMUL_SHAPE = "mat1 and mat2 shapes cannot be multiplied ({sa} and {sb})"
MATMUL_0D = "both arguments to matmul need to be at least 1D, but they are {da}D and {db}D"
MM_2D = "{op}: expected 2-D tensors, got {da}-D and {db}-D"
ADDMM_MATRIX = "{name} must be a matrix, got {ndim}-D tensor"
ADDMM_DTYPE = "{first} and mat2 must have the same dtype, but got {got} and {want}"
EXPAND_DIMS = (
    "expand({shape}, size={target}): the number of sizes provided ({n_target}) must be greater "
    "or equal to the number of dimensions in the tensor ({n})"
)
BMM_3D = "{name} must be a 3D tensor (bmm: shapes {sa} and {sb}; matmul broadcasts other shapes)"
BMM_SHAPE = (
    "Expected size for first two dimensions of batch2 tensor to be: {want} but got: {got} "
    "(bmm: shapes {sa} and {sb})"
)
DOT_1D = "1D tensors expected, but got {da}D and {db}D tensors"
DOT_SIZE = (
    "inconsistent tensor size, expected tensor [{na}] and src [{nb}] to have the same number "
    "of elements, but got {na} and {nb} elements respectively"
)
DOT_DTYPE = "dot : expected both vectors to have same dtype, but found {da} and {db}"
OP_ARG_TYPE = "{op}(): argument '{name}' (position {i}) must be Tensor, not {got}"
NO_STORAGE = (
    "{method}(): a {layout} tensor has no single memory block (PyTorch: it has no storage); "
    "ask its values(), indices() or crow_indices()"
)
FROM_NUMPY_TYPE = (
    "from_numpy(): expected np.ndarray (got {got}); for other data use minigrad.tensor"
)
PAIRWISE_KEEPDIM = (
    "{op}(a, b) of two tensors is elementwise and takes no keepdim (keepdim belongs to "
    "{op}(a, dim, keepdim))"
)
WHERE_SHAPE = (
    "where: condition of shape {sc}, input of shape {sa} and other of shape {sb} do not "
    "broadcast to one shape"
)
MATMUL_DTYPE = (
    "expected m1 and m2 to have the same dtype, but got: {da} != {db} ({op} does not promote, "
    "as in PyTorch: convert one operand, e.g. with .to({db}) or .to({da}))"
)
DIM_RANGE = "Dimension out of range (expected to be in range of [{lo}, {hi}], but got {dim})"
DIM_TYPE = "dim must be an int, got {got}"
INVALID_TYPE = "invalid type: '{got}'"
BAD_LAYOUT = "to_sparse(): layout must be 'sparse_coo', 'sparse_csr' or 'sparse_csc', got {got!r}"
MT_NDIM = "tensor.mT is only supported on matrices or batches of matrices. Got {ndim}-D tensor."
SIZE_TYPE = "{op}(): sizes must be a tuple of ints, but got an element of type {got}"
RESHAPE = "shape '{shape}' is invalid for input of size {numel}"
RESHAPE_INFER = "only one dimension can be inferred (got shape {shape})"
VIEW_STRIDE = (
    "view size is not compatible with input tensor's size and stride; use .reshape(...) instead"
)
EXPAND = (
    "The expanded size of the tensor ({new}) must match the existing size ({old}) at "
    "non-singleton dimension {dim}.  Target sizes: {target}.  Tensor sizes: {shape}"
)
SETITEM_DIMS = (
    "x[key] = value: value of shape {got} has more dimensions than the selected region {want} "
    "(only leading size-1 dims may be dropped)"
)
PERMUTE = "permute(): dims {dims} must be a permutation of 0..{n}"
CAT_SHAPE = "{op}: sizes of tensors must match except in dimension {dim}; tensor {i} has shape {got}, tensor 0 has shape {want}"
STACK_SHAPE = (
    "stack expects each tensor to be equal size, but got {want} at entry 0 and {got} at entry {i}"
)
CAT_EMPTY = "{op}(): expected a non-empty list of Tensors"
CAT_NOT_LIST = "{op}(): argument 'tensors' (position 1) must be tuple of Tensors, not {got}"
INDEX_RANGE = "index {index} is out of bounds for dimension {dim} with size {size}"
INDEX_TYPE = "only integers, slices, None, Ellipsis, integer arrays/tensors and bool tensors are valid indices (got {got})"
SLICE_STEP = (
    "step must be greater than zero (got a slice with step {step}); as in PyTorch, reverse "
    "with an integer index instead, e.g. x[mg.arange(n - 1, -1, -1)]"
)
REDUCE_EMPTY = (
    "{op}(): Expected reduction dim {dim} to have non-zero size (the tensor has shape {shape})"
)
REDUCE_EMPTY_ALL = (
    "{op}(): cannot reduce an empty tensor (shape {shape}) without a dim; {op} has no identity"
)
CLAMP_NONE = "At least one of 'min' or 'max' must not be None"
LOGIT_EPS = "logit(): argument 'eps' must be float, not {got}"
NAN_TO_NUM_TYPE = "nan_to_num(): argument '{name}' must be float, not {got}"
FLOAT_OF_REQUIRES_GRAD = (
    "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
    "Consider using tensor.detach() first."
)
NO_DERIVATIVE = (
    "derivative for aten::{op} is not implemented (PyTorch has no gradient for it either; "
    "detach() the input, or compute it from ops that have one)"
)
MODULO_OTHER = "{op}(): argument 'other' must be a Tensor or a number, not {got}"
LERP_WEIGHT = "lerp(): argument 'weight' must be a Tensor or a number, not {got}"
LERP_DTYPE = "expected dtype {want} for `{name}` but got dtype {got}"
CLAMP_TYPE = "clamp(): {name} must be a number, a Tensor or None, got {got}"
CLAMP_BOOL_NUMBERS = (
    "clamp() of a bool tensor with bool bounds is not implemented (PyTorch has no bool clamp "
    "kernel: \"{kernel}\" not implemented for 'Bool'); convert it first, e.g. with .int()"
)
CLAMP_BOOL = (
    "clamp() of bool tensors with two tensor bounds is not implemented (PyTorch has no bool "
    "clamp kernel); convert them first, e.g. with .int(), or give one bound"
)
CLAMP_MIXED = (
    "clamp() received an invalid combination of arguments - got (min={lo}, max={hi}): "
    "the bounds must be both numbers or both Tensors (either may be None; a 0-d Tensor that "
    "does not require grad counts as a number)"
)
ARG_BOOL = "{op}(): does not support bool input (convert it first, e.g. with .int())"
ARG_EMPTY = "{op}(): Expected reduction dim to be specified for input.numel() == 0."
SOFTMAX_DTYPE = (
    "{op}(): not implemented for {got}: the input must be a floating point tensor "
    "(or pass dtype=float32 or dtype=float64 to convert it first)"
)
VAR_DTYPE = "std and var only support floating point and complex dtypes (got {got})"
RELU_BOOL = "Boolean inputs not supported for relu (as in PyTorch): relu takes number tensors"
POS_BOOL = (
    "The `+` operator, on a bool tensor is not supported (as in PyTorch): it takes number tensors"
)
INT_OVERFLOW = "value cannot be converted to type {ctype} without overflow"
WHERE_ARGS = (
    "where() takes a condition alone (the indices where it holds, as nonzero(as_tuple=True)) "
    "or a condition, an input and an other (tensors or numbers): got an input without an other"
)
WHERE_COND = "where expected condition to be a boolean tensor, but got a tensor with dtype {got}"
DIFF_INT = "{op} is not differentiable for integer inputs"
NOT_FOR_DTYPE = (
    "{op}: not implemented for dtype {got} (as in PyTorch); {op} accepts {accepted} tensors"
)
ROUND_DECIMALS = "round(): argument 'decimals' must be an int, not {got}"

# --- closeness, norms, movedim, unflatten -------------------------------------
CLOSE_DTYPE = (
    "{op}(): input and other must have the same dtype, got {a} and {b} (as in PyTorch, "
    "{op} does not promote: convert one, e.g. other.to(input.dtype))"
)
CLOSE_TOL = "{op}(): {name} must be greater than or equal to zero, but got {got}"
NORM_FLOAT = (
    "{op}: expected a floating point tensor as input, got dtype {got} (convert it first, "
    "e.g. x.float())"
)
NORM_ORD_TYPE = (
    "linalg.vector_norm(): ord must be a number (2, 1, inf, -inf, 0 or any other float), "
    "got {got!r}; for p='fro' use Tensor.norm"
)
NORM_P = (
    "norm(): p={got!r} is not supported; expected 'fro' or a number (2, 1, inf, -inf, 0 or any "
    "other float){hint}"
)
NORM_NUC = " (the nuclear norm 'nuc' is a matrix norm, which minigrad does not have)"
NORM_FRO_DIMS = "norm(): p='fro' takes at most 2 dims (dim=None, an int or a pair), got dim={dim}"
NORM_DIM_REPEATED = "{op}: dim {dim} appears multiple times in the list of dims {dims}"
NORM_EMPTY_ALL = (
    "linalg.vector_norm cannot compute the {ord} norm on an empty tensor (shape {shape}) "
    "because the operation does not have an identity"
)
NORM_EMPTY = (
    "linalg.vector_norm cannot compute the {ord} norm on dimension {dim} of a tensor of shape "
    "{shape}: this dimension is empty and the operation does not have an identity"
)
MOVEDIM_TYPE = (
    "movedim(): source and destination must both be ints or both be sequences of ints, got "
    "{src!r} and {dst!r}"
)
MOVEDIM_LEN = (
    "movedim: Invalid source or destination dims: source ({src} dims) should contain the same "
    "number of dims as destination ({dst} dims)"
)
MOVEDIM_REPEATED = "movedim: repeated dim in `{which}` ({dims})"
UNFLATTEN_SIZES = (
    "unflatten: Provided sizes {sizes} don't multiply up to the size of dim {dim} ({n}) in the "
    "input tensor of shape {shape}"
)
UNFLATTEN_EMPTY = "unflatten: sizes must be non-empty"
UNFLATTEN_0D = "unflatten: a 0-d tensor has no dimension {dim} to unflatten"
UNFLATTEN_SIZE = (
    "unflatten: invalid size {got} at position {i} of {sizes}; sizes must be non-negative "
    "ints, with at most one -1 (inferred)"
)
UNFLATTEN_AMBIGUOUS = (
    "unflatten: cannot infer the -1 in {sizes}: dim {dim} has size {n} and the other sizes "
    "multiply to 0, so -1 could be any value"
)

# --- tracing (make_jaxpr, jit): the messages are in errors/jit.py -------------------------
from .jit import ConcretizationTypeError  # noqa: E402  (JAX: jax.errors.ConcretizationTypeError)

SIZE_TWICE = "{fn}() got multiple values for argument 'size'"

# --- dtype queries and asarray (minigrad/_array_names.py) ---------------------------------------
RESULT_TYPE_ARG = "result_type(): arguments must be Tensors or numbers, not {got}"
ASARRAY_REQUIRES_GRAD = (
    "torch.asarray: unspecified requires_grad now defaults to obj.requires_grad instead of "
    "False. Pass requires_grad=False explicitly to get the old behavior and silence this warning."
)
ASARRAY_NO_ALIAS = "can't alias tensor with dtype '{got}' into dtype '{want}'."
ASARRAY_NO_ALIAS_SEQUENCE = "can't alias arbitrary sequence into a tensor."

# --- testing.assert_close (minigrad/testing.py) -------------------------------------------------
ASSERT_CLOSE_TOLERANCES = (
    "Both 'rtol' and 'atol' must be either specified or omitted, but got no {missing}."
)
ASSERT_CLOSE_TYPES = "No comparison pair was able to handle inputs of type {a} and {e}."
