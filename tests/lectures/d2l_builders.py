"""The textbook's "builders' guide" and model-selection chapters in the d2l.ai style: lazy
layers (``nn.LazyLinear``, ``<UninitializedParameter>``, the module becoming ``Linear`` at
its first batch), parameter access (``net[2].state_dict()``, ``net[2].bias.data``,
``weight.grad == None``, ``named_parameters()``), nested blocks (``add_module(f'block
{i}', ...)``), initialisation with ``net.apply`` (``nn.init.normal_``, ``zeros_``,
``constant_``, ``xavier_uniform_``, ``uniform_``, ``weight.data *= weight.data.abs() >= 5``,
``weight.data[:] += 1``), tied layers, custom layers (``X - X.mean()``, ``nn.Parameter`` in
a ``MyLinear``), file I/O (``torch.save``/``torch.load`` of a tensor, a list, a dict),
devices (``torch.cuda.device_count()``, ``torch.device(f'cuda:{i}')``, ``try_gpu``), and
polynomial features built with numpy (``np.power``, ``math.gamma``) turned into tensors
with ``torch.tensor(x, dtype=torch.float32)`` and fitted with a ``LazyLinear``."""

import math
import os
import tempfile

import LIB as torch
import numpy as np
from LIB import nn
from LIB.nn import functional as F

torch.manual_seed(0)
np.random.seed(0)

# lazy layers and parameter access
net = nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.LazyLinear(1))
print(net[0].weight, type(net[0]).__name__)
print(net)
X = torch.rand(size=(2, 20))
print(net(X).shape, net[0].weight.shape, type(net[0]).__name__)
print(net)
print(net[2].state_dict())
print(type(net[2].bias), net[2].bias.data)
print(net[2].weight.grad == None)  # noqa: E711  (as the book)
print([(name, param.shape) for name, param in net.named_parameters()])


def block1():
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 4), nn.ReLU())


def block2():
    net = nn.Sequential()
    for i in range(4):
        net.add_module(f"block {i}", block1())
    return net


rgnet = nn.Sequential(block2(), nn.Linear(4, 1))
print(rgnet(torch.rand(2, 4)))
print(rgnet)
print(rgnet[0][1][0].bias.data)


# initialisation
def init_normal(module):
    if type(module) == nn.Linear:  # noqa: E721  (as the book)
        nn.init.normal_(module.weight, mean=0, std=0.01)
        nn.init.zeros_(module.bias)


net = nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.LazyLinear(1))
net(X)
net.apply(init_normal)
print(net[0].weight.data[0], net[0].bias.data[0])


def init_constant(module):
    if type(module) == nn.Linear:  # noqa: E721
        nn.init.constant_(module.weight, 1)
        nn.init.zeros_(module.bias)


net.apply(init_constant)
print(net[0].weight.data[0], net[0].bias.data[0])


def init_xavier(module):
    if type(module) == nn.Linear:  # noqa: E721
        nn.init.xavier_uniform_(module.weight)


def init_42(module):
    if type(module) == nn.Linear:  # noqa: E721
        nn.init.constant_(module.weight, 42)


net[0].apply(init_xavier)
net[2].apply(init_42)
print(net[0].weight.data[0])
print(net[2].weight.data)


def my_init(module):
    if type(module) == nn.Linear:  # noqa: E721
        print("Init", *[(name, param.shape) for name, param in module.named_parameters()][0])
        nn.init.uniform_(module.weight, -10, 10)
        module.weight.data *= module.weight.data.abs() >= 5


net.apply(my_init)
print(net[0].weight[:2])
net[0].weight.data[:] += 1
net[0].weight.data[0, 0] = 42
print(net[0].weight.data[0])

# tied parameters
shared = nn.LazyLinear(8)
net = nn.Sequential(
    nn.LazyLinear(8), nn.ReLU(), shared, nn.ReLU(), shared, nn.ReLU(), nn.LazyLinear(1)
)
net(X)
print(net[2].weight.data[0] == net[4].weight.data[0])
net[2].weight.data[0, 0] = 100
print(net[2].weight.data[0] == net[4].weight.data[0])
print(len(list(net.parameters())), sum(p.numel() for p in net.parameters()))


# custom layers
class CenteredLayer(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, X):
        return X - X.mean()


layer = CenteredLayer()
print(layer(torch.tensor([1.0, 2, 3, 4, 5])))
net = nn.Sequential(nn.LazyLinear(128), CenteredLayer())
Y = net(torch.rand(4, 8))
print(abs(Y.mean().item()) < 1e-6)


