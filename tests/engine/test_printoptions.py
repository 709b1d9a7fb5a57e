"""``set_printoptions`` against PyTorch 2.13: the printed text of a table of tensors under a
table of options (``torch.`` and ``minigrad.`` aside), and the options' own rules. Needs torch.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import minigrad as mg
from minigrad._format import get_printoptions, printoptions

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

TENSORS = {
    "fixed": lambda L: L.tensor([1.123456, 2.0]),
    "scientific": lambda L: L.tensor([1e-5, 1.0, 300.0]),
    "a matrix": lambda L: L.arange(12.0).reshape(3, 4) / 3,
    "long ints": lambda L: L.arange(2000),
    "summarised matrix": lambda L: L.arange(2000.0).reshape(40, 50) * 1e-3,
    "nan and inf": lambda L: L.tensor([[1.5, math.nan], [math.inf, -2.0]]),
    "0-d": lambda L: L.tensor(3.14159),
    "whole floats": lambda L: L.tensor([1.0, 2.0, 3.0]),
    "large": lambda L: L.tensor([1e10, 1.0]),
    "with grad_fn": lambda L: L.ones(3, requires_grad=True) * 2,
    "bool": lambda L: L.tensor([True, False]),
    "3-d": lambda L: L.arange(30.0).reshape(2, 3, 5) - 7.25,
    "25 values": lambda L: L.arange(25.0) / 12 - 1,
    "float64": lambda L: L.tensor([123456.789, 0.5], dtype=L.float64),
    "empty": lambda L: L.zeros(0, 3),
    "short ints": lambda L: L.arange(10),
}
OPTIONS = [
    {},
    {"precision": 2},
    {"precision": 8},
    {"precision": 0},
    {"threshold": 5},
    {"edgeitems": 1, "threshold": 10},
    {"edgeitems": 0, "threshold": 3},
    {"linewidth": 30},
    {"linewidth": 120, "precision": 3},
    {"sci_mode": True},
    {"sci_mode": False},
    {"profile": "short"},
    {"profile": "full"},
    {"profile": "short", "precision": 6},
    {"threshold": math.inf},
]


@pytest.fixture(autouse=True)
def _default_options():
    yield
    mg.set_printoptions(profile="default")
    torch.set_printoptions(profile="default")


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_printed_text_is_pytorchs(options):
    mg.set_printoptions(**options)
    torch.set_printoptions(**options)
    for name, make in TENSORS.items():
        ours = str(make(mg)).replace("minigrad.", "torch.")
        assert ours == str(make(torch)), name
        assert repr(make(mg)) == str(make(mg))


def test_get_printoptions_and_the_context_manager_restore_what_was_set():
    assert get_printoptions() == torch._tensor_str.get_printoptions()
    mg.set_printoptions(precision=2, sci_mode=False)
    with printoptions(precision=6):
        assert str(mg.tensor([1 / 3])) == "tensor([0.333333])"
    assert str(mg.tensor([1 / 3])) == "tensor([0.33])"
    assert get_printoptions()["sci_mode"] is False
    mg.set_printoptions()  # sci_mode back to automatic, as PyTorch resets it on every call
    assert get_printoptions()["sci_mode"] is None and get_printoptions()["precision"] == 2


@pytest.mark.parametrize(
    ("options", "exc", "text"),
    [
        ({"precision": -1}, ValueError, "precision must be an int >= 0, got -1"),
        ({"precision": 2.5}, TypeError, "precision must be an int >= 0, got 2.5"),
        ({"linewidth": "80"}, TypeError, "linewidth must be an int >= 1"),
        ({"threshold": "many"}, TypeError, "threshold must be a number"),
        ({"sci_mode": "yes"}, TypeError, "sci_mode must be True, False or None"),
        ({"profile": "Full"}, ValueError, "unknown profile 'Full'; PyTorch's profiles are"),
    ],
)
def test_a_bad_option_is_refused_when_set_naming_what_is_accepted(options, exc, text):
    """A deliberate difference: PyTorch stores any value and fails at the next print (or,
    for an unknown profile, does nothing)."""
    with pytest.raises(exc, match=text):
        mg.set_printoptions(**options)
    assert get_printoptions() == torch._tensor_str.get_printoptions()  # nothing changed


def test_the_options_reach_parameters_and_sparse_tensors():
    mg.set_printoptions(precision=2)
    assert "tensor([0.33, 0.67]" in repr(mg.nn.Parameter(mg.tensor([1 / 3, 2 / 3])))
    s = mg.tensor(np.array([[0.0, 1 / 3], [0.0, 0.0]], np.float32)).to_sparse()
    assert "values=tensor([0.33])" in repr(s)
