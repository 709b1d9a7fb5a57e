"""Data-parallel training on 1, 2 and 4 MPI processes of this machine: bytes and time per step.

Two measurements, each a job started with ``python -m minigrad.distributed.run -n W``
(this script, in ``--worker`` mode, on every rank; one BLAS thread per rank):

1. **Dense all-reduce vs sparse all-gather**, the recommender of bench_recommender.py:
   ``DistributedDataParallel(Embedding(1_000_000, 64))`` (float32), a global batch of 4,096
   random ids split over the W ranks, ``(emb(ids) ** 2).sum()``, SGD. With ``sparse=False``
   the 256 MB gradient is all-reduced; with ``sparse=True`` each rank all-gathers its rows.
   Reported per step: bytes each rank sent (``minigrad.distributed.traffic()``, ring
   formulas) and step time (forward + backward + communication + SGD; the slowest rank,
   median over steps). Target: sparse sends <= 1/100 of the dense bytes.
2. **Overlap**: an MLP of 6 Linear(1024, 1024) layers (float32, batch 256 per rank, 5 MB
   buckets), backward + communication time with DDP's hooks (each bucket's all-reduce
   starts inside backward) against the same buckets all-reduced after backward
   (``no_sync()`` then all-reduce), and backward alone (no communication): "hidden" is
   the share of the communication time the hooks took off the step.

On 2 cores, 4 ranks share 2 cores (``--oversubscribe``): their times show contention, not
scaling; bytes do not depend on the machine. Run:
``python benchmarks/bench_distributed.py [--ranks 1 2 4] [--steps N] [--dense-steps N] [--only bytes|overlap]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import minigrad as mg
import minigrad.distributed as dist
from minigrad import nn
from minigrad.nn.parallel import DistributedDataParallel
from minigrad.nn.parallel.reducer import flatten, unflatten

HERE = Path(__file__).resolve().parent
RESULT = "@@result "
N, D, BATCH, SEED = 1_000_000, 64, 4096, 0
MLP_WIDTH, MLP_DEPTH, MLP_BATCH, MLP_BUCKET_MB = 1024, 6, 256, 5


# --- the workers (every rank runs these) -----------------------------------------------------
def slowest(seconds: float) -> float:
    """The slowest rank's time (a step is done when every rank is)."""

    t = mg.tensor([seconds])
    dist.all_reduce(t, op=dist.ReduceOp.MAX)
    return t.item()


