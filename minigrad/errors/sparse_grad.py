"""Messages of sparse tensors in autograd: the policy, densification, sparse ops."""

CONFIG_KEY = "mg.sparse.config: unknown setting {key!r}; the settings are {keys}"
CONFIG_VALUE = "mg.sparse.config: {key}={got!r} is not accepted; choose one of {choices}"

DENSIFIED = (
    "{where}: a sparse gradient was densified because {why}. It cost {before} as sparse "
    "(nnz={nnz}, density {density}) and now takes {after} dense{caused}."
)
WHY = {
    "dense_met_sparse": "a dense gradient met a sparse one (their sum is dense)",
    "outgrew_dense": "the sparse form grew to at least the size of the dense one "
    "(densify='auto': COO stops paying off above density {threshold})",
    "always": "the policy says densify='always'",
    "no_sparse_formula": "there is no sparse formula for {node}: its backward needs a dense "
    "gradient",
    "dense_bucket": "DistributedDataParallel all-reduces this parameter in a dense bucket "
    "(only an Embedding or EmbeddingBag with sparse=True gets a sparse one)",
    "no_sparse_kernel": "the op has no sparse kernel",
    "to_dense": "to_dense() was called",
    "optimizer": "the optimizer needs a dense gradient",
}
ONCE_HINT = (
    " This is said once (on_densify='once', the default); later densifications are recorded "
    "as events on the backward steps. mg.sparse.config(on_densify='warn') reports each one, "
    "on_densify=None none, and densify='never' (PyTorch's behaviour) keeps gradients sparse."
)

DENSIFY_HINT = (
    " To keep it sparse, make every contribution sparse (e.g. Embedding(sparse=True) for all "
    "uses of the weight), or allow it with mg.sparse.config(on_densify=None)."
)

NO_SPARSE_KERNEL = (
    "{op} has no sparse kernel for a {layout} tensor; call .to_dense() first (that makes a "
    "dense copy of {shape}: {nbytes}), or use an op from minigrad.sparse"
)
SPARSE_CONSTRUCTOR = (
    "SparseTensor is not built directly: use minigrad.sparse_coo_tensor, sparse_csr_tensor, "
    "sparse_csc_tensor or dense.to_sparse()"
)
SPARSE_NORM_DIM = (
    "norm of a sparse tensor: only full reductions are supported, so 'dim' must be None or "
    "contain all {ndim} dims, got {dim} (as in PyTorch; call .to_dense() first)"
)
UNCOALESCED = "Cannot get {what} on an uncoalesced tensor, please call .coalesce() first"
LAYOUT_ONLY = "{method}() is only defined for {layouts} tensors, but this tensor is {layout}"
NOT_SPARSE = "{what} expects a sparse tensor, got a {layout} one"
SPARSE_VALUES_GRAD = (
    "sparse_coo_tensor: values of dtype {dtype} cannot require grad; use a floating point dtype"
)

# --- sparse ops: mm, addmm, sum, mul, transpose (minigrad.sparse.ops) --------------------------
OP_NEEDS_SPARSE = (
    "{op}: {arg} must be a sparse tensor (layout sparse_coo, sparse_csr or sparse_csc), "
    "got a {layout} tensor{hint}"
)
OP_NEEDS_DENSE = (
    "{op}: {arg} must be a dense (strided) tensor, got a {layout} tensor; "
    "sparse @ sparse and sparse * sparse are not supported, call {arg}.to_dense() first"
)
OP_NOT_TENSOR = "{op}: {arg} must be a minigrad Tensor, got {got}"
MM_SPARSE_NDIM = (
    "{op}: the sparse operand must be a 2-D matrix (2 sparse dims, 0 dense dims), got a {layout} "
    "tensor of shape {shape} with {sd} sparse and {dd} dense dims"
)
MM_DENSE_NDIM = "{op}: the dense operand must be {accepted}, got shape {shape} ({ndim}-D)"
MM_SHAPE = (
    "{op}: mat1 and mat2 shapes cannot be multiplied ({sa} and {sb}): mat1 has {ka} columns "
    "but mat2 has {kb} rows"
)
OP_DTYPE = (
    "{op}: {a} has dtype {da} but {b} has dtype {db}; both must have the same dtype "
    "(convert one with .to({da}) or .to({db}))"
)
OP_KERNEL_DTYPE = (
    "{op}: dtype {dtype} has no sparse kernel; use a floating point or integer dtype "
    "(float16, float32, float64, int8 ... int64)"
)
ADDMM_INPUT = "{op}: input of shape {shape} cannot be broadcast to the result shape {out}"
MUL_SHAPE = (
    "{op}: the dense operand of shape {dshape} cannot be broadcast to the sparse operand's shape "
    "{sshape} (the result keeps the sparse operand's shape and pattern)"
)
MUL_OPERAND = "{op}: expected a Python number or a dense Tensor, got {got}"
SUM_KEEPDIM = (
    "sum: keepdim=True is not supported for sparse tensors; sum without it and reshape the dense "
    "result, or use minigrad.sparse.sum"
)
T_DIMS = (
    "t() expects a sparse tensor with at most 2 sparse dims and 0 dense dims, got {sd} sparse "
    "and {dd} dense dims (shape {shape}); use transpose(dim0, dim1) for COO sparse dims"
)
PERMUTE_MIXED = (
    "permute({layout}): dims {dims} move a sparse dim among the dense ones; only reorderings "
    "within the sparse dims and within the dense dims are supported (as in PyTorch)"
)
GCN_EDGE_INDEX = "{op}: edge_index must be an integer array of shape (2, num_edges), got {what}"
GCN_EDGE_RANGE = "{op}: edge_index holds node {got}, but num_nodes is {n} (nodes are 0 .. {last})"
GCN_WEIGHT_SHAPE = (
    "gcn_norm: edge_weight must have shape ({e},) (one weight per column of edge_index), "
    "got {shape}"
)
GCN_LAYOUT = "gcn_norm: layout must be 'sparse_csr', 'sparse_coo' or 'sparse_csc', got {got!r}"
GCN_ADJ = (
    "GCNConv: adj must be a sparse (n, n) adjacency (build it with minigrad.nn.gcn_norm), "
    "got {what}"
)

