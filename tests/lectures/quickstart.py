"""PyTorch's quickstart, retold on synthetic data: loaders printing their batch shapes, the
device line, a model moved ``.to(device)``, train/test functions with the tutorial's
progress lines, the weights saved to a file path and loaded back into a new model, and a
prediction read out with ``classes[pred[0].argmax(0)]``."""

import os
import tempfile

import LIB as torch
from LIB import nn
from LIB.utils.data import DataLoader, TensorDataset

torch.manual_seed(7)
classes = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat"]
labels = torch.randint(0, len(classes), (120,))
images = torch.rand(120, 1, 5, 5) * 0.3
images[torch.arange(120), 0, labels, labels] += 1.0
training_data = TensorDataset(images[:96], labels[:96])
test_data = TensorDataset(images[96:], labels[96:])
batch_size = 16
train_dataloader = DataLoader(training_data, batch_size=batch_size)
test_dataloader = DataLoader(test_data, batch_size=batch_size)
for X, y in test_dataloader:
    print(f"Shape of X [N, C, H, W]: {X.shape}")
    print(f"Shape of y: {y.shape} {y.dtype}")
    break

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(f"Using {device} device")


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(5 * 5, 24), nn.ReLU(), nn.Linear(24, 24), nn.ReLU(), nn.Linear(24, 5)
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


model = NeuralNetwork().to(device)
print(model)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-1)


def train(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        X, y = X.to(device), y.to(device)
        pred = model(X)
        loss = loss_fn(pred, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 3 == 0:
            loss, current = loss.item(), (batch + 1) * len(X)
            print(f"loss: {loss:>7.4f}  [{current:>5d}/{size:>5d}]")


def test(dataloader, model, loss_fn):
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    model.eval()
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            X, y = X.to(device), y.to(device)
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100 * correct):>0.1f}%, Avg loss: {test_loss:>8.4f} \n")


epochs = 3
for t in range(epochs):
    print(f"Epoch {t + 1}\n-------------------------------")
    train(train_dataloader, model, loss_fn, optimizer)
    test(test_dataloader, model, loss_fn)
print("Done!")

folder = tempfile.mkdtemp()
path = os.path.join(folder, "model.pth")
torch.save(model.state_dict(), path)
print("Saved PyTorch Model State to model.pth")
model = NeuralNetwork().to(device)
print(model.load_state_dict(torch.load(path, weights_only=True)))
model.eval()
x, y = test_data[0][0], test_data[0][1]
with torch.no_grad():
    x = x.to(device)
    pred = model(x)
    predicted, actual = classes[pred[0].argmax(0)], classes[y]
    print(f'Predicted: "{predicted}", Actual: "{actual}"')
torch.save(model, os.path.join(folder, "whole.pth"))
again = torch.load(os.path.join(folder, "whole.pth"), weights_only=False)
print(type(again).__name__, torch.equal(again(x), model(x)))
os.remove(path)
os.remove(os.path.join(folder, "whole.pth"))
os.rmdir(folder)
