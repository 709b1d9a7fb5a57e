"""A tutorial-style CNN classifier, a DCGAN-style generator and an upsampling decoder:
default init under torch.manual_seed, print(model), losses with their grad_fn, a few
SGD steps. Written for this project; the layers are those of PyTorch's beginner tutorials."""

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)  # minigrad draws PyTorch's streams: the same default init
rng = np.random.default_rng(2)
xb = torch.tensor(rng.standard_normal((8, 1, 12, 12)), dtype=torch.float32)
yb = torch.tensor(rng.integers(0, 10, 8))


class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func

    def forward(self, x):
        return self.func(x)


model = nn.Sequential(
    nn.Conv2d(1, 16, kernel_size=3, stride=2, padding=1),
    nn.BatchNorm2d(16),
    nn.ReLU(),
    nn.Conv2d(16, 10, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    Lambda(lambda x: x.view(x.size(0), -1)),
)
print(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for step in range(3):
    loss = F.cross_entropy(model(xb), yb)
    print(step, loss)
    loss.backward()
    opt.step()
    opt.zero_grad()
model.eval()
with torch.no_grad():
    print("accuracy", (model(xb).argmax(dim=1) == yb).float().mean())
print(model[1].running_mean[:4], model[1].num_batches_tracked)

generator = nn.Sequential(
    nn.ConvTranspose2d(8, 16, 4, 1, 0, bias=False),
    nn.BatchNorm2d(16),
    nn.ReLU(True),
    nn.ConvTranspose2d(16, 3, 4, 2, 1, bias=False),
    nn.Tanh(),
)
print(generator)
z = torch.tensor(rng.standard_normal((2, 8, 1, 1)), dtype=torch.float32)
fake = generator(z)
print(tuple(fake.shape), fake.mean(), fake.grad_fn.name())
critic_loss = F.binary_cross_entropy_with_logits(fake.mean((1, 2, 3)), torch.ones(2))
critic_loss.backward()
print(generator[0].weight.grad.abs().sum())

decoder = nn.Sequential(
    nn.Upsample(scale_factor=2, mode="bilinear"),
    nn.Conv2d(3, 4, 3, padding=1),
    nn.GroupNorm(2, 4),
    nn.SiLU(),
    nn.Dropout2d(0.25),
    nn.Upsample(scale_factor=2),
    nn.ReflectionPad2d(1),
    nn.Conv2d(4, 2, 3),
)
print(decoder)
out = decoder(fake.detach())
target = F.log_softmax(torch.tensor(rng.standard_normal((2, 32)), dtype=torch.float32), dim=1)
kl = F.kl_div(
    F.log_softmax(out.flatten(1)[:, :32], dim=1), target, reduction="batchmean", log_target=True
)
kl.backward()
print(tuple(out.shape), kl, decoder[1].weight.grad.norm())
assert tuple(out.shape) == (2, 2, 32, 32)
