"""Sparse attention: the memory of forward + backward, minigrad against PyTorch (dense and sparse).

n queries attend to 20 random keys each (a seeded random pattern; keys = queries, n x n),
d = 64 features, float32, q, k and v learnable::

    out = F.sparse_attention(q, k, v, pattern)       # minigrad: SDDMM, sparse softmax, sparse mm
    (out * r).sum().backward()

beside PyTorch 2.13 computing the same thing two ways:

* dense: ``F.scaled_dot_product_attention(q, k, v, attn_mask=mask)`` with an n x n boolean
  mask, which forms the n x n scores, their softmax and their gradients; run at n = 4,000
  and 8,000 (64 and 256 MB per n x n float32 matrix; minigrad is shown at 4,000 too), not at
  20,000, where each such matrix takes 1.6 GB (the 8,000 figure is scaled by n^2 instead);
* ``torch.sparse`` where it applies: ``sampled_addmm`` (CSR) -> ``sparse.softmax`` (COO only,
  so a conversion) -> ``sparse.mm`` (CSR), at n = 20,000.

As a user runs it (benchmarks/_processes.py): each library in a fresh process that imports
only that library, no MALLOC_* variables, one thread; processes alternate for ``--rounds``
rounds. Every process builds its inputs (q, k, v, r and the pattern or mask), runs one tiny
warm-up (imports, caches), then measures one forward + backward:

* peak RSS growth over it (``VmHWM`` after resetting it with ``clear_refs``), both libraries.
  minigrad's default allocator setting (``minigrad/_malloc.py``) keeps memory freed while the
  inputs were built in the process and reuses it, so its growth understates the pass; a run
  with ``MINIGRAD_TUNE_MALLOC=0`` (glibc's defaults, big blocks returned to the OS on free,
  as PyTorch's allocator does) shows the growth to compare with PyTorch's;
* minigrad's process also its tracemalloc peak over the same forward + backward (numpy
  reports its buffers to tracemalloc; PyTorch's allocations are invisible to it). The target
  is on this figure: <= 64 MB at n = 20,000. It counts everything the pass allocates,
  q.grad, k.grad and v.grad and the output included (4 x 5 MB), but not the inputs.

Time is the median of ``--repeats`` runs per process, shown for orientation (the target is
memory). ``q.grad`` is compared across the libraries. Run:
``python benchmarks/bench_sparse_attention.py [--rounds N] [--repeats N]``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
import tracemalloc
import warnings

import numpy as np
from _processes import Job, alternate, import_library, versions

# the peak-RSS helpers (Linux clear_refs / VmHWM, ru_maxrss elsewhere) and the size format
from bench_edge_weights import _peak_rss, _reset_peak_rss, mb

N, DENSE_N, LARGE_DENSE_N, NEIGHBOURS, D = 20_000, 4_000, 8_000, 20, 64
TARGET = 64e6  # bytes: minigrad's tracemalloc peak at n = 20,000
CHECKED_ROWS = 64  # rows of q.grad compared across the libraries
UNTUNED = {"MINIGRAD_TUNE_MALLOC": "0"}  # glibc's defaults: freed big blocks go back to the OS


def data(n: int, seed: int = 0):
    """(rows, cols, q, k, v, r): NEIGHBOURS random keys per query (a repeat counts once)."""
    rng = np.random.default_rng(seed)
    rows = np.repeat(np.arange(n), NEIGHBOURS)
    cols = rng.integers(0, n, n * NEIGHBOURS)
    q, k, v, r = (rng.standard_normal((n, D), dtype=np.float32) for _ in range(4))
    return rows, cols, q, k, v, r


# --- one forward + backward per library ----------------------------------------------------------
def minigrad_inputs(mg, n: int):
    rows, cols, *arrays = data(n)
    ones = np.ones(len(rows), np.float32)
    pattern = mg.sparse_coo_tensor(np.stack([rows, cols]), ones, (n, n)).coalesce()
    q, k, v = (mg.tensor(a, requires_grad=True) for a in arrays[:3])
    return pattern.to_sparse_csr(), q, k, v, mg.tensor(arrays[3])


def minigrad_step(mg, pattern, q, k, v, r):
    out = mg.nn.functional.sparse_attention(q, k, v, pattern)
    (out * r).sum().backward()
    return q.grad.numpy()


def torch_sparse_inputs(torch, n: int):
    rows, cols, *arrays = data(n)
    idx = torch.from_numpy(np.stack([rows, cols]))
    pattern = torch.sparse_coo_tensor(idx, torch.ones(len(rows)), (n, n)).coalesce()
    q, k, v = (torch.from_numpy(a.copy()).requires_grad_(True) for a in arrays[:3])
    return pattern.to_sparse_csr(), q, k, v, torch.from_numpy(arrays[3])


def torch_sparse_step(torch, pattern, q, k, v, r):
    scores = torch.sparse.sampled_addmm(pattern, q, k.T, beta=0.0, alpha=1 / math.sqrt(D))
    weights = torch.sparse.softmax(scores.to_sparse_coo(), 1)  # CPU softmax: COO only
    out = torch.sparse.mm(weights.to_sparse_csr(), v)  # CSR: a sampled product in backward
    (out * r).sum().backward()
    return q.grad.numpy()


def torch_dense_inputs(torch, n: int):
    rows, cols, *arrays = data(n)
    mask = torch.zeros(n, n, dtype=torch.bool)
    mask[torch.from_numpy(rows), torch.from_numpy(cols)] = True
    q, k, v = (torch.from_numpy(a.copy()).requires_grad_(True) for a in arrays[:3])
    return mask, q, k, v, torch.from_numpy(arrays[3])


def torch_dense_step(torch, mask, q, k, v, r):
    out = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    (out * r).sum().backward()
    return q.grad.numpy()


KINDS = {  # name: (library, inputs, step, n, extra environment)
    "minigrad": ("minigrad", minigrad_inputs, minigrad_step, N, {}),
    "minigrad_untuned": ("minigrad", minigrad_inputs, minigrad_step, N, UNTUNED),
    "minigrad_small": ("minigrad", minigrad_inputs, minigrad_step, DENSE_N, {}),
    "torch_sparse": ("torch", torch_sparse_inputs, torch_sparse_step, N, {}),
    "torch_dense": ("torch", torch_dense_inputs, torch_dense_step, DENSE_N, {}),
    "torch_dense_large": ("torch", torch_dense_inputs, torch_dense_step, LARGE_DENSE_N, {}),
}


def child(kind: str, repeats: int) -> dict:
    """In a fresh process: peak memory of one forward + backward, then timed runs."""
    library, make_inputs, step, n, _ = KINDS[kind]
    lib = import_library(library)
    warnings.filterwarnings("ignore", message="Sparse CSR tensor support is in beta state")
    step(lib, *make_inputs(lib, 8))  # warm-up: imports and caches
    inputs = make_inputs(lib, n)
    base = _reset_peak_rss()
    grad = step(lib, *inputs)
    result = {"rss_growth": _peak_rss() - base, "q_grad": grad[:CHECKED_ROWS].tolist()}
    times = []
    for _ in range(repeats):
        inputs = make_inputs(lib, n)
        t0 = time.perf_counter()
        step(lib, *inputs)
        times.append(time.perf_counter() - t0)
    result["time"] = statistics.median(times)
    if library == "minigrad":
        inputs = make_inputs(lib, n)
        tracemalloc.start()
        start = tracemalloc.get_traced_memory()[0]
        step(lib, *inputs)
        result["traced_peak"] = tracemalloc.get_traced_memory()[1] - start
        tracemalloc.stop()
        result["pattern_bytes"] = inputs[0]._data.nbytes
    return result


# --- the table -----------------------------------------------------------------------------------
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="alternating processes per library")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per process")
    args = parser.parse_args()
    jobs = {
        kind: Job("bench_sparse_attention:child", (kind, args.repeats), spec[0], spec[4])
        for kind, spec in KINDS.items()
    }
    runs = alternate(jobs, args.rounds)
    for mine, theirs in (("minigrad", "torch_sparse"), ("minigrad_small", "torch_dense")):
        np.testing.assert_allclose(
            runs[mine][0]["q_grad"], runs[theirs][0]["q_grad"], rtol=1e-3, atol=1e-4
        )
    med = {
        kind: {key: statistics.median(r[key] for r in runs[kind]) for key in ("rss_growth", "time")}
        for kind in KINDS
    }
    peak, small_peak = (runs[k][0]["traced_peak"] for k in ("minigrad", "minigrad_small"))
    pattern = runs["minigrad"][0]["pattern_bytes"]
    scores = N * N * 4
    dense_scaled = med["torch_dense_large"]["rss_growth"] * (N / LARGE_DENSE_N) ** 2
    print(
        f"{versions()}; one thread each; {NEIGHBOURS} random keys per query, d = {D}, float32, "
        f"q, k, v learnable; q.grad equal across libraries; each library in its own fresh "
        f"process, {args.rounds} alternating rounds; medians over the rounds"
    )
    print("| sparse attention, fwd + bwd | n | peak memory | time | target |")
    print("|---|---:|---|---|---|")
    met = "met" if peak <= TARGET else "MISSED"
    print(
        f"| minigrad `sparse_attention` (CSR pattern, {mb(pattern)}), tracemalloc peak "
        f"| {N:,} | {mb(peak)} | {med['minigrad']['time']:.2f} s | <= 64 MB: {met} |"
    )
    print(f"| minigrad, peak RSS growth | {N:,} | {mb(med['minigrad']['rss_growth'])} | | |")
    print(
        f"| minigrad, peak RSS growth with `MINIGRAD_TUNE_MALLOC=0` | {N:,} "
        f"| {mb(med['minigrad_untuned']['rss_growth'])} | | |"
    )
    print(
        f"| PyTorch `torch.sparse` (sampled_addmm, sparse.softmax, sparse.mm), peak RSS growth "
        f"| {N:,} | {mb(med['torch_sparse']['rss_growth'])} | {med['torch_sparse']['time']:.2f} s | |"
    )
    print(
        f"| minigrad, tracemalloc peak / peak RSS growth | {DENSE_N:,} | {mb(small_peak)} / "
        f"{mb(med['minigrad_small']['rss_growth'])} | {med['minigrad_small']['time']:.2f} s | |"
    )
    print(
        f"| PyTorch dense `scaled_dot_product_attention`, boolean mask, peak RSS growth "
        f"| {DENSE_N:,} | {mb(med['torch_dense']['rss_growth'])} "
        f"| {med['torch_dense']['time']:.2f} s | |"
    )
    print(
        f"| PyTorch dense, same | {LARGE_DENSE_N:,} | {mb(med['torch_dense_large']['rss_growth'])} "
        f"| {med['torch_dense_large']['time']:.2f} s | |"
    )
    print(
        f"| PyTorch dense, not run | {N:,} | one n x n float32 matrix is {scores / 1e9:.1f} GB; "
        f"the {LARGE_DENSE_N:,} figure scaled by n^2: {mb(dense_scaled)} | | |"
    )


if __name__ == "__main__":
    main()
