"""A seeded training script using the less common parts of torch.optim, nn.init and
utils.data: orthogonal and truncated-normal initialisation, a class-balancing
WeightedRandomSampler over a StackDataset, SGD under a CyclicLR, then full-batch Rprop,
ASGD and L-BFGS (with a strong-Wolfe line search) from the same start."""

import copy

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, StackDataset, WeightedRandomSampler

rng = np.random.default_rng(3)
X = torch.tensor(rng.standard_normal((60, 4)), dtype=torch.float32)
labels = torch.tensor((rng.random(60) < 0.25).astype(np.int64))  # unbalanced: ~1 in 4
Y = X @ torch.tensor([[1.0], [-2.0], [0.5], [0.0]]) + labels.unsqueeze(1).float()

torch.manual_seed(0)
model = nn.Linear(4, 1)
nn.init.orthogonal_(model.weight, gain=0.5)
nn.init.trunc_normal_(model.bias, std=0.1, a=-0.2, b=0.2)
print("init", [round(v, 4) for v in model.weight.flatten().tolist()], round(model.bias.item(), 4))
start = copy.deepcopy(model.state_dict())
vec = nn.utils.parameters_to_vector(model.parameters())
print("as a vector", vec.shape[0], round(vec.sum().item(), 4))

counts = torch.stack(
    [(labels == 0).sum(), (labels == 1).sum()]
).float()  # (bincount: not in minigrad yet)
weights = (1.0 / counts)[labels]
sampler = WeightedRandomSampler(
    weights.tolist(), num_samples=60, generator=torch.Generator().manual_seed(1)
)
loader = DataLoader(StackDataset(x=X, y=Y, label=labels), batch_size=12, sampler=sampler)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
sched = torch.optim.lr_scheduler.CyclicLR(
    opt, base_lr=0.01, max_lr=0.1, step_size_up=3, mode="triangular2"
)
for epoch in range(4):
    seen_rare = 0
    for batch in loader:
        opt.zero_grad()
        loss = ((model(batch["x"]) - batch["y"]) ** 2).mean()
        loss.backward()
        opt.step()
        sched.step()
        seen_rare += int(batch["label"].sum())
    print(
        "epoch",
        epoch,
        "loss",
        round(loss.item(), 4),
        "rare",
        seen_rare,
        "lr",
        round(sched.get_last_lr()[0], 5),
    )
print(opt.param_groups[0]["momentum"])


def full_batch(opt_class, steps, **kwargs):
    model.load_state_dict(start)
    opt = opt_class(model.parameters(), **kwargs)

    def closure():
        opt.zero_grad()
        loss = ((model(X) - Y) ** 2).mean()
        loss.backward()
        return loss

    for _ in range(steps):
        loss = opt.step(closure)
    print(type(opt).__name__, round(loss.item(), 4), round(closure().item(), 4))
    return opt


full_batch(torch.optim.Rprop, 30, lr=0.01)
asgd = full_batch(torch.optim.ASGD, 30, lr=0.05, t0=10)
print(sorted(asgd.state_dict()["state"][0]))
lbfgs = full_batch(torch.optim.LBFGS, 1, line_search_fn="strong_wolfe")
print(lbfgs)
# (not printed: how many iterations L-BFGS runs before its float32 loss stops changing; near
# the minimum that hangs on the last bit of a matrix product, where numpy and PyTorch differ)
assert lbfgs.state_dict()["state"][0]["n_iter"] >= 2
assert ((model(X) - Y) ** 2).mean().item() < 0.2
