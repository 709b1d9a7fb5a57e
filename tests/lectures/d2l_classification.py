"""Textbook classification chapters in the d2l.ai style, on a synthetic Fashion-MNIST
stand-in (28x28 images made in the script): softmax regression from scratch
(``X.exp()``, ``sum(1, keepdim=True)``, cross entropy as ``-torch.log(y_hat[range(len(y_hat)),
y])``, accuracy with ``argmax(axis=1)`` and ``.type(y.dtype)``) and concise
(``nn.Sequential(nn.Flatten(), nn.Linear(784, 10))``, ``net.apply(init_weights)`` with
``type(m) == nn.Linear`` and ``nn.init.normal_(m.weight, std=0.01)``,
``nn.CrossEntropyLoss(reduction='none')``, ``isinstance(updater, torch.optim.Optimizer)``,
``net.train()``/``net.eval()``); an MLP from scratch (``nn.Parameter(torch.randn(...) *
0.01)``, ``torch.max(X, torch.zeros_like(X))``, ``X @ W1 + b1``); dropout from scratch
(``(torch.rand(X.shape) > dropout).float() * X / (1.0 - dropout)``, ``self.training``) and
concise (``nn.Dropout``); weight decay (``torch.sum(w.pow(2)) / 2``, ``torch.norm(w).item()``,
per-group ``weight_decay`` in ``optim.SGD``); numerical stability (the vanishing gradient
of ``torch.sigmoid`` on ``torch.arange(-8.0, 8.0, 0.1)``, ``y.backward(torch.ones_like(x))``,
a product of 100 random matrices with ``torch.mm``)."""

import LIB as torch
from LIB import nn
from LIB.utils import data

torch.manual_seed(0)


def get_fashion_mnist_labels(labels):
    text_labels = ["t-shirt", "trouser", "pullover", "dress", "coat"]
    text_labels += ["sandal", "shirt", "sneaker", "bag", "ankle boot"]
    return [text_labels[int(i)] for i in labels]


def load_data_fashion_mnist(batch_size, n_train=240, n_test=80):
    """A stand-in: each class a blurred template plus noise, values in [0, 1]."""
    templates = torch.rand(10, 1, 7, 7).repeat_interleave(4, dim=2).repeat_interleave(4, dim=3)
    labels = torch.randint(0, 10, (n_train + n_test,))
    images = (templates[labels] + 0.5 * torch.rand(n_train + n_test, 1, 28, 28)) / 1.5
    train = data.TensorDataset(images[:n_train], labels[:n_train])
    test = data.TensorDataset(images[n_train:], labels[n_train:])
    return (
        data.DataLoader(train, batch_size, shuffle=True),
        data.DataLoader(test, batch_size, shuffle=False),
    )


batch_size = 32
train_iter, test_iter = load_data_fashion_mnist(batch_size)
X, y = next(iter(train_iter))
print(X.shape, X.dtype, y.shape, y.dtype)
print(get_fashion_mnist_labels(y[:6]))
print(len(train_iter.dataset), len(test_iter))


class Accumulator:
    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def reset(self):
        self.data = [0.0] * len(self.data)

    def __getitem__(self, idx):
        return self.data[idx]


def accuracy(y_hat, y):
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())


def evaluate_accuracy(net, data_iter):
    if isinstance(net, torch.nn.Module):
        net.eval()
    metric = Accumulator(2)
    with torch.no_grad():
        for X, y in data_iter:
            metric.add(accuracy(net(X), y), y.numel())
    return metric[0] / metric[1]


def train_epoch_ch3(net, train_iter, loss, updater):
    if isinstance(net, torch.nn.Module):
        net.train()
    metric = Accumulator(3)
    for X, y in train_iter:
        y_hat = net(X)
        l = loss(y_hat, y)
        if isinstance(updater, torch.optim.Optimizer):
            updater.zero_grad()
            l.mean().backward()
            updater.step()
        else:
            l.sum().backward()
            updater(X.shape[0])
        metric.add(float(l.sum()), accuracy(y_hat, y), y.numel())
    return metric[0] / metric[2], metric[1] / metric[2]


def train_ch3(net, train_iter, test_iter, loss, num_epochs, updater):
    for epoch in range(num_epochs):
        train_loss, train_acc = train_epoch_ch3(net, train_iter, loss, updater)
        test_acc = evaluate_accuracy(net, test_iter)
        print(
            f"epoch {epoch + 1}, loss {train_loss:.4f}, train acc {train_acc:.3f}, test acc {test_acc:.3f}"
        )


