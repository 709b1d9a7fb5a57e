"""``torch.where``'s one-argument form (the tutorials' ``torch.where(x > 0)``) against PyTorch."""

import numpy as np
import pytest

import minigrad as mg


@pytest.mark.parametrize(
    "values",
    [[1.0, -1.0, 2.0], 3.0, 0.0, [[0, 1], [2, 0]], [], [[True, False, True]]],
    ids=["1-D", "0-d true", "0-d false", "2-D ints", "empty", "bools"],
)
def test_where_of_a_condition_alone_is_nonzero_as_tuple(values):
    x = mg.tensor(values)
    got = mg.where(x)
    want = mg.nonzero(x, as_tuple=True)
    assert isinstance(got, tuple) and len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == mg.int64 and np.array_equal(g.numpy(), w.numpy())


def test_where_with_an_input_but_no_other_is_refused_as_pytorch():
    with pytest.raises(TypeError, match="condition alone"):
        mg.where(mg.tensor([True]), mg.tensor([1.0]))


@pytest.mark.oracle
@pytest.mark.parametrize("values", [[1.0, -1.0, 2.0], 3.0, [[0, 1], [2, 0]], []])
def test_where_of_a_condition_alone_against_pytorch(values):
    torch = pytest.importorskip("torch")
    got = mg.where(mg.tensor(values) != 0)
    want = torch.where(torch.tensor(values) != 0)
    assert [g.tolist() for g in got] == [w.tolist() for w in want]
    with pytest.raises(TypeError):
        torch.where(torch.tensor([True]), torch.tensor([1.0]))
