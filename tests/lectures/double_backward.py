"""The "Double Backward with Custom Functions" tutorial's lessons, on other functions: a
``torch.autograd.Function`` whose ``backward`` is written with differentiable tensor ops, so
``torch.autograd.grad(..., create_graph=True)`` differentiates it again (checked with
``gradcheck`` and ``gradgradcheck``, ``raise_exception=False`` and ``grad_outputs``);
saving an input, saving an output (``ctx.save_for_backward(result)``), and an intermediate:
returned as an extra output (and ``ctx.mark_non_differentiable``) it works, kept on ``ctx``
or passed to ``save_for_backward`` without being returned its second derivative is wrong
(the caveat: the forward runs without grad, so the saved intermediate has no graph);
a ``backward`` built from another Function; ``ctx.needs_input_grad`` and ``None`` gradients;
``@once_differentiable`` refusing a second backward; ``torch.autograd.functional.hessian``
of a custom Function; ``.backward(create_graph=True)`` and ``x.grad.grad_fn``."""

import LIB as torch
from LIB.autograd.function import once_differentiable

torch.manual_seed(0)


class Cube(torch.autograd.Function):
    """Saves its input: f = x^3, f' = 3x^2 is written with tensor ops."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * 3 * x**2


x = torch.rand(4, dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(Cube.apply, x), torch.autograd.gradgradcheck(Cube.apply, x))
y = Cube.apply(x)
print(y.grad_fn.name(), y.requires_grad, y.is_leaf)
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g.requires_grad, torch.allclose(g, 3 * x**2))
(gg,) = torch.autograd.grad(g.sum(), x)
print(torch.allclose(gg, 6 * x), gg.requires_grad)
(g_plain,) = torch.autograd.grad(Cube.apply(x).sum(), x)
print(g_plain.requires_grad, g_plain.grad_fn)


class Sigmoid(torch.autograd.Function):
    """Saves its output: s = 1 / (1 + e^-x), s' = s (1 - s)."""

    @staticmethod
    def forward(ctx, x):
        result = 1 / (1 + torch.exp(-x))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_out):
        (result,) = ctx.saved_tensors
        return grad_out * result * (1 - result)


x = torch.randn(3, 2, dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(Sigmoid.apply, x), torch.autograd.gradgradcheck(Sigmoid.apply, x))
s = Sigmoid.apply(x)
print(torch.allclose(s, torch.sigmoid(x)))
(g,) = torch.autograd.grad(s, x, torch.ones_like(s), create_graph=True)
(gg,) = torch.autograd.grad(g, x, torch.ones_like(g))
sig = torch.sigmoid(x).detach()
print(torch.allclose(gg, sig * (1 - sig) * (1 - 2 * sig)))


class Tanh(torch.autograd.Function):
    """An intermediate returned as an output: tanh = (e^2x - 1) / (e^2x + 1), with e^2x."""

    @staticmethod
    def forward(ctx, x):
        e2x = torch.exp(2 * x)
        result = (e2x - 1) / (e2x + 1)
        ctx.save_for_backward(result, e2x)
        ctx.mark_non_differentiable(e2x)
        return result, e2x

    @staticmethod
    def backward(ctx, grad_out, _grad_e2x):
        result, e2x = ctx.saved_tensors
        return grad_out * (1 - result**2)


def tanh(x):
    return Tanh.apply(x)[0]


x = torch.randn(5, dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(tanh, x), torch.autograd.gradgradcheck(tanh, x))
result, e2x = Tanh.apply(x)
print(result.requires_grad, e2x.requires_grad, torch.allclose(result, torch.tanh(x)))


class TanhOnCtx(torch.autograd.Function):
    """The same intermediate, kept on ctx: right first derivative, wrong second."""

    @staticmethod
    def forward(ctx, x):
        e2x = torch.exp(2 * x)
        ctx.e2x = e2x
        return (e2x - 1) / (e2x + 1)

    @staticmethod
    def backward(ctx, grad_out):
        e2x = ctx.e2x
        return grad_out * 4 * e2x / (e2x + 1) ** 2


