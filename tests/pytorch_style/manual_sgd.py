"""Linear regression trained by hand: the two update idioms students write."""

import numpy as np
import torch

rng = np.random.default_rng(0)
X = torch.tensor(rng.standard_normal((64, 3)), dtype=torch.float32)
true_w = torch.tensor([[2.0], [-1.0], [0.5]])
Y = X @ true_w + 0.3

w = torch.zeros(3, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.1
for _ in range(200):
    loss = ((X @ w + b - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():  # idiom 1: update under no_grad
        w -= lr * w.grad
        b -= lr * b.grad
    w.grad.zero_()
    b.grad.zero_()
print("no_grad update", [round(v, 4) for v in w.detach().flatten().tolist()], round(b.item(), 4))
assert loss.item() < 1e-6

w2 = torch.zeros(3, 1, requires_grad=True)
for _ in range(200):
    loss = ((X @ w2 + 0.3 - Y) ** 2).mean()
    loss.backward()
    w2.data -= lr * w2.grad  # idiom 2: through .data
    w2.grad = None
print("data update", [round(v, 4) for v in w2.detach().flatten().tolist()])
w2.data.mul_(10)
print("data mul_", [round(v, 3) for v in w2.detach().flatten().tolist()], w2.requires_grad)
print("data norm", round(w2.data.norm().item(), 4))
