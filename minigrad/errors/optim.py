"""Every error message of ``minigrad.optim``, in one place (PyTorch's wording)."""

PARAMS_TENSOR = (
    "params argument given to the optimizer should be an iterable of Tensors or dicts, but got "
    "{got}"
)
EMPTY_PARAMS = "optimizer got an empty parameter list"
GROUP_NOT_DICT = "param_group must be a dict, but got {got}"
PARAMS_SET = (
    "optimizer parameters need to be organized in ordered collections, but the ordering of "
    "tensors in sets will change between runs. Please use a list instead."
)
NOT_A_TENSOR = "optimizer can only optimize Tensors, but one of the params is {got}"
NON_LEAF = "can't optimize a non-leaf Tensor"
NAMES_MIXED = "all optimizer params should be with/without names. Some param names are missing"
GROUP_NAMES_MIXED = "all optimizer param groups should be with/without names."
DUPLICATE_PARAMS = (
    "optimizer contains a parameter group with duplicate parameters; in future, this will cause "
    "an error; see github.com/pytorch/pytorch/issues/40967 for more information"
)
OVERLAPPING_GROUPS = "some parameters appear in more than one parameter group"
REQUIRED_OPTION = "parameter group didn't specify a value of required optimization parameter {name}"

LOAD_GROUP_COUNT = "loaded state dict has a different number of parameter groups"
LOAD_GROUP_SIZE = (
    "loaded state dict contains a parameter group that doesn't match the size of optimizer's group"
)

INVALID_LR = "Invalid learning rate: {value}"
INVALID_MOMENTUM = "Invalid momentum value: {value}"
INVALID_WEIGHT_DECAY = "Invalid weight_decay value: {value}"
INVALID_EPS = "Invalid epsilon value: {value}"
INVALID_LR_DECAY = "Invalid lr_decay value: {value}"
INVALID_INITIAL_ACCUMULATOR = "Invalid initial_accumulator_value value: {value}"
INVALID_BETA = "Invalid beta parameter at index {i}: {value}"
BETAS_PAIR = "betas must be a pair (beta1, beta2), got {got}"
NESTEROV = "Nesterov momentum requires a momentum and zero dampening"
INVALID_ALPHA = "Invalid alpha value: {value}"
DIFFERENTIABLE = (
    "{name}(differentiable=True) is not supported: minigrad's optimizers step under no_grad; "
    "to differentiate through an update, write it with tensor ops (p - lr * g) yourself"
)

SPARSE_ADAM = "{name} does not support sparse gradients, please consider SparseAdam instead"
SPARSE_UNSUPPORTED = (
    "{name} does not support sparse gradients yet; densify the gradient (p.grad.to_dense()) "
    "or use an optimizer that supports them"
)