def recommender(sparse: bool, steps: int, warmup: int) -> dict:

    rank, world = dist.get_rank(), dist.get_world_size()
    mg.manual_seed(SEED)
    model = DistributedDataParallel(nn.Embedding(N, D, sparse=sparse))
    opt = mg.optim.SGD(model.parameters(), lr=0.01)
    rng = np.random.default_rng(SEED)
    times, sent = [], []
    for step in range(warmup + steps):
        ids = rng.integers(0, N, BATCH)
        mine = mg.from_numpy(ids[rank * BATCH // world : (rank + 1) * BATCH // world])
        dist.barrier()
        dist.reset_traffic()
        t0 = time.perf_counter()
        opt.zero_grad()
        (model(mine) ** 2).sum().backward()
        opt.step()
        elapsed = slowest(time.perf_counter() - t0)
        if step >= warmup:
            times.append(elapsed)
            sent.append(dist.traffic().get("all_reduce", {}).get("bytes_sent", 0))
    return {"seconds": statistics.median(times), "bytes": max(sent)}


def overlap(steps: int, warmup: int) -> dict:
    """Backward alone, with hooks, and communicating after it: the three alternate step by
    step in one job, so a change of load on the machine hits all three alike."""
    mg.manual_seed(SEED)
    layers = []
    for _ in range(MLP_DEPTH):
        layers += [nn.Linear(MLP_WIDTH, MLP_WIDTH), nn.Tanh()]
    model = DistributedDataParallel(nn.Sequential(*layers), bucket_cap_mb=MLP_BUCKET_MB)
    buckets = model.reducer.buckets
    x = mg.randn(MLP_BATCH, MLP_WIDTH)
    modes = ("none", "hooks", "after")
    times = {mode: [] for mode in modes}
    for step in range((warmup + steps) * len(modes)):
        mode = modes[step % len(modes)]
        if mode == "hooks":
            loss = model(x).pow(2).mean()
        else:
            with model.no_sync():  # PyTorch's rule: the forward decides if backward syncs
                loss = model(x).pow(2).mean()
        dist.barrier()
        t0 = time.perf_counter()
        loss.backward()  # with hooks, each bucket's all-reduce starts in here
        if mode == "after":
            after_backward(buckets)
        elapsed = slowest(time.perf_counter() - t0)
        model.zero_grad()
        if step >= warmup * len(modes):
            times[mode].append(elapsed)
    result = {mode: statistics.median(t) for mode, t in times.items()}
    return {**result, "buckets": len(buckets)}


def after_backward(buckets) -> None:
    """The same buckets, all-reduced once backward is over (no overlap)."""
    flats = [mg.from_numpy(flatten([p.grad for p in b.params])) for b in buckets]
    works = [dist.all_reduce(flat, op=dist.ReduceOp.AVG, async_op=True) for flat in flats]
    for b, flat, work in zip(buckets, flats, works):
        work.wait()
        unflatten(flat.numpy(), [p.grad for p in b.params])


def worker(job: str, steps: int, warmup: int) -> None:
    dist.init_process_group(backend="mpi")
    kind, _, variant = job.partition(":")
    if kind == "recommender":
        result = recommender(variant == "sparse", steps, warmup)
    else:
        result = overlap(steps, warmup)
    if dist.get_rank() == 0:
        print(RESULT + json.dumps(result), flush=True)


# --- the parent: launch the jobs, print the tables --------------------------------------------
def launch(ranks: int, job: str, steps: int, warmup: int) -> dict:
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    env["PYTHONPATH"] = os.pathsep.join([str(HERE.parent), env.get("PYTHONPATH", "")])
    cmd = [sys.executable, "-m", "minigrad.distributed.run", "-n", str(ranks), __file__,
           "--worker", job, "--steps", str(steps), "--warmup", str(warmup)]  # fmt: skip
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1800)
    lines = [line for line in out.stdout.splitlines() if line.startswith(RESULT)]
    if out.returncode != 0 or not lines:
        raise RuntimeError(f"{job} on {ranks} ranks failed:\n{out.stdout}\n{out.stderr}")
    return json.loads(lines[-1].removeprefix(RESULT))


def fmt_bytes(n: float) -> str:
    for unit, size in (("MB", 1e6), ("KB", 1e3)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n:.0f} B"


def bytes_table(ranks: list, steps: int, dense_steps: int) -> None:
    print(f"\nRecommender: Embedding({N:,}, {D}) float32, global batch {BATCH:,}, SGD")
    print("| ranks | dense: sent/rank/step | dense: step | sparse: sent/rank/step | sparse: step "
          "| sparse / dense bytes |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    for w in ranks:
        dense = launch(w, "recommender:dense", dense_steps, 1)
        sparse = launch(w, "recommender:sparse", steps, 2)
        ratio = f"1/{dense['bytes'] / sparse['bytes']:,.0f}" if sparse["bytes"] else "-"
        print(f"| {w} | {fmt_bytes(dense['bytes'])} | {dense['seconds'] * 1e3:,.0f} ms "
              f"| {fmt_bytes(sparse['bytes'])} | {sparse['seconds'] * 1e3:.1f} ms | {ratio} |",
              flush=True)  # fmt: skip


def overlap_table(ranks: list, steps: int) -> None:
    print(f"\nOverlap: {MLP_DEPTH} x Linear({MLP_WIDTH}, {MLP_WIDTH}) float32, batch "
          f"{MLP_BATCH}/rank, {MLP_BUCKET_MB} MB buckets: backward + communication")  # fmt: skip
    print("| ranks | buckets | backward alone | hooks (overlap) | after backward | after / hooks "
          "| communication hidden |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    for w in ranks:
        run = launch(w, "overlap", steps, 2)
        alone, hooks, after = run["none"], run["hooks"], run["after"]
        hidden = f"{(after - hooks) / (after - alone):.0%}" if after > alone and w > 1 else "-"
        print(f"| {w} | {run['buckets']} | {alone * 1e3:.0f} ms | {hooks * 1e3:.0f} ms "
              f"| {after * 1e3:.0f} ms | {after / hooks:.2f}x | {hidden} |", flush=True)  # fmt: skip


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ranks", type=int, nargs="+", default=[1, 2, 4])
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--dense-steps", type=int, default=3)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--only", choices=("bytes", "overlap"), help="one of the two tables")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    ns = p.parse_args()
    if ns.worker:
        worker(ns.worker, ns.steps, ns.warmup)
        return
    print(f"{os.cpu_count()} cores; Open MPI via mpirun; bytes: ring all-reduce "
          "2(W-1)/W x n, ring all-gather (W-1) x rows")  # fmt: skip
    if ns.only in (None, "bytes"):
        bytes_table(ns.ranks, ns.steps, ns.dense_steps)
    if ns.only in (None, "overlap"):
        overlap_table(ns.ranks, ns.steps)


if __name__ == "__main__":
    main()
