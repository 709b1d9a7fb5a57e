"""The same programs for minigrad and PyTorch (``lib`` is ``minigrad`` or ``torch``).

Data for tests/viz/test_torch_graph.py; not collected itself. Every value is a small multiple
of 1/4, so both libraries compute the same float32 numbers and print the same digits.
"""

import re

import numpy as np

X = (np.arange(12, dtype=np.float32).reshape(4, 3) - 5) / 4
W1 = (np.arange(12, dtype=np.float32).reshape(4, 3) % 5 - 2) / 2
B1 = np.array([0.5, -0.25, 0.0, 1.0], np.float32)
W2 = np.array([[1.0, -0.5, 0.25, 2.0], [0.5, 0.5, -1.0, 0.0]], np.float32)
B2 = np.array([0.25, -0.5], np.float32)
ROWS, COLS = np.array([0, 0, 1, 2, 3, 3]), np.array([0, 1, 1, 2, 0, 3])
VALS = np.array([0.5, 0.5, 1.0, 1.0, 0.5, 0.5], np.float32)  # a row-normalised adjacency
IDX = np.array([1, 3, 3, 0])


def mlp(lib):
    """Two layers written out (``nn.Linear`` is one ``AddmmBackward0`` node in torch)."""
    p = {n: lib.tensor(a, requires_grad=True) for n, a in (("W1", W1), ("b1", B1), ("W2", W2))}
    p["b2"] = lib.tensor(B2, requires_grad=True)
    h = (lib.tensor(X) @ p["W1"].t() + p["b1"]).relu()
    out = h @ p["W2"].t() + p["b2"]
    return (out * out).mean(), p


def _adjacency(lib, requires_grad=False):
    return lib.sparse_coo_tensor(np.stack([ROWS, COLS]), VALS, (4, 4)).requires_grad_(requires_grad)


def gcn(lib, learn_adjacency=False):
    """Two graph convolutions with a sparse adjacency (``torch.sparse.mm``)."""
    a = _adjacency(lib, learn_adjacency)
    p = {"W1": lib.tensor(W1[:, :3].T.copy(), requires_grad=True)}
    p["W2"] = lib.tensor(W2.T.copy(), requires_grad=True)
    if learn_adjacency:
        p["A"] = a
    h = lib.sparse.mm(a, lib.tensor(X) @ p["W1"]).relu()
    out = lib.sparse.mm(a, h @ p["W2"])
    return (out * out).sum(), p


def gcn_learned_adjacency(lib):
    return gcn(lib, learn_adjacency=True)


def tied(lib):
    """Tied embeddings: the table is looked up (a sparse gradient) and is the output layer
    (a dense one); the two meet in one leaf, which torch densifies without a word."""
    w = lib.tensor(W1, requires_grad=True)
    e = lib.nn.functional.embedding(lib.tensor(IDX), w, sparse=True)
    logits = e @ w.t()
    return (logits * logits).sum(), {"W": w}


def sparse_meets_dense_inside(lib, dense_first=False):
    """A computed table (not a leaf) looked up sparsely and used densely: torch's input
    buffer of ``MulBackward0`` sums the two gradients, dense, before the node runs."""
    w = lib.tensor(W1, requires_grad=True)
    v = w * 2.0
    looked_up = lib.nn.functional.embedding(lib.tensor(IDX), v, sparse=True).sum()
    dense = (v * v).sum()
    return (dense + looked_up if dense_first else looked_up + dense), {"W": w}


def sparse_meets_dense_later(lib):
    return sparse_meets_dense_inside(lib, dense_first=True)


PROGRAMS = (
    mlp,
    gcn,
    gcn_learned_adjacency,
    tied,
    sparse_meets_dense_inside,
    sparse_meets_dense_later,
)
_OP = re.compile(r"\b[A-Z][A-Za-z]*Backward\d*\b")


def modulo_names(text: str) -> str:
    """``text`` with every op name (``MulBackward``, ``MmBackward0``) replaced by ``Op``."""
    return _OP.sub("Op", text)
