"""jacfwd vs jacrev: where forward mode beats reverse mode (the crossover).

``jacfwd`` pushes one tangent per *input* element (n forward passes), ``jacrev`` pulls
one cotangent per *output* element (m backward passes). So for f: R^n -> R^m:

* wide input  (R^n -> R^2): jacrev needs 2 passes, jacfwd n  -> reverse wins as n grows;
* wide output (R^2 -> R^n): jacfwd needs 2 passes, jacrev n  -> forward wins as n grows.

This is why deep learning (millions of parameters -> one loss) uses reverse mode.
Prints a markdown table of median times (ms). Run:
``python benchmarks/bench_jac_crossover.py [--repeats N] [--sizes 4 16 64 256]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import minigrad as mg
from minigrad.func import jacrev

W = np.random.default_rng(0).standard_normal((2, 256))


def wide_input(x):
    """R^n -> R^2: two smooth functions of many inputs."""
    n = x.shape[0]
    h = (x.tanh() * x.sin()).reshape(1, n)
    return (h * mg.tensor(W[:, :n])).sum(dim=1)


def wide_output(n: int):
    """R^2 -> R^n: many smooth functions of two inputs."""
    grid = mg.tensor(np.linspace(-1.0, 1.0, n))

    def f(x):
        return (x[0] * grid).sin() * (x[1] + grid).tanh()

    return f


def _median_ms(fn, x, repeats: int) -> float:
    fn(x)  # warm up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn(x)
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 16, 64, 256])
    args = parser.parse_args()
    try:
        from minigrad.func.forward import jacfwd
    except ModuleNotFoundError:
        jacfwd = None
        print("minigrad.func.forward is missing: jacfwd column skipped.\n")
    rng = np.random.default_rng(1)
    print("| function | n | jacfwd (ms) | jacrev (ms) | faster |")
    print("|---|---:|---:|---:|---|")
    for label, wide in (("wide input R^n -> R^2", True), ("wide output R^2 -> R^n", False)):
        for n in args.sizes:
            f, dim = (wide_input, n) if wide else (wide_output(n), 2)
            x = mg.tensor(rng.standard_normal(dim))
            rev = _median_ms(jacrev(f), x, args.repeats)
            if jacfwd is None:
                print(f"| {label} | {n} | n/a | {rev:.2f} | n/a |")
                continue
            fwd = _median_ms(jacfwd(f), x, args.repeats)
            np.testing.assert_allclose(jacfwd(f)(x).numpy(), jacrev(f)(x).numpy(), atol=1e-8)
            faster = "jacfwd" if fwd < rev else "jacrev"
            print(
                f"| {label} | {n} | {fwd:.2f} | {rev:.2f} | {faster} ({max(fwd, rev) / min(fwd, rev):.1f}x) |"
            )


if __name__ == "__main__":
    main()
