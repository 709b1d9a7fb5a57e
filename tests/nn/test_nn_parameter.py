"""nn.Parameter: a leaf requiring grad that shares its tensor's data, as torch.nn.Parameter."""

import copy
import pickle

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn


def test_parameter_is_leaf_requiring_grad_and_a_tensor():
    p = nn.Parameter(mg.tensor([1.0, 2.0]))
    assert isinstance(p, mg.Tensor) and isinstance(p, nn.Parameter)
    assert p.requires_grad and p.is_leaf and p.grad_fn is None


def test_parameter_shares_data_and_version_counter():
    t = mg.tensor([1.0, 2.0])
    p = nn.Parameter(t)
    assert p._data is t._data
    with mg.no_grad():
        p.mul_(3.0)
    assert t.tolist() == [3.0, 6.0]
    assert t._version == p._version == 1


def test_parameter_from_non_leaf_is_a_fresh_leaf():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    p = nn.Parameter(y)
    assert p.is_leaf and p.requires_grad and p._data is y._data


def test_parameter_requires_grad_false():
    p = nn.Parameter(mg.tensor([1.0]), requires_grad=False)
    assert not p.requires_grad
    assert repr(p) == "Parameter containing:\ntensor([1.])"


def test_parameter_none_is_empty_float():
    p = nn.Parameter()
    assert p.shape == (0,) and p.dtype is mg.float32 and p.requires_grad


def test_parameter_repr():
    p = nn.Parameter(mg.tensor([[1.0, 2.0]]))
    assert repr(p) == "Parameter containing:\ntensor([[1., 2.]], requires_grad=True)"


def test_ops_and_grads_of_a_parameter_are_plain_tensors():
    p = nn.Parameter(mg.tensor([1.0, 2.0]))
    y = (p * p).sum()
    assert type(y) is mg.Tensor and type(p.detach()) is mg.Tensor
    y.backward()
    assert type(p.grad) is mg.Tensor
    np.testing.assert_array_equal(p.grad.numpy(), [2.0, 4.0])
    with mg.no_grad():
        p.add_(p.grad, alpha=-0.5)
    assert type(p) is nn.Parameter and p.tolist() == [0.0, 0.0]


def test_parameter_rejects_non_tensor_data():
    with pytest.raises(TypeError, match=r"data must be a Tensor or None, got list"):
        nn.Parameter([1.0, 2.0])


def test_integer_parameter_cannot_require_grad():
    with pytest.raises(RuntimeError, match="Only Tensors of floating point"):
        nn.Parameter(mg.tensor([1, 2]))
    assert not nn.Parameter(mg.tensor([1, 2]), requires_grad=False).requires_grad


def test_deepcopy_copies_data_not_grad():
    p = nn.Parameter(mg.tensor([1.0, 2.0]))
    (p * 1.0).sum().backward()
    q = copy.deepcopy(p)
    assert type(q) is nn.Parameter and q.requires_grad and q.grad is None
    assert q._data is not p._data and q.tolist() == p.tolist()


def test_pickle_roundtrip_keeps_value_and_flag():
    p = nn.Parameter(mg.tensor([1.5, -2.0]), requires_grad=False)
    q = pickle.loads(pickle.dumps(p))
    assert type(q) is nn.Parameter and not q.requires_grad and q.tolist() == [1.5, -2.0]


def test_pickle_parameter_after_backward():
    p = nn.Parameter(mg.tensor([1.0]))
    (p * 2).sum().backward()
    q = pickle.loads(pickle.dumps(p))
    assert q.requires_grad and q.grad is None and q.tolist() == [1.0]


def test_inplace_on_parameter_outside_no_grad_is_refused():
    p = nn.Parameter(mg.tensor([1.0]))
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        p.add_(1.0)
