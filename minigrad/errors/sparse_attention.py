"""Messages of sparse attention: ``sparse.sampled_addmm``, ``sparse.softmax`` /
``sparse.log_softmax``, ``nn.functional.sparse_attention`` and ``nn.GATConv``.

Where PyTorch has the case the wording follows it (``sampled_addmm: Expected mat1 to be a
matrix, got 1-D tensor``), and each message also says what would be accepted.
"""

NOT_TENSOR = "{op}(): argument '{arg}' must be Tensor, not {got}"
NOT_NUMBER = "{op}(): argument '{arg}' must be a number, not {got}"
NEEDS_SPARSE = (
    "{op}: {arg} must be a sparse tensor (layout sparse_coo, sparse_csr or sparse_csc), got a "
    "{layout} tensor{hint}"
)
NEEDS_MATRIX = (
    "{op}: {arg} must be a sparse 2-D matrix (2 sparse dims, 0 dense dims), got a {layout} "
    "tensor of shape {shape} with {sd} sparse and {dd} dense dims"
)
NEEDS_DENSE = "{op}: Expected {arg} to have strided layout, but got {layout}"
NOT_MATRIX = "{op}: Expected {arg} to be a matrix, got {ndim}-D tensor of shape {shape}"
MM_SHAPE = (
    "{op}: mat1 and mat2 shapes cannot be multiplied ({sa} and {sb}): mat1 has {ka} columns "
    "but mat2 has {kb} rows"
)
INPUT_SHAPE = (
    "{op}: input has shape {shape}, but mat1 @ mat2 has shape {out}; the product is sampled "
    "at input's stored entries, so the two shapes must be equal"
)
DTYPE = (
    "{op}: Expected {a} and {b} to have the same dtype, but got {da} and {db} "
    "(convert one with .to({da}) or .to({db}))"
)
NOT_FLOAT = (
    "{op}: Expected {arg} to be a floating-point tensor, but got {dtype} (use .float() or "
    ".double())"
)

SOFTMAX_HYBRID = (
    "{op}: input has {dd} dense dim(s) (shape {shape}); only sparse tensors without dense "
    "dims are supported (one value per stored entry)"
)

ATTN_NOT_2D = "sparse_attention: {arg} must be 2-D ({want}), got shape {shape}"
ATTN_SHAPES = "sparse_attention: {what}"
ATTN_PATTERN_SHAPE = (
    "sparse_attention: pattern has shape {got}, but q and k need an (n, m) = {want} pattern "
    "(one row per query, one column per key)"
)
ATTN_SCALE = "sparse_attention: scale must be a number or None, got {got}"

GAT_X = "GATConv: x must be a 2-D (num_nodes, {f}) tensor, got shape {shape}"
GAT_HEADS = "GATConv: heads must be a positive int, got {got!r}"

NO_DOUBLE_BACKWARD = (
    "derivative for {name} is not implemented: {what} can be differentiated once (as in "
    "PyTorch, whose sparse softmax has no double backward either); compute the gradient "
    "without create_graph=True"
)
