"""Recommender step with a sparse embedding gradient: minigrad and PyTorch, each in its own process.

One training step on ``Embedding(1_000_000, 64, sparse=True)`` (float32) with a batch
of 4,096 random ids (seeded; the same ids for both libraries)::

    opt.zero_grad(); (emb(ids) ** 2).sum().backward(); opt.step()

with ``SGD(lr=0.01)`` and with ``SparseAdam(lr=1e-3)``. Reported:

1. time per step, minigrad / PyTorch (target <= 1.0x); and minigrad with
   ``MINIGRAD_TUNE_MALLOC=0``, i.e. glibc's default malloc settings (no target: it
   shows what minigrad/_malloc.py buys);
2. gradient bytes: minigrad's ``weight.grad`` (COO indices + values) against
   PyTorch's ``grad._indices()`` + ``grad._values()`` (target <= PyTorch's);
3. the same minigrad step with ``sparse=False`` (a dense 256 MB gradient and a
   dense update), against the sparse step (target: sparse >= 50x faster).

As a user runs it (benchmarks/_processes.py): each library in a fresh process that
imports only that library, no MALLOC_* variables, one thread; processes alternate
(minigrad, PyTorch, minigrad untuned, ...) for ``--rounds`` rounds. Each process times
``--steps`` steps after 5 warm-up steps and reports their median; the table shows the
median over the rounds and, after the ratio, the range of the per-round ratios. Run:
``python benchmarks/bench_recommender.py [--rounds N] [--steps N] [--dense-steps N]``.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

import numpy as np
from _processes import Job, alternate, import_library, ratio_cell, target_cell, versions

N, D, BATCH, SEED, WARMUP = 1_000_000, 64, 4096, 0, 5
OPTIMIZERS = ("SGD", "SparseAdam")


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


def grad_bytes(grad) -> int:
    """Bytes of a sparse COO gradient, counted the same way in both libraries."""
    values, indices = grad._values(), grad._indices()
    return values.numel() * values.element_size() + indices.numel() * indices.element_size()


def child(library: str, optimizer: str, steps: int, sparse: bool = True) -> dict:
    """In a fresh process: median step time after the warm-up, minor page faults per step,
    and the gradient's bytes."""
    lib = import_library(library)  # here, not at the top: each child imports one library
    emb, step = setup(lib, optimizer, sparse)
    warmup = WARMUP if sparse else 1
    batches = id_batches(steps + warmup)
    for ids in batches[:warmup]:
        step(ids)
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    times = [step(ids) for ids in batches[warmup:]]
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults
    g = emb.weight.grad
    return {
        "step": statistics.median(times),
        "faults_per_step": faults / steps,
        "grad_bytes": grad_bytes(g) if sparse else None,
        "layout": str(g.layout),
    }


def jobs(optimizer: str, steps: int) -> dict[str, Job]:
    args = (optimizer, steps)
    return {
        "minigrad": Job("bench_recommender:child", ("minigrad", *args)),
        "torch": Job("bench_recommender:child", ("torch", *args), library="torch"),
        "untuned": Job(
            "bench_recommender:child", ("minigrad", *args), env={"MINIGRAD_TUNE_MALLOC": "0"}
        ),
    }


def rows(optimizer: str, runs: dict[str, list], dense: list[dict]) -> list[str]:
    def faults(name):
        return f"{statistics.median(r['faults_per_step'] for r in runs[name]):,.0f}"

    mg, th, un = ([r["step"] for r in runs[k]] for k in ("minigrad", "torch", "untuned"))
    m, t, u = statistics.median(mg), statistics.median(th), statistics.median(un)
    mb, tb = runs["minigrad"][0]["grad_bytes"], runs["torch"][0]["grad_bytes"]
    d = statistics.median(r["step"] for r in dense)
    layout = runs["minigrad"][0]["layout"]
    return [
        f"| {optimizer}, sparse grad | {m * 1e3:.3f} ms | {t * 1e3:.3f} ms "
        f"| {ratio_cell(mg, th)} | {target_cell(mg, th, 1.0)} |",
        f"| {optimizer}, minigrad with MINIGRAD_TUNE_MALLOC=0 | {u * 1e3:.3f} ms "
        f"| {t * 1e3:.3f} ms | {ratio_cell(un, th)} | page faults per step: "
        f"{faults('untuned')} (tuned {faults('minigrad')}, PyTorch {faults('torch')}) |",
        f"| {optimizer}, gradient bytes ({layout}) | {mb:,} | {tb:,} | {mb / tb:.2f}x "
        f"| <= 1.0x: {'met' if mb <= tb else 'MISSED'} |",
        f"| {optimizer}, minigrad sparse=False vs sparse=True | {d * 1e3:.1f} ms "
        f"| (sparse {m * 1e3:.3f} ms) | sparse {d / m:.0f}x faster "
        f"| >= 50x: {'met' if d / m >= 50 else 'MISSED'} |",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating processes per library")
    parser.add_argument("--steps", type=int, default=100, help="timed steps per process")
    parser.add_argument("--dense-steps", type=int, default=3, help="timed dense steps")
    parser.add_argument("--dense-rounds", type=int, default=3, help="processes for the dense step")
    args = parser.parse_args()
    table, spread = [], []
    for optimizer in OPTIMIZERS:
        runs = alternate(jobs(optimizer, args.steps), args.rounds)
        dense_job = Job("bench_recommender:child", ("minigrad", optimizer, args.dense_steps, False))
        dense = alternate({"dense": dense_job}, args.dense_rounds)["dense"]
        table += rows(optimizer, runs, dense)
        for name, results in runs.items():
            ms = ", ".join(f"{r['step'] * 1e3:.3f}" for r in results)
            spread.append(f"{optimizer} {name}: {ms} ms")
    print(
        f"{versions()}; Embedding({N:,}, {D}) float32, batch {BATCH:,}; each library in its own fresh process, "
        f"{args.rounds} alternating rounds of {args.steps} steps; medians over the rounds "
        "(per-round ratio range in brackets)"
    )
    print("| step | minigrad | PyTorch | ratio | target |")
    print("|---|---|---|---|---|")
    print("\n".join(table))
    print("\nper-round medians:\n" + "\n".join(spread))


if __name__ == "__main__":
    main()
