"""``arange`` gives PyTorch 2.13's CPU values bit for bit for float32 and float64 (a lecture
printing ``torch.arange(-8.0, 8.0, 0.1)`` shows the same digits: its element 80 is 4.4e-16,
numpy's -2.8e-14), and PyTorch's length (minigrad/_ranges.py ``arange_values``)."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

_RNG = np.random.default_rng(20261205)
CASES = [(-8.0, 8.0, 0.1), (0, 1, 0.01), (1.5, 100.3, 0.37), (-3, 3, 0.001), (10, -10, -0.07)]
CASES += [(0, 5, 1 / 3), (2.2, 1e4, 1.1), (0, 10, 1), (0.5, 0.5, 0.1), (0, 7, 2.5)]
for _ in range(200):
    start, step = float(_RNG.uniform(-50, 50)), float(_RNG.uniform(0.001, 3))
    step = step if _RNG.random() < 0.7 else -step
    CASES.append((start, start + step * float(_RNG.uniform(0, 300)), step))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_arange_values_are_pytorchs_bit_for_bit(dtype):
    differ = []
    for start, end, step in CASES:
        want = torch.arange(start, end, step, dtype=getattr(torch, dtype)).numpy()
        got = mg.arange(start, end, step, dtype=getattr(mg, dtype)).numpy()
        same = got.dtype == want.dtype and np.array_equal(got.view(np.uint8), want.view(np.uint8))
        if not same:
            differ.append((start, end, step))
    assert differ == []


def test_the_middle_of_a_lectures_arange_is_pytorchs():
    assert mg.arange(-8.0, 8.0, 0.1)[80].item() == torch.arange(-8.0, 8.0, 0.1)[80].item() > 0
    assert mg.arange(-8.0, 8.0, 0.1).shape == (160,)
    assert mg.arange(0, 10, 3).tolist() == [0, 3, 6, 9]
    assert mg.arange(0, 10, 3).dtype == mg.int64
