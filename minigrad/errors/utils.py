"""Every error message of ``minigrad.utils`` (checkpoint, data), in one place."""

# --- checkpoint ---------------------------------------------------------------
NOT_CALLABLE = "checkpoint(): function must be callable, got {got}"
NO_INPUT_REQUIRES_GRAD = "None of the inputs have requires_grad=True. Gradients will be None"
NO_OUTPUT_REQUIRES_GRAD = (
    "checkpoint(): none of the outputs of the recomputed function requires grad, "
    "so there is nothing to backpropagate (this checkpoint() is not necessary)"
)
BAD_KWARGS = "Unexpected keyword arguments: {names} (use_reentrant=True takes none)"

# --- data (utils.data): datasets, samplers, DataLoader, collation ------------------------
DATASET_GETITEM = "Subclasses of Dataset should implement __getitem__."
TENSOR_SIZE_MISMATCH = "Size mismatch between tensors"
TENSOR_DATASET_ARG = "TensorDataset: argument {i} must be a Tensor, got {got}"
CONCAT_EMPTY = "datasets should not be an empty iterable"
CONCAT_INDEX = "absolute value of index should not exceed dataset length"
SPLIT_FRACTION = "Fraction at index {i} is not between 0 and 1"
SPLIT_EMPTY = "Length of split at index {i} is 0. This might result in an empty dataset."
SPLIT_SUM = "Sum of input lengths does not equal the length of the input dataset!"
GENERATOR = "{where}: generator must be a minigrad.Generator or None, got {got}"
NUM_WORKERS_NEGATIVE = (
    "num_workers option should be non-negative; use num_workers=0 to disable multiprocessing."
)
WORKERS_IN_MAIN = (
    "num_workers={got}: minigrad starts no worker process; the main process loads every "
    "batch (the same batches, in the same order, as PyTorch's workers; worker_init_fn is not "
    "called)"
)
WORKERS_ITERABLE = (
    "num_workers={got} with an IterableDataset: PyTorch runs a copy of the dataset in each "
    "worker, minigrad loads in the main process only; pass num_workers=0"
)
START_METHOD = (
    "multiprocessing_context option should specify a valid start method in {methods}, but got "
    "multiprocessing_context={got!r}"
)
TIMEOUT = "timeout option should be non-negative"
PREFETCH_FACTOR = (
    "prefetch_factor option could only be specified in multiprocessing.let num_workers > 0 to "
    "enable multiprocessing, otherwise set prefetch_factor to None."
)
PERSISTENT_WORKERS = "persistent_workers option needs num_workers > 0"
MULTIPROCESSING_CONTEXT = (
    "multiprocessing_context can only be used with multi-process loading (num_workers > 0), "
    "but got num_workers=0"
)
PIN_MEMORY = (
    "'pin_memory' argument is set as true but no accelerator is found, then device pinned "
    "memory won't be used."
)
SAMPLER_SHUFFLE = "sampler option is mutually exclusive with shuffle"
BATCH_SAMPLER_EXCLUSIVE = (
    "batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last"
)
NO_BATCH_DROP_LAST = (
    "batch_size=None option disables auto-batching and is mutually exclusive with drop_last"
)
BATCH_SIZE = "batch_size should be a positive integer value, but got batch_size={got}"
DROP_LAST = "drop_last should be a boolean value, but got drop_last={got}"
REPLACEMENT = "replacement should be a boolean value, but got replacement={got}"
NUM_SAMPLES = "num_samples should be a positive integer value, but got num_samples={got}"
WEIGHTS_1D = "weights should be a 1d sequence but given weights have shape {shape}"
COLLATE_TYPE = (
    "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; "
    "found {got}"
)
COLLATE_SPARSE = (
    "Batches of sparse tensors are not currently supported by the default collate_fn; please "
    "provide a custom collate_fn to handle them appropriately."
)
COLLATE_SIZES = "each element in list of batch should be of equal size"
ITERABLE_OPTION = (
    "DataLoader with IterableDataset: expected unspecified {name} option, but got {name}={got}"
)
STACK_BOTH = (
    "Supported either ``tuple``- (via ``args``) or``dict``- (via ``kwargs``) like input/output, "
    "but both types are given."
)
STACK_NONE = "At least one dataset should be passed"
STACK_SIZES = "Size mismatch between datasets"
