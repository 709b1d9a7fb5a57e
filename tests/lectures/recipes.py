"""PyTorch's "Recipes", small: zeroing out gradients (``.grad`` accumulating over two
``backward`` calls, ``optimizer.zero_grad()`` leaving ``None``, ``net.zero_grad()``,
``zero_grad(set_to_none=False)``); what a state_dict is (``model.state_dict()``'s keys and
``.size()``, buffers such as ``running_mean`` and ``num_batches_tracked``,
``optimizer.state_dict()`` printed as it is: ``state`` and ``param_groups`` with every
default, then after steps of momentum SGD and Adam); saving and loading for inference and a
general checkpoint to an ``io.BytesIO`` (``torch.save``, ``torch.load`` with its
``weights_only`` default, ``load_state_dict`` printing ``<All keys matched successfully>``,
``strict=False`` printing the missing and unexpected keys, ``model.eval()``), several
models in one file, a whole model with ``weights_only=False``, warmstarting a model
from another's parameters, ``map_location`` and ``state_dict(keep_vars=True)``; defining a
neural network (``nn.Dropout2d``, ``torch.flatten``); and loading with
``load_state_dict(state_dict, assign=True)``."""

import io

import LIB as torch
import LIB.nn as nn
import LIB.nn.functional as F
import LIB.optim as optim

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()  # noqa: UP008  (as the recipe)
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


# zeroing out gradients
net = Net()
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
inputs, labels = torch.randn(4, 3, 32, 32), torch.randint(0, 10, (4,))
print(net.conv1.bias.grad)
loss = criterion(net(inputs), labels)
loss.backward()
first = net.conv1.bias.grad.clone()
criterion(net(inputs), labels).backward()
print(torch.allclose(net.conv1.bias.grad, 2 * first))
optimizer.zero_grad()
print(net.conv1.bias.grad, all(p.grad is None for p in net.parameters()))
criterion(net(inputs), labels).backward()
optimizer.zero_grad(set_to_none=False)
print(net.conv1.bias.grad)
net.zero_grad()
print(net.fc3.bias.grad)

images = torch.randn(32, 3, 32, 32)
targets = torch.randint(0, 10, (32,))
trainloader = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(images, targets), batch_size=4, shuffle=True
)
for epoch in range(2):
    running_loss = 0.0
    for i, data in enumerate(trainloader, 0):
        inputs, labels = data
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        if i % 4 == 3:
            print("[%d, %5d] loss: %.3f" % (epoch + 1, i + 1, running_loss / 4))  # noqa: UP031
            running_loss = 0.0
print("Finished Training")

# what a state_dict is
print("Model's state_dict:")
for param_tensor in net.state_dict():
    print(param_tensor, "\t", net.state_dict()[param_tensor].size())
fresh = optim.SGD(Net().parameters(), lr=0.001, momentum=0.9)
print("Optimizer's state_dict:")
for var_name in fresh.state_dict():
    print(var_name, "\t", fresh.state_dict()[var_name])
state = optimizer.state_dict()
print(sorted(state["state"]), list(state["state"][0]), state["state"][0]["momentum_buffer"].shape)
print(state["param_groups"][0]["params"])

bn_model = nn.Sequential(
    nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.ReLU(), nn.Flatten(), nn.Linear(8, 3)
)
bn_model(torch.randn(5, 1, 4, 4))
for key, value in bn_model.state_dict().items():
    print(key, tuple(value.shape), value.dtype, value.requires_grad)
print(bn_model.state_dict()["1.num_batches_tracked"], bn_model.state_dict()["1.running_var"])
print(type(bn_model.state_dict()).__name__)

adam = optim.Adam(bn_model.parameters(), lr=0.01)
for _ in range(2):
    adam.zero_grad()
    bn_model(torch.randn(5, 1, 4, 4)).pow(2).mean().backward()
    adam.step()
adam_state = adam.state_dict()
print(adam_state["param_groups"])
print({k: (v.shape if v.dim() else v) for k, v in adam_state["state"][0].items()})

# saving and loading a model for inference
buffer = io.BytesIO()
torch.save(net.state_dict(), buffer)
buffer.seek(0)
model = Net()
print(model.load_state_dict(torch.load(buffer, weights_only=True)))
model.eval()
x = torch.randn(2, 3, 32, 32)
print(torch.equal(model(x), net(x)), model.training)

# a general checkpoint
EPOCH, LOSS = 5, 0.4
buffer = io.BytesIO()
torch.save(
    {
        "epoch": EPOCH,
        "model_state_dict": net.state_dict(),
        "optimizer_state_dict": optimizer.state_dict(),
        "loss": LOSS,
    },
    buffer,
)
buffer.seek(0)
model = Net()
optimizer2 = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
checkpoint = torch.load(buffer, weights_only=True)
model.load_state_dict(checkpoint["model_state_dict"])
optimizer2.load_state_dict(checkpoint["optimizer_state_dict"])
epoch = checkpoint["epoch"]
loss = checkpoint["loss"]
print(sorted(checkpoint), epoch, loss)
model.train()
print(
    torch.equal(
        optimizer2.state_dict()["state"][3]["momentum_buffer"],
        optimizer.state_dict()["state"][3]["momentum_buffer"],
    )
)
for opt, m in ((optimizer, net), (optimizer2, model)):
    opt.zero_grad()
    criterion(m(images[:4]), targets[:4]).backward()
    opt.step()
