"""Engine overhead, side by side with PyTorch (CPU, one thread), in one process.

1. A 5,000-step chain of ``y = (y * 1.0001).tanh()`` on a 16x16 float32 tensor:
   forward + backward time per op (10,000 ops), minigrad / PyTorch.
2. A 100,000-op scalar chain ``y = y * 1.0000001``: backward time, minigrad /
   PyTorch; and the memory the chain holds, checked to be freed afterwards.

Runs alternate between the two libraries and the medians are compared, which
keeps the ratio meaningful on a noisy shared machine. Run:
``python benchmarks/bench_engine.py [--repeats N]``.

Python's cyclic garbage collector matters here. minigrad's graph is made of
Python objects (a Tensor and a node per op); PyTorch's lives in C++. Every
few tens of thousands of new long-lived objects CPython runs a *full*
collection, which walks every tracked object in the process: with torch
imported that is ~170,000 objects and ~80 ms. So the tanh chain is reported
twice: as is (the default collector: what a user sees), and after
``gc.freeze()`` (objects that existed before the benchmark, mostly torch's
own, are moved out of the collector's way; the per-op work of both engines
is then compared, including the collections our graph still causes).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
import tracemalloc

import numpy as np

import minigrad as mg


def chain(lib, n: int) -> tuple[float, float]:
    """The same code for both libraries: ``lib`` is ``minigrad`` or ``torch``."""
    x = lib.tensor(
        np.random.default_rng(0).standard_normal((16, 16)).astype(np.float32), requires_grad=True
    )
    t0 = time.perf_counter()
    y = x
    for _ in range(n):
        y = (y * 1.0001).tanh()
    loss = y.sum()
    t1 = time.perf_counter()
    loss.backward()
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1


def scalar_chain(lib, n: int) -> tuple[float, float]:
    x = lib.tensor(1.0, requires_grad=True)
    y = x
    t0 = time.perf_counter()
    for _ in range(n):
        y = y * 1.0000001
    t1 = time.perf_counter()
    y.backward()
    t2 = time.perf_counter()
    assert abs(x.grad.item() - 1.0000001**n) < 1e-2  # float32 rounding of the factor
    return t1 - t0, t2 - t1


def minigrad_chain_memory(n: int) -> tuple[int, int]:
    """Bytes held by a live n-op chain, and bytes still held after backward + del."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    x = mg.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(n):
        y = y * 1.0000001
    held = tracemalloc.get_traced_memory()[0] - base
    y.backward()
    del y
    after = tracemalloc.get_traced_memory()[0] - base  # no gc.collect(): refcounting alone
    tracemalloc.stop()
    return held, after


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)
    n_chain, n_scalar = 5000, 100_000

    def tanh_chain_medians():
        mg_t, th_t = [], []
        for _ in range(args.repeats):
            f, b = chain(mg, n_chain)
            mg_t.append((f + b) / (2 * n_chain))
            f, b = chain(torch, n_chain)
            th_t.append((f + b) / (2 * n_chain))
        return statistics.median(mg_t), statistics.median(th_t)

    m1, t1 = tanh_chain_medians()
    mg_sb, th_sb = [], []
    for _ in range(max(3, args.repeats // 2)):
        mg_sb.append(scalar_chain(mg, n_scalar)[1])
        th_sb.append(scalar_chain(torch, n_scalar)[1])
    held, after = minigrad_chain_memory(n_scalar)
    gc.collect()
    gc.freeze()
    m1f, t1f = tanh_chain_medians()
    gc.unfreeze()

    m2, t2 = statistics.median(mg_sb), statistics.median(th_sb)
    print(f"torch {torch.__version__}, numpy {np.__version__}, medians of {args.repeats} runs")
    print("| benchmark | minigrad | PyTorch | ratio (target) |")
    print("|---|---|---|---|")
    print(
        f"| tanh chain 5,000 x 16x16, fwd+bwd per op | {m1 * 1e6:.2f} us | {t1 * 1e6:.2f} us "
        f"| {m1 / t1:.2f}x (<= 1.0x) |"
    )
    print(
        f"| same, after gc.freeze() | {m1f * 1e6:.2f} us | {t1f * 1e6:.2f} us "
        f"| {m1f / t1f:.2f}x (<= 1.0x) |"
    )
    print(
        f"| scalar chain 100,000 ops, backward | {m2:.3f} s | {t2:.3f} s "
        f"| {m2 / t2:.2f}x (<= 1.0x) |"
    )
    print(
        f"| scalar chain memory held / after backward+del | {held / 1e6:.1f} MB "
        f"| | {after / 1e6:.3f} MB left |"
    )


if __name__ == "__main__":
    main()
