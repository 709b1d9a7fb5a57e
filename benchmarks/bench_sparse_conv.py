"""Submanifold sparse convolution against PyTorch's dense conv2d on the same grid, each in its own process.

A 1024 x 1024 grid with 1 % of its sites active (10,486 sites, drawn with a seeded numpy
generator), 16 -> 16 channels, 3 x 3 kernel, float32, one forward and backward step::

    y = mg.nn.SubMConv2d(16, 16, 3)(x)          # x: hybrid COO (1024, 1024, 16), nnz 10,486
    loss = 0.5 * (y.values() ** 2).sum()         # the output at the active sites

    y = torch.nn.Conv2d(16, 16, 3, padding=1)(x)  # x: dense (1, 16, 1024, 1024), zeros elsewhere
    loss = 0.5 * (y[0][:, rows, cols] ** 2).sum()

Both compute the same numbers (the same arrays, weights and bias in both processes; the
input requires grad in both): at the active sites a submanifold convolution *is* the
dense convolution of the zero-filled grid. The script checks the losses and the weight
gradients agree.

Time: the median of ``--steps`` steps after a warm-up step (minigrad's rule book is built
in the warm-up and reused, as in training over one pattern; its build time is its own
row). Memory: how far the process's resident memory rises during one step above where it
stood just before, with the input already built: the RSS high-water mark (``VmHWM`` from
``/proc/self/status``, reset through ``/proc/self/clear_refs`` before the step) minus the
RSS before the step, measured on the first step of a fresh process, for BOTH libraries
(``tracemalloc`` does not see PyTorch's allocator, so it cannot compare the two; minigrad's
``tracemalloc`` peak of the same step is reported beside it). The input's own bytes are a
row of their own.

As a user runs it (benchmarks/_processes.py): each library in a fresh process that imports
only that library, one thread (``torch.set_num_threads(1)``, ``OPENBLAS_NUM_THREADS=1``),
``--rounds`` alternating rounds; the table shows medians over the rounds and the range of
the per-round ratios. Target: minigrad below PyTorch in time and in memory.
Run: ``python benchmarks/bench_sparse_conv.py [--rounds N] [--steps N]``.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
import tracemalloc

import numpy as np
from _processes import Job, alternate, import_library, target_cell, versions

SIZE, OCCUPANCY, CHANNELS, KERNEL, SEED = 1024, 0.01, 16, 3, 0
MIB = 2**20


def problem():
    """The same arrays in every process: sorted active sites, their values, weight, bias."""
    rng = np.random.default_rng(SEED)
    n = round(OCCUPANCY * SIZE * SIZE)
    flat = np.sort(rng.choice(SIZE * SIZE, n, replace=False))
    sites = np.stack(np.unravel_index(flat, (SIZE, SIZE))).astype(np.int64)
    values = rng.standard_normal((n, CHANNELS), dtype=np.float32)
    bound = 1 / np.sqrt(CHANNELS * KERNEL * KERNEL)  # PyTorch's Conv2d initialisation bound
    weight = rng.uniform(-bound, bound, (CHANNELS, CHANNELS, KERNEL, KERNEL)).astype(np.float32)
    bias = rng.uniform(-bound, bound, CHANNELS).astype(np.float32)
    return sites, values, weight, bias


# --- memory: the resident-set high-water mark of one step ----------------------------------------
def _status(key: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"{key} not in /proc/self/status")


def rss_rise(step) -> int:
    """Bytes the RSS high-water mark rises above the RSS just before ``step()``."""
    gc.collect()
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # resets VmHWM to the current RSS (Linux >= 4.0)
    before = _status("VmRSS")
    step()
    return _status("VmHWM") - before


# --- the two libraries ------------------------------------------------------------------------
def minigrad_setup(mg, arrays):
    sites, values, weight, bias = arrays
    conv = mg.nn.SubMConv2d(CHANNELS, CHANNELS, KERNEL)
    with mg.no_grad():
        conv.weight.copy_(mg.tensor(weight))
        conv.bias.copy_(mg.tensor(bias))
    shape = (SIZE, SIZE, CHANNELS)
    x = mg.sparse_coo_tensor(sites, values, shape, is_coalesced=True, requires_grad=True)
    nbytes = mg.trace.storage(x).nbytes

    def step():
        x.grad = None
        conv.zero_grad()
        y = conv(x)
        loss = 0.5 * (y.values() ** 2).sum()
        loss.backward()
        return loss.item(), conv.weight.grad.numpy()

    return step, nbytes


def torch_setup(torch, arrays):
    sites, values, weight, bias = arrays
    conv = torch.nn.Conv2d(CHANNELS, CHANNELS, KERNEL, padding=KERNEL // 2)
    with torch.no_grad():
        conv.weight.copy_(torch.from_numpy(weight))
        conv.bias.copy_(torch.from_numpy(bias))
    rows, cols = (torch.from_numpy(s) for s in sites)
    x = torch.zeros(1, CHANNELS, SIZE, SIZE)
    x[0][:, rows, cols] = torch.from_numpy(values).T
    x.requires_grad_(True)

    def step():
        x.grad = None
        conv.zero_grad()
        y = conv(x)
        loss = 0.5 * (y[0][:, rows, cols] ** 2).sum()
        loss.backward()
        return loss.item(), conv.weight.grad.numpy()

    return step, x.numel() * x.element_size()


def child(library: str, steps: int) -> dict:
    """In a fresh process: memory of a first step, then the median time of ``steps`` steps."""
    lib = import_library(library)  # here, not at the top: each child imports one library
    arrays = problem()
    setup = minigrad_setup if library == "minigrad" else torch_setup
    step, input_bytes = setup(lib, arrays)
    out = {"input_bytes": input_bytes}
    if library == "minigrad":
        t0 = time.perf_counter()
        fresh = lib.sparse_coo_tensor(arrays[0].copy(), arrays[1], (SIZE, SIZE, CHANNELS))
        lib.sparse.rulebook(fresh, 3)
        out["rulebook"] = time.perf_counter() - t0  # a fresh pattern: built, not cached
    result = {}
    out["rss_rise"] = rss_rise(lambda: result.setdefault("first", step()))
    if library == "minigrad":
        tracemalloc.start()
        step()
        out["traced_peak"] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    step()  # warm-up
    times = []
    for _ in range(steps):
        t0 = time.perf_counter()
        loss, grad = step()
        times.append(time.perf_counter() - t0)
    out.update(time=statistics.median(times), loss=loss, w_grad=grad.ravel().tolist())
    return out


# --- the table ---------------------------------------------------------------------------------
def small_ratio_cell(mine: list[float], theirs: list[float]) -> str:
    """Ratio of the medians and how many times smaller: ``0.0036x (1/277; 0.0031-0.0040)``."""
    per_round = [max(a, 1e-12) / b for a, b in zip(mine, theirs)]
    ratio = max(statistics.median(mine), 1e-12) / statistics.median(theirs)
    return f"{ratio:.2g}x (1/{1 / ratio:,.0f}; {min(per_round):.2g}-{max(per_round):.2g})"


def _mib(n: float) -> str:
    return f"{n / MIB:.1f} MiB" if n >= MIB / 10 else f"{n / 1024:.0f} KiB"


def table(mg: list, th: list) -> list[str]:
    """The markdown rows: time, memory, input bytes, rule book."""
    med = statistics.median
    t_mg, t_th = [r["time"] for r in mg], [r["time"] for r in th]
    m_mg, m_th = [r["rss_rise"] for r in mg], [r["rss_rise"] for r in th]
    i_mg, i_th = mg[0]["input_bytes"], th[0]["input_bytes"]
    traced = med(r["traced_peak"] for r in mg)
    return [
        "| sparse conv, 1024 x 1024 at 1 %, 16 -> 16, 3 x 3 | minigrad SubMConv2d | PyTorch conv2d (dense) | ratio | target |",
        "|---|---|---|---|---|",
        f"| fwd + bwd time | {med(t_mg) * 1e3:.1f} ms | {med(t_th) * 1e3:.0f} ms "
        f"| {small_ratio_cell(t_mg, t_th)} | {target_cell(t_mg, t_th, 1.0)} |",
        f"| peak memory of the step (RSS rise) | {_mib(med(m_mg))} | {_mib(med(m_th))} "
        f"| {small_ratio_cell(m_mg, m_th)} | {target_cell(m_mg, m_th, 1.0)} "
        f"(minigrad's tracemalloc peak: {_mib(traced)}) |",
        f"| input | {_mib(i_mg)} (COO) | {_mib(i_th)} (dense) | {i_mg / i_th:.3f}x | |",
        f"| rule book, once per pattern | {med(r['rulebook'] for r in mg) * 1e3:.1f} ms | | | |",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="alternating processes per library")
    parser.add_argument("--steps", type=int, default=3, help="timed steps per process")
    args = parser.parse_args()
    runs = alternate(
        {
            lib: Job("bench_sparse_conv:child", (lib, args.steps), library=lib)
            for lib in ("minigrad", "torch")
        },
        args.rounds,
    )
    mg, th = runs["minigrad"], runs["torch"]
    ref = np.array(th[0]["w_grad"])
    rel = float(np.abs(np.array(mg[0]["w_grad"]) - ref).max() / np.abs(ref).max())
    loss_rel = abs(mg[0]["loss"] - th[0]["loss"]) / abs(th[0]["loss"])
    if rel > 1e-3 or loss_rel > 1e-4:
        raise SystemExit(f"the libraries disagree: loss rel. diff {loss_rel:.1e}, W.grad {rel:.1e}")
    n = round(OCCUPANCY * SIZE * SIZE)
    print(
        f"{versions()}; each library in its own fresh process, one thread, {args.rounds} "
        f"alternating rounds, median of {args.steps} steps after a warm-up; memory: rise of the "
        "RSS high-water mark over the RSS before a first step (both libraries)"
    )
    print(
        f"grid {SIZE} x {SIZE}, {n:,} active sites ({OCCUPANCY:.0%}), {CHANNELS} -> {CHANNELS} "
        f"channels, {KERNEL} x {KERNEL}, float32; loss rel. diff {loss_rel:.1e}, "
        f"W.grad max rel. diff {rel:.1e}"
    )
    print("\n".join(table(mg, th)))


if __name__ == "__main__":
    main()
