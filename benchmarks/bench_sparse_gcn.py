"""GCN layer on a big sparse graph, side by side with PyTorch (CPU, one thread, one process).

A constant normalised adjacency ``A`` (``minigrad.nn.gcn_norm``: 200,000 nodes,
2,000,000 random directed edges plus self loops, seeded) in CSR, 64 features, and::

    minigrad.sparse.mm(A, X @ W).relu().sum().backward()     # minigrad
    torch.sparse.mm(A_csr, X @ W).relu().sum().backward()    # PyTorch, same arrays

``W`` (64 x 64) is the learnable weight; ``X`` the input features (constant, as in a
first layer; ``--x-requires-grad`` makes it learnable too, as in a deeper layer).
minigrad's products run on scipy.sparse's CSR / CSC kernels: forward ``A @ H``, and
backward ``A^T @ dC`` reading the same arrays as a CSC (no transpose copy).

Both libraries get one thread: ``torch.set_num_threads(1)``, and for numpy's BLAS
(``X @ W``) the ``*_NUM_THREADS`` variables are set to 1 before numpy is imported.
Runs alternate between the libraries; medians are compared. Target: <= 1.5x PyTorch.
Run: ``python benchmarks/bench_sparse_gcn.py [--repeats N]``.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402

import minigrad as mg  # noqa: E402

N_NODES, N_EDGES, FEATURES = 200_000, 2_000_000, 64


def build(seed: int = 0):
    """The constant adjacency (CSR) and the features, as minigrad tensors."""
    rng = np.random.default_rng(seed)
    edges = rng.integers(0, N_NODES, (2, N_EDGES))
    adj = mg.nn.gcn_norm(edges, N_NODES)  # float32 CSR, no grad
    x = rng.standard_normal((N_NODES, FEATURES), dtype=np.float32)
    w = rng.standard_normal((FEATURES, FEATURES), dtype=np.float32) / 8
    return adj, x, w


def step_minigrad(adj, x, w, x_grad: bool) -> tuple[float, float]:
    X = mg.tensor(x, requires_grad=x_grad)
    W = mg.tensor(w, requires_grad=True)
    t0 = time.perf_counter()
    loss = mg.sparse.mm(adj, X @ W).relu().sum()
    t1 = time.perf_counter()
    loss.backward()
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1


def step_torch(torch, adj, x, w, x_grad: bool) -> tuple[float, float]:
    X = torch.from_numpy(x).requires_grad_(x_grad)
    W = torch.from_numpy(w.copy()).requires_grad_(True)
    t0 = time.perf_counter()
    loss = torch.sparse.mm(adj, X @ W).relu().sum()
    t1 = time.perf_counter()
    loss.backward()
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1


def torch_adjacency(torch, adj):
    d = adj.data
    return torch.sparse_csr_tensor(
        torch.from_numpy(d.crow_indices),
        torch.from_numpy(d.col_indices),
        torch.from_numpy(d.values),
        d.shape,
        check_invariants=False,  # gcn_norm built a canonical CSR
    )


def check_same(torch, adj, tadj, x, w) -> float:
    """Largest relative difference of W's gradient between the two libraries."""
    W = mg.tensor(w, requires_grad=True)
    mg.sparse.mm(adj, mg.tensor(x) @ W).relu().sum().backward()
    Wt = torch.from_numpy(w.copy()).requires_grad_(True)
    torch.sparse.mm(tadj, torch.from_numpy(x) @ Wt).relu().sum().backward()
    ref = Wt.grad.numpy()
    return float(np.abs(W.grad.data - ref).max() / np.abs(ref).max())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--x-requires-grad", action="store_true")
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)
    warnings.filterwarnings("ignore", message="Sparse CSR tensor support is in beta state")
    adj, x, w = build()
    tadj = torch_adjacency(torch, adj)
    rel = check_same(torch, adj, tadj, x, w)
    runs = {"minigrad": [], "torch": []}
    for _ in range(args.repeats):
        runs["minigrad"].append(step_minigrad(adj, x, w, args.x_requires_grad))
        runs["torch"].append(step_torch(torch, tadj, x, w, args.x_requires_grad))
    med = {
        k: [statistics.median(r[i] for r in v) for i in (0, 1)]
        + [statistics.median(a + b for a, b in v)]
        for k, v in runs.items()
    }
    m, t = med["minigrad"], med["torch"]
    learn = "X and W" if args.x_requires_grad else "W"
    print(
        f"torch {torch.__version__} (CSR adjacency, torch.sparse.mm forward and backward), "
        f"numpy {np.__version__}, one thread each, medians of {args.repeats} alternating runs"
    )
    print(
        f"GCN layer: {N_NODES:,} nodes, {adj.nnz:,} stored entries (edges + self loops), "
        f"{FEATURES} features, float32; learnable: {learn}; W.grad max rel. diff {rel:.1e}"
    )
    print("| GCN layer | minigrad | PyTorch | ratio (target) |")
    print("|---|---|---|---|")
    for i, what in enumerate(("forward", "backward", "forward + backward")):
        target = " (<= 1.5x)" if i == 2 else ""
        print(f"| {what} | {m[i]:.3f} s | {t[i]:.3f} s | {m[i] / t[i]:.2f}x{target} |")


if __name__ == "__main__":
    main()
