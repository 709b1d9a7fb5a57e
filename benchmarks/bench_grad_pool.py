"""Would a gradient-buffer pool pay off? Measured, not assumed.

The issue asks for a memory pool for gradient buffers (keyed by shape and nnz) only if
it measurably helps. A pool saves the allocation of each step's fresh arrays, and above
all the first-touch page faults when the C allocator hands freed megabytes back to the
OS. Measured on the recommender step of benchmarks/bench_recommender.py
(Embedding(1_000_000, 64, sparse=True), batch 4,096, SGD; 5 warm-up steps, then 50), in
fresh processes that import only minigrad (benchmarks/_processes.py: no MALLOC_*
variables, one thread), alternating for ``--rounds`` rounds; medians over the rounds:

1. the step with glibc's default malloc settings (``MINIGRAD_TUNE_MALLOC=0``): every
   fresh 1 MB array page-faults again (minor faults per step are counted);
2. the step as ``import minigrad`` leaves it: minigrad/_malloc.py tells glibc to keep
   freed memory (``mallopt``), which is what perfect reuse of *every* array (not only
   gradients) could give;
3. on that tuned allocator, what reusing the gradient arrays would add: fresh gradient
   arrays against refilling kept buffers (a 100 % hit-rate pool).

Run: ``python benchmarks/bench_grad_pool.py [--rounds N]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from _processes import Job, alternate, import_library

N, D, BATCH, STEPS = 1_000_000, 64, 4096, 50
STEP, STEP_ARGS = "bench_recommender:child", ("minigrad", "SGD", STEPS)  # the same step


def allocation_saving() -> dict:
    """In a fresh minigrad process: seconds per step, fresh gradient arrays vs a perfect pool."""
    import_library("minigrad")  # its malloc tuning is what this measures on top of
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
    return {"fresh": statistics.median(fresh), "pooled": statistics.median(pooled)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating processes per setting")
    args = parser.parse_args()
    runs = alternate(
        {
            "default": Job(STEP, STEP_ARGS, env={"MINIGRAD_TUNE_MALLOC": "0"}),
            "tuned": Job(STEP, STEP_ARGS),
            "pool": Job("bench_grad_pool:allocation_saving"),
        },
        args.rounds,
    )

    def med(name, key):
        return statistics.median(r[key] for r in runs[name])

    default, tuned = med("default", "step"), med("tuned", "step")
    fresh, pooled = med("pool", "fresh"), med("pool", "pooled")
    saving = fresh - pooled
    print(
        f"recommender step, SGD; fresh processes, medians of {args.rounds} rounds x {STEPS} steps"
    )
    print("| measurement | time | minor page faults per step |")
    print("|---|---|---|")
    print(
        f"| step, glibc default malloc (MINIGRAD_TUNE_MALLOC=0) | {default * 1e3:.3f} ms "
        f"| {med('default', 'faults_per_step'):,.0f} |"
    )
    print(
        f"| step, as `import minigrad` tunes malloc (upper bound of any reuse) "
        f"| {tuned * 1e3:.3f} ms | {med('tuned', 'faults_per_step'):,.0f} |"
    )
    print(f"| gradient arrays allocated fresh, tuned allocator | {fresh * 1e6:.1f} us | |")
    print(f"| same arrays refilled from a perfect pool | {pooled * 1e6:.1f} us | |")
    print(
        f"| a gradient pool on the tuned allocator saves | {saving * 1e6:+.1f} us "
        f"({saving / tuned:+.1%} of the step) | |"
    )
    print(
        f"\nverdict: with glibc's defaults, page faults from the allocator returning memory "
        f"cost {1 - tuned / default:.0%} of the step, for every array the step allocates "
        "(activations, gradients, optimizer temporaries); the mallopt settings minigrad makes "
        f"at import remove them, and on that allocator a gradient pool saves {saving / tuned:+.1%} "
        "of the step. So minigrad has no pool."
    )


if __name__ == "__main__":
    main()
