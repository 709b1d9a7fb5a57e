"""What a recorded op leaves alive for Python's cyclic garbage collector, per op.

Each object an op leaves until backward is tracked by the collector: young collections
visit it, and every ~25 % growth of the long-lived objects triggers a full collection that
walks all of them. This counts, for a chain of one-input ops (``(y * c).tanh()``) and of
two-input ops (``y + w``), the GC-tracked objects left per op, by type, and the time the
collector took during the forward pass of a 5,000-step tanh chain (``gc.callbacks``).

It prints; it asserts nothing (the engine is written to be read, and this is what that
costs). Run: ``python benchmarks/bench_gc_footprint.py``.
"""

from __future__ import annotations

import gc
import time
from collections import Counter

import numpy as np

import minigrad as mg


def new_tracked(build) -> tuple[object, Counter]:
    """Types of the GC-tracked objects that ``build()`` leaves alive (it returns what it keeps)."""
    gc.collect()
    before = gc.get_objects()  # held, so that no id below is reused by a new object
    ids = {id(o) for o in before}
    kept = build()
    gc.collect()  # also untracks tuples of atomic values, as any collection would
    new = [o for o in gc.get_objects() if id(o) not in ids and o is not kept]
    del before
    return kept, Counter(type(o).__name__ for o in new)


def per_op(counts: Counter, ops: int) -> str:
    parts = ", ".join(f"{name} {n / ops:.2f}" for name, n in counts.most_common() if n >= ops / 2)
    return f"{sum(counts.values()) / ops:.2f} ({parts})"


class GcTimer:
    """Time spent inside the collector (``gc.callbacks``), and how many full collections."""

    def __init__(self):
        self.seconds, self.full, self._t0 = 0.0, 0, 0.0

    def __call__(self, phase, info):
        if phase == "start":
            self._t0 = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._t0
            self.full += info["generation"] == 2


def main() -> None:
    n = 1000
    x = mg.tensor(np.ones((4, 4), np.float32), requires_grad=True)
    w = mg.tensor(np.ones((4, 4), np.float32), requires_grad=True)

    def one_input():
        y = x
        for _ in range(n // 2):
            y = (y * 1.0001).tanh()
        return y

    def two_input():
        y = x
        for _ in range(n):
            y = y + w
        return y

    print("| chain | GC-tracked objects left per op |")
    print("|---|---|")
    for name, build in (("(y * c).tanh()", one_input), ("y + w", two_input)):
        _, counts = new_tracked(build)
        print(f"| {name} | {per_op(counts, n)} |")
    timer = GcTimer()
    gc.callbacks.append(timer)
    x16 = mg.tensor(np.ones((16, 16), np.float32), requires_grad=True)
    start = time.perf_counter()
    y = x16
    for _ in range(5000):
        y = (y * 1.0001).tanh()
    elapsed = time.perf_counter() - start
    gc.callbacks.remove(timer)
    print()
    print(
        f"forward of a 5,000-step 16x16 tanh chain: {elapsed * 1e3:.1f} ms, of which the collector "
        f"{timer.seconds * 1e3:.1f} ms ({timer.seconds / elapsed:.0%}; {timer.full} full collections)"
    )


if __name__ == "__main__":
    main()
