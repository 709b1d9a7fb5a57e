"""Every error message of ``minigrad.distributed`` and ``nn.parallel`` (PyTorch's wording
where PyTorch has the case)."""

NOT_INITIALIZED = (
    "Default process group has not been initialized, please make sure to call init_process_group."
)
INIT_TWICE = "trying to initialize the default process group twice!"
BACKEND = (
    "minigrad.distributed runs on MPI only: backend must be 'mpi' (or None), got {got!r}. "
    "PyTorch's 'gloo' and 'nccl' are other transports for the same collectives."
)
TIMEOUT_TYPE = "timeout must be a datetime.timedelta, got {got}"
NO_MPI4PY = (
    "minigrad.distributed needs mpi4py and an MPI library to run collectives ({why}). "
    "Install them with: apt-get install openmpi-bin libopenmpi-dev && pip install mpi4py "
    "(or pip install 'minigrad-sparse[distributed]'; `make venv` does both)."
)
NOT_A_TENSOR = (
    "Invalid function argument. Expected parameter `{name}` of type Tensor but got {got} instead."
)
REDUCE_OP = "op must be a ReduceOp (SUM, AVG, PRODUCT, MIN, MAX), got {got!r}"
SPARSE_OP = "all_reduce of a sparse tensor supports ReduceOp.SUM and AVG only, got {op}"
SPARSE_LAYOUT = (
    "collectives take dense or sparse COO tensors; got layout {layout} (call to_sparse_coo())"
)
AVG_INTEGER = "ReduceOp.AVG needs a floating-point tensor, got dtype {dtype}"
ROOT_RANK = "broadcast: invalid root rank: {src} (the group has ranks 0..{last})"
GATHER_LIST_LEN = "all_gather: invalid output tensor list (expected length {want}, got {got})"
GATHER_LIST_SIZE = "all_gather: invalid tensor size at index {i} (expected {want}, got {got})"
GATHER_SHAPES = (
    "all_gather: rank {rank} sent a tensor of shape {got} but this rank sent {want}; "
    "every rank must pass a tensor of the same shape and dtype"
)
TIMED_OUT = (
    "rank {rank}: {op} did not complete within {seconds:g} s. Another rank failed, or did not "
    "call the same collective: every rank must call collectives in the same order "
    "(init_process_group(timeout=...) sets the limit)."
)
RANK_FAILED = "minigrad.distributed: rank {rank} of {size} failed, aborting the job:\n"

# --- DistributedDataParallel -----------------------------------------------------------------
DDP_NOT_MODULE = "DistributedDataParallel expects an nn.Module, got {got}"
DDP_NO_PARAMS = (
    "DistributedDataParallel is not needed when a module doesn't have any parameter that "
    "requires a gradient."
)
DDP_BUCKET = "bucket_cap_mb must be a positive number, got {got!r}"
DDP_COUNT = (
    "DDP expects same model across all ranks, but rank {rank} has {got} params, while rank 0 "
    "has {want} params."
)
DDP_MISMATCH = (
    "DDP expects same model across all ranks: parameter '{name}' is {got} on rank {rank} but "
    "{want} on rank 0. Build the same model on every rank."
)
DDP_UNFINISHED = (
    "Expected to have finished reduction in the prior iteration before starting a new one. "
    "These parameters received no gradient in the last backward: {names}. Every parameter "
    "must take part in producing the loss (minigrad has no find_unused_parameters)."
)
