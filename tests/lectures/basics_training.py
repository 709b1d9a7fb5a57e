"""The data, model, optimization and save-and-load chapters of PyTorch's "Learn the
Basics", on synthetic image-shaped data (no download): a custom ``Dataset``, ``DataLoader``
(batch_size, shuffle, drop_last, collate of tuples and dicts), an ``nn.Module`` of
``Flatten``/``Sequential``/``Linear``/``ReLU``, ``Softmax(dim=1)``, ``named_parameters``,
the train and test loops, ``state_dict`` and a whole model through ``save``/``load``."""

import io

import LIB as torch
import numpy as np
from LIB import nn
from LIB.utils.data import DataLoader, Dataset

torch.manual_seed(0)
rng = np.random.default_rng(0)
SIDE, CLASSES = 6, 4
images = rng.normal(size=(96, 1, SIDE, SIDE)).astype(np.float32)
labels = rng.integers(0, CLASSES, size=96)
images[np.arange(96), 0, labels, labels] += 3.0  # a pattern a model can learn


class SyntheticImages(Dataset):
    def __init__(self, start, stop, transform=None, target_transform=None):
        self.images = images[start:stop]
        self.labels = labels[start:stop]
        self.transform = transform
        self.target_transform = target_transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        image = torch.from_numpy(self.images[idx])
        label = int(self.labels[idx])
        if self.transform:
            image = self.transform(image)
        if self.target_transform:
            label = self.target_transform(label)
        return image, label


training_data = SyntheticImages(0, 64)
test_data = SyntheticImages(64, 96)
img, label = training_data[3]
print(len(training_data), img.shape, img.dtype, label)


def one_hot_target(y):  # the tutorial's Lambda transform writes a 1 with scatter_
    target = torch.zeros(CLASSES, dtype=torch.float)
    target[y] = 1
    return target


one_hot = SyntheticImages(0, 8, target_transform=one_hot_target)
print(one_hot[0][1])

train_dataloader = DataLoader(training_data, batch_size=16, shuffle=True)
test_dataloader = DataLoader(test_data, batch_size=16)
train_features, train_labels = next(iter(train_dataloader))
print(f"Feature batch shape: {train_features.size()}")
print(f"Labels batch shape: {train_labels.size()}")
print(train_labels, train_labels.dtype)
print(train_features[0].squeeze().shape)
print(len(train_dataloader), len(DataLoader(training_data, batch_size=10, drop_last=True)))
print([len(y) for _, y in DataLoader(training_data, batch_size=10)])


class Pairs(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, i):
        return {"x": torch.tensor([i, i * 2.0]), "y": i, "name": f"s{i}"}


for batch in DataLoader(Pairs(), batch_size=2):
    print(batch["x"], batch["y"], batch["name"])

device = "cuda" if torch.cuda.is_available() else "cpu"
print(f"Using {device} device")


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(SIDE * SIDE, 32),
            nn.ReLU(),
            nn.Linear(32, 32),
            nn.ReLU(),
            nn.Linear(32, CLASSES),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


model = NeuralNetwork().to(device)
print(model)
X = torch.rand(1, SIDE, SIDE, device=device)
logits = model(X)
pred_probab = nn.Softmax(dim=1)(logits)
y_pred = pred_probab.argmax(1)
print(f"Predicted class: {y_pred}")
print(pred_probab)
input_image = torch.rand(3, SIDE, SIDE)
flat_image = nn.Flatten()(input_image)
print(flat_image.size())
hidden1 = nn.ReLU()(nn.Linear(in_features=SIDE * SIDE, out_features=5)(flat_image))
print(f"After ReLU: {hidden1}")
for name, param in model.named_parameters():
    print(f"Layer: {name} | Size: {param.size()} | Values : {param[:2]} \n")

learning_rate = 1e-1
batch_size = 16
epochs = 3
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)


def train_loop(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        pred = model(X)
        loss = loss_fn(pred, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 2 == 0:
            loss, current = loss.item(), batch * batch_size + len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")


def test_loop(dataloader, model, loss_fn):
    model.eval()
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    test_loss, correct = 0, 0
    with torch.no_grad():
        for X, y in dataloader:
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100 * correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")


for t in range(epochs):
    print(f"Epoch {t + 1}\n-------------------------------")
    train_loop(train_dataloader, model, loss_fn, optimizer)
    test_loop(test_dataloader, model, loss_fn)
print("Done!")

buffer = io.BytesIO()
torch.save(model.state_dict(), buffer)
buffer.seek(0)
fresh = NeuralNetwork()
print(fresh.load_state_dict(torch.load(buffer, weights_only=True)))
fresh.eval()
print(list(fresh.state_dict().keys()))
print(torch.equal(fresh(X), model(X)))
buffer = io.BytesIO()
torch.save(model, buffer)
buffer.seek(0)
whole = torch.load(buffer, weights_only=False)
print(type(whole).__name__, torch.equal(whole(X), model(X)), whole.training)
