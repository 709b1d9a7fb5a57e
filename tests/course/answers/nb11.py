"""Answers to notebook 11's exercises (sparse applications)."""

from tests.course.answers import Exercise

# Exercise 2 (build it): the exercise cell holds two functions; each answer below is a
# version of sddmm_backward followed by a version of gcn_layer_backward.
SDDMM_REF = """def sddmm_backward(indices, values, B, grad_C):
    rows, cols = indices
    grad_values = (grad_C[rows] * B[cols]).sum(axis=1)
    grad_B = np.zeros_like(B)
    np.add.at(grad_B, cols, values[:, None] * grad_C[rows])
    return grad_values, grad_B
"""
SDDMM_SCIPY = """def sddmm_backward(indices, values, B, grad_C):
    i, j = indices
    sampled = np.einsum("ek,ek->e", grad_C[i], B[j])
    A_T = scipy.sparse.coo_array((values, (j, i)), shape=(B.shape[0], grad_C.shape[0]))
    return sampled, A_T @ grad_C
"""
SDDMM_BINCOUNT = """def sddmm_backward(indices, values, B, grad_C):
    rows, cols = np.asarray(indices)
    dots = np.zeros(len(values))
    for col in range(B.shape[1]):  # one feature column at a time
        dots += grad_C[rows, col] * B[cols, col]
    columns = [np.bincount(cols, weights=values * grad_C[rows, col], minlength=len(B))
               for col in range(B.shape[1])]
    return dots, np.stack(columns, axis=1)
"""
GCN_REF = """

def gcn_layer_backward(adj, H, W, grad_out):
    AH = adj @ H
    Z = AH @ W
    grad_Z = grad_out * (Z > 0)
    grad_W = AH.T @ grad_Z
    grad_H = adj.T @ (grad_Z @ W.T)
    return grad_H, grad_W"""
GCN_WHERE = """

def gcn_layer_backward(adj, H, W, grad_out):
    out = np.maximum(adj @ (H @ W), 0)
    delta = np.where(out > 0, grad_out, 0.0)
    back = adj.transpose() @ delta  # (n_in, f_out)
    return back @ W.T, (adj @ H).T @ delta"""
GCN_CHAIN = """

def gcn_layer_backward(adj, H, W, grad_out):
    HW = H @ W
    pre = adj @ HW
    g_pre = grad_out.copy()
    g_pre[pre <= 0] = 0
    g_HW = adj.T @ g_pre
    return g_HW @ W.T, H.T @ g_HW"""
SDDMM_DENSE = """def sddmm_backward(indices, values, B, grad_C):
    rows, cols = indices
    grad_values = (grad_C @ B.T)[rows, cols]
    grad_B = np.zeros_like(B)
    np.add.at(grad_B, cols, values[:, None] * grad_C[rows])
    return grad_values, grad_B
"""
SDDMM_DENSE_A = """def sddmm_backward(indices, values, B, grad_C):
    rows, cols = indices
    A = np.zeros((len(grad_C), len(B)))
    A[rows, cols] = values
    return (grad_C[rows] * B[cols]).sum(axis=1), A.T @ grad_C
"""
SDDMM_NO_T = """def sddmm_backward(indices, values, B, grad_C):
    rows, cols = indices
    grad_values = (grad_C[rows] * B[cols]).sum(axis=1)
    grad_B = np.zeros_like(B)
    np.add.at(grad_B, rows, values[:, None] * grad_C[cols])
    return grad_values, grad_B
"""
SDDMM_TIMES_VALUES = """def sddmm_backward(indices, values, B, grad_C):
    rows, cols = indices
    grad_values = values * (grad_C[rows] * B[cols]).sum(axis=1)
    grad_B = np.zeros_like(B)
    np.add.at(grad_B, cols, values[:, None] * grad_C[rows])
    return grad_values, grad_B
"""
SDDMM_SWAPPED = """def sddmm_backward(indices, values, B, grad_C):
    rows, cols = indices
    grad_values = (grad_C[cols] * B[rows]).sum(axis=1)
    grad_B = np.zeros_like(B)
    np.add.at(grad_B, cols, values[:, None] * grad_C[rows])
    return grad_values, grad_B
"""
SDDMM_ASSIGN = """def sddmm_backward(indices, values, B, grad_C):
    rows, cols = indices
    grad_values = (grad_C[rows] * B[cols]).sum(axis=1)
    grad_B = np.zeros_like(B)
    grad_B[cols] += values[:, None] * grad_C[rows]
    return grad_values, grad_B
"""
GCN_SYM = """

def gcn_layer_backward(adj, H, W, grad_out):
    AH = adj @ H
    grad_Z = grad_out * (AH @ W > 0)
    return adj @ (grad_Z @ W.T), AH.T @ grad_Z"""
GCN_NO_MASK = """

def gcn_layer_backward(adj, H, W, grad_out):
    AH = adj @ H
    return adj.T @ (grad_out @ W.T), AH.T @ grad_out"""