class TanhSaved(torch.autograd.Function):
    """The intermediate through save_for_backward but never returned: the same mistake."""

    @staticmethod
    def forward(ctx, x):
        e2x = torch.exp(2 * x)
        ctx.save_for_backward(e2x)
        return (e2x - 1) / (e2x + 1)

    @staticmethod
    def backward(ctx, grad_out):
        (e2x,) = ctx.saved_tensors
        return grad_out * 4 * e2x / (e2x + 1) ** 2


for bad in (TanhOnCtx, TanhSaved):
    first = torch.autograd.gradcheck(bad.apply, x)
    second = torch.autograd.gradgradcheck(bad.apply, x, raise_exception=False)
    (g,) = torch.autograd.grad(bad.apply(x).sum(), x, create_graph=True)
    t = torch.tanh(x).detach()
    print(bad.__name__, first, second, g.requires_grad, torch.allclose(g, 1 - t**2))
    (g,) = torch.autograd.grad(
        bad.apply(x), x, torch.ones_like(x).requires_grad_(), create_graph=True
    )
    (gg,) = torch.autograd.grad(g.sum(), x, allow_unused=True)
    print(g.requires_grad, gg)


class Cos(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.cos(x)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return -grad_out * torch.sin(x)


class Sin(torch.autograd.Function):
    """A backward built from another Function: sin' = Cos.apply(x)."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.sin(x)

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * Cos.apply(x)


x = torch.randn(3, dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(Sin.apply, x), torch.autograd.gradgradcheck(Sin.apply, x))
(g,) = torch.autograd.grad(Sin.apply(x).sum(), x, create_graph=True)
print(g.grad_fn.name(), g.grad_fn.next_functions[1][0].name())
(gg,) = torch.autograd.grad(g.sum(), x)
print(torch.allclose(gg, -torch.sin(x)))


class ScaledMul(torch.autograd.Function):
    """Two tensors and a number: f = a * b * k; only the gradients asked for are computed."""

    @staticmethod
    def forward(ctx, a, b, k):
        ctx.save_for_backward(a, b)
        ctx.k = k
        return a * b * k

    @staticmethod
    def backward(ctx, grad_out):
        a, b = ctx.saved_tensors
        ScaledMul.asked = ctx.needs_input_grad
        grad_a = grad_out * b * ctx.k if ctx.needs_input_grad[0] else None
        grad_b = grad_out * a * ctx.k if ctx.needs_input_grad[1] else None
        return grad_a, grad_b, None


a = torch.randn(2, 3, dtype=torch.double, requires_grad=True)
b = torch.randn(2, 3, dtype=torch.double)
ScaledMul.apply(a, b, 2.0).sum().backward()
print(ScaledMul.asked, torch.allclose(a.grad, 2 * b), b.grad)
b.requires_grad_()
grad_outputs = (torch.randn(2, 3, dtype=torch.double),)
print(
    torch.autograd.gradgradcheck(
        lambda a, b: ScaledMul.apply(a, b, 0.5), (a, b), grad_outputs=grad_outputs
    )
)


class ExpOnce(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = torch.exp(x)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_out):
        (result,) = ctx.saved_tensors
        return grad_out * result


x = torch.randn(3, dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(ExpOnce.apply, x))
(g,) = torch.autograd.grad(ExpOnce.apply(x).sum(), x, create_graph=True)
print(g.requires_grad, g.grad_fn)
v = torch.ones(3, dtype=torch.double, requires_grad=True)
(g,) = torch.autograd.grad(ExpOnce.apply(x), x, v, create_graph=True)
print(g.requires_grad, torch.allclose(g, x.exp()))
try:
    g.sum().backward()
except RuntimeError as e:
    print("RuntimeError", "once_differentiable" in str(e))


def energy(x):
    return Cube.apply(x).sum() + (Sin.apply(x) * x).sum()


x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.double)
H = torch.autograd.functional.hessian(energy, x)
print(H)
expected = torch.diag(6 * x + 2 * torch.cos(x) - x * torch.sin(x))
print(torch.allclose(H, expected))

x = torch.tensor([1.0, 2.0], requires_grad=True)
Cube.apply(x).sum().backward(create_graph=True)
print(x.grad.detach(), x.grad.requires_grad, x.grad.grad_fn is not None)
first = x.grad.clone()
x.grad = None
first.sum().backward()
print(x.grad)
