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

Memory: minigrad's peak is measured with tracemalloc (numpy reports its buffers to
it), from before S is built until after backward: target <= 10 MB. PyTorch's
allocations are invisible to tracemalloc, so each library also runs once in a fresh
subprocess, reporting its peak RSS growth over the same span (``ru_maxrss``). A
PyTorch run whose dense product would need more than 8 GB is skipped. Time: medians
of alternating runs, one thread each. Run: ``python benchmarks/bench_edge_weights.py``.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402

N, NNZ, FEATURES = 20_000, 20_000, 4
LIMIT = 8 * 2**30  # skip a PyTorch run whose dense n x n product would exceed this


def data(seed: int = 0):
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, N, (2, NNZ))
    return idx, rng.random(NNZ, dtype=np.float32), rng.standard_normal((N, FEATURES), np.float32)


def run_minigrad(idx, w0, x0) -> tuple[float, np.ndarray]:
    n = len(x0)
    import minigrad as mg

    w = mg.tensor(w0, requires_grad=True)
    x = mg.tensor(x0, requires_grad=True)
    t0 = time.perf_counter()
    mg.sparse.mm(mg.sparse_coo_tensor(idx, w, (n, n)), x).sum().backward()
    return time.perf_counter() - t0, w.grad.data


def run_torch(idx, w0, x0, layout: str) -> tuple[float, np.ndarray]:
    import torch

    n = len(x0)
    w = torch.from_numpy(w0.copy()).requires_grad_(True)
    x = torch.from_numpy(x0.copy()).requires_grad_(True)
    t0 = time.perf_counter()
    s = torch.sparse_coo_tensor(torch.from_numpy(idx), w, (n, n), check_invariants=False)
    if layout == "csr":
        s = s.coalesce().to_sparse_csr()
    torch.sparse.mm(s, x).sum().backward()
    return time.perf_counter() - t0, w.grad.numpy()


def warm_up(run, *args) -> None:
    """One tiny run (100 nodes), so imports and caches are not counted as the op's memory."""
    idx, w0, x0 = data()
    run(idx[:, :10] % 100, w0[:10], x0[:100], *args)


def traced_peak_minigrad(idx, w0, x0) -> int:
    """Peak bytes traced during build + forward + backward (tracemalloc)."""
    warm_up(run_minigrad)
    tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    run_minigrad(idx, w0, x0)
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    return peak


def child(which: str) -> None:
    """In a fresh process: peak RSS growth of one forward + backward (printed as JSON)."""
    idx, w0, x0 = data()
    if which != "minigrad":
        import torch

        torch.set_num_threads(1)
        warnings.filterwarnings("ignore", message="Sparse CSR tensor support is in beta state")
        warm_up(run_torch, which)
    else:
        warm_up(run_minigrad)
    base = _reset_peak_rss()
    if which == "minigrad":
        run_minigrad(idx, w0, x0)
    else:
        run_torch(idx, w0, x0, which)
    print(json.dumps({"rss_growth": _peak_rss() - base}))


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


def rss_growth(which: str) -> int:
    out = subprocess.run(
        [sys.executable, __file__, "--child", which], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])["rss_growth"]


def mb(n: float) -> str:
    return f"{n / 2**20:.1f} MiB" if n < 2**30 else f"{n / 2**30:.2f} GiB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.child)
    import torch

    torch.set_num_threads(1)
    warnings.filterwarnings("ignore", message="Sparse CSR tensor support is in beta state")
    idx, w0, x0 = data()
    dense_product = N * N * np.dtype(np.float32).itemsize
    run_coo = dense_product <= LIMIT
    peak = traced_peak_minigrad(idx, w0, x0)
    grads = {"minigrad": run_minigrad(idx, w0, x0)[1], "csr": run_torch(idx, w0, x0, "csr")[1]}
    times = {"minigrad": [], "csr": [], "coo": []}
    for _ in range(args.repeats):
        times["minigrad"].append(run_minigrad(idx, w0, x0)[0])
        times["csr"].append(run_torch(idx, w0, x0, "csr")[0])
        if run_coo:
            t, grads["coo"] = run_torch(idx, w0, x0, "coo")
            times["coo"].append(t)
    for k in grads:
        np.testing.assert_allclose(grads["minigrad"], grads[k], rtol=1e-4, atol=1e-4)
    rss = {k: rss_growth(k) for k in (["minigrad", "csr"] + (["coo"] if run_coo else []))}
    med = {k: statistics.median(v) for k, v in times.items() if v}

    print(
        f"torch {torch.__version__}, numpy {np.__version__}, one thread each; n = {N:,}, "
        f"nnz = {NNZ:,}, {FEATURES} float32 features, w and X learnable; "
        f"w.grad equal across libraries; time: medians of {args.repeats} alternating runs"
    )
    print("| learnable edge weights, sparse.mm fwd + bwd | peak memory | time | target |")
    print("|---|---|---|---|")
    print(
        f"| minigrad (SDDMM), tracemalloc peak | {mb(peak)} | {med['minigrad'] * 1e3:.1f} ms | <= 10 MB: {'met' if peak <= 10e6 else 'MISSED'} |"
    )
    print(f"| minigrad, peak RSS growth | {mb(rss['minigrad'])} | | |")
    if run_coo:
        print(
            f"| PyTorch COO (dense n x n product, then mask), peak RSS growth | {mb(rss['coo'])} | {med['coo'] * 1e3:.1f} ms | |"
        )
    else:
        print(f"| PyTorch COO | skipped: its dense product needs {mb(dense_product)} > 8 GiB | | |")
    print(
        f"| PyTorch CSR (sampled product), peak RSS growth | {mb(rss['csr'])} | {med['csr'] * 1e3:.1f} ms | |"
    )


if __name__ == "__main__":
    main()
