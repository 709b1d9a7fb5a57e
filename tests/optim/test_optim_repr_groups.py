"""An optimizer with two parameter groups prints as PyTorch's (a blank line between groups)."""

import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle


def test_two_groups_print_as_pytorch():
    texts = []
    for L in (mg, torch):
        w, b = L.nn.Parameter(L.ones(2)), L.nn.Parameter(L.ones(1))
        opt = L.optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.5}], lr=0.1, momentum=0.9)
        texts.append(repr(opt))
    assert texts[0] == texts[1]