def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


# softmax regression from scratch
num_inputs, num_outputs = 784, 10
W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)


def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition


def net(X):
    return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)


def cross_entropy(y_hat, y):
    return -torch.log(y_hat[range(len(y_hat)), y])


y = torch.tensor([0, 2])
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(y_hat[[0, 1], y], cross_entropy(y_hat, y), accuracy(y_hat, y) / len(y))
print(f"{evaluate_accuracy(net, test_iter):.4f}")


def updater(batch_size):
    return sgd([W, b], 0.1, batch_size)


train_ch3(net, train_iter, test_iter, cross_entropy, 3, updater)
X, y = next(iter(test_iter))
trues = get_fashion_mnist_labels(y)
preds = get_fashion_mnist_labels(net(X).argmax(axis=1))
print([true + "\n" + pred for true, pred in zip(trues, preds)][:4])

# softmax regression, concise
net = nn.Sequential(nn.Flatten(), nn.Linear(784, 10))


def init_weights(m):
    if type(m) == nn.Linear:  # noqa: E721  (as the book)
        nn.init.normal_(m.weight, std=0.01)


print(net.apply(init_weights))
loss = nn.CrossEntropyLoss(reduction="none")
trainer = torch.optim.SGD(net.parameters(), lr=0.1)
train_ch3(net, train_iter, test_iter, loss, 3, trainer)

# an MLP from scratch
num_inputs, num_outputs, num_hiddens = 784, 10, 64
W1 = nn.Parameter(torch.randn(num_inputs, num_hiddens, requires_grad=True) * 0.01)
b1 = nn.Parameter(torch.zeros(num_hiddens, requires_grad=True))
W2 = nn.Parameter(torch.randn(num_hiddens, num_outputs, requires_grad=True) * 0.01)
b2 = nn.Parameter(torch.zeros(num_outputs, requires_grad=True))
params = [W1, b1, W2, b2]
print(type(W1).__name__, W1.is_leaf, W1.requires_grad, W1.grad_fn)


def relu(X):
    a = torch.zeros_like(X)
    return torch.max(X, a)


def net(X):
    X = X.reshape((-1, num_inputs))
    H = relu(X @ W1 + b1)
    return H @ W2 + b2


loss = nn.CrossEntropyLoss(reduction="none")
updater = torch.optim.SGD(params, lr=0.1)
train_ch3(net, train_iter, test_iter, loss, 3, updater)


# dropout from scratch
def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    if dropout == 1:
        return torch.zeros_like(X)
    if dropout == 0:
        return X
    mask = (torch.rand(X.shape) > dropout).float()
    return mask * X / (1.0 - dropout)


X = torch.arange(16, dtype=torch.float32).reshape((2, 8))
print(X)
print(dropout_layer(X, 0.0))
print(dropout_layer(X, 0.5))
print(dropout_layer(X, 1.0))

num_inputs, num_outputs, num_hiddens1, num_hiddens2 = 784, 10, 64, 32
dropout1, dropout2 = 0.2, 0.5


class Net(nn.Module):
    def __init__(self, num_inputs, num_outputs, num_hiddens1, num_hiddens2, is_training=True):
        super(Net, self).__init__()  # noqa: UP008  (as the book)
        self.num_inputs = num_inputs
        self.training = is_training
        self.lin1 = nn.Linear(num_inputs, num_hiddens1)
        self.lin2 = nn.Linear(num_hiddens1, num_hiddens2)
        self.lin3 = nn.Linear(num_hiddens2, num_outputs)
        self.relu = nn.ReLU()

    def forward(self, X):
        H1 = self.relu(self.lin1(X.reshape((-1, self.num_inputs))))
        if self.training == True:  # noqa: E712  (as the book)
            H1 = dropout_layer(H1, dropout1)
        H2 = self.relu(self.lin2(H1))
        if self.training == True:  # noqa: E712
            H2 = dropout_layer(H2, dropout2)
        out = self.lin3(H2)
        return out


net = Net(num_inputs, num_outputs, num_hiddens1, num_hiddens2)
loss = nn.CrossEntropyLoss(reduction="none")
trainer = torch.optim.SGD(net.parameters(), lr=0.5)
train_ch3(net, train_iter, test_iter, loss, 3, trainer)
print(net.training)

