"""Memory formats (``contiguous_format``, ``preserve_format``, ``channels_last``) accepted where
PyTorch accepts them, refused where it refuses them; ``Tensor.select``/``torch.select``.
minigrad lays every result out row-major (``minigrad/_memory_format.py``)."""

import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

CASES = {
    "repr": lambda L: repr(L.channels_last).split(".")[1],
    "clone preserve": lambda L: L.ones(2, 3).clone(memory_format=L.preserve_format).tolist(),
    "contiguous": lambda L: L.ones(2, 3).t().contiguous(memory_format=L.contiguous_format).shape,
    "is_contiguous": lambda L: L.ones(2, 3).is_contiguous(memory_format=L.contiguous_format),
    "channels_last of 2-D": lambda L: L.ones(2, 3).contiguous(memory_format=L.channels_last),
    "channels_last of 4-D": lambda L: (
        L.ones(1, 2, 3, 4).contiguous(memory_format=L.channels_last).shape
    ),
    "is channels_last": lambda L: L.ones(1, 2, 3, 4).is_contiguous(memory_format=L.channels_last),
    "is channels_last 1x1": lambda L: L.ones(1, 1, 1, 1).is_contiguous(
        memory_format=L.channels_last
    ),
    "empty_like": lambda L: L.empty_like(L.ones(2), memory_format=L.preserve_format).shape,
    "zeros_like channels_last 2-D": lambda L: L.zeros_like(
        L.ones(2), memory_format=L.channels_last
    ),
    "to(memory_format)": lambda L: L.ones(2).to(memory_format=L.contiguous_format).tolist(),
    "to(memory_format=3)": lambda L: L.ones(2).to(memory_format=3),
    "clone(memory_format=3)": lambda L: L.ones(2).clone(memory_format=3),
    "select(1, -1)": lambda L: L.arange(6.0).reshape(2, 3).select(1, -1).tolist(),
    "torch.select": lambda L: L.select(L.arange(6.0).reshape(2, 3), 0, 1).tolist(),
    "select bad dim": lambda L: L.ones(2, 3).select(2, 0),
    "select bad index": lambda L: L.ones(2, 3).select(1, 5),
}


def _outcome(fn, L):
    try:
        out = fn(L)
    except Exception as e:  # noqa: BLE001  (the class is what is compared)
        return type(e)
    return tuple(out) if isinstance(out, tuple) else out


@pytest.mark.parametrize("name", list(CASES))
def test_as_pytorch(name):
    assert _outcome(CASES[name], mg) == _outcome(CASES[name], torch)


def test_select_is_a_view_recorded_as_pytorchs_node():
    x = mg.arange(6.0).reshape(2, 3).requires_grad_()
    y = x.select(1, 2)
    assert y.grad_fn.name() == "SelectBackward0"
    y.sum().backward()
    assert x.grad.tolist() == [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0]]
    base = mg.zeros(2, 3)
    base.select(0, 1).fill_(7.0)
    assert base.tolist() == [[0.0, 0.0, 0.0], [7.0, 7.0, 7.0]]
