"""``x[key] = value`` and ``x[i, j] += 1`` when nothing is recorded: the direct write
(``_tensor_inplace_methods._setitem_untracked``) against the recorded path (``CopySlices``).

The direct path writes into the tensor's array when grad mode is off or nothing requires
grad. Every program below runs twice, on a plain tensor (direct) and on the same values
carrying a history (``w * 1`` with ``w.requires_grad``: recorded), and must give the same
values, the same version counts and the same errors.
"""

import numpy as np
import pytest

import minigrad as mg


def plain(values):
    return mg.tensor(values)


def recorded(values):
    return mg.tensor(values, requires_grad=True) * 1


def no_grad_leaf(values):
    """A leaf that requires grad, written under no_grad (an optimizer's kind of write)."""
    return mg.tensor(values, requires_grad=True)


MAKERS = [plain, recorded]
GRID = np.arange(12, dtype=np.float32).reshape(3, 4)


def _values_and_version(x) -> tuple:
    return x.detach().numpy().copy(), x._version


WRITES = {  # name -> fn(x): one write program on a 3x4 float tensor
    "element": lambda x: x.__setitem__((1, 2), 7.5),
    "negative element": lambda x: x.__setitem__((-1, -1), 1.0),
    "row from list of values": lambda x: x.__setitem__(1, mg.tensor([1.0, 2.0, 3.0, 4.0])),
    "row broadcast": lambda x: x.__setitem__(0, mg.tensor([9.0])),
    "slice": lambda x: x.__setitem__((slice(0, 2), slice(1, 3)), -1.0),
    "leading size-1 dims dropped": lambda x: x.__setitem__(2, mg.ones(1, 1, 4)),
    "bool mask": lambda x: x.__setitem__(mg.tensor(GRID > 5), 0.0),
    "int array, repeats": lambda x: x.__setitem__(
        (mg.tensor([0, 0]), mg.tensor([1, 1])), mg.tensor([5.0, 6.0])
    ),
    "float64 value into float32 (copy_)": lambda x: x.__setitem__(
        1, mg.tensor([1.0, 2.0, 3.0, 4.0], dtype=mg.float64)
    ),
    "+= on an element": lambda x: x.__setitem__((2, 3), x[2, 3] + 1),
    "nothing selected": lambda x: x.__setitem__(slice(3, None), 1.0),
}


@pytest.mark.parametrize("name", list(WRITES))
def test_the_direct_write_agrees_with_the_recorded_one(name):
    results = []
    for make in MAKERS:
        x = make(GRID)
        version = x._version
        WRITES[name](x)
        values, after = _values_and_version(x)
        results.append((values, after - version))
    (direct, bumps), (graph, graph_bumps) = results
    np.testing.assert_array_equal(direct, graph)
    assert bumps == graph_bumps == 1


ERRORS = {  # name -> fn(x) that must raise the same error on both paths
    "out of bounds": lambda x: x.__setitem__((3, 0), 1.0),
    "negative out of bounds": lambda x: x.__setitem__((0, -5), 1.0),
    "index_put_ dtype": lambda x: x.__setitem__(mg.tensor([0]), mg.ones(1, 4, dtype=mg.float64)),
    "partial overlap": lambda x: x.__setitem__(
        (0, slice(0, 2)), x.detach()[0, 1:3] if x.requires_grad else x[0, 1:3]
    ),
    "shape mismatch": lambda x: x.__setitem__(0, mg.ones(3)),
    "too many dims": lambda x: x.__setitem__(0, mg.ones(2, 4)),
    "non-numeric value": lambda x: x.__setitem__(0, "a"),
    "float index": lambda x: x.__setitem__(1.5, 0.0),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_the_direct_write_refuses_what_the_recorded_one_refuses(name):
    caught = []
    for make in MAKERS:
        x = make(GRID)
        with pytest.raises((RuntimeError, IndexError, TypeError)) as info:
            ERRORS[name](x)
        caught.append((info.type, str(info.value)))
    assert caught[0] == caught[1]


def test_the_counting_loop_counts_like_numpy_and_bumps_two_versions_per_step():
    pairs = np.random.default_rng(0).integers(0, 5, size=(300, 2))
    N = mg.zeros((5, 5), dtype=mg.int32)
    for i, j in pairs.tolist():
        N[i, j] += 1
    expected = np.zeros((5, 5), np.int32)
    np.add.at(expected, (pairs[:, 0], pairs[:, 1]), 1)
    np.testing.assert_array_equal(N.numpy(), expected)
    assert N.dtype is mg.int32
    assert N._version == 2 * len(pairs)  # the add on the view, then the write back (PyTorch: 2)


def test_views_see_the_write_and_share_its_version():
    x = mg.zeros(3, 4)
    row, col = x[1], x[:, 2]
    x[1, 2] = 5.0
    assert row[2].item() == col[1].item() == 5.0
    row[0] = 3.0  # a write through a view reaches the base
    assert x[1, 0].item() == 3.0
    assert x._version == row._version == col._version == 2


def test_an_int_tensor_truncates_a_float_number_as_pytorch():
    N = mg.zeros((2, 2), dtype=mg.int32)
    N[0, 0] = 1.7
    N[0, 1] = mg.tensor(2.9)  # basic index: copy_, which converts
    np.testing.assert_array_equal(N.numpy(), [[1, 2], [0, 0]])


def test_a_write_under_no_grad_into_a_saved_leaf_is_caught_at_backward():
    w = no_grad_leaf([1.0, 2.0])
    y = (w * w).sum()
    with mg.no_grad():
        w[0] = 10.0
    assert w.requires_grad and w.grad_fn is None and w._version == 1
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()


def test_a_view_of_a_leaf_that_came_to_require_grad_is_refused_in_grad_mode():
    x = mg.zeros(3)
    v = x[0:2]
    x.requires_grad_()
    with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad"):
        v[0] = 1.0
    with mg.no_grad():
        v[0] = 1.0
    assert x[0].item() == 1.0


def test_a_recorded_value_makes_the_write_recorded():
    x = mg.zeros(3)
    w = mg.tensor(2.0, requires_grad=True)
    x[1] = w * 3
    assert x.grad_fn is not None
    x.sum().backward()
    assert w.grad.item() == 3.0


def test_an_expanded_tensor_refuses_an_element_write():
    x = mg.zeros(1).expand(3)
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        x[1] = 2.0
