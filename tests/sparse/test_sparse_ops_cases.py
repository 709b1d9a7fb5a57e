"""The op table of the sparse-op tests (no tests here): each sparse op and its dense twin.

Each row is ``(name, op, dense_op, dense_shape, semantics)``:

* ``op(S, D)`` runs the sparse op (``D`` is None when the op has no dense operand);
* ``dense_op(A, D)`` is the same computation on the dense equivalent ``A`` of ``S``,
  with minigrad's dense ops (themselves checked against numpy and PyTorch);
* ``dense_shape(rows, cols)`` is the shape of ``D`` for an S of that shape;
* ``semantics`` says what S's gradient must be: ``"masked"`` (sparse, S's pattern, the
  dense gradient at the stored coordinates) or ``"full"`` (the dense gradient).
"""

import numpy as np

import minigrad as mg

ADDMM_INPUT_SEED = 3


def _addmm_input(rows, k):
    return mg.tensor(np.random.default_rng(ADDMM_INPUT_SEED).standard_normal((rows, k)))


def _addmm(S, D):
    inp = _addmm_input(S.shape[0], D.shape[1]).to(D.dtype)
    return mg.sparse.addmm(inp, S, D, beta=0.5, alpha=2.0)


def _addmm_dense(A, D):
    inp = _addmm_input(A.shape[0], D.shape[1]).to(D.dtype)
    return 0.5 * inp + 2.0 * (A @ D)


# fmt: off
OPS = [
    # products, masked (torch.sparse.mm / addmm)
    ("sparse.mm", mg.sparse.mm, lambda A, D: A @ D, lambda n, m: (m, 3), "masked"),
    ("sparse.mm dense@S", lambda S, D: mg.sparse.mm(D, S), lambda A, D: D @ A, lambda n, m: (2, n), "masked"),
    ("sparse.addmm", _addmm, _addmm_dense, lambda n, m: (m, 2), "masked"),
    # products, full (torch.mm / matmul / @)
    ("mg.mm", mg.mm, lambda A, D: A @ D, lambda n, m: (m, 3), "full"),
    ("mg.matmul", mg.matmul, lambda A, D: A @ D, lambda n, m: (m, 3), "full"),
    ("S @ D", lambda S, D: S @ D, lambda A, D: A @ D, lambda n, m: (m, 2), "full"),
    ("S.mm(D)", lambda S, D: S.mm(D), lambda A, D: A @ D, lambda n, m: (m, 2), "full"),
    ("S @ v", lambda S, D: S @ D, lambda A, D: A @ D, lambda n, m: (m,), "full"),
    ("D @ S", lambda S, D: D @ S, lambda A, D: D @ A, lambda n, m: (3, n), "full"),
    ("mg.mm(D, S)", lambda S, D: mg.mm(D, S), lambda A, D: D @ A, lambda n, m: (3, n), "full"),
    ("v @ S", lambda S, D: D @ S, lambda A, D: D @ A, lambda n, m: (n,), "full"),
    # pattern-keeping ops: the gradient arrives sparse (through to_dense), so it is masked
    ("S * D", lambda S, D: S * D, lambda A, D: A * D, lambda n, m: (n, m), "masked"),
    ("D * S", lambda S, D: D * S, lambda A, D: D * A, lambda n, m: (n, m), "masked"),
    ("S * row", lambda S, D: S * D, lambda A, D: A * D, lambda n, m: (m,), "masked"),
    ("S * col", lambda S, D: S.mul(D), lambda A, D: A * D, lambda n, m: (n, 1), "masked"),
    ("S * 0-d", lambda S, D: S * D, lambda A, D: A * D, lambda n, m: (), "masked"),
    ("S * 2.5", lambda S, D: S * 2.5, lambda A, D: A * 2.5, None, "masked"),
    ("3 * S", lambda S, D: 3 * S, lambda A, D: 3 * A, None, "masked"),
    ("S / 4", lambda S, D: S / 4, lambda A, D: A / 4, None, "masked"),
    ("-S", lambda S, D: -S, lambda A, D: -A, None, "masked"),
    ("S.t()", lambda S, D: S.t(), lambda A, D: A.t(), None, "masked"),
    ("S.transpose(0, 1)", lambda S, D: S.transpose(0, 1), lambda A, D: A.t(), None, "masked"),
    ("S.transpose(-1, 0)", lambda S, D: S.transpose(-1, 0), lambda A, D: A.t(), None, "masked"),
    ("S.transpose(1, 1)", lambda S, D: S.transpose(1, 1), lambda A, D: A, None, "masked"),
    # sums: torch.sparse.sum is masked, Tensor.sum is full
    ("sparse.sum", lambda S, D: mg.sparse.sum(S), lambda A, D: A.sum(), None, "masked"),
    ("sparse.sum(0)", lambda S, D: mg.sparse.sum(S, 0), lambda A, D: A.sum(0), None, "masked"),
    ("sparse.sum(-1)", lambda S, D: mg.sparse.sum(S, -1), lambda A, D: A.sum(1), None, "masked"),
    ("sparse.sum((0, 1))", lambda S, D: mg.sparse.sum(S, (0, 1)), lambda A, D: A.sum(), None, "masked"),
    ("S.sum()", lambda S, D: S.sum(), lambda A, D: A.sum(), None, "full"),
    ("S.sum(1)", lambda S, D: S.sum(1), lambda A, D: A.sum(1), None, "full"),
    ("S.sum(dim=[0])", lambda S, D: S.sum(dim=[0]), lambda A, D: A.sum(0), None, "full"),
    # compositions: a full gradient stays full through the pattern-keeping ops
    ("(2 * S) @ D", lambda S, D: (2 * S) @ D, lambda A, D: (2 * A) @ D, lambda n, m: (m, 2), "full"),
    ("(-S).t() full", lambda S, D: mg.mm(D, (-S).t()), lambda A, D: D @ (-A).t(), lambda n, m: (3, m), "full"),
    ("(S * D).sum() full", lambda S, D: (S * D).sum(), lambda A, D: (A * D).sum(), lambda n, m: (n, m), "full"),
    ("sparse.mm(S.t(), D)", lambda S, D: mg.sparse.mm(S.t(), D), lambda A, D: A.t() @ D, lambda n, m: (n, 2), "masked"),
]
# fmt: on


