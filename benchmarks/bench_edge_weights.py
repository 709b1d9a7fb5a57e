"""Learnable edge weights: the memory of the masked gradient, minigrad against PyTorch.

n = 20,000 nodes, nnz = 20,000 random edges whose weights ``w`` require grad, 4
float32 features ``X`` (learnable too)::

    S = sparse_coo_tensor(indices, w, (n, n))
    sparse.mm(S, X).sum().backward()            # w.grad: one number per edge

minigrad computes the gradient of S as an SDDMM, one dot product per edge, so it
needs O(nnz * features) memory. PyTorch's COO backward forms the dense n x n
product dC @ X^T first (1.6 GB in float32 here) and then masks it
(shared/SPARSE_SEMANTICS.md; pytorch#41128). PyTorch's CSR path uses a sampled
product and is shown too.

As a user runs it (benchmarks/_processes.py): each library in a fresh process that
imports only that library, no MALLOC_* variables, one thread; processes alternate
(minigrad, PyTorch CSR, PyTorch COO, ...) for ``--rounds`` rounds. A PyTorch COO run whose
dense product would need more than 8 GB is skipped.

Memory: each process first runs a tiny warm-up (so imports and caches are not counted),
then one full forward + backward, and reports its peak RSS growth over it (``VmHWM``
after resetting it). minigrad's process also measures its peak with tracemalloc (numpy
reports its buffers to it; PyTorch's allocations are invisible to it), from before S is
built until after backward: target <= 10 MB. Time: each process times ``--repeats`` runs
and reports their median; the table shows medians over the rounds. ``w.grad`` is compared
across the libraries. Run: ``python benchmarks/bench_edge_weights.py [--rounds N]``.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
import tracemalloc
import warnings

import numpy as np
from _processes import Job, alternate, import_library, versions

N, NNZ, FEATURES = 20_000, 20_000, 4
LIMIT = 8 * 2**30  # skip a PyTorch run whose dense n x n product would exceed this


def data(seed: int = 0):
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, N, (2, NNZ))
    return idx, rng.random(NNZ, dtype=np.float32), rng.standard_normal((N, FEATURES), np.float32)


def run_minigrad(mg, idx, w0, x0) -> tuple[float, np.ndarray]:
    n = len(x0)
    w = mg.tensor(w0, requires_grad=True)
    x = mg.tensor(x0, requires_grad=True)
    t0 = time.perf_counter()
    mg.sparse.mm(mg.sparse_coo_tensor(idx, w, (n, n)), x).sum().backward()
    return time.perf_counter() - t0, w.grad.numpy()


def run_torch(torch, idx, w0, x0, layout: str) -> tuple[float, np.ndarray]:
    n = len(x0)
    w = torch.from_numpy(w0.copy()).requires_grad_(True)
    x = torch.from_numpy(x0.copy()).requires_grad_(True)
    t0 = time.perf_counter()
    s = torch.sparse_coo_tensor(torch.from_numpy(idx), w, (n, n), check_invariants=False)
    if layout == "csr":
        s = s.coalesce().to_sparse_csr()
    torch.sparse.mm(s, x).sum().backward()
    return time.perf_counter() - t0, w.grad.numpy()


def traced_peak(run, *args) -> int:
    """Peak bytes traced during build + forward + backward (tracemalloc)."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    run(*args)
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    return peak


def child(which: str, repeats: int) -> dict:
    """In a fresh process: peak RSS growth of one forward + backward, then timed runs.

    ``which`` is ``"minigrad"``, or ``"csr"`` / ``"coo"`` for PyTorch's two layouts."""
    lib = import_library("minigrad" if which == "minigrad" else "torch")  # one library each
    if which == "minigrad":
        run = run_minigrad
    else:
        warnings.filterwarnings("ignore", message="Sparse CSR tensor support is in beta state")

        def run(torch, *args):
            return run_torch(torch, *args, which)

    idx, w0, x0 = data()
    run(lib, idx[:, :10] % 100, w0[:10], x0[:100])  # warm-up: imports and caches
    base = _reset_peak_rss()
    _, grad = run(lib, idx, w0, x0)
    result = {"rss_growth": _peak_rss() - base, "w_grad": grad.tolist()}
    result["time"] = statistics.median(run(lib, idx, w0, x0)[0] for _ in range(repeats))
    if which == "minigrad":
        result["traced_peak"] = traced_peak(run, lib, idx, w0, x0)
    return result


def _status_kib(field: str) -> int | None:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def _reset_peak_rss() -> int:
    """Reset the peak-RSS mark to the current RSS (Linux: clear_refs 5); return it in bytes.

    ``ru_maxrss`` alone would not do: a child process starts with its parent's peak."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return _status_kib("VmRSS") * 1024
    except (OSError, TypeError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _peak_rss() -> int:
    hwm = _status_kib("VmHWM")
    return (
        hwm * 1024 if hwm is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    )


def mb(n: float) -> str:
    return f"{n / 2**20:.1f} MiB" if n < 2**30 else f"{n / 2**30:.2f} GiB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating processes per library")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per process")
    args = parser.parse_args()
    dense_product = N * N * np.dtype(np.float32).itemsize
    run_coo = dense_product <= LIMIT
    kinds = ["minigrad", "csr"] + (["coo"] if run_coo else [])
    jobs = {
        k: Job(
            "bench_edge_weights:child",
            (k, args.repeats),
            library="minigrad" if k == "minigrad" else "torch",
        )
        for k in kinds
    }
    runs = alternate(jobs, args.rounds)
    for k in kinds:
        np.testing.assert_allclose(
            runs["minigrad"][0]["w_grad"], runs[k][0]["w_grad"], rtol=1e-4, atol=1e-4
        )
    med = {
        k: {key: statistics.median(r[key] for r in runs[k]) for key in ("rss_growth", "time")}
        for k in kinds
    }
    peak = runs["minigrad"][0]["traced_peak"]
    print(
        f"{versions()}; one thread each; n = {N:,}, nnz = {NNZ:,}, {FEATURES} float32 "
        f"features, w and X learnable; w.grad equal across libraries; each library in its own "
        f"fresh process, {args.rounds} alternating rounds; medians over the rounds"
    )
    print("| learnable edge weights, sparse.mm fwd + bwd | peak memory | time | target |")
    print("|---|---|---|---|")
    print(
        f"| minigrad (SDDMM), tracemalloc peak | {mb(peak)} | {med['minigrad']['time'] * 1e3:.1f} ms "
        f"| <= 10 MB: {'met' if peak <= 10e6 else 'MISSED'} |"
    )
    print(f"| minigrad, peak RSS growth | {mb(med['minigrad']['rss_growth'])} | | |")
    if run_coo:
        print(
            f"| PyTorch COO (dense n x n product, then mask), peak RSS growth "
            f"| {mb(med['coo']['rss_growth'])} | {med['coo']['time'] * 1e3:.1f} ms | |"
        )
    else:
        print(f"| PyTorch COO | skipped: its dense product needs {mb(dense_product)} > 8 GiB | | |")
    print(
        f"| PyTorch CSR (sampled product), peak RSS growth | {mb(med['csr']['rss_growth'])} "
        f"| {med['csr']['time'] * 1e3:.1f} ms | |"
    )


if __name__ == "__main__":
    main()
