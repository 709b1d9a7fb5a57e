"""Grad of grad, Jacobians, Hessians and Hessian-vector products."""

import torch
from torch.autograd.functional import hessian, hvp, jacobian

x = torch.tensor(2.0, requires_grad=True)
f = x**4
(d1,) = torch.autograd.grad(f, x, create_graph=True)
(d2,) = torch.autograd.grad(d1, x, create_graph=True)
(d3,) = torch.autograd.grad(d2, x)
assert (d1.item(), d2.item(), d3.item()) == (32.0, 48.0, 48.0)
print("derivatives", d1.item(), d2.item(), d3.item())


def energy(p):
    return (p[0] ** 2 * p[1] + p[1].sin()).sum() + (p**3).sum()


p = torch.tensor([1.0, 0.5, -2.0], dtype=torch.float64)
print("jacobian", [round(v, 6) for v in jacobian(lambda t: t.exp() * t, p).flatten().tolist()])
print("hessian", [round(v, 6) for v in hessian(energy, p).flatten().tolist()])
_, hv = hvp(energy, p, torch.tensor([1.0, 0.0, 1.0], dtype=torch.float64))
print("hvp", [round(v, 6) for v in hv.tolist()])
