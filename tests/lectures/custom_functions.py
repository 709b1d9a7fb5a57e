"""Custom autograd Functions as PyTorch's tutorials write them: "Double Backward with Custom
Functions" (save inputs or outputs, not intermediates kept on ctx; ``gradgradcheck``; an
intermediate returned as an output) and "Extending torch.func with autograd.Function"
(``setup_context``, ``mark_non_differentiable``, a numpy forward, ``grad`` of ``grad``, a
``vmap`` staticmethod, ``once_differentiable``)."""

import LIB as torch
import numpy as np
from LIB.autograd.function import once_differentiable
from LIB.autograd.gradcheck import GradcheckError


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**2

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * 2 * x


x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(Square.apply, x), torch.autograd.gradgradcheck(Square.apply, x))


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = torch.exp(x)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_out):
        (result,) = ctx.saved_tensors
        return result * grad_out


x = torch.tensor(1.0, requires_grad=True, dtype=torch.double).clone()
print(torch.autograd.gradcheck(Exp.apply, x), torch.autograd.gradgradcheck(Exp.apply, x))


class Sinh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        expx = torch.exp(x)
        expnegx = torch.exp(-x)
        ctx.save_for_backward(expx, expnegx)
        return (expx - expnegx) / 2, expx, expnegx

    @staticmethod
    def backward(ctx, grad_out, _grad_out_exp, _grad_out_negexp):
        expx, expnegx = ctx.saved_tensors
        grad_input = grad_out * (expx + expnegx) / 2
        grad_input += _grad_out_exp * expx
        grad_input -= _grad_out_negexp * expnegx
        return grad_input


def sinh(x):
    return Sinh.apply(x)[0]


x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(sinh, x), torch.autograd.gradgradcheck(sinh, x))


class SinhBad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        expx = torch.exp(x)
        expnegx = torch.exp(-x)
        ctx.expx = expx
        ctx.expnegx = expnegx
        return (expx - expnegx) / 2

    @staticmethod
    def backward(ctx, grad_out):
        expx = ctx.expx
        expnegx = ctx.expnegx
        grad_input = grad_out * (expx + expnegx) / 2
        return grad_input


def sinh_bad(x):
    return SinhBad.apply(x)


print(torch.autograd.gradcheck(sinh_bad, x))
try:
    torch.autograd.gradgradcheck(sinh_bad, x)
except GradcheckError as e:  # PyTorch's message starts the same way
    print(
        type(e).__name__,
        str(e).startswith("Jacobian mismatch for output 0 with respect to input 0"),
    )


class MyCube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = x**3
        dx = 3 * x**2
        ctx.save_for_backward(x, dx)
        return result, dx

    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        result = grad_output * dx + grad_dx * 6 * x
        return result


def my_cube(x):
    result, dx = MyCube.apply(x)
    return result


x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(my_cube, x), torch.autograd.gradgradcheck(my_cube, x))


def to_numpy(tensor):
    return tensor.cpu().numpy()


class NumpySort(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x, dim):
        device = x.device
        x = to_numpy(x)
        ind = np.argsort(x, axis=dim)
        ind_inv = np.argsort(ind, axis=dim)
        result = np.take_along_axis(x, ind, axis=dim)
        return (
            torch.tensor(result, device=device),
            torch.tensor(ind, device=device),
            torch.tensor(ind_inv, device=device),
        )

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, dim = inputs
        _, ind, ind_inv = output
        ctx.mark_non_differentiable(ind, ind_inv)
        ctx.save_for_backward(ind, ind_inv)
        ctx.dim = dim

    @staticmethod
    def backward(ctx, grad_output, _0, _1):
        ind, ind_inv = ctx.saved_tensors
        return NumpyTake.apply(grad_output, ind_inv, ind, ctx.dim), None


class NumpyTake(torch.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x, ind, ind_inv, dim):
        device = x.device
        x = to_numpy(x)
        ind = to_numpy(ind)
        return torch.tensor(np.take_along_axis(x, ind, dim), device=device)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ind, ind_inv, dim = inputs
        ctx.save_for_backward(ind, ind_inv)
        ctx.dim = dim

    @staticmethod
    def backward(ctx, grad_output):
        ind, ind_inv = ctx.saved_tensors
        result = NumpyTake.apply(grad_output, ind_inv, ind, ctx.dim)
        return result, None, None, None


def numpy_sort(x, dim=-1):
    result, _, _ = NumpySort.apply(x, dim)
    return result


torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
print(torch.func.grad(lambda x: numpy_sort(x).sum())(x))


class MyCubeVmap(torch.autograd.Function):
    @staticmethod
    def forward(x):
        result = x**3
        dx = 3 * x**2
        return result, dx

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        result, dx = output
        ctx.save_for_backward(x, dx)

    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        result = grad_output * dx + grad_dx * 6 * x
        return result

    @staticmethod
    def vmap(info, in_dims, x):
        (x_bdim,) = in_dims
        x = x.movedim(x_bdim, 0)
        result = x**3
        dx = 3 * x**2
        return (result, dx), (0, 0)


def my_cube_vmap(x):
    result, _ = MyCubeVmap.apply(x)
    return result


x = torch.randn(3, dtype=torch.double)
ggx = torch.func.grad(torch.func.grad(my_cube_vmap))(torch.tensor(0.5, dtype=torch.double))
print(f"{ggx.item():.4f}")
print(torch.vmap(my_cube_vmap)(torch.tensor([1.0, 2.0])))


class MyExp(torch.autograd.Function):
    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        return g

    @staticmethod
    def forward(ctx, x):
        return x.exp()


y = MyExp.apply(torch.ones(2, requires_grad=True))
y.sum().backward()
print(torch.vmap(torch.sin)(torch.zeros(2)))
