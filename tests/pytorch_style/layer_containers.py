"""A residual MLP kept in nn.ModuleList / nn.ModuleDict, with LayerNorm, BatchNorm1d, Dropout
and the regression and probability losses; trained, switched to eval, saved and reloaded."""

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, width, p):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.fc = nn.Linear(width, width)
        self.drop = nn.Dropout(p)

    def forward(self, x):
        return x + self.drop(torch.tanh(self.fc(self.norm(x))))


class Net(nn.Module):
    def __init__(self, p=0.0):
        super().__init__()
        self.inp = nn.Linear(3, 6)
        self.bn = nn.BatchNorm1d(6)
        self.blocks = nn.ModuleList([Block(6, p) for _ in range(2)])
        self.heads = nn.ModuleDict({"value": nn.Linear(6, 1), "prob": nn.Linear(6, 2)})
        self.scales = nn.ParameterList([nn.Parameter(torch.ones(1)), nn.Parameter(torch.ones(2))])
        self.out = nn.Sequential(nn.Identity(), nn.Softmax(dim=1))

    def forward(self, x):
        h = self.bn(self.inp(x))
        for block in self.blocks:
            h = block(h)
        value = self.heads["value"](h) * self.scales[0]
        prob = self.out(self.heads["prob"](h) * self.scales[1])
        return value, prob


rng = np.random.default_rng(4)
model = Net()
with torch.no_grad():  # the same start for both libraries
    for p in model.parameters():
        p.copy_(torch.tensor(rng.uniform(-0.6, 0.6, tuple(p.shape)), dtype=torch.float32))
print("keys", list(model.state_dict())[:8])
print("n keys", len(model.state_dict()), "n params", sum(p.numel() for p in model.parameters()))
print(model.blocks)

x = torch.tensor(rng.standard_normal((16, 3)), dtype=torch.float32)
y = torch.tensor(rng.standard_normal((16, 1)), dtype=torch.float32)
label = torch.tensor(rng.integers(0, 2, 16), dtype=torch.float32)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
losses = []
for _ in range(20):
    opt.zero_grad()
    value, prob = model(x)
    loss = (
        F.l1_loss(value, y)
        + nn.SmoothL1Loss(beta=0.5)(value, y)
        + nn.HuberLoss(delta=0.7)(value, y)
        + nn.BCELoss()(prob[:, 1], label)
        + F.mse_loss(value, y)
    )
    loss.backward()
    opt.step()
    losses.append(loss.item())
print("losses", [round(v, 4) for v in losses[::4]])
assert losses[-1] < losses[0]
print("batches tracked", model.bn.num_batches_tracked.item())
print("running mean", [round(v, 4) for v in model.bn.running_mean.tolist()[:3]])

model.eval()
with torch.no_grad():
    value, prob = model(x)
print("eval value", [round(v, 4) for v in value[:3, 0].tolist()])
print("prob rows sum to 1", bool(torch.allclose(prob.sum(1), torch.ones(16))))

copy = Net(p=0.5)
copy.load_state_dict(model.state_dict())
copy.eval()  # dropout off, running statistics on: the same outputs
with torch.no_grad():
    same = torch.equal(copy(x)[0], value)
print("reloaded copy agrees", same)

copy.train()
ones = torch.ones(200, 500)
kept = copy.blocks[0].drop(ones)
print("dropout zero fraction", round((kept == 0).float().mean().item(), 1))
print("dropout kept value", kept.max().item())
assert copy.blocks[0].drop.eval()(ones) is ones
