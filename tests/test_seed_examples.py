"""The seed examples from the course: they must run and print the right numbers."""

import numpy as np

import minigrad as mg


def test_square_plus_linear():
    x = mg.tensor(3.0, requires_grad=True)
    y = x**2 + 2 * x
    y.backward()
    assert x.grad.item() == 8.0
    assert repr(x.grad) == "tensor(8.)"
    assert repr(y) == "tensor(15., grad_fn=<AddBackward0>)"


class MyReLU(mg.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return input.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        (input,) = ctx.saved_tensors
        return grad_output * (input > 0).float()


def test_custom_relu():
    x = mg.tensor([-2.0, -0.5, 0.0, 1.5, 3.0], requires_grad=True)
    y = MyReLU.apply(x)
    assert y.grad_fn.name() == "MyReLUBackward"
    np.testing.assert_array_equal(y.detach().numpy(), [0, 0, 0, 1.5, 3.0])
    y.backward(mg.ones_like(y))
    np.testing.assert_array_equal(x.grad.numpy(), [0, 0, 0, 1, 1])


def test_vector_output_backward_with_ones():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * x
    y.backward(mg.ones_like(y))
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 4.0, 6.0])
