"""The stepper and the graph drawing on real networks: widget state bytes and build time.

The MLPs of issue 9: ``nn.Sequential`` of ``Linear(8, 8)`` + ``Tanh`` layers, batch 4, an
MSE-like loss; 20 layers give a 122-step backward pass, 50 layers 302 steps. For each size it
builds ``viz.BackwardStepper(loss).widget`` and prints the bytes of the widget state a notebook
stores (every model's JSON, as an exported page embeds it) and the build time (record + layout +
widget), medians of several runs. Targets: state linear in the steps and <= 2 MB at 302 steps,
build <= 1 s at 302 steps.

Then ``viz.draw_graph`` at its default ``max_nodes`` on a 200,000-node chain (target < 1 s),
and ``trace.graph`` alone. Run: ``python benchmarks/bench_stepper.py [--repeats N]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import minigrad as mg
import viz

LAYERS = (5, 10, 20, 50, 100)


def mlp_loss(layers: int):
    mg.manual_seed(0)
    mods = []
    for _ in range(layers):
        mods += [mg.nn.Linear(8, 8), mg.nn.Tanh()]
    net = mg.nn.Sequential(*mods)
    x, y = mg.randn(4, 8), mg.randn(4, 8)
    return ((net(x) - y) ** 2).mean()


def state_bytes(stepper) -> int:
    """Bytes of the JSON widget state of the stepper (all its models, links included)."""
    from ipywidgets.embed import dependency_state

    state = dependency_state([stepper.widget, *stepper.links])
    return len(json.dumps(state, separators=(",", ":")))


def build(layers: int):
    loss = mlp_loss(layers)
    start = time.perf_counter()
    stepper = viz.BackwardStepper(loss)
    assert stepper.widget is not None  # builds it
    return stepper, time.perf_counter() - start


def chain(n: int):
    x = mg.randn(4, requires_grad=True)
    y = x
    for i in range(n):
        y = y * 1.0001 if i % 2 else y.tanh()
    return y


def _median_s(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--chain", type=int, default=200_000)
    args = parser.parse_args()
    print("| layers | steps | widget state | bytes per step | build (median) |")
    print("|---:|---:|---:|---:|---:|")
    for layers in LAYERS:
        times = []
        for _ in range(args.repeats):
            stepper, seconds = build(layers)
            times.append(seconds)
        size = state_bytes(stepper)
        print(
            f"| {layers} | {stepper.num_steps} | {size / 1e6:.2f} MB | {size / stepper.num_steps:,.0f} B "
            f"| {statistics.median(times):.3f} s |"
        )
    y = chain(args.chain)
    n = len(mg.trace.graph(y))
    t_draw = _median_s(lambda: viz.draw_graph(y), max(args.repeats // 2, 1))
    t_trace = _median_s(lambda: mg.trace.graph(y), max(args.repeats // 2, 1))
    print()
    print("| graph | nodes | draw_graph (default max_nodes) | trace.graph |")
    print("|---|---:|---:|---:|")
    print(f"| tanh/mul chain | {n:,} | {t_draw:.3f} s | {t_trace:.3f} s |")


if __name__ == "__main__":
    main()
