"""``linspace`` draws PyTorch 2.13's CPU values bit for bit (a lecture that prints or plots
``torch.linspace(-3, 0, 1000)`` shows the same digits): half counted up from start, half
down from end, each a fused multiply-add (minigrad/_ranges.py ``linspace_values``)."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

_RNG = np.random.default_rng(20261205)
CASES = [(-1, 1, 25), (-3, 0, 1000), (0, 1, 10), (-np.pi, np.pi, 2000), (1, 0, 7), (2, 3, 2)]
CASES += [(3, 3, 1), (0, 1, 0), (-0.0, 0.0, 5), (-5, 5, 101)]
CASES += [
    (float(_RNG.normal() * 10), float(_RNG.normal() * 10), int(_RNG.integers(2, 3000)))
    for _ in range(200)
]


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_linspace_values_are_pytorchs_bit_for_bit(dtype):
    differ = []
    for start, end, steps in CASES:
        want = torch.linspace(start, end, steps, dtype=getattr(torch, dtype)).numpy()
        got = mg.linspace(start, end, steps, dtype=getattr(mg, dtype)).numpy()
        same = got.dtype == want.dtype and np.array_equal(got.view(np.uint8), want.view(np.uint8))
        if not same:
            differ.append((start, end, steps))
    assert differ == []


def test_the_centre_of_a_symmetric_float32_linspace_is_pytorchs_not_zero():
    # counted down from end: 1 - step * 12 with step = 2/24 rounded to float32
    assert mg.linspace(-1, 1, 25)[12].item() == torch.linspace(-1, 1, 25)[12].item() != 0.0
