"""GCN layer on a big sparse graph: minigrad and PyTorch (CPU, one thread), each in its own process.

A constant normalised adjacency ``A`` (``minigrad.nn.gcn_norm``: 200,000 nodes,
2,000,000 random directed edges plus self loops, seeded) in CSR, 64 features, and::

    minigrad.sparse.mm(A, X @ W).relu().sum().backward()     # minigrad
    torch.sparse.mm(A_csr, X @ W).relu().sum().backward()    # PyTorch, same arrays

``W`` (64 x 64) is the learnable weight; ``X`` the input features (constant, as in a
first layer; ``--x-requires-grad`` makes it learnable too, as in a deeper layer).
minigrad's products run on scipy.sparse's CSR / CSC kernels: forward ``A @ H``, and
backward ``A^T @ dC`` reading the same arrays as a CSC (no transpose copy).

As a user runs it (benchmarks/_processes.py): each library in a fresh process that
imports only that library, no MALLOC_* variables, one thread (``torch.set_num_threads(1)``,
``OPENBLAS_NUM_THREADS=1`` for numpy's ``X @ W``). A first minigrad process builds the
adjacency with ``gcn_norm`` and saves its CSR arrays, ``X`` and ``W`` to a temporary
``.npz``; every timed process loads those same arrays into its library's CSR tensor.
Processes alternate (minigrad, PyTorch, ...) for ``--rounds`` rounds; each times one
warm-up step and ``--steps`` steps and reports their medians; the table shows the median
over the rounds and the range of the per-round ratios. ``W.grad`` is compared between the
libraries. Target: <= 1.5x PyTorch. Run:
``python benchmarks/bench_sparse_gcn.py [--rounds N] [--steps N] [--x-requires-grad]``.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
from _processes import Job, alternate, import_library, ratio_cell, run, target_cell, versions

N_NODES, N_EDGES, FEATURES = 200_000, 2_000_000, 64


def prepare(path: str, seed: int = 0) -> int:
    """In a minigrad process: the adjacency (gcn_norm, CSR) and the features, saved to ``path``."""
    mg = import_library("minigrad")
    rng = np.random.default_rng(seed)
    edges = rng.integers(0, N_NODES, (2, N_EDGES))
    adj = mg.nn.gcn_norm(edges, N_NODES)  # float32 CSR, no grad
    x = rng.standard_normal((N_NODES, FEATURES), dtype=np.float32)
    w = rng.standard_normal((FEATURES, FEATURES), dtype=np.float32) / 8
    crow, col, values = (t.numpy() for t in (adj.crow_indices(), adj.col_indices(), adj.values()))
    np.savez(path, crow=crow, col=col, values=values, x=x, w=w)
    return int(len(values))


def adjacency(library: str, lib, arrays):
    """The saved CSR arrays as the library's (constant) sparse CSR tensor."""
    parts = (arrays["crow"], arrays["col"], arrays["values"])
    shape = (N_NODES, N_NODES)
    if library == "minigrad":
        return lib.sparse_csr_tensor(*parts, shape, check_invariants=False)
    warnings.filterwarnings("ignore", message="Sparse CSR tensor support is in beta state")
    parts = tuple(lib.from_numpy(p) for p in parts)
    return lib.sparse_csr_tensor(*parts, shape, check_invariants=False)  # canonical already


def step(lib, adj, x, w, x_grad: bool) -> tuple[float, float, np.ndarray]:
    """The same code for both libraries: forward and backward seconds, and ``W.grad``."""
    X = lib.from_numpy(x).requires_grad_(x_grad)
    W = lib.from_numpy(w.copy()).requires_grad_(True)
    t0 = time.perf_counter()
    loss = lib.sparse.mm(adj, X @ W).relu().sum()
    t1 = time.perf_counter()
    loss.backward()
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1, W.grad


def child(library: str, path: str, steps: int, x_grad: bool) -> dict:
    """In a fresh process: median forward, backward and total seconds; ``W.grad``."""
    lib = import_library(library)  # here, not at the top: each child imports one library
    arrays = np.load(path)
    adj, x, w = adjacency(library, lib, arrays), arrays["x"], arrays["w"]
    runs = [step(lib, adj, x, w, x_grad) for _ in range(steps + 1)][1:]
    grad = runs[-1][2]
    grad = grad.numpy()
    return {
        "forward": statistics.median(r[0] for r in runs),
        "backward": statistics.median(r[1] for r in runs),
        "total": statistics.median(r[0] + r[1] for r in runs),
        "w_grad": grad.tolist(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating processes per library")
    parser.add_argument("--steps", type=int, default=3, help="timed steps per process")
    parser.add_argument("--x-requires-grad", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "gcn.npz")
        nnz = run(Job("bench_sparse_gcn:prepare", (path,)))
        job_args = (path, args.steps, args.x_requires_grad)
        runs = alternate(
            {
                lib: Job("bench_sparse_gcn:child", (lib, *job_args), library=lib)
                for lib in ("minigrad", "torch")
            },
            args.rounds,
        )
    mg, th = runs["minigrad"], runs["torch"]
    ref = np.array(th[0]["w_grad"])
    rel = float(np.abs(np.array(mg[0]["w_grad"]) - ref).max() / np.abs(ref).max())
    learn = "X and W" if args.x_requires_grad else "W"
    print(
        f"{versions()}; CSR adjacency, torch.sparse.mm forward and backward; each library in "
        f"its own fresh process, one thread, {args.rounds} alternating rounds of {args.steps} "
        "steps; medians over the rounds (per-round ratio range)"
    )
    print(
        f"GCN layer: {N_NODES:,} nodes, {nnz:,} stored entries (edges + self loops), "
        f"{FEATURES} features, float32; learnable: {learn}; W.grad max rel. diff {rel:.1e}"
    )
    print("| GCN layer | minigrad | PyTorch | ratio | target |")
    print("|---|---|---|---|---|")
    for key, what in (("forward", "forward"), ("backward", "backward"), ("total", "fwd + bwd")):
        a, b = [r[key] for r in mg], [r[key] for r in th]
        target = target_cell(a, b, 1.5) if key == "total" else ""
        print(
            f"| {what} | {statistics.median(a):.3f} s | {statistics.median(b):.3f} s "
            f"| {ratio_cell(a, b)} | {target} |"
        )


if __name__ == "__main__":
    main()
