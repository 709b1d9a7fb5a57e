"""Engine overhead: minigrad and PyTorch (CPU, one thread), each in its own fresh process.

1. A 5,000-step chain of ``y = (y * 1.0001).tanh()`` on a 16x16 float32 tensor:
   forward + backward time per op (10,000 ops), minigrad / PyTorch (target <= 1.0x).
2. A 100,000-op scalar chain ``y = y * 1.0000001``: backward time, minigrad /
   PyTorch (target <= 1.0x); and the memory minigrad's chain holds, checked to be
   freed afterwards.

As a user runs it (benchmarks/_processes.py): each library in a fresh process that
imports only that library, no MALLOC_* variables, no ``gc.freeze()``; processes
alternate (minigrad, PyTorch, ...) for ``--rounds`` rounds. Each process runs one
warm-up chain, then ``--chains`` chains, and reports their median and mean; the table
shows the median over the rounds and, after the ratio, the range of the per-round
ratios. Run: ``python benchmarks/bench_engine.py [--rounds N] [--chains N]``.

Python's cyclic garbage collector matters here, so the tanh chain is reported twice.
minigrad's graph is Python objects (one node per op: see minigrad/recording/node.py);
PyTorch's lives in C++ and leaves the collector nothing. Each node that lives until
backward is promoted by the collector, and every ~25 % growth of the long-lived objects
triggers a *full* collection, which walks every object in the process.

* median per op (what the target is measured on): the typical chain, which has no
  full collection in it;
* mean per op (the same chains): full collections included, amortised; the number of
  full collections, their time and the objects they walk are reported too
  (benchmarks/bench_gc_footprint.py counts what each op leaves for the collector).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
import tracemalloc

import numpy as np
from _processes import Job, alternate, import_library, ratio_cell, target_cell, versions

N_CHAIN, N_SCALAR = 5000, 100_000


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


def chain_memory(lib, n: int) -> tuple[int, int]:
    """Bytes held by a live n-op chain, and bytes still held after backward + del."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    x = lib.tensor(1.0, requires_grad=True)
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


def child(library: str, chains: int, scalar_chains: int) -> dict:
    """In a fresh process: per-op times of the tanh chains, scalar-chain backward times."""
    lib = import_library(library)  # here, not at the top: each child imports one library
    chain(lib, N_CHAIN)  # warm-up
    full = _Collections()
    gc.callbacks.append(full)
    per_op = [sum(chain(lib, N_CHAIN)) / (2 * N_CHAIN) for _ in range(chains)]
    gc.callbacks.remove(full)
    scalar = [scalar_chain(lib, N_SCALAR)[1] for _ in range(scalar_chains)]
    result = {
        "median": statistics.median(per_op),
        "mean": statistics.mean(per_op),
        "collections": full.count,
        "collection_seconds": full.seconds,
        "objects": len(gc.get_objects()),
        "scalar_backward": statistics.median(scalar),
    }
    if library == "minigrad":  # tracemalloc does not see PyTorch's C++ allocations
        result["held"], result["after"] = chain_memory(lib, N_SCALAR)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating processes per library")
    parser.add_argument("--chains", type=int, default=21, help="timed tanh chains per process")
    args = parser.parse_args()
    scalar_chains = max(3, args.chains // 3)
    runs = alternate(
        {
            lib: Job("bench_engine:child", (lib, args.chains, scalar_chains), library=lib)
            for lib in ("minigrad", "torch")
        },
        args.rounds,
    )
    mg, th = runs["minigrad"], runs["torch"]

    def column(results, key):
        return [r[key] for r in results]

    def cells(key, scale, unit, digits):
        a, b = column(mg, key), column(th, key)
        m, t = statistics.median(a) * scale, statistics.median(b) * scale
        return f"{m:.{digits}f} {unit} | {t:.{digits}f} {unit} | {ratio_cell(a, b)}"

    def target(key):
        return target_cell(column(mg, key), column(th, key), 1.0)

    count = statistics.median(column(mg, "collections"))
    seconds = statistics.median(column(mg, "collection_seconds"))
    ops = args.chains * 2 * N_CHAIN
    print(
        f"{versions()}; each library in its own fresh process, {args.rounds} alternating "
        f"rounds of {args.chains} chains; medians over the rounds (per-round ratio range)"
    )
    print("| benchmark | minigrad | PyTorch | ratio | target |")
    print("|---|---|---|---|---|")
    print(
        f"| tanh chain 5,000 x 16x16, fwd+bwd per op, median | {cells('median', 1e6, 'us', 2)} "
        f"| {target('median')} |"
    )
    print(f"| same chains, mean (full collections included) | {cells('mean', 1e6, 'us', 2)} | |")
    print(
        f"| full collections in minigrad's {args.chains} chains | {count:g} "
        f"({seconds * 1e3:.0f} ms, {seconds / ops * 1e6:.2f} us per op) | | | "
        f"each walks {statistics.median(column(mg, 'objects')):,.0f} objects |"
    )
    print(
        f"| scalar chain 100,000 ops, backward | {cells('scalar_backward', 1, 's', 3)} "
        f"| {target('scalar_backward')} |"
    )
    print(
        f"| scalar chain memory held / after backward+del | {mg[0]['held'] / 1e6:.1f} MB "
        f"| | | {mg[0]['after'] / 1e6:.3f} MB left |"
    )
    print("\nper-round tanh medians (us per op):")
    for lib, results in runs.items():
        print(f"{lib}: " + ", ".join(f"{r['median'] * 1e6:.2f}" for r in results))


if __name__ == "__main__":
    main()
