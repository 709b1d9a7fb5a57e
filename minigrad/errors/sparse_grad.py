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
    "no_sparse_kernel": "the op has no sparse kernel",
    "to_dense": "to_dense() was called",
    "optimizer": "the optimizer needs a dense gradient",
}
DENSIFY_HINT = (
    " To keep it sparse, make every contribution sparse (e.g. Embedding(sparse=True) for all "
    "uses of the weight), or allow it with mg.sparse.config(on_densify=None)."
)

NO_SPARSE_KERNEL = (
    "{op} has no sparse kernel for a {layout} tensor; call .to_dense() first (that makes a "
    "dense copy of {shape}: {nbytes}), or use an op from minigrad.sparse"
)
UNCOALESCED = "Cannot get {what} on an uncoalesced tensor, please call .coalesce() first"
LAYOUT_ONLY = "{method}() is only defined for {layouts} tensors, but this tensor is {layout}"
NOT_SPARSE = "{what} expects a sparse tensor, got a {layout} one"
SPARSE_VALUES_GRAD = (
    "sparse_coo_tensor: values of dtype {dtype} cannot require grad; use a floating point dtype"
)
