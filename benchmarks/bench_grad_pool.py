"""Would a gradient-buffer pool pay off? Measured, not assumed.

The issue asks for a memory pool for gradient buffers (keyed by shape and nnz)
only if it measurably helps. A pool saves the allocation (and first-touch page
faults) of each step's fresh gradient arrays. This script measures, for the
recommender step (Embedding(1_000_000, 64, sparse=True), batch 4,096):

1. the whole step (forward, backward, SGD update), as minigrad runs it;
2. what a pool could save at most: allocating the step's gradient arrays
   fresh (values 4,096 x 64 float32 and int64 indices) against refilling
   buffers kept from the previous step (the perfect pool: 100 % hit rate);

and prints the saving as a share of the step. Run:
``python benchmarks/bench_grad_pool.py``.
"""

from __future__ import annotations

import statistics
import time

import numpy as np

import minigrad as mg

N, D, BATCH, STEPS = 1_000_000, 64, 4096, 50


def step_time() -> float:
    mg.manual_seed(0)
    emb = mg.nn.Embedding(N, D, sparse=True)
    opt = mg.optim.SGD(emb.parameters(), lr=0.01)
    rng = np.random.default_rng(0)
    times = []
    for _ in range(STEPS):
        idx = mg.tensor(rng.integers(0, N, BATCH))
        t0 = time.perf_counter()
        opt.zero_grad()
        (emb(idx) ** 2).sum().backward()
        opt.step()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def allocation_saving() -> tuple[float, float]:
    """Median seconds per step: fresh gradient arrays vs refilled pooled ones."""
    rng = np.random.default_rng(0)
    src_vals = rng.standard_normal((BATCH, D)).astype(np.float32)
    src_idx = rng.integers(0, N, (1, BATCH))
    fresh, pooled = [], []
    pool_vals, pool_idx = np.empty_like(src_vals), np.empty_like(src_idx)
    for _ in range(STEPS * 4):
        t0 = time.perf_counter()
        v = np.multiply(src_vals, 2.0)  # what a backward does: a new array per step
        i = src_idx.copy()
        t1 = time.perf_counter()
        np.multiply(src_vals, 2.0, out=pool_vals)  # the pool: same work into kept buffers
        np.copyto(pool_idx, src_idx)
        t2 = time.perf_counter()
        fresh.append(t1 - t0)
        pooled.append(t2 - t1)
        del v, i
    return statistics.median(fresh), statistics.median(pooled)


def main() -> None:
    step = step_time()
    fresh, pooled = allocation_saving()
    saving = fresh - pooled
    print("| measurement | time |")
    print("|---|---|")
    print(f"| recommender step (SGD), median of {STEPS} | {step * 1e3:.3f} ms |")
    print(f"| gradient arrays allocated fresh per step | {fresh * 1e6:.1f} us |")
    print(f"| same arrays refilled from a perfect pool | {pooled * 1e6:.1f} us |")
    print(f"| most a pool could save | {saving * 1e6:.1f} us = {saving / step:.1%} of the step |")
    verdict = "worth it" if saving / step > 0.05 else "not worth the complexity (< 5 %)"
    print(f"\nverdict: a gradient-buffer pool is {verdict}")


if __name__ == "__main__":
    main()