print(torch.allclose(model.fc3.weight, net.fc3.weight), model.fc3.weight.requires_grad)

# several models in one file
netA, netB = Net(), nn.Linear(10, 2)
optimizerA = optim.SGD(netA.parameters(), lr=0.001, momentum=0.9)
optimizerB = optim.Adam(netB.parameters())
buffer = io.BytesIO()
torch.save(
    {
        "modelA_state_dict": netA.state_dict(),
        "modelB_state_dict": netB.state_dict(),
        "optimizerA_state_dict": optimizerA.state_dict(),
        "optimizerB_state_dict": optimizerB.state_dict(),
    },
    buffer,
)
buffer.seek(0)
checkpoint = torch.load(buffer)
modelA, modelB = Net(), nn.Linear(10, 2)
print(modelA.load_state_dict(checkpoint["modelA_state_dict"]))
print(modelB.load_state_dict(checkpoint["modelB_state_dict"]))
print(
    torch.equal(modelB.weight, netB.weight),
    checkpoint["optimizerB_state_dict"]["param_groups"][0]["betas"],
)

# a whole model
buffer = io.BytesIO()
torch.save(net, buffer)
buffer.seek(0)
whole = torch.load(buffer, weights_only=False)
print(type(whole).__name__, torch.equal(whole(x), net(x)))


# warmstarting from a different model
class NetB(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.fc_new = nn.Linear(6, 2)


modelB = NetB()
result = modelB.load_state_dict(net.state_dict(), strict=False)
print(result)
print(result.missing_keys, len(result.unexpected_keys))
print(torch.equal(modelB.conv1.weight, net.conv1.weight))
try:
    modelB.load_state_dict(net.state_dict())
except RuntimeError as e:
    print("RuntimeError", str(e))
small = nn.Linear(4, 2)
try:
    small.load_state_dict({"weight": torch.zeros(2, 3), "bias": torch.zeros(2)})
except RuntimeError as e:
    print("RuntimeError", str(e))

# loading across devices, and what a state_dict holds
buffer = io.BytesIO()
torch.save(small.state_dict(), buffer)
for location in ("cpu", torch.device("cpu"), lambda storage, loc: storage):
    buffer.seek(0)
    loaded = torch.load(buffer, map_location=location)
    print(loaded["weight"].device, loaded["weight"].requires_grad, list(loaded.keys()))
device = torch.device("cpu")
print(small.to(device).weight.device)
print(small.state_dict().keys())
print(small.state_dict()["bias"])
kept = small.state_dict(keep_vars=True)
print(kept["weight"].requires_grad, type(kept["weight"]).__name__, kept["weight"] is small.weight)
print(small.state_dict()["weight"].requires_grad, small.state_dict()["weight"].is_leaf)
print(net.state_dict()["fc3.bias"].data_ptr() == net.fc3.bias.data_ptr())
with torch.no_grad():
    small.state_dict()["bias"].fill_(1.0)
print(small.bias)
optimizer2.param_groups[0]["lr"] = 0.01
print(optimizer2.state_dict()["param_groups"][0]["lr"], optimizer2)


# defining a neural network
class MnistNet(nn.Module):
    def __init__(self):
        super(MnistNet, self).__init__()  # noqa: UP008  (as the recipe)
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.dropout1 = nn.Dropout2d(0.25)
        self.dropout2 = nn.Dropout2d(0.5)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = self.conv1(x)
        x = F.relu(x)
        x = self.conv2(x)
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.fc2(x)
        output = F.log_softmax(x, dim=1)
        return output


my_nn = MnistNet()
print(my_nn)
random_data = torch.rand((1, 1, 28, 28))
result = my_nn(random_data)
print(result)


# tips for loading a module from a checkpoint: assign=True
class SomeModule(nn.Module):
    def __init__(self, size):
        super().__init__()
        self.linears = nn.ModuleList([nn.Linear(size, size) for i in range(3)])

    def forward(self, x):
        return self.linears[1](x)


m = SomeModule(10)
buffer = io.BytesIO()
torch.save(m.state_dict(), buffer)
buffer.seek(0)
state_dict = torch.load(buffer, weights_only=True)
new_m = SomeModule(10)
old_weight = new_m.linears[0].weight
print(new_m.load_state_dict(state_dict, assign=True))
weight = new_m.linears[0].weight
print(weight is old_weight, type(weight).__name__, weight.requires_grad)
print(weight.data_ptr() == state_dict["linears.0.weight"].data_ptr())
x = torch.randn(2, 10)
print(torch.equal(new_m(x), m(x)))
print(torch.get_default_device(), torch.get_default_dtype())
