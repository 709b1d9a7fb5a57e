"""``nonzero``, ``argwhere``, ``count_nonzero`` and ``unique`` against PyTorch 2.13.

Values, dtypes and shapes of every result (the extras ``unique`` returns included), for a
table of inputs: 0-d, empty, NaN, bool, ints, several dims; and the errors of bad input
(the exception class PyTorch raises). Needs torch.
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

NAN = float("nan")
INPUTS = {
    "0-d nonzero": np.array(2.5),
    "0-d zero": np.array(0.0),
    "empty": np.zeros((0, 3)),
    "1-d ints": np.array([3, 0, 1, 3, 0, 2]),
    "2-d floats": np.array([[0.0, 1.5, -2.0], [0.0, 3.0, 1.5]]),
    "3-d": np.arange(24.0).reshape(2, 3, 4) % 5 - 2,
    "nan": np.array([NAN, 1.0, NAN, 0.0, 1.0]),
    "bool": np.array([[True, False], [True, True]]),
    "repeated rows": np.array([[1, 2], [0, 5], [1, 2], [0, 4]]),
}


def _same(ours, theirs):
    if isinstance(theirs, tuple):
        assert isinstance(ours, tuple) and len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            _same(a, b)
        return
    assert ours.dtype.name == str(theirs.dtype).removeprefix("torch.")
    assert tuple(ours.shape) == tuple(theirs.shape)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


CALLS = {
    "nonzero": lambda L, x: L.nonzero(x),
    "nonzero as_tuple": lambda L, x: L.nonzero(x, as_tuple=True),
    "x.nonzero()": lambda L, x: x.nonzero(),
    "argwhere": lambda L, x: L.argwhere(x),
    "x.argwhere()": lambda L, x: x.argwhere(),
    "count_nonzero": lambda L, x: L.count_nonzero(x),
    "count_nonzero dim=-1": lambda L, x: x.count_nonzero(-1) if x.ndim else L.count_nonzero(x),
    "count_nonzero dims": lambda L, x: L.count_nonzero(x, dim=tuple(range(x.ndim))),
    "unique": lambda L, x: L.unique(x),
    "unique all": lambda L, x: L.unique(x, return_inverse=True, return_counts=True),
    "x.unique counts": lambda L, x: x.unique(return_counts=True),
    "unique inverse": lambda L, x: L.unique(x, sorted=True, return_inverse=True),
    "unique dim=0": lambda L, x: (
        L.unique(x, dim=0, return_inverse=True, return_counts=True) if x.ndim else L.unique(x)
    ),
    "unique dim=-1": lambda L, x: L.unique(x, dim=-1) if x.ndim and x.numel() else L.unique(x),
}


@pytest.mark.parametrize("call", list(CALLS))
@pytest.mark.parametrize("name", list(INPUTS))
def test_results_are_pytorchs(call, name):
    a = INPUTS[name]
    if name == "nan" and "dim" in call and "unique" in call:
        pytest.skip("unique(dim=) of NaN: PyTorch's order of NaN slices is its sort's")
    _same(CALLS[call](mg, mg.tensor(a)), CALLS[call](torch, torch.tensor(a)))


def test_a_unique_of_a_tensor_that_requires_grad_records_a_node_backward_refuses():
    for lib in (mg, torch):
        x = lib.tensor([2.0, 1.0, 2.0], requires_grad=True)
        u = lib.unique(x)
        assert u.requires_grad and u.grad_fn.name() == "Unique2Backward0"
        assert lib.unique(x, dim=0).grad_fn.name() == "UniqueDimBackward0"
        with pytest.raises(NotImplementedError, match="derivative for '_unique2' is not impl"):
            u.sum().backward()
        assert lib.nonzero(x).grad_fn is None and not lib.count_nonzero(x).requires_grad


def test_the_nonzero_positions_index_the_nonzero_values():
    x = mg.tensor([[0.0, 1.5, -2.0], [0.0, 3.0, 0.0]])
    assert x[x.nonzero(as_tuple=True)].tolist() == [1.5, -2.0, 3.0]
    assert [x[tuple(i)].item() for i in x.argwhere().tolist()] == [1.5, -2.0, 3.0]


BAD = {
    "nonzero of a list": (lambda L: L.nonzero([1, 0]), TypeError),
    "unique dim out of range": (lambda L: L.unique(L.ones(2, 3), dim=2), IndexError),
    "count_nonzero dim out of range": (lambda L: L.count_nonzero(L.ones(2), dim=1), IndexError),
    "unique dim of an empty tensor, not the empty dim": (
        lambda L: L.unique(L.zeros(0, 3), dim=1),
        RuntimeError,
    ),
    "unique dim of a tensor with two empty dims": (
        lambda L: L.unique(L.zeros(0, 0), dim=1),
        RuntimeError,
    ),
    "count_nonzero repeated dim": (
        lambda L: L.count_nonzero(L.ones(2, 3), dim=(0, -2)),
        RuntimeError,
    ),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_input_raises_pytorchs_exception_class(name):
    fn, exc = BAD[name]
    with pytest.raises(exc) as theirs:
        fn(torch)
    with pytest.raises(exc) as ours:
        fn(mg)
    if exc is not TypeError:
        assert str(ours.value) == str(theirs.value)


def test_a_sparse_tensor_is_refused_not_densified():
    s = mg.tensor([[0.0, 1.0], [2.0, 0.0]]).to_sparse()
    for fn in (mg.nonzero, mg.unique, mg.count_nonzero):
        with pytest.raises(NotImplementedError, match="sparse_coo.*to_dense"):
            fn(s)
