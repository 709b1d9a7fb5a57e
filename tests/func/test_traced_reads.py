"""A traced tensor's values refuse every read, and the refusal is the traced array's own
(``minigrad/_traced.py``): ``tensor.py`` knows nothing of tracing, so no conversion there
can forget a check and hand out the zeros that stand for the values."""

import ast
import pathlib

import numpy as np
import pytest

import minigrad as mg
from minigrad.func import ConcretizationTypeError, make_jaxpr

ROOT = pathlib.Path(__file__).resolve().parents[2]

# every way a user reads a tensor's values, and the words the message names it by
READS = [
    (lambda x: x.numpy(), ".numpy()"),
    (lambda x: np.asarray(x), "np.asarray()"),
    (lambda x: np.array(x), "np.asarray()"),
    (lambda x: np.asarray(x, dtype=np.float64), "np.asarray()"),
    (lambda x: x.tolist(), ".tolist()"),
    (lambda x: x.sum().item(), ".item()"),
    (lambda x: float(x.sum()), "float()"),
    (lambda x: int(x.sum()), "int()"),
    (lambda x: bool(x.sum()), "bool() (an if or while on a tensor)"),
    (lambda x: [1, 2, 3][x.sum().long()], "a Python int"),
    (lambda x: range((x.sum() > 0).bool()), "a Python int"),  # a bool index: 0 or 1
]


@pytest.mark.parametrize("read, words", READS)
def test_every_read_of_a_traced_value_raises_and_names_the_read(read, words):
    with pytest.raises(ConcretizationTypeError) as info:
        make_jaxpr(read)(mg.ones(3))
    assert words in str(info.value)
    assert "argument 'x' of <lambda>" in str(info.value)


def test_the_same_reads_of_a_concrete_tensor_give_its_values():
    x = mg.tensor([1.0, 2.0, 3.0])
    assert x.numpy() is x._data  # the array itself, sharing memory
    assert np.asarray(x) is x._data
    assert np.asarray(x, dtype=np.float64).dtype == np.float64
    assert x.tolist() == [1.0, 2.0, 3.0]
    assert (float(x.sum()), int(x.sum()), bool(x.sum())) == (6.0, 6, True)
    assert [1, 2, 3][mg.tensor(2)] == 3 and list(range(mg.tensor(True))) == [0]


def test_a_traced_tensor_prints_a_shape_and_a_dtype_not_zeros():
    seen = []
    make_jaxpr(lambda x: seen.append(repr(x * 2.0)) or x)(mg.ones(2))
    assert seen == ["Traced<f32[2] computed from argument 'x' of <lambda>>"]


def test_a_read_that_fails_for_any_values_fails_as_it_does_without_a_trace():
    # the shape is known under a trace: bool() of three elements is the eager error
    with pytest.raises(RuntimeError, match="3 elements is ambiguous"):
        make_jaxpr(lambda x: bool(x))(mg.ones(3))
    with pytest.raises(RuntimeError, match="3 elements cannot be converted"):
        make_jaxpr(lambda x: x.item())(mg.ones(3))


def test_tensor_py_has_no_tracing_code():
    tree = ast.parse((ROOT / "minigrad" / "tensor.py").read_text())
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert not names & {"_traced", "check_concrete", "is_traced", "TracedArray"}