GCN_MASK_AH = """

def gcn_layer_backward(adj, H, W, grad_out):
    AH = adj @ H
    grad_Z = grad_out * (AH > 0)
    return adj.T @ (grad_Z @ W.T), AH.T @ grad_Z"""
GCN_NO_ADJ_W = """

def gcn_layer_backward(adj, H, W, grad_out):
    grad_Z = grad_out * (adj @ H @ W > 0)
    return adj.T @ (grad_Z @ W.T), H.T @ grad_Z"""
GCN_W_T = """

def gcn_layer_backward(adj, H, W, grad_out):
    AH = adj @ H
    grad_Z = grad_out * (AH @ W > 0)
    return adj.T @ (grad_Z @ W.T), grad_Z.T @ AH"""
GCN_DENSE = """

def gcn_layer_backward(adj, H, W, grad_out):
    A = adj.toarray()
    grad_Z = grad_out * (A @ H @ W > 0)
    return A.T @ grad_Z @ W.T, (A @ H).T @ grad_Z"""
GCN_TODO = """

def gcn_layer_backward(adj, H, W, grad_out):
    grad_H = ...  # (n_in, f_in)
    grad_W = ...  # (f_in, f_out)
    return grad_H, grad_W"""

RIGHT_2 = (SDDMM_REF + GCN_REF, SDDMM_SCIPY + GCN_WHERE, SDDMM_BINCOUNT + GCN_CHAIN)
WRONG_2 = (
    (SDDMM_DENSE + GCN_REF, "it forms an n x m matrix"),
    (SDDMM_DENSE_A + GCN_REF, "it forms an n x m matrix"),
    (SDDMM_NO_T + GCN_REF, "the transpose is missing"),
    (SDDMM_TIMES_VALUES + GCN_REF, "holds no A[i, j]"),
    (SDDMM_SWAPPED + GCN_REF, "rows and columns are swapped"),
    (SDDMM_ASSIGN + GCN_REF, "A^T @ grad_C"),
    (SDDMM_REF + GCN_SYM, "not symmetric"),
    (SDDMM_REF + GCN_NO_MASK, "relu's backward is missing"),
    (SDDMM_REF + GCN_MASK_AH, "mask is taken on the wrong tensor"),
    (SDDMM_REF + GCN_NO_ADJ_W, "W multiplies Â H, not H"),
    (SDDMM_REF + GCN_W_T, "not its transpose"),
    (SDDMM_REF + GCN_DENSE, "makes Â (or an n x n product) dense"),
    (SDDMM_REF + GCN_TODO, "gcn_layer_backward is not answered yet"),
)

EXERCISES = {
    1: Exercise(
        right=(
            "answer_1 = [190, 17]",
            "answer_1 = (190.0, 17.0)",
            "answer_1 = np.array([2 * 78 + 34, 16 + 1])",
            "answer_1 = [2 * G.number_of_edges() + n, G.degree[0] + 1]",
        ),
        wrong=(
            ("answer_1 = [156, 17]", "self loops"),
            ("answer_1 = [156, 16]", "self loops"),
            ("answer_1 = [190, 16]", "self loop"),
            ("answer_1 = [n * n, 17]", "own pattern"),
            ("answer_1 = [190, 190]", "which out[i]"),
            ("answer_1 = [190, n]", "row 0"),
            ("answer_1 = [78, 17]", "both directions"),
            ("answer_1 = [190]", "(2 items)"),
        ),
    ),
    2: Exercise(right=RIGHT_2, wrong=WRONG_2),
    3: Exercise(
        right=(
            "answer_3 = [2048, 910, 0.0091]",
            "answer_3 = (2048.0, 910.0, 0.91 / 100)",
            "answer_3 = np.array([2048, 910, 910 / 100_000])",
            "answer_3 = [len(b), len(np.unique(items[b])), np.unique(items[b]).size / n_items]",
            "distinct = len(set(items[b].tolist()))\nanswer_3 = [b.size, distinct, distinct / n_items]",
        ),
        wrong=(
            ("answer_3 = [2048, 2048, 2048 / n_items]", "distinct item ids"),
            ("answer_3 = [910, 910, 0.0091]", "one row per lookup"),
            ("answer_3 = [2048, 910, 0.91]", "not a percentage"),
            ("answer_3 = [2048, 910, 910 / 2048]", "over the table's rows"),
            ("answer_3 = [2048, 910, 2048 / n_items]", "coalesced gradient"),
            ("answer_3 = [2048, 910]", "(3 items)"),
        ),
    ),
    4: Exercise(
        right=(
            "answer_4 = [4, 18]",
            "answer_4 = (4.0, 18.0)",
            "answer_4 = np.array([4, 3 * 6])",
            "answer_4 = [len([5, 6, 7, 8]), 3 * 6]",
        ),
        wrong=(
            ("answer_4 = [18, 18]", "submanifold count"),
            ("answer_4 = [4, 6]", "one row above"),
            ("answer_4 = [4, 12]", "one column beyond"),
            ("answer_4 = [4, 4]", "touches the stroke"),
            ("answer_4 = [4, 30]", "not two"),
            ("answer_4 = [4]", "(2 items)"),
        ),
    ),
}