# --- sparse inputs ---------------------------------------------------------------------------
SHAPES = [(4, 5), (5, 3), (3, 4, "empty"), (0, 3), (3, 0), (1, 1)]
LAYOUTS = ["coo", "coo+dup", "csr", "csr+dup", "csc"]


def pattern(shape, rng):
    """Random stored coordinates (one explicit zero among them) and their values."""
    n, m = shape[:2]
    if len(shape) == 3 or n * m == 0:
        return np.zeros((2, 0), np.int64), np.zeros(0)
    mask = rng.random((n, m)) < 0.45
    mask.flat[rng.integers(n * m)] = True
    idx = np.stack(np.nonzero(mask)).astype(np.int64)
    vals = rng.standard_normal(idx.shape[1])
    vals[rng.integers(len(vals))] = 0.0  # an explicit zero: still stored, still gets a gradient
    return idx, vals


def with_duplicates(idx, vals, rng):
    """Split some entries in two (same coordinate, values adding up) and shuffle."""
    if idx.shape[1] == 0:
        return idx, vals
    split = rng.random(idx.shape[1]) < 0.5
    split[0] = True
    part = rng.standard_normal(int(split.sum()))
    first = vals.copy()
    first[split] -= part
    idx2 = np.concatenate([idx, idx[:, split]], axis=1)
    vals2 = np.concatenate([first, part])
    order = rng.permutation(idx2.shape[1])
    return idx2[:, order], vals2[order]


def make(shape, layout, dtype=mg.float64, seed=0, requires_grad=True):
    """``(S, coords)``: a random sparse tensor of ``shape`` and its stored coordinates
    (in storage order). ``layout`` is coo, csr or csc, with "+dup" for duplicates
    (an uncoalesced COO, a non-canonical CSR with repeated, unsorted columns)."""
    rng = np.random.default_rng(seed)
    size = tuple(shape[:2])
    idx, vals = pattern(shape, rng)
    if layout.endswith("+dup"):
        idx, vals = with_duplicates(idx, vals, rng)
    vals = vals.astype(dtype.np)
    if layout.startswith("coo"):
        return mg.sparse_coo_tensor(idx, vals, size, requires_grad=requires_grad), idx
    by_row = layout.startswith("csr")
    major, minor = (idx[0], idx[1]) if by_row else (idx[1], idx[0])
    order = np.argsort(major, kind="stable")
    ptr = np.zeros((size[0] if by_row else size[1]) + 1, np.int64)
    np.cumsum(np.bincount(major, minlength=len(ptr) - 1), out=ptr[1:])
    maker = mg.sparse_csr_tensor if by_row else mg.sparse_csc_tensor
    S = maker(ptr, minor[order], vals[order], size, requires_grad=requires_grad)
    return S, idx[:, order]


def mask_of(coords, shape):
    """Boolean array: True at every stored coordinate."""
    m = np.zeros(shape, dtype=bool)
    m[tuple(coords)] = True
    return m
