"""Per-sample gradients with torch.func: functional_call, grad and vmap."""

import numpy as np
import torch
import torch.nn as nn
from torch.func import functional_call, grad, vmap

rng = np.random.default_rng(2)
model = nn.Linear(3, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor(rng.standard_normal((1, 3)), dtype=torch.float32))
    model.bias.copy_(torch.tensor([0.1]))
params = {name: p.detach() for name, p in model.named_parameters()}
xs = torch.tensor(rng.standard_normal((5, 3)), dtype=torch.float32)
ys = torch.tensor(rng.standard_normal((5, 1)), dtype=torch.float32)


def loss(p, x, y):
    pred = functional_call(model, p, (x.unsqueeze(0),))
    return ((pred - y.unsqueeze(0)) ** 2).mean()


per_sample = vmap(grad(loss), in_dims=(None, 0, 0))(params, xs, ys)
print("weight grads", [round(v, 5) for v in per_sample["weight"].flatten().tolist()])
print("bias grads", [round(v, 5) for v in per_sample["bias"].flatten().tolist()])
mean_grad = per_sample["weight"].mean(0)
full = torch.autograd.grad(((model(xs) - ys) ** 2).mean(), model.weight)[0]
assert torch.allclose(mean_grad, full, atol=1e-6)
print("mean equals batch grad", True)
