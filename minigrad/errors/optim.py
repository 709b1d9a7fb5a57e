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
INVALID_MOMENTUM_DECAY = "Invalid momentum_decay value: {value}"
INVALID_RHO = "Invalid rho value: {value}"
INVALID_ETAS = "Invalid eta values: {minus}, {plus}"
DIFFERENTIABLE = (
    "{name}(differentiable=True) is not supported: minigrad's optimizers step under no_grad; "
    "to differentiate through an update, write it with tensor ops (p - lr * g) yourself"
)

SPARSE_ADAM = "{name} does not support sparse gradients, please consider SparseAdam instead"
SPARSE_UNSUPPORTED = (
    "{name} does not support sparse gradients yet; densify the gradient (p.grad.to_dense()) "
    "or use an optimizer that supports them"
)

# --- learning-rate schedulers (optim.lr_scheduler) --------------------------------------
NOT_AN_OPTIMIZER = "{got} is not an Optimizer"
NO_INITIAL_LR = (
    "param 'initial_lr' is not specified in param_groups[{i}] when resuming scheduler with "
    "last_epoch >= 0 (resume only a scheduler whose optimizer was scheduled before, e.g. after "
    "optimizer.load_state_dict; for a fresh run keep last_epoch=-1)"
)
STEP_BEFORE_OPTIMIZER = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and "
    "later, you should call them in the opposite order: `optimizer.step()` before "
    "`lr_scheduler.step()`.  Failure to do this will result in skipping the first value of "
    "the learning rate schedule (minigrad follows PyTorch's order)."
)
EPOCH_DEPRECATED = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated where "
    "possible. Please use `scheduler.step()` to step the scheduler. During the deprecation, if "
    "epoch is different from None, the closed form is used instead of the new chainable form, "
    "where available."
)
GET_LR_OUTSIDE_STEP = (
    "To get the last learning rate computed by the scheduler, please use `get_last_lr()`."
)
LR_LAMBDA_COUNT = "Expected {want} lr_lambdas, but got {got}"
LINEAR_START = (
    "Starting multiplicative factor expected to be greater than 0 and less or equal to 1."
)
LINEAR_END = "Ending multiplicative factor expected to be between 0 and 1."
PLATEAU_FACTOR = "Factor should be < 1.0."
PLATEAU_MODE = "mode {got} is unknown! (expected 'min' or 'max')"
PLATEAU_THRESHOLD_MODE = "threshold mode {got} is unknown! (expected 'rel' or 'abs')"
PLATEAU_MIN_LRS = "expected {want} min_lrs, got {got}"
PLATEAU_GROUPS_CHANGED = (
    "The number of param groups in the `optimizer` ({now}) differs from when "
    "`ReduceLROnPlateau` was initialized ({then}), usually due to a new param group being added "
    "to the optimizer. Please modify the `min_lrs` field to match the length of the `optimizer` "
    "param groups."
)
PER_GROUP_LENGTH = (
    "{name} must have the same length as optimizer.param_groups. {name} has {got} values, "
    "param_groups has {want}."
)
ONE_CYCLE_TOTAL_STEPS = "Expected positive integer total_steps, but got {got}"
ONE_CYCLE_POSITIVE = "Expected positive integer {name}, but got {got}"
ONE_CYCLE_NO_LENGTH = "You must define either total_steps OR (epochs AND steps_per_epoch)"
ONE_CYCLE_PCT = "Expected float between 0 and 1 pct_start, but got {got}"
ONE_CYCLE_ANNEAL = "anneal_strategy must be one of 'cos' or 'linear', instead got {got}"
ONE_CYCLE_MOMENTUM = "optimizer must support momentum or beta1 with `cycle_momentum` option enabled"
ONE_CYCLE_PAST_END = "Tried to step {step} times. The specified number of total steps is {total}"
SEQUENTIAL_EMPTY = "SequentialLR expects at least one scheduler, but got no scheduler."
SEQUENTIAL_NOT_SCHEDULER = "{cls} at index {i} should have `optimizer` as its attribute."
SEQUENTIAL_PLATEAU = (
    "{cls} does not support `ReduceLROnPlateau` scheduler as it requires additional "
    "kwargs to be specified when calling `step`, but got one at index {i} in the given "
    "schedulers sequence."
)
SEQUENTIAL_OPTIMIZER = (
    "{cls} expects all schedulers to belong to the same optimizer, but got scheduler "
    "{name} at index {i} has a different optimizer."
)
SEQUENTIAL_MILESTONES = (
    "Sequential Schedulers expects number of schedulers provided to be one more than the "
    "number of milestone points, but got number of schedulers {n} and the number of "
    "milestones to be equal to {m}"
)
CONSTANT_FACTOR = "Constant multiplicative factor expected to be between 0 and 1."
LR_LAMBDA_NOT_CALLABLE = "lr_lambda should be a function, but got {got}"
RESTARTS_T0 = "Expected positive integer T_0, but got {got}"
RESTARTS_T_MULT = "Expected integer T_mult >= 1, but got {got}"
RESTARTS_ETA_MIN = "Expected float or int eta_min, but got {got} of type {kind}"
RESTARTS_EPOCH = "Expected non-negative epoch, but got {got}"

# --- Rprop, ASGD, LBFGS --------------------------------------------------------------------
LBFGS_GROUPS = "LBFGS doesn't support per-parameter options (parameter groups)"
LBFGS_LINE_SEARCH = "only 'strong_wolfe' is supported"
CYCLIC_MODE = (
    "mode is invalid and scale_fn is None (mode: 'triangular', 'triangular2' or 'exp_range', "
    "or pass scale_fn)"
)
