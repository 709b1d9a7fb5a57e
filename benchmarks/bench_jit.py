"""``jit(grad(f))`` against eager ``grad(f)``: small-tensor MLP steps, where per-op overhead dominates.

A 2-layer MLP (4 -> 16 -> 1, tanh), batch 8, float32, mean squared error:

1. the gradient: ``grad(loss)(params, x, y)`` eagerly and ``jit(grad(loss))`` (traced once,
   then replayed as numpy calls), target: jit >= 3x faster than minigrad eager;
2. a whole SGD step, ``params - lr * grad``: eagerly, and jitted as one function
   (``jit(sgd_step, static_argnums=3)``).

PyTorch 2.13 (CPU, one thread) runs the very same functions eagerly with ``torch.func.grad``,
and, for the gradient, the classic way too (``requires_grad`` leaves and
``torch.autograd.grad``). As every benchmark here (benchmarks/_processes.py): each library in
its own fresh process, processes alternating for ``--rounds`` rounds, OPENBLAS_NUM_THREADS=1,
the figures are medians over the rounds (in brackets, the range of the per-round ratios).
Run: ``python benchmarks/bench_jit.py [--rounds N] [--calls N]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from _processes import Job, alternate, import_library, ratio_cell, versions

SHAPES = ((4, 16), (16,), (16, 1), (1,))
BATCH, LR, BLOCKS = 8, 0.1, 7


def loss(params, x, y):
    """The same code for both libraries."""
    w1, b1, w2, b2 = params
    h = (x @ w1 + b1).tanh()
    return ((h @ w2 + b2 - y) ** 2).mean()


def make_sgd_step(grad):
    def sgd_step(params, x, y, lr):
        grads = grad(loss)(params, x, y)
        return tuple(p - lr * g for p, g in zip(params, grads))

    return sgd_step


def data(lib):
    rng = np.random.default_rng(0)
    params = tuple(lib.tensor(rng.standard_normal(s).astype(np.float32) * 0.5) for s in SHAPES)
    x = lib.tensor(rng.standard_normal((BATCH, 4)).astype(np.float32))
    y = lib.tensor(rng.standard_normal((BATCH, 1)).astype(np.float32))
    return params, x, y


def per_call(fn, calls: int) -> float:
    """Median over blocks of ``calls`` calls of the time per call (after a warm-up block)."""
    fn()
    times = []
    for _ in range(BLOCKS):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        times.append((time.perf_counter() - t0) / calls)
    return statistics.median(times)


def child(library: str, calls: int) -> dict:
    """In a fresh process: seconds per call of each way of taking a step."""
    lib = import_library(library)  # here, not at the top: each child imports one library
    params, x, y = data(lib)
    step = make_sgd_step(lib.func.grad)
    result = {
        "grad": per_call(lambda: lib.func.grad(loss)(params, x, y), calls),
        "step": per_call(lambda: step(params, x, y, LR), calls),
    }
    if library == "minigrad":
        t0 = time.perf_counter()
        jitted_grad = lib.func.jit(lib.func.grad(loss))
        jitted_grad(params, x, y)
        result["trace"] = time.perf_counter() - t0
        jitted_step = lib.func.jit(step, static_argnums=3)
        result["jit_grad"] = per_call(lambda: jitted_grad(params, x, y), calls)
        result["jit_step"] = per_call(lambda: jitted_step(params, x, y, LR), calls)
        result["equations"] = len(lib.func.make_jaxpr(lib.func.grad(loss))(params, x, y).eqns)
        check = [np.asarray(g) for g in jitted_grad(params, x, y)]
        want = [np.asarray(g) for g in lib.func.grad(loss)(params, x, y)]
        assert all(np.array_equal(a, b) for a, b in zip(check, want)), "jit differs from eager"
    else:
        leaves = [p.clone().requires_grad_() for p in params]
        result["autograd"] = per_call(lambda: lib.autograd.grad(loss(leaves, x, y), leaves), calls)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating processes per library")
    parser.add_argument("--calls", type=int, default=300, help="calls per timed block")
    args = parser.parse_args()
    runs = alternate(
        {
            lib: Job("bench_jit:child", (lib, args.calls), library=lib)
            for lib in ("minigrad", "torch")
        },
        args.rounds,
    )
    mg, th = runs["minigrad"], runs["torch"]

    def col(results, key):
        return [r[key] for r in results]

    def us(values):
        return f"{statistics.median(values) * 1e6:.1f} us"

    def speedup(eager, jitted, target):
        ratio = statistics.median(eager) / statistics.median(jitted)
        per_round = [a / b for a, b in zip(eager, jitted)]
        verdict = "met" if ratio >= target else "MISSED"
        cell = f"{ratio:.2f}x ({min(per_round):.2f}-{max(per_round):.2f})"
        return cell, f">= {target:.0f}x: {verdict}"

    print(
        f"{versions()}; each library in its own fresh process, {args.rounds} alternating rounds, "
        f"{BLOCKS} blocks of {args.calls} calls; medians over the rounds (per-round ratio range)"
    )
    print(
        f"2-layer MLP 4-16-1 (tanh), batch {BATCH}, float32, MSE; the gradient's program has "
        f"{mg[0]['equations']} equations, traced in {statistics.median(col(mg, 'trace')) * 1e3:.1f} ms"
    )
    print(
        "| step | minigrad eager | minigrad jit | jit speed-up | target | PyTorch eager "
        "(torch.func) | minigrad jit / PyTorch |"
    )
    print("|---|---|---|---|---|---|---|")
    for name, eager, jitted in (
        ("gradient: grad(loss)", "grad", "jit_grad"),
        ("SGD step: params - lr * grad", "step", "jit_step"),
    ):
        cell, target = speedup(col(mg, eager), col(mg, jitted), 3.0)
        print(
            f"| {name} | {us(col(mg, eager))} | {us(col(mg, jitted))} | {cell} | {target} "
            f"| {us(col(th, eager))} | {ratio_cell(col(mg, jitted), col(th, eager))} |"
        )
    print(
        f"| gradient, PyTorch's classic torch.autograd.grad | | | | | {us(col(th, 'autograd'))} "
        f"| {ratio_cell(col(mg, 'jit_grad'), col(th, 'autograd'))} |"
    )
    print("\nper-round minigrad eager / jit gradient (us):")
    print(
        ", ".join(
            f"{a * 1e6:.0f} / {b * 1e6:.0f}" for a, b in zip(col(mg, "grad"), col(mg, "jit_grad"))
        )
    )


if __name__ == "__main__":
    main()
