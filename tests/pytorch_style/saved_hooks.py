"""Saved-tensor hooks: see what backward keeps, and where."""

import torch

packed = []


def pack(t):
    packed.append(tuple(t.shape))
    return t.clone()


def unpack(t):
    return t


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = (x * x).exp().sum()
print("packed", len(packed), sorted(packed))
y.backward()
print("grad", [round(v, 4) for v in x.grad.tolist()])

z = x * x
print("saved self", z.grad_fn._saved_self.tolist(), z.grad_fn._saved_other.tolist())
e = x.exp()
print("saved result", [round(v, 4) for v in e.grad_fn._saved_result.tolist()])