class MyLinear(nn.Module):
    def __init__(self, in_units, units):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_units, units))
        self.bias = nn.Parameter(torch.randn(units))

    def forward(self, X):
        linear = torch.matmul(X, self.weight.data) + self.bias.data
        return F.relu(linear)


linear = MyLinear(5, 3)
print(linear.weight)
print(linear(torch.rand(2, 5)))
net = nn.Sequential(MyLinear(64, 8), MyLinear(8, 1))
print(net(torch.rand(2, 64)))

# file I/O
with tempfile.TemporaryDirectory() as folder:
    x = torch.arange(4)
    torch.save(x, os.path.join(folder, "x-file"))
    x2 = torch.load(os.path.join(folder, "x-file"))
    print(x2)
    y = torch.zeros(4)
    torch.save([x, y], os.path.join(folder, "x-files"))
    x2, y2 = torch.load(os.path.join(folder, "x-files"))
    print(x2, y2)
    mydict = {"x": x, "y": y}
    torch.save(mydict, os.path.join(folder, "mydict"))
    print(torch.load(os.path.join(folder, "mydict")))
    net = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(2))
    X = torch.randn(size=(2, 20))
    Y = net(X)
    torch.save(net.state_dict(), os.path.join(folder, "mlp.params"))
    clone = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(2))
    clone(X)
    clone.load_state_dict(torch.load(os.path.join(folder, "mlp.params")))
    print(clone.eval())
    print(clone(X) == Y)

# devices
print(torch.cuda.device_count(), torch.device("cpu"), torch.device("cuda"), torch.device("cuda:1"))


def try_gpu(i=0):
    if torch.cuda.device_count() >= i + 1:
        return torch.device(f"cuda:{i}")
    return torch.device("cpu")


def try_all_gpus():
    devices = [torch.device(f"cuda:{i}") for i in range(torch.cuda.device_count())]
    return devices if devices else [torch.device("cpu")]


print(try_gpu(), try_gpu(10), try_all_gpus())
x = torch.tensor([1, 2, 3])
print(x.device)
X = torch.ones(2, 3, device=try_gpu())
print(X)
net = nn.Sequential(nn.LazyLinear(1))
net = net.to(device=try_gpu())
print(net(X), net[0].weight.data.device)

# polynomial regression: numpy features, tensors, a LazyLinear fitted with SGD
max_degree = 20
n_train, n_test = 100, 100
true_w = np.zeros(max_degree)
true_w[0:4] = np.array([5, 1.2, -3.4, 5.6])
features = np.random.normal(size=(n_train + n_test, 1))
np.random.shuffle(features)
poly_features = np.power(features, np.arange(max_degree).reshape(1, -1))
for i in range(max_degree):
    poly_features[:, i] /= math.gamma(i + 1)
labels = np.dot(poly_features, true_w)
labels += np.random.normal(scale=0.1, size=labels.shape)
true_w, features, poly_features, labels = [
    torch.tensor(x, dtype=torch.float32) for x in [true_w, features, poly_features, labels]
]
print(features[:2], poly_features[:2, :], labels[:2])


def train(train_features, test_features, train_labels, test_labels, num_epochs=100):
    loss = nn.MSELoss(reduction="none")
    net = nn.Sequential(nn.LazyLinear(1, bias=False))
    net(train_features[:1])
    batch_size = min(10, train_labels.shape[0])
    dataset = torch.utils.data.TensorDataset(train_features, train_labels.reshape(-1, 1))
    train_iter = torch.utils.data.DataLoader(dataset, batch_size, shuffle=True)
    trainer = torch.optim.SGD(net.parameters(), lr=0.01)
    for epoch in range(num_epochs):
        for X, y in train_iter:
            trainer.zero_grad()
            loss(net(X), y).mean().backward()
            trainer.step()
        if epoch == 0 or (epoch + 1) % 50 == 0:
            with torch.no_grad():
                test = loss(net(test_features), test_labels.reshape(-1, 1)).mean()
            print(f"epoch {epoch + 1}: test loss {test.item():.4f}")
    print("weight:", net[0].weight.data.numpy().round(2))


train(poly_features[:n_train, :4], poly_features[n_train:, :4], labels[:n_train], labels[n_train:])
train(poly_features[:n_train, :2], poly_features[n_train:, :2], labels[:n_train], labels[n_train:])
