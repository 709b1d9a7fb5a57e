"""Two names of PyTorch's custom-Function and older tutorials: ``once_differentiable``
(``torch.autograd.function.once_differentiable``) and ``torch.autograd.Variable``. The
expected values are what PyTorch 2.13 gives on the same code (checked with it)."""

import warnings

import pytest

import minigrad as mg
from minigrad.autograd import Variable
from minigrad.autograd.function import once_differentiable


class Cube(mg.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        assert not mg.is_grad_enabled()  # the backward runs outside autograd
        return g * 3 * x**2


def test_once_differentiable_backward_runs_once():
    x = mg.tensor([2.0], requires_grad=True)
    Cube.apply(x).backward()
    assert x.grad.tolist() == [12.0]
    (g,) = mg.autograd.grad(Cube.apply(x), x, create_graph=True)
    assert g.tolist() == [12.0] and not g.requires_grad  # the gradient flowing in needs none


def test_a_second_derivative_through_it_raises():
    x = mg.tensor([2.0], requires_grad=True)
    (g,) = mg.autograd.grad((Cube.apply(x * 1) ** 2).sum(), x, create_graph=True)
    assert g.tolist() == [192.0] and g.grad_fn.name() == "MulBackward0"
    with pytest.raises(RuntimeError, match="differentiate twice a function that was marked"):
        g.backward()
    v = mg.ones(1, requires_grad=True)
    (g,) = mg.autograd.grad(Cube.apply(x), x, grad_outputs=v, create_graph=True)
    assert g.requires_grad and not g.is_leaf
    with pytest.raises(RuntimeError, match="@once_differentiable"):
        g.sum().backward()


def test_variable_is_a_detached_leaf_sharing_memory():
    t = mg.ones(2)
    v = Variable(t, requires_grad=True)
    assert v is not t and v.requires_grad and v.is_leaf and not t.requires_grad
    assert v.data_ptr() == t.data_ptr()
    assert isinstance(t, Variable) and not isinstance(3, Variable)
    z = mg.ones(2, requires_grad=True) * 2
    assert Variable(z).grad_fn is None and not Variable(z).requires_grad
    y = (Variable(mg.tensor([3.0]), requires_grad=True) ** 2).sum()
    y.backward()
    assert y.item() == 9.0
    with pytest.raises(TypeError, match="Variable data has to be a tensor, but got list"):
        Variable([1.0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        Variable(mg.ones(1), volatile=True)
    assert "volatile was removed" in str(caught[0].message)
