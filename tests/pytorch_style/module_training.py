"""A small MLP with nn.Module, a loss module, an optimizer and device-generic code."""

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


rng = np.random.default_rng(1)
model = MLP().to(device)
with torch.no_grad():  # the same start for both libraries
    for p in model.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape)), dtype=torch.float32))
x = torch.tensor(rng.standard_normal((32, 4)), dtype=torch.float32, device=device)
labels = torch.tensor(rng.integers(0, 3, 32), device=device)

opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
loss_fn = nn.CrossEntropyLoss()
losses = []
for _ in range(30):
    opt.zero_grad()
    loss = loss_fn(model(x), labels)
    loss.backward()
    opt.step()
    losses.append(loss.item())
print("losses", [round(v, 5) for v in losses[::5]])
assert losses[-1] < losses[0]
print("device", str(x.device), x.is_cuda)
n_params = sum(p.numel() for p in model.parameters())
print("parameters", n_params)
print("grad norm", round(torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0).item(), 5))
