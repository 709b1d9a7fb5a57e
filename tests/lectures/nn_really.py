"""PyTorch's "what is torch.nn really?" walk, retold on synthetic digit-shaped data: a
model from raw tensors (``randn / sqrt(n)``, ``requires_grad_()``, a hand-written
``log_softmax`` and ``nll`` with ``range`` indexing, accuracy), the same refactored step by
step into ``F.cross_entropy``, ``nn.Module`` with ``nn.Parameter``, ``nn.Linear``,
``optim``, ``TensorDataset``/``DataLoader``, a ``fit`` loop with validation, and a small
CNN (``view(-1, 1, 8, 8)``, ``Conv2d``, ``avg_pool2d``, a ``Lambda`` module)."""

import math

import LIB as torch
import LIB.nn.functional as F
import numpy as np
from LIB import nn, optim
from LIB.utils.data import DataLoader, TensorDataset

rng = np.random.default_rng(0)
SIDE, CLASSES = 8, 10
prototypes = rng.uniform(0, 1, size=(CLASSES, SIDE * SIDE))
y_all = rng.integers(0, CLASSES, size=400)
x_all = np.clip(prototypes[y_all] + rng.normal(0, 0.3, size=(400, SIDE * SIDE)), 0, 1)
x_all = x_all.astype(np.float32)
x_train, y_train, x_valid, y_valid = map(
    torch.tensor, (x_all[:300], y_all[:300], x_all[300:], y_all[300:])
)
n, c = x_train.shape
print(x_train.shape, y_train.shape, n, c)
print(f"{x_train.min().item():.4f} {x_train.max().item():.4f}", y_train.min(), y_train.max())

torch.manual_seed(0)
weights = torch.randn(SIDE * SIDE, CLASSES) / math.sqrt(SIDE * SIDE)
weights.requires_grad_()
bias = torch.zeros(CLASSES, requires_grad=True)


def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)


def model(xb):
    return log_softmax(xb @ weights + bias)


bs = 64
xb = x_train[0:bs]
preds = model(xb)
print(preds[0], preds.shape)


def nll(input, target):
    return -input[range(target.shape[0]), target].mean()


loss_func = nll
yb = y_train[0:bs]
print(loss_func(preds, yb))


def accuracy(out, yb):
    preds = torch.argmax(out, dim=1)
    return (preds == yb).float().mean()


print(accuracy(preds, yb))

lr = 0.5
epochs = 2
for _epoch in range(epochs):
    for i in range((n - 1) // bs + 1):
        start_i = i * bs
        end_i = start_i + bs
        xb = x_train[start_i:end_i]
        yb = y_train[start_i:end_i]
        pred = model(xb)
        loss = loss_func(pred, yb)
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
print(loss_func(model(xb), yb), accuracy(model(xb), yb))

loss_func = F.cross_entropy


def model(xb):
    return xb @ weights + bias


print(loss_func(model(xb), yb), accuracy(model(xb), yb))


class MnistLogistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.weights = nn.Parameter(torch.randn(SIDE * SIDE, CLASSES) / math.sqrt(SIDE * SIDE))
        self.bias = nn.Parameter(torch.zeros(CLASSES))

    def forward(self, xb):
        return xb @ self.weights + self.bias


model = MnistLogistic()
print(loss_func(model(xb), yb))


def fit():
    for _epoch in range(epochs):
        for i in range((n - 1) // bs + 1):
            start_i = i * bs
            end_i = start_i + bs
            xb = x_train[start_i:end_i]
            yb = y_train[start_i:end_i]
            pred = model(xb)
            loss = loss_func(pred, yb)
            loss.backward()
            with torch.no_grad():
                for p in model.parameters():
                    p -= p.grad * lr
                model.zero_grad()


fit()
print(loss_func(model(xb), yb))


class MnistLinear(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(SIDE * SIDE, CLASSES)

    def forward(self, xb):
        return self.lin(xb)


def get_model():
    model = MnistLinear()
    return model, optim.SGD(model.parameters(), lr=lr)


model, opt = get_model()
print(loss_func(model(xb), yb))
train_ds = TensorDataset(x_train, y_train)
train_dl = DataLoader(train_ds, batch_size=bs, shuffle=True)
valid_ds = TensorDataset(x_valid, y_valid)
valid_dl = DataLoader(valid_ds, batch_size=bs * 2)
for epoch in range(epochs):
    model.train()
    for xb, yb in train_dl:
        pred = model(xb)
        loss = loss_func(pred, yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
    model.eval()
    with torch.no_grad():
        valid_loss = sum(loss_func(model(xb), yb) for xb, yb in valid_dl)
    print(epoch, valid_loss / len(valid_dl))


def loss_batch(model, loss_func, xb, yb, opt=None):
    loss = loss_func(model(xb), yb)
    if opt is not None:
        loss.backward()
        opt.step()
        opt.zero_grad()
    return loss.item(), len(xb)


def fit(epochs, model, loss_func, opt, train_dl, valid_dl):
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_dl:
            loss_batch(model, loss_func, xb, yb, opt)
        model.eval()
        with torch.no_grad():
            losses, nums = zip(*[loss_batch(model, loss_func, xb, yb) for xb, yb in valid_dl])
        val_loss = np.sum(np.multiply(losses, nums)) / np.sum(nums)
        print(epoch, f"{val_loss:.6f}")


class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func

    def forward(self, x):
        return self.func(x)


def preprocess(x):
    return x.view(-1, 1, SIDE, SIDE)


dev = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
model = nn.Sequential(
    Lambda(preprocess),
    nn.Conv2d(1, 16, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(16, 16, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(16, CLASSES, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    Lambda(lambda x: x.view(x.size(0), -1)),
)
model.to(dev)
print(model)
opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
fit(epochs, model, loss_func, opt, train_dl, valid_dl)
xb = x_valid[:4].view(-1, 1, SIDE, SIDE)
print(F.avg_pool2d(xb, 4).shape, xb.view(-1, xb.size(1)).shape, dev)