# --- lookups: embedding, embedding_bag, index_select, gather (minigrad.sparse.embedding) ---------
INDEX_NOT_TENSOR = "{op}(): argument '{arg}' must be a Tensor of int64 or int32 indices, not {got}"
INDEX_DTYPE = (
    "Expected tensor for argument '{arg}' to have one of the following scalar types: Long, Int; "
    "but got {dtype} instead (while checking arguments for {op})"
)
INDEX_RANGE = (
    "index out of range in self: {op}() found index {index} at position {pos} of '{arg}', but "
    "{what} has size {size}; indices must be in [0, size - 1]"
)
INDEX_SELECT_VECTOR = (
    "index_select(): Index is supposed to be a vector, got a tensor of shape {shape}"
)
INDEX_SELECT_SCALAR = "index_select(): Index to scalar can have only 1 value, got {n} value(s)"
GATHER_NDIM = (
    "Index tensor must have the same number of dimensions as input tensor: index has {got} "
    "dims, input has {want}"
)
GATHER_SIZE = (
    "Size does not match at dimension {k} expected index {index} to be no larger than self "
    "{shape} apart from dimension {dim}"
)
WEIGHT_NOT_TENSOR = "embedding(): argument 'weight' must be a Tensor, not {got}"
WEIGHT_2D = "'weight' must be 2-D (num_embeddings, embedding_dim), got a tensor of shape {shape}"
WEIGHT_SHAPE = "Shape of weight {got} does not match num_embeddings and embedding_dim {want}"
PADDING_RANGE = (
    "Padding_idx must be within num_embeddings: got padding_idx={got} for {num} embeddings; "
    "use an index in [-{num}, {hi}] or None"
)
BAG_INPUT_DIM = "input has to be 1D or 2D Tensor, but got Tensor of dimension {ndim}"
BAG_OFFSETS_2D = (
    "if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed "
    "length sequences. However, found offsets of type {got}"
)
BAG_NEEDS_OFFSETS = "offsets has to be a 1D Tensor but got None (a 1-D input needs offsets)"
BAG_OFFSETS_DIM = "offsets has to be a 1D Tensor, but got a Tensor of dimension {ndim}"
BAG_OFFSETS_START = (
    "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
    "position 0. However, got {got}"
)
BAG_OFFSETS_ORDER = (
    "offsets must be non-decreasing and at most the input's length {n}: offsets[{i}] = {got} "
    "comes after {prev}"
)
BAG_MODE = "mode has to be one of sum, mean or max, got {got!r}"
BAG_PSW_MODE = (
    "embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for "
    "mode='sum' (got mode='{mode}')"
)
BAG_PSW_SHAPE = (
    "embedding_bag: If per_sample_weights ({got}) is not None, then it must have the same shape "
    "as the input ({want})"
)

# --- optimizers and clipping with sparse gradients -------------------------------------------------
SPARSE_PARAM = (
    "{name} updates dense parameters only, but parameter {i} is itself sparse ({layout}); a "
    "sparse *gradient* of a dense parameter is fine"
)
