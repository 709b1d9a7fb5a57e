"""The "60-minute blitz" retold: tensors and the numpy bridge, autograd on a small
expression (``Q = 3a^3 - b^2`` with ``Q.backward(gradient=...)``), a LeNet-style network
(``Conv2d``, ``F.max_pool2d``, ``torch.flatten``), ``net.zero_grad()`` and
``out.backward(torch.randn(1, 10))``, walking ``loss.grad_fn.next_functions``, a manual
SGD step and ``optim.SGD``, and a classifier trained on synthetic CIFAR-shaped data."""

import LIB as torch
import LIB.nn as nn
import LIB.nn.functional as F
import LIB.optim as optim
import numpy as np

torch.manual_seed(0)
x = torch.rand(5, 3)
print(x)
print(torch.zeros(5, 3, dtype=torch.long))
x = x.new_ones(5, 3, dtype=torch.double)
x = torch.randn_like(x, dtype=torch.float)
print(x, x.size())
y = torch.rand(5, 3)
print(x + y, torch.add(x, y))
result = torch.empty(5, 3)
torch.add(x, y, out=result)
print(result)
y.add_(x)
print(y[:, 1])
x = torch.randn(4, 4)
print(x.view(16).size(), x.view(-1, 8).size())
print(torch.randn(1).item() < 10)
a = torch.ones(5)
b = a.numpy()
a.add_(1)
print(a, b)
a = np.ones(5)
b = torch.from_numpy(a)
np.add(a, 1, out=a)
print(a, b)

a = torch.tensor([2.0, 3.0], requires_grad=True)
b = torch.tensor([6.0, 4.0], requires_grad=True)
Q = 3 * a**3 - b**2
external_grad = torch.tensor([1.0, 1.0])
Q.backward(gradient=external_grad)
print(9 * a**2 == a.grad)
print(-2 * b == b.grad)
x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand((5, 5), requires_grad=True)
print(f"Does `a` require gradients?: {(x + y).requires_grad}")
print(f"Does `b` require gradients?: {(x + z).requires_grad}")
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
print(y.grad_fn.name(), z, out)
out.backward()
print(x.grad)
x = torch.randn(3, requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)
print(x.grad / (y / x).detach())
print(x.requires_grad, (x**2).requires_grad)
with torch.no_grad():
    print((x**2).requires_grad)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


net = Net()
print(net)
params = list(net.parameters())
print(len(params))
print(params[0].size())
input = torch.randn(1, 1, 32, 32)
out = net(input)
print(out)
net.zero_grad()
out.backward(torch.randn(1, 10))
print(net.conv1.bias.grad)

output = net(input)
target = torch.randn(10)
target = target.view(1, -1)
criterion = nn.MSELoss()
loss = criterion(output, target)
print(f"{loss.item():.4f}")
# (the blitz prints loss.grad_fn itself: MseLossBackward0 in PyTorch, MeanBackward0 above
# MseLossBackward0 in minigrad until the reduction moves inside the node)
print(output.grad_fn.name())
print(output.grad_fn.next_functions[0][0].name().removeprefix("torch::autograd::"))
print(output.grad_fn.next_functions[1][0].name())
net.zero_grad()
print("conv1.bias.grad before backward")
print(net.conv1.bias.grad)
loss.backward()
print("conv1.bias.grad after backward")
print(net.conv1.bias.grad)
learning_rate = 0.01
for f in net.parameters():
    f.data.sub_(f.grad.data * learning_rate)
optimizer = optim.SGD(net.parameters(), lr=0.01)
optimizer.zero_grad()
output = net(input)
loss = criterion(output, target)
loss.backward()
optimizer.step()
print(f"{criterion(net(input), target).item():.5f}")

classes = ("plane", "car", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck")
images = torch.randn(40, 3, 32, 32) * 0.5
labels = torch.randint(0, 10, (40,))
images[:, 0] += labels.view(-1, 1, 1).float() / 10
trainset = torch.utils.data.TensorDataset(images[:32], labels[:32])
testset = torch.utils.data.TensorDataset(images[32:], labels[32:])
trainloader = torch.utils.data.DataLoader(trainset, batch_size=4, shuffle=True, num_workers=2)
testloader = torch.utils.data.DataLoader(testset, batch_size=4, shuffle=False)
dataiter = iter(trainloader)
images_b, labels_b = next(dataiter)
print(" ".join(f"{classes[labels_b[j]]:5s}" for j in range(4)))


class CifarNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


net = CifarNet()
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
for epoch in range(2):
    running_loss = 0.0
    for i, data in enumerate(trainloader, 0):
        inputs, labels_b = data
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, labels_b)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        if i % 4 == 3:
            print(f"[{epoch + 1}, {i + 1:5d}] loss: {running_loss / 4:.3f}")
            running_loss = 0.0
print("Finished Training")

correct = 0
total = 0
correct_pred = {classname: 0 for classname in classes}
total_pred = {classname: 0 for classname in classes}
with torch.no_grad():
    for data in testloader:
        images_b, labels_b = data
        outputs = net(images_b)
        _, predicted = torch.max(outputs.data, 1)
        total += labels_b.size(0)
        correct += (predicted == labels_b).sum().item()
        for label, prediction in zip(labels_b, predicted):
            if label == prediction:
                correct_pred[classes[label]] += 1
            total_pred[classes[label]] += 1
print(f"Accuracy of the network on the 8 test images: {100 * correct // total} %")
for classname, correct_count in correct_pred.items():
    if total_pred[classname]:
        accuracy = 100 * float(correct_count) / total_pred[classname]
        print(f"Accuracy for class: {classname:5s} is {accuracy:.1f} %")
