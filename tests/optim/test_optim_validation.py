"""Optimizer argument checks that fail before any parameter is stored (PyTorch's messages)."""

import pytest

import minigrad as mg
from minigrad import nn, optim

P = [nn.Parameter(mg.ones(2))]

BAD_HYPERPARAMETERS = [
    (lambda: optim.SGD(P, lr=-1), "Invalid learning rate: -1"),
    (lambda: optim.SGD(P, lr=0.1, momentum=-0.5), "Invalid momentum value: -0.5"),
    (lambda: optim.SGD(P, lr=0.1, weight_decay=-1e-4), "Invalid weight_decay value: -0.0001"),
    (
        lambda: optim.SGD(P, lr=0.1, nesterov=True),
        "Nesterov momentum requires a momentum and zero dampening",
    ),
    (
        lambda: optim.SGD(P, lr=0.1, momentum=0.9, dampening=0.1, nesterov=True),
        "Nesterov momentum requires",
    ),
    (lambda: optim.Adam(P, lr=-0.1), "Invalid learning rate: -0.1"),
    (lambda: optim.Adam(P, eps=-1.0), "Invalid epsilon value: -1.0"),
    (lambda: optim.Adam(P, betas=(1.0, 0.999)), "Invalid beta parameter at index 0: 1.0"),
    (lambda: optim.Adam(P, betas=(0.9, -0.1)), "Invalid beta parameter at index 1: -0.1"),
    (lambda: optim.Adam(P, weight_decay=-1), "Invalid weight_decay value: -1"),
    (lambda: optim.AdamW(P, lr=float("nan")), "Invalid learning rate: nan"),
    (lambda: optim.AdamW(P, betas=(0.9, 1.5)), "Invalid beta parameter at index 1: 1.5"),
]


@pytest.mark.parametrize("make, message", BAD_HYPERPARAMETERS)
def test_invalid_hyperparameters(make, message):
    with pytest.raises(ValueError, match="^" + message.replace("(", r"\(")):
        make()


def test_params_must_be_an_iterable_not_a_tensor():
    with pytest.raises(TypeError, match="should be an iterable of Tensors or dicts, but got"):
        optim.SGD(nn.Parameter(mg.ones(1)), lr=0.1)


def test_empty_parameter_list():
    with pytest.raises(ValueError, match="optimizer got an empty parameter list"):
        optim.Adam([])
    with pytest.raises(ValueError, match="optimizer got an empty parameter list"):
        optim.SGD(iter([]))


def test_non_tensor_parameter():
    with pytest.raises(
        TypeError, match="optimizer can only optimize Tensors, but one of the params is list"
    ):
        optim.SGD([[1.0, 2.0]], lr=0.1)
    with pytest.raises(TypeError, match="one of the params is float"):
        optim.Adam([{"params": [1.5]}])


def test_non_leaf_parameter():
    x = mg.ones(2, requires_grad=True)
    with pytest.raises(ValueError, match="can't optimize a non-leaf Tensor"):
        optim.SGD([x * 2], lr=0.1)


def test_param_names_must_be_complete():
    with pytest.raises(ValueError, match="Some param names are missing"):
        optim.SGD([("w", nn.Parameter(mg.ones(1))), nn.Parameter(mg.ones(1))], lr=0.1)


def test_base_step_is_abstract():
    class Nothing(optim.Optimizer):
        pass

    opt = Nothing.__new__(Nothing)
    with pytest.raises(NotImplementedError, match="Nothing does not implement step"):
        opt.step()