net = nn.Sequential(
    nn.Flatten(),
    nn.Linear(784, 64),
    nn.ReLU(),
    nn.Dropout(dropout1),
    nn.Linear(64, 32),
    nn.ReLU(),
    nn.Dropout(dropout2),
    nn.Linear(32, 10),
)
net.apply(init_weights)
print(net)
trainer = torch.optim.SGD(net.parameters(), lr=0.5)
train_ch3(net, train_iter, test_iter, loss, 3, trainer)
print(net.training, net[3].training)


# weight decay
def synthetic_data(w, b, num_examples):
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


def load_array(data_arrays, batch_size, is_train=True):
    dataset = data.TensorDataset(*data_arrays)
    return data.DataLoader(dataset, batch_size, shuffle=is_train)


n_train, n_test, num_inputs, batch_size = 20, 100, 200, 5
true_w, true_b = torch.ones((num_inputs, 1)) * 0.01, 0.05
train_data = synthetic_data(true_w, true_b, n_train)
train_iter = load_array(train_data, batch_size)
test_data = synthetic_data(true_w, true_b, n_test)
test_iter = load_array(test_data, batch_size, is_train=False)


def init_params():
    w = torch.normal(0, 1, size=(num_inputs, 1), requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    return [w, b]


def l2_penalty(w):
    return torch.sum(w.pow(2)) / 2


def linreg(X, w, b):
    return torch.matmul(X, w) + b


def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2


def evaluate_loss(net, data_iter, loss):
    metric = Accumulator(2)
    for X, y in data_iter:
        out = net(X)
        y = y.reshape(out.shape)
        l = loss(out, y)
        metric.add(l.sum(), l.numel())
    return metric[0] / metric[1]


def train(lambd):
    w, b = init_params()
    net, loss = lambda X: linreg(X, w, b), squared_loss
    num_epochs, lr = 20, 0.003
    for epoch in range(num_epochs):
        for X, y in train_iter:
            l = loss(net(X), y) + lambd * l2_penalty(w)
            l.sum().backward()
            sgd([w, b], lr, batch_size)
        if (epoch + 1) % 5 == 0:
            print(
                f"epoch {epoch + 1}: train {evaluate_loss(net, train_iter, loss):.4f}, "
                f"test {evaluate_loss(net, test_iter, loss):.4f}"
            )
    print("L2 norm of w:", f"{torch.norm(w).item():.5f}")


train(lambd=0)
train(lambd=3)


def train_concise(wd):
    net = nn.Sequential(nn.Linear(num_inputs, 1))
    for param in net.parameters():
        param.data.normal_()
    loss = nn.MSELoss(reduction="none")
    num_epochs, lr = 20, 0.003
    trainer = torch.optim.SGD(
        [{"params": net[0].weight, "weight_decay": wd}, {"params": net[0].bias}], lr=lr
    )
    for epoch in range(num_epochs):
        for X, y in train_iter:
            trainer.zero_grad()
            l = loss(net(X), y)
            l.mean().backward()
            trainer.step()
        if (epoch + 1) % 10 == 0:
            print(
                f"epoch {epoch + 1}: train {evaluate_loss(net, train_iter, loss):.4f}, "
                f"test {evaluate_loss(net, test_iter, loss):.4f}"
            )
    print([g["weight_decay"] for g in trainer.param_groups])
    print("L2 norm of w:", f"{net[0].weight.norm().item():.5f}")


train_concise(0)
train_concise(3)

# numerical stability
x = torch.arange(-8.0, 8.0, 0.1, requires_grad=True)
y = torch.sigmoid(x)
y.backward(torch.ones_like(x))
print(x.shape, x.dtype)
print(f"{x.grad.max().item():.4f} at {x[x.grad.argmax()].item():.1f}, {x.grad[0].item():.6f}")
print(x.detach()[::20], x.grad[::20])
M = torch.normal(0, 1, size=(4, 4))
print("a single matrix\n", M)
for i in range(100):  # noqa: B007  (as the book)
    M = torch.mm(M, torch.normal(0, 1, size=(4, 4)))
print("after multiplying 100 matrices")
print(f"{M.abs().max().item():.3e}", M.isfinite().all().item())
