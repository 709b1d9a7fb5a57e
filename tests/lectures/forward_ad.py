"""Forward-mode AD as PyTorch's tutorial teaches it: dual tensors in a ``dual_level``, a
module's parameters swapped for duals (by ``setattr`` and by ``functional_call``), a custom
``Function`` with only a ``jvp`` (recorded, never run backward), ``gradcheck`` of forward
mode, and ``torch.func.jvp`` over a function of parameter values."""

import LIB as torch
import LIB.autograd.forward_ad as fwAD
import LIB.nn as nn
from LIB.func import functional_call, jvp

torch.manual_seed(0)
primal = torch.randn(10, 10)
tangent = torch.randn(10, 10)


def fn(x, y):
    return x**2 + y**2


with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    assert fwAD.unpack_dual(dual_input).tangent is tangent
    dual_input_alt = fwAD.make_dual(primal, tangent.T)
    assert fwAD.unpack_dual(dual_input_alt).tangent is not tangent
    plain_tensor = torch.randn(10, 10)
    dual_output = fn(dual_input, plain_tensor)
    jvp_ = fwAD.unpack_dual(dual_output).tangent
print(fwAD.unpack_dual(dual_output).tangent is None)
print(f"{jvp_.sum().item():.4f}")
model = nn.Linear(5, 5)
input = torch.randn(16, 5)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))
    out = model(input)
    jvp_ = fwAD.unpack_dual(out).tangent
print(f"{jvp_.sum().item():.4f}")
model = nn.Linear(5, 5)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():
    dual_params = {}
    for name, p in params.items():
        dual_params[name] = fwAD.make_dual(p, tangents[name])
    out = functional_call(model, dual_params, input)
    jvp_ = fwAD.unpack_dual(out).tangent
print(f"{jvp_.sum().item():.4f}")


class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        return result

    @staticmethod
    def jvp(ctx, gI):
        gO = gI * ctx.result
        del ctx.result
        return gO


fn2 = Fn.apply
primal = torch.randn(10, 10, dtype=torch.double, requires_grad=True)
tangent = torch.randn(10, 10)
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn2(dual_input)
    jvp_ = fwAD.unpack_dual(dual_output).tangent
print(jvp_.dtype, f"{jvp_.sum().item():.4f}")
torch.autograd.gradcheck(
    Fn.apply,
    (primal,),
    check_forward_ad=True,
    check_backward_ad=False,
    check_undefined_grad=False,
    check_batched_grad=False,
)
x = torch.randn(5)
y = torch.randn(5)


def f(x, y):
    return (x * y).sum()


primal0 = torch.randn(10, 10)
tangent0 = torch.randn(10, 10)
primal1 = torch.randn(10, 10)
tangent1 = torch.randn(10, 10)


def fn3(x, y):
    return x**2 + y**2


primal_out, tangent_out = jvp(fn3, (primal0, primal1), (tangent0, tangent1))
print(f"{tangent_out.sum().item():.4f}")
model = nn.Linear(5, 5)
input = torch.randn(16, 5)
tangents = tuple([torch.rand_like(p) for p in model.parameters()])


def func(params, input):
    return functional_call(model, params, input)


params = dict(model.named_parameters())
# PyTorch's tutorial passes a tuple of parameter values through a dict-building wrapper
names = list(params)


def func_params_only(*values):
    return func(dict(zip(names, values)), input)


model_output, jvp_out = jvp(func_params_only, tuple(params.values()), tangents)
print(f"{jvp_out.sum().item():.4f}")
