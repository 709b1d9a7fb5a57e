"""Scalars, the chain rule, accumulation, retain_graph, no_grad."""

import math

import torch

x = torch.tensor(3.0, requires_grad=True)
y = x**2 + 2 * x
y.backward()
assert x.grad.item() == 8.0  # dy/dx = 2x + 2
print("dy/dx", x.grad.item())

y = x**2 + 2 * x  # a second backward accumulates into .grad
y.backward()
print("accumulated", x.grad.item())
x.grad.zero_()

z = torch.sin(x) * torch.exp(-x)
z.backward(retain_graph=True)
first = x.grad.item()
assert abs(first - (math.cos(3) - math.sin(3)) * math.exp(-3)) < 1e-6
z.backward()
print("retain_graph twice", first, x.grad.item())

with torch.no_grad():
    w = x * 2
print("no_grad requires_grad", w.requires_grad, x.is_leaf, w.is_leaf)

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a.exp().sum() + (a * a).mean()
(ga,) = torch.autograd.grad(b, a)
print("grad", ga.tolist())
v = a * 3
v.backward(torch.tensor([1.0, 0.1, 0.01]))  # a vector-Jacobian product
print("vjp", a.grad.tolist())
