"""Shared inputs of the sparse-attention tests (no tests here): sparse patterns in every layout,
with empty rows, duplicates and explicit zeros, and dense references.

A case is ``(name, layout, indices, values, shape)``; ``sparse(case)`` builds the float64
tensor. Duplicates are only possible in COO (a CSR/CSC built from the same entries has them
summed by the conversion).
"""

import numpy as np

import minigrad as mg

RNG_SEED = 0
LAYOUTS = ("sparse_coo", "sparse_csr", "sparse_csc")


def _random_entries(rng, shape, nnz):
    rows = rng.integers(0, shape[0], nnz)
    cols = rng.integers(0, shape[1], nnz)
    return np.stack([rows, cols]), rng.standard_normal(nnz)


def _cases():
    rng = np.random.default_rng(RNG_SEED)
    idx, val = _random_entries(rng, (6, 5), 14)
    idx[0, :4] = 2  # row 2 stores four entries ...
    idx[0][idx[0] == 4] = 3  # ... and row 4 stores none
    base = [
        ("random 6x5, empty row", idx, val, (6, 5)),
        ("explicit zeros", np.array([[0, 0, 1], [1, 2, 0]]), np.array([0.0, 1.5, 0.0]), (2, 3)),
        ("one entry", np.array([[1], [2]]), np.array([0.7]), (3, 4)),
        ("nnz 0", np.zeros((2, 0), np.int64), np.zeros(0), (3, 2)),
        ("zero rows", np.zeros((2, 0), np.int64), np.zeros(0), (0, 4)),
        ("full 3x3", np.indices((3, 3)).reshape(2, -1), rng.standard_normal(9), (3, 3)),
    ]
    dup = np.array([[0, 1, 0, 2, 1, 0], [1, 0, 1, 2, 0, 3]])  # (0, 1) and (1, 0) twice
    out = [(f"{name} {lay}", lay, i, v, s) for name, i, v, s in base for lay in LAYOUTS]
    out.append(("duplicates coo", "sparse_coo", dup, rng.standard_normal(6), (3, 4)))
    return out


def sparse(case, requires_grad=False, dtype=mg.float64):
    """The case as a minigrad sparse tensor of its layout (COO left uncoalesced)."""
    _, layout, idx, val, shape = case
    s = mg.sparse_coo_tensor(idx, val, shape, dtype=dtype)
    if layout != "sparse_coo":
        s = s.to_sparse(layout)
    return s.requires_grad_() if requires_grad else s


def dense(case) -> np.ndarray:
    """The dense equivalent (duplicates summed)."""
    _, _, idx, val, shape = case
    out = np.zeros(shape)
    np.add.at(out, tuple(idx), val)
    return out


def stored(case) -> np.ndarray:
    """Boolean (n, m): which positions are stored."""
    _, _, idx, _, shape = case
    out = np.zeros(shape, bool)
    out[tuple(idx)] = True
    return out


def masked_softmax(x: np.ndarray, mask: np.ndarray, axis: int, log: bool = False) -> np.ndarray:
    """numpy reference: softmax of x over the stored positions along ``axis``; 0 elsewhere."""
    s = np.where(mask, x, -np.inf)
    top = np.max(s, axis=axis, keepdims=True, initial=-np.inf)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.where(mask, np.exp(s - top), 0.0)
    total = e.sum(axis=axis, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.log(e / total) if log else e / total
    return np.where(mask, out, 0.0)


CASES = _cases()
CASE_IDS = [c[0] for c in CASES]
