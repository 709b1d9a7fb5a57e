"""Recommender step with a sparse embedding gradient, side by side with PyTorch (CPU, one thread).

One training step on ``Embedding(1_000_000, 64, sparse=True)`` (float32) with a batch
of 4,096 random ids (seeded; the same ids for both libraries)::

    opt.zero_grad(); (emb(ids) ** 2).sum().backward(); opt.step()

with ``SGD(lr=0.01)`` and with ``SparseAdam(lr=1e-3)``. Reported:

1. time per step, minigrad / PyTorch (target <= 1.0x);
2. gradient bytes: minigrad's ``weight.grad`` (COO indices + values) against
   PyTorch's ``grad._indices()`` + ``grad._values()`` (target <= PyTorch's);
3. the same minigrad step with ``sparse=False`` (a dense 256 MB gradient and a
   dense update), against the sparse step (target: sparse >= 50x faster).

Runs alternate between the libraries (one step each, in one process) and medians
are compared, which keeps the ratio meaningful on a noisy machine. Run:
``python benchmarks/bench_recommender.py [--steps N] [--dense-steps N]``.

NB on allocation: a step makes a few fresh 1 MB arrays (4,096 x 64 float32).
glibc returns freed memory at the top of the heap to the OS once more than its
"trim threshold" is free, and the next 1 MB array then page-faults 256 times;
glibc raises that threshold the first time a mid-sized (up to 32 MB) block is
freed. PyTorch frees such a block early on, so in this one process neither
library pays those faults. Run alone in a fresh process minigrad can pay them
(about 1 ms per step here); ``--cold`` measures minigrad that way, in a
subprocess that never imports torch.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

import numpy as np

import minigrad as mg

N, D, BATCH, SEED = 1_000_000, 64, 4096, 0


def id_batches(steps: int) -> list[np.ndarray]:
    rng = np.random.default_rng(SEED)
    return [rng.integers(0, N, BATCH) for _ in range(steps)]


def setup(lib, optimizer: str, sparse: bool = True):
    """The same code for both libraries: ``lib`` is ``minigrad`` or ``torch``."""
    lib.manual_seed(SEED)
    emb = lib.nn.Embedding(N, D, sparse=sparse)
    if optimizer == "SGD":
        opt = lib.optim.SGD(emb.parameters(), lr=0.01)
    else:
        opt = lib.optim.SparseAdam(emb.parameters(), lr=1e-3)

    def step(ids: np.ndarray) -> float:
        idx = lib.from_numpy(ids)
        t0 = time.perf_counter()
        opt.zero_grad()
        (emb(idx) ** 2).sum().backward()
        opt.step()
        return time.perf_counter() - t0

    return emb, step


def minigrad_setup(optimizer: str, sparse: bool = True):
    return setup(mg, optimizer, sparse)


def side_by_side(torch, optimizer: str, steps: int, warmup: int = 5) -> dict:
    mg_emb, mg_step = minigrad_setup(optimizer)
    th_emb, th_step = setup(torch, optimizer)
    mg_t, th_t = [], []
    for i, ids in enumerate(id_batches(steps + warmup)):
        a, b = mg_step(ids), th_step(ids)
        if i >= warmup:
            mg_t.append(a)
            th_t.append(b)
    g, tg = mg_emb.weight.grad, th_emb.weight.grad
    th_bytes = (
        tg._values().numel() * tg._values().element_size()
        + tg._indices().numel() * tg._indices().element_size()
    )
    return {
        "mg": statistics.median(mg_t),
        "torch": statistics.median(th_t),
        "mg_bytes": g.data.nbytes,
        "torch_bytes": th_bytes,
        "mg_layout": g.layout,
    }


def dense_minigrad(optimizer: str, steps: int) -> float:
    """Median time of the same minigrad step with a dense gradient (sparse=False)."""
    _, step = minigrad_setup(optimizer, sparse=False)
    times = [step(ids) for ids in id_batches(steps + 1)]
    return statistics.median(times[1:])


def cold_minigrad(optimizer: str, steps: int) -> float:
    """Median minigrad step time in a fresh process that never imports torch."""
    code = (
        "import statistics, sys; sys.path.insert(0, 'benchmarks'); import bench_recommender as b; "
        f"_, step = b.minigrad_setup({optimizer!r}); "
        f"t = [step(i) for i in b.id_batches({steps} + 5)][5:]; print(statistics.median(t))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100, help="timed steps per library")
    parser.add_argument("--dense-steps", type=int, default=3, help="timed dense steps")
    parser.add_argument("--cold", action="store_true", help="also time minigrad alone")
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)
    print(
        f"torch {torch.__version__}, numpy {np.__version__}; Embedding({N:,}, {D}) float32, "
        f"batch {BATCH:,}; medians of {args.steps} alternating steps"
    )
    print("| step | minigrad | PyTorch | ratio | target |")
    print("|---|---|---|---|---|")
    for optimizer in ("SGD", "SparseAdam"):
        r = side_by_side(torch, optimizer, args.steps)
        ratio = r["mg"] / r["torch"]
        ok = "ok" if ratio <= 1.0 else "MISSED"
        print(
            f"| {optimizer}, sparse grad | {r['mg'] * 1e3:.3f} ms | {r['torch'] * 1e3:.3f} ms "
            f"| {ratio:.2f}x | <= 1.0x {ok} |"
        )
        ok = "ok" if r["mg_bytes"] <= r["torch_bytes"] else "MISSED"
        print(
            f"| {optimizer}, gradient bytes ({r['mg_layout']}) | {r['mg_bytes']:,} | "
            f"{r['torch_bytes']:,} | {r['mg_bytes'] / r['torch_bytes']:.2f}x | <= 1.0x {ok} |"
        )
        dense = dense_minigrad(optimizer, args.dense_steps)
        speedup = dense / r["mg"]
        ok = "ok" if speedup >= 50 else "MISSED"
        print(
            f"| {optimizer}, minigrad sparse=False vs sparse=True | {dense * 1e3:.1f} ms | "
            f"(sparse {r['mg'] * 1e3:.3f} ms) | sparse {speedup:.0f}x faster | >= 50x {ok} |"
        )
        if args.cold:
            cold = cold_minigrad(optimizer, args.steps)
            print(
                f"| {optimizer}, minigrad alone in a fresh process | {cold * 1e3:.3f} ms | "
                f"| {cold / r['torch']:.2f}x | (no target) |"
            )


if __name__ == "__main__":
    main()
