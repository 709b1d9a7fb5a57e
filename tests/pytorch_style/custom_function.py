"""A custom autograd.Function, checked with gradcheck."""

import torch


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = x.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result


class ClampedSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, limit):
        ctx.save_for_backward(x)
        ctx.limit = limit
        return (x * x).clamp(max=limit)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * 2 * x * (x * x < ctx.limit), None


x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
y = Exp.apply(x)
y.sum().backward()
print("exp grad", [round(v, 6) for v in x.grad.tolist()])
print("gradcheck exp", torch.autograd.gradcheck(Exp.apply, (x,)))
print("gradcheck clamp", torch.autograd.gradcheck(lambda t: ClampedSquare.apply(t, 3.0), (x,)))
print("grad_fn name", type(y.grad_fn).__name__)
print("gradgradcheck", torch.autograd.gradgradcheck(Exp.apply, (x,)))
