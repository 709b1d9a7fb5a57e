"""Engine overhead, side by side with PyTorch (CPU, one thread), in one process.

1. A 5,000-step chain of ``y = (y * 1.0001).tanh()`` on a 16x16 float32 tensor:
   forward + backward time per op (10,000 ops), minigrad / PyTorch.
2. A 100,000-op scalar chain ``y = y * 1.0000001``: backward time, minigrad /
   PyTorch; and the memory the chain holds, checked to be freed afterwards.

Runs alternate between the two libraries. Run:
``python benchmarks/bench_engine.py [--repeats N]``.

Python's cyclic garbage collector matters here, so the tanh chain is reported
three ways. minigrad's graph is Python objects (one node per op: see
minigrad/autograd/node.py); PyTorch's lives in C++ and leaves the collector
nothing. Each node that lives until backward is promoted by the collector,
and every ~25 % growth of the long-lived objects triggers a *full*
collection, which walks every object in the process: with torch imported
that is ~170,000 objects and 70-90 ms, once every five to seven chains.

* median per op (the default collector; what the target is measured on):
  the typical chain, which has no full collection in it;
* mean per op (the same runs): full collections included, amortised;
* after ``gc.freeze()``: the objects present before the benchmark (mostly
  torch's) are taken out of the collector's path, which shows the per-op
  work of both engines with the collections our own graph still causes.

A last line runs the minigrad chain in a fresh process *without* torch, where
a full collection walks ~25,000 objects instead of ~170,000.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

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


class _Collections:
    """Counts the full collections (generation 2) and the time they take."""

    def __init__(self):
        self.count, self.seconds, self._t0 = 0, 0.0, 0.0

    def __call__(self, phase, info):
        if info["generation"] != 2:
            return
        if phase == "start":
            self._t0 = time.perf_counter()
        else:
            self.count += 1
            self.seconds += time.perf_counter() - self._t0


def tanh_chain_runs(lib, repeats, n, other):
    """Per-op times of ``repeats`` chains of ``lib``, alternating with ``other``'s."""
    mine, theirs = [], []
    for _ in range(repeats):
        f, b = chain(lib, n)
        mine.append((f + b) / (2 * n))
        f, b = chain(other, n)
        theirs.append((f + b) / (2 * n))
    return mine, theirs


def minigrad_alone(n: int, repeats: int) -> float:
    """Mean per-op time of the minigrad chain in a fresh process that never imports torch."""
    here = str(Path(__file__).parent)
    code = (
        f"import sys, statistics; sys.path.insert(0, {here!r})\n"
        "import bench_engine as b, minigrad as mg\n"
        f"ts = [sum(b.chain(mg, {n})) / {2 * n} for _ in range({repeats})]\n"
        "assert 'torch' not in sys.modules\n"
        "print(statistics.mean(ts))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=21)
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)
    n_chain, n_scalar = 5000, 100_000

    full = _Collections()
    gc.callbacks.append(full)
    chain(mg, n_chain), chain(torch, n_chain)  # warm-up
    full.count, full.seconds = 0, 0.0
    mg_t, th_t = tanh_chain_runs(mg, args.repeats, n_chain, torch)
    gc.callbacks.remove(full)
    mg_sb, th_sb = [], []
    for _ in range(max(3, args.repeats // 3)):
        mg_sb.append(scalar_chain(mg, n_scalar)[1])
        th_sb.append(scalar_chain(torch, n_scalar)[1])
    held, after = minigrad_chain_memory(n_scalar)
    gc.collect()
    gc.freeze()
    mg_f, th_f = tanh_chain_runs(mg, args.repeats, n_chain, torch)
    gc.unfreeze()
    alone = minigrad_alone(n_chain, args.repeats)

    med, mean = statistics.median, statistics.mean
    m2, t2 = med(mg_sb), med(th_sb)
    print(f"torch {torch.__version__}, numpy {np.__version__}, {args.repeats} runs each")
    print("| benchmark | minigrad | PyTorch | ratio (target) |")
    print("|---|---|---|---|")
    print(
        f"| tanh chain 5,000 x 16x16, fwd+bwd per op, median | {med(mg_t) * 1e6:.2f} us "
        f"| {med(th_t) * 1e6:.2f} us | {med(mg_t) / med(th_t):.2f}x (<= 1.0x) |"
    )
    print(
        f"| same runs, mean (full collections included) | {mean(mg_t) * 1e6:.2f} us "
        f"| {mean(th_t) * 1e6:.2f} us | {mean(mg_t) / mean(th_t):.2f}x |"
    )
    print(
        f"| full collections in those runs | {full.count} ({full.seconds * 1e3:.0f} ms, "
        f"{full.seconds / (args.repeats * 2 * n_chain) * 1e6:.2f} us per op) | | |"
    )
    print(
        f"| same, after gc.freeze(), median | {med(mg_f) * 1e6:.2f} us | {med(th_f) * 1e6:.2f} us "
        f"| {med(mg_f) / med(th_f):.2f}x |"
    )
    print(
        f"| minigrad alone (no torch in the process), mean | {alone * 1e6:.2f} us | | "
        f"{alone / mean(th_t):.2f}x of the PyTorch mean above |"
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
